/** The ledger and the accounts over one database, as the service and the command line both open them. */
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';
import { Accounts } from './accounts.js';
import { CreditLedger } from './ledger.js';

export async function openBilling(config: Config, db: Database) {
  const ledger = new CreditLedger(db);
  const accounts = new Accounts(db, ledger, { freeCredits: config.credits.free, packPrices: config.credits.packPrices });
  return { ledger, accounts };
}
