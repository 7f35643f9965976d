/**
 * The HubSpot connector end to end (docs/connectors.md): the real service on SQLite and PostgreSQL, the real
 * @hubspot/api-client's generated APIs sent to the local HubSpot (test/hubspot/fake-hubspot.ts) named by the
 * connector's `api_base_url` (loopback, allowed by CONNECTOR_ALLOW_PRIVATE), and webhook deliveries signed as HubSpot
 * signs them. Connect, check, first sync and write-back, OAuth tokens renewed, a 429 storm and the daily limit, a
 * credits pause and resume.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PROPERTIES, REQUIRED_PROPERTIES } from '../../connectors/hubspot/properties.js';
import { json, request, runNow, spentByConnector } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startTestService, type TestService } from '../support/service.js';
import { signedDelivery, startFakeHubspot, type FakeHubspot } from '../hubspot/fake-hubspot.js';
import { setUpProperties } from '../hubspot/properties.js';

/** A US address 1, a phone 2 (no e-mail: its price depends on network checks). */
const PER_RECORD = 3;
const KENTUCKY = (i: number) => ({
  address: `${100 + i} Main St`, city: 'Louisville', state: 'KY', zip: '40219', country: 'US', phone: `+1 502 713 ${String(4000 + i).padStart(4, '0')}`,
});
const ENV = { CONNECTOR_SECRET_KEY: 'e5'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true' };

async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDatabases)('the HubSpot connector on $name', (database) => {
  let s: TestService;
  let url: string;
  beforeAll(async () => {
    url = await database.create();
    s = await startTestService(url, ENV);
  });
  afterAll(async () => {
    await s.close();
    await database.dropAll();
  });

  /** Each test its own HubSpot account: one connector per portal. */
  async function hubspot(hubId: number, options: Parameters<typeof startFakeHubspot>[0] = {}) {
    const hub = await startFakeHubspot({ hubId, ...options });
    setUpProperties(hub.state);
    return hub;
  }

  async function connect(s: TestService, apiKey: string, hub: FakeHubspot, credentials: object, settings: object = {}, policy?: string) {
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'hubspot', name: 'CRM', schedule: '0 3 * * *',
      settings: { portal_id: hub.state.hubId, api_base_url: hub.url, page_size: 100, ...settings }, credentials, ...(policy ? { policy } : {}),
    });
    if (res.status !== 201) throw new Error(`not created: ${res.status} ${await res.text()}`);
    return json(res);
  }

  it('When a HubSpot account is connected with a private app, then the check finds the properties, the first sync writes every verdict back, and a second run charges nothing', async () => {
    const hub = await startFakeHubspot({ hubId: 1001 });
    try {
      const { accountId, apiKey } = await s.newAccount(10_000);
      const contacts = hub.state.crm.seed(250, KENTUCKY);
      const [bad] = hub.state.crm.seed(1, () => ({ phone: '+1 555', address: '1 Nowhere Rd', city: 'Louisville', state: 'KY', zip: '40219' }));
      const token = hub.state.privateToken();
      const connector = await connect(s, apiKey, hub, { access_token: token });
      expect(connector).toMatchObject({ type: 'hubspot', status: 'active', settings: { portal_id: 1001, api_base_url: hub.url, page_size: 100 } });
      expect(JSON.stringify(connector)).not.toContain(token);

      const before = await json(await request(s, 'POST', `/v1/connectors/${connector.connector_id}/check`, apiKey));
      expect(before.ok).toBe(false);
      expect(before.problems).toEqual([
        expect.objectContaining({ code: 'field_missing', message: expect.stringContaining(REQUIRED_PROPERTIES.join(', ')) }),
        expect.objectContaining({ code: 'field_missing', severity: 'warning', message: expect.stringContaining(OPTIONAL_PROPERTIES.join(', ')) }),
      ]);
      setUpProperties(hub.state);
      expect(await json(await request(s, 'POST', `/v1/connectors/${connector.connector_id}/check`, apiKey))).toEqual({ ok: true, problems: [] });

      const first = await runNow(s, apiKey, connector.connector_id);
      expect(first).toMatchObject({ status: 'completed', records_read: 251, records_validated: 251, records_written: 251, records_failed: 0 });
      const written = hub.state.crm.contacts.get(contacts[7].id)!.properties;
      expect(written).toMatchObject({ cv_phone_status: 'valid', cv_phone_e164: '+15027134007', cv_address_status: expect.any(String) });
      expect(Date.parse(written.cv_verified_at!)).toBeGreaterThan(Date.now() - 60_000);
      expect(hub.state.crm.contacts.get(bad.id)!.properties.cv_phone_status).toBe('invalid');
      expect(Math.max(...hub.state.crm.batchSizes)).toBe(100);

      // Our write-back moved every lastmodifieddate: the next window reads all 251 again, and change detection drops
      // them, checked and charged for nothing.
      await hub.state.crm.settled();
      const second = await runNow(s, apiKey, connector.connector_id);
      expect(second).toMatchObject({ status: 'completed', records_read: 251, records_validated: 0, credits_charged: 0 });

      hub.state.crm.edit(bad.id, { phone: '+1 502 713 4999' });
      await hub.state.crm.settled();
      const third = await runNow(s, apiKey, connector.connector_id);
      expect(third).toMatchObject({ records_validated: 1, credits_charged: 2 });
      expect(hub.state.crm.contacts.get(bad.id)!.properties.cv_phone_status).toBe('valid');
      expect(first.credits_charged + third.credits_charged).toBe(await spentByConnector(s, connector.connector_id));
      expect(await s.ledger.balance(accountId)).toBe(10_000 - first.credits_charged - 2);
    } finally {
      await hub.close();
    }
  });

  it('When a connector follows a policy, then the next action written beside each status is the policy\'s, where the fixed table says otherwise, on runs and on webhook deliveries', async () => {
    const [fixed, following] = [await hubspot(1006), await hubspot(1007)];
    try {
      const { apiKey } = await s.newAccount(1_000);
      // Offline, this e-mail is `unknown` (`not_checked`): `confirm` by the fixed table, `accept` at a checkout.
      const contact = (i: number) => ({ ...KENTUCKY(i), email: `jane.doe${i}@acme-mail.com` });
      const [a] = fixed.state.crm.seed(1, contact);
      const [b] = following.state.crm.seed(1, contact);
      await request(s, 'POST', '/v1/policies', apiKey, { name: 'shop', base: 'checkout' });
      const secret = 'private-app-client-secret';
      const plain = await connect(s, apiKey, fixed, { access_token: fixed.state.privateToken() });
      const shop = await connect(s, apiKey, following, { access_token: following.state.privateToken(), client_secret: secret }, {}, 'shop');

      await runNow(s, apiKey, plain.connector_id);
      await runNow(s, apiKey, shop.connector_id);
      const [created] = following.state.crm.seed(1, (i) => contact(60 + i), () => Date.now());
      const delivered = await fetch(`${s.url}/webhooks/hubspot`, {
        method: 'POST', ...signedDelivery(following.state, `${s.url}/webhooks/hubspot`, [{ subscriptionType: 'contact.creation', objectId: created.id }], { secret }),
      });
      const byWebhook = await waitFor('the delivered contact\'s next action', () => following.state.crm.contacts.get(created.id)!.properties.cv_email_next_action ?? undefined);

      const nextActions = (hub: FakeHubspot, id: string) => {
        const p = hub.state.crm.contacts.get(id)!.properties;
        return { email: p.cv_email_status, address: p.cv_address_next_action, email_next: p.cv_email_next_action, phone: p.cv_phone_next_action };
      };
      expect(plain.policy).toBeNull();
      expect(shop.policy).toBe('shop');
      expect(nextActions(fixed, a.id)).toEqual({ email: 'unknown', address: 'accept', email_next: 'confirm', phone: 'accept' });
      expect(nextActions(following, b.id)).toEqual({ email: 'unknown', address: 'accept', email_next: 'accept', phone: 'accept' });
      expect(delivered.status).toBe(200);
      expect(byWebhook).toBe('accept');

      // A policy given later is read at the next run: what that run checks follows it.
      await request(s, 'PATCH', `/v1/connectors/${plain.connector_id}`, apiKey, { policy: 'checkout' });
      fixed.state.crm.edit(a.id, { email: 'jane.doe.new@acme-mail.com' });
      await fixed.state.crm.settled();
      expect(await runNow(s, apiKey, plain.connector_id)).toMatchObject({ status: 'completed', records_validated: 1 });
      expect(nextActions(fixed, a.id).email_next).toBe('accept');
    } finally {
      await fixed.close();
      await following.close();
    }
  });

  it('When a connector holds an OAuth grant, then each run is granted an access token, renewed when HubSpot answers 401; a revoked grant fails auth_failed', async () => {
    const hub = await hubspot(1002);
    try {
      const { apiKey } = await s.newAccount(1_000);
      hub.state.crm.seed(30, KENTUCKY);
      const app = hub.state.app;
      const connector = await connect(s, apiKey, hub, { client_id: app.clientId, client_secret: app.clientSecret, refresh_token: hub.state.refreshToken() });
      const first = await runNow(s, apiKey, connector.connector_id);
      expect(first).toMatchObject({ status: 'completed', records_validated: 30 });
      hub.state.crm.seed(5, (i) => KENTUCKY(100 + i));
      await hub.state.crm.settled();
      // The run's token expires after its first call (revoked early): one 401, one new grant, the call again.
      const grants = hub.state.grants;
      hub.state.expireTokensAfter = 1;
      const second = await runNow(s, apiKey, connector.connector_id);
      expect(second).toMatchObject({ status: 'completed', records_validated: 5, records_written: 5 });
      expect(hub.state.grants).toBe(grants + 2);
      expect(hub.state.calls.filter((c) => c.status === 401)).toHaveLength(1);

      hub.state.refreshTokens.clear();
      const refused = await runNow(s, apiKey, connector.connector_id);
      expect(refused).toMatchObject({ status: 'failed', reason: 'auth_failed' });
      expect(refused.message).toMatch(/BAD_REFRESH_TOKEN/);
      expect(await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey))).toMatchObject({ status: 'error', reason: 'auth_failed' });
    } finally {
      await hub.close();
    }
  });

  it('When HubSpot answers a storm of 429s and then its daily limit, then the runs wait, stop and go on from the watermark: every contact checked and charged once', async () => {
    const hub = await hubspot(1003, { window: { max: 3, ms: 250 } });
    try {
      const { apiKey } = await s.newAccount(10_000);
      hub.state.crm.seed(600, KENTUCKY);
      const connector = await connect(s, apiKey, hub, { access_token: hub.state.privateToken() });
      // Three pages in, the day's allowance is gone.
      hub.state.dailyLeft = 3 + 6;
      const stopped = await runNow(s, apiKey, connector.connector_id, 60_000);
      expect(hub.state.calls.filter((c) => c.status === 429).length).toBeGreaterThan(0);
      expect(stopped).toMatchObject({ status: 'failed', reason: 'rate_limited' });
      expect(stopped.message).toMatch(/429 DAILY/);
      expect(stopped.records_validated).toBeGreaterThan(0);
      expect(stopped.records_validated).toBeLessThan(600);

      hub.state.dailyLeft = 500_000;
      const resumed = await runNow(s, apiKey, connector.connector_id, 60_000);
      expect(resumed).toMatchObject({ status: 'completed', records_failed: 0 });
      // What the stopped run checked and could not write is written now, not charged again.
      expect(stopped.records_validated + resumed.records_validated).toBeGreaterThanOrEqual(600);
      const cv = [...hub.state.crm.contacts.values()].filter((c) => c.properties.cv_phone_status === 'valid');
      expect(cv).toHaveLength(600);
      expect(await spentByConnector(s, connector.connector_id)).toBe(600 * PER_RECORD);
    } finally {
      await hub.close();
    }
  }, 90_000);

  it('When credits run out, then the run pauses, the connector waits for credits, and goes on where it stopped once they come', async () => {
    const hub = await hubspot(1004);
    try {
      const { accountId, apiKey } = await s.newAccount(2 * PER_RECORD);
      hub.state.crm.seed(5, KENTUCKY);
      const connector = await connect(s, apiKey, hub, { access_token: hub.state.privateToken() });
      const paused = await runNow(s, apiKey, connector.connector_id);
      expect(paused).toMatchObject({ status: 'paused', reason: 'credits_exhausted', records_validated: 2 });
      expect(await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey))).toMatchObject({ status: 'paused', reason: 'credits_exhausted' });

      await s.accounts.grantCredits(accountId, 100);
      const resumed = await runNow(s, apiKey, connector.connector_id);
      expect(resumed).toMatchObject({ status: 'completed', records_validated: 3, credits_charged: 3 * PER_RECORD });
      expect([...hub.state.crm.contacts.values()].every((c) => c.properties.cv_phone_status === 'valid')).toBe(true);
      expect(await spentByConnector(s, connector.connector_id)).toBe(5 * PER_RECORD);
    } finally {
      await hub.close();
    }
  });

  it('When HubSpot delivers signed contact events, then the contacts named are read, checked and written back within seconds, once, and forged or stale deliveries do nothing', async () => {
    const hub = await hubspot(1005);
    try {
      const { apiKey } = await s.newAccount(1_000);
      const [known] = hub.state.crm.seed(1, KENTUCKY);
      const secret = 'private-app-client-secret';
      const connector = await connect(s, apiKey, hub, { access_token: hub.state.privateToken(), client_secret: secret });
      expect(await runNow(s, apiKey, connector.connector_id)).toMatchObject({ status: 'completed', records_validated: 1 });

      const [created] = hub.state.crm.seed(1, (i) => KENTUCKY(50 + i), () => Date.now());
      hub.state.crm.edit(known.id, { phone: '+1 502 713 4888' });
      const target = `${s.url}/webhooks/hubspot`;
      const delivery = signedDelivery(hub.state, target, [
        { subscriptionType: 'contact.creation', objectId: created.id },
        { subscriptionType: 'contact.propertyChange', objectId: known.id, propertyName: 'phone', propertyValue: '+1 502 713 4888' },
        // Our own write-back's properties are never subscribed; were one delivered, it asks for nothing.
        { subscriptionType: 'contact.propertyChange', objectId: known.id, propertyName: 'cv_phone_status', propertyValue: 'valid' },
      ], { secret });
      const post = (d: { body: string; headers: Record<string, string> }) => fetch(target, { method: 'POST', headers: d.headers, body: d.body });

      const started = performance.now();
      const answer = await post(delivery);
      const answeredMs = performance.now() - started;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ status: 'accepted' });
      expect(answeredMs).toBeLessThan(1_000);
      await waitFor('the new contact\'s verdict', () => hub.state.crm.contacts.get(created.id)!.properties.cv_phone_status ?? undefined);
      await waitFor('the changed phone\'s verdict', () => (hub.state.crm.contacts.get(known.id)!.properties.cv_phone_e164 === '+15027134888' ? true : undefined));
      const writtenMs = performance.now() - started;
      console.log(`hubspot webhook on ${database.name}: answered in ${answeredMs.toFixed(0)} ms, written back in ${writtenMs.toFixed(0)} ms`);
      expect(writtenMs).toBeLessThan(10_000);

      // The same delivery again (HubSpot retries): acknowledged, not processed.
      expect(await (await post(delivery)).json()).toEqual({ status: 'duplicate' });
      // Signed with another secret, or altered: refused before anything is read.
      expect((await post(signedDelivery(hub.state, target, [{ subscriptionType: 'contact.creation', objectId: created.id }], { secret: 'forged' }))).status).toBe(401);
      expect((await post({ ...delivery, body: delivery.body.replace(created.id, known.id) })).status).toBe(401);
      // Signed, but older than five minutes: a replay, acknowledged and not processed.
      const old = signedDelivery(hub.state, target, [{ subscriptionType: 'contact.creation', objectId: created.id }], { secret, timestamp: Date.now() - 6 * 60_000 });
      expect(await (await post(old)).json()).toEqual({ status: 'stale' });

      const runs = await waitFor('the webhook runs ended', async () => {
        const all = (await json(await s.get(`/v1/connectors/${connector.connector_id}/runs`, apiKey))).runs.filter((r: { triggered_by: string }) => r.triggered_by === 'webhook');
        return all.length && all.every((r: { status: string }) => r.status !== 'running') ? all : undefined;
      });
      expect(runs.every((r: { status: string }) => r.status === 'completed')).toBe(true);
      // The new contact in full (3), the changed phone alone (2): charged once each.
      expect(runs.reduce((sum: number, r: { credits_charged: number }) => sum + r.credits_charged, 0)).toBe(PER_RECORD + 2);
      const scheduled = await runNow(s, apiKey, connector.connector_id);
      expect(scheduled).toMatchObject({ status: 'completed', records_validated: 0, credits_charged: 0 });
    } finally {
      await hub.close();
    }
  });
});

