/**
 * One job engine for CSV batches, connector runs and webhook deliveries (src/bulk/README.md): the real service on SQLite
 * and PostgreSQL, the local Salesforce org of test/salesforce and signed Shopify deliveries. The rules every kind shares:
 * a tick scheduled in the database fires once across the fleet; a job paused for credits resumes once the balance
 * covers what it waits for; a dead runner's job is taken over through the chunk lease; a record goes through the request
 * schema whatever its source; a platform's URLs pass the SSRF check before a session is opened.
 */
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/sync/secrets.js';
import { json, request, runNow } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, problemOf, startTestService, useTestService, type TestService } from '../support/service.js';
import { startFakeOrg, type FakeOrg } from '../salesforce/fake-org.js';
import { deliver, signedDelivery } from '../shopify/webhooks.js';
import { until } from '../support/fleet.js';

const SECRET_KEY = 'b7'.repeat(32);
const ENV = { CONNECTOR_SECRET_KEY: SECRET_KEY, CONNECTOR_ALLOW_PRIVATE: 'true', CONNECTOR_LEASE_MS: '600', BATCH_SWEEP_MS: '60000' };
/** A US address 1, a phone 2; the e-mail is free with network checks off (an `unknown` answer is not charged). */
const PER_RECORD = 3;

function seedContacts(org: FakeOrg, count: number) {
  return org.state.seed('Contact', count, (i) => ({
    MailingStreet: `${100 + i} Main St`, MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219',
    Email: `c${i}@example.com`, Phone: `(502) 713-${String(4000 + i).padStart(4, '0')}`,
  }));
}

async function connect(s: TestService, apiKey: string, org: FakeOrg) {
  return json(await request(s, 'POST', '/v1/connectors', apiKey, {
    type: 'salesforce', name: 'Engine org', schedule: '0 3 * * *',
    settings: { login_url: org.url, api_version: '62.0', objects: ['Contact'], page_size: 200 },
    credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
  }));
}

const runsOf = async (s: TestService, key: string, id: string) => (await json(await s.get(`/v1/connectors/${id}/runs`, key))).runs as Record<string, any>[];

