import { describe, expect, it } from 'vitest';
import { chooseColumns, ColumnError, countryCodeOf } from '../../src/batches/columns.js';
import { columnIndexes, recordOfRow } from '../../src/batches/csv-source.js';

/** Milliseconds a call takes: the least of three rounds, each repeating it for at least 100 ms (a loaded machine's noise averaged out). */
function msPerCall(call: () => unknown): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    let calls = 0;
    do {
      call();
      calls++;
    } while (performance.now() - started < 100);
    best = Math.min(best, (performance.now() - started) / calls);
  }
  return best;
}

/**
 * A header of `n` columns of `width` bytes, each named by the parameter in another case (`C7` for `c7` and its padding,
 * which trimming drops): the named look-up has to read every column, as a header near BATCH_MAX_ROW_BYTES would have it.
 */
function namedHeader(n: number, width: number) {
  const header = Array.from({ length: n }, (_, i) => `c${i}`.padEnd(width, ' '));
  return { header, params: { address_columns: Array.from({ length: n }, (_, i) => `C${i}`).join(',') } };
}

describe('finding the contact columns of a header', () => {
  it('When a header near the row cap names every column, then finding them grows linearly with the header (issue 51.3)', () => {
    // Arrange: 50 and 400 columns of 2,500 bytes (125 KB and 1 MB); address_columns naming each (about 2,000 characters, what the API takes).
    const small = namedHeader(50, 2_500);
    const large = namedHeader(400, 2_500);
    expect(chooseColumns(large.header, large.params).address).toHaveLength(400);
    expect(large.params.address_columns.length).toBeLessThanOrEqual(2_000);

    // Act
    const smallMs = msPerCall(() => chooseColumns(small.header, small.params));
    const largeMs = msPerCall(() => chooseColumns(large.header, large.params));

    // Assert: 8 times the header, less than 24 times the time (linear gives about 8, one column read per name 64).
    expect(largeMs / smallMs, `${smallMs.toFixed(3)} ms for 125 KB, ${largeMs.toFixed(3)} ms for 1 MB`).toBeLessThan(24);
  });

  it('When a Shopify customer export is uploaded, then the default address parts, e-mail, phone and country are found', () => {
    const header = ['First Name', 'Email', 'Default Address Address1', 'Default Address Address2', 'Default Address City',
      'Default Address Province Code', 'Default Address Country Code', 'Default Address Zip', 'Default Address Phone', 'Phone'];
    expect(chooseColumns(header, {})).toEqual({
      address: ['Default Address Address1', 'Default Address Address2', 'Default Address City', 'Default Address Province Code', 'Default Address Zip'],
      email: 'Email',
      phone: 'Phone',
      country: 'Default Address Country Code',
      feedback: null,
    });
  });

  it('When a Salesforce contact report is uploaded, then the mailing address parts are found', () => {
    const header = ['Full Name', 'Mailing Street', 'Mailing City', 'Mailing State/Province', 'Mailing Zip/Postal Code', 'Mailing Country', 'E-mail', 'Mobile'];
    expect(chooseColumns(header, {})).toEqual({
      address: ['Mailing Street', 'Mailing City', 'Mailing State/Province', 'Mailing Zip/Postal Code'],
      email: 'E-mail', phone: 'Mobile', country: 'Mailing Country', feedback: null,
    });
  });

  it('When the header has one ADDRESS column, then it is the whole address', () => {
    expect(chooseColumns(['ADDRESS', 'TELEPHONE'], {})).toEqual({ address: ['ADDRESS'], email: null, phone: 'TELEPHONE', country: null, feedback: null });
  });

  it('When columns are named, then exactly those are used, in the order given', () => {
    const header = ['Zip', 'Line', 'Town', 'Mail'];
    expect(chooseColumns(header, { address_columns: 'Line,Town,Zip', email_column: 'mail' })).toEqual({
      address: ['Line', 'Town', 'Zip'], email: 'Mail', phone: null, country: null, feedback: null,
    });
  });

  it('When a mailing tool\'s outcome column is there, then it is the feedback column, named or not, and the others are found as before', () => {
    expect(chooseColumns(['Email', 'Bounce Status'], {})).toMatchObject({ email: 'Email', feedback: 'Bounce Status' });
    expect(chooseColumns(['Email', 'Result'], { feedback_column: 'result' })).toMatchObject({ email: 'Email', feedback: 'Result' });
    expect(chooseColumns(['Mail', 'Outcome'], { email_column: 'Mail' })).toMatchObject({ email: 'Mail', feedback: null });
    expect(() => chooseColumns(['Email'], { feedback_column: 'Outcome' })).toThrow(ColumnError);
  });

  it.each([
    [['Name', 'Notes'], {}],
    [['Name', 'Email'], { email_column: 'E-mail address' }],
  ])('When no usable column is found in %j, then the file is refused', (header, params) => {
    expect(() => chooseColumns(header, params)).toThrow(ColumnError);
  });

  it.each([
    ['US', 'US'], ['usa', 'US'], ['U.S.', 'US'], ['United States', 'US'], ['canada', 'CA'], ['DEU', 'DE'],
    ['Deutschland', 'DE'], ['UK', 'GB'], ['Narnia', null], ['', null],
  ])('When the country cell is %j, then the hint is %j', (cell, code) => {
    expect(countryCodeOf(cell)).toBe(code);
  });
});

describe('a row as the use case input', () => {
  const settings = { header: ['Street', 'City', 'State', 'Zip', 'Country', 'Email', 'Phone'], columns: chooseColumns(['Street', 'City', 'State', 'Zip', 'Country', 'Email', 'Phone'], {}) };
  const at = columnIndexes(settings);

  it('When the address is split over columns, then it is joined with ", " and the country becomes the hint', () => {
    const record = recordOfRow(7, ['6007 Applegate Ln ', 'Louisville', 'KY', '40219', 'United States', 'ann@example.com', ''], at, false);
    expect(record).toEqual({
      key: '0000000007',
      input: { address: '6007 Applegate Ln, Louisville, KY, 40219', email: 'ann@example.com', phone: undefined, country: 'US', smtp: false },
    });
  });

  it('When the country is unknown to every table, then it stays in the address text', () => {
    const record = recordOfRow(0, ['1 Main St', 'Springfield', '', '', 'Freedonia', '', ''], at, true);
    expect(record.input?.address).toBe('1 Main St, Springfield, Freedonia');
    expect(record.input?.country).toBeUndefined();
  });

  it('When a row has nothing to check, then it is empty', () => {
    expect(recordOfRow(1, ['', ' ', '', '', 'US', '', ''], at, true)).toEqual({ key: '0000000001', input: null });
  });

  it('When a cell breaks the request schema, then the row says why instead of being checked', () => {
    const record = recordOfRow(2, ['', '', '', '', '', 'a\u0001b@example.com', ''], at, true);
    expect(record.input).toBeNull();
    expect(record.error).toMatch(/^invalid_input: email contains control characters/);
  });
});
