/**
 * The result file of a batch (docs/batches.md), streamed: the input's header and rows as they were, in input order and
 * with the input's delimiter, then the `cv_*` columns, each row joined with its kept verdict a page at a time (memory
 * stays flat however long the file). csv-stringify writes the quoting.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { JobStore } from '../bulk/job-store.js';
import { VERDICT_COLUMNS } from '../bulk/record-pipeline.js';
import { readAllRows } from './csv-file.js';
import { type CsvBatchSettings, rowKey } from './csv-source.js';

const PAGE = 1_000;
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * OWASP's rule against CSV injection: a cell a spreadsheet would run as a formula (it starts with =, +, -, @, tab or
 * carriage return) gets a leading `'`, unless the whole cell is a plain number (`+14155550101`, `-3.5`).
 */
export function formulaSafe(cell: string | null): string {
  if (!cell) return '';
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

async function* resultRows(store: JobStore, jobId: string, settings: CsvBatchSettings, partial: boolean) {
  yield [...settings.header, ...VERDICT_COLUMNS].map(formulaSafe);
  const width = settings.header.length;
  let page: { key: string; result: (string | null)[] }[] = [];
  let at = 0;
  let lastKey = '';
  let exhausted = false;
  for await (const { seq, cells } of readAllRows(settings.file, settings.delimiter, settings.dataStart)) {
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
    if (!kept && partial) continue; // not done yet
    const padded = cells.length < width ? [...cells, ...Array<string>(width - cells.length).fill('')] : cells;
    yield [...padded, ...(kept ?? VERDICT_COLUMNS.map((c) => (c === 'cv_error' ? 'not_processed' : null)))].map(formulaSafe);
  }
}

/** The result as a stream of CSV text. */
export function resultCsv(store: JobStore, jobId: string, settings: CsvBatchSettings, partial: boolean): Readable {
  return Readable.from(resultRows(store, jobId, settings, partial)).pipe(
    stringify({ delimiter: settings.delimiter, record_delimiter: 'windows' }),
  );
}
