import { afterEach, describe, expect, it } from 'vitest';
import {
  createShopifyPlugin, shopifyCredentialsSchema, shopifyPlugin, shopifySettingsSchema, shopifyWriteBackSchema,
} from '../../connectors/shopify/index.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import { ConnectorError, type ChangePage, type ConnectorSession, type Watermark, type WriteBackItem } from '../../src/sync/plugin.js';
import type { AddressResult, AddressStatus, EmailResult, EmailStatus, PhoneResult, PhoneStatus } from '../../src/validation/types.js';
import { startFakeShop, type FakeAddress, type FakeShop, type FakeShopOptions } from './fake-admin.js';
import { customerPayload, orderPayload, shopPayload, customersRedactPayload, shopRedactPayload, customersDataRequestPayload } from './webhooks.js';

let shop: FakeShop;
afterEach(async () => { await shop?.close(); });

const log = { info() {}, warn() {} };
const sleeps: number[] = [];

async function startShop(options: FakeShopOptions = {}) {
  shop = await startFakeShop(options);
  sleeps.length = 0;
  return shop;
}

/** The plugin sending every call to the fake shop; its sleeps are recorded and let the cost bucket refill. */
const pluginFor = (s: FakeShop) => createShopifyPlugin({
  adminBaseUrl: s.url,
  retry: { attempts: 4, baseDelayMs: 2, maxDelayMs: 5000 },
  sleep: async (ms) => { sleeps.push(ms); s.state.elapse(ms); },
});

async function open(s: FakeShop, opts: { settings?: object; token?: string; credentials?: object; writeBack?: object } = {}) {
  return pluginFor(s).open({
    settings: shopifySettingsSchema.parse({ shop: s.state.shop, ...opts.settings }),
    credentials: shopifyCredentialsSchema.parse(opts.credentials ?? { access_token: opts.token ?? s.state.accessToken, api_secret: 'app-secret' }),
    writeBack: shopifyWriteBackSchema.parse(opts.writeBack ?? {}),
    log,
    // The core's way out: the outbound guard, the local shop's origin allowed as SHOPIFY_ADMIN_BASE_URL allows it.
    fetch: createGuardedHttp({ privateOrigins: [s.url] }).fetch,
  });
}

async function readAll(session: ConnectorSession, watermark: Watermark = {}): Promise<ChangePage[]> {
  const pages: ChangePage[] = [];
  for await (const page of session.changes(watermark)) pages.push(page);
  return pages;
}

async function failureOf(p: Promise<unknown>): Promise<ConnectorError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ConnectorError);
  return err as ConnectorError;
}

const address = (status: AddressStatus): AddressResult => ({
  status, standardized: status === 'invalid' ? null : '1600 AMPHITHEATRE PKWY, MOUNTAIN VIEW CA 94043-1351', dpv: status === 'invalid' ? 'N' : 'Y',
  zip4: null, country: 'US', footnotes: [],
  evidence: status === 'invalid' ? 'street' : 'address_point', sources: ['openaddresses'],
  location: status === 'invalid' ? null : { lat: 37.4224, lon: -122.0842, precision: 'rooftop' },
  components: {
    primary_number: '1600', street_predirection: null, street_name: 'AMPHITHEATRE', street_suffix: 'PKWY', street_postdirection: null,
    secondary_designator: null, secondary_number: null, city: 'MOUNTAIN VIEW', state: 'CA', postal_code: '94043', plus4: '1351', country: 'US',
  },
});
const email = (status: EmailStatus): EmailResult => ({ status, risk: 'low', smtp: 'deliverable', reason: 'accepted', normalized: 'a@example.com', suggestion: null, disposable: false, role: false, free: false });
const phone = (status: PhoneStatus): PhoneResult => ({ status, type: 'mobile', carrier: null, carrier_source: 'none', e164: '+16505550100', country: 'US' });
const AT = '2026-11-25T08:00:00.000Z';

