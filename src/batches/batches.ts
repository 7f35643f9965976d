/**
 * CSV batches (docs/batches.md), the story: an uploaded file (already on disk) is read once to find its delimiter, header,
 * contact columns and rows; a bad one is refused with the line at fault and nothing charged; a good one becomes a bulk
 * job cut into chunks and sent to the runner; its progress, result file, cancellation and resumption are read here.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DAY_MS } from '../billing/pricing.js';
import type { Job, JobStore, JobSummary } from '../bulk/job-store.js';
import type { Page, PageQuery } from '../db/pages.js';
import type { JobEvents } from '../bulk/job-events.js';
import type { BulkRunner, JobKind } from '../bulk/runner.js';
import { chooseColumns, ColumnError, type ColumnParameters } from './columns.js';
import { CsvGrammarError, type CsvLayout, type CsvLimits, CsvScan, scanCsv } from './csv-file.js';
import { BATCH_KIND, columnIndexes, CSV_SETTINGS, type CsvBatchSettings } from './csv-source.js';
import type { PolicyRules } from '../contact-check/policies.js';
import { resultCsv, resultPreview, type ResultOptions, type ResultPreview } from './result-csv.js';

export { BATCH_KIND };

export interface BatchOptions extends ColumnParameters {
  smtp?: boolean;
  name?: string;
  /** What `cv_next_action` follows (docs/api.md#policies); absent: the fixed table. */
  policyRules?: PolicyRules;
}

export interface BatchSettings {
  dir: string;
  retentionDays: number;
  chunkRows: number;
  limits: CsvLimits;
}

/** A batch's transitions as the service's events (`batch.completed`, `batch.paused`, `batch.failed`). */
export function batchTransitions(events: JobEvents): NonNullable<JobKind['transitioned']> {
  return async (job, t) => {
    const base = { batch_id: job.id, name: job.name };
    if (t.status === 'completed') {
      const { rowsTotal, rowsDone, rowsFailed, creditsCharged } = job;
      events.emit('batch.completed', job.accountId, {
        ...base, rows_total: rowsTotal, rows_done: rowsDone, rows_failed: rowsFailed, credits_charged: creditsCharged,
      });
    } else if (t.status === 'paused') {
      events.emit('batch.paused', job.accountId, { ...base, reason: t.reason, resume_credits: t.required });
    } else {
      events.emit('batch.failed', job.accountId, { ...base, reason: t.reason });
    }
  };
}

