/** A real SMTP server on 127.0.0.1 (smtp-server) that keeps every message it is given, for tests of the mail we send. */
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  subject: string;
  /** The text body, quoted-printable decoded. */
  text: string;
}

export interface MailCatcher {
  url: string;
  messages: CaughtMail[];
  /** The newest message to an address among those after the first `after` messages, waiting up to 5 s for one. */
  next(to: string, after?: number): Promise<CaughtMail>;
  /** The link to `path` (…/reset?token=…) in the newest message to an address (after the first `after` messages). */
  link(to: string, path: string, after?: number): Promise<string>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(text.replace(/=\r?\n/g, ''), 'latin1').toString('latin1')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function parse(raw: string, to: string[]): CaughtMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const qp = /quoted-printable/i.test(header('Content-Transfer-Encoding'));
  const b64 = /base64/i.test(header('Content-Transfer-Encoding'));
  const text = qp ? decodeQuotedPrintable(body) : b64 ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { to, subject: header('Subject'), text };
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push(parse(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address.toLowerCase())));
        for (const wake of waiting.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  const newest = (to: string, after: number) => messages.slice(after).filter((m) => m.to.includes(to.toLowerCase())).at(-1);
  const catcher: MailCatcher = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async next(to, after = 0) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const found = newest(to, after);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within 5 s`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async link(to, path, after = 0) {
      const mail = await catcher.next(to, after);
      const match = new RegExp(`https?://[^\\s]+${path.replace(/[/?]/g, '\\$&')}\\?token=[A-Za-z0-9_.-]+`).exec(mail.text);
      if (!match) throw new Error(`no ${path} link in the mail to ${to}: ${mail.text}`);
      return match[0];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return catcher;
}
