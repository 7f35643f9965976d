/**
 * The Salesforce connector end to end (docs/connectors.md): the real service on SQLite and PostgreSQL, its HTTP API, the real
 * jsforce client, and a local org speaking the Salesforce REST API (test/salesforce/fake-org.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spentByConnector } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { QUIET_ENV } from '../support/quiet-service.js';
import { databaseUrlOf, problemOf, startTestService, useTestService, type TestService } from '../support/service.js';
import { startFakeOrg, type FakeOrg } from '../salesforce/fake-org.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const SECRET_KEY = 'a1'.repeat(32);
const ENV = { CONNECTOR_SECRET_KEY: SECRET_KEY, CONNECTOR_ALLOW_PRIVATE: 'true', CONNECTOR_LEASE_MS: '3000' };
/** A US address 1, a phone 2; the e-mail is free with network checks off (an `unknown` answer is not charged). */
const PER_RECORD = 3;

function seedContacts(org: FakeOrg, object: 'Contact' | 'Lead', count: number, start = 0) {
  return org.state.seed(object, count, (i) => object === 'Contact'
    ? {
      MailingStreet: `${100 + start + i} Main St`, MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219',
      MailingCountry: 'United States', Email: `c${start + i}@example.com`, Phone: `(502) 713-${String(4000 + start + i).padStart(4, '0')}`,
    }
    : {
      Street: `${200 + start + i} Elm St`, City: 'Louisville', State: 'KY', PostalCode: '40219', Country: 'USA',
      Email: `l${start + i}@example.com`, MobilePhone: `+1 502 555 ${String(1000 + start + i).padStart(4, '0')}`,
    });
}

function connectorBody(org: FakeOrg, overrides: Record<string, unknown> = {}) {
  return {
    type: 'salesforce', name: 'Production org', schedule: '0 3 * * *',
    settings: { login_url: org.url, api_version: '62.0', objects: ['Contact', 'Lead'], page_size: 200 },
    credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
    write_back: { overwrite_address: false },
    ...overrides,
  };
}

async function json(res: Response) {
  return (await res.json()) as Record<string, any>;
}

