/**
 * CSV batches (docs/batches.md): upload, status, list, result download, resume, cancel. Every batch is the calling
 * account's own: another account's answers 404, exactly like a missing one.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { pageAnswer, pageMembers, pageOf, pageQuery } from './list-page.js';
import { batchView, type Batches } from '../../batches/batches.js';
import type { Job, JobStatus } from '../../bulk/job-store.js';
import { batchParameters, createFromUpload, sendBatchResult, trueOrFalse } from '../batch-files.js';
import { requestPolicy } from './policies.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { parseBody } from '../request-schema.js';
import { accountOf, endpoint, enumOf, json, noStore } from './endpoint.js';

export const BATCH_STATUSES = enumOf<JobStatus>()(['queued', 'running', 'paused', 'completed', 'failed', 'canceled']);
const isoTime = z.iso.datetime();

export const batchSchema = z.object({
  batch_id: z.string(),
  name: z.string().nullable(),
  status: z.enum(BATCH_STATUSES),
  reason: z.string().nullable().describe('`credits_exhausted` for a paused batch; why, for a failed one'),
  rows_total: z.int().min(0),
  rows_done: z.int().min(0).describe('Rows processed, the failed ones included'),
  rows_failed: z.int().min(0),
  credits_charged: z.int().min(0),
  created_at: isoTime,
  started_at: isoTime.nullable(),
  finished_at: isoTime.nullable(),
  expires_at: isoTime.nullable().describe('When the file and results are deleted (BATCH_RETENTION_DAYS)'),
  eta_seconds: z.int().min(0).nullable(),
  // Issue 54.2, last (a field is never moved).
  email_checks: z.object({
    pending: z.int().min(0).describe('Rows whose e-mail answer the service is still asking about'),
    answered: z.int().min(0).describe('Rows whose e-mail answer arrived later (or ran out of tries)'),
    wait_seconds: z.int().min(0).describe('How long the batch waits for them after the newest was opened (BATCH_EMAIL_CHECK_WAIT_MS)'),
    waiting_until: isoTime.nullable().describe('When the batch stops waiting for them; null when it has none'),
  }).optional().describe(
    'GET /v1/batches/{batch_id} only: its e-mail answers that arrive later (docs/batches.md#answers-that-arrive-later)',
  ),
});

export const createdBatchSchema = batchSchema.extend({
  columns: z.object({
    address: z.array(z.string()).describe('Header names joined with ", " into the one-line address'),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    country: z.string().nullable(),
    feedback: z.string().nullable().describe('The feedback column (docs/batches.md#feedback)'),
  }).describe('The columns read, as named or as detected from the header'),
  delimiter: z.string().describe('The delimiter detected: `,`, `;` or tab'),
});

export const batchListSchema = z.object({ batches: z.array(batchSchema).describe('Newest first, a page (docs/api.md#lists)'), ...pageMembers });

const csvFile = z.string().meta({ contentMediaType: 'text/csv' });
/**
 * An uploaded file's bytes: any body, which the service reads as CSV (and refuses with 422 and its line when it is not).
 * No `type: string` here: a raw body is bytes on the wire, and a type a client could get "wrong" only misleads fuzzers.
 */
const csvUpload = z.any().meta({ contentMediaType: 'text/csv', description: 'The CSV file, as it is' });

/** The upload as `multipart/form-data`: the part `file` and the same parameters as form fields. */
export const batchFormSchema = z.object({ file: csvFile.describe('The CSV file'), ...batchParameters.shape });

const BATCH_EXAMPLE = {
  batch_id: 'batch_Qm3x8Zt1vK9pL2rW', name: 'March export', status: 'running', reason: null, rows_total: 1200,
  rows_done: 300, rows_failed: 0, credits_charged: 612, created_at: '2026-03-02T09:00:00.000Z',
  started_at: '2026-03-02T09:00:01.000Z', finished_at: null, expires_at: '2026-04-01T09:00:00.000Z', eta_seconds: 42,
};

export const batchComponents: Component[] = [
  [batchSchema, { id: 'Batch', examples: [BATCH_EXAMPLE] }],
  [createdBatchSchema, {
    id: 'CreatedBatch',
    examples: [{
      ...BATCH_EXAMPLE, status: 'queued', rows_done: 0, credits_charged: 0, started_at: null, eta_seconds: null,
      columns: { address: ['Street', 'City', 'State', 'Zip'], email: 'Email', phone: 'Phone', country: null, feedback: null }, delimiter: ',',
    }],
  }],
  [batchListSchema, { id: 'BatchList' }],
  [batchFormSchema, { id: 'BatchUploadForm' }],
];

