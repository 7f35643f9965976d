/**
 * USPS Address Information System products (the files a licensed operator holds), record layouts as in the USPS
 * "Address Information Products Technical Guide" (byte positions 1-based, in the field() calls below):
 *   ZIP+4 detail record, 182 bytes: street ranges with their ZIP+4 add-ons.
 *   City-State detail record, 129 bytes: the city names accepted for each ZIP.
 * Copyright/header records (first byte other than `D`) are skipped. A ZIP+4 record's action (byte 17) is A, add, or
 * D, delete: USPS's monthly transaction files delete a range that is no longer delivered (and change one as a delete
 * and an add of the same key), so a delete record reads as `range-deleted`, which the import applies.
 */
import { type ByteSource, type CityNameRecord, type RawRecord, type ReferenceRecord, field, fixedWidthRecords } from './records.js';
import type { StreetRangeRecord } from '../reference-types.js';

export const ZIP4_RECORD_LENGTH = 182;
export const CITY_STATE_RECORD_LENGTH = 129;

const RECORD_TYPES = new Set(['F', 'G', 'H', 'P', 'R', 'S']);

function zip4Range(raw: RawRecord): ReferenceRecord {
  const r = raw.text;
  const reject = (reason: string): ReferenceRecord => ({ kind: 'rejected', record: raw.number, reason });
  const zip = field(r, 2, 6);
  const action = field(r, 17, 17);
  const recordType = field(r, 18, 18);
  if (!/^\d{5}$/.test(zip)) return reject(`bad ZIP "${zip}"`);
  if (action !== 'A' && action !== 'D') return reject(`unknown action "${action}"`);
  if (!RECORD_TYPES.has(recordType)) return reject(`unknown record type "${recordType}"`);
  let name = field(r, 25, 52).replace(/\s+/g, ' ');
  // The engine writes rural routes and highway contracts `RR 2 BOX` with the box as the primary number.
  if ((recordType === 'R' || /^(RR|HC) \d+$/.test(name)) && !name.endsWith(' BOX')) name += ' BOX';
  if (recordType === 'P' && !name) name = 'PO BOX';
  const primaryLow = field(r, 59, 68).replace(/^0+(?=\d)/, '');
  const primaryHigh = field(r, 69, 78).replace(/^0+(?=\d)/, '');
  if (!name && recordType !== 'G') return reject('no street name');
  if (recordType !== 'G' && (!primaryLow || !primaryHigh)) return reject('no primary number range');
  const plus4Low = field(r, 141, 144);
  const plus4High = field(r, 145, 148);
  if (plus4Low && !/^\d{4}$/.test(plus4Low)) return reject(`bad add-on "${plus4Low}"`);
  const range: StreetRangeRecord = {
    zip,
    recordType,
    street: {
      predirection: field(r, 23, 24) || null,
      name: recordType === 'G' ? 'GENERAL DELIVERY' : name,
      suffix: field(r, 53, 56) || null,
      postdirection: field(r, 57, 58) || null,
    },
    primaryLow,
    primaryHigh,
    primaryParity: field(r, 79, 79) || 'B',
    secondaryDesignator: field(r, 120, 123) || null,
    secondaryLow: field(r, 124, 131).replace(/^0+(?=\w)/, '') || null,
    secondaryHigh: field(r, 132, 139).replace(/^0+(?=\w)/, '') || null,
    secondaryParity: field(r, 140, 140) || null,
    plus4Low: plus4Low || null,
    plus4High: plus4High || null,
  };
  return action === 'D' ? { kind: 'range-deleted', range } : { kind: 'range', range };
}

function cityStateName(raw: RawRecord): ReferenceRecord {
  const r = raw.text;
  const zip = field(r, 2, 6);
  const city = field(r, 14, 41);
  const state = field(r, 100, 101);
  if (!/^\d{5}$/.test(zip)) return { kind: 'rejected', record: raw.number, reason: `bad ZIP "${zip}"` };
  if (!city || !/^[A-Z]{2}$/.test(state)) return { kind: 'rejected', record: raw.number, reason: 'no city or state' };
  const record: CityNameRecord = {
    zip,
    city,
    state,
    county: field(r, 105, 129),
    facility: field(r, 55, 55),
    mailingName: field(r, 56, 56) === 'Y',
    preferredName: field(r, 63, 90) || city,
  };
  return { kind: 'city', city: record };
}

export async function* readUspsZip4(input: ByteSource): AsyncGenerator<ReferenceRecord> {
  for await (const raw of fixedWidthRecords(input, ZIP4_RECORD_LENGTH)) {
    if (raw.text[0] !== 'D') continue;
    yield zip4Range(raw);
  }
}

export async function* readUspsCityState(input: ByteSource): AsyncGenerator<ReferenceRecord> {
  for await (const raw of fixedWidthRecords(input, CITY_STATE_RECORD_LENGTH)) {
    if (raw.text[0] !== 'D') continue;
    yield cityStateName(raw);
  }
}
