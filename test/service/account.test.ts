import { beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../../src/billing/accounts.js';
import { CreditLedger } from '../../src/billing/ledger.js';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, problemOf, useTestService, type TestService } from '../support/service.js';

describe.each(testDatabases)('accounts and keys on $name', (database) => {
  const current = useTestService(database, { FREE_CREDITS: '100' });
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });

  it('When an account is created, then it has 100 free credits valid a year and a key shown once', async () => {
    const created = await service.accounts.create('New user');

    expect(created.balance).toBe(100);
    expect(created.api_key).toMatch(/^cv_live_[0-9A-Za-z]{38}$/);
    const stored = await service.db.all<{ key_hash: string; display_prefix: string }>(
      `SELECT key_hash, display_prefix FROM api_keys WHERE account_id = $1`, [created.account_id]);
    expect(stored[0].key_hash).not.toContain(created.api_key);
    expect(stored[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(created.api_key.startsWith(stored[0].display_prefix)).toBe(true);
  });

  it('When GET /v1/account is called, then it shows balance, grants with expiry, usage per module and keys', async () => {
    const { api_key } = await service.accounts.create('Reader');
    await service.post('/v1/validate', { phone: '+14155550123' }, { key: api_key });

    const res = await service.get('/v1/account', api_key);

    expect(res.status).toBe(200);
    const account = await res.json() as any;
    expect(account.balance).toBe(98);
    expect(account.grants).toEqual([expect.objectContaining({ kind: 'free', credits: 100, remaining: 98, expires_at: expect.any(String) })]);
    expect(account.usage).toMatchObject({ window_days: 30, phone: { requests: 1, credits: 2 }, email: { requests: 0, credits: 0 } });
    expect(account.keys).toHaveLength(1);
    expect(JSON.stringify(account)).not.toContain(api_key);
  });

  it('When keys are created, listed and revoked through the API, then the revoked key stops working', async () => {
    const { api_key } = await service.accounts.create('Rotator');

    const created = await (await service.post('/v1/keys', {}, { key: api_key })).json() as any;
    const listed = await (await service.get('/v1/keys', api_key)).json() as any;
    const revoked = await fetch(`${service.url}/v1/keys/${created.key_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${api_key}` } });
    const afterwards = await service.get('/v1/account', created.api_key);

    expect(listed.keys).toHaveLength(2);
    expect(revoked.status).toBe(200);
    expect((await revoked.json() as any).revoked_at).toEqual(expect.any(String));
    expect(afterwards.status).toBe(401);
  });

  it('When a key is revoked by another process (the CLI), then it stops working: within milliseconds on SQLite, a second on PostgreSQL', async () => {
    const { api_key, key_id } = await service.accounts.create('Revoked elsewhere');
    const before = await service.get('/v1/account', api_key); // the key is now remembered by the service
    const cliDb = await Database.open(databaseUrlOf(service), { migrate: false });
    try {
      const cliLedger = new CreditLedger(cliDb);
      await new Accounts(cliDb, cliLedger, { freeCredits: 0, packPrices: new Map() }).revokeKey(key_id);
    } finally {
      await cliDb.close();
    }
    // SQLite: the service notices another connection's write within 5 ms; PostgreSQL: its key cache lives 1 s.
    // Asked until then, with room for a loaded machine.
    const status = async () => (await service.get('/v1/account', api_key)).status;

    expect(before.status).toBe(200);
    await expect.poll(status, { timeout: database.name === 'postgres' ? 2_500 : 500, interval: 10 }).toBe(401);
  });

  it("When one tenant tries to revoke another tenant's key, then it is not found and the key keeps working", async () => {
    const alice = await service.accounts.create('Alice');
    const bob = await service.accounts.create('Bob');

    const res = await fetch(`${service.url}/v1/keys/${bob.key_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${alice.api_key}` } });

    expect(res.status).toBe(404);
    await problemOf(res);
    expect((await service.get('/v1/account', bob.api_key)).status).toBe(200);
    const aliceView = await (await service.get('/v1/account', alice.api_key)).json() as any;
    expect(JSON.stringify(aliceView)).not.toContain(bob.account_id);
  });
});

describe.each(testDatabases)('usage per day on $name', (database) => {
  const service = useTestService(database);

  it('When an account has validated, then /v1/usage counts each module and the credits per day, zeros elsewhere', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    await s.post('/v1/validate', { address: '6007 Applegate Ln, Louisville, KY 40219', phone: '+1 502 713 4410' }, { key: apiKey });
    await s.post('/v1/validate', { phone: '+1 502 713 4411' }, { key: apiKey });
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

    const usage = (await (await s.get(`/v1/usage?from=${yesterday}&to=${today}`, apiKey)).json()) as { days: unknown[] };
    const fallback = (await (await s.get('/v1/usage', apiKey)).json()) as { days: unknown[] };
    const bad = await s.get('/v1/usage?from=2026-02-30', apiKey);

    expect(usage.days).toEqual([
      { date: yesterday, address: 0, email: 0, phone: 0, credits: 0 },
      { date: today, address: 1, email: 0, phone: 2, credits: 1 + 2 + 2 },
    ]);
    expect(fallback.days).toHaveLength(30);
    expect(bad.status).toBe(400);
  });
});
