/** The Shopify plugin's check (connectors/shopify/check.ts) against the local store's access scopes and webhooks. */
import { afterEach, describe, expect, it } from 'vitest';
import { createShopifyPlugin, shopifySettingsSchema, shopifyWriteBackSchema } from '../../connectors/shopify/index.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import { startFakeShop, type FakeShop, type FakeShopOptions } from './fake-admin.js';

let shop: FakeShop;
afterEach(async () => { await shop?.close(); });

async function startShop(options: FakeShopOptions = {}) {
  shop = await startFakeShop(options);
  return shop;
}

function check(s: FakeShop, opts: { writeBack?: object; token?: string; webhookUrl?: string } = {}) {
  return createShopifyPlugin({ adminBaseUrl: s.url, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 100 }, sleep: async () => undefined }).check({
    settings: shopifySettingsSchema.parse({ shop: s.state.shop }),
    credentials: { access_token: opts.token ?? s.state.accessToken, api_secret: 'app-secret' },
    writeBack: shopifyWriteBackSchema.parse(opts.writeBack ?? {}),
    log: { info() {}, warn() {} },
    fetch: createGuardedHttp({ privateOrigins: [s.url] }).fetch,
    ...(opts.webhookUrl ? { webhookUrl: opts.webhookUrl } : {}),
  });
}

describe('the Shopify check', () => {
  it('When the token holds every scope, then there is no problem and, without a public address, no webhook', async () => {
    await startShop();

    expect(await check(shop)).toEqual([]);
    expect(shop.state.webhooks).toEqual([]);
  });

  it('When two scopes are missing, then both are named; with write-back off, read scopes do', async () => {
    await startShop({ scopes: ['read_customers', 'read_orders'] });

    const problems = await check(shop);
    const readOnly = await check(shop, { writeBack: { tags: false, metafields: false } });

    expect(problems).toEqual([expect.objectContaining({ code: 'scope_missing', message: 'The app lacks the access scopes write_customers, write_orders.' })]);
    expect(readOnly).toEqual([]);
  });

  it('When the token is wrong, then it is the credential problem with Shopify\'s words', async () => {
    await startShop();

    const problems = await check(shop, { token: 'shpat_wrong' });

    expect(problems).toEqual([expect.objectContaining({ code: 'credentials_refused', message: expect.stringContaining('401') })]);
  });

  it('When the service has an https public address, then the check subscribes the webhooks once, as a run would', async () => {
    await startShop();

    const first = await check(shop, { webhookUrl: 'https://cv.example.com/webhooks/shopify' });
    const second = await check(shop, { webhookUrl: 'https://cv.example.com/webhooks/shopify' });

    expect([first, second]).toEqual([[], []]);
    expect(shop.state.webhooks.map((w) => w.topic).sort()).toEqual(['APP_UNINSTALLED', 'CUSTOMERS_CREATE', 'CUSTOMERS_UPDATE', 'ORDERS_CREATE', 'ORDERS_UPDATED']);
  });

  it('When Shopify refuses the webhook address, then each refused topic is named', async () => {
    await startShop();

    const problems = await check(shop, { webhookUrl: 'http://cv.example.com/webhooks/shopify' });

    expect(problems.map((p) => p.code)).toEqual(Array(5).fill('webhook_refused'));
    expect(problems[0].message).toContain('Address protocol http:// is not supported');
  });
});
