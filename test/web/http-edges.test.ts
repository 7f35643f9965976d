/**
 * The HTTP edges of the dashboard and the API: TRUST_PROXY behind a TLS-terminating proxy (issue 38 item 10), the
 * upload form's CSRF token out of its URL (item 10), errors that say how to fix them (issue 39 item 7), and mail
 * links in development (issue 39 item 8). Requests that need a Host header of their own go through node:http (fetch
 * sets Host itself).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { problemOf, startTestService, type TestService } from '../support/service.js';
import { newEmail, WebAgent } from './web-agent.js';

const PASSWORD = 'correct horse battery';
const database = testDatabases[0];

interface RawAnswer { status: number; headers: http.IncomingHttpHeaders; text: string }

/** One request with exactly these headers (Host included). */
function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {}): Promise<RawAnswer> {
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: init.method ?? 'GET',
      headers: { ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } : {}), ...init.headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A form sent as a browser at `host` would: the page first (its pre-session CSRF cookie and token), then the form. */
async function formAt(base: string, host: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const page = await raw(base, path, { headers: { host, ...headers } });
  const cookie = (page.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
  return raw(base, path, { method: 'POST', headers: { host, cookie, ...headers }, form: { _csrf: csrf, ...form } });
}

const mailLinkOf = (text: string) => /data-testid="mail-link">[^<]*<a href="([^"]+)"/.exec(text)?.[1];

