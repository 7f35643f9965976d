/** What a file, or the rest of a paused batch, will cost: the columns priced with the table of src/billing/pricing.ts. */
import { describe, expect, it } from 'vitest';
import { costToFinish, estimateFile, headerOf } from '../../src/batches/cost-estimate.js';
import { ColumnError } from '../../src/batches/columns.js';
import { estimateCredits } from '../../src/billing/pricing.js';

const ALL = { address: true, email: true, phone: true };
const csvColumns = (columns: { address: string[]; email: string | null; phone: string | null }) => ({ columns: { ...columns, country: null } });

describe('estimateCredits', () => {
  it('When every module is present, then a row costs 4 as usual (US address 1, e-mail 1, mobile 2) and at most 7', () => {
    expect(estimateCredits(50, ALL)).toEqual({ rows: 50, credits: 200, most: 350 });
  });

  it('When only some columns are present, then only their modules are priced', () => {
    expect(estimateCredits(10, { address: false, email: true, phone: false })).toEqual({ rows: 10, credits: 10, most: 10 });
    expect(estimateCredits(10, { address: true, email: false, phone: true })).toEqual({ rows: 10, credits: 30, most: 60 });
  });

  it('When rows were charged already, then their average sets the figure, within what a row can cost', () => {
    expect(estimateCredits(25, ALL, { rows: 25, credits: 102 }).credits).toBe(102);
    expect(estimateCredits(10, ALL, { rows: 10, credits: 1000 }).credits).toBe(70);
    expect(estimateCredits(10, ALL, { rows: 0, credits: 0 }).credits).toBe(40);
  });

  it('When nothing is left, then nothing is owed', () => {
    expect(estimateCredits(0, ALL)).toEqual({ rows: 0, credits: 0, most: 0 });
    expect(estimateCredits(-3, ALL)).toEqual({ rows: 0, credits: 0, most: 0 });
  });
});

describe('costToFinish', () => {
  it('When a batch paused half way, then the rest is priced from its columns and what it charged so far', () => {
    const settings = csvColumns({ address: ['street', 'city'], email: 'email', phone: 'phone' });
    expect(costToFinish({ settings, rowsTotal: 50, rowsDone: 25, creditsCharged: 100 })).toEqual({ rows: 25, credits: 100, most: 175 });
  });

  it('When a job has no CSV columns (a connector run), then there is no estimate', () => {
    expect(costToFinish({ settings: {}, rowsTotal: 5, rowsDone: 0, creditsCharged: 0 })).toBeNull();
  });
});

describe('estimateFile', () => {
  it('When the header is read, then it is split as the upload splits it (sniffed delimiter, quotes, BOM)', () => {
    expect(headerOf('\uFEFFname;"Street, no.";email')).toEqual(['name', 'Street, no.', 'email']);
    expect(headerOf('a\tb\tc')).toEqual(['a', 'b', 'c']);
  });

  it('When a Salesforce export is chosen, then its columns are found and priced', () => {
    const { estimate, columns } = estimateFile('Name,Email,Mobile Phone,Mailing Street,Mailing City,Mailing Zip/Postal Code', 1000, {});
    expect(columns).toMatchObject({ email: 'Email', phone: 'Mobile Phone', address: ['Mailing Street', 'Mailing City', 'Mailing Zip/Postal Code'] });
    expect(estimate).toEqual({ rows: 1000, credits: 4000, most: 7000 });
  });

  it('When the form names a column, then only that one is priced; when no column is usable, then it says so as the upload would', () => {
    expect(estimateFile('a,b', 3, { phone_column: 'b' }).estimate).toEqual({ rows: 3, credits: 6, most: 9 });
    expect(() => estimateFile('first,last', 3, {})).toThrow(ColumnError);
    expect(() => estimateFile('a,b', 3, { email_column: 'c' })).toThrow('the header has no column "c"');
  });
});
