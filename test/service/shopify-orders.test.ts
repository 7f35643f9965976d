/**
 * Orders checked at purchase (docs/shopify.md) end to end: the real service on SQLite and PostgreSQL, the real
 * @shopify/shopify-api client sent to the local store (SHOPIFY_ADMIN_BASE_URL) that speaks the Admin GraphQL API
 * (risk assessments, fulfillment holds, orderUpdate), deliveries signed as Shopify signs them, mail caught by a real
 * SMTP server, and extension calls with session tokens signed as Shopify signs them (HS256, the app's secret).
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, request, spentByConnector } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { problemOf, startTestService, type TestService } from '../support/service.js';
import { startFakeShop, type FakeResource, type FakeShop } from '../shopify/fake-admin.js';
import { sessionToken } from '../shopify/session-tokens.js';
import { customersRedactPayload, deliver, orderPayload, signedDelivery } from '../shopify/webhooks.js';
import { newKeyOf, signedUpPerson } from '../web/web-agent.js';

const SECRET = 'shpss_orders_secret';
const OTHER_SECRET = 'shpss_other_store';
const GOOD = { address1: '6007 Applegate Ln', city: 'Louisville', provinceCode: 'KY', zip: '40219', countryCodeV2: 'US' };
const NOWHERE = { address1: '1 Zzyzx Nowhere Rd', city: 'Nowhere', provinceCode: 'KY', zip: '99999', countryCodeV2: 'US' };

describe.each(testDatabases)('Shopify orders checked at purchase on $name', (database) => {
  let shop: FakeShop;
  let mail: MailCatcher;
  let s: TestService;
  beforeAll(async () => {
    shop = await startFakeShop({ shop: 'orders.myshopify.com', restoreRate: 1000 });
    mail = await startMailCatcher();
    s = await startTestService(await database.create(), {
      CONNECTOR_SECRET_KEY: 'e5'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: shop.url, SMTP_URL: mail.url,
      PASSWORD_SCRYPT_LOG_N: '10',
    });
  });
  afterAll(async () => {
    await s?.close();
    await shop?.close();
    await mail?.close();
    await database.dropAll();
  });

  async function connect(apiKey: string, domain: string, settings: Record<string, unknown> = {}, secret = SECRET, extra: Record<string, unknown> = {}) {
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'shopify', name: domain, schedule: '0 3 * * *', ...extra,
      settings: { shop: domain, resources: ['orders'], ...settings },
      credentials: { access_token: shop.state.accessToken, api_secret: secret },
    });
    if (res.status !== 201) throw new Error(`not created: ${res.status} ${await res.text()}`);
    return json(res);
  }

  const send = (domain: string, topic: string, order: FakeResource, options: { secret?: string; triggeredAt?: string; hmac?: string; customer?: FakeResource } = {}) =>
    deliver(s.url, signedDelivery(topic, orderPayload(order, options.customer ?? null), { shop: domain, secret: options.secret ?? SECRET, triggeredAt: options.triggeredAt, hmac: options.hmac }));

  async function settled() {
    await s.sync.webhooks.settle();
  }

  it('When one orders/create delivery arrives, then it becomes one job, the order check, and no record job beside it', async () => {
    // Arrange
    const { apiKey, accountId } = await s.newAccount(1000);
    const domain = 'one-job.myshopify.com';
    await connect(apiKey, domain);
    const [order] = shop.state.seedOrders(1, () => ({ email: 'buyer@example.com', address: GOOD }));

    // Act
    const answer = await send(domain, 'orders/create', order);
    await settled();

    // Assert: topics live in one list each (connectors/shopify/webhooks.ts): orders/create is the order's check alone.
    expect(answer.status).toBe(200);
    const jobs = await s.db.all<{ kind: string }>(`SELECT kind FROM bulk_jobs WHERE account_id = $1`, [accountId]);
    expect(jobs.map((j) => j.kind)).toEqual(['order-check']);
    expect(shop.state.resource(order.id).riskAssessments).toHaveLength(1);
  });

  it('When an order with an undeliverable address, a disposable e-mail and a VoIP-free phone arrives, then one HIGH risk assessment, a hold, one charge and a mail', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(1000);
    const domain = 'risky.myshopify.com';
    const connector = await connect(apiKey, domain, { hold: true });
    const [order] = shop.state.seedOrders(1, () => ({ email: 'buyer@mailinator.com', phone: '+1 502 713 4410', address: NOWHERE }));

    // Act: the delivery, the same delivery again, and an edit of the order delivered as a new orders/create.
    const first = await send(domain, 'orders/create', order);
    const repeated = await send(domain, 'orders/create', order);
    await settled();
    shop.state.edit(order.id, { phone: '+1 502 713 4411' });
    const edited = await send(domain, 'orders/create', order);
    await send(domain, 'orders/updated', order);
    await settled();

    // Assert
    expect(first.status).toBe(200);
    expect(await repeated.json()).toEqual({ status: 'duplicate' });
    expect(edited.status).toBe(200);
    const fake = shop.state.resource(order.id);
    expect(fake.riskAssessments).toHaveLength(1);
    expect(fake.riskAssessments[0].riskLevel).toBe('HIGH');
    const facts = fake.riskAssessments[0].facts.map((f) => `${f.sentiment} ${f.description}`);
    expect(facts).toEqual(expect.arrayContaining([
      expect.stringMatching(/^NEGATIVE Contact Validator: Shipping address is undeliverable/),
      'NEGATIVE Contact Validator: E-mail is a disposable address',
    ]));
    expect(fake.fulfillmentOrders[0]).toMatchObject({ status: 'ON_HOLD', holds: [expect.objectContaining({ reason: 'OTHER', handle: 'contact-validator-address' })] });
    // The record's write-back (tags) and the order check share one charge: address 1 + e-mail 1 + phone 2.
    expect(await spentByConnector(s, connector.connector_id)).toBe(4);
    const message = await mail.next('buyer@mailinator.com');
    expect(message.subject).toContain(order.name!);
    expect(message.text).toMatch(/\/orders\/address\?token=/);
  });

  it('When the merchant corrects a held order\'s address, then orders/updated releases the hold once, at no charge', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(1000);
    const domain = 'merchant-fix.myshopify.com';
    const connector = await connect(apiKey, domain, { hold: true });
    const [order] = shop.state.seedOrders(1, () => ({ email: 'fix@example.com', address: NOWHERE }));
    await send(domain, 'orders/create', order);
    await settled();
    const spent = await spentByConnector(s, connector.connector_id);
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('ON_HOLD');

    // Act
    shop.state.edit(order.id, { address: GOOD });
    await send(domain, 'orders/updated', order);
    shop.state.edit(order.id, { tags: ['gift'] });
    await send(domain, 'orders/updated', order);
    await settled();

    // Assert
    expect(shop.state.resource(order.id).fulfillmentOrders[0]).toMatchObject({ status: 'OPEN', holds: [] });
    expect(shop.state.calls.fulfillmentOrderReleaseHold).toBeGreaterThanOrEqual(1);
    expect(await spentByConnector(s, connector.connector_id)).toBe(spent);
    const [row] = await s.db.all<{ release_reason: string }>(`SELECT release_reason FROM shop_orders WHERE order_key = $1`, [order.id]);
    expect(row.release_reason).toBe('merchant_corrected');
  });

  it('When the order-status extension sends the buyer\'s correction with a session token, then the order is updated and released; other stores and forged tokens reach nothing', async () => {
    // Arrange: two stores of two accounts; an order of the first, held.
    const { apiKey } = await s.newAccount(1000);
    const other = await s.newAccount(1000);
    const domain = 'buyer-fix.myshopify.com';
    const otherDomain = 'someone-else.myshopify.com';
    const connector = await connect(apiKey, domain, { hold: true });
    await connect(other.apiKey, otherDomain, {}, OTHER_SECRET);
    const [customer] = shop.state.seedCustomers(1, () => ({ email: 'ext@example.com' }));
    const [order] = shop.state.seedOrders(1, () => ({ email: 'ext@example.com', address: NOWHERE }));
    await send(domain, 'orders/create', order, { customer });
    await settled();
    const correction = { order_id: order.id, action: 'correct', address: { address1: '6007 Applegate Lane', city: 'Louisville', province_code: 'KY', zip: '40219', country_code: 'us' } };
    const post = (token: string, body: unknown = correction) => s.post('/shopify/orders/address-confirmation', body, { headers: { authorization: `Bearer ${token}` } });

    // Act
    const forged = await post(await sessionToken(domain, 'not-the-secret'));
    const otherStore = await post(await sessionToken(otherDomain, OTHER_SECRET));
    const expired = await post(await new SignJWT({ dest: `https://${domain}` }).setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 120).sign(new TextEncoder().encode(SECRET)));
    const undeliverable = await post(await sessionToken(domain, SECRET, { sub: customer.id }), { ...correction, address: { ...correction.address, address1: '1 Zzyzx Nowhere Rd', zip: '99999', city: 'Nowhere' } });
    const preflight = await fetch(`${s.url}/shopify/orders/address-confirmation`, { method: 'OPTIONS', headers: { origin: 'https://extensions.shopifycdn.com', 'access-control-request-method': 'POST' } });
    const ask = (token: string) => fetch(`${s.url}/shopify/orders/address-confirmation?order_id=${encodeURIComponent(order.id)}`, { headers: { authorization: `Bearer ${token}` } });
    const before = await ask(await sessionToken(domain, SECRET, { sub: customer.id }));
    const otherCustomer = await ask(await sessionToken(domain, SECRET, { sub: 'gid://shopify/Customer/999' }));
    const corrected = await post(await sessionToken(domain, SECRET, { sub: customer.id }));
    const after = await ask(await sessionToken(domain, SECRET, { sub: customer.id }));
    await settled();

    // Assert
    expect(await before.json()).toEqual({ ask: true, reason: 'undeliverable' });
    expect(otherCustomer.status).toBe(404);
    expect(await after.json()).toEqual({ ask: false, reason: 'undeliverable' });
    expect(forged.status).toBe(401);
    expect(await problemOf(forged)).toMatchObject({ type: '/problems/session-token-invalid' });
    expect(expired.status).toBe(401);
    expect(otherStore.status).toBe(404);
    expect(undeliverable.status).toBe(422);
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(corrected.status).toBe(200);
    expect(corrected.headers.get('access-control-allow-origin')).toBe('*');
    expect(await corrected.json()).toMatchObject({ status: 'corrected', hold_released: true, address: { status: expect.stringMatching(/verified|corrected/) } });
    const fake = shop.state.resource(order.id);
    expect(fake.address).toMatchObject({ address1: '6007 Applegate Lane', zip: '40219', countryCodeV2: 'US' });
    expect(fake.fulfillmentOrders[0]).toMatchObject({ status: 'OPEN', holds: [] });
    // The correction's echo (orders/updated with the address we wrote) checks and releases nothing more.
    await send(domain, 'orders/updated', shop.state.resource(order.id));
    await settled();
    const [row] = await s.db.all<{ release_reason: string; confirmation: string }>(`SELECT release_reason, confirmation FROM shop_orders WHERE connector_id = $1`, [connector.connector_id]);
    expect(row).toEqual({ release_reason: 'buyer_corrected', confirmation: 'corrected' });
  });

  /** A problem's body without its request id: what tells one refusal from another. */
  const refusalOf = async (res: Response) => ({ status: res.status, ...(({ request_id: _id, ...rest }) => rest)(await problemOf(res)) });

  it('When a guest\'s session token (no `sub`) names other guests\' orders, then correct and confirm reach nothing, answered like a missing order, and every hold stays', async () => {
    // Arrange: three guests' orders of one store, each undeliverable and held; the attacker has a guest token of the store.
    const { apiKey } = await s.newAccount(1000);
    const domain = 'guests.myshopify.com';
    await connect(apiKey, domain, { hold: true });
    const orders = shop.state.seedOrders(3, (i) => ({ email: `guest${i}@example.com`, address: NOWHERE }));
    for (const order of orders) await send(domain, 'orders/create', order);
    await settled();
    const [own, victim, third] = orders;
    const guest = await sessionToken(domain, SECRET);
    const post = (body: unknown) => s.post('/shopify/orders/address-confirmation', body, { headers: { authorization: `Bearer ${guest}` } });
    const ask = (id: string) => fetch(`${s.url}/shopify/orders/address-confirmation?order_id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${guest}` } });
    const writes = shop.state.calls.orderUpdate ?? 0;

    // Act
    const corrected = await post({ order_id: victim.id, action: 'correct', address: { address1: '6007 Applegate Ln', city: 'Louisville', province_code: 'KY', zip: '40219', country_code: 'US' } });
    const confirmed = await post({ order_id: third.id, action: 'confirm' });
    const missingPost = await post({ order_id: 'gid://shopify/Order/987654321', action: 'confirm' });
    const asked = [await ask(own.id), await ask(victim.id), await ask('gid://shopify/Order/987654321')];

    // Assert: nothing written or released, and no answer tells an existing order from a missing one.
    const missing = await refusalOf(asked[2]);
    expect(missing).toMatchObject({ status: 404, type: '/problems/not-found' });
    expect(await refusalOf(asked[0])).toEqual(missing);
    expect(await refusalOf(asked[1])).toEqual(missing);
    const missingAnswer = await refusalOf(missingPost);
    expect(missingAnswer).toEqual(missing);
    expect(await refusalOf(corrected)).toEqual(missing);
    expect(await refusalOf(confirmed)).toEqual(missing);
    expect(shop.state.calls.orderUpdate ?? 0).toBe(writes);
    for (const order of orders) {
      expect(shop.state.resource(order.id).address).toMatchObject({ address1: NOWHERE.address1, zip: NOWHERE.zip });
      expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('ON_HOLD');
    }
    const rows = await s.db.all<{ confirmation: string | null; released_at: unknown }>(
      `SELECT confirmation, released_at FROM shop_orders WHERE order_key IN ($1, $2)`, [victim.id, third.id]);
    expect(rows).toEqual([{ confirmation: 'asked', released_at: null }, { confirmation: 'asked', released_at: null }]);
  });

  it('When a token without `sub`, or with another customer\'s, names a signed-in customer\'s order, then 404 like a missing order; the customer\'s own token reaches it', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(1000);
    const domain = 'signed-in.myshopify.com';
    await connect(apiKey, domain, { hold: true });
    const [customer, stranger] = shop.state.seedCustomers(2, (i) => ({ email: `member${i}@example.com` }));
    const [order] = shop.state.seedOrders(1, () => ({ email: 'member0@example.com', address: NOWHERE }));
    await send(domain, 'orders/create', order, { customer });
    await settled();
    const post = (token: string, body: unknown) => s.post('/shopify/orders/address-confirmation', body, { headers: { authorization: `Bearer ${token}` } });
    const ask = (token: string, id = order.id) => fetch(`${s.url}/shopify/orders/address-confirmation?order_id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${token}` } });
    const guest = await sessionToken(domain, SECRET);
    const other = await sessionToken(domain, SECRET, { sub: stranger.id });
    const own = await sessionToken(domain, SECRET, { sub: customer.id });

    // Act
    const refusals = [
      await post(guest, { order_id: order.id, action: 'confirm' }),
      await post(other, { order_id: order.id, action: 'confirm' }),
      await ask(guest),
      await ask(other),
    ];
    const missing = await ask(own, 'gid://shopify/Order/987654321');
    const held = shop.state.resource(order.id).fulfillmentOrders[0].status;
    const question = await ask(own);
    const confirmed = await post(own, { order_id: order.id, action: 'confirm' });

    // Assert
    const expected = await refusalOf(missing);
    expect(expected).toMatchObject({ status: 404, type: '/problems/not-found' });
    for (const res of refusals) expect(await refusalOf(res)).toEqual(expected);
    expect(held).toBe('ON_HOLD');
    expect(await question.json()).toEqual({ ask: true, reason: 'undeliverable' });
    expect(await confirmed.json()).toMatchObject({ status: 'confirmed', hold_released: true });
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('OPEN');
  });

  it('When an express-wallet order arrives while the store refuses writes, then the buyer is mailed at once and the assessment is recorded by the next update, once', async () => {
    // Arrange: the wallet gives the address (with its phone) on the order, and a contact e-mail only.
    const { apiKey } = await s.newAccount(1000);
    const domain = 'wallet.myshopify.com';
    const connector = await connect(apiKey, domain);
    const [order] = shop.state.seedOrders(1, () => ({ address: { ...NOWHERE, phone: '+1 502 713 4410' } }));
    const payload = { ...orderPayload(order), email: null, contact_email: 'wallet@example.com', phone: null, customer: null };
    const deliverPayload = (topic: string, body: unknown) => deliver(s.url, signedDelivery(topic, body, { shop: domain, secret: SECRET }));

    // Act
    // The store refuses our writes for a while (the app's write scope taken away, then given back).
    shop.state.scopes.delete('write_orders');
    await deliverPayload('orders/create', payload);
    await settled();
    shop.state.scopes.add('write_orders');
    const spent = await spentByConnector(s, connector.connector_id);
    const before = shop.state.resource(order.id).riskAssessments.length;
    const message = await mail.next('wallet@example.com');
    await Promise.all([
      deliverPayload('orders/updated', { ...payload, updated_at: '2026-11-24T11:00:00-00:00' }),
      deliverPayload('orders/updated', { ...payload, updated_at: '2026-11-24T11:00:01-00:00' }),
    ]);
    await settled();

    // Assert
    expect(before).toBe(0);
    expect(message.text).toMatch(/\/orders\/address\?token=/);
    const assessments = shop.state.resource(order.id).riskAssessments;
    expect(assessments).toHaveLength(1);
    expect(assessments[0].facts.map((f) => f.description)).toEqual(expect.arrayContaining([expect.stringMatching(/Phone number is valid/)]));
    // Address 1 + phone 2 (the e-mail's `unknown` refunded), once: the updates' checks are free.
    expect(spent).toBe(3);
    expect(await spentByConnector(s, connector.connector_id)).toBe(spent);
  });

  it('When the connector\'s monthly credit cap is reached, then the next order is neither checked nor assessed', async () => {
    const { apiKey } = await s.newAccount(1000);
    const domain = 'capped.myshopify.com';
    const connector = await connect(apiKey, domain, {}, SECRET, { credit_cap_monthly: 1 });
    const [first, second] = shop.state.seedOrders(2, () => ({ email: 'capped@mailinator.com', address: NOWHERE }));

    await send(domain, 'orders/create', first);
    await settled();
    const spent = await spentByConnector(s, connector.connector_id);
    await send(domain, 'orders/create', second);
    await settled();

    expect(shop.state.resource(first.id).riskAssessments).toHaveLength(1);
    expect(shop.state.resource(second.id).riskAssessments).toHaveLength(0);
    expect(await spentByConnector(s, connector.connector_id)).toBe(spent);
    // The cap pauses the connector (its runs' and deliveries' rule); the order check makes no charge past it either way.
    expect(await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey))).toMatchObject({ status: 'paused', reason: 'credit_cap_reached' });
  });

  it('When a customer asks to be forgotten, then what is kept of their orders goes', async () => {
    const { apiKey } = await s.newAccount(1000);
    const domain = 'forget.myshopify.com';
    const connector = await connect(apiKey, domain);
    const [customer] = shop.state.seedCustomers(1, () => ({ email: 'gone@example.com' }));
    const [order] = shop.state.seedOrders(1, () => ({ email: 'gone@example.com', address: GOOD }));
    await send(domain, 'orders/create', order, { customer });
    await settled();
    const kept = await s.db.all(`SELECT order_key FROM shop_orders WHERE connector_id = $1`, [connector.connector_id]);

    await deliver(s.url, signedDelivery('customers/redact', customersRedactPayload(domain, customer, [order]), { shop: domain, secret: SECRET }));
    await settled();

    expect(kept).toHaveLength(1);
    expect(await s.db.all(`SELECT order_key FROM shop_orders WHERE connector_id = $1`, [connector.connector_id])).toEqual([]);
  });

  it('When a delivery is forged or replayed, then nothing is checked, assessed, held or charged', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(1000);
    const domain = 'attacked.myshopify.com';
    const connector = await connect(apiKey, domain, { hold: true });
    const [order] = shop.state.seedOrders(1, () => ({ email: 'victim@example.com', address: NOWHERE }));

    // Act
    const forged = await send(domain, 'orders/create', order, { secret: 'guessed-secret' });
    const replayed = await send(domain, 'orders/create', order, { triggeredAt: new Date(Date.now() - 24 * 3600_000).toISOString() });
    await settled();

    // Assert
    expect(forged.status).toBe(401);
    expect(await replayed.json()).toEqual({ status: 'stale' });
    expect(shop.state.resource(order.id).riskAssessments).toHaveLength(0);
    expect(shop.state.resource(order.id).fulfillmentOrders[0].status).toBe('OPEN');
    expect(await spentByConnector(s, connector.connector_id)).toBe(0);
  });

  it('When a checkout extension reports prompts with the store\'s publishable key, then they are counted for that store only', async () => {
    // Arrange
    const { accountId, apiKey } = await s.newAccount(100);
    const domain = 'proof.myshopify.com';
    const connector = await connect(apiKey, domain);
    const created = await request(s, 'POST', '/v1/keys', apiKey, { publishable: true, origins: ['https://extensions.shopifycdn.com'] });
    const { api_key: publishable } = await json(created);
    const report = (body: unknown, origin = 'https://extensions.shopifycdn.com') =>
      s.post('/v1/checkout/events', body, { key: publishable, headers: { origin } });

    // Act
    const shown = [await report({ shop: domain, event: 'prompt_shown' }), await report({ shop: domain, event: 'prompt_shown' })];
    const wentOn = await report({ shop: domain, event: 'went_on_after_warning' });
    const notMine = await report({ shop: 'orders.myshopify.com', event: 'prompt_shown' });
    const otherOrigin = await report({ shop: domain, event: 'prompt_shown' }, 'https://evil.example');

    // Assert
    expect(shown.map((r) => r.status)).toEqual([204, 204]);
    expect(wentOn.status).toBe(204);
    expect(notMine.status).toBe(404);
    expect(otherOrigin.status).toBe(403);
    const proof = await s.sync.orderChecks!.book.proof(connector.connector_id, '2000-01-01', 0);
    expect(proof.counts).toMatchObject({ prompt_shown: 2, went_on_after_warning: 1 });
    expect(accountId).toBeTruthy();
  });

  it('When the merchant turns the hold on in the dashboard, then the next undeliverable order is held, and the store page shows the proof to its account only', async () => {
    // Arrange: a person signed in, their store connected with their key; another person.
    const { agent } = await signedUpPerson(s.url, mail, 'merchant', 'correct horse battery');
    const { agent: stranger } = await signedUpPerson(s.url, mail, 'stranger', 'correct horse battery');
    const domain = 'dashboard-store.myshopify.com';
    const connector = await connect(await newKeyOf(agent), domain);
    const [owner] = await s.db.all<{ account_id: string }>(`SELECT account_id FROM connectors WHERE id = $1`, [connector.connector_id]);
    await s.accounts.grantCredits(owner.account_id, 100);
    const [first] = shop.state.seedOrders(1, () => ({ email: 'one@example.com', address: NOWHERE }));
    await send(domain, 'orders/create', first);
    await settled();

    // Act
    const before = await agent.get(`/connectors/${connector.connector_id}/store`);
    const saved = await agent.post(`/connectors/${connector.connector_id}/store`, { mode: 'block', hold: 'true' });
    const [second] = shop.state.seedOrders(1, () => ({ email: 'two@example.com', address: NOWHERE }));
    await send(domain, 'orders/create', second);
    await settled();
    const after = await agent.get(`/connectors/${connector.connector_id}/store`);
    const notTheirs = await stranger.get(`/connectors/${connector.connector_id}/store`);
    const forged = await stranger.post(`/connectors/${connector.connector_id}/store`, { mode: 'warn', hold: 'false' });

    // Assert
    expect(before.status).toBe(200);
    expect(shop.state.resource(first.id).fulfillmentOrders[0].status).toBe('OPEN');
    expect(saved.status).toBe(303);
    expect(shop.state.resource(second.id).fulfillmentOrders[0].status).toBe('ON_HOLD');
    const cell = (page: string, id: string) => new RegExp(`data-testid="${id}">([^<]*)<`).exec(page)?.[1];
    expect(cell(after.text, 'proof-checked')).toBe('2');
    expect(cell(after.text, 'proof-held')).toBe('1');
    expect(cell(after.text, 'risk-HIGH')).toBe('2');
    expect(after.text).toMatch(/id="mode-block"[^>]* checked/);
    expect(after.text).toMatch(/id="hold"[^>]* checked/);
    expect(notTheirs.status).toBe(404);
    expect(forged.status).toBe(404);
    const [row] = await s.db.all<{ settings: string }>(`SELECT settings FROM connectors WHERE id = $1`, [connector.connector_id]);
    expect(JSON.parse(row.settings)).toMatchObject({ mode: 'block', hold: true });
  });
});
