/**
 * Every dashboard page in Chromium at a desktop's width (1280 px) and a phone's (375 px), issue 52 item 6. The pages
 * come from the dashboard's own route declarations (the router src/web mounts, read from the running service), so a
 * page added later is swept without being listed here. A page wider than its window fails, and so does anything that
 * sticks out of its box (a card, a notice, a stat) unless it sits in a box that scrolls.
 *
 * Before the sweep, a new person's first hour: the Overview's first steps, the "check your mail" answer with and
 * without a mail relay, a key's first call run as shown, the widget's demo and the way back, a CSV without a usable
 * column, and a batch whose page ends with the same balance as the Overview. Screenshots of every page go to
 * test/web/__screenshots__/ (not committed).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type express from 'express';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOfRouter } from '../../src/http/endpoints/router.js';
import { NAV } from '../../src/web/pages/layout.js';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { request } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { prerequisites } from '../support/prerequisites.js';
import { startTestService, type TestService } from '../support/service.js';
import { startFakeShop, type FakeShop } from '../shopify/fake-admin.js';

const SUITE = 'every dashboard page at 1280 and 375 px, in Chromium';
const SCREENSHOTS = path.resolve(import.meta.dirname, '__screenshots__');
const PASSWORD = 'a long enough passphrase';
/** A long address: the page that names it must still fit a phone. */
const EMAIL = 'first.person.with.a.rather.long.address@sweep-shop.example';
const WIDTHS = [{ name: 'desktop', width: 1280, height: 800 }, { name: 'phone', width: 375, height: 740 }] as const;
const CURL = '/usr/bin/curl';

/**
 * How far the page is wider than its window, and every element that ends right of the window or sticks out of its
 * box (a card, a notice, a stat, a command, main), unless a box between them scrolls or clips. Run in the page.
 */
const LAYOUT = `(() => {
  const width = window.innerWidth;
  const inScroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().replace(/\\s+/g, '.') : '');
  const out = [];
  const check = (what, r, parent, text) => {
    const box = parent && parent.closest('.card, .flash, .stat, .command, .banner, main');
    const edge = box ? Math.min(width, box.getBoundingClientRect().right) : width;
    if (r.right > edge + 0.5) out.push(what + ' "' + (text || '').trim().slice(0, 30) + '" ' + Math.round(r.right - edge) + ' px out of ' + (box ? name(box) : 'the window'));
  };
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || ['absolute', 'fixed'].includes(getComputedStyle(el).position) || inScroller(el)) continue;
    check(name(el), r, el.parentElement, el.textContent);
  }
  // Text that does not wrap runs out of its element's box while the box itself fits: measured line by line.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || !parent || ['absolute', 'fixed'].includes(getComputedStyle(parent).position) || inScroller(node)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width) check('text in ' + name(parent), r, parent, node.textContent);
  }
  return { sideways: document.documentElement.scrollWidth - window.innerWidth, out };
})()`;

interface Layout { sideways: number; out: string[] }

