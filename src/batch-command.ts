/**
 * `cli batch run --account ID FILE --out OUT.csv [--smtp false]` (docs/batches.md): the operator's way with a file and a
 * terminal. The batch goes through the same pipeline as an uploaded one (it is listed with the account's batches), is
 * worked in this process in the foreground with a progress bar on stderr (cli-progress), and its result is written to
 * OUT. Ends when the batch completes, fails, or pauses for want of credits (the rows done so far are written then).
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import cliProgress from 'cli-progress';
import { batchView } from './batches/batches.js';
import type { Config } from './config.js';
import type { Database } from './db/data-source.js';
import { createLogger } from './log.js';
import { openBilling, openBulk, openEngines } from './service.js';
import { ContactValidation } from './contact-check/validate-contact.js';

const POLL_MS = 200;

export async function runBatchCommand(
  config: Config, db: Database, args: { account: string; file: string; out: string; smtp: boolean },
) {
  const logger = createLogger('silent');
  const { ledger, accounts } = await openBilling(config, db);
  await accounts.get(args.account); // NotFoundError for an unknown account, before any work
  const engines = await openEngines({ ...config, referenceReloadMs: 0 }, db, logger);
  const validation = new ContactValidation(engines, ledger, config.validationBudgetMs);
  const { store, runner, batches } = await openBulk(config, db, validation, ledger, logger, { inProcess: true });
  const bar = new cliProgress.SingleBar(
    {
      format: 'batch {bar} {percentage}% | {value}/{total} rows | {status} | ETA {eta_formatted}', stream: process.stderr,
      hideCursor: true, noTTYOutput: true, notTTYSchedule: 2_000,
    },
    cliProgress.Presets.shades_classic,
  );
  try {
    const upload = await batches.uploadPath();
    await fs.promises.copyFile(args.file, upload);
    const created = await batches.create(args.account, upload, { smtp: args.smtp, name: args.file.split('/').pop() });
    await runner.start({ sweeper: false });
    bar.start(created.rows_total, 0, { status: created.status });
    let job = (await store.get(created.batch_id))!;
    while (job.status === 'queued' || job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      job = (await store.get(created.batch_id))!;
      bar.update(job.rowsDone, { status: job.status });
    }
    bar.stop();
    const result = batches.result(job, { partial: job.status !== 'completed', formulaEscape: true });
    if (typeof result !== 'string') await pipeline(result, fs.createWriteStream(args.out));
    return { ...batchView(job), out: args.out };
  } finally {
    bar.stop();
    await runner.stop();
    await engines.close();
  }
}
