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
import { ReferenceIndex } from '../validation/address/reference-index.js';
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

interface PointRow {
  postal_code: string; primary_number: string; unit: string; predirection: string | null; street_name: string;
  suffix: string | null; postdirection: string | null; plus4: string | null; city: string; source: string;
}
interface RangeRow {
  zip: string; record_type: string; primary_low: string; primary_high: string; primary_parity: string; secondary_low: string;
  secondary_high: string; secondary_designator: string | null; secondary_parity: string | null; predirection: string | null;
  street_name: string; suffix: string | null; postdirection: string | null; plus4_low: string | null; plus4_high: string | null;
}

/** The id of the newest reference import (0 when none): it changes when `reference import` has loaded a file. */
export async function lastReferenceImport(db: Database): Promise<number> {
  const rows = await db.all<{ last: number | string | null }>(`SELECT MAX(id) AS last FROM reference_imports`);
  return Number(rows[0]?.last ?? 0);
}

/** Everything loaded, as the in-memory index `createAddressEngine({ reference })` takes. */
export async function loadReferenceIndex(db: Database): Promise<ReferenceIndex> {
  const index = new ReferenceIndex();
  for (const r of await db.all<PointRow>(
    `SELECT postal_code, primary_number, unit, predirection, street_name, suffix, postdirection, plus4, city, source FROM reference_points`,
  )) {
    index.addPoint({
      postalCode: r.postal_code,
      street: { predirection: r.predirection, name: r.street_name, suffix: r.suffix, postdirection: r.postdirection },
      primaryNumber: r.primary_number,
      unit: r.unit || null,
      plus4: r.plus4,
      city: r.city || null,
      // The embedded RRAD points, and files imported with --sample, are samples of addresses (reference-index.ts).
      sample: r.source === EMBEDDED_RRAD_FORMAT || r.source.endsWith(SAMPLE_SOURCE_SUFFIX),
    });
  }
  for (const r of await db.all<RangeRow>(`SELECT * FROM reference_ranges`)) {
    index.addRange({
      zip: r.zip,
      recordType: r.record_type,
      street: { predirection: r.predirection, name: r.street_name, suffix: r.suffix, postdirection: r.postdirection },
      primaryLow: r.primary_low,
      primaryHigh: r.primary_high,
      primaryParity: r.primary_parity,
      secondaryDesignator: r.secondary_designator,
      secondaryLow: r.secondary_low || null,
      secondaryHigh: r.secondary_high || null,
      secondaryParity: r.secondary_parity,
      plus4Low: r.plus4_low,
      plus4High: r.plus4_high,
    });
  }
  for (const r of await db.all<{ zip: string; city: string; state: string; mailing_name: boolean | number; preferred_name: string }>(
    `SELECT zip, city, state, mailing_name, preferred_name FROM reference_city_names`,
  )) {
    if (r.mailing_name === true || r.mailing_name === 1) index.addCityName(r.zip, r.city);
    else index.addCityAlias(r.zip, r.city, r.state, r.preferred_name || r.city);
  }
  return index;
}
