/**
 * GET /v1/openapi.json (docs/api.md#openapi-and-client-libraries): the description is OpenAPI 3.1 in shape, and the running service answers as it
 * says: every documented status of every operation is provoked through real HTTP, and every answer's body is checked
 * against the schema documented for that status (test/openapi/conformance.ts).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '../../src/http/problems.js';
import { testDatabases } from '../support/databases.js';
import { accountWithMember } from '../support/account-people.js';
import { useTestService } from '../support/service.js';
import { Conformance, operationsOf } from './conformance.js';
import { startFakeOrg } from '../salesforce/fake-org.js';
import { BIG_JSON, batchUntil, call, json, salesforceBody, silentServer } from './http.js';
import { provokeShopifyOrderEndpoints, sessionTokenFor } from './shopify-orders-scenarios.js';
import { provokePolicies, provokeValidateBatch } from './validate-batch-scenarios.js';

const database = testDatabases[0];
const BATCH_MAX_BYTES = 4096;
/** Shopify Admin API calls go to a closed local port: nothing here leaves the machine. */
const CONNECTOR_ENV = {
  CONNECTOR_SECRET_KEY: 'b2'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: 'http://127.0.0.1:9',
  BATCH_MAX_BYTES: String(BATCH_MAX_BYTES), WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TIMEOUT_MS: '1500',
};
const SHOP_ORIGIN = 'https://shop.example.com';
/** Statuses no test here can provoke, and why (the report lists them). */
const NOT_PROVOKED: Record<string, string> = {
  'GET /problems/{code} 500': 'internal: the page is built from the catalogue alone, with no part to make fail',
  'GET /v1/openapi.json 500': 'internal: the description is built from schemas alone, with no part to make fail',
  'GET /docs 500': 'internal: a constant page, with no part to make fail',
  'GET /widget.js 500': 'internal: the script is built once from the widget source, with no part to make fail at run time',
  'GET /widget/demo 500': 'internal: a constant page, with no part to make fail',
  'POST /widget/demo 500': 'internal: a constant page, with no part to make fail',
  'GET /shopify/install 500': 'internal: signs and checks a link with the app secret, with no part to make fail',
  'GET /shopify/callback 500': "internal: not provoked (a failing token exchange answers 400 with Shopify's status)",
  'GET /metrics 500': 'internal: prom-client renders counters it holds; its only outside part, the database gauges, fails as 503',
  // Every plugin's webhook endpoint is the one handler (src/http/endpoints/webhooks.ts, webhookEndpointsOf): its
  // statuses are provoked through /webhooks/shopify here, and HubSpot's signed deliveries in its own suites.
  ...Object.fromEntries(['200', '400', '413', '429', '500', '503'].map((status) => [`POST /webhooks/hubspot ${status}`,
    'the same generated handler as POST /webhooks/shopify, provoked there; HubSpot deliveries: test/service/hubspot-*'])),
};
const whyNotProvoked = (entry: string) => NOT_PROVOKED[entry];

type Json = Record<string, any>;

let doc: Json;
let conformance: Conformance;

