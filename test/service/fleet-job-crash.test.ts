/**
 * The job engine across a crash (src/bulk, src/sync): two instances on one PostgreSQL; a CSV batch and a Salesforce
 * connector run (against the local org of test/salesforce) are under way on the first when it is killed with SIGKILL.
 * The second finishes both: the chunks the first held come back when their lease lapses, the connector's next scheduled run
 * takes its lease over and goes on from the watermark. No record is charged twice, and every result is there.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import { startFakeOrg, type FakeOrg } from '../salesforce/fake-org.js';
import { testDatabases } from '../support/databases.js';
import { newAccount, startInstance, until, type Instance } from '../support/fleet.js';
import { POSTGRES_SERVER, prerequisites } from '../support/prerequisites.js';

const postgres = testDatabases.find((d) => d.name === 'postgres');
const ROWS = 6_000;
const CONTACTS = 2_000;
/** A US address 1, a phone 2 (network checks are off: an `unknown` e-mail is not charged). */
const PER_RECORD = 3;

function csvOf(rows: number): string {
  const lines = ['Street,City,State,Zip,Phone'];
  for (let i = 0; i < rows; i++) lines.push(`${100 + i} Main St,Louisville,KY,40219,+1 502 713 ${String(4000 + (i % 5000)).padStart(4, '0')}`);
  return `${lines.join('\n')}\n`;
}

const SUITE = 'a service instance killed in the middle of a batch and a connector run';

describe.runIf(prerequisites(SUITE, POSTGRES_SERVER))(SUITE, () => {
  const instances: Instance[] = [];
  let org: FakeOrg | undefined;
  let batchDir: string;
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await postgres!.create();
    batchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-job-crash-'));
    // Every API call answered after 500 ms: the run lasts long enough to be killed in its middle.
    org = await startFakeOrg({ latencyMs: 500 });
  });
  afterAll(async () => {
    for (const i of instances) await i.kill();
    await org?.close();
    await postgres!.dropAll();
    if (batchDir) fs.rmSync(batchDir, { recursive: true, force: true });
  });

  it('When the instance working on them gets SIGKILL, then the other finishes both and no record is charged twice', async () => {
    const env = {
      DATABASE_URL: databaseUrl, BATCH_DIR: batchDir, BATCH_LEASE_MS: '1000', BATCH_SWEEP_MS: '200', BATCH_CHUNK_ROWS: '100',
      CONNECTOR_SECRET_KEY: 'a1'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', CONNECTOR_LEASE_MS: '1500',
    };
    const contacts = org!.state.seed('Contact', CONTACTS, (i) => ({
      MailingStreet: `${100 + i} Main St`, MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219',
      MailingCountry: 'United States', Email: `c${i}@example.com`, Phone: `(502) 713-${String(4000 + i).padStart(4, '0')}`,
    }));
    const { accountId, apiKey } = await newAccount(databaseUrl, (ROWS + CONTACTS) * PER_RECORD + 1_000);
    const call = (base: string, method: string, url: string, body?: string, type = 'application/json') =>
      fetch(base + url, { method, headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': type } : {}) }, body });
    const json = async (res: Response | Promise<Response>) => (await (await res).json()) as Record<string, any>;

    // The first instance alone: its scheduler starts the connector's run (every 2 s), and the batch goes to it.
    const first = await startInstance(env);
    instances.push(first);
    const connector = await json(call(first.url, 'POST', '/v1/connectors', JSON.stringify({
      type: 'salesforce', name: 'Crash org', schedule: '*/2 * * * * *',
      settings: { login_url: org!.url, api_version: '62.0', objects: ['Contact'], page_size: 200 },
      credentials: { client_id: org!.state.clientId, client_secret: org!.state.clientSecret },
    })));
    expect(connector, JSON.stringify(connector)).toHaveProperty('connector_id');
    const runsOf = async (base: string) => (await json(call(base, 'GET', `/v1/connectors/${connector.connector_id}/runs`))).runs as Record<string, any>[];
    await until('the connector run to be under way on the first instance', 20_000, async () =>
      (await runsOf(first.url)).find((r) => r.status === 'running' && r.records_validated > 0));

    // The second one joins (its scheduler ticks too, but the run's lease is the first's); the batch is sent once both
    // are up (a batch sent earlier could finish before the second has started), and the first is killed as soon as
    // the batch is under way.
    const second = await startInstance(env);
    instances.push(second);
    const { batch_id: batchId } = await json(call(first.url, 'POST', '/v1/batches', csvOf(ROWS), 'text/csv'));
    await until('the batch to be under way', 20_000, async () =>
      ((await json(call(first.url, 'GET', `/v1/batches/${batchId}`))).rows_done as number) > 0 || undefined);
    const batchAtKill = await json(call(first.url, 'GET', `/v1/batches/${batchId}`));
    const runAtKill = (await runsOf(first.url))[0];
    await first.kill();

    const batch = await until('the batch to complete', 90_000, async () => {
      const b = await json(call(second.url, 'GET', `/v1/batches/${batchId}`));
      return b.status === 'completed' ? b : undefined;
    });
    const runs = await until('a connector run to complete every contact', 90_000, async () => {
      const all = await runsOf(second.url);
      return contacts.every((c) => org!.state.get(c.Id as string)!.CV_Validated_At__c) && all.some((r) => r.status === 'completed')
        ? all : undefined;
    });
    const result = await (await call(second.url, 'GET', `/v1/batches/${batchId}/result`)).text();

    const db = await Database.open(databaseUrl, { migrate: false });
    const count = async (sql: string, params: unknown[]) => Number((await db.all<{ n: number | string }>(sql, params))[0].n);
    const twice = await db.all(
      `SELECT request_id, COUNT(*) AS n FROM ledger_entries WHERE account_id = $1 AND kind = 'debit'
       GROUP BY request_id HAVING COUNT(*) > 1`, [accountId],
    );
    const batchRecords = await count(`SELECT COUNT(DISTINCT request_id) AS n FROM ledger_entries WHERE kind = 'debit' AND request_id LIKE $1`, [`${batchId}:%`]);
    const contactRecords = await count(
      `SELECT COUNT(DISTINCT request_id) AS n FROM ledger_entries WHERE kind = 'debit' AND request_id LIKE $1`, [`${connector.connector_id}:%`],
    );
    const spent = await count(`SELECT -SUM(credits) AS n FROM ledger_entries WHERE account_id = $1 AND kind IN ('debit', 'refund')`, [accountId]);
    await db.close();
    console.log('job crash:', JSON.stringify({
      batchRowsDoneAtKill: batchAtKill.rows_done, runAtKill: runAtKill.records_validated,
      runs: runs.map((r) => `${r.status}:${r.records_validated}`),
    }));

    expect(batchAtKill.rows_done).toBeLessThan(ROWS);
    expect(runAtKill).toMatchObject({ status: 'running' });
    expect(runAtKill.records_validated).toBeLessThan(CONTACTS);
    expect(twice).toEqual([]);
    expect(batch).toMatchObject({ rows_total: ROWS, rows_done: ROWS, rows_failed: 0, credits_charged: ROWS * PER_RECORD });
    expect(result.trimEnd().split('\r\n')).toHaveLength(ROWS + 1);
    expect(batchRecords).toBe(ROWS);
    expect(contactRecords).toBe(CONTACTS);
    expect(spent).toBe((ROWS + CONTACTS) * PER_RECORD);
    expect(runs.find((r) => r.run_id === runAtKill.run_id)).toMatchObject({ status: 'failed' });
  }, 180_000);
});