/** A file that cannot become a batch: the problem's detail, and its line when the grammar is at fault. */
export class BatchRejected extends Error {
  constructor(message: string, readonly line: number | null) {
    super(message);
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The outside view of a batch (GET /v1/batches/{id}). */
export function batchView(job: JobSummary, now = Date.now()) {
  const processed = job.rowsDone;
  let eta: number | null = null;
  if (job.status === 'running' && job.startedAt !== null && processed > 0) {
    const perRow = (now - job.startedAt) / processed;
    eta = Math.max(0, Math.round((perRow * (job.rowsTotal - processed)) / 1000));
  } else if (job.status === 'completed') {
    eta = 0;
  }
  return {
    batch_id: job.id,
    name: job.name,
    status: job.status,
    reason: job.reason,
    rows_total: job.rowsTotal,
    rows_done: job.rowsDone,
    rows_failed: job.rowsFailed,
    credits_charged: job.creditsCharged,
    created_at: iso(job.createdAt),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    expires_at: iso(job.expiresAt),
    eta_seconds: eta,
  };
}

export class Batches {
  constructor(
    private readonly store: JobStore,
    private readonly runner: BulkRunner,
    private readonly settings: BatchSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** BATCH_DIR: one folder per batch, and `uploads/` for files arriving. */
  get dir(): string {
    return this.settings.dir;
  }

  /** A fresh place for an upload to land (inside BATCH_DIR, so that making it the batch's file is a rename). */
  async uploadPath(): Promise<string> {
    const dir = path.join(this.settings.dir, 'uploads');
    await fs.promises.mkdir(dir, { recursive: true });
    return path.join(dir, `${crypto.randomBytes(12).toString('hex')}.csv`);
  }

  /** What an upload streams through as it lands: its layout, or its first fault, is known when the last byte is. */
  scanner(): CsvScan {
    return new CsvScan(this.settings.chunkRows, this.settings.limits);
  }

  /**
   * Makes the uploaded file a batch and starts it; `scanned`: the scanner the upload went through (else the file is
   * read here). The file is the batch's from then on; on refusal it is deleted. Throws BatchRejected (nothing is
   * stored, queued or charged).
   */
  async create(accountId: string, upload: string, options: BatchOptions, scanned?: CsvScan) {
    const id = `batch_${crypto.randomBytes(12).toString('base64url')}`;
    const dir = path.join(this.settings.dir, id);
    try {
      let layout: CsvLayout;
      try {
        layout = scanned ? scanned.layout() : await scanCsv(upload, this.settings.chunkRows, this.settings.limits);
      } catch (err) {
        if (err instanceof CsvGrammarError) throw new BatchRejected(err.message, err.line);
        throw err;
      }
      let columns;
      try {
        columns = chooseColumns(layout.header, options);
      } catch (err) {
        if (err instanceof ColumnError) throw new BatchRejected(err.message, 1);
        throw err;
      }
      await fs.promises.mkdir(dir, { recursive: true });
      const file = path.join(dir, 'input.csv');
      await fs.promises.rename(upload, file);
      // The header stays in the file (the result reads it from there): only its width and the chosen columns' positions
      // are kept in the job, whose settings every status request and chunk reads.
      const settings: CsvBatchSettings = {
        file, delimiter: layout.delimiter, lineEnd: layout.lineEnd, dataStart: layout.dataStart, width: layout.header.length, columns,
        at: columnIndexes({ header: layout.header, columns }), smtp: options.smtp ?? true,
        ...(options.policyRules ? { policy: options.policyRules } : {}),
      };
      await this.store.create({
        id, accountId, kind: BATCH_KIND, name: options.name ?? null, settings: CSV_SETTINGS.stored(settings),
        rowsTotal: layout.rowsTotal, expiresAt: this.now() + this.settings.retentionDays * DAY_MS, chunks: layout.chunks,
      });
      // The answer says how the batch stands as it is accepted (docs/batches.md: queued); the runner may take it at once.
      const job = (await this.store.get(id))!;
      await this.runner.enqueue(layout.chunks.map((_, idx) => ({ jobId: id, idx, kind: BATCH_KIND })));
      return {
        ...batchView(job, this.now()),
        columns: { address: columns.address, email: columns.email, phone: columns.phone, country: columns.country, feedback: columns.feedback ?? null },
        delimiter: layout.delimiter,
      };
    } catch (err) {
      await fs.promises.rm(upload, { force: true });
      if (err instanceof BatchRejected) await fs.promises.rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  async get(accountId: string, id: string): Promise<Job | null> {
    return this.store.getOwn(accountId, id, BATCH_KIND);
  }

  /** The account's batches, newest first, a page at a time (docs/api.md#lists). */
  list(accountId: string, page: PageQuery = { limit: 100 }): Promise<Page<JobSummary>> {
    return this.store.list(accountId, BATCH_KIND, page);
  }

  /** The result stream, or why not: `not_ready` (not completed and no `partial`), `gone` (canceled: files deleted). */
  result(job: Job, options: ResultOptions): Readable | 'not_ready' | 'gone' {
    if (job.status === 'canceled') return 'gone';
    if (job.status !== 'completed' && !options.partial) return 'not_ready';
    return resultCsv(this.store, job.id, CSV_SETTINGS.of(job), options);
  }

  /** The first rows done that need a person (next action confirm or fix), for the dashboard's batch page; null once canceled. */
  async preview(job: Job, limit = 25, scan = 20_000): Promise<ResultPreview | null> {
    if (job.status === 'canceled') return null;
    return resultPreview(this.store, job.id, CSV_SETTINGS.of(job), limit, scan);
  }

  /** Cancels and deletes the batch's files and results; false if the account has no such batch. */
  async cancel(accountId: string, id: string): Promise<boolean> {
    if (!(await this.store.getOwn(accountId, id, BATCH_KIND))) return false;
    this.runner.stopJob(id);
    if (!(await this.store.cancel(accountId, id))) return false;
    await this.runner.discard(id);
    return true;
  }

  /** Resumes a paused batch now; false when it is not paused. */
  async resume(id: string): Promise<boolean> {
    return this.runner.resume(id);
  }
}
