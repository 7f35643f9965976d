/**
 * Test mode (docs/account.md#test-keys): the same use case, priced the same way, with the engines' network checks off
 * (no DNS, no SMTP, no live phone look-up: answers are the same every time) and a ledger that moves nothing, so that
 * `credits.charged` is 0, the balance is what it was, and the ledger holds no entry for the request.
 */
import type { CreditLedger } from '../billing/ledger.js';
import { type ContactLedger, ContactValidation, type Engines } from './validate-contact.js';

/** Reads the balance (an empty list of charges debits nothing and answers it), draws and refunds nothing. */
export function freeOfCharge(ledger: Pick<CreditLedger, 'debit'>): ContactLedger {
  return {
    debit: (accountId, _charges, requestId) => ledger.debit(accountId, [], requestId),
    refund: async () => 0,
    refundDraws: async () => 0,
  };
}

export function testModeValidation(offlineEngines: Engines, ledger: CreditLedger, budgetMs: number): ContactValidation {
  return new ContactValidation(offlineEngines, freeOfCharge(ledger), budgetMs);
}