const HOME: FakeAddress = { address1: '1600 Amphitheatre Pkwy', address2: 'Suite 100', city: 'Mountain View', province: 'California', provinceCode: 'CA', zip: '94043', country: 'United States', countryCodeV2: 'US', phone: '+1 650 555 0100' };

describe('the Shopify connector: settings', () => {
  it('When settings name a shop, then it is lower-cased, checked as *.myshopify.com, and the defaults fill in', () => {
    expect(shopifySettingsSchema.parse({ shop: ' https://Example-Store.MyShopify.com/ ' })).toEqual({
      shop: 'example-store.myshopify.com', api_version: '2025-10', resources: ['customers', 'orders'], page_size: 250, mode: 'warn', hold: false,
    });
    expect(shopifySettingsSchema.safeParse({ shop: 'example.com' }).success).toBe(false);
    expect(shopifySettingsSchema.safeParse({ shop: 'a.myshopify.com', resources: [] }).success).toBe(false);
    expect(shopifySettingsSchema.safeParse({ shop: 'a.myshopify.com', page_size: 251 }).success).toBe(false);
    expect(shopifyCredentialsSchema.safeParse({ access_token: 'shpat_x' }).success).toBe(false);
    expect(shopifyCredentialsSchema.safeParse({ client_id: 'id', api_secret: 's' }).success).toBe(true);
    expect(shopifyCredentialsSchema.safeParse({ access_token: 'shpat_x', client_id: 'id', api_secret: 's' }).success).toBe(false);
    expect(shopifyWriteBackSchema.parse({})).toEqual({ tags: true, metafields: true });
  });

  it('When the core asks which URLs and which shop, then it gets https://{shop} and the shop domain', () => {
    const settings = shopifySettingsSchema.parse({ shop: 'example.myshopify.com' });
    expect(shopifyPlugin.type).toBe('shopify');
    expect(shopifyPlugin.urlsOf(settings)).toEqual(['https://example.myshopify.com']);
    expect(shopifyPlugin.platformKeyOf!(settings)).toBe('example.myshopify.com');
  });
});

