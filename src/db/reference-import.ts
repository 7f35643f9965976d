/**
 * The import side of the address reference data (tables of migrations/1763800000000-ReferenceData.ts):
 *   importReferenceFile   `reference import --format FORMAT FILE`: streams the file through its reader, upserts by
 *                         natural key in batched multi-row INSERTs, one transaction per batch: constant memory, and a
 *                         re-import of the same file changes nothing. A USPS transaction file's delete records
 *                         delete their ranges, in file order with its adds (a change is a delete and an add).
 *   importRecords         the same for records from elsewhere (the shipped RRAD sample, reference-store.ts).
 *   referenceStatus       what `reference status` tells.
 */
import fs from 'node:fs';
import type { Database } from './data-source.js';
import { upsertSql, type TableSpec } from './upsert.js';
import type { AddressPointRecord, StreetRangeRecord } from '../validation/address/reference-types.js';
import { streetKey } from '../validation/address/street-writings.js';
import {
  REFERENCE_FORMATS, ReferenceReaders, type CityNameRecord, type ReferenceFormat, type ReferenceRecord,
} from '../validation/address/reference-formats/index.js';

export interface ReferenceImportResult {
  format: string;
  file: string;
  /** Records read from the file (header and copyright records not counted). */
  read: number;
  /** Records upserted. */
  loaded: number;
  /** Delete records applied (USPS transaction files): their ranges, where held, are gone. */
  deleted: number;
  rejected: number;
  /** The first rejected records with the reason (at most MAX_REJECTS_LISTED). */
  rejects?: { record: number; reason: string }[];
  /** Imported with `--sample`: the points confirm themselves and deny no other number of their streets. */
  sample?: true;
}

/** Rows per INSERT statement and per transaction. */
const ROWS_PER_STATEMENT = 200;
const ROWS_PER_TRANSACTION = 2000;
const MAX_REJECTS_LISTED = 100;
export const EMBEDDED_RRAD_FORMAT = 'rrad-embedded';
/** The `source` (and import log `format`) of a file imported with `--sample`: `openaddresses+sample`. */
export const SAMPLE_SOURCE_SUFFIX = '+sample';
/** The formats of address points, which may be a sample (the others list whole ZIP codes). */
const POINT_FORMATS: ReadonlySet<string> = new Set(['openaddresses', 'nar']);

const POINTS: TableSpec = {
  table: 'reference_points',
  columns: ['postal_code', 'street_key', 'primary_number', 'unit', 'predirection', 'street_name', 'suffix', 'postdirection', 'plus4', 'source', 'city'],
  key: ['postal_code', 'street_key', 'primary_number', 'unit'],
};
const RANGES: TableSpec = {
  table: 'reference_ranges',
  columns: ['zip', 'street_key', 'record_type', 'primary_low', 'primary_high', 'primary_parity', 'secondary_low', 'secondary_high',
    'secondary_designator', 'secondary_parity', 'predirection', 'street_name', 'suffix', 'postdirection', 'plus4_low', 'plus4_high', 'source'],
  key: ['zip', 'street_key', 'record_type', 'primary_low', 'primary_high', 'primary_parity', 'secondary_low', 'secondary_high'],
};
const CITY_NAMES: TableSpec = {
  table: 'reference_city_names',
  columns: ['zip', 'city', 'state', 'mailing_name', 'preferred_name'],
  key: ['zip', 'city'],
};


function pointRow(p: AddressPointRecord, source: string): unknown[] {
  const s = p.street;
  return [p.postalCode, streetKey(s), p.primaryNumber, p.unit ?? '', s.predirection, s.name, s.suffix, s.postdirection, p.plus4, source, p.city ?? ''];
}

function rangeRow(r: StreetRangeRecord, source: string): unknown[] {
  const s = r.street;
  return [r.zip, streetKey(s), r.recordType, r.primaryLow, r.primaryHigh, r.primaryParity, r.secondaryLow ?? '', r.secondaryHigh ?? '',
    r.secondaryDesignator, r.secondaryParity, s.predirection, s.name, s.suffix, s.postdirection, r.plus4Low, r.plus4High, source];
}

function cityRow(c: CityNameRecord): unknown[] {
  return [c.zip, c.city, c.state, c.mailingName, c.preferredName];
}

