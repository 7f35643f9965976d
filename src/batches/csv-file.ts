/**
 * A batch's CSV file, read with csv-parse (RFC 4180 quoting, a BOM dropped), never whole in memory. `CsvScan` reads
 * it once as it streams in (the upload, or a file): its bytes pass through unchanged while the delimiter, the header,
 * the rows, where each chunk of rows starts and ends in bytes, and the first fault with its line are found. Its shape
 * is bounded as the bytes arrive (`CsvLimits`), before csv-parse buffers a field or a record: a file of one endless
 * header or one endless quoted field is refused after a few kilobytes, not after it fills the memory.
 * `readChunkRows` reads one chunk again from its byte range.
 *
 * Every parse is told the file's line break (`LineEnd`). Left to find it, csv-parse tries the three kinds at every byte
 * until the first one, making three Buffers each time: some 0.5 µs a byte, 23 s of CPU for a 32 MiB header, and as much
 * again for every chunk or result download that starts with a long row (issue 51.3).
 */
import fs from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse, type Options, type Parser } from 'csv-parse';
import type { ChunkPlan } from '../bulk/job-store.js';

export type Delimiter = ',' | ';' | '\t';
export type LineEnd = '\r\n' | '\n' | '\r';

export interface CsvLayout {
  delimiter: Delimiter;
  header: string[];
  /** Byte offset where the rows begin (after the header line). */
  dataStart: number;
  /** The line break between records: the first one outside quotes. */
  lineEnd: LineEnd;
  rowsTotal: number;
  chunks: ChunkPlan[];
}

/** BATCH_MAX_COLUMNS, BATCH_MAX_FIELD_BYTES and BATCH_MAX_ROW_BYTES (a row's bytes, the header's included, its line break not). */
export interface CsvLimits {
  maxColumns: number;
  maxFieldBytes: number;
  maxRowBytes: number;
}

/** The file breaks the CSV grammar or a limit at `line` (1-based), or lacks a header or rows. */
export class CsvGrammarError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
  }
}

const DELIMITERS: Delimiter[] = [',', ';', '\t'];
const SNIFF_BYTES = 64 * 1024;
/** What the held header is parsed in at a time, the event loop free between (other requests wait less than a millisecond). */
const PARSE_SLICE = 64 * 1024;

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

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/**
 * Counts the columns of the row and the bytes of the field and of the row being read, byte by byte as they arrive, with
 * RFC 4180's quoting (a quote opens a field only at its start; `""` inside is one quote), and the physical line each
 * row starts on. csv-parse gives a field only once it ends and a row only once it ends, which is too late for the
 * limits. The first line break outside quotes is the file's (`lineEnd`), found the way csv-parse would find it.
 */
class ShapeGuard {
  /** The file's line break, once the first one outside quotes is seen. */
  lineEnd: LineEnd | null = null;
  /** That first line break was a CR ending a buffer: the next byte tells CRLF from CR. */
  private crFirst = false;
  private rowBytes = 0;
  private quoted = false;
  private quoteSeen = false;
  private fieldStart = true;
  private fieldBytes = 0;
  private columns = 1;
  private line = 1;
  private rowLine = 1;
  private afterCr = false;

  constructor(private readonly delimiter: number, private readonly limits: CsvLimits) {}

  /** The first fault in `buf`, or null. */
  check(buf: Buffer): CsvGrammarError | null {
    const { maxColumns, maxFieldBytes, maxRowBytes } = this.limits;
    if (this.crFirst && buf.length) {
      this.lineEnd = buf[0] === LF ? '\r\n' : '\r';
      this.crFirst = false;
    }
    for (let i = 0; i < buf.length; i++) {
      const b = buf[i];
      const newline = b === LF ? !this.afterCr : b === CR;
      this.afterCr = b === CR;
      if (newline) this.line++;
      if (this.quoted) {
        if (!this.quoteSeen) {
          if (++this.rowBytes > maxRowBytes) return this.rowTooLong();
          if (b === QUOTE) this.quoteSeen = true;
          else if (++this.fieldBytes > maxFieldBytes) return this.fieldTooLong();
          continue;
        }
        this.quoteSeen = false;
        if (b === QUOTE) {
          if (++this.rowBytes > maxRowBytes) return this.rowTooLong();
          if (++this.fieldBytes > maxFieldBytes) return this.fieldTooLong();
          continue;
        }
        this.quoted = false; // the quote closed the field; this byte is read as outside quotes
      }
      const lineBreak = b === LF || b === CR;
      if (!lineBreak && ++this.rowBytes > maxRowBytes) return this.rowTooLong();
      if (b === this.delimiter) {
        this.fieldStart = true;
        this.fieldBytes = 0;
        if (++this.columns > maxColumns) {
          return new CsvGrammarError(`the row has more than ${maxColumns} columns (BATCH_MAX_COLUMNS)`, this.rowLine);
        }
      } else if (lineBreak) {
        if (this.lineEnd === null && !this.crFirst) {
          if (b === LF) this.lineEnd = '\n';
          else if (i + 1 < buf.length) this.lineEnd = buf[i + 1] === LF ? '\r\n' : '\r';
          else this.crFirst = true;
        }
        this.fieldStart = true;
        this.fieldBytes = 0;
        this.rowBytes = 0;
        this.columns = 1;
        this.rowLine = this.line;
      } else if (b === QUOTE && this.fieldStart) {
        this.quoted = true;
        this.fieldStart = false;
      } else {
        this.fieldStart = false;
        if (++this.fieldBytes > maxFieldBytes) return this.fieldTooLong();
      }
    }
    return null;
  }

