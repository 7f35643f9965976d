/**
 * Address-point CSV files: OpenAddresses (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH) and
 * Statistics Canada's National Address Register (mailing fields preferred: CIVIC_NO, MAIL_STREET_NAME/TYPE/DIR,
 * APT_NO_LABEL, MAIL_POSTAL_CODE; the official fields when the mailing ones are empty). Read as a stream with
 * csv-parse: one row in memory at a time.
 */
import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { addressPointOf, type RawAddressPoint } from '../reference-records.js';
import { CanadianStreetTypeBefore } from '../tables.js';
import type { ByteSource, ReferenceRecord } from './records.js';

type Row = Record<string, string>;

async function* csvRows(input: ByteSource): AsyncGenerator<{ row: Row; number: number }> {
  const parser = Readable.from(input).pipe(
    parse({ columns: (header: string[]) => header.map((h) => h.trim().toUpperCase()), relax_column_count: true, skip_empty_lines: true, bom: true }),
  );
  let number = 1;
  for await (const row of parser as AsyncIterable<Row>) yield { row, number: ++number };
}

function pointRecord(raw: RawAddressPoint, number: number): ReferenceRecord {
  const point = addressPointOf(raw);
  return 'rejected' in point ? { kind: 'rejected', record: number, reason: point.rejected } : { kind: 'point', point };
}

export async function* readOpenAddresses(
  input: ByteSource,
  country: 'US' | 'CA' = 'US',
): AsyncGenerator<ReferenceRecord> {
  for await (const { row, number } of csvRows(input)) {
    if (!row.NUMBER || !row.STREET) {
      yield { kind: 'rejected', record: number, reason: 'NUMBER or STREET empty' };
      continue;
    }
    yield pointRecord({ number: row.NUMBER, street: row.STREET, unit: row.UNIT || undefined, postalCode: row.POSTCODE ?? '', country, city: row.CITY }, number);
  }
}

export async function* readNationalAddressRegister(input: ByteSource): AsyncGenerator<ReferenceRecord> {
  for await (const { row, number } of csvRows(input)) {
    const name = row.MAIL_STREET_NAME || row.OFFICIAL_STREET_NAME;
    const type = (row.MAIL_STREET_NAME ? row.MAIL_STREET_TYPE : row.OFFICIAL_STREET_TYPE) ?? '';
    const dir = (row.MAIL_STREET_NAME ? row.MAIL_STREET_DIR : row.OFFICIAL_STREET_DIR) ?? '';
    const civic = `${row.CIVIC_NO ?? ''}${row.CIVIC_NO_SUFFIX ?? ''}`.trim();
    if (!civic || !name) {
      yield { kind: 'rejected', record: number, reason: 'no civic number or street name' };
      continue;
    }
    // Canada Post writes French street types before the name (RUE SAINT-DENIS), English ones after (MAIN ST).
    const before = type && CanadianStreetTypeBefore.has(type.toUpperCase()) && row.MAIL_PROV_ABVN === 'QC';
    const street = [before ? type : '', name, before ? '' : type, dir].filter(Boolean).join(' ');
    yield pointRecord({ number: civic, street, unit: row.APT_NO_LABEL || undefined, postalCode: row.MAIL_POSTAL_CODE ?? '', country: 'CA', city: row.MAIL_MUN_NAME || row.CSD_ENG_NAME }, number);
  }
}
