/**
 * Where bulk jobs live: `bulk_jobs` (one per CSV batch or connector run), `bulk_chunks` (the unit a runner claims, with
 * a lease that a live runner renews and a dead one lets lapse) and `bulk_records` (one row per finished record, keyed
 * by job and record key). Every state change is one conditional UPDATE, so that several runners (threads of one
 * process, or several service instances on one PostgreSQL) agree without any other coordination.
 */
import type { Database } from '../db/data-source.js';
import { keysetPage, type Page, type PageQuery } from '../db/pages.js';
import { all, run, runSteps, type Steps } from '../db/transaction-steps.js';

export type JobStatus = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'canceled';
export type RecordOutcome = 'ok' | 'failed' | 'empty';

export interface Job {
  id: string;
  accountId: string;
  kind: string;
  name: string | null;
  status: JobStatus;
  reason: string | null;
  settings: Record<string, unknown>;
  rowsTotal: number;
  rowsDone: number;
  rowsFailed: number;
  creditsCharged: number;
  resumeCredits: number | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
}

/** A slice of a job's records: for a CSV batch, a run of rows and the bytes of the file that hold them. */
export interface ChunkPlan {
  firstSeq: number;
  rowCount: number;
  byteStart: number;
  byteEnd: number;
}

export interface Chunk extends ChunkPlan {
  jobId: string;
  idx: number;
}

export interface FinishedRecord {
  key: string;
  outcome: RecordOutcome;
  credits: number;
  /** The flat verdict (the `cv_*` columns), as the sink writes it. */
  result: (string | null)[];
  /** Why the record failed or has nothing to check (its `cv_error`), else null. */
  error: string | null;
}

/** The chunk a queue delivers: which job, which slice. */
export interface ChunkTask {
  jobId: string;
  idx: number;
  /** The job's kind, when the sender knows it: the runner sends each kind down its own lane. */
  kind?: string;
}

/** A job without its settings: what a list shows. */
export type JobSummary = Omit<Job, 'settings'>;

const SUMMARY_COLUMNS = `id, account_id, kind, name, status, reason, rows_total, rows_done, rows_failed,
  credits_charged, resume_credits, created_at, started_at, finished_at, expires_at`;
const JOB_COLUMNS = `${SUMMARY_COLUMNS}, settings`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function jobOf(r: Record<string, unknown>): Job {
  return { ...summaryOf(r), settings: JSON.parse(String(r.settings)) as Record<string, unknown> };
}

function summaryOf(r: Record<string, unknown>): JobSummary {
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    kind: String(r.kind),
    name: r.name === null ? null : String(r.name),
    status: r.status as JobStatus,
    reason: r.reason === null ? null : String(r.reason),
    rowsTotal: Number(r.rows_total),
    rowsDone: Number(r.rows_done),
    rowsFailed: Number(r.rows_failed),
    creditsCharged: Number(r.credits_charged),
    resumeCredits: num(r.resume_credits),
    createdAt: Number(r.created_at),
    startedAt: num(r.started_at),
    finishedAt: num(r.finished_at),
    expiresAt: Number(r.expires_at),
  };
}

/** Multi-row INSERTs stay under both databases' parameter limits (SQLite: 32,766; PostgreSQL: 65,535). */
const ROWS_PER_INSERT = 500;

