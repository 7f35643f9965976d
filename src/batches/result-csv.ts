/**
 * The result file of a batch (docs/batches.md), streamed: the input's header and rows as they were, in input order and
 * with the input's delimiter, then the `cv_*` columns, each row joined with its kept verdict a page at a time (memory
 * stays flat however long the file). csv-stringify writes the quoting.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { JobStore } from '../bulk/job-store.js';
import { VERDICT_COLUMNS } from './verdict.js';
import { readAllRows, readHeader } from './csv-file.js';
import { batchLineEnd, type CsvBatchSettings, rowKey } from './csv-source.js';

const PAGE = 1_000;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export interface ResultOptions {
  /** Only the rows done so far. */
  partial: boolean;
  /** false: cells are written as they are, without the leading `'` (for a CRM import; see docs/batches.md). */
  formulaEscape: boolean;
}

/**
 * OWASP's rule against CSV injection: a cell a spreadsheet would run as a formula (it starts with =, +, -, @, tab or
 * carriage return) gets a leading `'`, unless the whole cell is a plain number (`+14155550101`, `-3.5`). The rule
 * reads the cell's whole text: a formula after a line break inside the cell stays inside the quoted cell (see
 * resultCsv), where no spreadsheet runs it.
 */
export function formulaSafe(cell: string | null): string {
  if (!cell) return '';
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

const asWritten = (cell: string | null) => cell ?? '';

async function* resultRows(store: JobStore, jobId: string, settings: CsvBatchSettings, options: ResultOptions) {
  const cellOf = options.formulaEscape ? formulaSafe : asWritten;
  const lineEnd = await batchLineEnd(settings);
  const header = settings.header ?? await readHeader(settings.file, settings.delimiter, settings.dataStart, lineEnd);
  yield [...header, ...VERDICT_COLUMNS].map(cellOf);
  const width = settings.width ?? header.length;
  const verdictWidth = VERDICT_COLUMNS.length;
  let page: { key: string; result: (string | null)[] }[] = [];
  let at = 0;
  let lastKey = '';
  let exhausted = false;
  for await (const { seq, cells } of readAllRows(settings.file, settings.delimiter, settings.dataStart, lineEnd)) {
    const key = rowKey(seq);
    while (!exhausted && (at >= page.length || page[at].key < key)) {
      if (at < page.length) {
        at++;
        continue;
      }
      page = await store.records(jobId, lastKey, PAGE);
      at = 0;
      if (page.length) lastKey = page[page.length - 1].key;
      else exhausted = true;
    }
    const kept = at < page.length && page[at].key === key ? page[at].result : null;
    if (!kept && options.partial) continue; // not done yet
    const padded = cells.length < width ? [...cells, ...Array<string>(width - cells.length).fill('')] : cells;
    // A verdict kept before the result had its last columns is as wide as it was then.
    const verdict = kept
      ? (kept.length < verdictWidth ? [...kept, ...Array<null>(verdictWidth - kept.length).fill(null)] : kept)
      : VERDICT_COLUMNS.map((c) => (c === 'cv_error' ? 'not_processed' : null));
    yield [...padded, ...verdict].map(cellOf);
  }
}

/** The rows of a result a person should look at first: those whose `cv_next_action` is `confirm` or `fix`. */
export interface ResultPreview {
  rows: { row: number; verdict: Partial<Record<(typeof VERDICT_COLUMNS)[number], string>> }[];
  /** Rows read to find them (done rows only), and whether that was every row of the file. */
  scanned: number;
  complete: boolean;
}

/**
 * The first `limit` rows of the result that need a person (confirm or fix), their verdict columns by name, reading at
 * most `scan` rows of the file (a page stays quick whatever the batch's size: the file has the rest).
 */
export async function resultPreview(store: JobStore, jobId: string, settings: CsvBatchSettings, limit: number, scan: number): Promise<ResultPreview> {
  const preview: ResultPreview = { rows: [], scanned: 0, complete: true };
  let first = true;
  for await (const cells of resultRows(store, jobId, settings, { partial: true, formulaEscape: false })) {
    if (first) { first = false; continue; }
    if (preview.scanned >= scan || preview.rows.length >= limit) { preview.complete = false; break; }
    preview.scanned++;
    const verdict = Object.fromEntries(VERDICT_COLUMNS.map((c, i) => [c, cells[cells.length - VERDICT_COLUMNS.length + i] ?? ''])) as ResultPreview['rows'][number]['verdict'];
    if (verdict.cv_next_action === 'confirm' || verdict.cv_next_action === 'fix') preview.rows.push({ row: preview.scanned, verdict });
  }
  return preview;
}

/**
 * The result as a stream of CSV text, CRLF between rows. A cell holding any line break, a lone LF or CR included, is
 * quoted (RFC 4180 §2.6): csv-stringify by itself quotes only the record delimiter (CRLF), and a lone LF left bare
 * would split the row in two and start a new line with whatever followed it in the cell.
 */
export function resultCsv(store: JobStore, jobId: string, settings: CsvBatchSettings, options: ResultOptions): Readable {
  return Readable.from(resultRows(store, jobId, settings, options)).pipe(
    stringify({ delimiter: settings.delimiter, record_delimiter: 'windows', quoted_match: /[\r\n]/ }),
  );
}
