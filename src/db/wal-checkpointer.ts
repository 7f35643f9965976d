/**
 * SQLite WAL checkpoints on a worker thread. A checkpoint copies the WAL's pages into the database file and syncs it
 * (synchronous = NORMAL): done by the serving connection, as SQLite does by default every 1,000 pages, that sync
 * blocks the event loop for milliseconds, and every request in flight waits (about a sixth of bench:validate's p99).
 * Here a second connection, on its own thread, runs a PASSIVE checkpoint (it never blocks writers) at an interval (the
 * service: every second); the serving connection's own automatic checkpoint stays as a safety net at a much larger WAL.
 *
 * Fails soft: if the worker cannot open the file or a checkpoint fails, it stops and the serving connection goes back
 * to SQLite's default automatic checkpoints.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** The serving connection checkpoints by itself only past this many WAL pages (about 40 MB) while the worker runs. */
export const SAFETY_NET_WAL_PAGES = 10_000;
/** SQLite's default automatic checkpoint, restored when the worker stops or fails. */
const SQLITE_DEFAULT_WAL_PAGES = 1_000;
const STOP_TIMEOUT_MS = 5_000;

/** The worker, as CommonJS source (no TypeScript loader needed in the thread). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let db;
function checkpoint() {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    parentPort.postMessage({ failed: String((err && err.message) || err) });
    stop();
  }
}
let timer;
function stop() {
  clearInterval(timer);
  try { db && db.open && db.close(); } catch {}
  parentPort.close();
}
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
  db.pragma('synchronous = NORMAL');
  timer = setInterval(checkpoint, workerData.intervalMs);
  parentPort.on('message', (message) => {
    if (message !== 'stop') return;
    checkpoint();
    stop();
  });
} catch (err) {
  parentPort.postMessage({ failed: String((err && err.message) || err) });
  parentPort.close();
}
`;

export interface WalCheckpointer {
  /** Resolves once the worker has run a last checkpoint and closed its connection. */
  stop(): Promise<void>;
  /** Why the worker gave up, if it did (the serving connection checkpoints by itself again). */
  readonly failure: string | null;
}

export function startWalCheckpointer(connection: BetterSqlite3.Database, file: string, intervalMs: number): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs } });
  worker.unref();
  connection.pragma(`wal_autocheckpoint = ${SAFETY_NET_WAL_PAGES}`);
  let failure: string | null = null;
  const fallBack = (why: string) => {
    failure ??= why;
    if (connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_WAL_PAGES}`);
  };
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) fallBack(message.failed);
  });
  worker.on('error', (err) => fallBack(err.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  let stopping: Promise<void> | undefined;
  return {
    get failure() {
      return failure;
    },
    stop: () =>
      (stopping ??= (async () => {
        // Referenced again while it stops: a process with nothing else left to do waits for the last checkpoint (and
        // for close() to resolve) instead of ending with it pending.
        worker.ref();
        worker.postMessage('stop');
        const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref());
        if ((await Promise.race([exited, timeout])) === 'timeout') await worker.terminate();
        if (connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_WAL_PAGES}`);
      })()),
  };
}
