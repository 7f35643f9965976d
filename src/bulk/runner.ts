/**
 * The job engine's runner, for every kind of job (a CSV batch, a connector's run, a webhook delivery): takes chunks
 * from the queue, claims each in the database under a lease it keeps renewing (a heartbeat every third of it), lets the
 * job's kind work it, and makes the job's state transitions here and nowhere else (completed, paused for credits,
 * failed), then tells the kind (its own books: a connector's status, its run) and the events. A sweeper sends again
 * what a dead runner left (its lease lapsed) and what a restart forgot, resumes jobs paused for credits once the account
 * covers what they wait for (`resume_credits`: one rule for every kind), and deletes jobs past their retention.
 *
 * What is guaranteed, whatever is killed when: a record's debit is keyed by (job, record), so a repeated attempt is
 * never charged again; a finished record is kept once; a chunk is done only when all its records are kept.
 */
import crypto from 'node:crypto';
import type { CreditLedger } from '../billing/ledger.js';
import type { Steps } from '../db/transaction-steps.js';
import type { Logger } from '../log.js';
import type { ContactValidation } from '../contact-check/validate-contact.js';
import type { ChunkQueue } from './chunk-queue.js';
import type { JobEvents } from './job-events.js';
import type { Chunk, ChunkTask, Job, JobStore } from './job-store.js';
import { type FlowOutcome, processRecords, Slots, TurnGate } from './process-records.js';
import { validateRecord, type SourceRecord } from './record-pipeline.js';

/** Where a records job's records come from (a CSV file): the runner works them through the record pipeline. */
export interface BulkSource {
  /** The chunk's records in key order. */
  records(job: Job, chunk: Chunk): AsyncIterable<SourceRecord>;
  /** The first and last key the chunk can hold (finished records between them are skipped). */
  keyRange(chunk: Chunk): [string, string];
  /** The job is over (completed, canceled, deleted): drop what the source keeps for it. */
  discard?(jobId: string): Promise<void>;
}

/** How one attempt at a chunk ended: the runner makes the job's transition from it. */
export type WorkOutcome = FlowOutcome | { kind: 'failed'; reason: string; message: string | null };

/** A transition the runner made (stored), told to the job's kind. */
export type JobTransition =
  | { status: 'completed' }
  | { status: 'paused'; reason: 'credits_exhausted'; required: number }
  | { status: 'failed'; reason: string; message: string | null };

/** What a kind's attempt may ask of the runner while it works. */
export interface ChunkAttempt {
  /** This attempt's name: the runner's, and a count. */
  id: string;
  /** True once the attempt must stop: the service is stopping, the lease was lost, the job canceled here. */
  shouldStop(): boolean;
  /** Whether the service is stopping (rather than the lease lost). */
  stopping(): boolean;
}

/** A queue of its own for a kind of job: its workers in this process, and its chunks' lease (else the runner's). */
export interface Lane {
  queue: ChunkQueue;
  workers: number;
  leaseMs?: number;
}

/** A kind of job: how a claimed chunk is worked, and what the kind keeps of the job's transitions. */
export interface JobKind {
  work(job: Job, chunk: Chunk, attempt: ChunkAttempt): Promise<WorkOutcome>;
  /** Called once per transition, after it is stored, on the instance that made it. */
  transitioned?(job: Job, transition: JobTransition): Promise<void>;
  /** The job is over (canceled, deleted): drop what the kind keeps for it. */
  discard?(jobId: string): Promise<void>;
}

export interface BulkRunnerOptions {
  /** Records of one job in flight at once. */
  perJob: number;
  /** Records in flight at once in this process, all jobs together. */
  overall: number;
  /** Chunks worked on at once in this process. */
  chunkWorkers: number;
  /** A chunk's lease: renewed every third of it; a runner silent for this long is taken for dead. */
  leaseMs: number;
  /** How often the sweeper runs. */
  sweepMs: number;
  /** A pending chunk of a live job not taken within this time is sent again. */
  resendAfterMs: number;
}

/** Records whose engines run in one turn of the event loop (bench:batch: interactive p99 against batch throughput). */
const RECORDS_PER_TURN = 4;

export class BulkRunner {
  /** This runner's name in leases and in `bulk_records.worker`. */
  readonly owner = `runner_${crypto.randomBytes(6).toString('hex')}`;
  /** The process-wide bound on records in flight, shared by every kind. */
  readonly slots: Slots;
  /** Records whose engines may run in one turn of the event loop, shared by every kind. */
  readonly gate = new TurnGate(RECORDS_PER_TURN);
  /** Each job's bound on records in flight, shared by its chunks in this process (with a count of their users). */
  private readonly jobSlots = new Map<string, { slots: Slots; users: number }>();
  private readonly kinds = new Map<string, JobKind>();
  /** The queue each kind's chunks go down (the runner's own, unless the kind has a lane), with its workers and lease. */
  private readonly lanes = new Map<string, Lane>();
  private attempts = 0;
  private sweeper?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private firstSweep = true;
  private stopped = false;