describe('the OpenAPI description', () => {
  const service = useTestService(database, CONNECTOR_ENV);

  beforeAll(async () => {
    const res = await service().get('/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = (await res.json()) as Json;
    conformance = new Conformance(doc);
  });

  it('When it is read, then it is OpenAPI 3.1: version, info, operations with responses and unique ids', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const operations = operationsOf(doc);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, op } of operations) {
      expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      for (const name of path.match(/\{[^}]+\}/g) ?? []) {
        expect(op.parameters?.some((p: Json) => p.in === 'path' && `{${p.name}}` === name && p.required), `${path} ${name}`).toBe(true);
      }
    }
  });

  it('When an answer has a member the description leaves out, or misses one it requires, then the check fails', async () => {
    const answer = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    await expect(conformance.check('GET', '/healthz', answer({ status: 'ok', extra: 1 }))).rejects.toThrow(/additional/);
    await expect(conformance.check('GET', '/v1/batches', answer({ batches: [{ batch_id: 'b' }] }))).rejects.toThrow(/required/);
    conformance.seen.clear();
  });

  it('When every $ref is followed, then it resolves inside the document', () => {
    const resolve = (ref: string) => ref.slice(2).split('/').reduce<any>(
      (node, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) if (k === '$ref') refs.push(v as string); else walk(v);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((ref) => !ref.startsWith('#/') || resolve(ref) === undefined)).toEqual([]);
  });

  it('When it lists the endpoints, then every endpoint of the service, the problem types and the key scheme are there', () => {
    const expected = [
      'POST /v1/validate', 'POST /v1/validate/batch', 'GET /v1/policies', 'POST /v1/policies', 'GET /v1/policies/{policy_id}',
      'PATCH /v1/policies/{policy_id}', 'DELETE /v1/policies/{policy_id}', 'GET /v1/account', 'GET /v1/keys', 'POST /v1/keys', 'DELETE /v1/keys/{key_id}',
      'POST /v1/batches', 'GET /v1/batches', 'GET /v1/batches/{batch_id}', 'GET /v1/batches/{batch_id}/result',
      'POST /v1/batches/{batch_id}/resume', 'DELETE /v1/batches/{batch_id}', 'POST /v1/connectors', 'GET /v1/connectors',
      'GET /v1/connectors/{connector_id}', 'PATCH /v1/connectors/{connector_id}', 'DELETE /v1/connectors/{connector_id}',
      'POST /v1/connectors/{connector_id}/runs', 'GET /v1/connectors/{connector_id}/runs', 'POST /v1/connectors/{connector_id}/check', 'GET /healthz', 'GET /readyz', 'GET /v1/usage', 'GET /v1/address/autocomplete', 'GET /widget.js', 'GET /widget/demo', 'POST /widget/demo', 'GET /metrics',
      'POST /v1/connectors/shopify/install', 'GET /shopify/install', 'GET /shopify/callback',
      'GET /shopify/orders/address-confirmation', 'POST /shopify/orders/address-confirmation', 'POST /v1/checkout/events', 'GET /v1/checkout/settings',
      'GET /problems/{code}', 'POST /webhooks/shopify', 'POST /webhooks/hubspot', 'POST /webhooks/stripe', 'GET /v1/openapi.json', 'GET /docs',
      'PATCH /v1/account', 'POST /v1/webhook_endpoints', 'GET /v1/webhook_endpoints', 'DELETE /v1/webhook_endpoints/{webhook_endpoint_id}',
      'GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries',
      'POST /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver',
      'GET /v1/email-checks/{check_id}', 'POST /v1/feedback',
    ];
    expect(operationsOf(doc).map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort()).toEqual(expected.sort());
    for (const code of Object.keys(PROBLEM_TYPES)) expect(doc.components.schemas[`Problem-${code}`], code).toBeDefined();
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.ApiKey.description).toMatch(/cv_live_[\s\S]*cv_pub_/);
    const schemas = doc.components.schemas;
    expect(schemas.AddressResult.properties.status.enum).toContain('ambiguous');
    expect(schemas.EmailResult.properties.smtp.enum).toContain('catch_all');
    expect(schemas.PhoneResult.properties.carrier_source.enum).toEqual(['live', 'allocation', 'none']);
    expect(schemas.Batch.properties.status.enum).toContain('paused');
  });

  it('When /docs is opened, then it is an HTML page rendering the description from local assets under a CSP', async () => {
    const s = service();
    const page = await call(s, 'GET', '/docs');
    const html = await conformance.check('GET', '/docs', page);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(html).not.toMatch(/<script>|https?:\/\//);
    for (const asset of html.match(/(?<=(?:src|href)=")\/docs\/[^"]+/g)!) {
      const res = await call(s, 'GET', asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect((await call(s, 'GET', '/docs/assets/package.json')).status).toBe(404);
    await conformance.check('GET', '/v1/openapi.json', await call(s, 'GET', '/v1/openapi.json'));
  });

  it('When /v1/validate is called every way the description lists, then each answer matches its documented schema', async () => {
    const s = service();
    const { apiKey, accountId, keyId } = await s.newAccount(100);
    const poor = await s.newAccount(0);
    const check = (res: Response) => conformance.check('POST', '/v1/validate', res);
    const full = { address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043', email: 'someone@example.com', phone: '+14155550123' };

    await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json(full) }));
    await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json({ address: { line1: '100 Queen St W', city: 'Toronto', state: 'ON', postal_code: 'M5H 2N2' }, country: 'CA' }) }));
    expect((await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json('{"email":') }))).type).toBe('/problems/invalid-json');
    expect((await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json({}) }))).errors.length).toBeGreaterThan(0);
    const badKey = await call(s, 'POST', '/v1/validate', { key: apiKey, ...json(full), headers: { 'idempotency-key': 'has space' } });
    expect((await check(badKey)).type).toBe('/problems/invalid-header');
    expect((await check(await call(s, 'POST', '/v1/validate', json(full)))).type).toBe('/problems/unauthorized');
    expect((await check(await call(s, 'POST', '/v1/validate', { key: poor.apiKey, ...json(full) }))).required).toBeGreaterThan(0);
    expect((await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...BIG_JSON }))).type).toBe('/problems/payload-too-large');
    expect((await check(await call(s, 'POST', '/v1/validate', { key: apiKey, body: 'a@b.co', type: 'text/plain' }))).type).toBe('/problems/unsupported-media-type');

    // Publishable keys: from no origin 403, a phone it may not check 403, and an answer with credits: null.
    const created = await conformance.check('POST', '/v1/keys', await call(s, 'POST', '/v1/keys', { key: apiKey, ...json({ publishable: true, origins: [SHOP_ORIGIN] }) }));
    const pub = created.api_key as string;
    expect((await check(await call(s, 'POST', '/v1/validate', { key: pub, ...json({ email: 'a@b.co' }) }))).type).toBe('/problems/origin-not-allowed');
    expect((await check(await call(s, 'POST', '/v1/validate', { key: pub, ...json({ phone: '+14155550123' }), headers: { origin: SHOP_ORIGIN } }))).type).toBe('/problems/module-not-allowed');
    expect((await check(await call(s, 'POST', '/v1/validate', { key: pub, ...json({ email: 'a@b.co' }), headers: { origin: SHOP_ORIGIN } }))).credits).toBeNull();

    // Idempotency-Key: another body 422; a first request still in flight (its record as the service writes it) 409.
    const once = { 'idempotency-key': 'conformance-1' };
    await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json({ email: 'a@b.co' }), headers: once }));
    expect((await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json({ email: 'c@d.co' }), headers: once }))).type).toBe('/problems/idempotency-key-reused');
    const body = JSON.stringify({ email: 'e@f.co' });
    await s.db.run(
      `INSERT INTO idempotency_records (account_id, key_id, idempotency_key, request_hash, state, created_at, expires_at) VALUES ($1, $2, $3, $4, 'in_flight', $5, $6)`,
      [accountId, keyId, 'conformance-2', crypto.createHash('sha256').update(body).digest('hex'), Date.now(), Date.now() + 60_000],
    );
    expect((await check(await call(s, 'POST', '/v1/validate', { key: apiKey, ...json(body), headers: { 'idempotency-key': 'conformance-2' } }))).type).toBe('/problems/idempotency-key-in-use');
  });

  it('When /v1/validate/batch is called every way the description lists, then each answer matches its documented schema', async () => {
    await provokeValidateBatch(service(), conformance);
  });

  it('When /v1/policies and `?policy=` are called every way the description lists, then each answer matches', async () => {
    await provokePolicies(service(), conformance);
  });

  it('When the account and key endpoints are called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    await s.post('/v1/validate', { email: 'a@b.co', address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043' }, { key: apiKey });
    await conformance.check('GET', '/v1/account', await call(s, 'GET', '/v1/account', { key: apiKey }));
    await conformance.check('GET', '/v1/keys', await call(s, 'GET', '/v1/keys', { key: apiKey }));
    await conformance.check('GET', '/v1/usage', await call(s, 'GET', '/v1/usage', { key: apiKey }));
    await conformance.check('GET', '/v1/usage', await call(s, 'GET', '/v1/usage?from=2026-01-01&to=2026-01-03', { key: apiKey }));
    await conformance.check('GET', '/v1/usage', await call(s, 'GET', '/v1/usage?from=yesterday', { key: apiKey }));
    const keys = (r: Response) => conformance.check('POST', '/v1/keys', r);
    const secret = await keys(await call(s, 'POST', '/v1/keys', { key: apiKey }));
    expect(secret.api_key).toMatch(/^cv_live_/);
    await keys(await call(s, 'POST', '/v1/keys', { key: apiKey, ...json('{') }));
    await keys(await call(s, 'POST', '/v1/keys', { key: apiKey, ...json({ publishable: true }) }));
    await keys(await call(s, 'POST', '/v1/keys', { key: apiKey, ...BIG_JSON }));
    await keys(await call(s, 'POST', '/v1/keys', { key: apiKey, body: 'x', type: 'text/plain' }));
    const revoke = (id: string) => call(s, 'DELETE', `/v1/keys/${id}`, { key: apiKey });
    await conformance.check('DELETE', '/v1/keys/{key_id}', await revoke(secret.key_id));
    await conformance.check('DELETE', '/v1/keys/{key_id}', await revoke('key_missing'));
    await conformance.check('GET', '/v1/keys', await call(s, 'GET', '/v1/keys', { key: apiKey }));
    await conformance.check('GET', '/v1/account', await call(s, 'GET', '/v1/account'));
  });

  it('When the e-mail check endpoint is called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey, accountId } = await s.newAccount(1);
    const other = await s.newAccount(0);
    // Network checks are off here, so no answer opens a check: one is stored as a greylisted answer would open it.
    const id = 'ec_openapi';
    await s.emailChecks.store.insert({
      id, accountId, email: 'ann@example.com', firstReason: 'temp_fail', origin: null, othersNextAction: null,
      nextAttemptAt: Date.now() + 3_600_000, createdAt: Date.now(),
    });
    const check = (key: string, checkId = id) => call(s, 'GET', `/v1/email-checks/${checkId}`, { key });
    expect(await conformance.check('GET', '/v1/email-checks/{check_id}', await check(apiKey))).toMatchObject({ id, status: 'pending' });
    await conformance.check('GET', '/v1/email-checks/{check_id}', await check(other.apiKey));
    await conformance.check('GET', '/v1/email-checks/{check_id}', await check(apiKey, 'ec_missing'));
  });

  it('When the feedback endpoint is called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(1);
    const tell = (body: { body: string; type: string }) => call(s, 'POST', '/v1/feedback', { key: apiKey, ...body });
    const path = '/v1/feedback';
    expect(await conformance.check('POST', path, await tell(json({ email: 'ann@example.com', outcome: 'bounced' }))))
      .toMatchObject({ email: 'ann@example.com', domain_outcomes: { bounced: 1 } });
    expect((await conformance.check('POST', path, await tell(json({ email: 'ann', outcome: 'bounced' })))).type).toBe('/problems/invalid-request');
    expect((await conformance.check('POST', path, await tell(json('{')))).type).toBe('/problems/invalid-json');
    expect((await conformance.check('POST', path, await tell(BIG_JSON))).type).toBe('/problems/payload-too-large');
    expect((await conformance.check('POST', path, await tell({ body: 'x', type: 'text/plain' }))).type).toBe('/problems/unsupported-media-type');
  });

  it('When the webhook endpoints and the account patch are called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(10);
    const other = await s.newAccount(0);
    const hanging = await silentServer();
    const receiver = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    try {
      const patch = (r: Response) => conformance.check('PATCH', '/v1/account', r);
      await patch(await call(s, 'PATCH', '/v1/account', { key: apiKey, ...json({ low_balance_threshold: 5 }) }));
      await patch(await call(s, 'PATCH', '/v1/account', { key: apiKey, ...json({ low_balance_threshold: 'five' }) }));
      await patch(await call(s, 'PATCH', '/v1/account', { key: apiKey, ...BIG_JSON }));
      await patch(await call(s, 'PATCH', '/v1/account', { key: apiKey, body: 'x', type: 'text/plain' }));
      // A member's key changes nothing of what the account sends out (owner-only).
      const { memberKey, ownerKey } = await accountWithMember(s);
      await patch(await call(s, 'PATCH', '/v1/account', { key: memberKey, ...json({ low_balance_threshold: 5 }) }));
      const create = (r: Response) => conformance.check('POST', '/v1/webhook_endpoints', r);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      await create(await call(s, 'POST', '/v1/webhook_endpoints', { key: memberKey, ...json({ url, events: ['credits.low'] }) }));
      const ok = await create(await call(s, 'POST', '/v1/webhook_endpoints', { key: apiKey, ...json({ url, events: ['credits.low'] }) }));
      const slow = await create(await call(s, 'POST', '/v1/webhook_endpoints', { key: apiKey, ...json({ url: `${hanging.url}/hooks`, events: ['credits.low'] }) }));
      await create(await call(s, 'POST', '/v1/webhook_endpoints', { key: apiKey, ...json({ url, events: ['nope'] }) }));
      await create(await call(s, 'POST', '/v1/webhook_endpoints', { key: apiKey, ...BIG_JSON }));
      await create(await call(s, 'POST', '/v1/webhook_endpoints', { key: apiKey, body: 'x', type: 'text/plain' }));
      await conformance.check('GET', '/v1/webhook_endpoints', await call(s, 'GET', '/v1/webhook_endpoints', { key: apiKey }));
      // Below the threshold: credits.low goes to both; the hanging one's attempt holds its lease a while.
      await call(s, 'PATCH', '/v1/account', { key: apiKey, ...json({ low_balance_threshold: 50 }) });
      const logOf = (id: string, key = apiKey) => call(s, 'GET', `/v1/webhook_endpoints/${id}/deliveries`, { key });
      let delivered: Json[] = [];
      for (let i = 0; i < 100 && !delivered[0]?.attempts; i++) {
        delivered = (await conformance.check('GET', '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries', await logOf(ok.id))).deliveries;
        await new Promise((r) => setTimeout(r, 30));
      }
      await conformance.check('GET', '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries', await logOf(ok.id, other.apiKey));
      const paged = await conformance.check('GET', '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries',
        await call(s, 'GET', `/v1/webhook_endpoints/${ok.id}/deliveries?limit=1`, { key: apiKey }));
      expect(paged.deliveries).toHaveLength(1);
      expect((await conformance.check('GET', '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries',
        await call(s, 'GET', `/v1/webhook_endpoints/${ok.id}/deliveries?starting_after=wd_missing`, { key: apiKey }))).type).toBe('/problems/invalid-request');
      const redeliver = (endpointId: string, id: string) => call(s, 'POST', `/v1/webhook_endpoints/${endpointId}/deliveries/${id}/redeliver`, { key: apiKey });
      const redelivered = '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver';
      expect((await conformance.check('POST', redelivered, await redeliver(ok.id, delivered[0]!.id))).attempts).toBe(2);
      await conformance.check('POST', redelivered, await redeliver(ok.id, 'wd_missing'));
      const theirs = (await (await call(s, 'POST', '/v1/webhook_endpoints', { key: ownerKey, ...json({ url, events: ['credits.low'] }) })).json()) as Json;
      const byMember = (method: string, path: string) => call(s, method, path, { key: memberKey });
      await conformance.check('POST', redelivered, await byMember('POST', `/v1/webhook_endpoints/${theirs.id}/deliveries/wd_x/redeliver`));
      await conformance.check('DELETE', '/v1/webhook_endpoints/{webhook_endpoint_id}', await byMember('DELETE', `/v1/webhook_endpoints/${theirs.id}`));
      const [inFlight] = (await (await logOf(slow.id)).json() as Json).deliveries;
      expect((await conformance.check('POST', redelivered, await redeliver(slow.id, inFlight.id))).type).toBe('/problems/webhook-delivery-busy');
      const remove = (id: string) => call(s, 'DELETE', `/v1/webhook_endpoints/${id}`, { key: apiKey });
      await conformance.check('DELETE', '/v1/webhook_endpoints/{webhook_endpoint_id}', await remove(ok.id));
      await conformance.check('DELETE', '/v1/webhook_endpoints/{webhook_endpoint_id}', await remove(ok.id));
    } finally {
      hanging.close();
      receiver.close();
    }
  });

  it('When the address autocomplete is called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const created = await s.post('/v1/keys', { publishable: true, origins: [SHOP_ORIGIN] }, { key: apiKey });
    const publishable = ((await created.json()) as Json).api_key as string;
    const check = (res: Response) => conformance.check('GET', '/v1/address/autocomplete', res);

    expect((await check(await call(s, 'GET', '/v1/address/autocomplete?q=6007%20Applegate', { key: apiKey }))).suggestions[0].kind).toBe('address');
    await check(await call(s, 'GET', '/v1/address/autocomplete?q=Louisville&country=US&limit=2', { key: publishable, headers: { origin: SHOP_ORIGIN } }));
    expect((await check(await call(s, 'GET', '/v1/address/autocomplete?limit=99', { key: apiKey }))).type).toBe('/problems/invalid-request');
    expect((await check(await call(s, 'GET', '/v1/address/autocomplete?q=main', { key: publishable, headers: { origin: 'https://evil.example' } }))).type)
      .toBe('/problems/origin-not-allowed');
  });

  it('When the batch endpoints are called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const poor = await s.newAccount(0);
    const csv = 'Street,City,State,Zip,Email,Phone\r\n1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com,+1 415 555 0101\r\n';
    const create = (r: Response) => conformance.check('POST', '/v1/batches', r);
    const one = (id: string, key = apiKey) => call(s, 'GET', `/v1/batches/${id}`, { key });
    const result = (id: string, query = '', key = apiKey) => call(s, 'GET', `/v1/batches/${id}/result${query}`, { key });

    const done = await create(await call(s, 'POST', '/v1/batches?smtp=false&name=conformance', { key: apiKey, body: csv, type: 'text/csv' }));
    const form = new FormData();
    form.set('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
    form.set('address_columns', 'Street,City,State,Zip');
    await create(await call(s, 'POST', '/v1/batches', { key: apiKey, body: form }));
    await create(await call(s, 'POST', '/v1/batches?bogus=1', { key: apiKey, body: csv, type: 'text/csv' }));
    await create(await call(s, 'POST', '/v1/batches', { key: apiKey, body: `Email\n${'a@b.co\n'.repeat(BATCH_MAX_BYTES / 6)}`, type: 'text/csv' }));
    await create(await call(s, 'POST', '/v1/batches', { key: apiKey, ...json({ csv }) }));
    expect((await create(await call(s, 'POST', '/v1/batches', { key: apiKey, body: 'Foo,Bar\n1,2\n', type: 'text/csv' }))).line).toBe(1);

    await batchUntil(s, apiKey, done.batch_id, ['completed']);
    await conformance.check('GET', '/v1/batches', await call(s, 'GET', '/v1/batches', { key: apiKey }));
    expect((await conformance.check('GET', '/v1/batches', await call(s, 'GET', '/v1/batches?limit=1', { key: apiKey }))).has_more).toBe(true);
    expect((await conformance.check('GET', '/v1/batches', await call(s, 'GET', '/v1/batches?limit=500', { key: apiKey }))).type).toBe('/problems/invalid-request');
    await conformance.check('GET', '/v1/batches/{batch_id}', await one(done.batch_id));
    await conformance.check('GET', '/v1/batches/{batch_id}', await one(done.batch_id, poor.apiKey));
    expect(await conformance.check('GET', '/v1/batches/{batch_id}/result', await result(done.batch_id))).toMatch(/cv_address_status/);
    await conformance.check('GET', '/v1/batches/{batch_id}/result', await result('batch_missing'));
    await conformance.check('POST', '/v1/batches/{batch_id}/resume', await call(s, 'POST', `/v1/batches/${done.batch_id}/resume`, { key: apiKey }));
    await conformance.check('POST', '/v1/batches/{batch_id}/resume', await call(s, 'POST', '/v1/batches/batch_missing/resume', { key: apiKey }));

    // No credits: the batch pauses; its result is not ready (409) but partial is; it can be resumed (and pauses again).
    const paused = await create(await call(s, 'POST', '/v1/batches?smtp=false', { key: poor.apiKey, body: csv, type: 'text/csv' }));
    await batchUntil(s, poor.apiKey, paused.batch_id, ['paused']);
    expect((await conformance.check('GET', '/v1/batches/{batch_id}/result', await result(paused.batch_id, '', poor.apiKey))).batch_status).toBe('paused');
    await conformance.check('GET', '/v1/batches/{batch_id}/result', await result(paused.batch_id, '?partial=true', poor.apiKey));
    await conformance.check('GET', '/v1/batches/{batch_id}/result', await result(paused.batch_id, '?partial=maybe', poor.apiKey));
    await conformance.check('POST', '/v1/batches/{batch_id}/resume', await call(s, 'POST', `/v1/batches/${paused.batch_id}/resume`, { key: poor.apiKey }));
    const canceled = await conformance.check('DELETE', '/v1/batches/{batch_id}', await call(s, 'DELETE', `/v1/batches/${paused.batch_id}`, { key: poor.apiKey }));
    expect(canceled.status).toBe('canceled');
    await conformance.check('GET', '/v1/batches/{batch_id}/result', await result(paused.batch_id, '', poor.apiKey));
    await conformance.check('DELETE', '/v1/batches/{batch_id}', await call(s, 'DELETE', '/v1/batches/batch_missing', { key: apiKey }));
  });

  it('When the connector endpoints are called every way the description lists, then each answer matches', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const org = await silentServer();
    try {
      const create = (r: Response) => conformance.check('POST', '/v1/connectors', r);
      const created = await create(await call(s, 'POST', '/v1/connectors', { key: apiKey, ...json(salesforceBody(org.url)) }));
      await create(await call(s, 'POST', '/v1/connectors', { key: apiKey, ...json('{"type":') }));
      expect((await create(await call(s, 'POST', '/v1/connectors', { key: apiKey, ...json({ ...salesforceBody(org.url), type: 'erp' }) }))).errors).toBeDefined();
      await create(await call(s, 'POST', '/v1/connectors', { key: apiKey, ...BIG_JSON }));
      await create(await call(s, 'POST', '/v1/connectors', { key: apiKey, body: 'x', type: 'text/plain' }));

      const id = created.connector_id as string;
      const path = '/v1/connectors/{connector_id}';
      await conformance.check('GET', '/v1/connectors', await call(s, 'GET', '/v1/connectors', { key: apiKey }));
      await conformance.check('GET', path, await call(s, 'GET', `/v1/connectors/${id}`, { key: apiKey }));
      await conformance.check('GET', path, await call(s, 'GET', '/v1/connectors/conn_missing', { key: apiKey }));
      const patch = (target: string, init: Parameters<typeof call>[3]) => call(s, 'PATCH', `/v1/connectors/${target}`, { key: apiKey, ...init });
      await conformance.check('PATCH', path, await patch(id, json({ schedule: '*/30 * * * *' })));
      await conformance.check('PATCH', path, await patch(id, json({ schedule: 'whenever' })));
      await conformance.check('PATCH', path, await patch(id, json('{')));
      await conformance.check('PATCH', path, await patch(id, BIG_JSON));
      await conformance.check('PATCH', path, await patch(id, { body: 'x', type: 'text/plain' }));
      await conformance.check('PATCH', path, await patch('conn_missing', json({ status: 'paused' })));

      // The run waits on an org that never answers: a second run is refused while it goes on.
      const runs = `${path}/runs`;
      await conformance.check('POST', runs, await call(s, 'POST', `/v1/connectors/${id}/runs`, { key: apiKey }));
      await conformance.check('POST', runs, await call(s, 'POST', `/v1/connectors/${id}/runs`, { key: apiKey }));
      await conformance.check('POST', runs, await call(s, 'POST', '/v1/connectors/conn_missing/runs', { key: apiKey }));
      await conformance.check('GET', runs, await call(s, 'GET', `/v1/connectors/${id}/runs`, { key: apiKey }));
      await conformance.check('GET', runs, await call(s, 'GET', '/v1/connectors/conn_missing/runs', { key: apiKey }));
      expect((await conformance.check('GET', runs, await call(s, 'GET', `/v1/connectors/${id}/runs?starting_after=run_missing`, { key: apiKey }))).type).toBe('/problems/invalid-request');
      // The check, against an org that answers (the silent one would hold it for a minute).
      const answering = await startFakeOrg();
      try {
        const checked = await create(await call(s, 'POST', '/v1/connectors', { key: apiKey, ...json(salesforceBody(answering.url)) }));
        const check = (target: string) => call(s, 'POST', `/v1/connectors/${target}/check`, { key: apiKey });
        expect(await conformance.check('POST', `${path}/check`, await check(checked.connector_id))).toEqual({ ok: false, problems: [expect.objectContaining({ code: 'credentials_refused' })] });
        await conformance.check('POST', `${path}/check`, await check('conn_missing'));
      } finally {
        await answering.close();
      }
      org.close();
      await conformance.check('DELETE', path, await call(s, 'DELETE', `/v1/connectors/${id}`, { key: apiKey }));
      await conformance.check('DELETE', path, await call(s, 'DELETE', `/v1/connectors/${id}`, { key: apiKey }));
    } finally {
      org.close();
    }
  });

  it('When the endpoints without a key are called every way the description lists, then each answer matches', async () => {
    const s = service();
    await conformance.check('GET', '/healthz', await call(s, 'GET', '/healthz'));
    await conformance.check('GET', '/readyz', await call(s, 'GET', '/readyz'));
    await conformance.check('GET', '/widget.js', await call(s, 'GET', '/widget.js'));
    await conformance.check('GET', '/widget/demo', await call(s, 'GET', '/widget/demo?key=nonsense'));
    await conformance.check('GET', '/metrics', await call(s, 'GET', '/metrics'));
    await conformance.check('POST', '/widget/demo', await call(s, 'POST', '/widget/demo', { body: 'address1=1+Main+St', type: 'application/x-www-form-urlencoded' }));
    expect(await conformance.check('GET', '/problems/{code}', await call(s, 'GET', '/problems/insufficient-credits'))).toMatchObject({ status: 402 });
    await conformance.check('GET', '/problems/{code}', await call(s, 'GET', '/problems/no-such-code'));
    const delivery = (body: string, { shop = 'unknown.myshopify.com', secret = 'nobody', id = crypto.randomUUID() as string } = {}) =>
      call(s, 'POST', '/webhooks/shopify', {
        body, type: 'application/json',
        headers: {
          'x-shopify-topic': 'customers/update', 'x-shopify-shop-domain': shop, 'x-shopify-webhook-id': id,
          'x-shopify-hmac-sha256': crypto.createHmac('sha256', secret).update(body).digest('base64'),
        },
      });
    const hook = async (res: Response) => conformance.check('POST', '/webhooks/shopify', res);
    expect((await hook(await delivery('{"id":1}'))).type).toBe('/problems/webhook-unauthorized');
    await hook(await delivery(JSON.stringify({ note: 'x'.repeat(1_100_000) })));

    // A store's connector (paused: its deliveries are acknowledged, not worked on) signs deliveries with its api_secret.
    const { apiKey } = await s.newAccount(10);
    const store = { shop: 'conformance.myshopify.com', secret: 'conformance-secret' };
    const connector = await conformance.check('POST', '/v1/connectors', await call(s, 'POST', '/v1/connectors', {
      key: apiKey,
      ...json({ type: 'shopify', name: 'Store', settings: { shop: store.shop }, credentials: { access_token: 'shpat_x', api_secret: store.secret } }),
    }));
    await conformance.check('PATCH', '/v1/connectors/{connector_id}', await call(s, 'PATCH', `/v1/connectors/${connector.connector_id}`, { key: apiKey, ...json({ status: 'paused' }) }));
    // One shop, one connector: a second for the shop, or another moved onto it, is refused.
    const other = await s.newAccount(10);
    const second = { type: 'shopify', name: 'Store', settings: { shop: 'second.myshopify.com' }, credentials: { access_token: 'shpat_y', api_secret: 'y' } };
    expect((await conformance.check('POST', '/v1/connectors', await call(s, 'POST', '/v1/connectors', {
      key: other.apiKey, ...json({ ...second, settings: { shop: store.shop } }),
    }))).type).toBe('/problems/shop-already-connected');
    const moved = await conformance.check('POST', '/v1/connectors', await call(s, 'POST', '/v1/connectors', { key: other.apiKey, ...json(second) }));
    expect((await conformance.check('PATCH', '/v1/connectors/{connector_id}', await call(s, 'PATCH', `/v1/connectors/${moved.connector_id}`, {
      key: other.apiKey, ...json({ settings: { shop: store.shop } }),
    }))).type).toBe('/problems/shop-already-connected');
    const customer = JSON.stringify({ id: 7, email: 'a@b.co' });
    expect(await hook(await delivery(customer, { ...store, id: 'delivery-1' }))).toEqual({ status: 'accepted' });
    expect(await hook(await delivery(customer, { ...store, id: 'delivery-1' }))).toEqual({ status: 'duplicate' });
    expect(await hook(await delivery(customer, { ...store, id: 'delivery-2' }))).toEqual({ status: 'duplicate' });
    expect((await hook(await delivery('{"id":', store))).type).toBe('/problems/invalid-json');
    // Stripe is not configured on this service: its webhook says so (test/service/stripe-checkout.test.ts has the rest).
    const stripe = await call(s, 'POST', '/webhooks/stripe', { body: '{}', type: 'application/json', headers: { 'stripe-signature': 't=1,v1=00' } });
    expect((await conformance.check('POST', '/webhooks/stripe', stripe)).type).toBe('/problems/payments-not-configured');
  });
});

