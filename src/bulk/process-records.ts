/**
 * The heart of every bulk job: records from a source through the record pipeline with a bounded number in flight (per
 * job, and for the whole process through shared Slots), finished ones handed to `keep` a few hundred at a time, and
 * the records' CPU work let through a few per turn of the event loop (TurnGate) so that interactive requests get in
 * between. Used by the chunk runner
 * (CSV batches) and by connector runs.
 */
import { InsufficientCredits } from '../contact-check/errors.js';
import type { FinishedRecord } from './job-store.js';
import type { SourceRecord } from './record-pipeline.js';

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

/**
 * Lets CPU work through a few at a time per turn of the event loop: the records whose debits one group commit
 * resolved would otherwise run their engines back to back, and a request arriving meanwhile would wait for all of
 * them. Each caller of `pass` goes on in a later turn, at most `perTurn` of them in one.
 */
export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;
  constructor(private readonly perTurn: number) {}

  pass(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const resolve of this.waiting.splice(0, this.perTurn)) resolve();
      if (this.waiting.length) this.schedule();
    });
  }
}

/** Finished records are kept this many at a time (one short SQLite transaction), or after FLUSH_MS. */
const FLUSH_RECORDS = 100;
const FLUSH_MS = 500;

export interface RecordFlow {
  /** The job's own bound on records in flight (shared by its chunks), then the process-wide one. */
  jobSlots: Slots;
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

  // Finished records are kept while the next ones are validated (one keep at a time, in order): on PostgreSQL a keep
  // is a durable commit, and waiting for it stopped the flow every FLUSH_RECORDS records.
  let keeping: Promise<void> = Promise.resolve();
  const flush = () => {
    lastFlush = performance.now();
    if (!kept.length) return keeping;
    const batch = kept.splice(0);
    keeping = keeping.then(async () => {
      if (halted) return;
      if (!(await flow.keep(batch))) halted = true;
    }).catch((err: unknown) => { failure ??= err; });
    return keeping;
  };

  for await (const record of records) {
    if (paused !== null || failure || halted || flow.shouldStop()) break;
    await flow.jobSlots.acquire();
    await flow.slots.acquire();
    // Asked again once a slot is free: what finished meanwhile may have stopped the flow (a connector's credit cap).
    if (flow.shouldStop()) {
      flow.slots.release();
      flow.jobSlots.release();
      break;
    }
    const p: Promise<void> = flow.validate(record)
      .then((r) => { kept.push(r); })
      .catch((err: unknown) => {
        if (err instanceof InsufficientCredits) paused = Math.max(paused ?? 0, err.required);
        else failure ??= err;
      })
      .finally(() => {
        inFlight.delete(p);
        flow.slots.release();
        flow.jobSlots.release();
      });
    inFlight.add(p);
    if (kept.length >= FLUSH_RECORDS || performance.now() - lastFlush > FLUSH_MS) {
      // At most one keep waits behind the one being written: the next is begun once the last has ended.
      await keeping;
      void flush();
    }
  }
  await Promise.all(inFlight);
  await flush();
  if (failure) throw failure;
  if (paused !== null) return { kind: 'paused', required: paused };
  if (halted || flow.shouldStop()) return { kind: 'stopped' };
  return { kind: 'done' };
}
