/**
 * Benchmark child: the real service, as `npm start` would run it, on a throw-away SQLite file, with network checks,
 * rate limiting and logging off. Prints one JSON line `{"url", "api_key"}` on stdout once it serves, for an account
 * that holds enough credits for any benchmark run; stops (and deletes its database) on SIGTERM, SIGINT or when stdin
 * closes (the parent is gone).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startService } from '../../src/service.js';

const BENCH_CREDITS = 50_000_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-'));
const service = await startService(
  loadConfig({
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}`,
    HOST: '127.0.0.1',
    PORT: '0',
    EMAIL_NETWORK_CHECKS: 'false',
    RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'silent',
    FREE_CREDITS: '0',
    SHUTDOWN_GRACE_MS: '1000',
  }),
);
const { account_id, api_key } = await service.accounts.create('bench');
await service.accounts.grantCredits(account_id, BENCH_CREDITS);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
  // A normal exit, so that --cpu-prof writes its profile.
  process.exit(0);
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.once('end', stop).resume();

process.stdout.write(`${JSON.stringify({ url: service.url, api_key })}\n`);
