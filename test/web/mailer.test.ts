/** Mail without a relay (SMTP_URL unset): links in the log for development, never in production's log. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createMailer } from '../../src/people/mailer.js';

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger('info', { write: (line: string) => void lines.push(line) }) };
}

const message = { to: 'ann@example.com', subject: 'Reset your password', text: 'http://localhost/reset?token=secret-token' };

describe('mail without SMTP_URL', () => {
  it('When the service runs for development, then the mail, link included, is written to the log', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ mailFrom: 'cv <no-reply@example.com>', logMail: true }, logger);
    await mailer.send(message);
    expect(lines.join('')).toContain('secret-token');
    expect(mailer.showsLinks).toBe(true); // the dashboard may show the link to a browser on this machine
  });

  it('When NODE_ENV is production, then the mail is dropped with an error and no link reaches the log', async () => {
    const { lines, logger } = capture();
    const mailer = createMailer({ mailFrom: 'cv <no-reply@example.com>', logMail: false }, logger);
    await mailer.send(message);
    expect(lines.join('')).not.toContain('secret-token');
    expect(mailer.showsLinks).toBe(false);
    expect(lines.join('')).toContain('mail not sent');
  });
});
