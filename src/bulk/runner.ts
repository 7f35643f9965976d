/**
 * The bulk runner: takes chunks from the queue, claims each in the database under a lease it keeps renewing, reads
 * the chunk's records from the job's source, validates them through the record pipeline with a bounded number in
 * flight (per job, and for the whole process), and keeps the finished ones a few hundred at a time. A sweeper sends
 * again what a dead runner left (its lease lapsed) and what a restart forgot, resumes jobs paused for credits once the
 * account can pay again, and deletes jobs past their retention.
 *
 * What is guaranteed, whatever is killed when: a record's debit is keyed by (job, record), so a repeated attempt is
 * never charged again; a finished record is kept once; a chunk is done only when all its records are kept.
 */
import crypto from 'node:crypto';
import type { CreditLedger } from '../billing/ledger.js';
import type { Logger } from '../log.js';
import type { ContactValidation } from '../contact-check/validate-contact.js';
import type { ChunkQueue } from './chunk-queue.js';
import type { Chunk, ChunkTask, Job, JobStore } from './job-store.js';
import { processRecords, Slots, TurnGate } from './process-records.js';
import { validateRecord, type SourceRecord } from './record-pipeline.js';

/** Where a job's records come from: one per job kind (a CSV file; a connector's platform). */
export interface BulkSource {
  /** The chunk's records in key order. */
  records(job: Job, chunk: Chunk): AsyncIterable<SourceRecord>;
  /** The first and last key the chunk can hold (finished records between them are skipped). */
  keyRange(chunk: Chunk): [string, string];
  /** The job is over (completed, canceled, deleted): drop what the source keeps for it. */
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
  /** The process-wide bound on records in flight, shared with connector runs. */
  readonly slots: Slots;
  /** Records whose engines may run in one turn of the event loop, shared with connector runs. */
  readonly gate = new TurnGate(RECORDS_PER_TURN);
  /** Each job's bound on records in flight, shared by its chunks in this process (with a count of their users). */
  private readonly jobSlots = new Map<string, { slots: Slots; users: number }>();
  private sweeper?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private firstSweep = true;
  private stopped = false;

  constructor(
    private readonly store: JobStore,
    private readonly queue: ChunkQueue,
    private readonly validation: ContactValidation,
    private readonly ledger: CreditLedger,
    private readonly sources: Record<string, BulkSource>,
    private readonly log: Logger,
    private readonly options: BulkRunnerOptions,
  ) {
    this.slots = new Slots(options.overall);
  }

  /** Starts the workers and, unless `sweeper` is false (the CLI, working only the job it sends), the sweeper. */
  async start({ sweeper = true } = {}): Promise<void> {
    await this.queue.work(this.options.chunkWorkers, (task) => this.runChunk(task));
    if (!sweeper) return;
    this.sweeper = setInterval(() => void this.sweep(), this.options.sweepMs).unref();
    void this.sweep();
  }

  /** Sends a new job's chunks (or a resumed job's) to the queue. */
  async enqueue(tasks: ChunkTask[]): Promise<void> {
    if (tasks.length) await this.queue.send(tasks);
  }

  /** Jobs canceled in this process: their chunks stop at the next record, not at their next flush. */
  private readonly canceled = new Set<string>();

  /** Stops this process's work on a job at once (it is being canceled). */
  stopJob(jobId: string): void {
    this.canceled.add(jobId);
  }

  /** Resumes a paused job now; false when it was not paused. */
  async resume(jobId: string): Promise<boolean> {
    const tasks = await this.store.resume(jobId);
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
    for (const id of await this.store.completeFinished()) this.log.info({ job_id: id }, 'bulk job completed by the sweeper');
    for (const paused of await this.store.pausedForCredits()) {
      if ((await this.ledger.balance(paused.accountId)) >= paused.resumeCredits && (await this.resume(paused.id))) {
        this.log.info({ job_id: paused.id }, 'bulk job resumed: credits added');
      }
    }
    for (const id of await this.store.deleteExpired()) await this.discard(id);
  }

  /** Drops what every source keeps for the job (its files). */
  async discard(jobId: string): Promise<void> {
    for (const source of Object.values(this.sources)) await source.discard?.(jobId);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    await this.sweeping;
    await this.queue.stop();
  }

  /** One delivery of a chunk: claimed, worked through, and kept, or left for another attempt. */
  async runChunk(task: ChunkTask): Promise<void> {
    if (this.stopped) return;
    const chunk = await this.store.claim(task, this.owner, this.options.leaseMs);
    if (!chunk) return;
    const job = await this.store.get(chunk.jobId);
    const source = job && this.sources[job.kind];
    if (!job || !source) {
      if (job) await this.store.fail(job.id, 'unknown_source');
      return;
    }
    let lost = false;
    const heartbeat = setInterval(() => {
      this.store.renewLease(chunk, this.owner, this.options.leaseMs).then(
        (held) => { if (!held) lost = true; },
        (err: unknown) => this.log.warn({ err, job_id: job.id }, 'bulk lease renewal failed'),
      );
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    try {
      const outcome = await this.work(job, chunk, source, () => lost);
      if (outcome.kind === 'paused') {
        await this.store.pauseForCredits(job.id, outcome.required);
        await this.store.releaseChunk(chunk, this.owner);
        this.log.info({ job_id: job.id, required: outcome.required }, 'bulk job paused: credits exhausted');
      } else if (outcome.kind === 'done' && (await this.store.finishChunk(chunk, this.owner))) {
        this.log.info({ job_id: job.id }, 'bulk job completed');
      }
    } catch (err) {
      // Not the records' fault (the database went away, the file could not be read): another attempt goes on.
      this.log.error({ err, job_id: job.id, chunk: chunk.idx }, 'bulk chunk attempt failed; it will be sent again');
      await this.store.releaseChunk(chunk, this.owner).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async work(job: Job, chunk: Chunk, source: BulkSource, isLost: () => boolean) {
    const [fromKey, toKey] = source.keyRange(chunk);
    const finished = await this.store.finishedKeys(job.id, fromKey, toKey);
    const shared = this.jobSlots.get(job.id) ?? { slots: new Slots(this.options.perJob), users: 0 };
    shared.users++;
    this.jobSlots.set(job.id, shared);
    const pace = () => this.gate.pass();
    const outcome = await processRecords(this.unfinished(source.records(job, chunk), finished), {
      jobSlots: shared.slots,
      slots: this.slots,
      validate: (record) => validateRecord(this.validation, job.accountId, job.id, record, this.log, { pace }),
      // Canceled, or paused by another chunk: stop here.
      keep: async (records) => (await this.store.saveRecords(job.id, records, this.owner)) === 'running',
      shouldStop: () => this.stopped || isLost() || this.canceled.has(job.id),
    }).finally(() => {
      if (--shared.users === 0) this.jobSlots.delete(job.id);
    });
    // Stopping (a shutdown): give the chunk back at once rather than wait for the lease to lapse.
    if (outcome.kind === 'stopped' && this.stopped && !isLost()) await this.store.releaseChunk(chunk, this.owner);
    return outcome;
  }

  private async *unfinished(records: AsyncIterable<SourceRecord>, finished: Set<string>) {
    for await (const record of records) if (!finished.has(record.key)) yield record;
  }
}
