/**
 * The heart of every bulk job: records from a source through the record pipeline with a bounded number in flight (per
 * job, and for the whole process through shared Slots), finished ones handed to `keep` a few hundred at a time, and
 * the event loop given back every few records so that interactive requests get in between. Used by the chunk runner
 * (CSV batches) and by connector runs.
 */
import type { FinishedRecord } from './job-store.js';
import { CreditsExhausted, type SourceRecord } from './record-pipeline.js';

/** A counting semaphore: the process-wide bound on records in flight. */
export class Slots {
  private waiters: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}

/** Finished records are kept this many at a time, or after FLUSH_MS, whichever comes first. */
const FLUSH_RECORDS = 250;
const FLUSH_MS = 500;
/** Records started between two turns of the event loop: interactive requests get in between. */
const RECORDS_PER_TURN = 8;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RecordFlow {
  /** Records of this job in flight at once. */
  perJob: number;
  slots: Slots;
  validate(record: SourceRecord): Promise<FinishedRecord>;
  /** Keeps finished records; false stops the flow (the job was canceled or paused elsewhere). */
  keep(records: FinishedRecord[]): Promise<boolean>;
  /** Checked before each record: true stops the flow (shutdown, a lost lease). */
  shouldStop(): boolean;
}

export type FlowOutcome = { kind: 'done' } | { kind: 'paused'; required: number } | { kind: 'stopped' };

/**
 * Runs the records through `flow`. Ends `paused` when a record could not be paid for (that record and those after it
 * are not kept), `stopped` when told to stop; rethrows any other failure after the records in flight have settled
 * and the finished ones are kept.
 */
export async function processRecords(records: AsyncIterable<SourceRecord> | Iterable<SourceRecord>, flow: RecordFlow): Promise<FlowOutcome> {
  const kept: FinishedRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  let paused: number | null = null;
  let failure: unknown = null;
  let halted = false;
  let lastFlush = performance.now();
  let started = 0;

  const flush = async () => {
    lastFlush = performance.now();
    if (kept.length && !(await flow.keep(kept.splice(0)))) halted = true;
  };

  for await (const record of records) {
    if (paused !== null || failure || halted || flow.shouldStop()) break;
    while (inFlight.size >= flow.perJob) await Promise.race(inFlight);
    await flow.slots.acquire();
    const p: Promise<void> = flow.validate(record)
      .then((r) => { kept.push(r); })
      .catch((err: unknown) => {
        if (err instanceof CreditsExhausted) paused = Math.max(paused ?? 0, err.required);
        else failure ??= err;
      })
      .finally(() => {
        inFlight.delete(p);
        flow.slots.release();
      });
    inFlight.add(p);
    if (kept.length >= FLUSH_RECORDS || performance.now() - lastFlush > FLUSH_MS) await flush();
    if (++started % RECORDS_PER_TURN === 0) await nextTurn();
  }
  await Promise.all(inFlight);
  await flush();
  if (failure) throw failure;
  if (paused !== null) return { kind: 'paused', required: paused };
  if (halted || flow.shouldStop()) return { kind: 'stopped' };
  return { kind: 'done' };
}