async function request(s: TestService, method: string, path: string, key: string, body?: unknown) {
  return fetch(s.url + path, {
    method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** Starts a run and waits for it to end; returns the run as GET …/runs shows it. */
async function runNow(s: TestService, key: string, connectorId: string, timeoutMs = 30_000) {
  const started = await request(s, 'POST', `/v1/connectors/${connectorId}/runs`, key);
  if (started.status !== 202) throw new Error(`run not started: ${started.status} ${await started.text()}`);
  const { run_id: runId } = await json(started);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { runs } = await json(await s.get(`/v1/connectors/${connectorId}/runs`, key));
    const run = runs.find((r: { run_id: string }) => r.run_id === runId);
    if (run && run.status !== 'running') return run;
    if (Date.now() > until) throw new Error(`run ${runId} still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function debitsPerRecord(s: TestService, connectorId: string): Promise<number[]> {
  const rows = await s.db.all<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM ledger_entries WHERE kind = 'debit' AND request_id LIKE $1 GROUP BY request_id`,
    [`${connectorId}:%`],
  );
  return rows.map((r) => Number(r.n));
}

describe.each(testDatabases)('the Salesforce connector on $name', (database) => {
  const service = useTestService(database, ENV);
  let org: FakeOrg;
  beforeAll(async () => {
    org = await startFakeOrg({ pageSize: 2000 });
  });
  afterAll(async () => {
    await org.close();
  });

  it('When an org is connected, then every Contact and Lead is checked over several pages and the verdicts written back; a second run charges nothing', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(10_000);
    const contacts = seedContacts(org, 'Contact', 300);
    const leads = seedContacts(org, 'Lead', 150);

    const created = await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(org, { settings: { login_url: org.url, objects: ['Contact', 'Lead'], page_size: 200 } }));
    const connector = await json(created);
    const first = await runNow(s, apiKey, connector.connector_id);
    const afterFirst = await s.ledger.balance(accountId);
    const second = await runNow(s, apiKey, connector.connector_id);
    const shown = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));
    const written = org.state.get(contacts[7].Id as string)!;
    const lead = org.state.get(leads[3].Id as string)!;

    expect(created.status).toBe(201);
    expect(connector).toMatchObject({ type: 'salesforce', status: 'active', schedule: '0 3 * * *', write_back: { overwrite_address: false } });
    expect(JSON.stringify(connector)).not.toContain(org.state.clientSecret);
    expect(JSON.stringify(shown)).not.toContain(org.state.clientSecret);
    expect(first).toMatchObject({ status: 'completed', records_read: 450, records_validated: 450, records_written: 450, records_failed: 0 });
    expect(first.credits_charged).toBe(450 * PER_RECORD);
    expect(afterFirst).toBe(10_000 - 450 * PER_RECORD);
    expect(org.state.calls.query).toBeGreaterThanOrEqual(2);
    expect(org.state.calls.queryMore).toBeGreaterThanOrEqual(1);
    expect(written).toMatchObject({ CV_Address_Status__c: expect.any(String), CV_Phone_Status__c: 'valid', CV_Email_Status__c: 'unknown' });
    expect(written.CV_Validated_At__c).toBeTruthy();
    expect(lead).toMatchObject({ CV_Phone_Status__c: 'valid', CV_Phone_Type__c: expect.any(String) });
    // Our own write-back changed every record's SystemModstamp: read again, and dropped by change detection.
    expect(second).toMatchObject({ status: 'completed', records_validated: 0, credits_charged: 0 });
    expect(second.records_skipped).toBe(second.records_read);
    expect(await s.ledger.balance(accountId)).toBe(afterFirst);
    expect(shown.watermark).toMatchObject({ Contact: expect.any(Object), Lead: expect.any(Object) });
    expect(shown.last_run).toMatchObject({ run_id: second.run_id, status: 'completed' });
    expect(await debitsPerRecord(s, connector.connector_id)).toEqual(Array(450).fill(1));

    // An edited phone: that record, that module only, is validated and charged again.
    org.state.edit(contacts[10].Id as string, { Phone: '(502) 713-9999' });
    org.state.edit(contacts[11].Id as string, { Email: 'changed@example.com' });
    const third = await runNow(s, apiKey, connector.connector_id);
    expect(third).toMatchObject({ status: 'completed', records_validated: 2, credits_charged: 2 });
    expect(org.state.get(contacts[10].Id as string)!.CV_Phone_Status__c).toBe('valid');
  });

  it('When a connector follows a policy, then the next action written beside each status is the policy\'s where the fixed table says otherwise', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(1_000);
    const [plainOrg, followingOrg] = [await startFakeOrg(), await startFakeOrg()];
    try {
      // Offline, this e-mail is `unknown` (`not_checked`): `confirm` by the fixed table, `accept` at a checkout.
      const contact = { MailingStreet: '100 Main St', MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219', MailingCountry: 'United States', Email: 'jane.doe@acme-mail.com', Phone: '(502) 713-4010' };
      const [a] = plainOrg.state.seed('Contact', 1, () => contact);
      const [b] = followingOrg.state.seed('Contact', 1, () => contact);
      const body = (o: FakeOrg, policy?: string) => connectorBody(o, { settings: { login_url: o.url, objects: ['Contact'] }, ...(policy ? { policy } : {}) });
      const plain = await json(await request(s, 'POST', '/v1/connectors', apiKey, body(plainOrg)));
      const following = await json(await request(s, 'POST', '/v1/connectors', apiKey, body(followingOrg, 'checkout')));

      const runs = [await runNow(s, apiKey, plain.connector_id), await runNow(s, apiKey, following.connector_id)];

      const nextActions = (o: FakeOrg, id: unknown) => {
        const r = o.state.get(id as string)!;
        return [r.CV_Email_Status__c, r.CV_Address_Next_Action__c, r.CV_Email_Next_Action__c, r.CV_Phone_Next_Action__c];
      };
      expect(runs.map((r) => [r.status, r.records_written])).toEqual([['completed', 1], ['completed', 1]]);
      expect(following.policy).toBe('checkout');
      expect(nextActions(plainOrg, a.Id)).toEqual(['unknown', 'accept', 'confirm', 'accept']);
      expect(nextActions(followingOrg, b.Id)).toEqual(['unknown', 'accept', 'accept', 'accept']);
    } finally {
      await plainOrg.close();
      await followingOrg.close();
    }
  });

  it('When the session expires or the API answers 503 once, then the run re-authenticates or retries and completes', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(10_000);
    const localOrg = await startFakeOrg();
    try {
      seedContacts(localOrg, 'Contact', 20);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));
      await runNow(s, apiKey, connector.connector_id);
      const tokensBefore = localOrg.state.tokenRequests;
      seedContacts(localOrg, 'Contact', 5, 100);
      localOrg.state.expireSessions();
      const afterExpiry = await runNow(s, apiKey, connector.connector_id);
      seedContacts(localOrg, 'Contact', 5, 200);
      localOrg.state.failNext(1, 503, undefined, { method: 'GET' });
      const after503 = await runNow(s, apiKey, connector.connector_id);

      expect(afterExpiry).toMatchObject({ status: 'completed', records_validated: 5 });
      expect(localOrg.state.tokenRequests).toBeGreaterThan(tokensBefore);
      expect(after503).toMatchObject({ status: 'completed', records_validated: 5 });
    } finally {
      await localOrg.close();
    }
  });

  it('When the session expires on the read and again on the write-back, then the run authenticates again each time and completes, charged once', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    try {
      const contacts = seedContacts(localOrg, 'Contact', 5);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));
      localOrg.state.failNext(1, 401, undefined, { method: 'GET' }); // the session expires on the first read
      localOrg.state.expireSessionsAtNextWrite(); // and the new one on the write-back

      const run = await runNow(s, apiKey, connector.connector_id);
      const shown = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));

      expect(run).toMatchObject({ status: 'completed', records_validated: 5, records_written: 5, records_failed: 0, credits_charged: 5 * PER_RECORD });
      expect(shown).toMatchObject({ status: 'active', reason: null });
      expect(localOrg.state.tokenRequests).toBe(3); // the first grant, one on the read, one on the write-back
      expect(localOrg.state.get(contacts[4].Id as string)).toMatchObject({ CV_Phone_Status__c: 'valid' });
      expect(await debitsPerRecord(s, connector.connector_id)).toEqual(Array(5).fill(1));
      expect(await s.ledger.balance(accountId)).toBe(1_000 - 5 * PER_RECORD);
    } finally {
      await localOrg.close();
    }
  });

  it('When a run fails between validation and write-back, then the next run writes without charging again, and the runs report what the ledger moved', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    try {
      seedContacts(localOrg, 'Contact', 5);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));
      localOrg.state.failNext(4, 500, undefined, { method: 'PATCH' }); // every try of the write-back
      const failed = await runNow(s, apiKey, connector.connector_id);
      seedContacts(localOrg, 'Contact', 1, 100);
      const second = await runNow(s, apiKey, connector.connector_id);

      expect(failed).toMatchObject({ status: 'failed', reason: 'api_error', records_validated: 5, records_written: 0, credits_charged: 5 * PER_RECORD });
      expect(second).toMatchObject({ status: 'completed', records_validated: 6, records_written: 6, credits_charged: 1 * PER_RECORD });
      expect(failed.credits_charged + second.credits_charged).toBe(await spentByConnector(s, connector.connector_id));
      expect(await s.ledger.balance(accountId)).toBe(1_000 - failed.credits_charged - second.credits_charged);
      expect(await debitsPerRecord(s, connector.connector_id)).toEqual(Array(6).fill(1));
    } finally {
      await localOrg.close();
    }
  });

  it('When the credentials are refused, then the run fails auth_failed and the connector waits for new ones', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(1_000);
    const body = connectorBody(org, { credentials: { client_id: org.state.clientId, client_secret: 'wrong' } });
    const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, body));

    const failed = await runNow(s, apiKey, connector.connector_id);
    const shown = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));
    const patched = await json(await request(s, 'PATCH', `/v1/connectors/${connector.connector_id}`, apiKey, {
      credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
    }));

    expect(failed).toMatchObject({ status: 'failed', reason: 'auth_failed', message: expect.stringMatching(/invalid/i) });
    expect(shown).toMatchObject({ status: 'error', reason: 'auth_failed' });
    expect(patched).toMatchObject({ status: 'active', reason: null });
  });

  it('When the API allowance is exhausted, then the run stops rate_limited with the platform message', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    try {
      seedContacts(localOrg, 'Contact', 3);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));
      localOrg.state.apiUsage = localOrg.state.apiLimit; // the org's daily allowance is spent
      const run = await runNow(s, apiKey, connector.connector_id);

      expect(run).toMatchObject({ status: 'failed', reason: 'rate_limited' });
      expect(run.message).toBeTruthy();
    } finally {
      await localOrg.close();
    }
  });

  it('When credits run out, then the run pauses, the connector waits, and the next run after a grant finishes without charging twice', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(30); // 10 records' worth
    const localOrg = await startFakeOrg();
    try {
      seedContacts(localOrg, 'Contact', 25);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));

      const paused = await runNow(s, apiKey, connector.connector_id);
      const waiting = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));
      await s.accounts.grantCredits(accountId, 1_000);
      const resumed = await runNow(s, apiKey, connector.connector_id);
      const after = await json(await s.get(`/v1/connectors/${connector.connector_id}`, apiKey));

      expect(paused).toMatchObject({ status: 'paused', reason: 'credits_exhausted', records_validated: 10, records_written: 10 });
      expect(waiting).toMatchObject({ status: 'paused', reason: 'credits_exhausted' });
      expect(resumed).toMatchObject({ status: 'completed', records_validated: 15, credits_charged: 45 });
      expect(after).toMatchObject({ status: 'active', reason: null });
      expect(await debitsPerRecord(s, connector.connector_id)).toEqual(Array(25).fill(1));
      expect(await s.ledger.balance(accountId)).toBe(30 + 1_000 - 25 * PER_RECORD);
    } finally {
      await localOrg.close();
    }
  });

  it('When a record is refused on save, then the run says why, and the next run writes it without charging again', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    try {
      const [refused] = seedContacts(localOrg, 'Contact', 4);
      localOrg.state.rejectOnSave.add(refused.Id as string);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));

      const first = await runNow(s, apiKey, connector.connector_id);
      const balance = await s.ledger.balance(accountId);
      localOrg.state.rejectOnSave.clear();
      const second = await runNow(s, apiKey, connector.connector_id);

      expect(first).toMatchObject({ status: 'completed', records_validated: 4, records_written: 3, records_failed: 1 });
      expect(first.errors).toEqual([{ key: `Contact:${refused.Id}`, error: expect.stringMatching(/^FIELD_CUSTOM_VALIDATION_EXCEPTION/) }]);
      expect(second).toMatchObject({ status: 'completed', records_written: 1, credits_charged: 0 });
      expect(localOrg.state.get(refused.Id as string)!.CV_Phone_Status__c).toBe('valid');
      expect(await s.ledger.balance(accountId)).toBe(balance);
    } finally {
      await localOrg.close();
    }
  });

  it('When overwrite_address is on, then a verified address is written in standard form and does not count as a change', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    try {
      const [contact] = localOrg.state.seed('Contact', 1, () => ({
        MailingStreet: '6007 applegate lane', MailingCity: 'Louisville', MailingState: 'KY', MailingPostalCode: '40219',
      }));
      const body = connectorBody(localOrg, { settings: { login_url: localOrg.url, objects: ['Contact'] }, write_back: { overwrite_address: true } });
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, body));

      const first = await runNow(s, apiKey, connector.connector_id);
      const second = await runNow(s, apiKey, connector.connector_id);

      expect(first).toMatchObject({ records_validated: 1, records_written: 1 });
      expect(localOrg.state.get(contact.Id as string)).toMatchObject({
        MailingStreet: '6007 APPLEGATE LN', MailingCity: 'LOUISVILLE', MailingState: 'KY', MailingPostalCode: expect.stringMatching(/^40219/),
        CV_Address_Status__c: expect.stringMatching(/verified|corrected/),
      });
      expect(second).toMatchObject({ records_validated: 0, credits_charged: 0, records_skipped: 1 });
    } finally {
      await localOrg.close();
    }
  });

  it("When one account asks for another's connector, then it is answered exactly like a missing one", async () => {
    const s = service();
    const owner = await s.newAccount(100);
    const other = await s.newAccount(100);
    const connector = await json(await request(s, 'POST', '/v1/connectors', owner.apiKey, connectorBody(org)));
    const id = connector.connector_id;

    const answers = [
      await request(s, 'GET', `/v1/connectors/${id}`, other.apiKey),
      await request(s, 'PATCH', `/v1/connectors/${id}`, other.apiKey, { status: 'paused' }),
      await request(s, 'DELETE', `/v1/connectors/${id}`, other.apiKey),
      await request(s, 'POST', `/v1/connectors/${id}/runs`, other.apiKey),
      await request(s, 'GET', `/v1/connectors/${id}/runs`, other.apiKey),
    ];
    const list = await json(await s.get('/v1/connectors', other.apiKey));

    for (const res of answers) expect(res.status).toBe(404);
    expect(list.connectors).toEqual([]);
    expect((await json(await s.get(`/v1/connectors/${id}`, owner.apiKey))).status).toBe('active');
  });

  it('When a connector body is wrong, then a 400 problem lists the fields, without echoing credentials', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const bad = await request(s, 'POST', '/v1/connectors', apiKey, {
      type: 'salesforce', name: 'x', schedule: 'every day', settings: { login_url: 'not a url', objects: ['Account'] },
      credentials: { client_id: 'id', client_secret: 'hunter2', extra: 'hunter3' },
    });
    const unknownType = await request(s, 'POST', '/v1/connectors', apiKey, { ...connectorBody(org), type: 'hubspot' });
    const body = await problemOf(bad);

    expect(bad.status).toBe(400);
    expect((body.errors as { field: string }[]).map((e) => e.field)).toEqual(expect.arrayContaining(['schedule']));
    expect(JSON.stringify(body)).not.toContain('hunter');
    expect(unknownType.status).toBe(400);
  });

  it('When a connector is scheduled, then it runs by itself; paused, it does not', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    try {
      seedContacts(localOrg, 'Contact', 2);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg, { schedule: '* * * * * *' })));
      const id = connector.connector_id;
      const until = Date.now() + 10_000;
      let runs: { triggered_by: string; status: string }[] = [];
      while (Date.now() < until && !runs.some((r) => r.status === 'completed')) {
        await new Promise((r) => setTimeout(r, 200));
        runs = (await json(await s.get(`/v1/connectors/${id}/runs`, apiKey))).runs;
      }
      await request(s, 'PATCH', `/v1/connectors/${id}`, apiKey, { status: 'paused' });
      await new Promise((r) => setTimeout(r, 1_200)); // a run already under way ends
      const count = (await json(await s.get(`/v1/connectors/${id}/runs`, apiKey))).runs.length;
      await new Promise((r) => setTimeout(r, 2_000));
      const later = (await json(await s.get(`/v1/connectors/${id}/runs`, apiKey))).runs.length;

      expect(runs[0]).toMatchObject({ triggered_by: 'schedule' });
      expect(later).toBe(count);
    } finally {
      await localOrg.close();
    }
  });

  it.runIf(database.name === 'postgres')('When two instances are asked to run one connector at once, then only one runs it', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(10_000);
    const localOrg = await startFakeOrg({ latencyMs: 30 });
    const second = await startTestService(databaseUrlOf(s), ENV);
    try {
      seedContacts(localOrg, 'Contact', 50);
      const connector = await json(await request(s, 'POST', '/v1/connectors', apiKey, connectorBody(localOrg)));
      const path = `/v1/connectors/${connector.connector_id}/runs`;

      const [a, b] = await Promise.all([request(s, 'POST', path, apiKey), request(second, 'POST', path, apiKey)]);

      expect([a.status, b.status].sort()).toEqual([202, 409]);
      const busy = a.status === 409 ? a : b;
      expect(await problemOf(busy)).toMatchObject({ type: '/problems/connector-busy' });
    } finally {
      await new Promise((r) => setTimeout(r, 2_000));
      await second.close();
      await localOrg.close();
    }
  });
});

