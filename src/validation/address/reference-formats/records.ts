/**
 * What the reference readers produce, one record at a time: address points, street ranges (with ZIP+4 add-ons),
 * acceptable city names of a ZIP, TIGER street segment sides, or a rejected input record with the reason. A reader of
 * a text file says where each record ends in the file (`end`, a byte offset), which is where an interrupted import goes
 * on from (src/db/reference-import.ts).
 */
import type { AddressPointRecord, ReferenceSource, StreetRangeRecord, StreetSegmentRecord } from '../reference-types.js';

export const REFERENCE_FORMATS = ['usps-zip4', 'usps-city-state', 'openaddresses', 'nar', 'nad', 'tiger-addrfeat'] as const;
export type ReferenceFormat = (typeof REFERENCE_FORMATS)[number];

/** The source id a format's records are kept under (AddressPointRecord.sources, StreetSegmentRecord.source). */
export const SOURCE_OF_FORMAT: Readonly<Record<ReferenceFormat, ReferenceSource>> = {
  'usps-zip4': 'usps', 'usps-city-state': 'usps', openaddresses: 'openaddresses', nar: 'nar', nad: 'nad', 'tiger-addrfeat': 'tiger',
};

/** A city name USPS accepts for a ZIP (City-State product). */
export interface CityNameRecord {
  zip: string;
  city: string;
  state: string;
  county: string;
  /** Facility code P (post office), B (branch), N (named area) …; only mailing names are accepted by the engine. */
  facility: string;
  /** Mailing name indicator Y: the name may be used in a last line. */
  mailingName: boolean;
  /** The ZIP's preferred last-line name. */
  preferredName: string;
}

export type ReferenceRecord = (
  | { kind: 'point'; point: AddressPointRecord }
  | { kind: 'range'; range: StreetRangeRecord }
  /** A USPS transaction file's delete action: the range (by its natural key) is no longer delivered. */
  | { kind: 'range-deleted'; range: StreetRangeRecord }
  | { kind: 'city'; city: CityNameRecord }
  | { kind: 'segment'; segment: StreetSegmentRecord }
  | { kind: 'rejected'; record: number; reason: string }
) & {
  /** The byte offset just past this record in the file (readers of CSV files give it): an import goes on from there. */
  end?: number;
};

/**
 * Where a reader starts when an import goes on: the file's bytes from `offset` (the first record not yet imported),
 * with the header line (CSV files) read from the file's start, and the number of the record before `offset`.
 */
export interface ReadFrom {
  offset: number;
  header: string;
  record: number;
}

/** What a reader may be told beside the bytes: where to go on from (CSV readers), the file (TIGER's shapefile pair). */
export interface ReadOptions {
  from?: ReadFrom;
  path?: string;
}

/** File content as it streams in (a file read stream), or held whole (tests). */
export type ByteSource = AsyncIterable<string | Buffer> | Iterable<string | Buffer>;

/** A record of input: its text (a line or a fixed-width record) and its 1-based number in the file. */
export interface RawRecord {
  text: string;
  number: number;
}

/**
 * Fixed-width records from a byte stream: one per line when the file has line breaks, else cut every
 * `recordLength` characters (USPS ships both ways). Holds at most one chunk in memory.
 */
export async function* fixedWidthRecords(input: ByteSource, recordLength: number): AsyncGenerator<RawRecord> {
  let buffer = '';
  let number = 0;
  let lineMode: boolean | null = null;
  for await (const chunk of input) {
    buffer += typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    if (lineMode === null && (buffer.includes('\n') || buffer.length > recordLength)) lineMode = buffer.includes('\n');
    if (lineMode) {
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (text.trim()) yield { text: text.padEnd(recordLength), number: ++number };
      }
    } else if (lineMode === false) {
      while (buffer.length >= recordLength) {
        const text = buffer.slice(0, recordLength);
        buffer = buffer.slice(recordLength);
        yield { text, number: ++number };
      }
    }
  }
  const rest = buffer.replace(/\r?\n$/, '');
  if (rest.trim()) yield { text: rest.padEnd(recordLength), number: ++number };
}

/** Field `from`-`to` (1-based, inclusive, as the USPS layouts are written), trimmed. */
export function field(record: string, from: number, to: number): string {
  return record.slice(from - 1, to).trim();
}
