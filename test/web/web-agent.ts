/**
 * A person's browser, minus the rendering: keeps cookies, follows nothing by itself (redirects are asserted), and
 * sends forms with the CSRF token of the last page it read, as the browser would.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TestDatabase } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { startTestService, type TestService } from '../support/service.js';

export interface WebAnswer {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

export class WebAgent {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` value of the last page read. */
  csrf = '';

  constructor(readonly base: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async answer(res: Response): Promise<WebAnswer> {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? /data-csrf="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<WebAnswer> {
    const res = await fetch(this.base + path, { redirect: 'manual', headers: { cookie: this.cookieHeader(), accept: 'text/html', ...headers } });
    return this.answer(res);
  }

  /** A form post; `_csrf` is added unless the form names it (or `csrf: false`). */
  async post(path: string, form: Record<string, string>, options: { csrf?: boolean; headers?: Record<string, string> } = {}): Promise<WebAnswer> {
    const body = new URLSearchParams(options.csrf === false || '_csrf' in form ? form : { _csrf: this.csrf, ...form });
    const res = await fetch(this.base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
      body,
    });
    return this.answer(res);
  }

  /** Signs up (the page first, for its token) and lands signed in. */
  async signUp(email: string, password: string): Promise<WebAnswer> {
    await this.get('/signup');
    return this.post('/signup', { email, password });
  }

  async signIn(email: string, password: string): Promise<WebAnswer> {
    await this.get('/signin');
    return this.post('/signin', { email, password });
  }
}

let counter = 0;
/** A new address for each person a test makes. */
/**
 * A row of the check page's "What it reads and writes" (the plugin's discover): the cells of `field` in the table of
 * `object`, as words (`CV_Email__c string verdict written missing no no`); '' when the page has no such row.
 */
export function catalogRowOf(page: string, object: string, field: string): string {
  const table = page.split(`data-object="${object}"`)[1]?.split('</table>')[0] ?? '';
  const row = table.split(`<tr data-field="${field}">`)[1]?.split('</tr>')[0] ?? '';
  return row.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
}

export const newEmail = (tag: string) => `${tag}-${++counter}-${Date.now()}@example.com`;

/** Signs up, follows the mailed confirmation link, and signs in: a new account signs in once its address is confirmed. */
export async function signedUpPerson(base: string, mail: MailCatcher, tag: string, password: string): Promise<{ agent: WebAgent; email: string }> {
  const agent = new WebAgent(base);
  const email = newEmail(tag);
  const res = await agent.signUp(email, password);
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${res.text.slice(0, 500)}`);
  const link = new URL(await mail.link(email, '/confirm'));
  await agent.get(link.pathname + link.search);
  const signedIn = await agent.signIn(email, password);
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}: ${signedIn.text.slice(0, 500)}`);
  return { agent, email };
}

/** A new secret key made on the keys page, as its person would. */
export async function newKeyOf(agent: WebAgent): Promise<string> {
  await agent.get('/keys');
  const page = await agent.post('/keys', { kind: 'secret' });
  const key = /id="new-key"[^>]*value="([^"]+)"/.exec(page.text)?.[1];
  if (!key) throw new Error(`no new key on the page: ${page.status}`);
  return key;
}

/**
 * One service with a mail catcher for a describe block, on a fresh database, closed after it. Every test signs up and
 * in from 127.0.0.1: each starts with the people's counters cleared. Returns a getter (the service exists once
 * beforeAll has run).
 */
export function useServiceWithMail(database: TestDatabase, env: Record<string, string>): () => { s: TestService; mail: MailCatcher } {
  let started: { s: TestService; mail: MailCatcher } | undefined;
  beforeAll(async () => {
    const mail = await startMailCatcher();
    started = { mail, s: await startTestService(await database.create(), { SMTP_URL: mail.url, ...env }) };
  });
  beforeEach(async () => {
    await started!.s.db.run(`DELETE FROM rate_limit_counters WHERE bucket LIKE 'people:%'`);
  });
  afterAll(async () => {
    await started?.s.close();
    await started?.mail.close();
    await database.dropAll();
  });
  return () => started!;
}
