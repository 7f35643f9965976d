/**
 * What a CSV file, or the rest of a paused batch, will cost: the columns the batch found (or would find) priced with
 * the table of src/billing/pricing.ts. The dashboard shows it before an upload and beside a batch paused for credits.
 */
import { parse } from 'csv-parse/sync';
import { estimateCredits, type CreditEstimate, type RowModules } from '../billing/pricing.js';
import type { Job } from '../bulk/job-store.js';
import { chooseColumns, type ColumnChoice, type ColumnParameters } from './columns.js';
import { csvGrammarError, sniffDelimiter } from './csv-file.js';
import { columnChoiceSchema } from './csv-source.js';

export const modulesOf = (columns: ColumnChoice): RowModules => ({
  address: columns.address.length > 0, email: columns.email !== null, phone: columns.phone !== null,
});

/** The rows a batch has still to check and what they will cost, from the columns it reads and what it charged so far. */
export function costToFinish(job: Pick<Job, 'settings' | 'rowsTotal' | 'rowsDone' | 'creditsCharged'>): CreditEstimate | null {
  const columns = columnChoiceSchema.safeParse(job.settings.columns);
  if (!columns.success) return null;
  return estimateCredits(job.rowsTotal - job.rowsDone, modulesOf(columns.data), { rows: job.rowsDone, credits: job.creditsCharged });
}

/**
 * The header of a file from its first line, read as the upload will read it (delimiter sniffed, RFC 4180 quotes).
 * Throws CsvGrammarError (line 1) where the upload would refuse the line, a quote never closed among them.
 */
export function headerOf(firstLine: string): string[] {
  try {
    const records = parse(firstLine, { delimiter: sniffDelimiter(firstLine), bom: true, to_line: 1, relax_column_count: true, relax_quotes: true }) as string[][];
    return records[0] ?? [];
  } catch (err) {
    throw csvGrammarError(err as Error, 1);
  }
}

/**
 * What a file of `rows` rows under this header line will cost, with the columns it will be read by. Throws
 * ColumnError as the upload would (no usable column, a named column missing), CsvGrammarError for a line it cannot read.
 */
export function estimateFile(firstLine: string, rows: number, params: ColumnParameters): { estimate: CreditEstimate; columns: ColumnChoice } {
  const columns = chooseColumns(headerOf(firstLine), params);
  return { estimate: estimateCredits(rows, modulesOf(columns)), columns };
}