const PARAMETER_TEXT: Record<keyof typeof batchParameters.shape, string> = {
  address_columns: 'Comma-separated header names joined with ", " into the one-line address (`Street,City,State,Zip`)',
  email_column: 'The header of the e-mail column',
  phone_column: 'The header of the phone column',
  country_column: 'The header of the country column',
  feedback_column: 'The header of a column telling what became of mail sent to the row\'s address (`bounced`, `delivered`, `complained`, or a mailing tool\'s words for them), recorded as the account\'s feedback before the row is checked (docs/batches.md#feedback); by default a column named `feedback`, `email outcome`, `delivery status`… Naming it leaves the detection of the other columns as it is',
  smtp: '`false` skips the mailbox probe for the whole file',
  name: "A label kept with the batch; by default the uploaded file's name (the form part's `filename`)",
  policy: 'The policy `cv_next_action` follows (docs/api.md#policies): a preset or one of the account\'s; by default the key\'s default policy, else the fixed table. Its rules are kept with the batch as they are at upload',
};

/** Naming any column turns detection off; otherwise columns are found from common header names. */
const uploadQuery = batchParameters.extend(Object.fromEntries(Object.entries(batchParameters.shape).map(
  ([name, schema]) => [name, schema.describe(PARAMETER_TEXT[name as keyof typeof PARAMETER_TEXT])],
)) as typeof batchParameters.shape);

/** The result's query: other parameters are ignored, as they always were (a cache-buster, say). */
const resultQuery = z.object({
  partial: trueOrFalse.optional().describe('`true`: the rows done so far, before the batch has completed'),
  formula_escape: trueOrFalse.optional().describe(
    '`false`: cells as they are, without the leading `\'` (for a CRM import, where it would corrupt phone ' +
    'numbers). Such a file must not be opened in a spreadsheet: a cell starting with `=` would run there',
  ),
});

const batchId = z.object({ batch_id: z.string().describe('The batch') });

/** The account's own batch named in the path, or 404. */
async function own(batches: Batches, req: Request, res: Response): Promise<Job> {
  const job = await batches.get(accountOf(res), String(req.params.id));
  if (!job) throw new Problem('not-found', 'No such batch on this account.');
  return job;
}

