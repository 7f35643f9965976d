/**
 * A reference file read on a worker thread beside the writes: the worker runs the format's reader and cuts its records
 * into packed batches (reference-batches.ts), the importing thread only writes them (reference-import.ts). Parsing
 * and building rows is most of an import's CPU (bench/reference-import.ts): on another core it costs the writes
 * nothing, and the writes are the rest.
 *
 * Constant memory: the queue is bounded. The worker sends a batch only against a credit; it starts with QUEUED
 * credits and gets one back each time a batch is committed, so that at most QUEUED batches wait while one is written
 * (a slow database holds the reader back, never the other way round). A batch carries its checkpoint (records taken,
 * byte offset, counts), which the importing thread commits with its rows: a checkpoint records only what is committed.
 * An error of the reader (a file that is not of its format) comes back as the same error, its `code` kept.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { collectGarbage, recordBatches, type BatchOptions, type RecordBatch } from './reference-batches.js';
import { ReferenceReaders, type ReadFrom, type ReferenceFormat } from '../validation/address/reference-formats/index.js';

/** Batches read ahead of the one being written. */
const QUEUED = 2;

export interface WorkerRead extends BatchOptions {
  reader: ReferenceFormat;
  /** The file's absolute path. */
  path: string;
  from?: ReadFrom;
}

type FromWorker = { batch: RecordBatch } | { error: { message: string; code?: string } };

/** The file's batches, read where this is called. */
export async function* batchesOnThisThread(read: WorkerRead): AsyncGenerator<RecordBatch> {
  // (TIGER's reader opens its shapefile pair itself, by path.)
  const stream = read.reader === 'tiger-addrfeat' ? null : fs.createReadStream(read.path, { highWaterMark: 256 * 1024, start: read.from?.offset ?? 0 });
  try {
    yield* recordBatches(ReferenceReaders[read.reader](stream ?? [], { from: read.from, path: read.path }), read);
  } finally {
    stream?.destroy();
  }
}

/** The worker thread: reads, packs, sends against credits. */
async function readInWorker(read: WorkerRead): Promise<void> {
  const port = parentPort!;
  let credits = QUEUED;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    credits++;
    wake?.();
  });
  try {
    for await (const batch of batchesOnThisThread(read)) {
      while (credits === 0) await new Promise<void>((resolve) => { wake = resolve; });
      credits--;
      port.postMessage({ batch } satisfies FromWorker);
      collectGarbage();
    }
  } catch (err) {
    const e = err as { message?: string; code?: unknown };
    port.postMessage({ error: { message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined } } satisfies FromWorker);
  } finally {
    port.close();
  }
}

if (!isMainThread && (workerData as { referenceImport?: WorkerRead } | null)?.referenceImport) {
  void readInWorker((workerData as { referenceImport: WorkerRead }).referenceImport);
}

/**
 * The worker, run from this file: compiled JavaScript in production. Under a TypeScript loader (tests, benches) the
 * thread registers tsx itself before it imports this file (a thread given `--import tsx` does not always have the
 * loader in place by the time its entry loads).
 */
function startWorker(read: WorkerRead): Worker {
  const url = new URL(import.meta.url);
  const options = { workerData: { referenceImport: read } };
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const tsx = createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
  // (tsx's own flags dropped with their values: `--require <preflight>`, `--import <loader>`, `--import=<loader>`.)
  const execArgv = process.execArgv.filter((a, i, all) => !a.includes('tsx') && !((a === '--import' || a === '--require' || a === '-r') && all[i + 1]?.includes('tsx')));
  return new Worker(`import(${JSON.stringify(pathToFileURL(tsx).href)}).then((api) => { api.register(); return import(${JSON.stringify(url.href)}); })`,
    { ...options, eval: true, execArgv });
}

/** The batches of a file as the worker reads them; a credit goes back when the consumer asks for the next. */
export async function* batchesFromWorker(read: WorkerRead): AsyncGenerator<RecordBatch> {
  const worker = startWorker(read);
  const waiting: FromWorker[] = [];
  let failure: Error | null = null;
  let exited = false;
  let wake: (() => void) | null = null;
  const poke = () => { wake?.(); wake = null; };
  worker.on('message', (m: FromWorker) => { waiting.push(m); poke(); });
  worker.on('error', (err) => { failure ??= err; poke(); });
  worker.on('exit', () => { exited = true; poke(); });
  try {
    for (let first = true; ; first = false) {
      if (!first) worker.postMessage('credit');
      while (!waiting.length && !failure && !exited) await new Promise<void>((resolve) => { wake = resolve; });
      const next = waiting.shift();
      if (!next) throw failure ?? new Error('the reading thread stopped before the end of the file');
      if ('error' in next) throw Object.assign(new Error(next.error.message), next.error.code ? { code: next.error.code } : {});
      yield next.batch;
      if (next.batch.last) return;
    }
  } finally {
    await worker.terminate();
  }
}
