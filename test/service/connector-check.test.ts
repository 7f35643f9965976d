/**
 * POST /v1/connectors/{id}/check (docs/connectors.md, "Checking a connector"): the real service on SQLite and PostgreSQL,
 * the real jsforce and @shopify/shopify-api clients, a local org (describe) and a local store (access scopes).
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, request } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, startTestService, type TestService } from '../support/service.js';
import { startFakeOrg, type FakeOrg } from '../salesforce/fake-org.js';
import { startFakeShop, type FakeShop } from '../shopify/fake-admin.js';
import { deliver, shopPayload, signedDelivery } from '../shopify/webhooks.js';

const ENV = { CONNECTOR_SECRET_KEY: 'c3'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' };

describe.each(testDatabases)('the connector check on $name', (database) => {
  let org: FakeOrg;
  let shop: FakeShop;
  let s: TestService;
  beforeAll(async () => {
    org = await startFakeOrg();
    shop = await startFakeShop({ shop: 'check-example.myshopify.com' });
    s = await startTestService(await database.create(), { ...ENV, SHOPIFY_ADMIN_BASE_URL: shop.url });
  });
  afterAll(async () => {
    await s?.close();
    await org?.close();
    await shop?.close();
    await database.dropAll();
  });

  async function salesforceConnector(apiKey: string, credentials: object = { client_id: org.state.clientId, client_secret: org.state.clientSecret }) {
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'salesforce', name: 'Org', settings: { login_url: org.url, objects: ['Contact', 'Lead'] }, credentials,
    });
    expect(res.status).toBe(201);
    return (await json(res)).connector_id as string;
  }

  const check = async (apiKey: string, id: string) => request(s, 'POST', `/v1/connectors/${id}/check`, apiKey);

  it('When the org has every field and permission, then the check is ok and nothing changes', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(0);
    const id = await salesforceConnector(apiKey);
    const before = await json(await s.get(`/v1/connectors/${id}`, apiKey));

    // Act
    const res = await check(apiKey, id);

    // Assert: free of credits (the account has none), and the connector as it was.
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await json(res)).toEqual({ ok: true, problems: [] });
    expect(org.state.calls.describe).toBeGreaterThanOrEqual(2);
    expect(await json(await s.get(`/v1/connectors/${id}`, apiKey))).toEqual(before);
  });

  it('When the org lacks two of the CV fields, then the check names both', async () => {
    const { apiKey } = await s.newAccount(0);
    const id = await salesforceConnector(apiKey);
    org.state.missingFields.add('Contact.CV_Email_Risk__c').add('Contact.CV_Phone_Carrier__c');
    try {
      const body = await json(await check(apiKey, id));

      expect(body.ok).toBe(false);
      expect(body.problems).toHaveLength(1);
      expect(body.problems[0]).toMatchObject({ code: 'field_missing', fix: expect.stringContaining('connectors/salesforce/metadata') });
      expect(body.problems[0].message).toContain('Contact.CV_Email_Risk__c');
      expect(body.problems[0].message).toContain('Contact.CV_Phone_Carrier__c');
      expect(body.problems[0].message).not.toContain('Lead.');
    } finally {
      org.state.missingFields.clear();
    }
  });

  it('When the run-as user cannot edit a CV field, then the check says which (field-level security)', async () => {
    const { apiKey } = await s.newAccount(0);
    const id = await salesforceConnector(apiKey);
    org.state.readOnlyFields.add('Lead.CV_Validated_At__c');
    try {
      const body = await json(await check(apiKey, id));

      expect(body).toEqual({ ok: false, problems: [expect.objectContaining({ code: 'field_not_writable', message: expect.stringContaining('Lead.CV_Validated_At__c') })] });
    } finally {
      org.state.readOnlyFields.clear();
    }
  });

  it('When the credentials are wrong, then the check answers the credential problem', async () => {
    const { apiKey } = await s.newAccount(0);
    const id = await salesforceConnector(apiKey, { client_id: org.state.clientId, client_secret: 'wrong' });

    const body = await json(await check(apiKey, id));

    expect(body).toEqual({
      ok: false,
      problems: [{ code: 'credentials_refused', message: expect.stringContaining('invalid_client'), fix: expect.any(String) }],
    });
  });

  it('When the store\'s app lacks a scope, then the check names it', async () => {
    const { apiKey } = await s.newAccount(0);
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: 'Store', settings: { shop: shop.state.shop }, credentials: { access_token: shop.state.accessToken, api_secret: 'secret' },
    });
    const id = (await json(res)).connector_id as string;
    shop.state.scopes.delete('write_orders');
    try {
      const body = await json(await check(apiKey, id));

      expect(body).toEqual({ ok: false, problems: [expect.objectContaining({ code: 'scope_missing', message: 'The app lacks the access scope write_orders.' })] });
    } finally {
      shop.state.scopes.add('write_orders');
    }
    expect(await json(await check(apiKey, id))).toEqual({ ok: true, problems: [] });
  });

  it('When the app was uninstalled from the shop, then the check says the connector holds no usable credentials', async () => {
    // Arrange: the uninstall erases the access token (docs/connectors.md, "Shopify webhooks").
    const { apiKey } = await s.newAccount(0);
    const store = { shop: 'uninstalled-example.myshopify.com', secret: 'uninstall-secret' };
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: 'Store', settings: { shop: store.shop }, credentials: { access_token: shop.state.accessToken, api_secret: store.secret },
    });
    const id = (await json(res)).connector_id as string;
    expect((await deliver(s.url, signedDelivery('app/uninstalled', shopPayload(store.shop), store))).status).toBe(200);

    // Act
    const body = await json(await check(apiKey, id));

    // Assert
    expect(body).toEqual({ ok: false, problems: [expect.objectContaining({ code: 'credentials_missing' })] });
  });

  it('When another account asks to check a connector, then it is answered 404 as a missing one', async () => {
    const owner = await s.newAccount(0);
    const other = await s.newAccount(0);
    const id = await salesforceConnector(owner.apiKey);

    const res = await check(other.apiKey, id);
    const missing = await check(other.apiKey, 'conn_nope');

    expect(res.status).toBe(404);
    expect(await problemOf(res)).toMatchObject({ status: 404 });
    expect(missing.status).toBe(404);
  });
});

describe('the connector check with PUBLIC_BASE_URL', () => {
  const database = testDatabases[0];
  let shop: FakeShop;
  let s: TestService;
  beforeAll(async () => {
    shop = await startFakeShop({ shop: 'public-example.myshopify.com' });
    s = await startTestService(await database.create(), { ...ENV, SHOPIFY_ADMIN_BASE_URL: shop.url, PUBLIC_BASE_URL: 'https://cv.example.com' });
  });
  afterAll(async () => {
    await s?.close();
    await shop?.close();
    await database.dropAll();
  });

  it('When the service has a public https address, then the check subscribes the store\'s webhooks to it, as a run would', async () => {
    const { apiKey } = await s.newAccount(0);
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: 'Store', settings: { shop: shop.state.shop, resources: ['customers'] },
      credentials: { access_token: shop.state.accessToken, api_secret: 'secret' },
    });
    const id = (await json(res)).connector_id as string;

    const body = await json(await request(s, 'POST', `/v1/connectors/${id}/check`, apiKey));

    expect(body).toEqual({ ok: true, problems: [] });
    expect(shop.state.webhooks.map((w) => [w.topic, w.callbackUrl]).sort()).toEqual([
      ['APP_UNINSTALLED', 'https://cv.example.com/webhooks/shopify'],
      ['CUSTOMERS_CREATE', 'https://cv.example.com/webhooks/shopify'],
      ['CUSTOMERS_UPDATE', 'https://cv.example.com/webhooks/shopify'],
    ]);
  });
});

describe('the connector check of a platform that never answers', () => {
  const database = testDatabases[0];
  let silent: Server;
  const held = new Set<Socket>();
  let accepted = 0;
  let s: TestService;
  beforeAll(async () => {
    // Accepts every connection, reads the request, and answers nothing: a login that hangs.
    silent = createServer((socket) => { accepted += 1; held.add(socket); socket.on('close', () => held.delete(socket)); socket.resume(); });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    s = await startTestService(await database.create(), { ...ENV, CONNECTOR_CHECK_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await s?.close();
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    await database.dropAll();
  });

  it('When the login never answers, then the check answers platform_unreachable once its time is up', async () => {
    const { apiKey } = await s.newAccount(0);
    const { port } = silent.address() as AddressInfo;
    const created = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'salesforce', name: 'Silent org', settings: { login_url: `http://127.0.0.1:${port}`, objects: ['Contact'] },
      credentials: { client_id: 'id', client_secret: 'secret' },
    });
    const id = (await json(created)).connector_id as string;

    const started = performance.now();
    const res = await request(s, 'POST', `/v1/connectors/${id}/check`, apiKey);
    const tookMs = performance.now() - started;

    // The bound is the service's own (1 s here, 8 s by default), not the platform's nor the caller's: generous margin.
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      ok: false,
      problems: [{ code: 'platform_unreachable', message: expect.stringContaining('longer than 1 s'), fix: expect.any(String) }],
    });
    expect(tookMs).toBeGreaterThanOrEqual(900);
    expect(tookMs).toBeLessThan(6_000);
    // The login was sent, and the connection given up with the check (not left open to the silent platform).
    expect(accepted).toBeGreaterThan(0);
    await expect.poll(() => held.size, { timeout: 5_000 }).toBe(0);
  });
});
