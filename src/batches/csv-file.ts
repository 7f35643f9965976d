/**
 * A batch's CSV file on disk, read with csv-parse (RFC 4180 quoting, a BOM dropped), never whole in memory:
 * `scanCsv` reads it once at upload (the delimiter, the header, the rows, where each chunk of rows starts and ends in
 * bytes, and the first grammar error with its line), and `readChunkRows` reads one chunk again from its byte range.
 */
import fs from 'node:fs';
import { CsvError, parse, type Options } from 'csv-parse';
import type { ChunkPlan } from '../bulk/job-store.js';

export type Delimiter = ',' | ';' | '\t';

export interface CsvLayout {
  delimiter: Delimiter;
  header: string[];
  /** Byte offset where the rows begin (after the header line). */
  dataStart: number;
  rowsTotal: number;
  chunks: ChunkPlan[];
}

/** The file breaks the CSV grammar at `line` (1-based), or lacks a header. */
export class CsvGrammarError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
  }
}

const DELIMITERS: Delimiter[] = [',', ';', '\t'];
const SNIFF_BYTES = 64 * 1024;

/**
 * The delimiter of the header line: the one of `,`, `;` and tab that occurs most outside quotes (a `;` file from a
 * European spreadsheet has commas inside its quoted cells, not between them). `,` when none occurs.
 */
export function sniffDelimiter(head: string): Delimiter {
  const counts = new Map<Delimiter, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of head.replace(/^\uFEFF/, '')) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch as Delimiter)) counts.set(ch as Delimiter, counts.get(ch as Delimiter)! + 1);
  }
  let best: Delimiter = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

const parserOptions = (delimiter: Delimiter, extra: Options = {}): Options => ({
  delimiter,
  bom: true,
  info: true,
  skip_empty_lines: true,
  relax_column_count: true,
  ...extra,
});

async function readHead(file: string): Promise<string> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * The file through csv-parse. `pipe` forwards no errors: a file deleted meanwhile (a batch canceled while its result
 * is read) would be an unhandled 'error' event, which ends the process. Here it ends the parse, and the reader's loop.
 */
function parsed(input: fs.ReadStream, options: Options) {
  const parser = parse(options);
  input.on('error', (err) => parser.destroy(err));
  return input.pipe(parser);
}

interface ParsedRow {
  record: string[];
  info: { bytes: number; lines: number };
}

/** Reads the whole file once: header, rows, chunks of `chunkRows` rows with their byte ranges. */
export async function scanCsv(file: string, chunkRows: number): Promise<CsvLayout> {
  const delimiter = sniffDelimiter(await readHead(file));
  const parser = parsed(fs.createReadStream(file, { highWaterMark: 256 * 1024 }), parserOptions(delimiter));
  let header: string[] | null = null;
  let dataStart = 0;
  let rows = 0;
  let lastEnd = 0;
  let lastLine = 0;
  const chunks: ChunkPlan[] = [];
  let open: ChunkPlan | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<ParsedRow>) {
      lastLine = info.lines;
      if (!header) {
        header = record;
        dataStart = lastEnd = info.bytes;
        if (!header.some((h) => h.trim())) throw new CsvGrammarError('the first line (the header) is empty', info.lines);
        continue;
      }
      if (record.length > header.length) {
        throw new CsvGrammarError(`the row has ${record.length} fields; the header has ${header.length}`, info.lines);
      }
      if (!open) open = { firstSeq: rows, rowCount: 0, byteStart: lastEnd, byteEnd: lastEnd };
      open.rowCount++;
      open.byteEnd = lastEnd = info.bytes;
      rows++;
      if (open.rowCount === chunkRows) {
        chunks.push(open);
        open = null;
      }
    }
  } catch (err) {
    parser.destroy();
    if (err instanceof CsvGrammarError) throw err;
    if (err instanceof CsvError) {
      // A quote never closed is found at the end of the file; the user needs the line where the row starts.
      if (err.code === 'CSV_QUOTE_NOT_CLOSED') throw new CsvGrammarError('a quoted field starting on this line is never closed', lastLine + 1);
      const line = Number((err as unknown as { lines?: number }).lines ?? 1);
      throw new CsvGrammarError(err.message.replace(/ at line \d+/, ''), line);
    }
    throw err;
  }
  if (open) {
    // The last row may end without a line break: its chunk runs to the end of the file.
    open.byteEnd = (await fs.promises.stat(file)).size;
    chunks.push(open);
  }
  if (!header) throw new CsvGrammarError('the file is empty: the first line must be the header', 1);
  return { delimiter, header, dataStart, rowsTotal: rows, chunks };
}

/** The rows of one chunk, read from its byte range, with their sequence numbers. */
export async function* readChunkRows(
  file: string, delimiter: Delimiter, range: { firstSeq: number; byteStart: number; byteEnd: number },
): AsyncGenerator<{ seq: number; cells: string[] }> {
  if (range.byteEnd <= range.byteStart) return;
  const parser = parsed(
    fs.createReadStream(file, { start: range.byteStart, end: range.byteEnd - 1, highWaterMark: 64 * 1024 }),
    parserOptions(delimiter, { bom: false }),
  );
  let seq = range.firstSeq;
  for await (const { record } of parser as AsyncIterable<ParsedRow>) yield { seq: seq++, cells: record };
}

/** Every row from `dataStart` to the end of the file, with its sequence number (the result file is built from it). */
export function readAllRows(file: string, delimiter: Delimiter, dataStart: number) {
  return readChunkRows(file, delimiter, { firstSeq: 0, byteStart: dataStart, byteEnd: Number.MAX_SAFE_INTEGER });
}
