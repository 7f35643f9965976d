/**
 * A CSV batch's files over HTTP, for the API (./endpoints/batches.ts) and the dashboard (src/web) alike: the upload's
 * parameters, the upload made a batch, and the result streamed as a download.
 */
import fs from 'node:fs';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { POLICY_NAME, type PolicyRules } from '../contact-check/policies.js';
import { BatchRejected, type BatchOptions, type Batches } from '../batches/batches.js';
import type { ResultOptions } from '../batches/result-csv.js';
import type { Job } from '../bulk/job-store.js';
import { Problem } from './problems.js';
import { receiveUpload } from './upload.js';

const header = z.string().trim().min(1).max(200);
export const trueOrFalse = z.enum(['true', 'false']).transform((v) => v === 'true');
export const batchParameters = z
  .object({
    address_columns: z.string().trim().min(1).max(2_000).optional(),
    email_column: header.optional(),
    phone_column: header.optional(),
    country_column: header.optional(),
    feedback_column: header.optional(),
    smtp: trueOrFalse.optional(),
    name: z.string().max(200).optional(),
    policy: z.string().regex(POLICY_NAME, 'a policy name').optional(),
  })
  .strict();


/** A file's name as a batch's name: no control characters, at most 200 characters. */
const nameOfFile = (filename: string | null) => filename?.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim().slice(0, 200) || undefined;

/**
 * An uploaded CSV file (the body, or a form's `file` part) made a batch of the account, named after the form's file
 * unless a `name` is given. The file is read as it streams in: one it cannot read, or over BATCH_MAX_COLUMNS,
 * BATCH_MAX_FIELD_BYTES or BATCH_MAX_ROW_BYTES, is 422 and nothing is kept, queued or charged.
 */
export async function createFromUpload(
  req: Request, accountId: string, batches: Batches, maxBytes: number,
  optionsOf: (fields: Record<string, string>) => BatchOptions & { policy?: string },
  /** The rules a `policy` parameter names (docs/api.md#policies); a caller without one takes no `policy`. */
  policyNamed?: (name: string | undefined) => Promise<PolicyRules | undefined>,
) {
  const upload = await batches.uploadPath();
  const scan = batches.scanner();
  const { fields, filename } = await receiveUpload(req, upload, maxBytes, scan);
  try {
    const { policy, ...options } = optionsOf(fields);
    if (policy !== undefined && !policyNamed) throw new Problem('invalid-request', 'policy: not taken here', { errors: [{ field: 'policy', message: 'not taken here' }] });
    // The rules are kept with the batch as they are now: a policy changed or deleted later does not change its rows.
    const policyRules = await policyNamed?.(policy).catch(async (err: unknown) => {
      await fs.promises.rm(upload, { force: true });
      throw err;
    });
    return await batches.create(accountId, upload, { ...options, policyRules, name: options.name ?? nameOfFile(filename) }, scan);
  } catch (err) {
    if (err instanceof BatchRejected) {
      throw new Problem('invalid-csv', `Line ${err.line ?? 1}: ${err.message}. Nothing was charged.`, { line: err.line });
    }
    throw err;
  }
}

/** The download's file name: `<name>-checked.csv` (the name without its `.csv`), characters no file system takes replaced. */
export function resultFileName(job: Pick<Job, 'id' | 'name'>, partial: boolean): string {
  const stem = (job.name ?? job.id).replace(/\.(csv|tsv|txt)$/i, '').replace(/[\p{Cc}\p{Cf}"\\/<>:|?*]+/gu, '_').trim() || job.id;
  return `${stem}-checked${partial ? '-partial' : ''}.csv`;
}

/**
 * RFC 6266: `filename="…"` always (ASCII, `?` for what is not), and `filename*=UTF-8''…` (RFC 8187) beside it when the
 * name is not ASCII. The name has no quote or backslash left (resultFileName).
 */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '?');
  if (ascii === filename) return `attachment; filename="${filename}"`;
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The batch's result file streamed as a CSV download (or only the rows done so far, `partial`). */
export function sendBatchResult(res: Response, batches: Batches, job: Job, options: ResultOptions): void {
  const { partial } = options;
  const result = batches.result(job, options);
  if (result === 'gone') throw new Problem('batch-gone', 'The batch was canceled; its files and results are deleted.');
  if (result === 'not_ready') {
    throw new Problem('batch-not-ready', `The batch is ${job.status}; ask with ?partial=true for the rows done so far.`, {
      batch_status: job.status, rows_done: job.rowsDone, rows_total: job.rowsTotal,
    });
  }
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': attachment(resultFileName(job, partial)),
    'Cache-Control': 'no-store',
  });
  result.on('error', (err) => {
    res.locals.context.log.error({ err, batch_id: job.id }, 'batch result stream failed');
    res.destroy();
  });
  result.pipe(res);
}
