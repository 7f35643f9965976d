/**
 * Benchmark child: the real service, as `npm start` would run it, on a throw-away SQLite file and batch folder, with
 * network checks, rate limiting and logging off, and CSV uploads of up to 1 GiB (bench:batch sends 1M-row files). The
 * batch knobs (BATCH_CHUNK_ROWS, BATCH_CONCURRENCY, BATCH_MAX_IN_FLIGHT, BATCH_WORKERS) keep the service's defaults
 * unless the parent's environment sets them, so that a bench measures what `npm start` runs.
 *
 * Prints one JSON line `{"url", "api_key", "other_api_key", "pid", "knobs", "batch_dir"}` on stdout once it serves, for
 * an account (and a second one) that holds enough credits for any benchmark run; stops (and deletes its folder) on
 * SIGTERM, SIGINT or when stdin closes (the parent is gone).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startService } from '../../src/service.js';

const BENCH_CREDITS = 50_000_000;
const KNOBS = ['BATCH_CHUNK_ROWS', 'BATCH_CONCURRENCY', 'BATCH_MAX_IN_FLIGHT', 'BATCH_WORKERS'] as const;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-'));
const knobs: Record<string, string> = {};
for (const k of KNOBS) if (process.env[k]) knobs[k] = process.env[k]!;

function loadConfigOrCleanUp(env: Record<string, string>) {
  try {
    return loadConfig(env);
  } catch (err) {
    // A bad BATCH_* value in the environment is refused here: the folder goes, the error stays.
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

const service = await startService(
  loadConfigOrCleanUp({
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
    HOST: '127.0.0.1',
    PORT: '0',
    EMAIL_NETWORK_CHECKS: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'silent',
    FREE_CREDITS: '0',
    SHUTDOWN_GRACE_MS: '1000',
    BATCH_DIR: path.join(dir, 'batches'),
    BATCH_MAX_BYTES: String(1024 * 1024 * 1024),
    ...knobs,
  }),
);
const { account_id, api_key } = await service.accounts.create('bench');
await service.accounts.grantCredits(account_id, BENCH_CREDITS);
// A second account, for what one tenant's load does to another (test/service/batch-limits.test.ts).
const other = await service.accounts.create('bench, other tenant');
await service.accounts.grantCredits(other.account_id, BENCH_CREDITS);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    await service.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    // A normal exit, so that --cpu-prof writes its profile.
    process.exit(0);
  }
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.once('end', stop).resume();

process.stdout.write(`${JSON.stringify({
  url: service.url, api_key, other_api_key: other.api_key, pid: process.pid, knobs, batch_dir: path.join(dir, 'batches'),
})}\n`);
