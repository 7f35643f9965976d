/**
 * `cli connectors add|list|run|check` (docs/connectors.md). `run` works one sync in the foreground, its progress on stderr and the
 * run as JSON on stdout; the run is a job of the job engine, worked in this process, whose lock keeps it from running
 * beside a service's scheduled run.
 */
import fs from 'node:fs';
import type { Config } from './config.js';
import type { Database } from './db/data-source.js';
import { createLogger } from './log.js';
import { openBilling, openBulk, openEngines, openSync } from './service.js';
import { runView } from './sync/connectors.js';
import { ContactValidation } from './contact-check/validate-contact.js';

export class ConnectorCommandError extends Error {
  constructor(readonly kind: string, message: string) {
    super(message);
  }
}

const POLL_MS = 100;

export async function runConnectorCommand(
  config: Config, db: Database, action: string, args: { account?: string; file?: string; connector?: string },
) {
  const logger = createLogger('silent');
  const { ledger, accounts } = await openBilling(config, db);
  // Engines are loaded only to run: adding and listing need none.
  const lazyValidation = { validate: () => { throw new Error('not loaded'); } } as unknown as ContactValidation;
  const syncOf = async (validation: ContactValidation) => {
    const bulk = await openBulk(config, db, validation, ledger, logger, { inProcess: true });
    return { bulk, sync: openSync(config, db, validation, logger, bulk) };
  };
  if (action === 'add') {
    await accounts.get(args.account!);
    const body = JSON.parse(fs.readFileSync(args.file!, 'utf8')) as unknown;
    return (await syncOf(lazyValidation)).sync.connectors.create(args.account!, body);
  }
  if (action === 'list') {
    await accounts.get(args.account!);
    return { connectors: await (await syncOf(lazyValidation)).sync.connectors.list(args.account!) };
  }
  if (action === 'check') {
    const { sync } = await syncOf(lazyValidation);
    const connector = await sync.store.get(args.connector!);
    if (!connector) throw new ConnectorCommandError('not_found', `no connector ${args.connector}`);
    return sync.runs.check(connector);
  }
  const engines = await openEngines({ ...config, referenceReloadMs: 0 }, db, logger);
  const validation = new ContactValidation(engines, ledger, config.validationBudgetMs);
  const { bulk, sync } = await syncOf(validation);
  try {
    const connector = await sync.store.get(args.connector!);
    if (!connector) throw new ConnectorCommandError('not_found', `no connector ${args.connector}`);
    // This process works the run's job itself (no sweeper: it takes nothing else), as `batch run` does.
    await bulk.runner.start({ sweeper: false });
    const started = await sync.runs.start(connector, 'cli', {
      resumePaused: true,
      onProgress: (c) => {
        process.stderr.write(`read ${c.records_read} | validated ${c.records_validated} | written ${c.records_written} | skipped ${c.records_skipped} | failed ${c.records_failed} | credits ${c.credits_charged}\n`);
      },
    });
    if (!started) throw new ConnectorCommandError('connector_busy', 'a run of this connector is in progress');
    while ((await sync.store.getRun(started.runId))?.status === 'running') await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return runView((await sync.store.getRun(started.runId))!);
  } finally {
    await bulk.runner.stop();
    await bulk.events.settle();
    await engines.close();
  }
}