describe('the Shopify connector: reading changes', () => {
  it('When it reads a shop for the first time with a small page size, then every customer and order comes, a page per API page', async () => {
    await startShop();
    const customers = shop.state.seedCustomers(7, (i) => ({ email: `c${i}@example.com` }));
    const orders = shop.state.seedOrders(3);
    const session = await open(shop, { settings: { page_size: 3 } });

    const pages = await readAll(session);

    expect(pages.map((p) => p.records.length)).toEqual([3, 3, 1, 3]);
    expect(pages.flatMap((p) => p.records.map((r) => r.key))).toEqual([
      ...customers.map((c) => `customer:${c.id}`), ...orders.map((o) => `order:${o.id}`),
    ]);
    expect(pages[0].watermark).toEqual({ customers: { updatedAt: '2026-11-24T10:00:03.000Z', id: customers[2].id } });
    expect(pages[3].watermark).toEqual({
      customers: { updatedAt: '2026-11-24T10:00:07.000Z', id: customers[6].id },
      orders: { updatedAt: '2026-11-24T10:00:10.000Z', id: orders[2].id },
    });
    expect(JSON.parse(JSON.stringify(pages[3].watermark))).toEqual(pages[3].watermark);
    expect(shop.state.calls).toMatchObject({ customers: 3, orders: 1 });
    const page = shop.state.requests.find((r) => r.query.includes('customers('))!;
    expect(page.query).toContain('sortKey: UPDATED_AT');
    expect(page.variables).toEqual({ first: 3, after: null, query: null });
    expect(page.version).toBe('2025-10');
  });

  it('When customers and orders hold addresses, e-mails and phones, then they map to contacts as docs/connectors.md says', async () => {
    await startShop();
    const [full, phoneFromAddress, unknownCountry, empty] = shop.state.seedCustomers(4, (i) => [
      { email: ' a@example.com ', phone: '+1 650 555 0199', address: HOME },
      { address: { address1: '10 Downing St', city: 'London', zip: 'SW1A 2AA', countryCodeV2: 'GB', phone: '020 7946 0000' } },
      { address: { address1: '1 Main St', address2: '', countryCodeV2: 'ZZ' } },
      {},
    ][i]);
    const [order] = shop.state.seedOrders(1, () => ({ email: 'buyer@example.com', address: { ...HOME, address2: null, phone: '+1 650 555 0111' } }));
    const session = await open(shop);

    const records = (await readAll(session)).flatMap((p) => p.records);

    expect(records).toEqual([
      { key: `customer:${full.id}`, contact: { address: '1600 Amphitheatre Pkwy, Suite 100, Mountain View, CA, 94043', email: 'a@example.com', phone: '+1 650 555 0199', country: 'US' } },
      { key: `customer:${phoneFromAddress.id}`, contact: { address: '10 Downing St, London, SW1A 2AA', phone: '020 7946 0000', country: 'GB' } },
      { key: `customer:${unknownCountry.id}`, contact: { address: '1 Main St, ZZ' } },
      { key: `customer:${empty.id}`, contact: {} },
      // An order is paid for once, whatever its edits: its charge key is its own.
      { key: `order:${order.id}`, chargeKey: `order:${order.id}`, contact: { address: '1600 Amphitheatre Pkwy, Mountain View, CA, 94043', email: 'buyer@example.com', phone: '+1 650 555 0111', country: 'US' } },
    ]);
  });

  it('When the watermark is given, then only records edited since, and those inside the overlap, are read', async () => {
    await startShop();
    const customers = shop.state.seedCustomers(10, () => ({}), 10 * 60_000);
    const session = await open(shop, { settings: { resources: ['customers'] } });
    const first = await readAll(session);
    shop.state.advance(3600_000);
    shop.state.edit(customers[7].id, { email: 'new@example.com' });
    shop.state.edit(customers[2].id, { phone: '+1 650 555 0199' });

    const second = await readAll(session, first.at(-1)!.watermark);

    // The last record read is inside the 5-minute overlap: read again, the core's change detection drops it.
    expect(second.flatMap((p) => p.records)).toEqual([
      { key: `customer:${customers[9].id}`, contact: {} },
      { key: `customer:${customers[7].id}`, contact: { email: 'new@example.com' } },
      { key: `customer:${customers[2].id}`, contact: { phone: '+1 650 555 0199' } },
    ]);
    expect(shop.state.requests.at(-1)!.variables.query).toBe("updated_at:>='2026-11-24T11:35:00Z'");
    expect(second.at(-1)!.watermark).toEqual({ customers: { updatedAt: '2026-11-24T12:40:02.000Z', id: customers[2].id } });
  });

  it('When the core writes a page back before reading the next, then those records come once more at the end and the read ends', async () => {
    await startShop();
    const customers = shop.state.seedCustomers(4, (i) => ({ email: `c${i}@example.com` }));
    const session = await open(shop, { settings: { resources: ['customers'], page_size: 2 } });
    const keys: string[] = [];
    let written = false;
    for await (const page of session.changes({})) {
      keys.push(...page.records.map((r) => r.key));
      if (!written) {
        written = true;
        await session.writeBack(page.records.map((r) => ({ key: r.key, email: email('valid'), validatedAt: AT })));
      }
    }
    // The write moved the first two to the end of the UPDATED_AT order, where the cursor meets them again.
    expect(keys).toEqual([0, 1, 2, 3, 0, 1].map((i) => `customer:${customers[i].id}`));
  });

  it('When the page size is the largest, then a page query asks for 502 points, under the 1,000 a query may cost', async () => {
    await startShop();
    shop.state.seedCustomers(3);
    const session = await open(shop, { settings: { resources: ['customers'] } });
    await readAll(session);
    expect(shop.state.costs.at(-1)).toMatchObject({ requestedQueryCost: 502, actualQueryCost: 8 });
  });
});

