/**
 * CSV batches (docs/batches.md): upload a file, follow it, download it back enriched. The operations are generated
 * (resources.ts); here is only what is not one: waiting for a batch to end.
 */
import { TimeoutError } from './errors.js';
import { BatchesOperations, type CreateBatchOptions, type GetBatchResultOptions } from './resources.js';
import type { UploadSource } from './streams.js';
import type { Batch, BatchStatus } from './types.js';

export { BatchResult } from './streams.js';
export type { CreateBatchOptions };
/** The names these had before the methods were generated. */
export type BatchSource = UploadSource;
export type ResultOptions = GetBatchResultOptions;

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

const FINISHED: readonly BatchStatus[] = ['completed', 'failed', 'canceled'];

export class Batches extends BatchesOperations {
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
}