export class JobStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async create(job: {
    id: string; accountId: string; kind: string; name: string | null; settings: Record<string, unknown>;
    rowsTotal: number; expiresAt: number; chunks: ChunkPlan[];
    /** At most one live (queued, running, paused) job per lock key: the insert is refused (false) while one is. */
    lockKey?: string;
  }, then?: () => Steps<void>): Promise<boolean> {
    const at = this.now();
    return runSteps(this.db, function* () {
      const inserted = (yield run(
        `INSERT INTO bulk_jobs (id, account_id, kind, name, status, settings, rows_total, created_at, expires_at, lock_key)
         VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $8, $9)
         ON CONFLICT (lock_key) WHERE lock_key IS NOT NULL AND status IN ('queued', 'running', 'paused') DO NOTHING`,
        job.id, job.accountId, job.kind, job.name, JSON.stringify(job.settings), job.rowsTotal, at, job.expiresAt,
        job.lockKey ?? null,
      )) as number;
      if (!inserted) return false;
      for (let i = 0; i < job.chunks.length; i += ROWS_PER_INSERT) {
        const slice = job.chunks.slice(i, i + ROWS_PER_INSERT);
        const values = slice.map((_, k) => `($1, $${6 * k + 2}, $${6 * k + 3}, $${6 * k + 4}, $${6 * k + 5}, $${6 * k + 6}, 'pending', $${6 * k + 7})`);
        const params: unknown[] = [job.id];
        slice.forEach((c, k) => params.push(i + k, c.firstSeq, c.rowCount, c.byteStart, c.byteEnd, at));
        yield run(
          `INSERT INTO bulk_chunks (job_id, idx, first_seq, row_count, byte_start, byte_end, state, sent_at)
           VALUES ${values.join(', ')}`,
          ...params,
        );
      }
      if (then) yield* then();
      return true;
    });
  }

  /** The live (queued, running, paused) job holding a lock key, if any. */
  async liveByLock(lockKey: string): Promise<Job | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE lock_key = $1 AND status IN ('queued', 'running', 'paused')`, [lockKey],
    );
    return rows[0] ? jobOf(rows[0]) : null;
  }

  async get(jobId: string): Promise<Job | null> {
    const rows = await this.db.all<Record<string, unknown>>(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1`, [jobId]);
    return rows[0] ? jobOf(rows[0]) : null;
  }

  /** One account's job: another account's answers exactly like a missing one. */
  async getOwn(accountId: string, jobId: string, kind: string): Promise<Job | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE id = $1 AND account_id = $2 AND kind = $3`,
      [jobId, accountId, kind],
    );
    return rows[0] ? jobOf(rows[0]) : null;
  }

  /** The account's latest jobs, without their settings (a list needs none of them). */
  /** The account's jobs of a kind, newest first, a page at a time (src/db/pages.ts). */
  async list(accountId: string, kind: string, page: PageQuery): Promise<Page<JobSummary>> {
    const found = await keysetPage<Record<string, unknown>>(this.db, {
      table: 'bulk_jobs', columns: SUMMARY_COLUMNS, where: 'account_id = $1 AND kind = $2', params: [accountId, kind], time: 'created_at',
    }, page);
    return { items: found.items.map(summaryOf), hasMore: found.hasMore };
  }

  /**
   * Takes a chunk for `owner` until `leaseUntil`, if it is free (pending, or running under a lease that lapsed) and
   * its job may run; marks the job running. Null when another runner has it or the job is paused, canceled or done.
   */
  async claim(task: ChunkTask, owner: string, leaseMs: number): Promise<Chunk | null> {
    const at = this.now();
    return runSteps(this.db, function* () {
      const rows = (yield all(
        `UPDATE bulk_chunks SET state = 'running', lease_owner = $1, lease_until = $2
         WHERE job_id = $3 AND idx = $4 AND (state = 'pending' OR (state = 'running' AND lease_until < $5))
           AND EXISTS (SELECT 1 FROM bulk_jobs j WHERE j.id = $3 AND j.status IN ('queued', 'running'))
         RETURNING first_seq, row_count, byte_start, byte_end`,
        owner, at + leaseMs, task.jobId, task.idx, at,
      )) as Record<string, unknown>[];
      if (!rows.length) return null;
      yield run(
        `UPDATE bulk_jobs SET status = 'running', started_at = COALESCE(started_at, $2) WHERE id = $1 AND status = 'queued'`,
        task.jobId, at,
      );
      const r = rows[0];
      return {
        jobId: task.jobId, idx: task.idx, firstSeq: Number(r.first_seq), rowCount: Number(r.row_count),
        byteStart: Number(r.byte_start), byteEnd: Number(r.byte_end),
      };
    });
  }

  /** Extends the lease; false when the chunk is no longer this owner's (its lease lapsed and another took it). */
  async renewLease(chunk: Chunk, owner: string, leaseMs: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE bulk_chunks SET lease_until = $1 WHERE job_id = $2 AND idx = $3 AND lease_owner = $4 AND state = 'running'`,
      [this.now() + leaseMs, chunk.jobId, chunk.idx, owner],
    );
    return changed === 1;
  }

  /** Keys of the chunk's records already finished (by an earlier attempt): they are skipped. */
  async finishedKeys(jobId: string, fromKey: string, toKey: string): Promise<Set<string>> {
    const rows = await this.db.all<{ record_key: string }>(
      `SELECT record_key FROM bulk_records WHERE job_id = $1 AND record_key >= $2 AND record_key <= $3`,
      [jobId, fromKey, toKey],
    );
    return new Set(rows.map((r) => r.record_key));
  }

  /**
   * Keeps finished records and adds them to the job's progress, in one transaction. A record already kept (by an
   * earlier attempt of the chunk) is neither written nor counted again. Returns the job's status after the write.
   */
  async saveRecords(jobId: string, records: FinishedRecord[], worker: string): Promise<JobStatus | null> {
    const at = this.now();
    return runSteps(this.db, function* () {
      // A job canceled meanwhile keeps nothing more (its records were deleted with it). One paused by another chunk
      // keeps what this chunk did and paid for.
      const before = (yield all(`SELECT status FROM bulk_jobs WHERE id = $1`, jobId)) as { status: JobStatus }[];
      if (before[0]?.status !== 'running' && before[0]?.status !== 'paused') return before[0]?.status ?? null;
      let done = 0;
      let failed = 0;
      let credits = 0;
      for (let i = 0; i < records.length; i += ROWS_PER_INSERT) {
        const slice = records.slice(i, i + ROWS_PER_INSERT);
        const values = slice.map((_, k) => `($1, $${4 * k + 4}, $${4 * k + 5}, $${4 * k + 6}, $${4 * k + 7}, $2, $3)`);
        const params: unknown[] = [jobId, worker, at];
        for (const r of slice) params.push(r.key, r.outcome, r.credits, JSON.stringify(r.result));
        const kept = (yield all(
          `INSERT INTO bulk_records (job_id, record_key, outcome, credits, result, worker, created_at)
           VALUES ${values.join(', ')} ON CONFLICT (job_id, record_key) DO NOTHING RETURNING outcome, credits`,
          ...params,
        )) as { outcome: RecordOutcome; credits: number | string }[];
        for (const k of kept) {
          done++;
          if (k.outcome === 'failed') failed++;
          credits += Number(k.credits);
        }
      }
      if (done) {
        yield run(
          `UPDATE bulk_jobs SET rows_done = rows_done + $2, rows_failed = rows_failed + $3, credits_charged = credits_charged + $4
           WHERE id = $1`,
          jobId, done, failed, credits,
        );
      }
      const rows = (yield all(`SELECT status FROM bulk_jobs WHERE id = $1`, jobId)) as { status: JobStatus }[];
      return rows[0]?.status ?? null;
    });
  }

  /**
   * The chunk is finished: marked done, and the job completed if it was the last one. Returns whether the job is
   * now complete.
   */
  async finishChunk(chunk: Chunk, owner: string): Promise<boolean> {
    const at = this.now();
    return runSteps(this.db, function* () {
      yield run(
        `UPDATE bulk_chunks SET state = 'done', lease_owner = NULL, lease_until = NULL
         WHERE job_id = $1 AND idx = $2 AND lease_owner = $3`,
        chunk.jobId, chunk.idx, owner,
      );
      const completed = (yield run(
        `UPDATE bulk_jobs SET status = 'completed', reason = NULL, finished_at = $2
         WHERE id = $1 AND status = 'running'
           AND NOT EXISTS (SELECT 1 FROM bulk_chunks c WHERE c.job_id = $1 AND c.state <> 'done')`,
        chunk.jobId, at,
      )) as number;
      return completed === 1;
    });
  }

  /** The chunk goes back to the pending pile (the job paused, or the attempt gave up): another attempt resumes it. */
  async releaseChunk(chunk: Chunk, owner: string): Promise<void> {
    await this.db.run(
      `UPDATE bulk_chunks SET state = 'pending', lease_owner = NULL, lease_until = NULL, sent_at = NULL
       WHERE job_id = $1 AND idx = $2 AND lease_owner = $3 AND state = 'running'`,
      [chunk.jobId, chunk.idx, owner],
    );
  }

  /** Pauses a running job for want of credits (true when this call paused it); it resumes once the balance reaches `resumeCredits`. */
  async pauseForCredits(jobId: string, resumeCredits: number): Promise<boolean> {
    return 1 === await this.db.run(
      `UPDATE bulk_jobs SET status = 'paused', reason = 'credits_exhausted', resume_credits = $2
       WHERE id = $1 AND status IN ('queued', 'running')`,
      [jobId, resumeCredits],
    );
  }

  /** A paused job runs again; returns its chunks still to do (to be sent to the queue), or null if it was not paused. */
  async resume(jobId: string, then?: () => Steps<void>): Promise<ChunkTask[] | null> {
    const at = this.now();
    return runSteps(this.db, function* () {
      const changed = (yield run(
        `UPDATE bulk_jobs SET status = 'running', reason = NULL, resume_credits = NULL WHERE id = $1 AND status = 'paused'`,
        jobId,
      )) as number;
      if (!changed) return null;
      if (then) yield* then();
      const kind = (yield all(`SELECT kind FROM bulk_jobs WHERE id = $1`, jobId)) as { kind: string }[];
      const rows = (yield all(
        `UPDATE bulk_chunks SET sent_at = $2 WHERE job_id = $1 AND state = 'pending' RETURNING idx`,
        jobId, at,
      )) as { idx: number | string }[];
      return rows.map((r) => ({ jobId, idx: Number(r.idx), kind: kind[0]?.kind }));
    });
  }

  /** Ends the job as failed; false when it had ended already (or was canceled). */
  /** Replaces an ended job's settings (what a kind keeps no longer than the job's work: a delivered order's contact). */
  async endedSettings(jobId: string, settings: Record<string, unknown>): Promise<void> {
    await this.db.run(
      `UPDATE bulk_jobs SET settings = $2 WHERE id = $1 AND status IN ('completed', 'failed', 'canceled')`, [jobId, JSON.stringify(settings)],
    );
  }

  async fail(jobId: string, reason: string): Promise<boolean> {
    return 1 === await this.db.run(
      `UPDATE bulk_jobs SET status = 'failed', reason = $2, finished_at = $3 WHERE id = $1 AND status IN ('queued', 'running', 'paused')`,
      [jobId, reason, this.now()],
    );
  }

  /** Cancels the job (if it has not ended) and deletes its records; true if it was the account's. */
  async cancel(accountId: string, jobId: string): Promise<boolean> {
    const at = this.now();
    return runSteps(this.db, function* () {
      const rows = (yield all(`SELECT status FROM bulk_jobs WHERE id = $1 AND account_id = $2`, jobId, accountId)) as unknown[];
      if (!rows.length) return false;
      // Whatever it was, even completed: its files and results are gone, so its result answers 410 from now on.
      yield run(
        `UPDATE bulk_jobs SET status = 'canceled', reason = NULL, finished_at = COALESCE(finished_at, $2) WHERE id = $1`,
        jobId, at,
      );
      yield run(`UPDATE bulk_chunks SET state = 'done', lease_owner = NULL, lease_until = NULL WHERE job_id = $1`, jobId);
      yield run(`DELETE FROM bulk_records WHERE job_id = $1`, jobId);
      return true;
    });
  }

  /** Jobs past their retention: deleted with their chunks and records. Returns their ids (their files go too). */
  async deleteExpired(): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(`SELECT id FROM bulk_jobs WHERE expires_at < $1`, [this.now()]);
    for (const { id } of rows) {
      await runSteps(this.db, function* () {
        yield run(`DELETE FROM bulk_records WHERE job_id = $1`, id);
        yield run(`DELETE FROM bulk_chunks WHERE job_id = $1`, id);
        yield run(`DELETE FROM bulk_jobs WHERE id = $1`, id);
      });
    }
    return rows.map((r) => r.id);
  }

  /**
   * Chunks that need sending to the queue: those whose runner died (lease lapsed: back to pending), and pending ones of
   * live jobs not sent within `resendAfterMs` (or never, with `everyPending`: an in-memory queue after a restart).
   * Marks them sent now. Several instances may sweep at once: each chunk is handed to one of them.
   */
  async sweepChunks(resendAfterMs: number, everyPending: boolean): Promise<ChunkTask[]> {
    const at = this.now();
    return runSteps(this.db, function* () {
      const lapsed = (yield all(
        `UPDATE bulk_chunks SET state = 'pending', lease_owner = NULL, lease_until = NULL, sent_at = $1
         WHERE state = 'running' AND lease_until < $1 RETURNING job_id, idx`,
        at,
      )) as { job_id: string; idx: number | string }[];
      const stale = (yield all(
        `UPDATE bulk_chunks SET sent_at = $1
         WHERE state = 'pending' AND ($3 OR sent_at IS NULL OR sent_at < $2)
           AND job_id IN (SELECT id FROM bulk_jobs WHERE status IN ('queued', 'running'))
         RETURNING job_id, idx`,
        at, at - resendAfterMs, everyPending,
      )) as { job_id: string; idx: number | string }[];
      const tasks = [...lapsed, ...stale];
      const ids = [...new Set(tasks.map((t) => t.job_id))];
      const kinds = new Map<string, string>();
      for (let i = 0; i < ids.length; i += ROWS_PER_INSERT) {
        const slice = ids.slice(i, i + ROWS_PER_INSERT);
        const rows = (yield all(
          `SELECT id, kind FROM bulk_jobs WHERE id IN (${slice.map((_, k) => `$${k + 1}`).join(', ')})`, ...slice,
        )) as { id: string; kind: string }[];
        for (const r of rows) kinds.set(r.id, r.kind);
      }
      return tasks.map((r) => ({ jobId: r.job_id, idx: Number(r.idx), kind: kinds.get(r.job_id) }));
    });
  }

  /**
   * Running jobs whose chunks are all done, completed now. `finishChunk` completes a job when its last chunk ends, but
   * on PostgreSQL (READ COMMITTED) two chunks ending at once each see the other still running, and neither completes
   * it: the sweeper settles such a job. Returns the ids it completed.
   */
  async completeFinished(): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      `UPDATE bulk_jobs SET status = 'completed', reason = NULL, finished_at = $1
       WHERE status = 'running'
         AND EXISTS (SELECT 1 FROM bulk_chunks c WHERE c.job_id = bulk_jobs.id)
         AND NOT EXISTS (SELECT 1 FROM bulk_chunks c WHERE c.job_id = bulk_jobs.id AND c.state <> 'done')
       RETURNING id`,
      [this.now()],
    );
    return rows.map((r) => r.id);
  }

  /** Jobs paused for credits, with what they wait for. */
  async pausedForCredits(): Promise<{ id: string; accountId: string; resumeCredits: number }[]> {
    const rows = await this.db.all<{ id: string; account_id: string; resume_credits: number | string | null }>(
      `SELECT id, account_id, resume_credits FROM bulk_jobs WHERE status = 'paused' AND reason = 'credits_exhausted'`,
    );
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, resumeCredits: Number(r.resume_credits ?? 1) }));
  }

  /** Finished records in key order from `afterKey` on, a page at a time (the result file is streamed from these). */
  async records(jobId: string, afterKey: string, limit: number): Promise<{ key: string; result: (string | null)[] }[]> {
    const rows = await this.db.all<{ record_key: string; result: string }>(
      `SELECT record_key, result FROM bulk_records WHERE job_id = $1 AND record_key > $2 ORDER BY record_key LIMIT $3`,
      [jobId, afterKey, limit],
    );
    return rows.map((r) => ({ key: r.record_key, result: JSON.parse(r.result) as (string | null)[] }));
  }
}
