/**
 * The widget's address suggestions (src/widget/README.md#address-suggestions) in Debian's Chromium against the real
 * service: the street field as an ARIA combobox, debounced requests to GET /v1/address/autocomplete, keyboard and
 * mouse, the fields filled, nothing charged, and the form never held.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { testDatabases } from '../support/databases.js';
import { prerequisites } from '../support/prerequisites.js';
import { useTestService, type TestService } from '../support/service.js';

const SUITE = 'the widget\'s address suggestions in Chromium';

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  const service = useTestService(testDatabases[0], { RATE_LIMIT_PER_MINUTE: '1000', PUBLISHABLE_RATE_LIMIT_PER_MINUTE: '1000' });
  let browser: Browser;
  let store: http.Server;
  let storeOrigin: string;
  let storeScript = '';
  const submissions: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    // A store's page on another origin (localhost vs the service's 127.0.0.1): the requests go cross-origin, preflighted.
    store = http.createServer((req, res) => {
      if (req.method === 'POST') {
        submissions.push(req.url ?? '');
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Order placed</h1>');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Checkout</title>
<form method="post" action="/submitted"><fieldset><legend>Shipping</legend>
<label>Street <input name="checkout[shipping_address][address1]"></label>
<label>City <input name="checkout[shipping_address][city]"></label>
<label>State <select name="checkout[shipping_address][province]"><option value="">-</option><option value="KY">Kentucky</option><option value="DC">District of Columbia</option></select></label>
<label>ZIP <input name="checkout[shipping_address][zip]"></label>
</fieldset><button>Place order</button></form>${storeScript}`);
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeOrigin = `http://localhost:${(store.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => store?.close(resolve));
  });

  async function keyFor(s: TestService, origins: string[]): Promise<{ key: string; secret: string }> {
    const { apiKey } = await s.newAccount(100);
    const res = await s.post('/v1/keys', { publishable: true, origins }, { key: apiKey });
    // The suggestions' index is built on the first request a service gets (docs/api.md): not by the browser's, whose
    // timeout a loaded test machine could outlast.
    expect((await s.get('/v1/address/autocomplete?q=6007', apiKey)).status).toBe(200);
    return { key: ((await res.json()) as { api_key: string }).api_key, secret: apiKey };
  }

  async function open(url: string): Promise<{ page: Page; asked: string[] }> {
    const page = await browser.newPage();
    const asked: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/v1/address/autocomplete') && req.method() === 'GET') asked.push(new URL(req.url()).searchParams.get('q')!);
    });
    await page.goto(url);
    return { page, asked };
  }

  it('When the shopper types the start of an address, then a listbox of suggestions opens, and Down then Enter fills the fields without submitting', async () => {
    // Arrange
    const s = service();
    const { key, secret } = await keyFor(s, [s.url]);
    const { page, asked } = await open(`${s.url}/widget/demo?key=${key}`);
    const street = page.getByRole('combobox', { name: 'Address' });

    // Act: typed key by key, faster than the debounce
    await page.getByLabel('Address', { exact: true }).pressSequentially('6007 Appl', { delay: 30 });
    const list = page.getByRole('listbox', { name: 'Address suggestions' });
    await expect.poll(() => list.isVisible(), { timeout: 5000 }).toBe(true);
    const options = list.getByRole('option');

    // Assert: the combobox pattern (WAI-ARIA APG: editable combobox with list autocomplete)
    expect(await options.allTextContents()).toEqual(['6007 APPLEGATE LN, LOUISVILLE, KY 40219']);
    expect(await street.getAttribute('aria-expanded')).toBe('true');
    expect(await street.getAttribute('aria-autocomplete')).toBe('list');
    expect(await street.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
    expect(asked).toEqual(['6007 Appl']); // one request for nine keystrokes

    await street.press('ArrowDown');
    expect(await street.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await street.press('Enter');

    expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('6007 APPLEGATE LN');
    expect(await page.getByLabel('City').inputValue()).toBe('LOUISVILLE');
    expect(await page.getByLabel('State').inputValue()).toBe('KY');
    expect(await page.getByLabel('ZIP code').inputValue()).toBe('40219');
    expect(await street.getAttribute('aria-expanded')).toBe('false');
    expect(await street.getAttribute('aria-activedescendant')).toBeNull();
    expect(await list.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/widget/demo'); // Enter took the suggestion, not the form
    await page.waitForTimeout(400);
    expect(asked).toHaveLength(1); // filling the field asked nothing more
    const account = (await (await s.get('/v1/account', secret)).json()) as { balance: number };
    expect(account.balance).toBe(100); // suggestions are free
    await page.close();
  });

  it('When a store page on another origin uses it, then a click on a suggestion fills a select too, and Enter with nothing highlighted submits', async () => {
    const s = service();
    const { key } = await keyFor(s, [storeOrigin]);
    storeScript = `<script src="${s.url}/widget.js" data-key="${key}" defer></script>`;
    const { page, asked } = await open(`${storeOrigin}/checkout`);
    await page.getByLabel('Street').pressSequentially('1745 T St', { delay: 20 });
    const street = page.getByRole('combobox', { name: 'Street' }); // once focused, the field is a combobox
    const option = page.getByRole('option', { name: '1745 T ST SE, WASHINGTON, DC 20020' });
    await expect.poll(() => option.isVisible(), { timeout: 5000 }).toBe(true);
    await option.click();

    expect(await street.inputValue()).toBe('1745 T ST SE');
    expect(await page.getByLabel('City').inputValue()).toBe('WASHINGTON');
    expect(await page.getByLabel('State').inputValue()).toBe('DC');
    expect(await page.getByLabel('ZIP').inputValue()).toBe('20020');
    expect(asked).toEqual(['1745 T St']);

    // Escape closes a list; Enter with no suggestion highlighted is the form's own.
    await street.fill('6007 Applegate');
    await expect.poll(() => page.getByRole('listbox').isVisible(), { timeout: 5000 }).toBe(true);
    await street.press('Escape');
    expect(await page.getByRole('listbox').isVisible()).toBe(false);
    const before = submissions.length;
    await Promise.all([page.waitForURL('**/submitted'), street.press('Enter')]);
    expect(submissions.length).toBe(before + 1);
    await page.close();
  });

  it('When fewer than three characters are typed, or the store turns suggestions off, then nothing is asked', async () => {
    const s = service();
    const { key } = await keyFor(s, [storeOrigin]);
    storeScript = `<script src="${s.url}/widget.js" data-key="${key}" defer></script>`;
    const short = await open(`${storeOrigin}/checkout`);
    await short.page.getByLabel('Street').pressSequentially('60', { delay: 20 });
    await short.page.waitForTimeout(500);

    storeScript = `<script src="${s.url}/widget.js" data-key="${key}" data-autocomplete="off" defer></script>`;
    const off = await open(`${storeOrigin}/checkout`);
    await off.page.getByLabel('Street').pressSequentially('6007 Appl', { delay: 20 });
    await off.page.waitForTimeout(500);

    expect(short.asked).toEqual([]);
    expect(off.asked).toEqual([]);
    expect(await off.page.locator('input[role=combobox]').count()).toBe(0);
    await short.page.close();
    await off.page.close();
  });
});
