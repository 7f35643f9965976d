/**
 * The second write-back (issue 54.2e, docs/email.md#answers-that-arrive-later), against the real service on SQLite
 * and PostgreSQL, the local HubSpot (test/hubspot/fake-hubspot.ts) driven by the real @hubspot/api-client, a
 * greylisting SMTP server and a resolver on 127.0.0.1: a contact whose address was greylisted when its connector's run
 * checked it reads `unknown`, then `valid` on the contact within the greylist delay and the once-a-second look for
 * owed write-backs, by a run of its own (`triggered_by: email_check`), charged once; a contact whose e-mail changed
 * before the older answer came keeps the newer answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_ZONE } from '../email/email-test-rig.js';
import { startLocalDnsServer, type LocalDnsServer } from '../email/local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer } from '../email/local-smtp-server.js';
import { startFakeHubspot, type FakeHubspot } from '../hubspot/fake-hubspot.js';
import { setUpProperties } from '../hubspot/properties.js';
import { json, request, runNow, spentByConnector } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startTestService, type TestService } from '../support/service.js';

const GREYLIST_MS = 2000;
/** The check's tick and the look for owed write-backs fire once a second each; a run takes a moment; a loaded machine more. */
const TICKS_AND_LOAD_MS = 6000;

const ZONE = {
  ...CANARY_ZONE,
  'grey.test': { MX: [{ exchange: 'mx.grey.test', priority: 10 }] },
  'mx.grey.test': { A: ['127.0.0.1'] },
};

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 50))) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

describe.each(testDatabases)('the second write-back on $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let s: TestService;
  const hubs: FakeHubspot[] = [];
  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE);
    smtp = await startLocalSmtpServer({
      byAddress: {
        'ann@grey.test': { greylistForMs: GREYLIST_MS },
        'bob@grey.test': { greylistForMs: GREYLIST_MS },
        'cat@grey.test': 'accept',
        'gone@grey.test': { code: 550, message: '5.1.1 no such mailbox' },
      },
    });
    s = await startTestService(await database.create(), {
      EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port),
      EMAIL_SMTP_ALLOW_PRIVATE: 'true', EMAIL_SPECIAL_USE_NAMES_ORDINARY: 'true', EMAIL_CHECK_SCHEDULE_MS: '500,1000,2000,4000',
      CONNECTOR_SECRET_KEY: 'a7'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
    });
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all(hubs.map((h) => h.close()));
    await database.dropAll();
    await Promise.all([smtp?.close(), dns?.close()]);
  });

  /** Each test its own HubSpot account: one connector per portal. */
  async function hubspot(hubId: number) {
    const hub = await startFakeHubspot({ hubId });
    hubs.push(hub);
    setUpProperties(hub.state);
    return hub;
  }
  async function connect(hub: FakeHubspot, apiKey: string) {
    const res = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'hubspot', name: 'CRM', schedule: '0 3 * * *',
      settings: { portal_id: hub.state.hubId, api_base_url: hub.url, page_size: 100 }, credentials: { access_token: hub.state.privateToken() },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json(res)).connector_id as string;
  }
  const emailStatusOf = (hub: FakeHubspot, id: string) => hub.state.crm.contacts.get(id)!.properties.cv_email_status;

  it('When a run meets a greylisted address, then the contact reads unknown, then valid by a run of its own within the delay, charged once', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(1_000);
    const hub = await hubspot(5401);
    const [ann, plain] = hub.state.crm.seed(2, (i) => ({ email: i === 0 ? 'ann@grey.test' : 'cat@grey.test' }));
    const connectorId = await connect(hub, apiKey);

    // Act
    const asked = Date.now();
    const first = await runNow(s, apiKey, connectorId);
    const unknownThen = emailStatusOf(hub, ann.id);
    const valid = await until('the later answer on the contact', async () => (emailStatusOf(hub, ann.id) === 'valid' ? Date.now() : undefined));

    // Assert
    expect(first).toMatchObject({ status: 'completed', records_validated: 2, records_written: 2 });
    expect(unknownThen).toBe('unknown');
    expect(emailStatusOf(hub, plain.id)).toBe('valid');
    console.log(`[later write-backs ${database.name}] greylisted ${GREYLIST_MS} ms: on the contact ${valid - asked} ms after the run began`);
    expect(valid - asked).toBeLessThan(GREYLIST_MS + TICKS_AND_LOAD_MS);
    const later = await until('the later run ended', async () => {
      const list = (await json(await s.get(`/v1/connectors/${connectorId}/runs`, apiKey))).runs as Record<string, unknown>[];
      return list.find((r) => r.triggered_by === 'email_check' && r.status === 'completed');
    });
    expect(later).toMatchObject({ records_written: 1, records_validated: 0, credits_charged: 0 });
    // Charged once: the first run's e-mail answers (one unknown, refunded; one valid), nothing for the later one.
    expect(await spentByConnector(s, connectorId)).toBe(first.credits_charged);
    // Written once: a later look finds nothing owed.
    await new Promise((r) => setTimeout(r, 2500));
    const after = (await json(await s.get(`/v1/connectors/${connectorId}/runs`, apiKey))).runs as Record<string, unknown>[];
    expect(after.filter((r) => r.triggered_by === 'email_check')).toHaveLength(1);
  });

  it('When the e-mail changes before the older answer comes, then the contact keeps the newer answer', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(1_000);
    const hub = await hubspot(5402);
    const [bob] = hub.state.crm.seed(1, () => ({ email: 'bob@grey.test' }));
    const connectorId = await connect(hub, apiKey);
    await runNow(s, apiKey, connectorId);
    expect(emailStatusOf(hub, bob.id)).toBe('unknown');

    // Act: the person types another address; the run checks it (invalid) before bob's greylisting is over.
    await hub.state.crm.settled();
    hub.state.crm.edit(bob.id, { email: 'gone@grey.test' });
    const second = await runNow(s, apiKey, connectorId);
    const checksDone = await until('the older check answered', async () => (smtp.recipients.filter((r) => r === 'bob@grey.test').length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 3000)); // two looks for owed write-backs

    // Assert
    expect(second).toMatchObject({ status: 'completed', records_validated: 1 });
    expect(checksDone).toBe(true);
    expect(emailStatusOf(hub, bob.id)).toBe('invalid');
    const runs = (await json(await s.get(`/v1/connectors/${connectorId}/runs`, apiKey))).runs as Record<string, unknown>[];
    expect(runs.filter((r) => r.triggered_by === 'email_check')).toHaveLength(0);
  });
});