describe('the HTTP edges', () => {
  let dev: TestService;
  let production: TestService;
  let proxied: TestService;
  let mail: MailCatcher;
  const port = (s: TestService) => new URL(s.url).port;

  beforeAll(async () => {
    mail = await startMailCatcher();
    const common = { FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10' };
    [dev, production, proxied] = await Promise.all([
      startTestService(await database.create(), common),
      startTestService(await database.create(), { ...common, NODE_ENV: 'production' }),
      startTestService(await database.create(), { ...common, SMTP_URL: mail.url, TRUST_PROXY: 'loopback', SIGN_UPS_PER_15_MIN: '1' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([dev?.close(), production?.close(), proxied?.close()]);
    await mail?.close();
    await database.dropAll();
  });

  describe('mail links in development', () => {
    it('When mail is not configured and a person signs up at http://localhost, then the page shows the confirmation link, on localhost, and it works', async () => {
      const host = `localhost:${port(dev)}`;
      const email = newEmail('dev');
      const page = await formAt(dev.url, host, '/signup', { email, password: PASSWORD });
      const link = mailLinkOf(page.text);
      const confirmed = await raw(dev.url, new URL(link!).pathname + new URL(link!).search, { headers: { host } });

      expect(page.status).toBe(200);
      expect(page.text).toContain('Mail is not configured');
      expect(link).toMatch(new RegExp(`^http://localhost:${port(dev)}/confirm\\?token=`));
      expect(confirmed.status).toBe(303);
      expect(confirmed.headers.location).toBe('/signin?done=confirmed');
    });

    it('When a reset is asked for in development, then its link is on the page; through a proxy, or with a forged Host, it is not', async () => {
      const email = newEmail('dev-reset');
      await formAt(dev.url, `localhost:${port(dev)}`, '/signup', { email, password: PASSWORD });

      const local = await formAt(dev.url, `127.0.0.1:${port(dev)}`, '/forgot', { email });
      const forwarded = await formAt(dev.url, `127.0.0.1:${port(dev)}`, '/forgot', { email }, { 'x-forwarded-for': '203.0.113.9' });
      const forged = await formAt(dev.url, 'shop.example', '/forgot', { email });

      expect(mailLinkOf(local.text)).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port(dev)}/reset\\?token=`));
      expect(mailLinkOf(forwarded.text)).toBeUndefined();
      expect(mailLinkOf(forged.text)).toBeUndefined();
      expect(forged.status).toBe(200);
    });

    it('When the service runs in production without mail, then no link is ever shown on the page, and it says no message went', async () => {
      const host = `localhost:${port(production)}`;
      const email = newEmail('prod');
      const signUp = await formAt(production.url, host, '/signup', { email, password: PASSWORD });
      const reset = await formAt(production.url, host, '/forgot', { email });

      expect(signUp.status).toBe(200);
      expect(signUp.text).toContain('Mail is not configured');
      expect(signUp.text).not.toContain('We sent a message');
      for (const page of [signUp, reset]) {
        expect(page.text).not.toContain('token=');
        expect(mailLinkOf(page.text)).toBeUndefined();
      }
    });

    it("When someone forges the Host of a reset request, then the mailed link still points at the service, not at the forger's host", async () => {
      const email = newEmail('forged-host');
      await formAt(proxied.url, `127.0.0.1:${port(proxied)}`, '/signup', { email, password: PASSWORD }, { 'x-forwarded-for': '198.51.100.77' });
      const before = mail.messages.length;
      await formAt(proxied.url, 'attacker.example', '/forgot', { email });
      const link = await mail.link(email, '/reset', before);
      expect(link.startsWith(`${proxied.url}/reset?token=`)).toBe(true);
    });
  });

  describe('TRUST_PROXY', () => {
    it('When TLS ends at a trusted proxy (X-Forwarded-Proto: https), then the cookies are __Host- and Secure; without TRUST_PROXY the header is ignored', async () => {
      const behind = await raw(proxied.url, '/signin', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.1' } });
      const direct = await raw(dev.url, '/signin', { headers: { 'x-forwarded-proto': 'https' } });
      const cookieBehind = (behind.headers['set-cookie'] ?? []).join('\n');
      const cookieDirect = (direct.headers['set-cookie'] ?? []).join('\n');

      expect(cookieBehind).toMatch(/cv_csrf=[^;]+;.*Secure/i);
      expect(cookieDirect).not.toMatch(/Secure/i);

      // A session cookie made behind the proxy is the __Host- one.
      const email = newEmail('secure');
      const xff = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.2' };
      await formAt(proxied.url, `127.0.0.1:${port(proxied)}`, '/signup', { email, password: PASSWORD }, xff);
      const link = new URL(await mail.link(email, '/confirm'));
      await raw(proxied.url, link.pathname + link.search);
      const signedIn = await formAt(proxied.url, `127.0.0.1:${port(proxied)}`, '/signin', { email, password: PASSWORD }, xff);
      expect(signedIn.status).toBe(303);
      expect((signedIn.headers['set-cookie'] ?? []).join('\n')).toMatch(/__Host-cv_session=[^;]+;.*Secure/i);
    });

    it('When sign-ups come through a trusted proxy, then each forwarded client address has its own limit', async () => {
      const host = `127.0.0.1:${port(proxied)}`;
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const first = await formAt(proxied.url, host, '/signup', { email: newEmail('a'), password: PASSWORD }, from('203.0.113.5'));
      const again = await formAt(proxied.url, host, '/signup', { email: newEmail('a'), password: PASSWORD }, from('203.0.113.5'));
      const neighbour = await formAt(proxied.url, host, '/signup', { email: newEmail('b'), password: PASSWORD }, from('203.0.113.6'));
      expect([first.status, again.status, neighbour.status]).toEqual([200, 429, 200]);
    });

    it('When TRUST_PROXY is set, then it takes false, a hop count or addresses and subnets, and refuses anything else', () => {
      const trust = (value?: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;
      expect(trust()).toBe(false);
      expect(trust('false')).toBe(false);
      expect(trust('1')).toBe(1);
      expect(trust('loopback, 10.0.0.0/8,192.168.1.4')).toEqual(['loopback', '10.0.0.0/8', '192.168.1.4']);
      expect(() => trust('true')).toThrow(/TRUST_PROXY/);
      expect(() => trust('proxy.example')).toThrow(/TRUST_PROXY/);
    });
  });

  describe('the upload form', () => {
    it('When the batches page is read, then the upload form carries its CSRF token in the body, not in the URL; sent without JavaScript it works', async () => {
      const agent = new WebAgent(dev.url);
      const email = newEmail('upload');
      const signUp = await agent.signUp(email, PASSWORD);
      const link = /data-testid="mail-link">[^<]*<a href="([^"]+)"/.exec(signUp.text)![1];
      await agent.get(new URL(link).pathname + new URL(link).search);
      await agent.signIn(email, PASSWORD);
      const page = await agent.get('/batches');
      const upload = (csrf: string | null) => {
        const form = new FormData();
        if (csrf !== null) form.append('_csrf', csrf);
        form.append('smtp', 'false');
        form.append('file', new Blob(['email\nann@example.com\n'], { type: 'text/csv' }), 'contacts.csv');
        return fetch(`${dev.url}/batches`, { method: 'POST', body: form, redirect: 'manual', headers: { cookie: `cv_session=${agent.cookies.get('cv_session')}` } });
      };

      const missing = await upload(null);
      const wrong = await upload('x'.repeat(43));
      const inQuery = await fetch(`${dev.url}/batches?_csrf=${agent.csrf}`, {
        method: 'POST', redirect: 'manual', headers: { cookie: `cv_session=${agent.cookies.get('cv_session')}` },
        body: (() => { const f = new FormData(); f.append('file', new Blob(['email\na@example.com\n']), 'a.csv'); return f; })(),
      });
      const listedBefore = (await agent.get('/batches', { accept: 'text/html' })).text.match(/data-batch="/g)?.length ?? 0;
      const sent = await upload(agent.csrf);

      expect(page.text).toMatch(/<form method="post" action="\/batches" enctype="multipart\/form-data"/);
      expect(page.text).not.toMatch(/action="[^"]*_csrf/);
      expect([missing.status, wrong.status, inQuery.status]).toEqual([403, 403, 403]);
      expect(listedBefore).toBe(0);
      expect(sent.status).toBe(303);
      expect(sent.headers.get('location')).toBe('/batches?done=batch-uploaded');
    });
  });

  describe('errors that say how to fix them', () => {
    it('When a key is sent without "Bearer ", then the 401 says to send "Authorization: Bearer <key>"', async () => {
      const { apiKey } = await dev.newAccount(10);
      const answers = await Promise.all([apiKey, `Token ${apiKey}`, `bearer:${apiKey}`].map((authorization) =>
        fetch(`${dev.url}/v1/validate`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: '{"email":"a@example.com"}' })));
      const right = await dev.post('/v1/validate', { email: 'a@example.com' }, { key: apiKey });

      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
        expect((await problemOf(res)).detail).toContain('Authorization: Bearer <key>');
      }
      expect(right.status).toBe(200);
    });

    it('When /v1/validate gets a body that is not JSON, then the 415 names application/json', async () => {
      const { apiKey } = await dev.newAccount(10);
      const form = await fetch(`${dev.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a@example.com' });
      const none = await fetch(`${dev.url}/v1/validate`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: new Uint8Array([123, 125]) });
      for (const res of [form, none]) {
        expect(res.status).toBe(415);
        expect((await problemOf(res)).detail).toContain('Content-Type: application/json');
      }
    });
  });
});