describe('the Shopify connector: writing verdicts back', () => {
  it('When a confirmed address is written, then the result metafield says what confirmed it and where it is', async () => {
    await startShop();
    const [c] = shop.state.seedCustomers(1, () => ({ address: HOME, email: 'a@example.com' }));
    const session = await open(shop);
    await readAll(session);

    await session.writeBack([{ key: `customer:${c.id}`, address: address('verified'), validatedAt: AT }]);

    // Issue 50: the same evidence, sources and location as /v1/validate answers.
    expect(JSON.parse(shop.state.get(c.id).metafields['contact_validator.result'].value).address)
      .toMatchObject({ evidence: 'address_point', sources: ['openaddresses'], location: { lat: 37.4224, lon: -122.0842, precision: 'rooftop' } });
  });

  it('When verdicts are written, then the metafields are set and cv- tags added, and the merchant\'s tags stay', async () => {
    await startShop();
    const [c] = shop.state.seedCustomers(1, () => ({ tags: ['VIP', 'wholesale'], address: HOME, email: 'a@example.com' }));
    const session = await open(shop);
    await readAll(session);

    const outcomes = await session.writeBack([{ key: `customer:${c.id}`, address: address('invalid'), email: email('valid'), phone: phone('invalid'), validatedAt: AT }]);

    expect(outcomes).toEqual([{ key: `customer:${c.id}`, ok: true }]);
    const saved = shop.state.get(c.id);
    expect(saved.metafields).toMatchObject({
      'contact_validator.address_status': { type: 'single_line_text_field', value: 'invalid' },
      'contact_validator.email_status': { type: 'single_line_text_field', value: 'valid' },
      'contact_validator.phone_status': { type: 'single_line_text_field', value: 'invalid' },
      'contact_validator.validated_at': { type: 'date_time', value: AT },
      'contact_validator.result': { type: 'json' },
    });
    expect(JSON.parse(saved.metafields['contact_validator.result'].value)).toEqual({ address: address('invalid'), email: email('valid'), phone: phone('invalid') });
    expect(saved.tags).toEqual(['VIP', 'wholesale', 'cv-address-invalid', 'cv-phone-invalid']);
    // One mutation document: metafieldsSet and the aliased tagsAdd; nothing to remove (the tags were read).
    expect(shop.state.calls).toMatchObject({ metafieldsSet: 1, tagsAdd: 1 });
    expect(shop.state.calls.tagsRemove).toBeUndefined();
    expect(shop.state.costs.at(-1)!.requestedQueryCost).toBe(20);
  });

  it('When a value is fixed, then its -invalid tag comes off and the tags of modules not validated stay', async () => {
    await startShop();
    const [c] = shop.state.seedCustomers(1, () => ({ tags: ['VIP', 'cv-email-invalid', 'cv-phone-invalid'], email: 'fixed@example.com' }));
    const session = await open(shop);
    await readAll(session);

    const outcomes = await session.writeBack([{ key: `customer:${c.id}`, email: email('valid'), validatedAt: AT }]);

    expect(outcomes).toEqual([{ key: `customer:${c.id}`, ok: true }]);
    const saved = shop.state.get(c.id);
    expect(saved.tags).toEqual(['VIP', 'cv-phone-invalid']);
    expect(Object.keys(saved.metafields).sort()).toEqual(['contact_validator.email_status', 'contact_validator.result', 'contact_validator.validated_at']);
  });

  it('When a record was not read in this session (a webhook), then its cv- tags are removed anyway, never the merchant\'s', async () => {
    await startShop();
    const [c] = shop.state.seedCustomers(1, () => ({ tags: ['cv-email-invalid', 'Email-Invalid'] }));
    const session = await open(shop);

    await session.writeBack([{ key: `customer:${c.id}`, email: email('risky'), validatedAt: AT }]);

    expect(shop.state.get(c.id).tags).toEqual(['Email-Invalid']);
  });

  it('When a module needs a person, then its -confirm or -fix tag follows its next action, goes once it is accept, and the merchant\'s look-alikes stay', async () => {
    await startShop();
    const [c] = shop.state.seedCustomers(1, () => ({ tags: ['VIP', 'CV-Email-Confirm-Later'], address: HOME, email: 'a@example.com' }));
    const session = await open(shop);
    await readAll(session);
    const write = (actions: { address: string; email: string; phone?: string }) => session.writeBack([{
      key: `customer:${c.id}`, validatedAt: AT,
      address: { ...address('corrected'), next_action: actions.address as 'confirm' }, email: { ...email('risky'), next_action: actions.email as 'confirm' },
      ...(actions.phone ? { phone: { ...phone('invalid'), next_action: actions.phone as 'fix' } } : {}),
    }]);

    await write({ address: 'confirm', email: 'confirm', phone: 'fix' });
    const asked = [...shop.state.get(c.id).tags];
    await write({ address: 'accept', email: 'fix' });
    const answered = [...shop.state.get(c.id).tags];

    expect(asked).toEqual(['VIP', 'CV-Email-Confirm-Later', 'cv-address-confirm', 'cv-email-confirm', 'cv-phone-invalid', 'cv-phone-fix']);
    // The phone was not validated this time: its tags stay as they were.
    expect(answered).toEqual(['VIP', 'CV-Email-Confirm-Later', 'cv-phone-invalid', 'cv-phone-fix', 'cv-email-fix']);
  });

  it('When an order\'s shipping address is ambiguous, then it gets cv-address-review, and loses it once verified', async () => {
    await startShop();
    const [order] = shop.state.seedOrders(1, () => ({ address: HOME, tags: ['gift'] }));
    const session = await open(shop);
    await readAll(session);

    await session.writeBack([{ key: `order:${order.id}`, address: address('ambiguous'), validatedAt: AT }]);
    expect(shop.state.get(order.id).tags).toEqual(['gift', 'cv-address-review']);

    await session.writeBack([{ key: `order:${order.id}`, address: address('invalid'), validatedAt: AT }]);
    expect(shop.state.get(order.id).tags).toEqual(['gift', 'cv-address-review', 'cv-address-invalid']);

    await session.writeBack([{ key: `order:${order.id}`, address: address('verified'), validatedAt: AT }]);
    expect(shop.state.get(order.id).tags).toEqual(['gift']);
    expect(shop.state.metafield(order.id, 'address_status')).toBe('verified');
  });

  it('When many records are written, then metafieldsSet gets at most 25 metafields a call and no record is split', async () => {
    await startShop();
    const customers = shop.state.seedCustomers(12);
    const session = await open(shop);

    const outcomes = await session.writeBack(customers.map((c) => ({ key: `customer:${c.id}`, address: address('verified'), email: email('valid'), phone: phone('valid'), validatedAt: AT })));

    expect(outcomes.every((o) => o.ok)).toBe(true);
    const sizes = shop.state.requests.filter((r) => r.query.includes('metafieldsSet')).map((r) => (r.variables.metafields as unknown[]).length);
    expect(sizes).toEqual([25, 25, 10]);
    expect(customers.every((c) => shop.state.metafield(c.id, 'validated_at') === AT)).toBe(true);
  });

  it('When the shop refuses one record\'s metafields, then that record fails with Shopify\'s words and the others are saved', async () => {
    await startShop();
    const [a, b, c] = shop.state.seedCustomers(3);
    shop.state.rejectMetafields.set(b.id, 'Value is not allowed by the store\'s rules');
    const session = await open(shop);

    const outcomes = await session.writeBack([
      ...[a, b, c].map((r) => ({ key: `customer:${r.id}`, email: email('valid'), validatedAt: AT })),
      { key: 'product:gid://shopify/Product/1', email: email('valid'), validatedAt: AT },
      { key: 'customer:gid://shopify/Customer/999', email: email('valid'), validatedAt: AT },
    ] satisfies WriteBackItem[]);

    expect(outcomes).toEqual([
      { key: `customer:${a.id}`, ok: true },
      { key: `customer:${b.id}`, ok: false, error: 'INVALID_VALUE: Value is not allowed by the store\'s rules (email_status, validated_at, result)' },
      { key: `customer:${c.id}`, ok: true },
      { key: 'product:gid://shopify/Product/1', ok: false, error: expect.stringMatching(/^INVALID_KEY: /) },
      { key: 'customer:gid://shopify/Customer/999', ok: false, error: expect.stringContaining('INVALID: Owner does not exist.') },
    ]);
    expect(shop.state.metafield(a.id, 'email_status')).toBe('valid');
    expect(shop.state.metafield(c.id, 'email_status')).toBe('valid');
    expect(shop.state.metafield(b.id, 'email_status')).toBeUndefined();
    // Atomic: the first call saved nothing; a and c went again on their own.
    expect(shop.state.calls.metafieldsSet).toBe(2);
  });

  it('When write-back is off, then a token with read scopes only will do and nothing is written', async () => {
    await startShop({ scopes: ['read_customers', 'read_orders'] });
    const [c] = shop.state.seedCustomers(1);
    const session = await open(shop, { writeBack: { tags: false, metafields: false } });

    const outcomes = await session.writeBack([{ key: `customer:${c.id}`, email: email('invalid'), validatedAt: AT }]);

    expect(outcomes).toEqual([{ key: `customer:${c.id}`, ok: true }]);
    expect(shop.state.calls.metafieldsSet).toBeUndefined();
    expect(shop.state.get(c.id)).toMatchObject({ tags: [], metafields: {} });
  });
});