  /** The line break seen so far, a CR at the very end of the file included; null if none was. */
  lineEndSoFar(): LineEnd | null {
    return this.lineEnd ?? (this.crFirst ? '\r' : null);
  }

  private fieldTooLong() {
    return new CsvGrammarError(`a field is over ${this.limits.maxFieldBytes} bytes (BATCH_MAX_FIELD_BYTES)`, this.rowLine);
  }

  private rowTooLong() {
    return new CsvGrammarError(`the row is over ${this.limits.maxRowBytes} bytes (BATCH_MAX_ROW_BYTES)`, this.rowLine);
  }
}

/** csv-parse's error as the user reads it; `rowLine`: where the row being read starts. */
export function csvGrammarError(err: Error, rowLine: number): CsvGrammarError {
  if (!(err instanceof CsvError)) return new CsvGrammarError(err.message, rowLine);
  // A quote never closed is found at the end of the file; the user needs the line where the row starts.
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return new CsvGrammarError('a quoted field starting on this line is never closed', rowLine);
  const line = Number((err as unknown as { lines?: number }).lines ?? 1);
  return new CsvGrammarError(err.message.replace(/ at line \d+/, ''), line);
}

/**
 * A pass-through stream that reads the CSV bytes going through it: once they end, `layout()` gives the file's layout
 * or throws its first fault (CsvGrammarError). After a fault it passes nothing more but goes on reading, so that an
 * uploading client still sending gets the answer rather than a reset connection.
 */
export class CsvScan extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private guard: ShapeGuard | null = null;
  private parser: Parser | null = null;
  private delimiter: Delimiter = ',';
  private lineEnd: LineEnd = '\n';
  private failure: CsvGrammarError | null = null;
  private bytes = 0;
  private header: string[] | null = null;
  private dataStart = 0;
  private rows = 0;
  private lastEnd = 0;
  private lastLine = 0;
  private readonly chunks: ChunkPlan[] = [];
  private open: ChunkPlan | null = null;

  constructor(private readonly chunkRows: number, private readonly limits: CsvLimits) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void) {
    if (this.failure) return done();
    this.bytes += chunk.length;
    this.push(chunk);
    if (this.parser) return this.feed(chunk, done);
    this.hold(chunk, false, done);
  }

  override _flush(done: (err?: Error | null) => void) {
    const finish = () => {
      if (this.failure || !this.parser) return done();
      const parser = this.parser;
      parser.once('end', () => done());
      parser.once('error', () => done());
      parser.end();
    };
    if (this.parser || this.failure) finish();
    else this.hold(Buffer.alloc(0), true, finish);
  }

  /** The file's layout once it has been read through; throws the first fault found. */
  layout(): CsvLayout {
    if (this.failure) throw this.failure;
    if (!this.header) throw new CsvGrammarError('the file is empty: the first line must be the header', 1);
    if (!this.rows) throw new CsvGrammarError('the file has a header but no data rows', this.lastLine + 1);
    const chunks = [...this.chunks];
    // The last row may end without a line break: its chunk runs to the end of the file.
    if (this.open) chunks.push({ ...this.open, byteEnd: this.bytes });
    return {
      delimiter: this.delimiter, lineEnd: this.lineEnd, header: this.header, dataStart: this.dataStart, rowsTotal: this.rows, chunks,
    };
  }

  /**
   * Before the parser runs, the bytes are held (and checked by the guard as they come) until the header line has
   * ended, which tells the parser the line break: at most BATCH_MAX_ROW_BYTES, the guard refuses a longer line. The
   * delimiter is sniffed from the first 64 KiB.
   */
  private hold(chunk: Buffer, ending: boolean, done: () => void) {
    this.head.push(chunk);
    this.headBytes += chunk.length;
    let unchecked = chunk;
    if (!this.guard) {
      if (this.headBytes < SNIFF_BYTES && !ending) return done();
      unchecked = Buffer.concat(this.head);
      this.head = [unchecked];
      this.delimiter = sniffDelimiter(unchecked.subarray(0, SNIFF_BYTES).toString('utf8'));
      this.guard = new ShapeGuard(this.delimiter.charCodeAt(0), this.limits);
    }
    const fault = this.guard.check(unchecked);
    if (fault) {
      this.head = [];
      this.fail(fault);
      return done();
    }
    const lineEnd = ending ? this.guard.lineEndSoFar() : this.guard.lineEnd;
    if (lineEnd === null && !ending) return done();
    // No line break outside quotes at all: one record whatever the kind, so any will do.
    this.startParser(lineEnd ?? '\n');
    const head = Buffer.concat(this.head);
    this.head = [];
    this.parseHeld(head, 0, done);
  }

  private startParser(lineEnd: LineEnd) {
    this.lineEnd = lineEnd;
    const parser = parse(parserOptions(this.delimiter, { record_delimiter: lineEnd }));
    parser.on('data', (row: ParsedRow) => this.onRow(row));
    parser.on('error', (err) => this.fail(this.grammarErrorOf(err)));
    this.parser = parser;
  }

  /** The held bytes (already checked) through the parser a slice at a time, yielding to the event loop between. */
  private parseHeld(head: Buffer, at: number, done: () => void) {
    if (this.failure || at >= head.length) return done();
    this.parser!.write(head.subarray(at, at + PARSE_SLICE), () => setImmediate(() => this.parseHeld(head, at + PARSE_SLICE, done)));
  }

  private feed(buf: Buffer, done: () => void) {
    const fault = this.guard!.check(buf);
    if (fault) {
      this.fail(fault);
      return done();
    }
    this.parser!.write(buf, () => done());
  }

  private onRow({ record, info }: ParsedRow) {
    if (this.failure) return;
    this.lastLine = info.lines;
    if (!this.header) {
      this.header = record;
      this.dataStart = this.lastEnd = info.bytes;
      if (!record.some((h) => h.trim())) this.fail(new CsvGrammarError('the first line (the header) is empty', info.lines));
      return;
    }
    if (record.length > this.header.length) {
      this.fail(new CsvGrammarError(`the row has ${record.length} fields; the header has ${this.header.length}`, info.lines));
      return;
    }
    if (!this.open) this.open = { firstSeq: this.rows, rowCount: 0, byteStart: this.lastEnd, byteEnd: this.lastEnd };
    this.open.rowCount++;
    this.open.byteEnd = this.lastEnd = info.bytes;
    this.rows++;
    if (this.open.rowCount === this.chunkRows) {
      this.chunks.push(this.open);
      this.open = null;
    }
  }

  private grammarErrorOf(err: Error): CsvGrammarError {
    return csvGrammarError(err, this.lastLine + 1);
  }

  /** The first fault is kept; nothing more is parsed (the parser is left to be collected, not ended). */
  private fail(err: CsvGrammarError) {
    this.failure ??= err;
  }
}

