/**
 * The ledger's group commit on PostgreSQL (src/billing/postgres-group-commit.ts), through CreditLedger's own API: the
 * debits asked for together share a commit, and sharing never overdraws, double-charges a `once` key or refuses what
 * the grants cover, even when what one process knows of the grants is stale (another process drew from them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditLedger } from '../../src/billing/ledger.js';
import { DAY_MS } from '../../src/billing/pricing.js';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';
import { POSTGRES_SERVER, prerequisites } from '../support/prerequisites.js';
import { databaseUrlOf, startTestService, type TestService } from '../support/service.js';

const postgres = testDatabases.find((d) => d.name === 'postgres');
const email = [{ module: 'email' as const, credits: 1 }];

/** The statements a Database runs, counted: each `all` and `run` outside a transaction, and each transaction. */
function counted(db: Database): { db: Database; calls: () => number } {
  let calls = 0;
  for (const method of ['all', 'run', 'pgTransaction'] as const) {
    const original = db[method].bind(db) as (...args: unknown[]) => Promise<unknown>;
    (db as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => { calls++; return original(...args); };
  }
  return { db, calls: () => calls };
}

const SUITE = 'the ledger group commit on PostgreSQL';

describe.runIf(prerequisites(SUITE, POSTGRES_SERVER))(SUITE, () => {
  let service: TestService;
  let other: Database;
  beforeAll(async () => {
    service = await startTestService(await postgres!.create());
    other = await Database.open(databaseUrlOf(service), { migrate: false });
  });
  afterAll(async () => {
    await other?.close();
    await service?.close();
    await postgres!.dropAll();
  });

  it('When 200 debits of one account are asked at once, then a handful of statements commit them all', async () => {
    const { accountId } = await service.newAccount(1_000);
    const { db, calls } = counted(await Database.open(databaseUrlOf(service), { migrate: false }));
    try {
      const ledger = new CreditLedger(db);

      const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => ledger.debit(accountId, email, `req_group_${i}`)));

      expect(outcomes.every((o) => o.ok)).toBe(true);
      expect(calls()).toBeLessThanOrEqual(4); // the grants read once, then one statement per group
      expect(await ledger.balance(accountId)).toBe(800);
      // Each answer's `remaining` as of its own turn: 999 down to 800, each once.
      expect(outcomes.map((o) => (o.ok ? o.remaining : -1)).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => 800 + i));
    } finally {
      await db.close();
    }
  });

  it('When two processes draw one account down past zero, each on grants it knows, then exactly the credits are spent', async () => {
    const { accountId } = await service.newAccount(150);
    const one = new CreditLedger(service.db);
    const two = new CreditLedger(other);
    // Both know the grant as it stands now (150): from here on, each one's view goes stale as the other draws.
    await one.debit(accountId, email, 'req_warm_1');
    await two.debit(accountId, email, 'req_warm_2');

    const asked = Array.from({ length: 100 }, (_, i) => [one, two].map((ledger, k) => ledger.debit(accountId, email, `req_race_${k}_${i}`))).flat();
    const outcomes = await Promise.all(asked);

    expect(outcomes.filter((o) => o.ok)).toHaveLength(148);
    expect(outcomes.filter((o) => !o.ok)).toHaveLength(52);
    expect(await one.balance(accountId)).toBe(0);
    const [{ total }] = await service.db.all<{ total: number | string }>(`SELECT SUM(credits) AS total FROM ledger_entries WHERE account_id = $1`, [accountId]);
    expect(Number(total)).toBe(0);
  });

  it('When a once key is debited twice in one group and again in another process, then it is charged once', async () => {
    const { accountId } = await service.newAccount(10);
    const one = new CreditLedger(service.db);
    const two = new CreditLedger(other);
    const charges = [{ module: 'phone' as const, credits: 2 }];

    const outcomes = await Promise.all([
      one.debit(accountId, charges, 'job_g:row_1', { once: true }),
      one.debit(accountId, charges, 'job_g:row_1', { once: true }),
      two.debit(accountId, charges, 'job_g:row_1', { once: true }),
    ]);

    expect(outcomes.filter((o) => o.ok && !o.repeated)).toHaveLength(1);
    expect(outcomes.every((o) => o.ok && o.charged === 2)).toBe(true);
    expect(await one.balance(accountId)).toBe(8);
  });

  it('When credits are granted by another process after this one saw the account empty, then they are spent, not refused', async () => {
    const { accountId } = await service.newAccount(1);
    const one = new CreditLedger(service.db);
    expect(await one.debit(accountId, email, 'req_last')).toMatchObject({ ok: true, remaining: 0 });

    await new CreditLedger(other).grant(accountId, { kind: 'admin', credits: 3, expiresAt: Date.now() + DAY_MS });
    const next = await one.debit(accountId, email, 'req_after_grant');

    expect(next).toMatchObject({ ok: true, charged: 1, remaining: 2 });
  });
});
