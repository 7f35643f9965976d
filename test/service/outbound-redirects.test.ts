/**
 * SSRF through redirects, reproduced with the real clients: jsforce against a local org, the Shopify library against a
 * local store, the Twilio Lookup adapter against a local Twilio (each of them followed the redirect before the guard),
 * and the stripe package (its own client never did; its fetch client through the guard must not either). Each answers
 * one call with `307 Location: http://127.0.0.1:<internal port>/secret`, an "internal" server whose every answer
 * carries a marker.
 * The platforms are on loopback as tests need (CONNECTOR_ALLOW_PRIVATE=true, local base URLs): that allowance is for
 * the configured origin only, never for where a redirect points.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Purchases } from '../../src/billing/purchases.js';
import { json, request, runNow } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { INTERNAL_MARKER, startInternalServer, type InternalServer } from '../support/internal-server.js';
import { startTestService, useTestService, type TestService } from '../support/service.js';
import { startFakeOrg, type FakeOrg } from '../salesforce/fake-org.js';
import { startFakeShop, type FakeShop } from '../shopify/fake-admin.js';
import { startTwilioLikeServer, type TwilioLikeServer } from '../phone/twilio-like-server.js';

const SHOP = 'redirect-test.myshopify.com';

/** What a tenant sees of a failed run: the run and the connector, as the API shows them. */
async function seenByTenant(s: TestService, key: string, id: string): Promise<string> {
  const runs = await (await s.get(`/v1/connectors/${id}/runs`, key)).text();
  const connector = await (await s.get(`/v1/connectors/${id}`, key)).text();
  return runs + connector;
}

function expectRefusedRedirect(run: Record<string, any>, internal: InternalServer) {
  expect(run).toMatchObject({ status: 'failed', reason: 'api_error' });
  expect(run.message).toMatch(/redirect/);
  expect(run.message.length).toBeLessThanOrEqual(200);
  expect(internal.requests).toEqual([]);
}

