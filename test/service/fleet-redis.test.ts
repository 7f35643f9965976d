/**
 * REDIS_URL (docs/operations.md): two instances on one PostgreSQL count each key's requests in one redis-server
 * (Debian's, started by the test on a free loopback port), through rate-limit-redis, so that the limit holds for the
 * pair; and when Redis goes away the requests go on, uncounted, instead of failing.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { REDIS_SERVER, startRedis, type Redis } from '../support/fleet.js';
import { binary, POSTGRES_SERVER, prerequisites } from '../support/prerequisites.js';
import { databaseUrlOf, startTestService, type TestService } from '../support/service.js';

const postgres = testDatabases.find((d) => d.name === 'postgres');
const RATE_LIMIT = 30;

const validate = (base: string, key: string, i: number) => fetch(`${base}/v1/validate`, {
  method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ email: `r${i}@example.com` }),
});

const SUITE = 'two instances counting in one Redis';

describe.runIf(prerequisites(SUITE, POSTGRES_SERVER, binary(REDIS_SERVER, 'apt-get install redis-server; .ci/run installs it')))(SUITE, () => {
  let redis: Redis | undefined;
  let one: TestService | undefined;
  let two: TestService | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    const env = { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), REDIS_URL: redis.url };
    one = await startTestService(await postgres!.create(), env);
    two = await startTestService(databaseUrlOf(one), env);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await redis?.close();
    await postgres!.dropAll();
  });

  it('When one key sends more than its rate limit to both instances in turn, then the limit holds for the pair, counted in Redis', async () => {
    const { apiKey, keyId } = await one!.newAccount(1_000);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) statuses.push((await validate(i % 2 ? two!.url : one!.url, apiKey, i)).status);
    const inDatabase = await one!.db.all(`SELECT bucket FROM rate_limit_counters WHERE bucket LIKE 'rl:%'`);
    const client = createClient({ url: redis!.url });
    await client.connect();
    const counted = await client.get(`cv:rl:${keyId}`);
    await client.close();

    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(0, RATE_LIMIT).every((s) => s === 200)).toBe(true);
    expect(Number(counted)).toBe(RATE_LIMIT + 10);
    expect(inDatabase).toEqual([]);
  });

  it('When Redis goes away, then requests are served uncounted rather than failed', async () => {
    const { apiKey } = await one!.newAccount(1_000);
    await redis!.close();
    redis = undefined;

    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await validate(i % 2 ? two!.url : one!.url, apiKey, i)).status);

    expect(statuses).toEqual([200, 200, 200, 200]);
  });
});