/**
 * Rows waiting to be written, per table, deduplicated by natural key (a batch must not upsert one row twice); the
 * last word on a key wins: a row to upsert, or DELETED.
 */
const DELETED = Symbol('deleted');
class PendingRows {
  readonly tables = new Map<TableSpec, Map<string, unknown[] | typeof DELETED>>([[POINTS, new Map()], [RANGES, new Map()], [CITY_NAMES, new Map()]]);
  /** The key columns' values of each key marked DELETED. */
  readonly deletedKeys = new Map<string, unknown[]>();
  size = 0;

  add(spec: TableSpec, row: unknown[]): void {
    this.set(spec, row, row);
  }

  delete(spec: TableSpec, row: unknown[]): void {
    const key = this.set(spec, row, DELETED);
    this.deletedKeys.set(key, spec.key.map((k) => row[spec.columns.indexOf(k)] ?? ''));
  }

  private set(spec: TableSpec, row: unknown[], value: unknown[] | typeof DELETED): string {
    const rows = this.tables.get(spec)!;
    const key = spec.key.map((k) => String(row[spec.columns.indexOf(k)] ?? '')).join('\u0001');
    if (!rows.has(key)) this.size++;
    rows.set(key, value);
    return key;
  }

  clear(): void {
    for (const rows of this.tables.values()) rows.clear();
    this.deletedKeys.clear();
    this.size = 0;
  }
}

async function writeRows(db: Database, pending: PendingRows, keepExisting: boolean): Promise<void> {
  const statements: [string, unknown[]][] = [];
  for (const [spec, rows] of pending.tables) {
    const all: unknown[][] = [];
    for (const [key, row] of rows) {
      // (Deletes and upserts of one batch touch different keys: their order does not matter.)
      if (row === DELETED) statements.push([`DELETE FROM ${spec.table} WHERE ${spec.key.map((k, i) => `${k} = $${i + 1}`).join(' AND ')}`, pending.deletedKeys.get(key)!]);
      else all.push(row);
    }
    for (let i = 0; i < all.length; i += ROWS_PER_STATEMENT) {
      const chunk = all.slice(i, i + ROWS_PER_STATEMENT);
      statements.push([upsertSql(spec, chunk.length, keepExisting), chunk.flat()]);
    }
  }
  if (statements.length === 0) return;
  if (db.dialect === 'sqlite') {
    db.immediate(() => {
      for (const [sql, params] of statements) db.runSync(sql, params);
    });
  } else {
    await db.pgTransaction(async (tx) => {
      for (const [sql, params] of statements) await tx.run(sql, params);
    });
  }
}