describe.each(testDatabases)('the job engine on $name', (database) => {
  const service = useTestService(database, ENV);

  it('When a connector pauses for credits, then it resumes by the batch rule: once the balance covers its next record, by itself', async () => {
    // Arrange: 4 records' worth of credits for 10 records.
    const s = service();
    const { accountId, apiKey } = await s.newAccount(4 * PER_RECORD);
    const org = await startFakeOrg();
    try {
      seedContacts(org, 10);
      const connector = await connect(s, apiKey, org);
      const paused = await runNow(s, apiKey, connector.connector_id);
      const [job] = await s.db.all<{ id: string; status: string; resume_credits: number | string }>(
        `SELECT id, status, resume_credits FROM bulk_jobs WHERE lock_key = $1`, [`connector:${connector.connector_id}`],
      );

      // Act: a grant below what the next record needs, a sweep; then enough, a sweep.
      await s.accounts.grantCredits(accountId, PER_RECORD - 1);
      await s.bulk.runner.sweep();
      const stillPaused = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));
      await s.accounts.grantCredits(accountId, 100);
      await s.bulk.runner.sweep();
      const resumed = await until('the resumed run to complete', 20_000, async () => {
        const runs = await runsOf(s, apiKey, connector.connector_id);
        return runs.find((r) => r.status === 'completed');
      });
      const after = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));

      // Assert: the same rule as a batch (balance >= resume_credits), the same job resumed, each record charged once.
      expect(paused).toMatchObject({ status: 'paused', reason: 'credits_exhausted', records_validated: 4 });
      expect(job).toMatchObject({ status: 'paused' });
      expect(Number(job.resume_credits)).toBe(PER_RECORD);
      expect(stillPaused).toMatchObject({ status: 'paused', reason: 'credits_exhausted' });
      expect(resumed).toMatchObject({ records_validated: 6, credits_charged: 6 * PER_RECORD });
      expect(after).toMatchObject({ status: 'active', reason: null });
      expect(await s.ledger.balance(accountId)).toBe(4 * PER_RECORD + PER_RECORD - 1 + 100 - 10 * PER_RECORD);
    } finally {
      await org.close();
    }
  });

  it("When a connector run's runner loses its lease, then another attempt takes the job over and goes on from the watermark", async () => {
    // Arrange: a run under way over three pages of a slow org.
    const s = service();
    const { accountId, apiKey } = await s.newAccount(10_000);
    const org = await startFakeOrg({ latencyMs: 150, pageSize: 200 });
    try {
      const contacts = seedContacts(org, 600);
      const connector = await connect(s, apiKey, org);
      const { run_id: first } = await json(await request(s, 'POST', `/v1/connectors/${connector.connector_id}/runs`, apiKey));
      await until('the first page to be written', 20_000, async () =>
        (await runsOf(s, apiKey, connector.connector_id)).find((r) => r.run_id === first && r.records_written >= 200));

      // Act: the lease is taken from it, as if its runner had stopped answering long ago; the sweeper sends the chunk again.
      await s.db.run(
        `UPDATE bulk_chunks SET lease_owner = 'runner_gone', lease_until = 1 WHERE job_id IN (SELECT id FROM bulk_jobs WHERE lock_key = $1)`,
        [`connector:${connector.connector_id}`],
      );
      await s.db.run(`UPDATE connector_runs SET owner = 'runner_gone.1' WHERE id = $1`, [first]);
      const busy = await request(s, 'POST', `/v1/connectors/${connector.connector_id}/runs`, apiKey);
      await s.bulk.runner.sweep();
      const runs = await until('the takeover run to complete', 20_000, async () => {
        const all = await runsOf(s, apiKey, connector.connector_id);
        return all.some((r) => r.status === 'completed') ? all : undefined;
      });

      // Assert: the first run is failed by the takeover, the next goes on from its watermark, nothing is charged twice.
      expect(busy.status).toBe(409);
      expect(await problemOf(busy)).toMatchObject({ type: '/problems/connector-busy' });
      expect(runs.find((r) => r.run_id === first)).toMatchObject({ status: 'failed', message: expect.stringMatching(/interrupted/) });
      const taker = runs.find((r) => r.status === 'completed')!;
      expect(taker).toMatchObject({ triggered_by: 'api' });
      // What the first run wrote is not validated again (its hashes are kept; Salesforce's window overlaps the watermark).
      expect(taker.records_validated).toBeLessThan(600);
      expect(contacts.every((c) => org.state.get(c.Id as string)!.CV_Validated_At__c)).toBe(true);
      expect(await s.ledger.balance(accountId)).toBe(10_000 - 600 * PER_RECORD);
    } finally {
      await org.close();
    }
  }, 60_000);

  it('When a connector record has a malformed field, then it gets the same verdict as a CSV row and the same words as /v1/validate', async () => {
    // Arrange: an e-mail over the request schema's 512 characters, in an org and in a CSV file.
    const s = service();
    const { apiKey } = await s.newAccount(1_000);
    const org = await startFakeOrg();
    const email = `${'x'.repeat(600)}@example.com`;
    try {
      org.state.seed('Contact', 1, () => ({ Email: email, MailingStreet: '100 Main St', MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219' }));
      const connector = await connect(s, apiKey, org);

      // Act
      const run = await runNow(s, apiKey, connector.connector_id);
      const batch = await json(await fetch(`${s.url}/v1/batches?smtp=false`, {
        method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'text/csv' },
        body: `Street,City,State,Zip,Email\n100 Main St,Louisville,KY,40219,${email}\n`,
      }));
      await until('the batch to complete', 20_000, async () => {
        const b = await json(await s.get(`/v1/batches/${batch.batch_id}`, apiKey));
        return b.status === 'completed' ? b : undefined;
      });
      const csv = await (await s.get(`/v1/batches/${batch.batch_id}/result`, apiKey)).text();
      const [header, row] = csv.trimEnd().split('\r\n').map((l) => l.split(','));
      const cvError = row[header.indexOf('cv_error')];
      const direct = await s.post('/v1/validate', { address: '100 Main St, Louisville, KY 40219', email }, { key: apiKey });

      // Assert
      expect(cvError).toBe('invalid_input: email at most 512 characters');
      expect(run).toMatchObject({ status: 'completed', records_failed: 1, records_validated: 0, credits_charged: 0 });
      expect(run.errors).toEqual([{ key: expect.stringMatching(/^Contact:/), error: cvError }]);
      expect(direct.status).toBe(400);
      expect(await problemOf(direct)).toMatchObject({ errors: [expect.objectContaining({ field: 'email', message: 'at most 512 characters' })] });
    } finally {
      await org.close();
    }
  });
});

