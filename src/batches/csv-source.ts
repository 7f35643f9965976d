/**
 * The bulk pipeline's source for CSV batches: a chunk's rows read again from the batch's file, each made into the
 * same contact input a /v1/validate body makes (and checked by the same schema: a cell too long or holding control
 * characters makes the row `failed` with the reason in `cv_error`, never a crash).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { JobSettings } from '../bulk/job-settings.js';
import type { Chunk, Job } from '../bulk/job-store.js';
import { sourceRecordOf, type SourceRecord } from '../bulk/record-pipeline.js';
import type { PolicyRules } from '../contact-check/policies.js';
import type { BulkSource } from '../bulk/runner.js';
import { type ColumnChoice, countryCodeOf } from './columns.js';
import { type Delimiter, type LineEnd, lineEndBefore, readChunkRows } from './csv-file.js';

/** Positions of the chosen columns in a row (-1: none); no `feedback` in batches made before it. */
export type ColumnIndexes = Omit<ReturnType<typeof columnIndexes>, 'feedback'> & { feedback?: number };

/**
 * What a CSV batch's job keeps in its settings: not the header, which stays in the file (bounded by the upload's
 * limits, yet read by every status request and chunk if it were kept here), but its width and the chosen positions.
 * Batches made before kept `header` instead of `width` and `at`, and no `lineEnd` (see batchLineEnd).
 */
export interface CsvBatchSettings {
  file: string;
  delimiter: Delimiter;
  dataStart: number;
  /** The file's line break, told to every parse of it (csv-file.ts). */
  lineEnd?: LineEnd;
  width?: number;
  columns: ColumnChoice;
  at?: ColumnIndexes;
  header?: string[];
  smtp: boolean;
  /** The policy's rules as they were at upload (docs/api.md#policies); absent: the fixed table. */
  policy?: PolicyRules;
}

/** The job kind of CSV batches (src/bulk's bulk_jobs.kind). */
export const BATCH_KIND = 'csv';

const columnsAt = z.int().min(-1);
export const columnChoiceSchema: z.ZodType<ColumnChoice> = z.object({
  address: z.array(z.string()), email: z.string().nullable(), phone: z.string().nullable(), country: z.string().nullable(),
  feedback: z.string().nullable().optional(),
});

/** A CSV batch's settings, checked as they are stored and read (loose: a key of an older release is kept as it was). */
export const CSV_SETTINGS = new JobSettings<CsvBatchSettings>(BATCH_KIND, z.looseObject({
  file: z.string(),
  delimiter: z.enum([',', ';', '\t']),
  dataStart: z.int().min(0),
  lineEnd: z.enum(['\r\n', '\n', '\r']).optional(),
  width: z.int().min(0).optional(),
  columns: columnChoiceSchema,
  at: z.object({ address: z.array(columnsAt), email: columnsAt, phone: columnsAt, country: columnsAt, feedback: columnsAt.optional() }).optional(),
  header: z.array(z.string()).optional(),
  smtp: z.boolean(),
  policy: z.custom<PolicyRules>((v) => typeof v === 'object' && v !== null).optional(),
}));

/** The line break a batch's file is read with: kept, or for a batch made before, the one ending its header line. */
export async function batchLineEnd(settings: CsvBatchSettings): Promise<LineEnd> {
  return settings.lineEnd ?? lineEndBefore(settings.file, settings.dataStart);
}

/** A row's record key: its sequence number, zero-padded so that keys sort in row order. */
export const rowKey = (seq: number) => String(seq).padStart(10, '0');

/** Column positions of a batch's choice in its header. */
export function columnIndexes(settings: { header: string[]; columns: ColumnChoice }) {
  const at = (name: string | null) => (name === null ? -1 : settings.header.indexOf(name));
  return {
    address: settings.columns.address.map(at),
    email: at(settings.columns.email),
    phone: at(settings.columns.phone),
    country: at(settings.columns.country),
    feedback: at(settings.columns.feedback ?? null),
  };
}

/** One row as a source record. */
export function recordOfRow(
  seq: number, cells: string[], at: ColumnIndexes, smtp: boolean, policy?: PolicyRules,
): SourceRecord {
  const cell = (i: number) => (i < 0 ? '' : (cells[i] ?? '').trim());
  const countryCell = cell(at.country);
  const country = countryCell ? countryCodeOf(countryCell) : null;
  const parts = at.address.map(cell).filter(Boolean);
  // A country no table knows stays in the address text, where the engine may still read it.
  if (parts.length && countryCell && !country) parts.push(countryCell);
  return sourceRecordOf(rowKey(seq), {
    address: parts.length ? parts.join(', ') : null,
    email: cell(at.email) || null,
    phone: cell(at.phone) || null,
    ...(country ? { country } : {}),
    smtp,
    policy,
  }, cell(at.feedback ?? -1) || undefined);
}

/** `batchDir`: the folder (BATCH_DIR) holding one folder per batch, deleted with the batch. */
export function csvSource(batchDir: string): BulkSource {
  return {
    async *records(job: Job, chunk: Chunk) {
      const settings = CSV_SETTINGS.of(job);
      const at = settings.at ?? columnIndexes({ header: settings.header ?? [], columns: settings.columns });
      const lineEnd = await batchLineEnd(settings);
      for await (const { seq, cells } of readChunkRows(settings.file, settings.delimiter, chunk, lineEnd)) {
        yield recordOfRow(seq, cells, at, settings.smtp, settings.policy);
      }
    },
    keyRange(chunk: Chunk): [string, string] {
      return [rowKey(chunk.firstSeq), rowKey(chunk.firstSeq + chunk.rowCount - 1)];
    },
    async discard(jobId: string) {
      // Only the batch's own folder; the id is ours (`batch_` and base64url), never a path.
      if (!/^batch_[A-Za-z0-9_-]+$/.test(jobId)) return;
      await fs.promises.rm(path.join(batchDir, jobId), { recursive: true, force: true });
    },
  };
}