describe('the description of the guard, with a rate limit of 1 a minute', () => {
  // Bad keys from one address are answered 401 up to FAILED_AUTH_PER_MINUTE (30 by default): there are more endpoints than that.
  const service = useTestService(database, { ...CONNECTOR_ENV, RATE_LIMIT_PER_MINUTE: '1', SHOPIFY_WEBHOOKS_PER_MINUTE: '1', FAILED_AUTH_PER_MINUTE: '1000' });

  it('When no key or a bad one is sent, then every endpoint behind a key answers the documented 401', async () => {
    const s = service();
    for (const [i, { method, path }] of operationsOf(doc).filter(({ op }) => op.security?.length).entries()) {
      const key = i % 2 ? 'cv_live_notakey' : undefined;
      const res = await call(s, method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x_missing'), { key });
      expect((await conformance.check(method.toUpperCase(), path, res)).type).toBe('/problems/unauthorized');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('When a key is over its limit, then every endpoint behind a key answers the documented 429', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    await conformance.check('GET', '/v1/account', await call(s, 'GET', '/v1/account', { key: apiKey }));
    for (const { method, path, op } of operationsOf(doc).filter(({ op }) => op.security?.length)) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x_missing');
      const res = await conformance.check(method.toUpperCase(), path, await call(s, method.toUpperCase(), concrete, { key: apiKey }));
      expect(res.type, `${method} ${path} (${op.operationId})`).toBe('/problems/rate-limited');
    }
    // Shopify's deliveries: refused ones counted per shop.
    const forged = () => call(s, 'POST', '/webhooks/shopify', {
      body: '{}', type: 'application/json',
      headers: { 'x-shopify-topic': 'customers/update', 'x-shopify-shop-domain': 'flood.myshopify.com', 'x-shopify-hmac-sha256': 'AA==', 'x-shopify-webhook-id': '1' },
    });
    expect((await conformance.check('POST', '/webhooks/shopify', await forged())).type).toBe('/problems/webhook-unauthorized');
    expect((await conformance.check('POST', '/webhooks/shopify', await forged())).type).toBe('/problems/rate-limited');
  });

  it('When the service fails by its own fault, then the endpoints answer the documented 500 internal problem', async () => {
    const s = service();
    const fault = async () => { throw new Error('injected fault'); };
    const { authenticate } = s.accounts;
    const { ping } = s.db;
    const { receive } = s.sync.webhooks;
    Object.assign(s.accounts, { authenticate: fault });
    Object.assign(s.db, { ping: fault });
    Object.assign(s.sync.webhooks, { receive: fault });
    try {
      const failing = operationsOf(doc).filter(({ op, path }) => op.security?.length || path === '/healthz' || path === '/readyz' || path === '/webhooks/shopify');
      for (const { method, path } of failing) {
        const res = await call(s, method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x_missing'), { key: 'cv_live_any', ...(method === 'get' || method === 'delete' ? {} : json({})) });
        expect((await conformance.check(method.toUpperCase(), path, res)).type, `${method} ${path}`).toBe('/problems/internal');
      }
    } finally {
      Object.assign(s.accounts, { authenticate });
      Object.assign(s.db, { ping });
      Object.assign(s.sync.webhooks, { receive });
    }
  });

  it('When the database is unreachable, then every endpoint that reads it answers the documented 503', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    await s.db.close();
    // Past the life of the cache of keys that authenticated: the key itself is then read from the database.
    await new Promise((r) => setTimeout(r, 1_100));
    const reading = operationsOf(doc).filter(({ op }) => op.responses['503']?.content['application/problem+json']);
    for (const { method, path } of reading) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x_missing');
      const headers: Record<string, string> = path === '/webhooks/shopify'
        ? { 'x-shopify-topic': 'customers/update', 'x-shopify-shop-domain': 'a.myshopify.com', 'x-shopify-hmac-sha256': 'AA==', 'x-shopify-webhook-id': '1' }
        : {};
      // A buyer's answer reads the store of its session token's shop first.
      if (path === '/shopify/orders/address-confirmation') headers.authorization = `Bearer ${await sessionTokenFor('a.myshopify.com', 'x')}`;
      const body = path === '/shopify/orders/address-confirmation' ? { order_id: 'gid://shopify/Order/1', action: 'confirm' } : {};
      const query = path === '/shopify/orders/address-confirmation' && method === 'get' ? '?order_id=gid://shopify/Order/1' : '';
      const res = await call(s, method.toUpperCase(), concrete + query, { key: apiKey, ...(method === 'get' || method === 'delete' ? {} : json(body)), headers });
      // The Shopify app's install is not configured on this service: it says so before it needs the database.
      // Nor is Stripe: its webhook says so first.
      // A platform's webhook that names no account it can read (an app-signed one, an empty body) is refused unread.
      const unread = path.startsWith('/webhooks/') ? /database-unavailable|not-ready|webhook-unauthorized|payments-not-configured/ : null;
      expect((await conformance.check(method.toUpperCase(), path, res)).type, `${method} ${path}`).toMatch(unread ?? /database-unavailable|not-ready|shopify-app-not-configured|payments-not-configured/);
    }
  });
});

describe('the description of connectors without CONNECTOR_SECRET_KEY', () => {
  const service = useTestService(database, { CONNECTOR_ALLOW_PRIVATE: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' });

  it('When a webhook endpoint is created, then the documented 503 webhooks-not-configured', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(0);
    const res = await call(s, 'POST', '/v1/webhook_endpoints', { key: apiKey, ...json({ url: 'http://127.0.0.1:9/hooks', events: ['batch.completed'] }) });
    expect((await conformance.check('POST', '/v1/webhook_endpoints', res)).type).toBe('/problems/webhooks-not-configured');
  });

  it('When a connector is created, then the documented 503 connectors-not-configured', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const res = await call(s, 'POST', '/v1/connectors', { key: apiKey, ...json(salesforceBody('http://127.0.0.1:9')) });
    expect((await conformance.check('POST', '/v1/connectors', res)).type).toBe('/problems/connectors-not-configured');
  });
});

/** A person of the account signed in to the dashboard: a user and a real session, as sign-in makes them (https: `__Host-`). */
async function signedInCookie(s: ReturnType<typeof useTestService> extends () => infer T ? T : never, accountId: string): Promise<string> {
  const userId = `usr_${crypto.randomBytes(8).toString('hex')}`;
  await s.db.run(
    `INSERT INTO users (id, account_id, email, password_hash, role, created_at, password_changed_at) VALUES ($1, $2, $3, NULL, 'owner', $4, $4)`,
    [userId, accountId, `${userId}@example.com`, Date.now()],
  );
  return `__Host-cv_session=${(await s.people.sessions.create(userId, accountId)).token}`;
}

describe('the description of the Shopify app install', () => {
  const API_SECRET = 'conformance-app-secret';
  let admin: http.Server;
  let adminUrl = '';
  beforeAll(async () => {
    // The shop's token exchange, as Shopify answers it.
    admin = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"shpat_conformance","scope":"read_customers"}'));
    });
    await new Promise<void>((r) => admin.listen(0, '127.0.0.1', () => r()));
    adminUrl = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  });
  afterAll(() => admin.close());
  // The admin stand-in's address is known once it listens (above, before the service starts): the service sends the
  // token exchange there (SHOPIFY_ADMIN_BASE_URL, tests only).
  const configuredEnv: Record<string, string> = {
    ...CONNECTOR_ENV, SHOPIFY_API_KEY: 'conformance-app', SHOPIFY_API_SECRET: API_SECRET, PUBLIC_BASE_URL: 'https://cv.example.com',
  };
  beforeAll(() => { configuredEnv.SHOPIFY_ADMIN_BASE_URL = adminUrl; });
  const configured = useTestService(database, configuredEnv);
  const unconfigured = useTestService(database, CONNECTOR_ENV);

  it('When the install endpoints are called every way the description lists, then each answer matches', async () => {
    const s = configured();
    const { apiKey, accountId } = await s.newAccount(100);
    const session = await signedInCookie(s, accountId);
    const install = (r: Response) => conformance.check('POST', '/v1/connectors/shopify/install', r);
    const link = await install(await call(s, 'POST', '/v1/connectors/shopify/install', { key: apiKey, ...json({ shop: 'conformance.myshopify.com' }) }));
    await install(await call(s, 'POST', '/v1/connectors/shopify/install', { key: apiKey, ...json({ shop: 'evil.example.com' }) }));
    await install(await call(s, 'POST', '/v1/connectors/shopify/install', { key: apiKey, ...json('{') }));
    await install(await call(s, 'POST', '/v1/connectors/shopify/install', { key: apiKey, ...BIG_JSON }));
    await install(await call(s, 'POST', '/v1/connectors/shopify/install', { key: apiKey, body: 'x', type: 'text/plain' }));

    const opened = (l: Json, headers: Record<string, string> = { cookie: session }) =>
      fetch(`${s.url}/shopify/install${new URL(l.install_url).search}`, { redirect: 'manual', headers });
    await conformance.check('GET', '/shopify/install', await opened(link));
    await conformance.check('GET', '/shopify/install', await opened(link, { accept: 'text/html' }));
    await conformance.check('GET', '/shopify/install', await call(s, 'GET', '/shopify/install?shop=conformance.myshopify.com&link=forged.link'));
    /** The link opened signed in, and Shopify's signed way back (a valid code for the stand-in). */
    const backFrom = async (l: Json, shop: string) => {
      const redirect = await opened(l);
      const state = new URL(redirect.headers.get('location')!).searchParams.get('state')!;
      const cookie = redirect.headers.get('set-cookie')!.split(';')[0];
      const params: Record<string, string> = { code: 'any-code', shop, state, timestamp: String(Math.floor(Date.now() / 1000)) };
      const message = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&');
      return { redirect, cookie, params, hmac: crypto.createHmac('sha256', API_SECRET).update(message).digest('hex') };
    };
    const { redirect, cookie, params, hmac } = await backFrom(link, 'conformance.myshopify.com');
    const back = (query: Record<string, string>, headers: Record<string, string>) =>
      call(s, 'GET', `/shopify/callback?${new URLSearchParams(query)}`, { headers: { accept: 'application/json', ...headers } });
    await conformance.check('GET', '/shopify/callback', await back({ ...params, hmac: 'forged' }, { cookie: `${cookie}; ${session}` }));
    // The session ended meanwhile: a browser is asked to sign in, then comes back here.
    await conformance.check('GET', '/shopify/callback', await back({ ...params, hmac }, { cookie, accept: 'text/html' }));
    const connected = await conformance.check('GET', '/shopify/callback', await back({ ...params, hmac }, { cookie: `${cookie}; ${session}` }));
    expect(redirect.status).toBe(302);
    expect(connected).toMatchObject({ type: 'shopify', settings: { shop: 'conformance.myshopify.com' } });

    // A shop another account's connector still reaches (the stand-in answers its token): refused, nothing changed.
    const holder = await s.newAccount(100);
    await call(s, 'POST', '/v1/connectors', { key: holder.apiKey, ...json({ type: 'shopify', name: 'Held', settings: { shop: 'held.myshopify.com' }, credentials: { access_token: 'shpat_held', api_secret: 'held' } }) });
    const held = await backFrom(await install(await call(s, 'POST', '/v1/connectors/shopify/install', { key: apiKey, ...json({ shop: 'held.myshopify.com' }) })), 'held.myshopify.com');
    const refused = await conformance.check('GET', '/shopify/callback', await back({ ...held.params, hmac: held.hmac }, { cookie: `${held.cookie}; ${session}` }));
    expect(refused).toMatchObject({ type: '/problems/shop-already-connected' });

    const off = unconfigured();
    const { apiKey: otherKey } = await off.newAccount(100);
    await conformance.check('POST', '/v1/connectors/shopify/install', await call(off, 'POST', '/v1/connectors/shopify/install', { key: otherKey, ...json({ shop: 'conformance.myshopify.com' }) }));
    await conformance.check('GET', '/shopify/install', await call(off, 'GET', '/shopify/install?shop=a.myshopify.com&link=x'));
    await conformance.check('GET', '/shopify/callback', await call(off, 'GET', '/shopify/callback?shop=a.myshopify.com'));
  });
});