describe('the Shopify connector: discover', () => {
  const contextFor = (s: FakeShop, writeBack: object = {}) => ({
    settings: shopifySettingsSchema.parse({ shop: s.state.shop }), log,
    credentials: shopifyCredentialsSchema.parse({ access_token: s.state.accessToken, api_secret: 'app-secret' }),
    writeBack: shopifyWriteBackSchema.parse(writeBack), fetch: createGuardedHttp({ privateOrigins: [s.url] }).fetch,
  });

  it('When the app may read customers but not write orders, then discover says so per resource, with the fields read and written', async () => {
    await startShop({ scopes: ['write_customers', 'read_orders'] });

    const catalog = await pluginFor(shop).discover!(contextFor(shop));

    expect(catalog.objects.map((o) => [o.name, o.readable, o.writable])).toEqual([['customers', true, true], ['orders', true, false]]);
    const customers = catalog.objects[0].fields;
    expect(customers.find((f) => f.name === 'email')).toEqual({ name: 'email', type: 'String', role: 'email', readable: true, writable: false, present: true });
    expect(customers.find((f) => f.name === 'defaultAddress.zip')).toMatchObject({ role: 'address', readable: true });
    expect(customers.find((f) => f.name === 'updatedAt')).toMatchObject({ role: 'watermark' });
    expect(customers.filter((f) => f.role === 'verdict').map((f) => f.name)).toEqual([
      'metafields.contact_validator.address_status', 'metafields.contact_validator.email_status', 'metafields.contact_validator.phone_status',
      'metafields.contact_validator.validated_at', 'metafields.contact_validator.result', 'tags: cv-address-invalid', 'tags: cv-email-invalid', 'tags: cv-phone-invalid',
      'tags: cv-address-confirm', 'tags: cv-address-fix', 'tags: cv-email-confirm', 'tags: cv-email-fix', 'tags: cv-phone-confirm', 'tags: cv-phone-fix',
    ]);
    const orders = catalog.objects[1].fields;
    expect(orders.find((f) => f.name === 'shippingAddress.address1')).toMatchObject({ role: 'address' });
    expect(orders.filter((f) => f.role === 'verdict').every((f) => f.readable && !f.writable)).toBe(true);
    expect(orders.some((f) => f.name === 'tags: cv-address-review')).toBe(true);
  });

  it('When write-back is off, then discover lists only what is read', async () => {
    await startShop({ scopes: ['read_customers', 'read_orders'] });

    const catalog = await pluginFor(shop).discover!(contextFor(shop, { tags: false, metafields: false }));

    expect(catalog.objects.flatMap((o) => o.fields).some((f) => f.role === 'verdict')).toBe(false);
    expect(catalog.objects.every((o) => o.readable && !o.writable)).toBe(true);
  });
});

