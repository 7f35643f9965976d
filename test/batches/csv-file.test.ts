import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CsvGrammarError, readChunkRows, scanCsv, sniffDelimiter } from '../../src/batches/csv-file.js';
import { formulaSafe } from '../../src/batches/result-csv.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-csv-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(text: string | Buffer): string {
  const f = path.join(dir, `f${n++}.csv`);
  fs.writeFileSync(f, text);
  return f;
}

async function rowsByChunk(f: string, chunkRows: number) {
  const layout = await scanCsv(f, chunkRows);
  const rows: { seq: number; cells: string[] }[] = [];
  for (const chunk of layout.chunks) for await (const r of readChunkRows(f, layout.delimiter, chunk)) rows.push(r);
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
  ])('When the file is %j, then it is refused at line %i', async (text, line, message) => {
    const err = await scanCsv(file(text), 10).catch((e: unknown) => e);
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
