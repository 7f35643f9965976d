/**
 * Two instances on one PostgreSQL behind nginx (Debian's nginx-light), as docs/operations.md runs them: the credits,
 * idempotency keys, revocations and rate limits are the fleet's, not each instance's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { NGINX, startNginx, type Nginx } from '../support/fleet.js';
import { binary, POSTGRES_SERVER, prerequisites } from '../support/prerequisites.js';
import { databaseUrlOf, startTestService, type TestService } from '../support/service.js';

const postgres = testDatabases.find((d) => d.name === 'postgres');
const RATE_LIMIT = 50;

const validate = (base: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/v1/validate`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
  });

const SUITE = 'two instances behind nginx';

describe.runIf(prerequisites(SUITE, POSTGRES_SERVER, binary(NGINX, 'apt-get install nginx-light; .ci/run installs it')))(SUITE, () => {
  let one: TestService;
  let two: TestService;
  let nginx: Nginx | undefined;
  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) };
    one = await startTestService(await postgres!.create(), env);
    two = await startTestService(databaseUrlOf(one), env);
    nginx = await startNginx([new URL(one.url).host, new URL(two.url).host]);
  });
  afterAll(async () => {
    await nginx?.close();
    await one?.close();
    await two?.close();
    await postgres!.dropAll();
  });

  it('When 2N requests race for N credits through both instances, then exactly N are answered and N credits spent', async () => {
    const N = 20;
    const { accountId, apiKey } = await one.newAccount(N);
    const answers = await Promise.all(Array.from({ length: 2 * N }, (_, i) =>
      validate(nginx!.url, apiKey, { address: `${100 + i} Main St, Louisville, KY 40219` })));
    const statuses = answers.map((r) => r.status);

    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    expect(statuses.filter((s) => s === 402)).toHaveLength(N);
    expect(await two.ledger.balance(accountId)).toBe(0);
  });

  it('When one Idempotency-Key reaches both instances at once, then it is charged once', async () => {
    const { accountId, apiKey } = await one.newAccount(10);
    const body = { address: '6007 Applegate Ln, Louisville, KY 40219' };
    const headers = { 'idempotency-key': 'fleet-same-key' };
    const [a, b] = await Promise.all([validate(one.url, apiKey, body, headers), validate(two.url, apiKey, body, headers)]);
    // The one that lost the race was told to retry (409 in flight) or got the first answer again; a retry replays it.
    const retried = await validate(two.url, apiKey, body, headers);

    expect([a.status, b.status].every((s) => s === 200 || s === 409)).toBe(true);
    expect(retried.status).toBe(200);
    expect(await one.ledger.balance(accountId)).toBe(9);
  });

  it('When a key is revoked through one instance, then the other refuses it within two seconds', async () => {
    const { apiKey, keyId } = await one.newAccount(100);
    expect((await validate(two.url, apiKey, { email: 'a@example.com' })).status).toBe(200); // cached as valid on two
    const revoked = await fetch(`${one.url}/v1/keys/${keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    const started = performance.now();
    let status = 200;
    while (status === 200 && performance.now() - started < 5_000) {
      status = (await validate(two.url, apiKey, { email: 'a@example.com' })).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }

    expect(revoked.status).toBe(200);
    expect(status).toBe(401);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('When one key sends more than its rate limit through both instances, then the limit holds for the pair', async () => {
    const { apiKey } = await one.newAccount(1_000);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i++) statuses.push((await validate(nginx!.url, apiKey, { email: `r${i}@example.com` })).status);

    expect(statuses.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});