describe('the Shopify connector: limits and failures', () => {
  it('When the cost bucket is empty, then the THROTTLED answer is waited out from throttleStatus and the query sent again', async () => {
    await startShop({ restoreRate: 50, refillInRealTime: false });
    shop.state.seedCustomers(3);
    const session = await open(shop, { settings: { resources: ['customers'], page_size: 3 } });
    shop.state.drain(0);

    const pages = await readAll(session);

    expect(pages.flatMap((p) => p.records)).toHaveLength(3);
    expect(shop.state.calls.throttled).toBe(1);
    // (requested 8 − available 0) / 50 points a second.
    expect(sleeps).toEqual([160]);
  });

  it('When its own calls run the bucket low, then the next call first waits for the points it cost last time', async () => {
    await startShop({ maximumAvailable: 10, restoreRate: 10 });
    shop.state.seedCustomers(4);
    const session = await open(shop, { settings: { resources: ['customers'], page_size: 2 } });

    const pages = await readAll(session);

    expect(pages).toHaveLength(2);
    expect(shop.state.calls.throttled).toBeUndefined();
    // 10 − 3 (the access check) − 6 (the first page) leaves 1: (6 − 1) / 10 points a second, less the time gone by.
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(400);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
  });

  it('When Shopify answers 429 and then 503, then the call is retried (Retry-After honoured) and succeeds', async () => {
    await startShop();
    shop.state.seedCustomers(1);
    const session = await open(shop);
    shop.state.failNext(1, 429);
    shop.state.failNext(1, 503);

    const pages = await readAll(session);

    expect(pages.flatMap((p) => p.records)).toHaveLength(1);
    expect(sleeps[0]).toBe(2000);
    expect(shop.state.calls).toMatchObject({ 'fault.429': 1, 'fault.503': 1 });
  });

  it('When Shopify keeps failing with 5xx, then the run stops with api_error and Shopify\'s message', async () => {
    await startShop();
    const session = await open(shop);
    shop.state.failNext(10, 502);

    const err = await failureOf(readAll(session));

    expect(err.reason).toBe('api_error');
    expect(err.platformMessage).toBe('502 502 Bad Gateway');
    expect(shop.state.calls['fault.502']).toBe(4);
  });

  it('When 429s go on, then the run stops with rate_limited', async () => {
    await startShop();
    const session = await open(shop);
    shop.state.failNext(10, 429);
    const err = await failureOf(session.writeBack([{ key: 'customer:gid://shopify/Customer/1', email: email('valid'), validatedAt: AT }]));
    expect(err.reason).toBe('rate_limited');
    expect(err.platformMessage).toMatch(/^429 Exceeded 2 calls per second/);
  });

  it('When the access token is wrong, then opening fails with auth_failed and Shopify\'s own words', async () => {
    await startShop();
    const err = await failureOf(open(shop, { token: 'shpat_wrong' }));
    expect(err.reason).toBe('auth_failed');
    expect(err.platformMessage).toBe('401 [API] Invalid API key or access token (unrecognized login or wrong password)');
    expect(shop.state.calls.unauthorized).toBe(1);
  });

  it('When the token lacks an access scope the settings need, then opening fails with auth_failed naming it', async () => {
    await startShop({ scopes: ['read_customers', 'write_customers', 'read_orders'] });
    const err = await failureOf(open(shop));
    expect(err.reason).toBe('auth_failed');
    expect(err.platformMessage).toBe('missing access scopes: write_orders');
  });

  it('When a scope is taken away during a run, then the read fails with auth_failed and Shopify\'s ACCESS_DENIED', async () => {
    await startShop();
    const session = await open(shop);
    shop.state.scopes.clear();
    const err = await failureOf(readAll(session));
    expect(err.reason).toBe('auth_failed');
    expect(err.platformMessage).toMatch(/^ACCESS_DENIED: Access denied for customers field/);
  });
});

