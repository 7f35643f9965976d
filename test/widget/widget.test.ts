/**
 * The checkout widget (src/widget/README.md): GET /widget.js and the demo page over HTTP, then the script in a real browser
 * (Debian's Chromium driven by playwright-core, PLATFORM-NOTES.md) against the real service started in-process.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { testDatabases } from '../support/databases.js';
import { prerequisites } from '../support/prerequisites.js';
import { useTestService, type TestService } from '../support/service.js';

const SUITE = 'the widget in Chromium';

const SERVICE_ENV = { RATE_LIMIT_PER_MINUTE: '1000', PUBLISHABLE_RATE_LIMIT_PER_MINUTE: '1000' };

async function publishableKey(s: TestService, origins: string[]): Promise<string> {
  const { apiKey } = await s.newAccount(100);
  const res = await s.post('/v1/keys', { publishable: true, origins }, { key: apiKey });
  expect(res.status).toBe(201);
  return ((await res.json()) as { api_key: string }).api_key;
}

describe('GET /widget.js and the demo page', () => {
  const service = useTestService(testDatabases[0], SERVICE_ENV);

  it('When the script is asked for, then it is minified JavaScript any origin may load, cacheable for 5 minutes', async () => {
    const s = service();

    const res = await fetch(`${s.url}/widget.js`);
    const code = await res.text();
    const again = await fetch(`${s.url}/widget.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    const head = await fetch(`${s.url}/widget.js`, { method: 'HEAD' });
    const post = await fetch(`${s.url}/widget.js`, { method: 'POST' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]{22}"$/);
    expect(code).toMatch(/^"use strict";\(\(\)=>\{/); // one IIFE: no globals
    // preventDefault only for the open suggestion list's own keys (src/widget/autocomplete.ts); a submit is never held
    // (the tests below submit while checks and suggestions are under way).
    expect(code).not.toMatch(/innerHTML|eval\(/);
    expect(code.match(/preventDefault/g)).toHaveLength(3);
    expect(Buffer.byteLength(code)).toBeLessThan(13_000);
    console.info(`widget.js: ${Buffer.byteLength(code)} bytes minified`);
    expect(again.status).toBe(304);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('When the demo page gets a publishable key, then it loads the widget with it; anything else is never echoed', async () => {
    const s = service();
    const key = await publishableKey(s, [s.url]);

    const withKey = await (await s.get(`/widget/demo?key=${key}`)).text();
    const hostile = await s.get(`/widget/demo?key=${encodeURIComponent('"><script>alert(1)</script>')}`);
    const hostileHtml = await hostile.text();
    const secret = await (await s.get('/widget/demo?key=cv_live_0123456789abcdefghijABCDEFGHIJ0123456789')).text();

    expect(withKey).toContain(`<script src="/widget.js" data-key="${key}" data-form="#shipping" defer></script>`);
    expect(hostile.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(hostile.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(hostileHtml).not.toContain('alert(1)');
    expect(hostileHtml).not.toContain('<script');
    expect(secret).not.toContain('cv_live_');
  });
});

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  const service = useTestService(testDatabases[0], SERVICE_ENV);
  let browser: Browser;
  let store: http.Server;
  let storeOrigin: string;
  const submissions: { at: number }[] = [];
  let storeScript = '';

  beforeAll(async () => {
    browser = await launchChromium();
    // A store's own page on another origin (localhost vs the service's 127.0.0.1): the cross-origin case, with CORS.
    store = http.createServer((req, res) => {
      if (req.method === 'POST') {
        submissions.push({ at: Date.now() });
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Order placed</h1>');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Cart</title>
<form method="post" action="/submitted"><fieldset><legend>Billing</legend>
<input name="checkout[billing_address][address1]" aria-label="Street"><input name="checkout[billing_address][city]" aria-label="City">
<input name="checkout[billing_address][province]" aria-label="State"><input name="checkout[billing_address][zip]" aria-label="ZIP">
</fieldset><input name="note" aria-label="Note"><button>Place order</button></form>${storeScript}`);
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeOrigin = `http://localhost:${(store.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => store?.close(resolve));
  });

  async function openPage(url: string): Promise<{ page: Page; validateBodies: unknown[]; debugLines: string[]; cspErrors: string[] }> {
    const page = await browser.newPage();
    const validateBodies: unknown[] = [];
    const debugLines: string[] = [];
    const cspErrors: string[] = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/v1/validate') && req.method() === 'POST') validateBodies.push(req.postDataJSON());
    });
    page.on('console', (msg) => {
      if (msg.type() === 'debug') debugLines.push(msg.text());
      if (/Content.Security.Policy/i.test(msg.text())) cspErrors.push(msg.text());
    });
    await page.goto(url);
    return { page, validateBodies, debugLines, cspErrors };
  }

  async function typeAddress(page: Page, fields: Record<string, string>) {
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  }

  it('When the shopper leaves a misspelt address, then "Did you mean" shows the standardized address, and "Use this address" fills it in', async () => {
    // Arrange
    const s = service();
    const key = await publishableKey(s, [s.url]);
    const { page, validateBodies, cspErrors } = await openPage(`${s.url}/widget/demo?key=${key}`);
    await typeAddress(page, { Address: '6007 applegate lane', City: 'Louisvile', State: 'KY', 'ZIP code': '40219' });

    // Act: from the address fields to the e-mail field, which is outside the address group
    await page.getByLabel('E-mail').focus();
    const box = page.getByRole('status');
    await expect.poll(() => box.textContent(), { timeout: 5000 }).toContain('Did you mean');

    // Assert
    expect(validateBodies).toEqual([{
      address: { line1: '6007 applegate lane', city: 'Louisvile', state: 'KY', postal_code: '40219', country: 'US' },
      options: { smtp: false },
    }]);
    expect(await box.textContent()).toContain('6007 APPLEGATE LN');
    expect(await box.textContent()).toContain('LOUISVILLE, KY 40219');
    expect(await box.getAttribute('aria-live')).toBe('polite');
    // Styled through the CSSOM, under the demo page's CSP that has no 'unsafe-inline'.
    expect(await page.locator('.cvw-address').evaluate((el) => (globalThis as any).getComputedStyle(el).borderTopStyle as string)).toBe('solid');
    expect(cspErrors).toEqual([]);

    await page.getByRole('button', { name: 'Use this address' }).click();

    expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('6007 APPLEGATE LN');
    expect(await page.getByLabel('City').inputValue()).toBe('LOUISVILLE');
    expect(await page.getByLabel('State').inputValue()).toBe('KY');
    expect(await page.getByLabel('ZIP code').inputValue()).toBe('40219');
    expect(await page.locator('.cvw-address').count()).toBe(0);
    // Leaving the filled address again asks nothing more: the same input is never sent twice.
    await page.getByLabel('E-mail').focus();
    await page.waitForTimeout(600);
    expect(validateBodies).toHaveLength(1);
    await page.close();
  });

  it('When the shopper leaves an address that is right as typed (next_action accept), then no box interrupts them, even for its standardized spelling', async () => {
    // Arrange
    const s = service();
    const key = await publishableKey(s, [s.url]);
    const { page } = await openPage(`${s.url}/widget/demo?key=${key}`);
    await typeAddress(page, { Address: '6007 Applegate Lane', City: 'Louisville', State: 'KY', 'ZIP code': '40219' });

    // Act
    const answered = page.waitForResponse((r) => r.url().endsWith('/v1/validate') && r.request().method() === 'POST');
    await page.getByLabel('E-mail').focus();
    const answer = (await (await answered).json()) as { next_action: string; address: { status: string; standardized: string } };
    await page.waitForTimeout(300);

    // Assert: verified, spelt LN by the post office, and nothing to ask the shopper
    expect(answer).toMatchObject({ next_action: 'accept', address: { status: 'verified', standardized: '6007 APPLEGATE LN LOUISVILLE KY 40219' } });
    expect(await page.locator('.cvw-address').count()).toBe(0);
    await page.close();
  });

  it('When the shopper leaves an address that does not exist (next_action fix), then a note asks them to check it', async () => {
    const s = service();
    const key = await publishableKey(s, [s.url]);
    const { page } = await openPage(`${s.url}/widget/demo?key=${key}`);
    await typeAddress(page, { Address: '1 Nowhere Blvd', City: 'Springfield', State: 'ZZ', 'ZIP code': '00000' });

    const answered = page.waitForResponse((r) => r.url().endsWith('/v1/validate') && r.request().method() === 'POST');
    await page.getByLabel('E-mail').focus();
    const answer = (await (await answered).json()) as { next_action: string };

    expect(answer.next_action).toBe('fix');
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 5000 }).toContain('We could not find this address');
    expect(await page.getByRole('button', { name: 'Use this address' }).count()).toBe(0);
    await page.close();
  });

  it('When the shopper types an e-mail with a typo, then the suggestion is offered and fills the field', async () => {
    const s = service();
    const key = await publishableKey(s, [s.url]);
    const { page, validateBodies } = await openPage(`${s.url}/widget/demo?key=${key}`);

    await page.getByLabel('E-mail').fill('ann@gmial.com');
    await page.getByLabel('Address', { exact: true }).focus();
    const box = page.getByRole('status');
    await expect.poll(() => box.textContent(), { timeout: 5000 }).toContain('Did you mean ann@gmail.com?');
    await page.getByRole('button', { name: 'Use this e-mail' }).click();

    expect(validateBodies).toEqual([{ email: 'ann@gmial.com', options: { smtp: false } }]);
    expect(await page.getByLabel('E-mail').inputValue()).toBe('ann@gmail.com');
    expect(await page.locator('.cvw-email').count()).toBe(0);
    await page.close();
  });

  it('When a store page on another origin loads the script, then the check goes cross-origin with the key and "Keep mine" leaves the fields alone', async () => {
    const s = service();
    const key = await publishableKey(s, [storeOrigin]);
    storeScript = `<script src="${s.url}/widget.js" data-key="${key}" defer></script>`;
    const { page } = await openPage(`${storeOrigin}/cart`);
    await typeAddress(page, { Street: '6007 applegate lane', City: 'Louisvile', State: 'KY', ZIP: '40219' });

    await page.getByLabel('Note').focus();
    await expect.poll(() => page.getByRole('status').textContent(), { timeout: 5000 }).toContain('6007 APPLEGATE LN');
    await page.getByRole('button', { name: 'Keep mine' }).click();

    expect(await page.getByLabel('City').inputValue()).toBe('Louisvile');
    expect(await page.locator('.cvw-address').count()).toBe(0);
    await page.close();
  });

  it('When the script names a policy (data-policy), then its checks follow it: crm_cleanup takes a corrected address without asking', async () => {
    const s = service();
    const key = await publishableKey(s, [storeOrigin]);
    storeScript = `<script src="${s.url}/widget.js" data-key="${key}" data-policy="crm_cleanup" defer></script>`;
    const { page } = await openPage(`${storeOrigin}/cart`);
    await typeAddress(page, { Street: '6007 applegate lane', City: 'Louisvile', State: 'KY', ZIP: '40219' });

    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/validate' && r.request().method() === 'POST');
    await page.getByLabel('Note').focus();
    const response = await answered;
    const answer = (await response.json()) as { next_action: string; address: { status: string } };

    // The same address that asks "Did you mean" under the key's default (the test before) is accepted as corrected.
    expect(new URL(response.url()).searchParams.get('policy')).toBe('crm_cleanup');
    expect(answer).toMatchObject({ next_action: 'accept', address: { status: 'corrected' } });
    await page.waitForTimeout(300);
    expect(await page.locator('.cvw-address').count()).toBe(0);
    await page.close();
  });

  for (const [situation, api] of [
    ['nothing listens on the API port', () => closedPort()],
    ['the API accepts connections and never answers', () => hangingServer()],
  ] as const) {
    it(`When ${situation}, then the form still submits at once and no box appears`, async () => {
      // Arrange
      const s = service();
      const key = await publishableKey(s, [storeOrigin]);
      const target = await api();
      storeScript = `<script src="${s.url}/widget.js" data-key="${key}" data-api="${target.url}" defer></script>`;
      const { page, debugLines } = await openPage(`${storeOrigin}/cart`);
      await typeAddress(page, { Street: '6007 applegate lane', City: 'Louisvile', State: 'KY', ZIP: '40219' });
      await page.getByLabel('Note').focus();
      await page.waitForTimeout(500); // the check has started (debounce 350 ms)
      const failedOrPending = situation.startsWith('nothing') ? debugLines.length === 1 : target.posts === 1;
      const before = submissions.length;

      // Act
      const started = Date.now();
      await Promise.all([page.waitForURL('**/submitted'), page.getByRole('button', { name: 'Place order' }).click()]);
      const elapsed = Date.now() - started;

      // Assert
      expect(failedOrPending).toBe(true); // the check was really under way (or had failed) when the shopper submitted
      expect(elapsed).toBeLessThan(2000);
      expect(submissions.length).toBe(before + 1);
      expect(await page.locator('.cvw-box').count()).toBe(0);
      expect(debugLines.length).toBeLessThanOrEqual(1);
      await page.close();
      await target.close();
    });
  }

  it('When the API never answers and the shopper stays on the page, then the check gives up silently after its timeout', async () => {
    const s = service();
    const key = await publishableKey(s, [storeOrigin]);
    const target = await hangingServer();
    storeScript = `<script src="${s.url}/widget.js" data-key="${key}" data-api="${target.url}" defer></script>`;
    const { page, debugLines } = await openPage(`${storeOrigin}/cart`);
    await typeAddress(page, { Street: '6007 applegate lane', City: 'Louisvile', State: 'KY', ZIP: '40219' });

    await page.getByLabel('Note').focus();
    await expect.poll(() => debugLines, { timeout: 4000 }).toEqual([expect.stringContaining('AbortError')]);

    expect(await page.locator('.cvw-box').count()).toBe(0);
    expect(await page.getByLabel('Street').inputValue()).toBe('6007 applegate lane');
    await page.close();
    await target.close();
  });
});

interface ApiStandIn {
  url: string;
  /** Validation requests that reached it. */
  posts: number;
  close(): Promise<void>;
}

async function closedPort(): Promise<ApiStandIn> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return { url: `http://127.0.0.1:${port}`, posts: 0, close: async () => undefined };
}

/** Answers preflights (so the browser sends the request) and then never answers the request itself. */
async function hangingServer(): Promise<ApiStandIn> {
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') standIn.posts++;
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-origin': String(req.headers.origin),
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'Authorization, Content-Type',
      }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const standIn: ApiStandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: 0,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  return standIn;
}
