/**
 * POST /v1/validate/batch (docs/api.md#post-v1validatebatch): many contacts in one call, each with its `input_id`,
 * each charged once, the Idempotency-Key covering the whole call, a partial answer when some fail, 422 past 100.
 */
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../src/http/idempotency.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

const APPLEGATE = '6007 Applegate Ln, Louisville, KY 40219';
type Json = Record<string, any>;

describe.each(testDatabases)('POST /v1/validate/batch on $name', (database) => {
  const current = useTestService(database);
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });

  const contacts = [
    { input_id: 'a-1', address: APPLEGATE },
    { input_id: 'a-2', phone: '+1 502-713-4410' },
    { input_id: 'a-3', address: '1 Nowhere Blvd, Springfield, ZZ 00000', email: 'ann@gmial.com', options: { smtp: false } },
  ];

  it('When three contacts are sent, then each answer comes back in order under its input_id, as /v1/validate answers it, and each is charged once', async () => {
    const { apiKey, accountId } = await service.newAccount(20);

    const res = await service.post('/v1/validate/batch', { contacts }, { key: apiKey });

    expect(res.status).toBe(200);
    const body = await res.json() as Json;
    expect(body.results.map((r: Json) => r.input_id)).toEqual(['a-1', 'a-2', 'a-3']);
    expect(body.failed).toBe(0);
    const single = await (await service.post('/v1/validate', { address: APPLEGATE }, { key: apiKey })).json() as Json;
    expect(body.results[0]).toMatchObject({ next_action: single.next_action, address: single.address, email: null, phone: null, charged: 1, problem: null });
    expect(body.results[1]).toMatchObject({ next_action: 'accept', phone: { e164: '+15027134410' }, charged: 2 });
    expect(body.results[2]).toMatchObject({ next_action: 'fix', address: { status: 'invalid' }, email: { reason: 'typo' }, charged: 2 });
    expect(body.credits).toEqual({ charged: 5, remaining: 15 });
    expect(await service.ledger.balance(accountId)).toBe(15 - 1); // and the single call's address
  });

  it('When the same call is sent again with its Idempotency-Key, then the answer is replayed and nothing more is charged', async () => {
    const { apiKey, accountId } = await service.newAccount(20);
    const headers = { 'idempotency-key': 'batch-1' };

    const first = await service.post('/v1/validate/batch', { contacts }, { key: apiKey, headers });
    const second = await service.post('/v1/validate/batch', { contacts }, { key: apiKey, headers });
    const other = await service.post('/v1/validate/batch', { contacts: contacts.slice(1) }, { key: apiKey, headers });

    expect(first.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await second.text()).toBe(await first.text());
    expect((await problemOf(other)).type).toBe('/problems/idempotency-key-reused');
    expect(await service.ledger.balance(accountId)).toBe(15);
  });

  it('When a retry takes over a call cut off after some of its contacts were debited, then those contacts are not charged again', async () => {
    // Arrange: an attempt that claimed the key 10 s ago with a 1 s lease, debited the first contact and died.
    const { apiKey, accountId, keyId } = await service.newAccount(20);
    const raw = JSON.stringify({ contacts });
    const hash = crypto.createHash('sha256').update(raw).digest('hex');
    const dead = await new IdempotencyStore(service.db, 1_000, () => Date.now() - 10_000).begin({ accountId, keyId }, 'batch-2', hash);
    if (dead.replay) throw new Error('a new key replayed');
    await service.ledger.debit(accountId, [{ module: 'address', credits: 1 }], `${dead.claim.ledgerId}:0`);
    expect(await service.ledger.balance(accountId)).toBe(19);

    // Act
    const res = await service.post('/v1/validate/batch', raw, { key: apiKey, headers: { 'idempotency-key': 'batch-2' } });

    // Assert: 5 credits in all, the first contact's one drawn by the dead attempt.
    const body = await res.json() as Json;
    expect(res.status).toBe(200);
    expect(body.results.map((r: Json) => r.charged)).toEqual([1, 2, 2]);
    expect(await service.ledger.balance(accountId)).toBe(15);
  });

  it('When the credits run out part way, then the contacts past them get an insufficient-credits problem in their place and are not charged', async () => {
    const { apiKey, accountId } = await service.newAccount(2);
    const four = ['p-1', 'p-2', 'p-3', 'p-4'].map((input_id) => ({ input_id, address: APPLEGATE }));

    const res = await service.post('/v1/validate/batch', { contacts: four }, { key: apiKey });

    expect(res.status).toBe(200);
    const body = await res.json() as Json;
    expect(body.failed).toBe(2);
    const failed = body.results.filter((r: Json) => r.problem);
    expect(failed).toHaveLength(2);
    for (const r of failed) {
      expect(r).toMatchObject({ next_action: null, address: null, charged: 0 });
      expect(r.problem).toMatchObject({ type: '/problems/insufficient-credits', status: 402, title: expect.any(String), balance: 0, required: 1 });
    }
    expect(body.credits).toEqual({ charged: 2, remaining: 0 });
    expect(await service.ledger.balance(accountId)).toBe(0);
  });

  it('When 101 contacts are sent, then 422 too-many-contacts and nothing is charged', async () => {
    const { apiKey, accountId } = await service.newAccount(200);
    const many = Array.from({ length: 101 }, (_, i) => ({ input_id: `m-${i}`, address: APPLEGATE }));

    const res = await service.post('/v1/validate/batch', { contacts: many }, { key: apiKey });

    expect(res.status).toBe(422);
    expect(await problemOf(res)).toMatchObject({ type: '/problems/too-many-contacts', max_contacts: 100 });
    expect(await service.ledger.balance(accountId)).toBe(200);
  });

  it('When an input_id repeats or a contact names no module, then 400 naming the field, and nothing is charged', async () => {
    const { apiKey, accountId } = await service.newAccount(10);

    const twice = await service.post('/v1/validate/batch', { contacts: [contacts[0], contacts[0]] }, { key: apiKey });
    const empty = await service.post('/v1/validate/batch', { contacts: [{ input_id: 'x' }] }, { key: apiKey });

    expect(twice.status).toBe(400);
    expect((await problemOf(twice)).errors).toEqual([{ field: 'contacts', message: 'each input_id once' }]);
    expect(empty.status).toBe(400);
    expect((await problemOf(empty)).errors).toEqual([{ field: 'contacts.0', message: 'name at least one of address, email, phone' }]);
    expect(await service.ledger.balance(accountId)).toBe(10);
  });

  it('When 100 contacts fill a body over 16 KiB, then they are taken; a body over 1 MiB is 413 contacts-too-large', async () => {
    const { apiKey } = await service.newAccount(200);
    const hundred = Array.from({ length: 100 }, (_, i) => ({ input_id: `order-${String(i).padStart(6, '0')}`, address: `${6000 + i} Applegate Ln, Louisville, KY 40219` }));
    const padded = hundred.map((c) => ({ ...c, email: `${'x'.repeat(64)}@example.org` }));

    const ok = await service.post('/v1/validate/batch', { contacts: padded }, { key: apiKey });
    const big = await service.post('/v1/validate/batch', { contacts: [{ input_id: 'b', address: 'x'.repeat(1024 * 1024) }] }, { key: apiKey });

    expect(JSON.stringify({ contacts: padded }).length).toBeGreaterThan(16 * 1024);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Json).results).toHaveLength(100);
    expect(big.status).toBe(413);
    expect((await problemOf(big)).type).toBe('/problems/contacts-too-large');
  });
});
