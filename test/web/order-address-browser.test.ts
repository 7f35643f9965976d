/**
 * The buyer's page about a doubtful delivery address (docs/shopify.md), in Debian's Chromium: the mail's link opens
 * the order's address as the store has it; an undeliverable correction is refused with the form kept; a deliverable one
 * is written to the order (orderUpdate at the local Admin API stand-in) and releases the fulfillment hold; "This
 * address is right" releases another order's hold. A forged link, another site's form and a flood are refused.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY, launchChromium } from '../support/chromium.js';
import { json, request } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { prerequisites } from '../support/prerequisites.js';
import { startTestService, type TestService } from '../support/service.js';
import { startFakeShop, type FakeResource, type FakeShop } from '../shopify/fake-admin.js';
import { deliver, orderPayload, signedDelivery } from '../shopify/webhooks.js';

const SUITE = "the buyer's address page in Chromium";
const DOMAIN = 'page-store.myshopify.com';
const SECRET = 'shpss_page_store';
const NOWHERE = { address1: '1 Zzyzx Nowhere Rd', city: 'Nowhere', provinceCode: 'KY', zip: '99999', countryCodeV2: 'US' };

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY))(SUITE, () => {
  let shop: FakeShop;
  let mail: MailCatcher;
  let s: TestService;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    shop = await startFakeShop({ shop: DOMAIN, restoreRate: 1000 });
    mail = await startMailCatcher();
    s = await startTestService(await testDatabases[0].create(), {
      CONNECTOR_SECRET_KEY: 'f6'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: shop.url, SMTP_URL: mail.url,
    });
    const { apiKey } = await s.newAccount(1000);
    const created = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: 'Page store', schedule: '0 3 * * *', settings: { shop: DOMAIN, resources: ['orders'], hold: true },
      credentials: { access_token: shop.state.accessToken, api_secret: SECRET },
    });
    expect(created.status, JSON.stringify(await json(created.clone()))).toBe(201);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 900, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await shop?.close();
    await mail?.close();
    await testDatabases[0].dropAll();
  });

  /** A held order with an undeliverable address, and the link the buyer was mailed. */
  async function heldOrder(email: string): Promise<{ order: FakeResource; link: string }> {
    const [order] = shop.state.seedOrders(1, () => ({ email, address: NOWHERE }));
    const body = signedDelivery('orders/create', orderPayload(order), { shop: DOMAIN, secret: SECRET });
    expect((await deliver(s.url, body)).status).toBe(200);
    await s.sync.webhooks.settle();
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('ON_HOLD');
    return { order, link: await mail.link(email, '/orders/address') };
  }

  it('When the buyer opens the link and corrects the address, then an undeliverable one is refused and a good one is written and released', async () => {
    // Arrange
    const { order, link } = await heldOrder('corrects@example.com');

    // Act: the page, a correction nobody can deliver to, then a good one.
    await page.goto(link);
    const shown = await page.getByTestId('current-address').textContent();
    await page.getByLabel('Street and number').fill('1 Zzyzx Nowhere Rd');
    await page.getByRole('button', { name: 'Use this address' }).click();
    const refused = await page.getByRole('alert').textContent();
    const kept = await page.getByLabel('Street and number').inputValue();
    await page.getByLabel('Street and number').fill('6007 Applegate Ln');
    await page.getByLabel('City').fill('Louisville');
    await page.getByLabel('ZIP or postal code').fill('40219');
    await page.getByRole('button', { name: 'Use this address' }).click();
    const done = await page.getByTestId('done').textContent();

    // Assert
    expect(shown).toContain('1 Zzyzx Nowhere Rd');
    expect(refused).toContain('could not find this address');
    expect(kept).toBe('1 Zzyzx Nowhere Rd');
    expect(done).toContain('6007 APPLEGATE LN');
    const fake = shop.state.resource(order.id);
    expect(fake.address).toMatchObject({ address1: '6007 Applegate Ln', city: 'Louisville', zip: '40219', countryCodeV2: 'US' });
    expect(fake.fulfillmentOrders[0]).toMatchObject({ status: 'OPEN', holds: [] });
  });

  it('When the buyer says the address is right, then the hold is released and the page says so', async () => {
    const { order, link } = await heldOrder('confirms@example.com');

    await page.goto(link);
    await page.getByRole('button', { name: 'This address is right' }).click();

    await expect(page.getByTestId('done').textContent()).resolves.toContain('confirmed');
    expect(shop.state.resource(order.id).fulfillmentOrders[0]).toMatchObject({ status: 'OPEN', holds: [] });
    expect(shop.state.resource(order.id).address).toMatchObject(NOWHERE);
  });

  it('When a link is altered, or the form is posted from another site, then nothing is read or changed', async () => {
    // Arrange
    const { order, link } = await heldOrder('attacked@example.com');
    const token = new URL(link).searchParams.get('token')!;
    const altered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    await page.goto(link);
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');

    // Act
    const forged = await fetch(`${s.url}/orders/address?token=${encodeURIComponent(altered)}`);
    const crossSite = await fetch(`${s.url}/orders/address`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie: cookies },
      body: new URLSearchParams({ _csrf: csrf, token, action: 'confirm' }),
    });
    const noCsrf = await fetch(`${s.url}/orders/address`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies },
      body: new URLSearchParams({ token, action: 'confirm' }),
    });

    // Assert
    expect(forged.status).toBe(404);
    expect(forged.headers.get('referrer-policy')).toBe('same-origin');
    expect(crossSite.status).toBe(403);
    expect(noCsrf.status).toBe(403);
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('ON_HOLD');
  });

  it('When one client opens links again and again, then it is held back at 20 a minute', async () => {
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) status = (await fetch(`${s.url}/orders/address?token=guess${i}`)).status;
    expect(status).toBe(429);
  });
});