describe('the description of the Stripe webhook', () => {
  const SECRET = 'whsec_conformance0123456789';
  const service = useTestService(database, { STRIPE_SECRET_KEY: 'sk_test_conformance', STRIPE_WEBHOOK_SECRET: SECRET });
  /** Signed as Stripe signs (t=…,v1=hex HMAC-SHA256 of "t.body"). */
  const signed = (body: string, secret = SECRET) => {
    const t = Math.floor(Date.now() / 1000);
    return { body, type: 'application/json', headers: { 'stripe-signature': `t=${t},v1=${crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}` } };
  };

  it('When Stripe events are delivered every way the description lists, then each answer matches', async () => {
    const s = service();
    const hook = async (init: Parameters<typeof call>[3]) => conformance.check('POST', '/webhooks/stripe', await call(s, 'POST', '/webhooks/stripe', init));
    const event = JSON.stringify({ id: 'evt_conformance', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } });
    expect(await hook(signed(event))).toMatchObject({ received: true, type: 'customer.created' });
    expect((await hook(signed(event, 'whsec_wrong'))).type).toBe('/problems/webhook-signature-invalid');
    expect((await hook({ body: 'x'.repeat(600_000), type: 'application/json', headers: { 'stripe-signature': 't=1,v1=00' } })).type).toBe('/problems/payload-too-large');
    const { handleWebhook } = s.purchases;
    Object.assign(s.purchases, { handleWebhook: async () => { throw new Error('injected fault'); } });
    try {
      expect((await hook(signed(event))).type).toBe('/problems/internal');
    } finally {
      Object.assign(s.purchases, { handleWebhook });
    }
  });
});

describe('the description of the Shopify order endpoints', () => {
  const service = useTestService(database, CONNECTOR_ENV);

  it('When the buyer\'s answer and the checkout reports are sent every way the description lists, then each answer matches', async () => {
    await provokeShopifyOrderEndpoints(service(), conformance);
  });
});

describe('coverage of the description', () => {
  it('When every scenario has run, then every documented status of every operation was answered at least once', () => {
    const unseen = conformance.unseen();
    const explained = unseen.filter(whyNotProvoked);
    const byReason = new Map<string, string[]>();
    for (const entry of explained) byReason.set(whyNotProvoked(entry), [...(byReason.get(whyNotProvoked(entry)) ?? []), entry]);
    if (explained.length) console.info(`documented statuses not provoked:\n${[...byReason].map(([why, list]) => `  ${why}:\n    ${list.join(', ')}`).join('\n')}`);
    expect(unseen.filter((entry) => !whyNotProvoked(entry))).toEqual([]);
  });
});