/** Reads a whole file once: header, rows, chunks of `chunkRows` rows with their byte ranges. */
export async function scanCsv(file: string, chunkRows: number, limits: CsvLimits): Promise<CsvLayout> {
  const scan = new CsvScan(chunkRows, limits);
  const discard = new Writable({ write: (_chunk, _enc, done) => done() });
  await pipeline(fs.createReadStream(file, { highWaterMark: 256 * 1024 }), scan, discard);
  return scan.layout();
}

/**
 * The line break of a file whose header line ends at `dataStart` (batches made before their layout kept `lineEnd`): the
 * bytes that end the header line.
 */
export async function lineEndBefore(file: string, dataStart: number): Promise<LineEnd> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const end = Buffer.alloc(2);
    const start = Math.max(0, dataStart - 2);
    const { bytesRead } = await handle.read(end, 0, dataStart - start, start);
    const tail = end.subarray(0, bytesRead).toString('latin1');
    return tail.endsWith('\r\n') ? '\r\n' : tail.endsWith('\r') ? '\r' : '\n';
  } finally {
    await handle.close();
  }
}

/** The rows of one chunk, read from its byte range, with their sequence numbers. */
export async function* readChunkRows(
  file: string, delimiter: Delimiter, range: { firstSeq: number; byteStart: number; byteEnd: number }, lineEnd?: LineEnd,
): AsyncGenerator<{ seq: number; cells: string[] }> {
  if (range.byteEnd <= range.byteStart) return;
  const parser = parsed(
    fs.createReadStream(file, { start: range.byteStart, end: range.byteEnd - 1, highWaterMark: 64 * 1024 }),
    parserOptions(delimiter, { bom: false, ...(lineEnd ? { record_delimiter: lineEnd } : {}) }),
  );
  let seq = range.firstSeq;
  for await (const { record } of parser as AsyncIterable<ParsedRow>) yield { seq: seq++, cells: record };
}

/** The header of a batch's file: the one row before `dataStart`. */
export async function readHeader(file: string, delimiter: Delimiter, dataStart: number, lineEnd?: LineEnd): Promise<string[]> {
  const parser = parsed(
    fs.createReadStream(file, { start: 0, end: Math.max(0, dataStart - 1) }),
    parserOptions(delimiter, lineEnd ? { record_delimiter: lineEnd } : {}),
  );
  for await (const { record } of parser as AsyncIterable<ParsedRow>) {
    parser.destroy();
    return record;
  }
  return [];
}

/** Every row from `dataStart` to the end of the file, with its sequence number (the result file is built from it). */
export function readAllRows(file: string, delimiter: Delimiter, dataStart: number, lineEnd?: LineEnd) {
  return readChunkRows(file, delimiter, { firstSeq: 0, byteStart: dataStart, byteEnd: Number.MAX_SAFE_INTEGER }, lineEnd);
}
