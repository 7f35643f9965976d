/**
 * A unit of work charged once however often it is attempted (a bulk record, a connector's record), and what each
 * attempt moved in the ledger: what a connector run reports as its `credits_charged` (docs/connectors.md).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ContactValidation, type Engines } from '../../src/contact-check/validate-contact.js';
import { createLogger } from '../../src/log.js';
import type { EmailResult } from '../../src/validation/types.js';
import { testDatabases } from '../support/databases.js';
import { useTestService, type TestService } from '../support/service.js';

const log = createLogger('silent');

const emailAnswer = (status: 'valid' | 'unknown'): EmailResult => ({
  status, risk: status === 'valid' ? 'low' : 'unknown', smtp: status === 'valid' ? 'deliverable' : 'unknown',
  reason: status === 'valid' ? 'accepted' : 'timeout', normalized: 'ann@example.com', suggestion: null,
  disposable: false, role: false, free: false,
} as EmailResult);

/** Engines for an e-mail alone, answering in turn what `answers` lists (the mailbox conclusive, then not). */
function engines(answers: ('valid' | 'unknown')[]): Engines {
  const never = () => { throw new Error('not asked in this test'); };
  return {
    address: { validate: never } as unknown as Engines['address'],
    phone: { validate: never } as unknown as Engines['phone'],
    email: { validate: async () => emailAnswer(answers.shift() ?? 'valid'), offlineAnswer: () => null },
  };
}

describe.each(testDatabases)('a unit of work charged once, on $name', (database) => {
  const current = useTestService(database);
  let service: TestService;
  beforeAll(() => {
    service = current();
  });

  it('When the same key is debited once twice, then the second draws nothing and says it repeated the first', async () => {
    const { accountId } = await service.newAccount(10);
    const charges = [{ module: 'email' as const, credits: 1 }, { module: 'phone' as const, credits: 2 }];

    const first = await service.ledger.debit(accountId, charges, 'job_1:row_1', { once: true });
    const second = await service.ledger.debit(accountId, charges, 'job_1:row_1', { once: true });

    expect(first).toMatchObject({ ok: true, charged: 3, repeated: false });
    expect(second).toMatchObject({ ok: true, charged: 3, repeated: true });
    expect(await service.ledger.balance(accountId)).toBe(7);
  });

  it('When an attempt after the first is refunded its unknown e-mail, then it says it moved that refund only, and the attempts add up to the ledger', async () => {
    const { accountId } = await service.newAccount(10);
    const validation = new ContactValidation(engines(['valid', 'unknown']), service.ledger, 1000);
    const input = { email: 'ann@example.com', smtp: true };

    const first = await validation.validate(accountId, 'conn_1:Contact:1', input, Date.now(), log, { chargeOnce: true });
    const again = await validation.validate(accountId, 'conn_1:Contact:1', input, Date.now(), log, { chargeOnce: true });
    const [moved] = await service.db.all<{ spent: number | string }>(
      `SELECT SUM(-credits) AS spent FROM ledger_entries WHERE request_id = $1`, ['conn_1:Contact:1']);

    expect(first).toMatchObject({ credits: { charged: 1 }, chargedNow: 1 });
    // The record as it stands is paid nothing (its e-mail unknown); this attempt gave back the earlier debit.
    expect(again).toMatchObject({ credits: { charged: 0 }, chargedNow: -1 });
    expect(first.chargedNow + again.chargedNow).toBe(Number(moved.spent));
    expect(await service.ledger.balance(accountId)).toBe(10);
  });

  it('When a request is not charged once, then what it moved is what it charged', async () => {
    const { accountId } = await service.newAccount(10);
    const validation = new ContactValidation(engines(['unknown']), service.ledger, 1000);

    const answer = await validation.validate(accountId, 'req_1', { email: 'ann@example.com', smtp: true }, Date.now(), log);

    expect(answer).toMatchObject({ credits: { charged: 0, remaining: 10 }, chargedNow: 0 });
  });
});
