import { afterAll, describe, expect, it } from 'vitest';
import { CreditLedger } from '../../src/billing/ledger.js';
import { Database } from '../../src/db/data-source.js';
import { LedgerModuleColumns1763830000000 } from '../../migrations/1763830000000-LedgerModuleColumns.js';
import { testDatabases } from '../support/databases.js';

const DAY = 86_400_000;

describe.each(testDatabases)('the ledger entries split by module (migration LedgerModuleColumns), on $name', (database) => {
  afterAll(() => database.dropAll());

  async function withOldLedger(work: (db: Database, ledger: CreditLedger) => Promise<void>): Promise<void> {
    const db = await Database.open(await database.create());
    try {
      const now = Date.now();
      await db.run(`INSERT INTO accounts (id, name, created_at) VALUES ('acct_old', 'old', $1)`, [now]);
      await db.run(
        `INSERT INTO credit_grants (id, account_id, kind, credits, remaining, created_at, expires_at)
         VALUES ('grant_old', 'acct_old', 'admin', 10, 4, $1, $2)`, [now, now + 365 * DAY]);
      // As the ledger wrote them before the migration: one entry per module.
      const runner = db.dataSource.createQueryRunner();
      try {
        await new LedgerModuleColumns1763830000000().down(runner);
        for (const [kind, credits, module] of [['grant', 10, null], ['debit', -1, 'address'], ['debit', -2, 'phone'], ['debit', -1, 'email'],
          ['refund', 1, 'email'], ['debit', -3, 'address']] as const) {
          await db.run(
            `INSERT INTO ledger_entries (account_id, grant_id, kind, credits, module, request_id, created_at)
             VALUES ('acct_old', 'grant_old', $1, $2, $3, $4, $5)`,
            [kind, credits, module, kind === 'grant' ? null : credits === -3 ? 'req_2' : 'req_1', now],
          );
        }
        await new LedgerModuleColumns1763830000000().up(runner);
      } finally {
        await runner.release();
      }
      await work(db, new CreditLedger(db));
    } finally {
      await db.close();
    }
  }

  it('When entries were written one per module, then usage reads the same after the migration and a refund gives back only what is due', async () => {
    await withOldLedger(async (db, ledger) => {
      expect(await ledger.usage('acct_old', 0)).toEqual({
        address: { requests: 2, credits: 4 }, email: { requests: 1, credits: 0 }, phone: { requests: 1, credits: 2 },
      });
      // req_1's e-mail was refunded already: its address and phone are what is left to give back.
      expect(await ledger.refund('acct_old', 'req_1')).toBe(3);
      expect(await ledger.refund('acct_old', 'req_1')).toBe(0);
      expect(await ledger.balance('acct_old')).toBe(7);
      const sum = await db.all<{ total: number | string }>(`SELECT SUM(credits) AS total FROM ledger_entries WHERE account_id = 'acct_old'`);
      expect(Number(sum[0].total)).toBe(7);
    });
  });

  it('When a debit draws for three modules, then it is one entry per grant; undoing the migration splits it back into one per module', async () => {
    await withOldLedger(async (db, ledger) => {
      const debit = await ledger.debit('acct_old', [{ module: 'address', credits: 1 }, { module: 'email', credits: 1 }, { module: 'phone', credits: 2 }], 'req_3');
      expect(debit).toMatchObject({ ok: true, charged: 4, remaining: 0 });
      const rows = await db.all<Record<string, number | string>>(
        `SELECT credits, address_credits, email_credits, phone_credits FROM ledger_entries WHERE request_id = 'req_3'`);
      expect(rows.map((r) => Object.values(r).map(Number))).toEqual([[-4, -1, -1, -2]]);

      const runner = db.dataSource.createQueryRunner();
      try {
        await new LedgerModuleColumns1763830000000().down(runner);
        const split = await db.all(`SELECT module, credits FROM ledger_entries WHERE request_id = 'req_3' ORDER BY module`);
        expect(split.map((r) => [r.module, Number(r.credits)])).toEqual([['address', -1], ['email', -1], ['phone', -2]]);
        const total = await db.all<{ total: number | string }>(`SELECT SUM(credits) AS total FROM ledger_entries WHERE account_id = 'acct_old'`);
        expect(Number(total[0].total)).toBe(0);
        await new LedgerModuleColumns1763830000000().up(runner);
      } finally {
        await runner.release();
      }
    });
  });
});
