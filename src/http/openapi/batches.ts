/** The CSV batch endpoints in the OpenAPI description: upload parameters from the route's own schema, the batch views. */
import { z } from 'zod';
import type { JobStatus } from '../../bulk/job-store.js';
import { batchParameters } from '../routes/batches.js';
import { enumOf, type Component, type Operation, type Parameter } from './operation.js';

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
});

export const createdBatchSchema = batchSchema.extend({
  columns: z.object({
    address: z.array(z.string()).describe('Header names joined with ", " into the one-line address'),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    country: z.string().nullable(),
  }).describe('The columns read, as named or as detected from the header'),
  delimiter: z.string().describe('The delimiter detected: `,`, `;` or tab'),
});

export const batchListSchema = z.object({ batches: z.array(batchSchema).describe('Newest first, the latest 100') });

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
      columns: { address: ['Street', 'City', 'State', 'Zip'], email: 'Email', phone: 'Phone', country: null }, delimiter: ',',
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
  smtp: '`false` skips the mailbox probe for the whole file',
  name: "A label kept with the batch; by default the uploaded file's name (the form part's `filename`)",
};

/** Naming any column turns detection off; otherwise columns are found from common header names. */
const uploadParameters: Parameter[] = Object.entries(batchParameters.shape).map(([name, schema]) => ({
  name, in: 'query', required: false, schema, description: PARAMETER_TEXT[name as keyof typeof PARAMETER_TEXT],
}));

const batchId: Parameter = { name: 'batch_id', in: 'path', required: true, schema: z.string(), description: 'The batch' };
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const noStore = { 'Cache-Control': { description: '`no-store`', schema: z.string() } };

export const batchOperations: Operation[] = [
  {
    method: 'post', path: '/v1/batches', operationId: 'createBatch', tag: 'Batches', auth: 'key',
    summary: 'Upload a CSV file to validate in the background',
    description:
      'The file as the body (`text/csv`, streamed to disk), or the part `file` of `multipart/form-data`, at most ' +
      'BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; `,`, `;` or ' +
      'tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, or a field over BATCH_MAX_FIELD_BYTES ' +
      '(65536), is found while the file streams in: 422 `invalid-csv` with its `line`, nothing kept. Each row is priced ' +
      'and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.',
    parameters: uploadParameters,
    requestBody: {
      required: true,
      content: {
        'text/csv': { schema: csvUpload, example: 'Street,City,State,Zip,Email\n1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com\n' },
        'multipart/form-data': { schema: batchFormSchema },
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
  },
  {
    method: 'get', path: '/v1/batches', operationId: 'listBatches', tag: 'Batches', auth: 'key',
    summary: "The account's batches, newest first",
    responses: { 200: { description: 'The batches', content: json(batchListSchema), headers: noStore } },
    problems: [],
  },
  {
    method: 'get', path: '/v1/batches/{batch_id}', operationId: 'getBatch', tag: 'Batches', auth: 'key',
    summary: "A batch's status and progress",
    description: "Another account's batch answers 404, exactly like a missing one.",
    parameters: [batchId],
    responses: { 200: { description: 'The batch', content: json(batchSchema), headers: noStore } },
    problems: ['not-found'],
  },
  {
    method: 'get', path: '/v1/batches/{batch_id}/result', operationId: 'getBatchResult', tag: 'Batches', auth: 'key',
    summary: 'Download the enriched file',
    description:
      'Every input column in its order and spelling, then `cv_address_status, cv_address_standardized, cv_address_dpv, ' +
      'cv_address_zip4, cv_email_status, cv_email_risk, cv_email_smtp, cv_email_suggestion, cv_phone_status, ' +
      'cv_phone_type, cv_phone_carrier, cv_phone_e164, cv_error, cv_address_notes, cv_email_reason, cv_email_flags`; ' +
      'rows in input order, with the input\'s delimiter and CRLF between rows. A cell holding a line break (CR, LF or ' +
      'CRLF) is quoted, so that every row is one record. A cell a spreadsheet would run as a formula is written with a ' +
      'leading `\'` (OWASP), unless it is a plain number.',
    parameters: [batchId, {
      name: 'partial', in: 'query', required: false, schema: z.enum(['true', 'false']),
      description: '`true`: the rows done so far, before the batch has completed',
    }, {
      name: 'formula_escape', in: 'query', required: false, schema: z.enum(['true', 'false']),
      description: '`false`: cells as they are, without the leading `\'` (for a CRM import, where it would corrupt phone ' +
        'numbers). Such a file must not be opened in a spreadsheet: a cell starting with `=` would run there',
    }],
    responses: {
      200: {
        description: 'The result file, streamed',
        content: { 'text/csv': { schema: csvFile } },
        headers: { 'Content-Disposition': { description: '`attachment; filename="<name>-checked.csv"` (the name without `.csv`, or the batch id), with `filename*` (RFC 6266) for a name beyond ASCII', schema: z.string() } },
      },
    },
    problems: ['invalid-request', 'not-found', 'batch-not-ready', 'batch-gone'],
  },
  {
    method: 'post', path: '/v1/batches/{batch_id}/resume', operationId: 'resumeBatch', tag: 'Batches', auth: 'key',
    summary: 'Resume a paused batch now',
    description: 'A batch paused for want of credits also goes on by itself once the account has enough.',
    parameters: [batchId],
    responses: { 202: { description: 'The batch, resumed', content: json(batchSchema) } },
    problems: ['not-found', 'batch-not-paused'],
  },
  {
    method: 'delete', path: '/v1/batches/{batch_id}', operationId: 'cancelBatch', tag: 'Batches', auth: 'key',
    summary: 'Cancel a batch and delete its files',
    description: 'The batch stays listed as `canceled`; its result answers 410.',
    parameters: [batchId],
    responses: { 200: { description: 'The batch, canceled', content: json(batchSchema) } },
    problems: ['not-found'],
  },
];
