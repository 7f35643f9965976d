import { beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { IdempotencyStore } from '../../src/http/idempotency.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

describe.each(testDatabases)('Idempotency-Key on $name', (database) => {
  const current = useTestService(database);
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });

  const body = { phone: '+14155550123' };

  it('When the same key and body are sent again, then the stored answer is replayed and nothing more is charged', async () => {
    const { apiKey, accountId } = await service.newAccount(10);
    const headers = { 'idempotency-key': 'order-1001' };

    const first = await service.post('/v1/validate', body, { key: apiKey, headers });
    const second = await service.post('/v1/validate', body, { key: apiKey, headers });

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.text()).toBe(await first.text());
    expect(await service.ledger.balance(accountId)).toBe(8);
  });

  it('When the key is sent as a structured-field string, then it is the same key as the bare token', async () => {
    const { apiKey, accountId } = await service.newAccount(10);

    await service.post('/v1/validate', body, { key: apiKey, headers: { 'idempotency-key': '"abc-1"' } });
    const replay = await service.post('/v1/validate', body, { key: apiKey, headers: { 'idempotency-key': 'abc-1' } });

    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await service.ledger.balance(accountId)).toBe(8);
  });

  it('When the same key comes with another body, then 422 and nothing is charged', async () => {
    const { apiKey, accountId } = await service.newAccount(10);
    const headers = { 'idempotency-key': 'order-1002' };
    await service.post('/v1/validate', body, { key: apiKey, headers });

    const res = await service.post('/v1/validate', { phone: '+14155550124' }, { key: apiKey, headers });

    expect(res.status).toBe(422);
    expect((await problemOf(res)).type).toBe('/problems/idempotency-key-reused');
    expect(await service.ledger.balance(accountId)).toBe(8);
  });

  it('When the first request with the key is still in flight, then 409', async () => {
    const { apiKey, accountId, keyId } = await service.newAccount(10);
    const raw = JSON.stringify(body);
    // The first request has claimed the key and not finished.
    await new IdempotencyStore(service.db, 60_000).begin({ accountId, keyId }, 'order-1003', crypto.createHash('sha256').update(raw).digest('hex'));

    const res = await service.post('/v1/validate', raw, { key: apiKey, headers: { 'idempotency-key': 'order-1003' } });

    expect(res.status).toBe(409);
    expect((await problemOf(res)).type).toBe('/problems/idempotency-key-in-use');
    expect(await service.ledger.balance(accountId)).toBe(10);
  });

  it('When the first attempt\'s lease has lapsed, then of concurrent retries exactly one takes the record over, under its ledger id, and the dead attempt can no longer complete it', async () => {
    // Arrange: an attempt that claimed the key at t = 0 with a 1 s lease and never finished (its instance died).
    const { accountId, keyId } = await service.newAccount(10);
    let now = 1_000_000;
    const store = new IdempotencyStore(service.db, 1_000, () => now);
    const scope = { accountId, keyId };
    const dead = await store.begin(scope, 'order-1004', 'hash');
    if (dead.replay) throw new Error('a new key replayed');

    // Act: a retry within the lease; then four at once after it.
    now += 999;
    const early = await store.begin(scope, 'order-1004', 'hash').catch((err: unknown) => err);
    now += 2;
    const retries = await Promise.allSettled([1, 2, 3, 4].map(() => store.begin(scope, 'order-1004', 'hash')));
    await store.complete(scope, 'order-1004', dead.claim, 200, '{"dead":true}');

    // Assert
    expect(early).toMatchObject({ code: 'idempotency-key-in-use' });
    const won = retries.flatMap((r) => (r.status === 'fulfilled' && !r.value.replay ? [r.value.claim] : []));
    expect(won).toEqual([{ owner: expect.any(String), ledgerId: dead.claim.ledgerId, takenOver: true }]);
    expect(retries.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code))
      .toEqual(['idempotency-key-in-use', 'idempotency-key-in-use', 'idempotency-key-in-use']);
    const [row] = await service.db.all<{ state: string; owner: string }>(
      `SELECT state, owner FROM idempotency_records WHERE account_id = $1 AND idempotency_key = 'order-1004'`, [accountId],
    );
    expect(row).toEqual({ state: 'in_flight', owner: won[0].owner });
  });

  it('When two accounts use the same key, then each has its own answer', async () => {
    const a = await service.newAccount(10);
    const b = await service.newAccount(10);
    const headers = { 'idempotency-key': 'shared-key' };

    await service.post('/v1/validate', body, { key: a.apiKey, headers });
    const res = await service.post('/v1/validate', { email: 'x@y.co' }, { key: b.apiKey, headers });

    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect((await res.json() as any).phone).toBeNull();
  });

  it('When a secret key and a publishable key of one account send the same key, then each has its own answer', async () => {
    // Arrange: the secret key's answer (with the balance) is kept under a guessable order key.
    const { apiKey, accountId } = await service.newAccount(10);
    const origin = 'https://shop.example.com';
    const publishable = (await (await service.post('/v1/keys', { publishable: true, origins: [origin], phone: true }, { key: apiKey })).json() as any).api_key;
    const headers = { 'idempotency-key': 'order-2001' };
    const secret = await service.post('/v1/validate', body, { key: apiKey, headers });

    // Act: a store page sends the same key and body, then a different body.
    const fromPage = await service.post('/v1/validate', body, { key: publishable, headers: { ...headers, origin } });
    const other = await service.post('/v1/validate', { email: 'ann@example.com' }, { key: publishable, headers: { 'idempotency-key': 'order-2002', origin } });
    const secretAgain = await service.post('/v1/validate', { email: 'bob@example.com' }, { key: apiKey, headers: { 'idempotency-key': 'order-2002' } });

    // Assert: no replay across keys, the publishable answer never shows the balance, and nothing was pre-claimed.
    expect(secret.status).toBe(200);
    expect((await secret.json() as any).credits).toMatchObject({ remaining: expect.any(Number) });
    expect(fromPage.status).toBe(200);
    expect(fromPage.headers.get('idempotent-replayed')).toBeNull();
    expect((await fromPage.json() as any).credits).toBeNull();
    expect(other.status).toBe(200);
    expect(secretAgain.status).toBe(200);
    expect(secretAgain.headers.get('idempotent-replayed')).toBeNull();
    expect(await service.ledger.balance(accountId)).toBe(10 - 2 - 2);
  });

  it('When a request with a key fails, then the key is free again for a corrected retry', async () => {
    const { apiKey, accountId } = await service.newAccount(1);
    const headers = { 'idempotency-key': 'order-1004' };

    const refused = await service.post('/v1/validate', body, { key: apiKey, headers });
    await service.accounts.grantCredits(accountId, 5);
    const retried = await service.post('/v1/validate', body, { key: apiKey, headers });

    expect(refused.status).toBe(402);
    expect(retried.status).toBe(200);
  });

  it('When the key is not printable ASCII or too long, then 400', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', body, { key: apiKey, headers: { 'idempotency-key': 'x'.repeat(300) } });

    expect(res.status).toBe(400);
    expect((await problemOf(res)).type).toBe('/problems/invalid-header');
  });
});