describe('connectors from the command line', () => {
  const database = testDatabases[0];
  const service = useTestService(database, ENV);

  it('When an operator adds, lists, checks and runs a connector from the CLI, then each answers JSON and the run is kept', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(1_000);
    const localOrg = await startFakeOrg();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-cli-connector-'));
    try {
      seedContacts(localOrg, 'Contact', 3);
      const file = path.join(dir, 'connector.json');
      fs.writeFileSync(file, JSON.stringify(connectorBody(localOrg)));
      const cli = async (...args: string[]) => {
        const { stdout } = await run(process.execPath, ['scripts/start.mjs', 'cli', ...args], {
          cwd: root, env: { ...process.env, ...QUIET_ENV, ...ENV, DATABASE_URL: databaseUrlOf(s), BATCH_DIR: dir },
        });
        return JSON.parse(stdout) as Record<string, any>;
      };

      const added = await cli('connectors', 'add', '--account', accountId, '--file', file);
      const listed = await cli('connectors', 'list', '--account', accountId);
      const checked = await cli('connectors', 'check', '--connector', added.connector_id);
      const ran = await cli('connectors', 'run', '--connector', added.connector_id);
      const runs = (await json(await s.get(`/v1/connectors/${added.connector_id}/runs`, apiKey))).runs;

      expect(added).toMatchObject({ connector_id: expect.stringMatching(/^conn_/), type: 'salesforce', status: 'active' });
      expect(JSON.stringify(added)).not.toContain(localOrg.state.clientSecret);
      expect(listed.connectors.map((c: { connector_id: string }) => c.connector_id)).toEqual([added.connector_id]);
      expect(checked).toEqual({ ok: true, problems: [] });
      expect(ran).toMatchObject({ status: 'completed', triggered_by: 'cli', records_validated: 3, records_written: 3 });
      expect(runs[0].run_id).toBe(ran.run_id);
    } finally {
      await localOrg.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('connector URLs without CONNECTOR_ALLOW_PRIVATE', () => {
  const database = testDatabases[0];
  const service = useTestService(database, { CONNECTOR_SECRET_KEY: SECRET_KEY });

  it('When a connector names a loopback or plain-http login URL, then it is refused (SSRF)', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const refused = await Promise.all(['http://127.0.0.1:9', 'https://127.0.0.1', 'https://10.0.0.8', 'https://169.254.169.254'].map((login_url) =>
      request(s, 'POST', '/v1/connectors', apiKey, {
        type: 'salesforce', name: 'x', settings: { login_url }, credentials: { client_id: 'a', client_secret: 'b' },
      })));

    for (const res of refused) {
      expect(res.status).toBe(400);
      expect((await problemOf(res)).detail).toMatch(/https|public address/);
    }
  });
});