describe('the Shopify connector: Dev Dashboard apps (client credentials grant)', () => {
  it('When the credentials are a client ID and secret, then a token is granted and every call carries it', async () => {
    await startShop();
    shop.state.seedCustomers(2);
    const session = await open(shop, { credentials: { client_id: shop.state.clientId, api_secret: shop.state.clientSecret } });

    const pages = await readAll(session);

    expect(pages.flatMap((p) => p.records)).toHaveLength(2);
    expect(shop.state.calls.token).toBe(1);
    const [granted] = [...shop.state.grantedTokens];
    expect(shop.state.requests.every((r) => r.headers['x-shopify-access-token'] === granted)).toBe(true);
  });

  it('When a granted token stops working during a run, then one new grant is asked and the call goes again', async () => {
    await startShop();
    shop.state.seedCustomers(1);
    const session = await open(shop, { credentials: { client_id: shop.state.clientId, api_secret: shop.state.clientSecret } });
    shop.state.revokeGrantedTokens();

    const pages = await readAll(session);

    expect(pages.flatMap((p) => p.records)).toHaveLength(1);
    expect(shop.state.calls).toMatchObject({ token: 2, unauthorized: 1 });
  });

  it('When the client secret is wrong, then opening fails with auth_failed and Shopify\'s words', async () => {
    await startShop();
    const err = await failureOf(open(shop, { credentials: { client_id: shop.state.clientId, api_secret: 'wrong' } }));
    expect(err.reason).toBe('auth_failed');
    expect(err.platformMessage).toMatch(/^400 invalid_client: Client authentication failed/);
  });
});