export async function importRecords(
  db: Database,
  format: string,
  file: string,
  records: AsyncIterable<ReferenceRecord>,
  keepExisting = false,
): Promise<ReferenceImportResult> {
  const result: ReferenceImportResult = { format, file, read: 0, loaded: 0, deleted: 0, rejected: 0 };
  const rejects: { record: number; reason: string }[] = [];
  const pending = new PendingRows();
  for await (const record of records) {
    result.read++;
    switch (record.kind) {
      case 'point':
        pending.add(POINTS, pointRow(record.point, format));
        result.loaded++;
        break;
      case 'range':
        pending.add(RANGES, rangeRow(record.range, format));
        result.loaded++;
        break;
      case 'range-deleted':
        pending.delete(RANGES, rangeRow(record.range, format));
        result.deleted++;
        break;
      case 'city':
        pending.add(CITY_NAMES, cityRow(record.city));
        result.loaded++;
        break;
      case 'rejected':
        result.rejected++;
        if (rejects.length < MAX_REJECTS_LISTED) rejects.push({ record: record.record, reason: record.reason });
        continue;
    }
    if (pending.size >= ROWS_PER_TRANSACTION) {
      await writeRows(db, pending, keepExisting);
      pending.clear();
    }
  }
  await writeRows(db, pending, keepExisting);
  await db.run(
    `INSERT INTO reference_imports (format, file, records_read, records_loaded, records_rejected, records_deleted, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [format, file, result.read, result.loaded, result.rejected, result.deleted, Date.now()],
  );
  if (rejects.length) result.rejects = rejects;
  return result;
}

export function isReferenceFormat(format: string): format is ReferenceFormat {
  return (REFERENCE_FORMATS as readonly string[]).includes(format);
}

/**
 * Imports one reference file; throws (before touching the database) on an unknown format or a missing file. With
 * `sample`, an address-point file holds a sample of addresses (an operator's own past deliveries, a partial extract),
 * not every address of its streets: its points confirm themselves and deny no other number (reference-index.ts).
 */
export async function importReferenceFile(
  db: Database, format: string, filePath: string, options: { sample?: boolean } = {},
): Promise<ReferenceImportResult> {
  if (!isReferenceFormat(format)) {
    throw Object.assign(new Error(`unknown format "${format}"; expected one of ${REFERENCE_FORMATS.join(', ')}`), { code: 'INVALID_ARGUMENT' });
  }
  if (options.sample && !POINT_FORMATS.has(format)) {
    throw Object.assign(new Error(`--sample is for address-point files (${[...POINT_FORMATS].join(', ')}); ${format} lists whole ZIP codes`), { code: 'INVALID_ARGUMENT' });
  }
  await fs.promises.access(filePath, fs.constants.R_OK);
  const stream = fs.createReadStream(filePath, { highWaterMark: 256 * 1024 });
  try {
    if (!options.sample) return await importRecords(db, format, filePath, ReferenceReaders[format](stream));
    return { ...(await importRecords(db, `${format}${SAMPLE_SOURCE_SUFFIX}`, filePath, ReferenceReaders[format](stream))), format, sample: true };
  } finally {
    stream.destroy();
  }
}

/** One import as `reference status` lists it. */
export interface ReferenceImportLogEntry {
  format: string;
  file: string;
  sample: boolean;
  read: number;
  loaded: number;
  deleted: number;
  rejected: number;
  imported_at: string;
}

/** What `reference status` tells: the rows held per table, and every import, the latest first. */
export interface ReferenceStatus {
  points: number;
  /** Points of files imported whole (not samples), which deny the numbers they lack on their streets. */
  points_complete: number;
  ranges: number;
  city_names: number;
  postal_codes: { points: number; ranges: number };
  imports: ReferenceImportLogEntry[];
}

/** The reference data the database holds, and how it came there. */
export async function referenceStatus(db: Database): Promise<ReferenceStatus> {
  const count = async (sql: string, params: unknown[] = []) => Number((await db.all<{ n: number | string }>(sql, params))[0]?.n ?? 0);
  const imports = await db.all<{
    format: string; file: string; records_read: number | string; records_loaded: number | string; records_deleted: number | string;
    records_rejected: number | string; created_at: number | string;
  }>(`SELECT format, file, records_read, records_loaded, records_deleted, records_rejected, created_at FROM reference_imports ORDER BY id DESC`);
  return {
    points: await count(`SELECT COUNT(*) AS n FROM reference_points`),
    points_complete: await count(`SELECT COUNT(*) AS n FROM reference_points WHERE source <> $1 AND source NOT LIKE $2`, [EMBEDDED_RRAD_FORMAT, `%${SAMPLE_SOURCE_SUFFIX}`]),
    ranges: await count(`SELECT COUNT(*) AS n FROM reference_ranges`),
    city_names: await count(`SELECT COUNT(*) AS n FROM reference_city_names`),
    postal_codes: {
      points: await count(`SELECT COUNT(DISTINCT postal_code) AS n FROM reference_points`),
      ranges: await count(`SELECT COUNT(DISTINCT zip) AS n FROM reference_ranges`),
    },
    imports: imports.map((r) => ({
      format: r.format.endsWith(SAMPLE_SOURCE_SUFFIX) ? r.format.slice(0, -SAMPLE_SOURCE_SUFFIX.length) : r.format,
      file: r.file,
      sample: r.format === EMBEDDED_RRAD_FORMAT || r.format.endsWith(SAMPLE_SOURCE_SUFFIX),
      read: Number(r.records_read),
      loaded: Number(r.records_loaded),
      deleted: Number(r.records_deleted),
      rejected: Number(r.records_rejected),
      imported_at: new Date(Number(r.created_at)).toISOString(),
    })),
  };
}
