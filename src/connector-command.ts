/**
 * `cli connectors add|list|run|check` (docs/connectors.md). `run` works one sync in the foreground, its progress on stderr and the
 * run as JSON on stdout; the connector's run lease keeps it from running beside a service's scheduled run.
 */
import fs from 'node:fs';
import { Slots, TurnGate } from './bulk/process-records.js';
import type { Config } from './config.js';
import type { Database } from './db/data-source.js';
import { createLogger } from './log.js';
import { openBilling, openEngines, openSync } from './service.js';
import { runView } from './sync/connectors.js';
import { ContactValidation } from './contact-check/validate-contact.js';

export class ConnectorCommandError extends Error {
  constructor(readonly kind: string, message: string) {
    super(message);
  }
}

export async function runConnectorCommand(
  config: Config, db: Database, action: string, args: { account?: string; file?: string; connector?: string },
) {
  const logger = createLogger('silent');
  const { ledger, accounts } = await openBilling(config, db);
  // Engines are loaded only to run: adding and listing need none.
  const lazyValidation = { validate: () => { throw new Error('not loaded'); } } as unknown as ContactValidation;
  if (action === 'add') {
    await accounts.get(args.account!);
    const body = JSON.parse(fs.readFileSync(args.file!, 'utf8')) as unknown;
    return openSync(config, db, lazyValidation, ledger, logger, { slots: new Slots(1), gate: new TurnGate(1) }).connectors.create(args.account!, body);
  }
  if (action === 'list') {
    await accounts.get(args.account!);
    return { connectors: await openSync(config, db, lazyValidation, ledger, logger, { slots: new Slots(1), gate: new TurnGate(1) }).connectors.list(args.account!) };
  }
  if (action === 'check') {
    const sync = openSync(config, db, lazyValidation, ledger, logger, { slots: new Slots(1), gate: new TurnGate(1) });
    const connector = await sync.store.get(args.connector!);
    if (!connector) throw new ConnectorCommandError('not_found', `no connector ${args.connector}`);
    return sync.runs.check(connector);
  }
  const engines = await openEngines({ ...config, referenceReloadMs: 0 }, db, logger);
  try {
    const validation = new ContactValidation(engines, ledger, config.validationBudgetMs);
    const sync = openSync(config, db, validation, ledger, logger, { slots: new Slots(config.batch.overall), gate: new TurnGate(64) });
    const connector = await sync.store.get(args.connector!);
    if (!connector) throw new ConnectorCommandError('not_found', `no connector ${args.connector}`);
    const started = await sync.runs.start(connector, 'cli', (c) => {
      process.stderr.write(`read ${c.records_read} | validated ${c.records_validated} | written ${c.records_written} | skipped ${c.records_skipped} | failed ${c.records_failed} | credits ${c.credits_charged}\n`);
    });
    if (!started) throw new ConnectorCommandError('connector_busy', 'a run of this connector is in progress');
    await started.done;
    return runView((await sync.store.getRun(started.runId))!);
  } finally {
    await engines.close();
  }
}