describe.each(testDatabases)('redirects from a platform on $name', (database) => {
  let internal: InternalServer;
  beforeAll(async () => {
    // A 400 whose JSON names its error with the marker: what a client copies into its error message.
    internal = await startInternalServer({ status: 400 });
  });
  afterAll(async () => { await internal.close(); });
  beforeEach(() => { internal.requests.length = 0; });

  describe('Salesforce (jsforce)', () => {
    const service = useTestService(database, { CONNECTOR_SECRET_KEY: 'c7'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' });
    let org: FakeOrg;
    beforeAll(async () => { org = await startFakeOrg(); });
    afterAll(async () => { await org.close(); });

    it('When the org answers an API call with a 307 to an internal address, then the run fails with a short message and the internal server is never asked', async () => {
      const s = service();
      const { apiKey } = await s.newAccount(1_000);
      org.state.seed('Contact', 2, (i) => ({ Email: `c${i}@example.com` }));
      const created = await json(await request(s, 'POST', '/v1/connectors', apiKey, {
        type: 'salesforce', name: 'Org', schedule: '0 3 * * *',
        settings: { login_url: org.url, objects: ['Contact'], page_size: 200 },
        credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
      }));
      org.state.failNext(1, 307, [], { headers: { location: `${internal.url}/secret` } });

      const run = await runNow(s, apiKey, created.connector_id);

      expectRefusedRedirect(run, internal);
      expect(await seenByTenant(s, apiKey, created.connector_id)).not.toContain(INTERNAL_MARKER);
    });

    it('When the login answers with a 307 to an internal address, then the run fails as api_error (not a credentials problem) and nothing reaches it', async () => {
      const s = service();
      const { apiKey } = await s.newAccount(1_000);
      const redirecting = await startInternalServer({ status: 307, body: '', headers: { location: `${internal.url}/secret` } });
      try {
        // The "org" is itself a redirect to the internal server, on its token endpoint.
        const created = await json(await request(s, 'POST', '/v1/connectors', apiKey, {
          type: 'salesforce', name: 'Org', settings: { login_url: redirecting.url },
          credentials: { client_id: 'a', client_secret: 'b' },
        }));
        const run = await runNow(s, apiKey, created.connector_id);
        const shown = await json(await s.get(`/v1/connectors/${created.connector_id}`, apiKey));

        expect(run).toMatchObject({ status: 'failed', reason: 'api_error' });
        expect(shown.status).not.toBe('error');
        expect(redirecting.requests).toHaveLength(1);
      } finally {
        await redirecting.close();
      }
    });
  });

  describe('Shopify (@shopify/shopify-api)', () => {
    let shop: FakeShop;
    let s: TestService;
    beforeAll(async () => {
      shop = await startFakeShop({ shop: SHOP, restoreRate: 1000 });
      s = await startTestService(await database.create(), {
        CONNECTOR_SECRET_KEY: 'c8'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: shop.url,
      });
    });
    afterAll(async () => {
      await s.close();
      await shop.close();
      await database.dropAll();
    });

    it('When the GraphQL endpoint answers with a 307 to an internal address, then the run fails with a short message and the internal server is never asked', async () => {
      const { apiKey } = await s.newAccount(1_000);
      shop.state.seedCustomers(2, (i) => ({ email: `c${i}@example.com` }));
      const created = await json(await request(s, 'POST', '/v1/connectors', apiKey, {
        type: 'shopify', name: 'Store', schedule: '0 3 * * *',
        settings: { shop: SHOP, api_version: '2025-10', resources: ['customers'], page_size: 50 },
        credentials: { access_token: shop.state.accessToken, api_secret: 'shpss_x' },
      }));
      shop.state.failNext(1, 307, { body: '', headers: { location: `${internal.url}/secret` } });

      const run = await runNow(s, apiKey, created.connector_id);

      expectRefusedRedirect(run, internal);
      expect(await seenByTenant(s, apiKey, created.connector_id)).not.toContain(INTERNAL_MARKER);
    });
  });
});

describe('redirects from Twilio Lookup', () => {
  const database = testDatabases[0];
  let twilio: TwilioLikeServer;
  let internal: InternalServer;
  let s: TestService;
  beforeAll(async () => {
    twilio = await startTwilioLikeServer();
    // A 200 in Twilio's own format whose carrier is the marker: followed, it would be the answer's carrier.
    internal = await startInternalServer();
    twilio.respond = () => ({ status: 307, text: '', headers: { location: `${internal.url}/secret` } });
    s = await startTestService(await database.create(), {
      PHONE_LOOKUP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_LOOKUP_BASE_URL: twilio.baseUrl,
    });
  });
  afterAll(async () => {
    await s.close();
    await database.dropAll();
    await twilio.close();
    await internal.close();
  });

  it('When Twilio answers with a 307 to an internal address, then the offline answer stands and the internal server is never asked', async () => {
    const { apiKey } = await s.newAccount(100);
    const res = await s.post('/v1/validate', { phone: '+12012010123' }, { key: apiKey });
    const body = await res.text();

    expect(res.status).toBe(200);
    expect(twilio.requests).toHaveLength(1);
    expect(body).not.toContain(INTERNAL_MARKER);
    expect(internal.requests).toEqual([]);
  });
});

describe('redirects from Stripe', () => {
  const database = testDatabases[0];
  const service = useTestService(database);

  it('When the Stripe API answers with a 307 to an internal address, then the checkout fails and the internal server is never asked', async () => {
    const s = service();
    const { accountId } = await s.newAccount(0);
    const internal = await startInternalServer();
    const redirecting = await startInternalServer({ status: 307, body: '', headers: { location: `${internal.url}/secret` } });
    try {
      const purchases = new Purchases(s.db, s.ledger, {
        packPrices: new Map([[20_000, 0.004]]),
        stripe: { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', apiBase: redirecting.url, currency: 'usd' },
      }, s.logger);

      const failed = await purchases.startCheckout({
        accountId, userId: 'u', email: 'a@b.example', packSize: 20_000, successUrl: `${s.url}/ok`, cancelUrl: `${s.url}/no`,
      }).then(() => null, (err: unknown) => err as Error);

      expect(failed).toBeInstanceOf(Error);
      expect(String(failed)).not.toContain(INTERNAL_MARKER);
      expect(redirecting.requests.length).toBeGreaterThanOrEqual(1);
      expect(internal.requests).toEqual([]);
    } finally {
      await redirecting.close();
      await internal.close();
    }
  });
});