  constructor(
    private readonly store: JobStore,
    private readonly queue: ChunkQueue,
    private readonly validation: ContactValidation,
    private readonly ledger: CreditLedger,
    private readonly log: Logger,
    private readonly options: BulkRunnerOptions,
  ) {
    this.slots = new Slots(options.overall);
  }

  /**
   * Registers how jobs of `kind` are worked (before `start`); `lane`: a queue of its own with its own workers, for a
   * kind whose attempts last long (a connector's run holds its worker for the whole sync).
   */
  register(kind: string, handler: JobKind, lane?: Lane): void {
    this.kinds.set(kind, handler);
    if (lane) this.lanes.set(kind, lane);
  }

  private leaseOf(kind: string | undefined): number {
    return (kind !== undefined && this.lanes.get(kind)?.leaseMs) || this.options.leaseMs;
  }

  private queueOf(kind: string | undefined): ChunkQueue {
    return (kind !== undefined && this.lanes.get(kind)?.queue) || this.queue;
  }

  /**
   * The kind for jobs of records (a CSV batch): the chunk's records from `source`, those not yet finished validated
   * through the record pipeline with bounded concurrency, and kept a few hundred at a time.
   */
  recordsKind(source: BulkSource, transitioned?: JobKind['transitioned']): JobKind {
    return {
      work: (job, chunk, attempt) => this.workRecords(job, chunk, source, attempt),
      transitioned,
      discard: source.discard && ((jobId) => source.discard!(jobId)),
    };
  }

