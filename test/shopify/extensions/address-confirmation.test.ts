/**
 * After the purchase (connectors/shopify/extensions/address-confirmation): the thank-you and order-status extension
 * asks the buyer about a doubtful address and sends the answer, authenticated by Shopify's session token. The real
 * service checks orders from signed orders/create deliveries against the local Admin GraphQL stand-in (fake-admin.ts);
 * the extension's bundle runs in Chromium under the stand-in host, on Shopify's extension origin.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, request } from '../../support/connector-api.js';
import { CHROMIUM_BINARY } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import { prerequisites } from '../../support/prerequisites.js';
import { problemOf } from '../../support/service.js';
import { startFakeShop, type FakeResource, type FakeShop } from '../fake-admin.js';
import { sessionToken } from '../session-tokens.js';
import { deliver, orderPayload, signedDelivery } from '../webhooks.js';
import { EXTENSIONS_DIR } from './bundle.js';
import { eventually, EXTENSION_ORIGIN, openExtension, useExtensionSuite } from './harness.js';

const SUITE = 'the address confirmation extension in Chromium';
const THANK_YOU = 'purchase.thank-you.customer-information.render-after';
const ORDER_STATUS = 'customer-account.order-status.customer-information.render-after';
const SECRET = 'shpss_confirmation_secret';
const LOCALE = JSON.parse(fs.readFileSync(path.join(EXTENSIONS_DIR, 'address-confirmation/locales/en.default.json'), 'utf8'));
const NOWHERE = { address1: '1 Zzyzx Nowhere Rd', city: 'Nowhere', provinceCode: 'KY', zip: '99999', countryCodeV2: 'US' };
const GOOD = { address1: '6007 Applegate Ln', city: 'Louisville', provinceCode: 'KY', zip: '40219', countryCodeV2: 'US' };

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY)).each(testDatabases)(`${SUITE} ($name)`, (database) => {
  let shop: FakeShop;
  beforeAll(async () => {
    shop = await startFakeShop({ shop: 'confirm.myshopify.com', restoreRate: 1000 });
  });
  afterAll(async () => {
    await shop?.close();
  });
  const suite = useExtensionSuite(database, 'address-confirmation', () => ({
    CONNECTOR_SECRET_KEY: 'c7'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: shop.url,
  }));

  /** A store connected by a new account, with fulfillment holds on. */
  async function connectStore(domain: string) {
    const { service } = suite();
    const { apiKey } = await service.newAccount(1000);
    const res = await request(service, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: domain, schedule: '0 3 * * *', settings: { shop: domain, resources: ['orders'], hold: true },
      credentials: { access_token: shop.state.accessToken, api_secret: SECRET },
    });
    expect(res.status).toBe(201);
    return json(res);
  }

  /** The signed-in customer who placed each order (none: a guest's). */
  const buyers = new Map<string, FakeResource>();

  async function placeOrder(domain: string, address: typeof NOWHERE, { delivered = true, guest = false } = {}): Promise<FakeResource> {
    const [order] = shop.state.seedOrders(1, () => ({ email: 'buyer@example.com', address }));
    if (!guest) buyers.set(order.id, shop.state.seedCustomers(1, () => ({ email: 'buyer@example.com' }))[0]);
    if (delivered) await deliverOrder(domain, order);
    return order;
  }

  async function deliverOrder(domain: string, order: FakeResource) {
    const { service } = suite();
    const res = await deliver(service.url, signedDelivery('orders/create', orderPayload(order, buyers.get(order.id) ?? null), { shop: domain, secret: SECRET }));
    expect(res.status).toBe(200);
    await service.sync.webhooks.settle();
  }

  /** The order's page as its buyer sees it: the session token names them when they are signed in (`sub`). */
  async function open(domain: string, order: FakeResource, page: 'thank-you' | 'order-status', secret = SECRET): Promise<{ page: Page; sent: string[] }> {
    const { browser, bundle, service } = suite();
    const a = order.address!;
    const buyer = buyers.get(order.id);
    return openExtension(browser, bundle, {
      target: page === 'thank-you' ? THANK_YOU : ORDER_STATUS, shop: domain, locale: LOCALE,
      settings: { api_url: service.url }, sessionToken: await sessionToken(domain, secret, buyer ? { sub: buyer.id } : {}),
      order: { id: order.id, page },
      shippingAddress: { address1: a.address1, address2: '', city: a.city, provinceCode: a.provinceCode, zip: a.zip, countryCode: a.countryCodeV2 },
    });
  }

  /** The buyer types into one of the extension's text fields. */
  async function type(page: Page, name: string, value: string) {
    await page.locator(`s-text-field[name="${name}"]`).evaluate((el, v) => {
      Object.assign(el, { value: v });
      el.dispatchEvent(new Event('change'));
    }, value);
  }

  it('When an order\'s address is undeliverable, then the thank-you page asks, and the buyer\'s correction is written to the order and releases its hold', async () => {
    // Arrange
    const domain = 'thanks.myshopify.com';
    await connectStore(domain);
    const order = await placeOrder(domain, NOWHERE);
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('ON_HOLD');

    // Act
    const { page, sent } = await open(domain, order, 'thank-you');
    const banner = page.locator('s-banner');
    await eventually(() => banner.getAttribute('heading')).toBe('Please confirm your shipping address');
    const asked = await banner.locator('s-text').allTextContents();
    await page.locator('s-button', { hasText: 'Correct it' }).click();
    await type(page, 'address1', '6007 Applegate Lane');
    await type(page, 'city', 'Louisville');
    await type(page, 'zip', '40219');
    await page.locator('s-button', { hasText: 'Save the address' }).click();
    await eventually(() => page.locator('s-banner').getAttribute('tone')).toBe('success');

    // Assert
    expect(asked).toEqual(["We could not find the address this order ships to. Please check it:", '1 Zzyzx Nowhere Rd, Nowhere, KY 99999']);
    expect(await page.locator('s-banner').getAttribute('heading')).toBe('Thank you: the order will ship to the corrected address.');
    expect(sent).toEqual(['GET /shopify/orders/address-confirmation', 'POST /shopify/orders/address-confirmation correct']);
    const fake = shop.state.resource(order.id);
    expect(fake.address).toMatchObject({ address1: '6007 Applegate Lane', city: 'Louisville', zip: '40219', countryCodeV2: 'US' });
    expect(fake.fulfillmentOrders[0]).toMatchObject({ status: 'OPEN', holds: [] });
    await page.close();
  });

  it('When the buyer confirms on the order status page, then the hold is released, and the page asks nothing more', async () => {
    // Arrange
    const domain = 'status.myshopify.com';
    await connectStore(domain);
    const order = await placeOrder(domain, NOWHERE);

    // Act
    const first = await open(domain, order, 'order-status');
    await first.page.locator('s-button', { hasText: 'This address is correct' }).click();
    await eventually(() => first.page.locator('s-banner').getAttribute('heading')).toBe('Thank you: the address is confirmed.');
    await first.page.close();
    const again = await open(domain, order, 'order-status');
    await eventually(() => again.sent).toEqual(['GET /shopify/orders/address-confirmation']);
    await again.page.waitForTimeout(200);

    // Assert
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('OPEN');
    expect(await again.page.locator('s-banner').count()).toBe(0);
    await again.page.close();
  });

  it('When the thank-you page opens before the order\'s webhook, then it asks again, and shows the question once the order is checked', async () => {
    // Arrange
    const domain = 'early.myshopify.com';
    await connectStore(domain);
    const order = await placeOrder(domain, NOWHERE, { delivered: false });

    // Act
    const { page, sent } = await open(domain, order, 'thank-you');
    await eventually(() => sent.length).toBe(1);
    await deliverOrder(domain, order);

    // Assert: the extension asks for 22 s at most, its last try 12 s after the one before.
    await expect.poll(() => page.locator('s-banner').getAttribute('heading'), { timeout: 25_000 }).toBe('Please confirm your shipping address');
    // Asked once before the order was checked (404), and again after (how many times depends on the delivery's pace).
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent)).toEqual(new Set(['GET /shopify/orders/address-confirmation']));
    await page.close();
  }, 60_000);

  it('When the address is deliverable, or the token is not the store\'s, then nothing is shown', async () => {
    // Arrange
    const domain = 'fine.myshopify.com';
    await connectStore(domain);
    const good = await placeOrder(domain, GOOD);
    const doubtful = await placeOrder(domain, NOWHERE);

    // Act
    const fine = await open(domain, good, 'thank-you');
    const forged = await open(domain, doubtful, 'thank-you', 'not-the-secret');
    await eventually(() => fine.sent.length + forged.sent.length).toBe(2);
    await fine.page.waitForTimeout(200);

    // Assert
    for (const { page } of [fine, forged]) {
      expect(await page.locator('s-banner').count()).toBe(0);
      await page.close();
    }
  });

  it('When a guest\'s order is doubtful, then the thank-you page asks nothing and calls nothing (the mailed link asks the guest)', async () => {
    // Arrange
    const domain = 'guest.myshopify.com';
    await connectStore(domain);
    const order = await placeOrder(domain, NOWHERE, { guest: true });

    // Act
    const { page, sent } = await open(domain, order, 'thank-you');
    await page.waitForTimeout(500);

    // Assert: a guest's token names no customer, and reaches no order.
    expect(sent).toEqual([]);
    expect(await page.locator('s-banner').count()).toBe(0);
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('ON_HOLD');
    await page.close();
  });

  it('When GET /shopify/orders/address-confirmation is called directly, then it answers only the signing store, for its signed-in customer\'s own orders', async () => {
    // Arrange
    const { service } = suite();
    const domain = 'question.myshopify.com';
    await connectStore(domain);
    const other = 'other-question.myshopify.com';
    await connectStore(other);
    const order = await placeOrder(domain, NOWHERE);
    const ask = async (token: string, id: string = order.id) =>
      fetch(`${service.url}/shopify/orders/address-confirmation?order_id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token}`, origin: EXTENSION_ORIGIN } });

    const sub = buyers.get(order.id)!.id;

    // Act
    const mine = await ask(await sessionToken(domain, SECRET, { sub }));
    const guest = await ask(await sessionToken(domain, SECRET));
    const otherStore = await ask(await sessionToken(other, SECRET, { sub }));
    const forged = await ask(await sessionToken(domain, 'guessed'));
    const malformed = await ask(await sessionToken(domain, SECRET), '42');
    const preflight = await fetch(`${service.url}/shopify/orders/address-confirmation`, {
      method: 'OPTIONS', headers: { origin: EXTENSION_ORIGIN, 'access-control-request-method': 'GET' },
    });

    // Assert
    expect(mine.status).toBe(200);
    expect(mine.headers.get('access-control-allow-origin')).toBe('*');
    expect(await mine.json()).toEqual({ ask: true, reason: 'undeliverable' });
    expect(guest.status).toBe(404);
    expect(otherStore.status).toBe(404);
    expect(forged.status).toBe(401);
    expect(await problemOf(forged)).toMatchObject({ type: '/problems/session-token-invalid' });
    expect(malformed.status).toBe(400);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');
  });
});
