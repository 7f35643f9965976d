/** CSV batches (docs/batches.md): upload a file, follow it, download it back enriched. */
import { ContactValidatorError, TimeoutError } from './errors.js';
import type { Call, RequestOptions, Transport } from './transport.js';
import type { Batch, BatchList, BatchStatus, CreatedBatch } from './types.js';

/**
 * The file to upload. A string is a file path, unless it holds a line break: then it is the CSV text itself.
 * A `file:` URL is a path. A Blob, a Buffer/Uint8Array or an ArrayBuffer is the content. A ReadableStream or any
 * async iterable of bytes (a Node Readable) is streamed, and cannot be sent twice, so such an upload is never retried.
 */
export type BatchSource = string | URL | Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

export interface CreateBatchOptions extends RequestOptions {
  /** A label kept with the batch. */
  name?: string;
  /** `false` skips the mailbox probe for the whole file. */
  smtp?: boolean;
  /** Header names joined with ", " into the one-line address, in this order. Naming any column turns detection off. */
  addressColumns?: string[];
  emailColumn?: string;
  phoneColumn?: string;
  countryColumn?: string;
  /** `text/csv` by default. */
  contentType?: string;
}

export interface WaitForOptions {
  /** Called after each poll with the batch as it is. */
  onProgress?: (batch: Batch) => void;
  /** Time between polls; 1000 ms by default. */
  pollMs?: number;
  /** Gives up (TimeoutError) after this long; no limit by default. */
  timeoutMs?: number;
  /** Also stop at `paused` (credits exhausted) instead of waiting for credits to be added. */
  stopOnPaused?: boolean;
  signal?: AbortSignal;
}

export interface ResultOptions extends RequestOptions {
  /** The rows done so far, before the batch is completed. */
  partial?: boolean;
}

/** A batch's result CSV, streamed: read it once, as a stream, as text, or into a file. */
export class BatchResult implements AsyncIterable<Uint8Array> {
  constructor(readonly response: Response) {}

  /** The bytes as a web ReadableStream. */
  get body(): ReadableStream<Uint8Array> {
    if (!this.response.body) throw new ContactValidatorError('The result has no body');
    return this.response.body as ReadableStream<Uint8Array>;
  }

  text(): Promise<string> { return this.response.text(); }

  /** Writes the result to `path` (Node), and answers the number of bytes written. */
  async saveTo(path: string): Promise<number> {
    const [{ createWriteStream }, { Readable }, { pipeline }] = await Promise.all([
      import('node:fs'), import('node:stream'), import('node:stream/promises'),
    ]);
    let bytes = 0;
    const counted = Readable.fromWeb(this.body as import('node:stream/web').ReadableStream<Uint8Array>);
    counted.on('data', (chunk: Uint8Array) => { bytes += chunk.byteLength; });
    await pipeline(counted, createWriteStream(path));
    return bytes;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const reader = this.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
}

const FINISHED: readonly BatchStatus[] = ['completed', 'failed', 'canceled'];

async function bodyOf(source: BatchSource): Promise<Pick<Call, 'body' | 'replayable'>> {
  if (typeof source === 'string' && !/[\r\n]/.test(source)) return fileBody(source);
  if (source instanceof URL) return fileBody(source);
  if (typeof source === 'string' || source instanceof Blob || source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const content = ArrayBuffer.isView(source) && !(source instanceof Uint8Array)
      ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength) : source;
    return { body: () => content as BodyInit, replayable: true };
  }
  return { body: () => source as ReadableStream<Uint8Array>, replayable: false };
}

/** A file on disk, streamed (never read whole), opened again for each attempt. */
async function fileBody(path: string | URL): Promise<Pick<Call, 'body' | 'replayable'>> {
  const [fs, { Readable }] = await Promise.all([import('node:fs'), import('node:stream')]);
  // A missing file is the caller's error, reported as fs reports it, not a connection failure to retry.
  await fs.promises.access(path, fs.constants.R_OK);
  return {
    body: () => Readable.toWeb(fs.createReadStream(path)) as unknown as ReadableStream<Uint8Array>,
    replayable: true,
  };
}

export class Batches {
  constructor(private readonly transport: Transport) {}

  /** Uploads a CSV file; answers at once (202) with the batch queued and the columns it will read. */
  async create(source: BatchSource, options: CreateBatchOptions = {}): Promise<CreatedBatch> {
    const { name, smtp, addressColumns, emailColumn, phoneColumn, countryColumn, contentType, ...request } = options;
    return this.transport.json<CreatedBatch>({
      method: 'POST',
      path: '/v1/batches',
      query: {
        name, smtp, address_columns: addressColumns?.join(','), email_column: emailColumn, phone_column: phoneColumn,
        country_column: countryColumn,
      },
      contentType: contentType ?? 'text/csv',
      ...(await bodyOf(source)),
    }, request);
  }

  get(id: string, options?: RequestOptions): Promise<Batch> {
    return this.transport.json<Batch>({ method: 'GET', path: `/v1/batches/${encodeURIComponent(id)}` }, options);
  }

  /** The account's batches, newest first (the latest 100). */
  async list(options?: RequestOptions): Promise<Batch[]> {
    return (await this.transport.json<BatchList>({ method: 'GET', path: '/v1/batches' }, options)).batches;
  }

  /**
   * Polls the batch until it is completed, failed or canceled (or paused, with `stopOnPaused`), reporting each poll
   * to `onProgress`, and answers the batch as it ended. A failed or canceled batch is answered, not thrown: look at
   * `status` and `reason`.
   */
  async waitFor(id: string, options: WaitForOptions = {}): Promise<Batch> {
    const { onProgress, pollMs = 1_000, timeoutMs, stopOnPaused = false, signal } = options;
    const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
    for (;;) {
      const remaining = deadline - Date.now();
      const batch = await this.get(id, { signal, ...(remaining < Infinity ? { timeoutMs: Math.max(1, remaining) } : {}) });
      onProgress?.(batch);
      if (FINISHED.includes(batch.status) || (stopOnPaused && batch.status === 'paused')) return batch;
      if (Date.now() + pollMs >= deadline) {
        throw new TimeoutError(`Batch ${id} is still ${batch.status} (${batch.rows_done}/${batch.rows_total} rows) after ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
        const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, pollMs);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /**
   * The result CSV, streamed. Before the batch is completed this is a ConflictError (`batch-not-ready`) unless
   * `partial` is set; a canceled batch's is a GoneError.
   */
  async result(id: string, options: ResultOptions = {}): Promise<BatchResult> {
    const { partial, ...request } = options;
    const response = await this.transport.stream({
      method: 'GET', path: `/v1/batches/${encodeURIComponent(id)}/result`, query: { partial: partial ? 'true' : undefined },
    }, { ...request, headers: { accept: 'text/csv, application/problem+json', ...request.headers } });
    return new BatchResult(response);
  }

  /** Cancels the batch (if it has not ended) and deletes its files; answers the batch. */
  cancel(id: string, options?: RequestOptions): Promise<Batch> {
    return this.transport.json<Batch>({ method: 'DELETE', path: `/v1/batches/${encodeURIComponent(id)}` }, options);
  }

  /** Resumes a paused batch at once (ConflictError `batch-not-paused` otherwise). */
  resume(id: string, options?: RequestOptions): Promise<Batch> {
    return this.transport.json<Batch>({ method: 'POST', path: `/v1/batches/${encodeURIComponent(id)}/resume` }, options);
  }
}
