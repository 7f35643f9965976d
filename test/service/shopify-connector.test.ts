/**
 * The Shopify connector end to end (docs/connectors.md): the real service on SQLite and PostgreSQL, the real
 * @shopify/shopify-api client sent to a local store (SHOPIFY_ADMIN_BASE_URL) that speaks the Admin GraphQL API, and
 * webhook deliveries signed the way Shopify signs them. The app's OAuth install: shopify-install.test.ts.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSecretKey, SecretBox } from '../../src/sync/secrets.js';
import { json, request, runNow, spentByConnector } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, startTestService, type TestService } from '../support/service.js';
import { startFakeShop, type FakeShop } from '../shopify/fake-admin.js';
import {
  customerPayload, customersDataRequestPayload, customersRedactPayload, deliver, shopPayload, shopRedactPayload, signedDelivery,
} from '../shopify/webhooks.js';

const SECRET = 'shpss_test_secret';
const SHOP = 'example.myshopify.com';
const HOOKS_SHOP = 'hooks-example.myshopify.com';
/** A US address 1, a phone 2; the e-mail is free with network checks off. */
const PER_RECORD = 3;
const KENTUCKY = (i: number) => ({
  address1: `${100 + i} Main St`, city: 'Louisville', provinceCode: 'KY', zip: '40219', countryCodeV2: 'US',
});

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testDatabases)('the Shopify connector on $name', (database) => {
  let shop: FakeShop;
  let s: TestService;
  let url: string;
  beforeAll(async () => {
    shop = await startFakeShop({ shop: SHOP, restoreRate: 1000 });
    url = await database.create();
    s = await startTestService(url, {
      CONNECTOR_SECRET_KEY: 'd4'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: shop.url,
    });
  });
  afterAll(async () => {
    await s.close();
    await shop.close();
    await database.dropAll();
  });

  /** One shop has one connector: each test names its own (the local store answers for any). */
  async function connect(apiKey: string, overrides: Record<string, unknown> = {}, shopDomain = SHOP) {
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: 'Main store', schedule: '0 3 * * *',
      settings: { shop: shopDomain, api_version: '2025-10', resources: ['customers', 'orders'], page_size: 50 },
      credentials: { access_token: shop.state.accessToken, api_secret: SECRET },
      write_back: { tags: true, metafields: true },
      ...overrides,
    });
    if (res.status !== 201) throw new Error(`not created: ${res.status} ${await res.text()}`);
    return json(res);
  }

  it('When a store is connected, then customers and orders are checked over several pages and flagged; a second run charges nothing', async () => {
    const { accountId, apiKey } = await s.newAccount(10_000);
    const customers = shop.state.seedCustomers(120, (i) => ({
      email: `c${i}@example.com`, phone: `+1 502 713 ${String(4000 + i).padStart(4, '0')}`, address: KENTUCKY(i), tags: ['vip'],
    }));
    const [badOrder] = shop.state.seedOrders(1, () => ({ email: 'buyer@example.com', address: { address1: 'zzz', city: 'Nowhere', provinceCode: 'KY', zip: '99999', countryCodeV2: 'US' } }));
    const [badPhone] = shop.state.seedCustomers(1, () => ({ phone: '+1 555', address: KENTUCKY(500) }));

    const connector = await connect(apiKey);
    const first = await runNow(s, apiKey, connector.connector_id);
    const second = await runNow(s, apiKey, connector.connector_id);
    const c = shop.state.get(customers[5].id);
    const order = shop.state.get(badOrder.id);
    const flagged = shop.state.get(badPhone.id);

    expect(JSON.stringify(connector)).not.toContain(SECRET);
    expect(first).toMatchObject({ status: 'completed', records_read: 122, records_validated: 122, records_written: 122, records_failed: 0 });
    expect(shop.state.calls.customers).toBeGreaterThanOrEqual(3);
    expect(c.metafields['contact_validator.phone_status'].value).toBe('valid');
    expect(c.metafields['contact_validator.validated_at']).toBeTruthy();
    expect(JSON.parse(c.metafields['contact_validator.result'].value)).toMatchObject({ phone: { status: 'valid' } });
    // The merchant's tag untouched; nothing invalid to flag, and the e-mail (not checked offline) is the fixed table's `confirm`.
    expect(c.tags).toEqual(['vip', 'cv-email-confirm']);
    expect(order.tags).toEqual(expect.arrayContaining(['cv-address-review']));
    expect(flagged.tags).toEqual(expect.arrayContaining(['cv-phone-invalid']));
    // Our metafield and tag writes moved every updatedAt: read again, and dropped by change detection.
    expect(second).toMatchObject({ status: 'completed', records_validated: 0, credits_charged: 0 });
    expect(second.records_skipped).toBe(second.records_read);

    // The phone fixed: checked again, and its tag comes off.
    shop.state.edit(badPhone.id, { phone: '+1 502 713 4999' });
    const third = await runNow(s, apiKey, connector.connector_id);
    expect(third).toMatchObject({ records_validated: 1, credits_charged: 2 });
    expect(shop.state.get(badPhone.id).tags).not.toContain('cv-phone-invalid');
    expect(await s.ledger.balance(accountId)).toBe(10_000 - first.credits_charged - 2);
    // Each run reports what the ledger moved in it.
    expect(first.credits_charged + second.credits_charged + third.credits_charged).toBe(await spentByConnector(s, connector.connector_id));
  });

  it('When the API throttles, then the run waits as the cost status says and completes; a bad token fails auth_failed', async () => {
    const { apiKey } = await s.newAccount(10_000);
    shop.state.seedCustomers(3, (i) => ({ phone: `+1 502 713 ${4100 + i}` }));
    const connector = await connect(apiKey, {}, 'throttled.myshopify.com');
    await runNow(s, apiKey, connector.connector_id);
    shop.state.seedCustomers(2, (i) => ({ phone: `+1 502 713 ${4200 + i}` }));
    shop.state.drain(0);
    const throttled = await runNow(s, apiKey, connector.connector_id);
    const bad = await connect(apiKey, { credentials: { access_token: 'shpat_wrong', api_secret: SECRET } }, 'bad-token.myshopify.com');
    const refused = await runNow(s, apiKey, bad.connector_id);

    expect(throttled).toMatchObject({ status: 'completed', records_validated: 2 });
    expect(shop.state.calls.throttled).toBeGreaterThan(0);
    expect(refused).toMatchObject({ status: 'failed', reason: 'auth_failed' });
    expect(refused.message).toMatch(/401|Invalid API key/);
  });

  it('When credits run out, then the run pauses and the connector waits for credits', async () => {
    const { accountId, apiKey } = await s.newAccount(6);
    const localShop = await startFakeShop({ shop: 'other.myshopify.com', restoreRate: 1000 });
    const local = await startTestService(url, {
      CONNECTOR_SECRET_KEY: 'd4'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: localShop.url,
    });
    try {
      localShop.state.seedCustomers(5, (i) => ({ phone: `+1 502 713 ${4300 + i}`, address: KENTUCKY(i) }));
      const res = await request(local, 'POST', '/v1/connectors', apiKey, {
        type: 'shopify', name: 'Other', settings: { shop: 'other.myshopify.com', resources: ['customers'] },
        credentials: { access_token: localShop.state.accessToken, api_secret: SECRET },
      });
      const connector = await json(res);
      const paused = await runNow(local, apiKey, connector.connector_id);
      const waiting = await json(await local.get(`/v1/connectors/${connector.connector_id}`, apiKey));
      await local.accounts.grantCredits(accountId, 100);
      const resumed = await runNow(local, apiKey, connector.connector_id);

      expect(paused).toMatchObject({ status: 'paused', reason: 'credits_exhausted', records_validated: 2 });
      expect(waiting).toMatchObject({ status: 'paused', reason: 'credits_exhausted' });
      expect(resumed).toMatchObject({ status: 'completed', records_validated: 3, credits_charged: 3 * PER_RECORD });
    } finally {
      await local.close();
      await localShop.close();
    }
  });

  it('When a connector follows a policy, then the next-action tags are the policy\'s: the same customer the fixed table tags to confirm is accepted at a checkout', async () => {
    const { apiKey } = await s.newAccount(1_000);
    const localShop = await startFakeShop({ shop: 'policy.myshopify.com', restoreRate: 1000 });
    const local = await startTestService(url, { CONNECTOR_SECRET_KEY: 'd4'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: localShop.url });
    try {
      // Offline, this e-mail is `unknown` (`not_checked`): `confirm` by the fixed table, `accept` at a checkout.
      const [customer] = localShop.state.seedCustomers(1, () => ({ email: 'jane.doe@acme-mail.com', phone: '+1 502 713 4321', address: KENTUCKY(3), tags: ['vip'] }));
      const connectShop = async (policy?: string) => json(await request(local, 'POST', '/v1/connectors', apiKey, {
        type: 'shopify', name: 'Policy store', settings: { shop: 'policy.myshopify.com', resources: ['customers'] },
        credentials: { access_token: localShop.state.accessToken, api_secret: SECRET }, ...(policy ? { policy } : {}),
      }));

      const plain = await connectShop();
      await runNow(local, apiKey, plain.connector_id);
      const byFixedTable = [...localShop.state.get(customer.id).tags];
      // One shop, one connector: the store connected again, following the checkout preset, checks the customer anew.
      await request(local, 'DELETE', `/v1/connectors/${plain.connector_id}`, apiKey);
      const following = await connectShop('checkout');
      await runNow(local, apiKey, following.connector_id);
      const atCheckout = [...localShop.state.get(customer.id).tags];

      expect(byFixedTable).toEqual(['vip', 'cv-email-confirm']);
      expect(following.policy).toBe('checkout');
      expect(atCheckout).toEqual(['vip']);
      expect(JSON.parse(localShop.state.get(customer.id).metafields['contact_validator.result'].value).email).toMatchObject({ status: 'unknown', next_action: 'accept' });
    } finally {
      await local.close();
      await localShop.close();
    }
  });

  it('When PUBLIC_BASE_URL is set, then a run subscribes the webhooks once; without it, none', async () => {
    const { apiKey } = await s.newAccount(100);
    const localShop = await startFakeShop({ shop: 'hooks.myshopify.com', restoreRate: 1000 });
    const local = await startTestService(url, {
      CONNECTOR_SECRET_KEY: 'd4'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: localShop.url,
      PUBLIC_BASE_URL: 'https://cv.example.com',
    });
    try {
      const connector = await json(await request(local, 'POST', '/v1/connectors', apiKey, {
        type: 'shopify', name: 'Hooks', settings: { shop: 'hooks.myshopify.com' },
        credentials: { access_token: localShop.state.accessToken, api_secret: SECRET },
      }));
      await runNow(local, apiKey, connector.connector_id);
      await runNow(local, apiKey, connector.connector_id);

      expect(localShop.state.webhooks.map((w) => w.topic).sort()).toEqual(['APP_UNINSTALLED', 'CUSTOMERS_CREATE', 'CUSTOMERS_UPDATE', 'ORDERS_CREATE', 'ORDERS_UPDATED']);
      expect(new Set(localShop.state.webhooks.map((w) => w.callbackUrl))).toEqual(new Set(['https://cv.example.com/webhooks/shopify']));
      expect(shop.state.webhooks).toEqual([]); // the main service has no PUBLIC_BASE_URL
    } finally {
      await local.close();
      await localShop.close();
    }
  });

  describe('webhooks', () => {
    let apiKey: string;
    let connectorId: string;
    beforeAll(async () => {
      ({ apiKey } = await s.newAccount(10_000));
      const connector = await connect(apiKey, { credentials: { access_token: shop.state.accessToken, api_secret: `${SECRET}-hooks` } }, HOOKS_SHOP);
      connectorId = connector.connector_id;
    });
    const sign = (topic: string, payload: unknown, extra: Record<string, string> = {}) =>
      signedDelivery(topic, payload, { shop: HOOKS_SHOP, secret: `${SECRET}-hooks`, ...extra });

    it('When a signed customers/update arrives, then it is answered at once and the customer checked once, however often it is delivered', async () => {
      const [customer] = shop.state.seedCustomers(1, () => ({ phone: '+1 502 713 4444', address: KENTUCKY(7) }));
      const delivery = sign('customers/update', customerPayload(customer), { webhookId: crypto.randomUUID() });

      const started = performance.now();
      const first = await deliver(s.url, delivery);
      const elapsed = performance.now() - started;
      const replay = await deliver(s.url, delivery);
      const written = await waitFor('the metafield', async () => shop.state.metafield(customer.id, 'phone_status'));
      await s.sync.webhooks.settle();
      const runs = (await json(await s.get(`/v1/connectors/${connectorId}/runs`, apiKey))).runs.filter((r: { triggered_by: string }) => r.triggered_by === 'webhook');

      expect(first.status).toBe(200);
      expect(elapsed).toBeLessThan(1_000);
      expect(await json(replay)).toEqual({ status: 'duplicate' });
      expect(written).toBe('valid');
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'completed', records_validated: 1, credits_charged: PER_RECORD });
      // The delivery's job keeps the run's history, not the customer's contact.
      const settings = await s.db.all<{ settings: string }>(`SELECT settings FROM bulk_jobs WHERE kind = 'connector' AND settings LIKE '%webhook%'`);
      expect(settings.length).toBeGreaterThan(0);
      for (const { settings: kept } of settings) expect(JSON.parse(kept)).toMatchObject({ triggered_by: 'webhook', records: [] });
    });

    const webhookRuns = async () => (await json(await s.get(`/v1/connectors/${connectorId}/runs`, apiKey))).runs
      .filter((r: { triggered_by: string }) => r.triggered_by === 'webhook').length;

    it('When the same signed body comes again under a fresh X-Shopify-Webhook-Id, then it is processed once', async () => {
      // Arrange: a delivery seen once; the replay keeps its signed bytes and changes the unsigned id.
      const [customer] = shop.state.seedCustomers(1, () => ({ phone: '+1 502 713 4447', address: KENTUCKY(9) }));
      const payload = customerPayload(customer);
      const before = await webhookRuns();
      const first = await deliver(s.url, sign('customers/update', payload, { webhookId: crypto.randomUUID() }));
      await s.sync.webhooks.settle();

      // Act
      const replay = await deliver(s.url, sign('customers/update', payload, { webhookId: crypto.randomUUID() }));
      await s.sync.webhooks.settle();

      // Assert
      expect(await json(first)).toEqual({ status: 'accepted' });
      expect(await json(replay)).toEqual({ status: 'duplicate' });
      expect(await webhookRuns()).toBe(before + 1);
    });

    it('When a signed delivery was triggered longer ago than Shopify retries, then it is acknowledged as stale and not processed', async () => {
      // Arrange: Shopify retries for 4 hours with the first trigger time; a retry 3 hours late is still one.
      const [old, retried] = shop.state.seedCustomers(2, (i) => ({ phone: `+1 502 713 ${4460 + i}`, address: KENTUCKY(10 + i) }));
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

      // Act
      const stale = await deliver(s.url, sign('customers/update', customerPayload(old), { triggeredAt: hoursAgo(7) }));
      const retry = await deliver(s.url, sign('customers/update', customerPayload(retried), { triggeredAt: hoursAgo(3) }));
      await s.sync.webhooks.settle();

      // Assert: 200 either way (a 4xx would only make Shopify retry), and only the retry is worked on.
      expect(stale.status).toBe(200);
      expect(await json(stale)).toEqual({ status: 'stale' });
      expect(await json(retry)).toEqual({ status: 'accepted' });
      expect(shop.state.metafield(old.id, 'phone_status')).toBeUndefined();
      expect(shop.state.metafield(retried.id, 'phone_status')).toBe('valid');
    });

    it('When a delivery is badly signed, tampered with, or for an unknown shop, then 401 and nothing is done', async () => {
      const [customer] = shop.state.seedCustomers(1, () => ({ phone: '+1 502 713 4445' }));
      const good = sign('customers/update', customerPayload(customer));
      const tampered = { ...good, body: good.body.replace('4445', '4446') };
      const wrongSecret = signedDelivery('customers/update', customerPayload(customer), { shop: HOOKS_SHOP, secret: 'not-the-secret' });
      const unknownShop = signedDelivery('customers/update', customerPayload(customer), { shop: 'nobody.myshopify.com', secret: SECRET });
      const unsigned = { ...good, headers: { ...good.headers, 'X-Shopify-Hmac-Sha256': '' } };

      for (const d of [tampered, wrongSecret, unknownShop, unsigned]) {
        const res = await deliver(s.url, d);
        expect(res.status).toBe(401);
        expect(await problemOf(res)).toMatchObject({ type: '/problems/webhook-unauthorized' });
      }
      await s.sync.webhooks.settle();
      expect(shop.state.metafield(customer.id, 'phone_status')).toBeUndefined();
    });

    it('When the privacy topics arrive, then what we keep of the customer or the shop is deleted and the request recorded', async () => {
      const [customer] = shop.state.seedCustomers(1, () => ({ phone: '+1 502 713 4446', address: KENTUCKY(8) }));
      await deliver(s.url, sign('customers/update', customerPayload(customer)));
      await s.sync.webhooks.settle();
      const kept = async () => Number((await s.db.all<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM connector_records WHERE connector_id = $1 AND record_key = $2`, [connectorId, `customer:${customer.id}`],
      ))[0].n);
      const before = await kept();

      const dataRequest = await deliver(s.url, sign('customers/data_request', customersDataRequestPayload(HOOKS_SHOP, customer)));
      const redact = await deliver(s.url, sign('customers/redact', customersRedactPayload(HOOKS_SHOP, customer)));
      const requests = await s.db.all<{ topic: string; records_deleted: number | string }>(
        `SELECT topic, records_deleted FROM privacy_requests WHERE connector_id = $1 ORDER BY received_at`, [connectorId],
      );

      expect(before).toBe(1);
      expect(dataRequest.status).toBe(200);
      expect(redact.status).toBe(200);
      expect(await kept()).toBe(0);
      expect(requests.map((r) => [r.topic, Number(r.records_deleted)])).toEqual([['customers/data_request', 0], ['customers/redact', 1]]);
    });

    it('When the app is uninstalled, then the connector pauses and its token is erased; shop/redact deletes the rest', async () => {
      const uninstalled = await deliver(s.url, sign('app/uninstalled', shopPayload(HOOKS_SHOP)));
      const shown = await json(await s.get(`/v1/connectors/${connectorId}`, apiKey));
      const sealed = (await s.sync.store.get(connectorId))!.sealed;
      const credentials = new SecretBox(parseSecretKey('d4'.repeat(32))).open<Record<string, unknown>>(sealed);
      const redacted = await deliver(s.url, sign('shop/redact', shopRedactPayload(HOOKS_SHOP)));
      const left = await s.db.all(`SELECT 1 FROM connector_records WHERE connector_id = $1`, [connectorId]);

      expect(uninstalled.status).toBe(200);
      expect(shown).toMatchObject({ status: 'paused', reason: 'uninstalled' });
      expect(credentials.access_token).toBeUndefined();
      expect(credentials.api_secret).toBe(`${SECRET}-hooks`);
      expect(redacted.status).toBe(200);
      expect(left).toEqual([]);
    });
  });
});
