import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeShop, type FakeShop } from './fake-admin.js';
import { customerPayload, signedDelivery } from './webhooks.js';

let shop: FakeShop;
afterEach(async () => { await shop?.close(); });

async function gql(query: string, variables: Record<string, unknown> = {}, token = shop.state.accessToken) {
  const res = await fetch(`${shop.url}/admin/api/2025-10/graphql.json`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { 'X-Shopify-Access-Token': token } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json() as any };
}

const PAGE = `query($after: String) { customers(first: 2, after: $after, sortKey: UPDATED_AT) {
  edges { cursor node { id } } nodes { id email tags defaultAddress { city countryCodeV2 } } pageInfo { hasNextPage endCursor } } }`;

describe('the fake Shopify Admin GraphQL API', () => {
  it('When the app asks for its installation\'s access scopes, then both documented queries list the granted handles', async () => {
    shop = await startFakeShop({ scopes: ['read_customers', 'write_orders'] });

    const current = await gql('{ currentAppInstallation { accessScopes { handle } } }');
    const installation = await gql('{ appInstallation { accessScopes { handle description } } }');

    expect(current.body.data.currentAppInstallation.accessScopes).toEqual([{ handle: 'read_customers' }, { handle: 'write_orders' }]);
    expect(installation.body.data.appInstallation.accessScopes.map((s: { handle: string }) => s.handle)).toEqual(['read_customers', 'write_orders']);
  });

  it('When the access token is wrong or missing, then it answers 401 with Shopify\'s text', async () => {
    shop = await startFakeShop();
    for (const token of ['shpat_wrong', '']) {
      const { status, body } = await gql('{ shop { name } }', {}, token);
      expect(status).toBe(401);
      expect(body).toEqual({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
  });

  it('When customers are paged, then nodes, edges, pageInfo and the cost extension come as documented', async () => {
    shop = await startFakeShop();
    const [a, b, c] = shop.state.seedCustomers(3, (i) => ({ email: `c${i}@example.com`, address: { city: 'Ottawa', countryCodeV2: 'CA' } }));

    const first = await gql(PAGE);
    const second = await gql(PAGE, { after: first.body.data.customers.pageInfo.endCursor });

    expect(first.body.data.customers.nodes).toEqual([
      { id: a.id, email: 'c0@example.com', tags: [], defaultAddress: { city: 'Ottawa', countryCodeV2: 'CA' } },
      { id: b.id, email: 'c1@example.com', tags: [], defaultAddress: { city: 'Ottawa', countryCodeV2: 'CA' } },
    ]);
    expect(first.body.data.customers.edges.map((e: any) => e.node.id)).toEqual([a.id, b.id]);
    expect(first.body.data.customers.pageInfo.hasNextPage).toBe(true);
    expect(second.body.data.customers.nodes.map((n: any) => n.id)).toEqual([c.id]);
    expect(second.body.data.customers.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    expect(first.body.extensions.cost).toEqual({
      requestedQueryCost: 6, actualQueryCost: 6, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: expect.any(Number), restoreRate: 100 },
    });
  });

  it('When the bucket holds less than a query asks, then THROTTLED comes as HTTP 200 with the throttle status', async () => {
    shop = await startFakeShop({ refillInRealTime: false });
    shop.state.drain(3);
    const { status, body } = await gql(PAGE);
    expect(status).toBe(200);
    expect(body).toEqual({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
      extensions: { cost: { requestedQueryCost: 6, actualQueryCost: null, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 3, restoreRate: 100 } } },
    });
  });

  it('When a single query would cost more than 1,000 points, then it is refused with MAX_COST_EXCEEDED', async () => {
    shop = await startFakeShop();
    const { body } = await gql(`{ customers(first: 250) { nodes { id defaultAddress { city } a: metafield(namespace: "x", key: "y") { value } b: metafield(namespace: "x", key: "z") { value } } } }`);
    expect(body.errors[0].extensions).toMatchObject({ code: 'MAX_COST_EXCEEDED', cost: 1002, maxCost: 1000 });
  });

  it('When metafields and tags are written in one aliased document, then they are saved and updatedAt moves', async () => {
    shop = await startFakeShop();
    const [c] = shop.state.seedCustomers(1, () => ({ tags: ['VIP', 'old'] }));
    const before = shop.state.get(c.id).updatedAt;
    const { body } = await gql(`mutation($m: [MetafieldsSetInput!]!, $id: ID!) {
      metafieldsSet(metafields: $m) { metafields { key value } userErrors { field message code elementIndex } }
      add: tagsAdd(id: $id, tags: ["cv-email-invalid", "vip"]) { node { id } userErrors { field message } }
      rm: tagsRemove(id: $id, tags: "old") { node { id } userErrors { field message } }
    }`, { id: c.id, m: [{ ownerId: c.id, namespace: 'contact_validator', key: 'email_status', type: 'single_line_text_field', value: 'invalid' }] });

    expect(body.data).toEqual({
      metafieldsSet: { metafields: [{ key: 'email_status', value: 'invalid' }], userErrors: [] },
      add: { node: { id: c.id }, userErrors: [] },
      rm: { node: { id: c.id }, userErrors: [] },
    });
    expect(shop.state.get(c.id)).toMatchObject({ tags: ['VIP', 'cv-email-invalid'], metafields: { 'contact_validator.email_status': { value: 'invalid' } } });
    expect(Date.parse(shop.state.get(c.id).updatedAt)).toBeGreaterThan(Date.parse(before));
    expect(body.extensions.cost.requestedQueryCost).toBe(30);
  });

  it('When metafieldsSet gets more than 25 metafields or one bad value, then nothing is saved and userErrors say why', async () => {
    shop = await startFakeShop();
    const [c] = shop.state.seedCustomers(1);
    const mf = (i: number, value = 'x') => ({ ownerId: c.id, namespace: 'contact_validator', key: `k${i}`, type: 'single_line_text_field', value });
    const M = 'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { metafields { id } userErrors { field message code elementIndex } } }';

    const tooMany = await gql(M, { m: Array.from({ length: 26 }, (_, i) => mf(i)) });
    const oneBad = await gql(M, { m: [mf(1), { ...mf(2), type: 'json', value: '{' }] });

    expect(tooMany.body.data.metafieldsSet.userErrors).toEqual([{ field: ['metafields'], message: 'Exceeded the maximum metafields input limit of 25.', code: 'LESS_THAN_OR_EQUAL_TO', elementIndex: null }]);
    expect(oneBad.body.data.metafieldsSet).toEqual({
      metafields: [], userErrors: [{ field: ['metafields', '1', 'value'], message: 'Value is invalid for type json', code: 'INVALID_VALUE', elementIndex: 1 }],
    });
    expect(shop.state.get(c.id).metafields).toEqual({});
  });
});

describe('signed webhook deliveries', () => {
  it('When a delivery is built, then its HMAC is the base64 HMAC-SHA256 of the raw body with the API secret', async () => {
    shop = await startFakeShop();
    const [c] = shop.state.seedCustomers(1, () => ({ email: 'a@example.com' }));
    const d = signedDelivery('customers/update', customerPayload(c), { shop: shop.state.shop, secret: 's3cret', webhookId: 'w-1' });
    expect(d.headers).toMatchObject({
      'X-Shopify-Topic': 'customers/update', 'X-Shopify-Shop-Domain': 'example.myshopify.com', 'X-Shopify-Webhook-Id': 'w-1',
      'X-Shopify-API-Version': '2025-10', 'X-Shopify-Hmac-Sha256': crypto.createHmac('sha256', 's3cret').update(d.body).digest('base64'),
    });
    expect(JSON.parse(d.body)).toMatchObject({ id: c.n, admin_graphql_api_id: c.id, email: 'a@example.com', default_address: null });
  });
});
