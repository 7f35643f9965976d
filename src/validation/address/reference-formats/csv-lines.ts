/**
 * CSV rows from a byte stream, each with the byte offset where it ends, so that an interrupted import can go on from
 * the first row it did not commit (reading the header from the file's start, the rows from that offset). Split by hand
 * rather than with csv-parse: address files have tens of columns and tens of millions of rows, and a row without
 * quotes (nearly all of them) is one `split(',')`. RFC 4180 quoting is honoured, also across line breaks; a UTF-8 BOM
 * before the header is dropped; blank lines are skipped. One chunk and one row in memory at a time.
 */
import type { ByteSource, ReadFrom } from './records.js';

export interface CsvRow {
  fields: string[];
  /** The row's number in the file, the header being 1 (as csv-parse counted for the readers before). */
  number: number;
  /** The byte offset just past the row's line break. */
  end: number;
}

/** Column positions by upper-case header name. */
export type CsvColumns = ReadonlyMap<string, number>;

const QUOTE = 34;
const NEWLINE = 10;

export function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (quoted) {
      if (c === QUOTE) {
        if (line.charCodeAt(i + 1) === QUOTE) { field += '"'; i++; } else quoted = false;
      } else field += line[i];
    } else if (c === QUOTE) quoted = true;
    else if (c === 44) { fields.push(field); field = ''; } else field += line[i];
  }
  fields.push(field);
  return fields;
}

/** An odd number of quotes: the line ends inside a quoted field, which goes on past the line break. */
function opensQuote(line: string): boolean {
  let n = 0;
  for (let i = line.indexOf('"'); i >= 0; i = line.indexOf('"', i + 1)) n++;
  return n % 2 === 1;
}

/**
 * Only the fields at `wanted` (column positions, ascending) of a line without quotes, at their positions (the others
 * left empty): a national file has some sixty columns, a reader takes a third of them, and each field cut is a string
 * made and collected.
 */
function pickFields(line: string, wanted: readonly number[]): string[] {
  const fields: string[] = new Array<string>(wanted[wanted.length - 1] + 1);
  let start = 0;
  let column = 0;
  for (let w = 0; w < wanted.length; column++) {
    const comma = line.indexOf(',', start);
    const stop = comma < 0 ? line.length : comma;
    if (column === wanted[w]) {
      fields[column] = line.slice(start, stop);
      w++;
    }
    if (comma < 0) break;
    start = comma + 1;
  }
  return fields;
}

export function csvColumns(header: string): CsvColumns {
  return new Map(splitCsvLine(header.replace(/^\uFEFF/, '').replace(/\r$/, '')).map((name, i) => [name.trim().toUpperCase(), i]));
}

/**
 * The header's columns and the rows after it; `from` goes on from a row's end (the header then comes from `from`).
 * `onHeader` is called once, before the first row; it may answer the column positions the reader takes, and the rows
 * then hold only those (pickFields). (Lines are cut in the same generator: one async step a row.)
 */
export async function* csvRows(
  input: ByteSource, from: ReadFrom | undefined, onHeader: (columns: CsvColumns) => readonly number[] | void,
): AsyncGenerator<CsvRow> {
  let number = from ? from.record : 0;
  let header = from !== undefined;
  let wanted: readonly number[] | null = null;
  const takeHeader = (columns: CsvColumns) => {
    const positions = onHeader(columns);
    wanted = positions && positions.length ? [...new Set(positions)].sort((a, b) => a - b) : null;
  };
  if (from) takeHeader(csvColumns(from.header));
  let rest: Buffer = Buffer.alloc(0);
  let restOffset = from ? from.offset : 0;
  let open = '';
  const row = (text: string, end: number): CsvRow | null => {
    if (!text.trim()) return null;
    number++;
    if (header) return { fields: wanted && !text.includes('"') ? pickFields(text, wanted) : splitCsvLine(text), number, end };
    header = true;
    takeHeader(csvColumns(text));
    return null;
  };
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const buf = rest.length ? Buffer.concat([rest, bytes]) : bytes;
    let pos = 0;
    for (let nl = buf.indexOf(NEWLINE, pos); nl >= 0; nl = buf.indexOf(NEWLINE, pos)) {
      let text = buf.toString('utf8', pos, nl > pos && buf[nl - 1] === 13 ? nl - 1 : nl);
      pos = nl + 1;
      if (open) { text = `${open}\n${text}`; open = ''; }
      if (text.includes('"') && opensQuote(text)) { open = text; continue; }
      const r = row(text, restOffset + pos);
      if (r) yield r;
    }
    rest = buf.subarray(pos);
    restOffset += pos;
  }
  const last = (open ? `${open}\n` : '') + rest.toString('utf8');
  const r = last ? row(last.replace(/\r$/, ''), restOffset + rest.length) : null;
  if (r) yield r;
}

/** The text of a column by its (upper-case) name, trimmed; '' when the file has no such column. */
export function columnReader(columns: CsvColumns): (fields: string[], name: string) => string {
  return (fields, name) => {
    const i = columns.get(name);
    return i === undefined ? '' : (fields[i] ?? '').trim();
  };
}
