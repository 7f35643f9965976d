/**
 * The per-key rate limit's counters on PostgreSQL (LeasedRateLimitStore, src/http/middleware/rate-limit.ts): two
 * instances sharing one database lease a busy key's hits in blocks, so that a burst costs a few statements instead of
 * one per request, and still never let more than the limit through across the fleet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Options } from 'express-rate-limit';
import { Database } from '../../src/db/data-source.js';
import { LeasedRateLimitStore } from '../../src/http/middleware/rate-limit.js';
import { testDatabases } from '../support/databases.js';
import { POSTGRES_SERVER, prerequisites } from '../support/prerequisites.js';
import { databaseUrlOf, startTestService, type TestService } from '../support/service.js';

const postgres = testDatabases.find((d) => d.name === 'postgres');
const SUITE = 'rate-limit leases on PostgreSQL';

/** One instance's store, with the statements it sends counted. */
function instance(db: Database, limit: number): { store: LeasedRateLimitStore; statements: () => number } {
  let statements = 0;
  const counted = Object.create(db, {
    all: { value: (...args: Parameters<Database['all']>) => { statements++; return db.all(...args); } },
  }) as Database;
  const store = new LeasedRateLimitStore(counted);
  store.init({ windowMs: 60_000, limit } as Options);
  return { store, statements: () => statements };
}

describe.runIf(prerequisites(SUITE, POSTGRES_SERVER))(SUITE, () => {
  let service: TestService;
  const dbs: Database[] = [];
  beforeAll(async () => {
    service = await startTestService(await postgres!.create());
    for (let i = 0; i < 2; i++) dbs.push(await Database.open(databaseUrlOf(service), { migrate: false }));
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await service?.close();
    await postgres!.dropAll();
  });

  it('When two instances take 1,200 hits of one key at once, then no more than the limit pass, in a few statements', async () => {
    const limit = 1_000;
    const [a, b] = dbs.map((db) => instance(db, limit));
    const key = `burst-${Date.now()}`;

    const hits = await Promise.all(Array.from({ length: 1_200 }, (_, i) => (i % 2 ? a : b).store.increment(key)));
    const numbers = hits.map((h) => h.totalHits);
    const passed = numbers.filter((n) => n <= limit);

    expect(new Set(passed).size).toBe(passed.length); // each hit number under the limit handed out once across the fleet
    expect(passed.length).toBeLessThanOrEqual(limit);
    // Leased and unused at the end: a sixteenth of what is left at most, per instance, near the limit.
    expect(passed.length).toBeGreaterThanOrEqual(limit - 2 * 16);
    expect(a.statements() + b.statements()).toBeLessThan(1_200 / 10);
  });

  it('When the instances take a quiet key\'s hits in turn, then the count is exact: the limit\'s hits pass, the rest are refused', async () => {
    const [a, b] = dbs.map((db) => instance(db, 3));
    const key = `quiet-${Date.now()}`;

    const numbers = [];
    for (const store of [a.store, b.store, a.store, b.store, a.store]) numbers.push((await store.increment(key)).totalHits);

    expect(numbers.slice(0, 3)).toEqual([1, 2, 3]);
    expect(numbers.slice(3).every((n) => n > 3)).toBe(true);
  });
});
