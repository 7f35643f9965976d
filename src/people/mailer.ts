/**
 * Mail to people: confirmation, password-reset and invitation links, sent through the SMTP relay named by SMTP_URL
 * with nodemailer (well kept, speaks STARTTLS and authentication). Without a relay the messages go to the log and the
 * dashboard shows their link on the page (`showsLinks`), which is for development on one's own machine; with
 * NODE_ENV=production they are dropped instead, and no link is ever shown: a production service sets SMTP_URL.
 */
import nodemailer from 'nodemailer';
import type { Logger } from '../log.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** No relay, not production: the page may show the link a mail carried (to a request from this machine). */
  readonly showsLinks: boolean;
  /** A relay is configured: a message sent goes out (without one it is logged, or dropped in production). */
  readonly sends: boolean;
  close(): void;
}

export function createMailer(settings: { smtpUrl?: string; mailFrom: string; logMail: boolean }, logger: Logger): Mailer {
  if (!settings.smtpUrl) {
    return {
      showsLinks: settings.logMail,
      sends: false,
      // In production the links (a password reset's) must not reach the logs: the mail is dropped, and said so.
      async send(message) {
        if (settings.logMail) logger.warn({ to: message.to, subject: message.subject, text: message.text }, 'SMTP_URL is not set: mail written to the log');
        else logger.error({ subject: message.subject }, 'SMTP_URL is not set: mail not sent');
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(settings.smtpUrl);
  return {
    showsLinks: false,
    sends: true,
    async send(message) {
      await transport.sendMail({ from: settings.mailFrom, to: message.to, subject: message.subject, text: message.text });
    },
    close() {
      transport.close();
    },
  };
}
