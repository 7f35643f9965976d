/**
 * Address reference data in the database, the serving side (tables of migrations/1763800000000-ReferenceData.ts):
 *   seedEmbeddedReference loads the shipped RRAD points once (first start).
 *   loadReferenceIndex    reads the tables into the in-memory ReferenceIndex the address engine takes.
 *   lastReferenceImport   the newest import's id, which instances watch.
 * Imports are in reference-import.ts.
 */
import fs from 'node:fs';
import type { Database } from './data-source.js';
import { SHIPPED_DATA_DIR, rradRows } from '../validation/address/index.js';
import type { ReferenceIndex } from '../validation/address/reference-index.js';
import { loadReferenceRows } from './reference-index-build.js';
import { addressPointOf } from '../validation/address/reference-records.js';
import type { ReferenceRecord } from '../validation/address/reference-formats/index.js';
import { EMBEDDED_RRAD_FORMAT, importRecords, type ReferenceImportResult } from './reference-import.js';

async function* embeddedRradRecords(): AsyncGenerator<ReferenceRecord> {
  const text = await fs.promises.readFile(new URL('rrad-addresses-us.tsv', SHIPPED_DATA_DIR), 'utf8');
  let number = 1;
  for (const row of rradRows(text)) {
    number++;
    const point = addressPointOf({ street: row.address1, unit: row.address2 || undefined, postalCode: row.zip, country: 'US', city: row.city });
    // RRAD keeps each point's OpenAddresses coordinates: the answer's location (`rooftop`).
    yield 'rejected' in point ? { kind: 'rejected', record: number, reason: point.rejected } : { kind: 'point', point: { ...point, location: row.location } };
  }
}

/** Loads the shipped RRAD address points unless a previous start did; `{seeded: false}` when already there. */
export async function seedEmbeddedReference(db: Database): Promise<{ seeded: boolean } & Partial<ReferenceImportResult>> {
  const done = await db.all(`SELECT 1 AS done FROM reference_imports WHERE format = $1 LIMIT 1`, [EMBEDDED_RRAD_FORMAT]);
  if (done.length > 0) return { seeded: false };
  // (A point an operator imported before the first start stays as imported: the sample never overwrites a file.)
  const result = await importRecords(db, EMBEDDED_RRAD_FORMAT, 'rrad-addresses-us.tsv', embeddedRradRecords(), { keepExisting: true });
  return { seeded: true, ...result };
}

/** The id of the newest reference import (0 when none): it changes when `reference import` has loaded a file. */
export async function lastReferenceImport(db: Database): Promise<number> {
  const rows = await db.all<{ last: number | string | null }>(`SELECT MAX(id) AS last FROM reference_imports`);
  return Number(rows[0]?.last ?? 0);
}

/**
 * Everything loaded, as the in-memory index `createAddressEngine({ reference })` takes (small data; a national import
 * is answered from its index file: reference-index-build.ts, which reads the rows the same way).
 */
export async function loadReferenceIndex(db: Database): Promise<ReferenceIndex> {
  return loadReferenceRows(db);
}