/** The dashboard's GET routes, as the running service's router declares them (src/web). */
function dashboardPages(s: TestService): string[] {
  const app = s.server.listeners('request').find((listener) => 'router' in listener) as express.Express | undefined;
  if (!app) throw new Error('the service answers through no Express app');
  const dashboard = (app.router.stack as Array<{ handle: { stack?: Array<{ route?: { path: string } }> } }>)
    .map((layer) => layer.handle)
    .find((handle) => handle.stack?.some((layer) => layer.route?.path === '/signin'));
  if (!dashboard) throw new Error('the dashboard router is not mounted');
  return [...new Set(routesOfRouter(dashboard as unknown as express.Router).filter((r) => r.method === 'get').map((r) => r.path))];
}

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  let s: TestService;
  let dev: TestService;
  let mail: MailCatcher;
  let shop: FakeShop;
  let browser: Browser;
  let desktop: BrowserContext;
  let page: Page;

  /** The open page at both widths (the same document laid out again), screenshots kept. */
  async function measureBoth(p: Page, name: string): Promise<Record<string, Layout>> {
    const found: Record<string, Layout> = {};
    for (const w of WIDTHS) {
      await p.setViewportSize({ width: w.width, height: w.height });
      found[`${name} @${w.width}`] = await p.evaluate(LAYOUT) as Layout;
      await p.screenshot({ path: path.join(SCREENSHOTS, `sweep-${name.replace(/[^\w-]+/g, '_')}-${w.name}.png`), fullPage: true });
    }
    await p.setViewportSize({ width: WIDTHS[0].width, height: WIDTHS[0].height });
    return found;
  }
  /** Every page that does not fit, all at once (one failure lists them all). */
  const fits = (found: Record<string, Layout>) => {
    expect(Object.entries(found).filter(([, layout]) => layout.sideways > 0 || layout.out.length > 0)).toEqual([]);
  };
  const balances = (p: Page) => p.locator('[data-balance]').allTextContents().then((all) => all.map((t) => Number(t.replace(/,/g, ''))));

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    mail = await startMailCatcher();
    shop = await startFakeShop({ shop: 'sweep.myshopify.com' });
    const common = { FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', RATE_LIMIT_PER_MINUTE: '1000' };
    s = await startTestService(await testDatabases[0].create(), {
      ...common, SMTP_URL: mail.url, CONNECTOR_SECRET_KEY: 'd4'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: shop.url,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    // No mail relay: a development service on this machine shows the mail's link on the page instead.
    dev = await startTestService(await testDatabases[0].create(), common);
    browser = await launchChromium();
    desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page = await desktop.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([s?.close(), dev?.close()]);
    await shop?.close();
    await mail?.close();
    await testDatabases[0].dropAll();
  });

  async function signUp(p: Page, base: string, email: string) {
    await p.goto(`${base}/signup`);
    await p.getByLabel('E-mail address').fill(email);
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Create account' }).click();
    await p.locator('h1').waitFor();
  }

  it('When a person signs up, then the answer says only what happened to the mail, and fits both screens', async () => {
    // Act: with a relay, and without one (the link shown on the page).
    await signUp(page, s.url, EMAIL);
    const relayed = { h1: await page.locator('h1').textContent(), text: await page.locator('main').textContent(), layout: await measureBoth(page, 'check-mail') };
    const devPage = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signUp(devPage, dev.url, EMAIL);
    const shown = {
      text: await devPage.locator('main').textContent(), link: await devPage.getByTestId('mail-link').getByRole('link').getAttribute('href'),
      layout: await measureBoth(devPage, 'check-mail-no-relay'),
    };
    await devPage.close();

    // Assert
    expect(relayed.h1).toBe('Check your mail');
    expect(relayed.text).toContain('We sent a message');
    expect(relayed.text).not.toContain('Mail is not configured');
    expect(shown.text).toContain('Mail is not configured');
    expect(shown.text).not.toContain('We sent');
    expect(shown.link).toMatch(/\/confirm\?token=/);
    fits({ ...relayed.layout, ...shown.layout });
  });

  it("When a new account opens the Overview, then it shows the first call, a sample CSV and the docs, and no empty chart", async () => {
    await page.goto(await mail.link(EMAIL, '/confirm'));
    await page.getByLabel('E-mail address').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${s.url}/`);

    const steps = page.getByTestId('first-steps');
    const command = await steps.getByTestId('first-call').textContent();
    const sample = await fetch(`${s.url}${await steps.getByTestId('sample-csv').getAttribute('href')}`);
    const sampleCsv = await sample.text();
    const docs = await fetch(`${s.url}${await steps.getByRole('link', { name: 'The API reference' }).getAttribute('href')}`);
    const layout = await measureBoth(page, 'overview-new');

    expect(await page.locator('.chart').count()).toBe(0);
    await expect(page.getByTestId('no-usage').textContent()).resolves.toContain('No check');
    expect(command).toContain(`curl -s ${s.url}/v1/validate`);
    expect(command).toContain('Bearer $API_KEY');
    expect(await steps.getByRole('button', { name: 'Create a secret key' }).count()).toBe(1);
    expect(sample.status).toBe(200);
    expect(sample.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(sampleCsv.split('\r\n')[0]).toBe('name,email,phone,street,city,state,zip');
    expect(docs.status).toBe(200);
    fits(layout);
  });

  it('When a key is created, then its first call is a whole command that runs as shown, and the widget demo leads back', async () => {
    await page.goto(`${s.url}/keys`);
    await page.getByRole('button', { name: 'Create a secret key' }).click();
    const key = await page.getByTestId('new-key').inputValue();
    const command = (await page.getByTestId('first-call').textContent())!;
    const keysLayout = await measureBoth(page, 'keys-new-secret');

    // Run as shown: through a shell with curl where there is one, and always by its parts.
    const shell = fs.existsSync(CURL) ? JSON.parse((await promisify(execFile)('sh', ['-c', command])).stdout) as Record<string, unknown> : null;
    const url = /curl -s (\S+)/.exec(command)![1];
    const headers = Object.fromEntries([...command.matchAll(/-H "([^:]+): ([^"]+)"/g)].map((m) => [m[1], m[2]]));
    const body = /-d '([^']+)'/.exec(command)![1];
    const replayed = await fetch(url, { method: 'POST', headers, body });

    await page.getByLabel('Sites (origins), comma-separated').fill(s.url);
    await page.getByRole('button', { name: 'Create a publishable key' }).click();
    const tag = await page.getByTestId('widget-tag').textContent();
    const publishableLayout = await measureBoth(page, 'keys-new-publishable');
    await page.getByRole('link', { name: 'try it on the demo page first' }).click();
    const demo = { url: page.url(), layout: await measureBoth(page, 'widget-demo') };
    await page.getByRole('link', { name: 'Back to your API keys' }).click();
    const back = page.url();

    expect(command).toContain(`Bearer ${key}`);
    expect(command).toMatch(/^curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/validate \\\n/);
    if (shell) expect(shell).toMatchObject({ address: { status: expect.any(String) }, credits: { charged: expect.any(Number) } });
    expect(replayed.status).toBe(200);
    expect(tag).toMatch(new RegExp(`^<script src="${s.url}/widget.js" data-key="cv_pub_\\w+" defer></script>$`));
    expect(demo.url).toMatch(/\/widget\/demo\?key=cv_pub_/);
    expect(back).toBe(`${s.url}/keys`);
    fits({ ...keysLayout, ...publishableLayout, ...demo.layout });
  });

  it('When a CSV has no usable column, then the form says so once, in its own words', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cv-sweep-')), 'nothing.csv');
    fs.writeFileSync(file, 'id,notes\n1,hello\n2,world\n');
    await page.goto(`${s.url}/batches`);
    await page.getByLabel('CSV file').setInputFiles(file);
    const estimate = page.locator('#upload-estimate');
    await expect.poll(() => estimate.textContent(), { timeout: 10_000 }).toMatch(/^Line 1/);
    const said = (await estimate.textContent())!;
    const disabled = await page.getByRole('button', { name: 'Upload and check' }).isDisabled();
    // Sent anyway (the button forced on): the refusal moves to the upload's status, not said a second time.
    await page.evaluate(`document.querySelector('#upload-form button[type=submit]').disabled = false`);
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await expect.poll(() => page.locator('#upload-status').textContent(), { timeout: 10_000 }).toMatch(/^Line 1/);
    const main = (await page.locator('main').textContent())!;
    const layout = await measureBoth(page, 'batches-no-column');
    // Without the page's script the form posts itself, and the answer is a page in the same words.
    const plain = await browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies(await desktop.cookies());
    const noScript = await plain.newPage();
    await noScript.goto(`${s.url}/batches`);
    await noScript.getByLabel('CSV file').setInputFiles(file);
    await noScript.getByRole('button', { name: 'Upload and check' }).click();
    await noScript.locator('h1').waitFor();
    const answered = (await noScript.locator('main').textContent())!;
    await plain.close();

    expect(said).toContain('"Columns and options"');
    expect(said).not.toMatch(/address_columns|email_column|phone_column/);
    expect(disabled).toBe(true);
    expect(main.split('Line 1:').length - 1).toBe(1);
    expect(main).not.toMatch(/address_columns|email_column|phone_column/);
    expect(answered.split('Line 1:').length - 1).toBe(1);
    expect(answered).toContain('"Columns and options"');
    expect(answered).not.toMatch(/address_columns|email_column|phone_column/);
    fits(layout);
  });

  it('When the sample CSV is uploaded, then the page stops saying "being checked" and its balance is the Overview\'s', async () => {
    await page.goto(`${s.url}/batches`);
    const [before] = await balances(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'the sample CSV' }).click()]);
    await page.getByLabel('CSV file').setInputFiles((await download.path())!);
    await expect.poll(() => page.locator('#upload-estimate').textContent(), { timeout: 10_000 }).toMatch(/^About/);
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.waitForURL(/\/batches\?done=batch-uploaded/);
    await page.getByRole('link', { name: 'Download CSV' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => page.locator('.flash').first().textContent(), { timeout: 5_000 }).not.toContain('being checked');
    const onBatches = await balances(page);
    const charged = Number((await page.locator('tr[data-batch] .batch-credits').first().textContent())!.replace(/,/g, ''));
    const layout = await measureBoth(page, 'batches-done');
    await page.goto(`${s.url}/`);
    const onOverview = await balances(page);

    expect(charged).toBeGreaterThan(0);
    expect(new Set(onBatches)).toEqual(new Set([before - charged]));
    expect(onOverview).toEqual([before - charged]);
    fits(layout);
  });

  it('When every page the dashboard declares is opened signed in and signed out, then none is wider than its window or sticks out of its box', async () => {
    // Arrange: something behind every id a page takes, and the links mail carries.
    const apiKey = await (async () => {
      await page.goto(`${s.url}/keys`);
      await page.getByRole('button', { name: 'Create a secret key' }).click();
      return page.getByTestId('new-key').inputValue();
    })();
    const created = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: 'A store with a rather long name for a phone', schedule: '0 3 * * *',
      settings: { shop: 'sweep.myshopify.com', resources: ['customers', 'orders'] },
      credentials: { access_token: shop.state.accessToken, api_secret: 'shpss_sweep_secret' },
    });
    const connectorId = ((await created.json()) as { connector_id: string }).connector_id;
    await page.goto(`${s.url}/webhook-endpoints`);
    await page.getByLabel('URL').fill('http://127.0.0.1:9/contact-validator/events/with/a/rather/long/path/that/has/no/space/to/wrap/at/anywhere');
    await page.getByLabel(/batch\.completed/).check();
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    const webhookLayout = await measureBoth(page, 'webhooks-new-secret');
    await page.goto(`${s.url}/members`);
    const invited = 'colleague.with.a.rather.long.address@sweep-shop.example';
    await page.getByLabel('Their e-mail address').fill(invited);
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.waitForURL(/done=invited/);
    const batchId = await page.goto(`${s.url}/batches`).then(() => page.locator('tr[data-batch]').first().getAttribute('data-batch'));
    const queries: Record<string, string> = {
      '/invite': pathOf(await mail.link(invited, '/invite')).slice('/invite'.length),
      '/confirm': pathOf(await mail.link(EMAIL, '/confirm')).slice('/confirm'.length),
    };
    const signedOut = await browser.newContext();
    const outPage = await signedOut.newPage();
    await outPage.goto(`${s.url}/forgot`);
    await outPage.getByLabel('E-mail address').fill(EMAIL);
    await outPage.getByRole('button', { name: 'Send the link' }).click();
    queries['/reset'] = pathOf(await mail.link(EMAIL, '/reset')).slice('/reset'.length);

    const declared = dashboardPages(s);
    const urls = declared.map((route) => route
      .replace(/^\/batches\/:id/, `/batches/${batchId}`)
      .replace(/^\/connectors\/:id/, `/connectors/${connectorId}`)
      // (Every plugin's OAuth callback is one route: the platform's name fills it; without a flow it answers its error page.)
      .replace(/^\/connectors\/:type/, '/connectors/salesforce') + (queries[route] ?? ''));
    const cookie = (await desktop.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const kinds = await Promise.all(urls.map(async (url) => {
      const res = await fetch(`${s.url}${url}`, { headers: { cookie, accept: 'text/html' } });
      await res.arrayBuffer();
      return res.headers.get('content-type') ?? '';
    }));
    const pages = urls.filter((_url, i) => kinds[i].startsWith('text/html'));
    const files = urls.filter((_url, i) => !kinds[i].startsWith('text/html')).map((url) => url.replace(/\?.*/, ''));
    // The widget's demo is the API's page, reached from the keys page.
    pages.push('/widget/demo');

    // Act: each page at each width, signed in, then signed out.
    const found: Record<string, Layout> = {};
    for (const [who, context] of [['in', desktop], ['out', signedOut]] as const) {
      for (const w of WIDTHS) {
        const p = await context.newPage();
        await p.setViewportSize({ width: w.width, height: w.height });
        for (const url of pages) {
          await p.goto(`${s.url}${url}`);
          found[`${url} signed ${who} @${w.width}`] = await p.evaluate(LAYOUT) as Layout;
          if (who === 'in') await p.screenshot({ path: path.join(SCREENSHOTS, `sweep${url.replace(/\?.*/, '').replace(/[^\w-]+/g, '_')}-${w.name}.png`), fullPage: true });
        }
        await p.close();
      }
    }
    await signedOut.close();

    // Assert: the declared pages are all there, every id filled, and every one fits.
    expect(declared.length).toBeGreaterThanOrEqual(20);
    expect(urls.filter((url) => url.includes('/:'))).toEqual([]);
    for (const [href] of NAV) expect(pages).toContain(href);
    expect(pages).toEqual(expect.arrayContaining(['/settings', '/signin', '/signup', '/forgot', `/connectors/${connectorId}/check`, `/connectors/${connectorId}/store`]));
    expect(files.sort()).toEqual([
      '/assets/dashboard.css', '/assets/dashboard.js', '/batches/sample.csv', `/batches/${batchId}/result`, `/batches/${batchId}/status`,
      '/favicon.ico', '/favicon.svg',
    ].sort());
    expect(Object.keys(found).length).toBe(pages.length * 4);
    fits({ ...webhookLayout, ...found });
  }, 300_000); // some 30 pages, four times over, on a loaded machine
});
