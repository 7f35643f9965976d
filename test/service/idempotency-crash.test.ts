/**
 * An Idempotency-Key request cut off by SIGKILL mid-request (held by a slow local resolver, after its debit committed):
 * a retry is 409 while the dead attempt's lease holds, then takes the record over and gets its answer, charged once in
 * total; of concurrent retries one takes over and the others get 409, then the kept answer. On PostgreSQL a second
 * instance of the fleet answers the retries; on SQLite the same instance, restarted on its file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import { startLocalDnsServer, type LocalDnsServer, type ZoneEntry } from '../email/local-dns-server.js';
import { testDatabases } from '../support/databases.js';
import { newAccount, startInstance, until, type Instance } from '../support/fleet.js';

/** The lease is the budget plus 5 s: on SQLite long enough to outlast the restart, so that the retry meets it. */
const BUDGET_MS = { postgres: 1_500, sqlite: 8_000 };

describe.each(testDatabases)('an idempotent request whose instance is killed mid-request, on $name', (database) => {
  const zone: Record<string, ZoneEntry> = { 'held.test': { silent: true } };
  let dns: LocalDnsServer;
  let url: string;
  let env: Record<string, string>;
  const instances: Instance[] = [];
  let db: Database | undefined;

  beforeAll(async () => {
    dns = await startLocalDnsServer(zone);
    url = await database.create();
    env = {
      DATABASE_URL: url, EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address,
      VALIDATION_BUDGET_MS: String(BUDGET_MS[database.name]), RATE_LIMIT_PER_MINUTE: '0',
    };
    instances.push(await startInstance(env));
    // The fleet: a second instance beside the first (PostgreSQL); SQLite is one process, restarted after the kill.
    if (database.name === 'postgres') instances.push(await startInstance(env));
  }, 120_000);
  afterAll(async () => {
    for (const i of instances) await i.kill();
    await db?.close();
    await dns?.close();
    await database.dropAll();
  });

  it('When the instance is killed with SIGKILL mid-request, then a retry after the lease takes over and answers 200 charged once, and concurrent retries get one 200 and 409s, then the kept answer', async () => {
    // Arrange: an account of 10 credits; the resolver holds the request once its debit (1 credit) has committed.
    const { accountId, apiKey } = await newAccount(url, 10);
    const send = (instance: Instance) => fetch(`${instance.url}/v1/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': 'order-1001' },
      body: JSON.stringify({ email: 'ann@held.test' }),
      signal: AbortSignal.timeout(15_000),
    });
    const first = send(instances[0]).then(() => 'answered', () => 'cut off');
    // (Only a question about held.test counts: the resolver's health check at start asks its own canary names.)
    await until('the held request to ask the resolver', 10_000, async () => ([...dns.questions.keys()].some((q) => q.endsWith(' held.test')) ? true : undefined));

    // Act 1: SIGKILL mid-request; then the retries go to the other instance (SQLite: the instance restarted).
    await instances[0].kill();
    expect(await first).toBe('cut off');
    const other = database.name === 'postgres' ? instances[1] : await startInstance(env);
    if (database.name === 'sqlite') instances.push(other);
    db = await Database.open(url, { migrate: false });
    const [record] = await db.all<{ state: string; lease_expires_at: number | string; ledger_id: string }>(
      `SELECT state, lease_expires_at, ledger_id FROM idempotency_records WHERE account_id = $1`, [accountId],
    );
    const balance = async () => Number((await db!.all<{ n: number | string }>(
      `SELECT SUM(remaining) AS n FROM credit_grants WHERE account_id = $1`, [accountId],
    ))[0].n);
    const leaseLeftMs = Number(record.lease_expires_at) - Date.now();
    const retryDuringLease = await send(other);

    // Assert 1: the dead attempt's debit committed and its record is in flight under its lease: 409 meanwhile.
    expect(record.state).toBe('in_flight');
    expect(await balance()).toBe(9);
    expect(leaseLeftMs).toBeGreaterThan(500);
    expect(retryDuringLease.status).toBe(409);
    expect(retryDuringLease.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    // Act 2: the lease lapses; the resolver now answers (late, so the retries overlap); three retries at once.
    await until('the lease to lapse', 20_000, async () => (Date.now() > Number(record.lease_expires_at) + 50 ? true : undefined));
    zone['held.test'] = { rcode: 3, delayMs: 600 }; // NXDOMAIN: `invalid`, not refunded
    const retries = await Promise.all([send(other), send(other), send(other)]);
    const bodies = await Promise.all(retries.map((r) => r.text()));
    const winner = retries.findIndex((r) => r.status === 200);
    const replay = await send(other);

    // Assert 2: one took over and answered, charged the dead attempt's debit and nothing more; the others were 409;
    // a later retry replays the kept answer; the ledger holds one debit, under the record's ledger id.
    expect(retries.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const answer = JSON.parse(bodies[winner]) as { email: { status: string; reason: string }; credits: { charged: number; remaining: number } };
    expect(answer.email).toMatchObject({ status: 'invalid', reason: 'no_such_domain' });
    expect(answer.credits).toEqual({ charged: 1, remaining: 9 });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(bodies[winner]);
    expect(await balance()).toBe(9);
    const debits = await db.all<{ request_id: string }>(
      `SELECT request_id FROM ledger_entries WHERE account_id = $1 AND kind = 'debit'`, [accountId],
    );
    expect(debits.map((d) => d.request_id)).toEqual([record.ledger_id]);
  }, 90_000);
});