export const batchEndpoints = [
  endpoint({
    method: 'post', path: '/v1/batches', security: 'secret', operationId: 'createBatch', tag: 'Batches',
    summary: 'Upload a CSV file to validate in the background',
    description:
      'The file as the body (`text/csv`, streamed to disk), or the part `file` of `multipart/form-data`, at most ' +
      'BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; `,`, `;` or ' +
      'tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES ' +
      '(65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file ' +
      'streams in: 422 `invalid-csv` with its `line`, nothing kept. Each row is priced ' +
      'and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.',
    request: {
      query: uploadQuery,
      content: {
        required: true,
        content: {
          'text/csv': { schema: csvUpload, example: 'Street,City,State,Zip,Email\n1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com\n' },
          'multipart/form-data': { schema: batchFormSchema },
        },
      },
    },
    responses: {
      202: {
        description: 'The batch, queued',
        content: json(createdBatchSchema),
        headers: { Location: { description: '`/v1/batches/{batch_id}`', schema: z.string() } },
      },
    },
    problems: ['invalid-request', 'batch-too-large', 'unsupported-media-type', 'invalid-csv'],
    handler: async ({ req, res, deps, query }) => {
      const created = await createFromUpload(
        req, accountOf(res), deps.batches, deps.batchMaxBytes, (fields) => ({ ...query, ...parseBody(batchParameters, fields) }),
        (policy) => requestPolicy(deps.policies, res.locals.context.principal!, policy),
      );
      res.status(202).location(`/v1/batches/${created.batch_id}`).json(created);
    },
  }),
  endpoint({
    method: 'get', path: '/v1/batches', security: 'secret', operationId: 'listBatches', tag: 'Batches',
    summary: "The account's batches, newest first",
    request: { query: pageQuery(100) },
    responses: { 200: { description: 'The batches', content: json(batchListSchema), headers: noStore } },
    problems: ['invalid-request'],
    handler: async ({ res, query, deps }) => {
      const page = await deps.batches.list(accountOf(res), pageOf(query));
      res.set('Cache-Control', 'no-store').json({ batches: page.items.map((job) => batchView(job)), ...pageAnswer(page, (job) => job.id) });
    },
  }),
  endpoint({
    method: 'get', path: '/v1/batches/{batch_id}', security: 'secret', operationId: 'getBatch', tag: 'Batches',
    summary: "A batch's status and progress",
    description: "Another account's batch answers 404, exactly like a missing one.",
    request: { params: batchId },
    responses: { 200: { description: 'The batch', content: json(batchSchema), headers: noStore } },
    problems: ['not-found'],
    handler: async ({ req, res, deps }) => {
      const job = await own(deps.batches, req, res);
      res.set('Cache-Control', 'no-store').json({ ...batchView(job), email_checks: await deps.emailChecks.batchState(job.id) });
    },
  }),
  endpoint({
    method: 'get', path: '/v1/batches/{batch_id}/result', security: 'secret', operationId: 'getBatchResult', tag: 'Batches',
    summary: 'Download the enriched file',
    description:
      'Every input column in its order and spelling, then `cv_address_status, cv_address_standardized, cv_address_dpv, ' +
      'cv_address_zip4, cv_email_status, cv_email_risk, cv_email_smtp, cv_email_suggestion, cv_phone_status, ' +
      'cv_phone_type, cv_phone_carrier, cv_phone_e164, cv_error, cv_address_notes, cv_email_reason, cv_email_flags, cv_next_action, ' +
      'cv_address_lat, cv_address_lon, cv_address_precision, cv_address_evidence, cv_address_changes, cv_feedback`; ' +
      'rows in input order, with the input\'s delimiter and CRLF between rows. A cell holding a line break (CR, LF or ' +
      'CRLF) is quoted, so that every row is one record. A cell a spreadsheet would run as a formula is written with a ' +
      'leading `\'` (OWASP), unless it is a plain number.',
    request: { params: batchId, query: resultQuery },
    responses: {
      200: {
        description: 'The result file, streamed',
        content: { 'text/csv': { schema: csvFile } },
        headers: { 'Content-Disposition': { description: '`attachment; filename="<name>-checked.csv"` (the name without `.csv`, or the batch id), with `filename*` (RFC 6266) for a name beyond ASCII', schema: z.string() } },
      },
    },
    problems: ['invalid-request', 'not-found', 'batch-not-ready', 'batch-gone'],
    handler: async ({ req, res, deps, query }) => {
      const job = await own(deps.batches, req, res);
      sendBatchResult(res, deps.batches, job, { partial: query.partial ?? false, formulaEscape: query.formula_escape ?? true });
    },
  }),
  endpoint({
    method: 'post', path: '/v1/batches/{batch_id}/resume', security: 'secret', operationId: 'resumeBatch', tag: 'Batches',
    summary: 'Resume a paused batch now',
    description: 'A batch paused for want of credits also goes on by itself once the account has enough.',
    request: { params: batchId },
    responses: { 202: { description: 'The batch, resumed', content: json(batchSchema) } },
    problems: ['not-found', 'batch-not-paused'],
    handler: async ({ req, res, deps: { batches } }) => {
      const job = await own(batches, req, res);
      if (!(await batches.resume(job.id))) {
        throw new Problem('batch-not-paused', `The batch is ${job.status}; only a paused batch can be resumed.`);
      }
      res.status(202).json(batchView((await batches.get(accountOf(res), job.id))!));
    },
  }),
  endpoint({
    method: 'delete', path: '/v1/batches/{batch_id}', security: 'secret', operationId: 'cancelBatch', tag: 'Batches',
    summary: 'Cancel a batch and delete its files',
    description: 'The batch stays listed as `canceled`; its result answers 410.',
    request: { params: batchId },
    responses: { 200: { description: 'The batch, canceled', content: json(batchSchema) } },
    problems: ['not-found'],
    handler: async ({ req, res, deps: { batches } }) => {
      const accountId = accountOf(res);
      if (!(await batches.cancel(accountId, String(req.params.id)))) throw new Problem('not-found', 'No such batch on this account.');
      res.json(batchView((await batches.get(accountId, String(req.params.id)))!));
    },
  }),
];
