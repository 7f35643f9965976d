/**
 * CSV batches (docs/batches.md): upload, status, list, result download, resume, cancel. Every batch is the calling
 * account's own: another account's answers 404, exactly like a missing one.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { BatchRejected, type BatchOptions, type Batches, batchView } from '../../batches/batches.js';
import type { Job } from '../../bulk/job-store.js';
import { Problem } from '../problems.js';
import { parseBody } from '../request-schema.js';
import { receiveUpload } from '../upload.js';

const header = z.string().trim().min(1).max(200);
export const batchParameters = z
  .object({
    address_columns: z.string().trim().min(1).max(2_000).optional(),
    email_column: header.optional(),
    phone_column: header.optional(),
    country_column: header.optional(),
    smtp: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    name: z.string().max(200).optional(),
  })
  .strict();

const accountOf = (res: Response) => res.locals.context.principal!.accountId;

/** An uploaded CSV file (the body, or a form's `file` part) made a batch of the account; a file it cannot read is 422. */
export async function createFromUpload(
  req: Request, accountId: string, batches: Batches, maxBytes: number, optionsOf: (fields: Record<string, string>) => BatchOptions,
) {
  const upload = await batches.uploadPath();
  const { fields } = await receiveUpload(req, upload, maxBytes);
  try {
    return await batches.create(accountId, upload, optionsOf(fields));
  } catch (err) {
    if (err instanceof BatchRejected) {
      throw new Problem('invalid-csv', `Line ${err.line ?? 1}: ${err.message}. Nothing was charged.`, { line: err.line });
    }
    throw err;
  }
}

/** The batch's result file streamed as a CSV download (or only the rows done so far, `partial`). */
export function sendBatchResult(res: Response, batches: Batches, job: Job, partial: boolean): void {
  const result = batches.result(job, partial);
  if (result === 'gone') throw new Problem('batch-gone', 'The batch was canceled; its files and results are deleted.');
  if (result === 'not_ready') {
    throw new Problem('batch-not-ready', `The batch is ${job.status}; ask with ?partial=true for the rows done so far.`, {
      batch_status: job.status, rows_done: job.rowsDone, rows_total: job.rowsTotal,
    });
  }
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${job.id}${partial ? '-partial' : ''}.csv"`,
    'Cache-Control': 'no-store',
  });
  result.on('error', (err) => {
    res.locals.context.log.error({ err, batch_id: job.id }, 'batch result stream failed');
    res.destroy();
  });
  result.pipe(res);
}

export function batchRoutes(router: Router, guard: RequestHandler[], batches: Batches, maxBytes: number): void {
  const own = async (req: Request, res: Response): Promise<Job> => {
    const job = await batches.get(accountOf(res), String(req.params.id));
    if (!job) throw new Problem('not-found', 'No such batch on this account.');
    return job;
  };

  router.post('/v1/batches', ...guard, async (req, res) => {
    const query = parseBody(batchParameters, req.query);
    const created = await createFromUpload(req, accountOf(res), batches, maxBytes, (fields) => ({ ...query, ...parseBody(batchParameters, fields) }));
    res.status(202).location(`/v1/batches/${created.batch_id}`).json(created);
  });

  router.get('/v1/batches', ...guard, async (_req, res) => {
    const list = await batches.list(accountOf(res));
    res.set('Cache-Control', 'no-store').json({ batches: list.map((job) => batchView(job)) });
  });

  router.get('/v1/batches/:id', ...guard, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(batchView(await own(req, res)));
  });

  router.get('/v1/batches/:id/result', ...guard, async (req, res) => {
    const job = await own(req, res);
    const partialParameter = req.query.partial;
    if (partialParameter !== undefined && partialParameter !== 'true' && partialParameter !== 'false') {
      throw new Problem('invalid-request', 'partial is true or false.', { errors: [{ field: 'partial', message: 'true or false' }] });
    }
    sendBatchResult(res, batches, job, partialParameter === 'true');
  });

  router.post('/v1/batches/:id/resume', ...guard, async (req, res) => {
    const job = await own(req, res);
    if (!(await batches.resume(job.id))) {
      throw new Problem('batch-not-paused', `The batch is ${job.status}; only a paused batch can be resumed.`);
    }
    res.status(202).json(batchView((await batches.get(accountOf(res), job.id))!));
  });

  router.delete('/v1/batches/:id', ...guard, async (req, res) => {
    const accountId = accountOf(res);
    if (!(await batches.cancel(accountId, String(req.params.id)))) throw new Problem('not-found', 'No such batch on this account.');
    res.json(batchView((await batches.get(accountId, String(req.params.id)))!));
  });
}