describe.each(testDatabases)('a webhook delivery for a connector whose URL is refused, on $name', (database) => {
  // No private addresses: the shop's name does not resolve here, so its URL is refused.
  const service = useTestService(database, { CONNECTOR_SECRET_KEY: SECRET_KEY, SHOPIFY_ADMIN_BASE_URL: 'http://127.0.0.1:9' });

  it('When the delivery is worked on, then the SSRF check refuses before the plugin opens a session', async () => {
    // Arrange: a connector saved while its shop resolved (inserted as the store keeps it), and the plugin's open watched.
    const s = service();
    const { accountId } = await s.newAccount(100);
    const shop = 'refused-shop.myshopify.com';
    const id = 'conn_refused_before_open';
    await s.sync.store.insert({
      id, accountId, type: 'shopify', name: 'Refused', status: 'active', schedule: '0 3 * * *', nextRunAt: null,
      settings: { shop, api_version: '2025-10', resources: ['customers'] }, writeBack: { tags: true, metafields: true },
      sealed: new SecretBox(Buffer.from(SECRET_KEY, 'hex'), []).seal({ access_token: 'shpat_x', api_secret: 'the-secret' }),
    }, shop);
    const plugin = s.sync.registry.get('shopify')!;
    const open = plugin.open.bind(plugin);
    let opened = 0;
    plugin.open = (context) => {
      opened++;
      return open(context);
    };
    try {
      // Act
      const answer = await deliver(s.url, signedDelivery('customers/update', { id: 7, admin_graphql_api_id: 'gid://shopify/Customer/7', email: 'ann@example.com' }, { shop, secret: 'the-secret' }));
      await s.sync.webhooks.settle();
      const { items: [run] } = await s.sync.store.runs(id, { limit: 1 });

      // Assert
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(opened).toBe(0);
      expect(run).toMatchObject({ triggeredBy: 'webhook', status: 'failed', reason: 'api_error' });
      expect(run.message).toMatch(/public address/);
    } finally {
      plugin.open = open;
    }
  });
});

describe.runIf(testDatabases.some((d) => d.name === 'postgres'))('fleet-wide ticks on PostgreSQL', () => {
  const service = useTestService(testDatabases.find((d) => d.name === 'postgres')!, ENV);

  it('When two instances register the same tick every second, then each second it fires on one of them only', async () => {
    // Arrange
    const s = service();
    const second = await startTestService(databaseUrlOf(s), ENV);
    const fired: { instance: string; at: number }[] = [];
    try {
      s.bulk.schedules.every('test:every-second', '* * * * * *', (at) => { fired.push({ instance: 'first', at }); });
      second.bulk.schedules.every('test:every-second', '* * * * * *', (at) => { fired.push({ instance: 'second', at }); });

      // Act
      await new Promise((r) => setTimeout(r, 4_500));

      // Assert: one firing per second at most, three or more seconds seen, whichever instance won each.
      const seconds = fired.map((f) => Math.floor(f.at / 1000));
      const [row] = await s.db.all<{ fired_by: string | null }>(`SELECT fired_by FROM job_schedules WHERE name = 'test:every-second'`);
      expect(fired.length).toBeGreaterThanOrEqual(3);
      expect(new Set(seconds).size).toBe(seconds.length);
      expect(row.fired_by).toMatch(/^sched_/);
    } finally {
      await second.close();
    }
  });
});
