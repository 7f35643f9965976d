/**
 * Runs one command of the table on the database DATABASE_URL names (migrated first, as the service does), and names
 * the kind of a failure for the JSON error. Imported only once the command line names a command. The settings are the
 * service's: the environment, over `.env` (or ENV_FILE).
 */
import { BatchRejected } from '../batches/batches.js';
import { InvalidArgumentError, NotFoundError } from '../billing/accounts.js';
import { openBilling } from '../billing/open-billing.js';
import { loadConfig, loadEnvironmentFile } from '../config.js';
import { Database } from '../db/data-source.js';
import { ConnectorInvalid } from '../sync/connectors.js';
import type { Command, Options } from './commands.js';

export async function runCommand(command: Command, options: Options, files: string[]): Promise<unknown> {
  loadEnvironmentFile();
  const config = loadConfig();
  const db = await Database.open(config.databaseUrl);
  try {
    const { accounts } = await openBilling(config, db);
    return await command.run({ config, db, accounts, options, files });
  } finally {
    await db.close();
  }
}

/** The `error` field of a failed command's answer (other than a usage error). */
export function errorKind(err: Error): string {
  return err instanceof NotFoundError ? 'not_found'
    : err instanceof InvalidArgumentError || err instanceof ConnectorInvalid ? 'invalid_argument'
      : err instanceof BatchRejected ? 'invalid_csv'
        : (err as { kind?: string }).kind ?? 'error';
}
