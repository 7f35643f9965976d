import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvGrammarError, CsvScan, readChunkRows, scanCsv, sniffDelimiter } from '../../src/batches/csv-file.js';
import { formulaSafe } from '../../src/batches/result-csv.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-csv-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string | Buffer): string {
  const f = path.join(dir, `f${n++}.csv`);
  fs.writeFileSync(f, text);
  return f;
}

const LIMITS = { maxColumns: 5, maxFieldBytes: 20, maxRowBytes: 63 };

async function rowsByChunk(f: string, chunkRows: number, limits = { maxColumns: 500, maxFieldBytes: 65_536, maxRowBytes: 1024 * 1024 }) {
  const layout = await scanCsv(f, chunkRows, limits);
  const rows: { seq: number; cells: string[] }[] = [];
  for (const chunk of layout.chunks) for await (const r of readChunkRows(f, layout.delimiter, chunk, layout.lineEnd)) rows.push(r);
  return { layout, rows };
}

describe('reading a batch file', () => {
  it.each([
    ['a,b,c\n1,2,3', ','],
    ['a;b;c\n1;2;3', ';'],
    ['a\tb\tc\n1\t2\t3', '\t'],
    ['"Street, with comma";City;Zip\n', ';'],
    ['\uFEFFName,Email\n', ','],
    ['single\n', ','],
  ])('When the header is %j, then the delimiter is %j', (head, expected) => {
    expect(sniffDelimiter(head)).toBe(expected);
  });

  it('When rows hold quoted line breaks, CRLF, a BOM and empty lines, then every chunk read again from its bytes gives the same rows', async () => {
    const text = '\uFEFFName,Address,Email\r\n'
      + 'Ann,"6007 Applegate Ln\r\nLouisville KY 40219",ann@example.com\r\n'
      + '\r\n'
      + 'Bob,"1 ""Main"" St, Springfield IL",bob@example.com\r\n'
      + 'Cy,100 Queen St W,cy@example.com\r\n'
      + 'Dee,"São Paulo, 01310-200",dee@example.com\r\n'
      + 'Eve,2 Elm St,eve@example.com';

    const one = await rowsByChunk(file(text), 1);
    const two = await rowsByChunk(file(text), 2);

    expect(one.layout.header).toEqual(['Name', 'Address', 'Email']);
    expect(one.layout.rowsTotal).toBe(5);
    expect(one.layout.chunks).toHaveLength(5);
    expect(two.layout.chunks.map((c) => c.rowCount)).toEqual([2, 2, 1]);
    expect(one.rows).toEqual(two.rows);
    expect(one.rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(one.rows[0].cells).toEqual(['Ann', '6007 Applegate Ln\r\nLouisville KY 40219', 'ann@example.com']);
    expect(one.rows[1].cells[1]).toBe('1 "Main" St, Springfield IL');
    expect(one.rows[3].cells[1]).toBe('São Paulo, 01310-200');
    expect(one.rows[4].cells).toEqual(['Eve', '2 Elm St', 'eve@example.com']);
  });

  it('When fields and rows sit just at the limits, with delimiters and quotes inside quoted fields, then the file is read', async () => {
    const text = `a,b,c,d,e\r\n${'x'.repeat(20)},"${'""'.repeat(10)}","1,2,3,4,5,6",,"\r\n"\r\n`;
    const { layout, rows } = await rowsByChunk(file(text), 10, LIMITS);
    expect(layout.rowsTotal).toBe(1);
    expect(rows[0].cells).toEqual(['x'.repeat(20), '"'.repeat(10), '1,2,3,4,5,6', '', '\r\n']);
  });

  it('When a file arrives in pieces of one byte, then the limits and the layout are the same as read whole', async () => {
    const text = `a,b\n1,"2\n3"\n4,5\n`;
    const scan = new CsvScan(10, LIMITS);
    const out: Buffer[] = [];
    scan.on('data', (b: Buffer) => out.push(b));
    await pipeline(Readable.from([...Buffer.from(text)].map((b) => Buffer.from([b]))), scan);
    expect(Buffer.concat(out).toString()).toBe(text);
    expect(scan.layout()).toEqual(await scanCsv(file(text), 10, LIMITS));
    const over = new CsvScan(10, LIMITS);
    over.resume();
    await pipeline(Readable.from([...Buffer.from(`a\n${'y'.repeat(30)}\n`)].map((b) => Buffer.from([b]))), over);
    expect(() => over.layout()).toThrow(/over 20 bytes/);
  });

  it.each([['\r\n'], ['\n'], ['\r']])('When the header is longer than the delimiter is sniffed from, with %j line breaks, then the layout and rows are read as they are', async (eol) => {
    // The header line ends after 64 KiB: the parser starts once it has, told the line break the header ends with.
    const header = [...Array.from({ length: 40 }, (_, i) => `c${i}_${'h'.repeat(2_000)}`), 'Email'];
    const row = (i: number) => [...Array.from({ length: 40 }, (_, j) => (j === 3 ? `"quoted${eol}cell ${i}"` : `${i}.${j}`)), `p${i}@example.com`].join(',');
    const text = [header.join(','), row(1), row(2), row(3)].join(eol) + eol;
    const { layout, rows } = await rowsByChunk(file(text), 2);
    expect(layout).toMatchObject({ delimiter: ',', lineEnd: eol, rowsTotal: 3, header });
    expect(rows.map((r) => [r.seq, r.cells.length, r.cells[3], r.cells[40]])).toEqual([1, 2, 3].map((i) => [i - 1, 41, `quoted${eol}cell ${i}`, `p${i}@example.com`]));
  });

  it('When a row is shorter than the header, then it is read as it is (the result pads it)', async () => {
    const { rows } = await rowsByChunk(file('a,b,c\n1,2\n'), 10);
    expect(rows[0].cells).toEqual(['1', '2']);
  });

  it.each([
    ['a,b\n1,2\n3,4,5\n', 3, /3 fields; the header has 2/],
    ['a,b\n1,"unclosed\n2,3\n', 2, /quote/i],
    ['a,b\n1,x"y"\n', 2, /quote/i],
    ['', 1, /empty/],
    [',,\n1,2,3\n', 1, /header/],
    ['a,b\n', 2, /header but no data rows/],
    ['a,b\r\n\r\n', 2, /header but no data rows/],
    ['a,b,c,d,e,f\n1\n', 1, /more than 5 columns \(BATCH_MAX_COLUMNS\)/],
    ['a\n1\n2,3,4,5,6,7\n', 3, /more than 5 columns/],
    [`a,b\n1,${'x'.repeat(21)}\n`, 2, /over 20 bytes \(BATCH_MAX_FIELD_BYTES\)/],
    [`a,b\n1,"${'x\n'.repeat(11)}"\n`, 2, /over 20 bytes/],
    [`a,b\n1,"${'""'.repeat(21)}"\n`, 2, /over 20 bytes/],
    [`a,b,c,d\n1\n${'x'.repeat(20)},${'y'.repeat(20)},${'z'.repeat(20)},1\n`, 3, /the row is over 63 bytes \(BATCH_MAX_ROW_BYTES\)/],
    [`${'h'.repeat(20)},${'i'.repeat(20)},${'j'.repeat(20)},k\r\n1\r\n`, 1, /the row is over 63 bytes/],
    [`a,b,c\n1,"${'x\n'.repeat(10)}","${'y\n'.repeat(10)}","${'z\n'.repeat(10)}"\n`, 2, /the row is over 63 bytes/],
  ])('When the file is %j, then it is refused at line %i', async (text, line, message) => {
    const err = await scanCsv(file(text), 10, LIMITS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CsvGrammarError);
    expect((err as CsvGrammarError).line).toBe(line);
    expect((err as CsvGrammarError).message).toMatch(message);
  });
});

describe('cells a spreadsheet could run (OWASP CSV injection)', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+1 415 555 0101', `'+1 415 555 0101`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tcmd', `'\tcmd`],
    ['\rcmd', `'\rcmd`],
    ['+14155550101', '+14155550101'],
    ['-3.5', '-3.5'],
    ['1e5', '1e5'],
    ['plain', 'plain'],
    ['', ''],
  ])('When a cell is %j, then it is written %j', (cell, expected) => {
    expect(formulaSafe(cell)).toBe(expected);
  });
});
