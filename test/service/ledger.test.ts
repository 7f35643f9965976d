import dgram from 'node:dgram';
import { beforeAll, describe, expect, it } from 'vitest';
import { CreditLedger, planDraws } from '../../src/billing/ledger.js';
import { DAY_MS } from '../../src/billing/pricing.js';
import { Accounts } from '../../src/billing/accounts.js';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, startTestService, useTestService, type TestService } from '../support/service.js';

describe('planDraws', () => {
  it('When grants are listed earliest expiry first, then the charge drains them in that order', () => {
    expect(planDraws([{ id: 'a', remaining: 1 }, { id: 'b', remaining: 5 }], [{ module: 'phone', credits: 3 }])).toEqual([
      { grantId: 'a', module: 'phone', credits: 1 },
      { grantId: 'b', module: 'phone', credits: 2 },
    ]);
  });
  it('When the grants do not cover every charge, then nothing is drawn', () => {
    expect(planDraws([{ id: 'a', remaining: 2 }], [{ module: 'email', credits: 1 }, { module: 'phone', credits: 2 }])).toBeNull();
  });
});

describe.each(testDatabases)('the credit ledger on $name', (database) => {
  const current = useTestService(database);
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });

  it('When 2N requests race for N credits, then exactly N are served, N get 402, and the balance ends at 0', async () => {
    const n = 40;
    const { apiKey, accountId } = await service.newAccount(n);

    const responses = await Promise.all(
      Array.from({ length: 2 * n }, () => service.post('/v1/validate', { address: '1 Main St, Springfield, IL 62701' }, { key: apiKey })),
    );

    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(n);
    expect(statuses.filter((s) => s === 402)).toHaveLength(n);
    expect((await service.accounts.credits(accountId)).balance).toBe(0);
    const entries = await service.db.all<{ total: number | string }>(
      `SELECT SUM(credits) AS total FROM ledger_entries WHERE account_id = $1`, [accountId]);
    expect(Number(entries[0].total)).toBe(0); // granted N, debited N: no credit counted twice
  });

  it('When another process grants credits while the service runs, then they are spendable at once', async () => {
    const { apiKey, accountId } = await service.newAccount(2);
    const first = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey }); // 2 credits: now 0
    const cliDb = await Database.open(databaseUrlOf(service), { migrate: false });
    try {
      await new CreditLedger(cliDb).grant(accountId, { kind: 'admin', credits: 5, expiresAt: Date.now() + DAY_MS });
    } finally {
      await cliDb.close();
    }

    const second = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey });

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect((await second.json() as any).credits).toEqual({ charged: 2, remaining: 3 });
  });

  it('When two service instances share the database, then the debit is still atomic across them', async () => {
    const other = await startTestService(databaseUrlOf(service));
    try {
      const n = 20;
      const { apiKey, accountId } = await service.newAccount(n);
      const responses = await Promise.all(
        Array.from({ length: 2 * n }, (_, i) =>
          (i % 2 ? other : service).post('/v1/validate', { address: '1 Main St, Springfield, IL 62701' }, { key: apiKey })),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(n);
      expect(responses.filter((r) => r.status === 402)).toHaveLength(n);
      expect((await service.accounts.credits(accountId)).balance).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('When several grants exist, then the debit draws from the one that expires first', async () => {
    const { accountId, apiKey } = await service.newAccount(0);
    const late = await service.accounts.grantCredits(accountId, 10, 300);
    const early = await service.accounts.grantCredits(accountId, 2, 10);

    await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey });
    await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey });

    const grants = (await service.accounts.credits(accountId)).grants;
    expect(grants.find((g) => g.id === early.id)!.remaining).toBe(0);
    expect(grants.find((g) => g.id === late.id)!.remaining).toBe(8);
  });

  it('When a grant has expired, then its credits are not spendable and an expire entry is written', async () => {
    let now = Date.now();
    const ledger = new CreditLedger(service.db, () => now);
    const accounts = new Accounts(service.db, ledger, { freeCredits: 0, packPrices: new Map() }, () => now);
    const { account_id } = await accounts.create('expiring');
    await ledger.grant(account_id, { kind: 'admin', credits: 5, expiresAt: now + DAY_MS });

    now += DAY_MS + 1;

    expect(await ledger.balance(account_id)).toBe(0);
    expect(await ledger.debit(account_id, [{ module: 'email', credits: 1 }], 'r1')).toEqual({ ok: false, balance: 0, required: 1 });
    const expired = await service.db.all<{ credits: number | string }>(
      `SELECT credits FROM ledger_entries WHERE account_id = $1 AND kind = 'expire'`, [account_id]);
    expect(expired.map((e) => Number(e.credits))).toEqual([-5]);
    expect((await accounts.credits(account_id)).grants[0]).toMatchObject({ expired: true, remaining: 0 });
  });

  it('When one movement of a group commit fails, then the others in the same commit still happen', async () => {
    const { accountId } = await service.newAccount(0);

    const [bad, good] = await Promise.allSettled([
      service.ledger.grant('acct_does_not_exist', { kind: 'admin', credits: 5, expiresAt: Date.now() + DAY_MS }),
      service.ledger.grant(accountId, { kind: 'admin', credits: 5, expiresAt: Date.now() + DAY_MS }),
    ]);

    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
    expect(await service.ledger.balance(accountId)).toBe(5);
    const orphans = await service.db.all(`SELECT id FROM credit_grants WHERE account_id = $1`, ['acct_does_not_exist']);
    expect(orphans).toHaveLength(0);
  });

  it('When a request is refunded twice, then the credits come back once', async () => {
    const { accountId } = await service.newAccount(10);
    await service.ledger.debit(accountId, [{ module: 'email', credits: 1 }, { module: 'phone', credits: 2 }], 'req-refund');

    const first = await service.ledger.refund(accountId, 'req-refund', ['email']);
    const second = await service.ledger.refund(accountId, 'req-refund', ['email']);

    expect([first, second]).toEqual([1, 0]);
    expect(await service.ledger.balance(accountId)).toBe(8);
  });

  it('When the e-mail answer is unknown (resolver unreachable), then the e-mail credit is refunded', async () => {
    // A resolver that never answers: the e-mail check cannot conclude within the budget.
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
    const dnsPort = (silent.address() as { port: number }).port;
    const withDns = await startTestService(databaseUrlOf(service), {
      EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: `127.0.0.1:${dnsPort}`, VALIDATION_BUDGET_MS: '400',
    });
    try {
      const { apiKey, accountId } = await withDns.newAccount(5);

      const body = await (await withDns.post('/v1/validate', { email: 'someone@unreachable-resolver.test' }, { key: apiKey })).json() as any;

      expect(body.email.status).toBe('unknown');
      expect(body.credits).toEqual({ charged: 0, remaining: 5 });
      expect(await withDns.ledger.balance(accountId)).toBe(5);
    } finally {
      await withDns.close();
      silent.close();
    }
  });

  it('When network checks are off, then an e-mail known to be unknown is never charged (no debit and refund pair), a syntax error is', async () => {
    const { apiKey, accountId } = await service.newAccount(5);

    const unknown = await (await service.post('/v1/validate', { email: 'someone@example.com' }, { key: apiKey })).json() as any;
    const malformed = await (await service.post('/v1/validate', { email: 'someone@@example.com' }, { key: apiKey })).json() as any;

    expect(unknown.email).toMatchObject({ status: 'unknown', reason: 'not_checked' });
    expect(unknown.credits).toEqual({ charged: 0, remaining: 5 });
    expect(malformed.email.status).toBe('invalid');
    expect(malformed.credits).toEqual({ charged: 1, remaining: 4 });
    const movements = await service.db.all<Record<string, number | string>>(
      `SELECT kind, credits, address_credits, email_credits, phone_credits FROM ledger_entries WHERE account_id = $1 AND kind <> 'grant'`,
      [accountId]);
    expect(movements.map((m) => [m.kind, Number(m.credits), Number(m.address_credits), Number(m.email_credits), Number(m.phone_credits)]))
      .toEqual([['debit', -1, 0, -1, 0]]);
  });

  it('When a pack is bought, then it is valid 365 days and priced from configuration', async () => {
    const { accountId } = await service.newAccount(0);

    const grant = await service.accounts.buyPack(accountId, 20000);

    expect(grant).toMatchObject({ kind: 'pack', credits: 20000, remaining: 20000, price_usd: 80 });
    const days = (Date.parse(grant.expires_at) - Date.parse(grant.created_at)) / DAY_MS;
    expect(Math.round(days)).toBe(365);
    await expect(service.accounts.buyPack(accountId, 12345)).rejects.toThrow(/no pack/);
  });
});

describe('falling pack prices', () => {
  it('When the default packs are listed, then the price per credit falls with each tier', async () => {
    const { listPacks } = await import('../../src/billing/pricing.js');
    const { loadConfig } = await import('../../src/config.js');
    const packs = listPacks(loadConfig({}).credits.packPrices);
    expect(packs.map((p) => p.size)).toEqual([20000, 50000, 100000, 250000, 500000]);
    for (let i = 1; i < packs.length; i++) expect(packs[i].pricePerCredit).toBeLessThan(packs[i - 1].pricePerCredit);
  });
});