  /** Starts the workers and, unless `sweeper` is false (the CLI, working only the job it sends), the sweeper. */
  async start({ sweeper = true } = {}): Promise<void> {
    await this.queue.work(this.options.chunkWorkers, (task) => this.runChunk(task));
    for (const { queue, workers } of this.lanes.values()) await queue.work(workers, (task) => this.runChunk(task));
    if (!sweeper) return;
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepMs).unref();
    void this.sweep();
  }

  /** Sends a new job's chunks (or a resumed job's) to the queue. */
  async enqueue(tasks: ChunkTask[]): Promise<void> {
    const byQueue = new Map<ChunkQueue, ChunkTask[]>();
    for (const task of tasks) {
      const queue = this.queueOf(task.kind);
      byQueue.set(queue, [...(byQueue.get(queue) ?? []), task]);
    }
    for (const [queue, sent] of byQueue) await queue.send(sent);
  }

  /** Jobs canceled in this process: their chunks stop at the next record, not at their next flush. */
  private readonly canceled = new Set<string>();

  /** Stops this process's work on a job at once (it is being canceled). */
  stopJob(jobId: string): void {
    this.canceled.add(jobId);
  }

  /** Resumes a paused job now (and runs `then`'s steps in the same transaction); false when it was not paused. */
  async resume(jobId: string, then?: () => Steps<void>): Promise<boolean> {
    const tasks = await this.store.resume(jobId, then);
    if (!tasks) return false;
    await this.enqueue(tasks);
    return true;
  }

  /** Runs one sweep now (and waits for a sweep already running). */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce()
      .catch((err: unknown) => this.log.error({ err }, 'bulk sweep failed'))
      .finally(() => { this.sweeping = undefined; });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    if (this.stopped) return;
    const everyPending = this.firstSweep && !this.queue.durable;
    this.firstSweep = false;
    await this.enqueue(await this.store.sweepChunks(this.options.resendAfterMs, everyPending));
    for (const id of await this.store.completeFinished()) {
      this.log.info({ job_id: id }, 'bulk job completed by the sweeper');
      const job = await this.store.get(id);
      if (job) await this.transitioned(job, { status: 'completed' });
    }
    // One rule for every kind: a job paused for credits goes on once the balance covers what it waits for.
    for (const paused of await this.store.pausedForCredits()) {
      if ((await this.ledger.balance(paused.accountId)) >= paused.resumeCredits && (await this.resume(paused.id))) {
        this.log.info({ job_id: paused.id }, 'bulk job resumed: credits added');
      }
    }
    for (const id of await this.store.deleteExpired()) await this.discard(id);
  }

  /** Drops what every kind keeps for the job (its files). */
  async discard(jobId: string): Promise<void> {
    for (const kind of this.kinds.values()) await kind.discard?.(jobId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    await this.sweeping;
    for (const { queue } of this.lanes.values()) await queue.stop();
    await this.queue.stop();
  }

  /** One delivery of a chunk: claimed, worked through, and kept, or left for another attempt. */
  async runChunk(task: ChunkTask): Promise<void> {
    if (this.stopped) return;
    const chunk = await this.store.claim(task, this.owner, this.leaseOf(task.kind));
    if (!chunk) return;
    const job = await this.store.get(chunk.jobId);
    const kind = job && this.kinds.get(job.kind);
    if (!job || !kind) {
      if (job) await this.fail(job, chunk, 'unknown_source', null);
      return;
    }
    let lost = false;
    const leaseMs = this.leaseOf(job.kind);
    const heartbeat = setInterval(() => {
      this.store.renewLease(chunk, this.owner, leaseMs).then(
        (held) => { if (!held) lost = true; },
        (err: unknown) => this.log.warn({ err, job_id: job.id }, 'bulk lease renewal failed'),
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    const attempt: ChunkAttempt = {
      id: `${this.owner}.${++this.attempts}`,
      shouldStop: () => this.stopped || lost || this.canceled.has(job.id),
      stopping: () => this.stopped,
    };
    try {
      const outcome = await kind.work(job, chunk, attempt);
      if (outcome.kind === 'paused') {
        const paused = await this.store.pauseForCredits(job.id, outcome.required);
        await this.store.releaseChunk(chunk, this.owner);
        this.log.info({ job_id: job.id, required: outcome.required }, 'bulk job paused: credits exhausted');
        if (paused) await this.transitioned(job, { status: 'paused', reason: 'credits_exhausted', required: outcome.required });
      } else if (outcome.kind === 'failed') {
        await this.fail(job, chunk, outcome.reason, outcome.message);
      } else if (outcome.kind === 'done' && (await this.store.finishChunk(chunk, this.owner))) {
        this.log.info({ job_id: job.id }, 'bulk job completed');
        await this.transitioned(job, { status: 'completed' });
      } else if (outcome.kind === 'stopped' && this.stopped && !lost) {
        // Stopping (a shutdown): give the chunk back at once rather than wait for the lease to lapse.
        await this.store.releaseChunk(chunk, this.owner);
      }
    } catch (err) {
      // Not the records' fault (the database went away, the file could not be read): another attempt goes on.
      this.log.error({ err, job_id: job.id, chunk: chunk.idx }, 'bulk chunk attempt failed; it will be sent again');
      await this.store.releaseChunk(chunk, this.owner).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async fail(job: Job, chunk: Chunk, reason: string, message: string | null): Promise<void> {
    const failed = await this.store.fail(job.id, reason);
    await this.store.finishChunk(chunk, this.owner);
    if (failed) await this.transitioned(job, { status: 'failed', reason, message });
  }

  /** The kind hears of a stored transition, with the job as it stands after it; its failure is logged, never undoes it. */
  private async transitioned(job: Job, transition: JobTransition): Promise<void> {
    const kind = this.kinds.get(job.kind);
    if (!kind?.transitioned) return;
    await this.store.get(job.id)
      .then((now) => kind.transitioned!(now ?? job, transition))
      .catch((err: unknown) => this.log.error({ err, job_id: job.id, status: transition.status }, 'job transition not told'));
  }

  private async workRecords(job: Job, chunk: Chunk, source: BulkSource, attempt: ChunkAttempt): Promise<WorkOutcome> {
    const [fromKey, toKey] = source.keyRange(chunk);
    const finished = await this.store.finishedKeys(job.id, fromKey, toKey);
    const shared = this.jobSlots.get(job.id) ?? { slots: new Slots(this.options.perJob), users: 0 };
    shared.users++;
    this.jobSlots.set(job.id, shared);
    const pace = () => this.gate.pass();
    return processRecords(this.unfinished(source.records(job, chunk), finished), {
      jobSlots: shared.slots,
      slots: this.slots,
      validate: (record) => validateRecord(this.validation, job.accountId, job.id, record, this.log, { pace }),
      // Canceled, or paused by another chunk: stop here.
      keep: async (records) => (await this.store.saveRecords(job.id, records, this.owner)) === 'running',
      shouldStop: attempt.shouldStop,
    }).finally(() => {
      if (--shared.users === 0) this.jobSlots.delete(job.id);
    });
  }

  private async *unfinished(records: AsyncIterable<SourceRecord>, finished: Set<string>) {
    for await (const record of records) if (!finished.has(record.key)) yield record;
  }
}
