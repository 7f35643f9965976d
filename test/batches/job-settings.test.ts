/** A job kind's settings checked by its schema when stored and read (src/bulk/job-settings.ts), as a CSV batch keeps them. */
import { describe, expect, it } from 'vitest';
import { CSV_SETTINGS, type CsvBatchSettings } from '../../src/batches/csv-source.js';

const settings: CsvBatchSettings = {
  file: '/tmp/b/input.csv', delimiter: ';', lineEnd: '\r\n', dataStart: 12, width: 3,
  columns: { address: ['street', 'city'], email: 'mail', phone: null, country: null },
  at: { address: [0, 1], email: 2, phone: -1, country: -1 }, smtp: false,
};

describe('CSV batch settings', () => {
  it('When settings of the right shape are stored and read back, then they come back as they were', () => {
    const stored = CSV_SETTINGS.stored(settings);

    expect(JSON.parse(JSON.stringify(stored))).toEqual(settings);
    expect(CSV_SETTINGS.of({ id: 'job_1', settings: JSON.parse(JSON.stringify(stored)) })).toEqual(settings);
  });

  it('When a batch made by an older release kept its header and no positions, then its settings still read, the header kept', () => {
    const old = { file: '/tmp/b/input.csv', delimiter: ',', dataStart: 10, header: ['email'], smtp: true,
      columns: { address: [], email: 'email', phone: null, country: null } };

    expect(CSV_SETTINGS.of({ id: 'job_old', settings: old })).toEqual(old);
  });

  it('When a row does not fit the schema, then reading it names the kind, the job and the field', () => {
    const broken = { ...settings, delimiter: '|', smtp: 'yes' };

    expect(() => CSV_SETTINGS.of({ id: 'job_2', settings: broken })).toThrow(/csv job settings read \(job job_2\).*delimiter/s);
    expect(() => CSV_SETTINGS.stored({ ...settings, dataStart: -1 })).toThrow(/csv job settings stored/);
  });
});