describe('the Shopify connector: webhook deliveries', () => {
  it('When customers/create, customers/update or orders/create comes, then its record is the one changes would give', async () => {
    await startShop();
    const [customer] = shop.state.seedCustomers(1, () => ({ email: 'a@example.com', address: { ...HOME, phone: null }, phone: null }));
    const [customer2] = shop.state.seedCustomers(1, () => ({ address: HOME }));
    const [order] = shop.state.seedOrders(1, () => ({ email: 'b@example.com', address: HOME }));
    const read = (await readAll(await open(shop))).flatMap((p) => p.records);

    const delivered = [
      ...shopifyPlugin.recordsOfDelivery!('customers/create', customerPayload(customer)),
      ...shopifyPlugin.recordsOfDelivery!('customers/update', JSON.parse(JSON.stringify(customerPayload(customer2)))),
      ...shopifyPlugin.recordsOfDelivery!('orders/create', orderPayload(order, customer)),
    ];

    expect(delivered).toEqual(read);
    expect(delivered[2]).toEqual({ key: `order:${order.id}`, chargeKey: `order:${order.id}`, contact: { address: '1600 Amphitheatre Pkwy, Suite 100, Mountain View, CA, 94043', email: 'b@example.com', phone: '+1 650 555 0100', country: 'US' } });
  });

  it('When a topic carries no contact to check, then it gives no records', async () => {
    await startShop();
    const [customer] = shop.state.seedCustomers(1, () => ({ email: 'a@example.com' }));
    const s = shop.state.shop;
    const topics: [string, unknown][] = [
      ['app/uninstalled', shopPayload(s)], ['customers/data_request', customersDataRequestPayload(s, customer)],
      ['customers/redact', customersRedactPayload(s, customer)], ['shop/redact', shopRedactPayload(s)],
      ['products/update', { id: 1, admin_graphql_api_id: 'gid://shopify/Product/1' }], ['customers/update', null],
    ];
    for (const [topic, payload] of topics) expect(shopifyPlugin.recordsOfDelivery!(topic, payload)).toEqual([]);
  });
});
