/**
 * The reference tables of the database as the address engine reads them (src/validation/address/reference-index.ts):
 *   referenceIndexVersion  which import the data is at (the newest import's id and time: a new one means a new index)
 *   buildReferenceIndexFile writes the disk index of that version, streamed: a few postal codes' rows at a time, read
 *                          in the order of the tables' keys, never a whole table in memory; it yields to the event
 *                          loop after each batch, so a service building one in the background keeps answering
 *   loadReferenceRows      the same rows into an in-memory index (small data: the embedded sample, test imports)
 * Both read the rows of one postal code in the order they were written (SQLite rowid, PostgreSQL ctid), which is the
 * order the in-memory index meets them in: the first place name of a postal code, its streets' order, are the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from './data-source.js';
import { storedStreetOf, streetSuggestionsOf } from '../validation/address/autocomplete.js';
import { SHIPPED_DATA_DIR } from '../validation/address/index.js';
import { cityKey, PostalIndex } from '../validation/address/postal-index.js';
import { ReferenceIndex } from '../validation/address/reference-index.js';
import { partsOfKey } from '../validation/address/street-writings.js';
import { FORMAT_VERSION, openReferenceIndexFileInSteps, ReferenceIndexWriter } from '../validation/address/reference-index-file.js';
import type { AddressPointRecord, LocationPrecision, StreetRangeRecord, StreetSegmentRecord } from '../validation/address/reference-types.js';
import { addPointTo, addRangeTo, addSegmentTo, emptyZipStreets, indexDegrees, type NewStreetName } from '../validation/address/zip-streets.js';

// (As reference-import.ts writes them; not imported from it: reference-store.ts, which it imports, reads through here.)
const EMBEDDED_RRAD_FORMAT = 'rrad-embedded';
const SAMPLE_SOURCE_SUFFIX = '+sample';
/** Rows read per query (postal codes of a batch chosen to make about so many): some milliseconds of work between yields. */
const ROWS_PER_QUERY = 2_000;
const MAX_CODES_PER_BATCH = 256;
/** The longest the build works between yields to the event loop (a postal code is never split). */
const SLICE_MS = 8;

interface PointRow {
  postal_code: string; primary_number: string; unit: string; predirection: string | null; street_name: string;
  suffix: string | null; postdirection: string | null; plus4: string | null; city: string; source: string;
  lat: number | null; lon: number | null; precision: string | null; sources: string | null;
}
interface RangeRow {
  zip: string; record_type: string; primary_low: string; primary_high: string; primary_parity: string; secondary_low: string;
  secondary_high: string; secondary_designator: string | null; secondary_parity: string | null; predirection: string | null;
  street_name: string; suffix: string | null; postdirection: string | null; plus4_low: string | null; plus4_high: string | null;
}
interface SegmentRow {
  postal_code: string; predirection: string | null; street_name: string; suffix: string | null; postdirection: string | null;
  from_number: string; to_number: string; parity: string; from_lat: number | null; from_lon: number | null; to_lat: number | null;
  to_lon: number | null; source: string;
}

function pointOf(r: PointRow): AddressPointRecord {
  const lat = r.lat === null ? null : indexDegrees(Number(r.lat));
  const lon = r.lon === null ? null : indexDegrees(Number(r.lon));
  return {
    postalCode: r.postal_code,
    street: { predirection: r.predirection, name: r.street_name, suffix: r.suffix, postdirection: r.postdirection },
    primaryNumber: r.primary_number,
    unit: r.unit || null,
    plus4: r.plus4,
    city: r.city || null,
    // The embedded RRAD points, and files imported with --sample, are samples of addresses (reference-index.ts).
    sample: r.source === EMBEDDED_RRAD_FORMAT || r.source.endsWith(SAMPLE_SOURCE_SUFFIX),
    sources: r.sources ? r.sources.split(',') : undefined,
    location: lat !== null && lon !== null ? { lat, lon, precision: (r.precision as LocationPrecision | null) ?? 'rooftop' } : null,
  };
}

function rangeOf(r: RangeRow): StreetRangeRecord {
  return {
    zip: r.zip, recordType: r.record_type,
    street: { predirection: r.predirection, name: r.street_name, suffix: r.suffix, postdirection: r.postdirection },
    primaryLow: r.primary_low, primaryHigh: r.primary_high, primaryParity: r.primary_parity,
    secondaryDesignator: r.secondary_designator, secondaryLow: r.secondary_low || null, secondaryHigh: r.secondary_high || null,
    secondaryParity: r.secondary_parity, plus4Low: r.plus4_low, plus4High: r.plus4_high,
  };
}

function segmentOf(r: SegmentRow): StreetSegmentRecord {
  const end = (lat: number | null, lon: number | null) => (lat === null || lon === null ? null : { lat: indexDegrees(Number(lat)), lon: indexDegrees(Number(lon)) });
  return {
    postalCode: r.postal_code, street: { predirection: r.predirection, name: r.street_name, suffix: r.suffix, postdirection: r.postdirection },
    fromNumber: r.from_number, toNumber: r.to_number, parity: r.parity as StreetSegmentRecord['parity'],
    from: end(r.from_lat, r.from_lon), to: end(r.to_lat, r.to_lon), source: r.source,
  };
}

/** What identifies the data: the newest import (its id and time); `0-0` before any. */
export async function referenceIndexVersion(db: Database): Promise<string> {
  return versionIn(db);
}

/** The index file of a version (and of the file format: a file of an older format is built again, not misread). */
export function referenceIndexFileOf(dir: string, version: string): string {
  return path.join(dir, `index-${version}-f${FORMAT_VERSION}.sqlite`);
}

const POINT_COLUMNS = 'postal_code, primary_number, unit, predirection, street_name, suffix, postdirection, plus4, city, source, lat, lon, precision, sources';

/**
 * The tables as they were at one moment: one read transaction held for the whole build (SQLite: a second, read-only
 * connection to the file, whose WAL snapshot the imports' commits meanwhile leave alone; PostgreSQL: REPEATABLE READ
 * READ ONLY on one pooled connection), so that an index never holds half of an import's batch and the rest of a
 * later one. (An in-memory SQLite database has one connection, which nothing else writes during a load.)
 */
interface Snapshot {
  dialect: Database['dialect'];
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  end(): Promise<void>;
}

async function snapshotOf(db: Database): Promise<Snapshot> {
  if (db.dialect === 'sqlite') {
    const name = db.sqlite.name;
    if (name === ':memory:' || name === '') return { dialect: 'sqlite', all: (sql, params) => db.all(sql, params), end: async () => {} };
    const conn = new BetterSqlite3(name, { readonly: true, fileMustExist: true });
    conn.pragma('busy_timeout = 5000');
    const statements = new Map<string, BetterSqlite3.Statement>();
    conn.exec('BEGIN');
    // (The queries' `$n` are in order: each a `?`.)
    const all = async <T>(sql: string, params: readonly unknown[] = []) => {
      let stmt = statements.get(sql);
      if (!stmt) statements.set(sql, (stmt = conn.prepare(sql.replace(/\$\d+/g, '?'))));
      return stmt.all(...params) as T[];
    };
    return {
      dialect: 'sqlite', all,
      end: async () => {
        if (conn.inTransaction) conn.exec('COMMIT');
        conn.close();
      },
    };
  }
  const runner = db.dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  } catch (err) {
    await runner.release();
    throw err;
  }
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly unknown[] = []) => ((await runner.query(sql, params as unknown[], true)) as { records: T[] }).records,
    end: async () => {
      try {
        await runner.query('COMMIT');
      } finally {
        await runner.release();
      }
    },
  };
}

/** The rows of these postal codes, each postal code's in the order they were written. */
async function rowsOf(db: Snapshot, codes: readonly string[]) {
  const order = db.dialect === 'sqlite' ? 'rowid' : 'ctid';
  const list = codes.map((_, i) => `$${i + 1}`).join(', ');
  const points = await db.all<PointRow>(`SELECT ${POINT_COLUMNS} FROM reference_points WHERE postal_code IN (${list}) ORDER BY ${order}`, [...codes]);
  const ranges = await db.all<RangeRow>(`SELECT * FROM reference_ranges WHERE zip IN (${list}) ORDER BY ${order}`, [...codes]);
  const segments = await db.all<SegmentRow>(`SELECT * FROM reference_segments WHERE postal_code IN (${list}) ORDER BY ${order}`, [...codes]);
  return { points, ranges, segments };
}

/** Rows grouped by postal code, each group in the rows' order. */
function byCode<R>(rows: readonly R[], codeOf: (row: R) => string): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const row of rows) {
    const code = codeOf(row);
    let group = groups.get(code);
    if (!group) groups.set(code, (group = []));
    group.push(row);
  }
  return groups;
}

/**
 * The distinct postal codes of a table, one index seek each (a loose index scan: the tables' keys begin with the postal
 * code), not a scan of its rows: some tens of milliseconds for the country's 40,000 ZIPs whatever the points.
 */
async function codesOfTable(db: Snapshot, table: string, column: string): Promise<string[]> {
  const rows = await db.all<{ c: string }>(`WITH RECURSIVE t(c) AS (SELECT MIN(${column}) FROM ${table}
    UNION ALL SELECT (SELECT MIN(${column}) FROM ${table} WHERE ${column} > t.c) FROM t WHERE t.c IS NOT NULL)
    SELECT c FROM t WHERE c IS NOT NULL`);
  return rows.map((r) => r.c);
}

async function postalCodesOf(db: Snapshot): Promise<string[]> {
  const codes = new Set([
    ...await codesOfTable(db, 'reference_points', 'postal_code'), ...await codesOfTable(db, 'reference_ranges', 'zip'),
    ...await codesOfTable(db, 'reference_segments', 'postal_code'),
  ]);
  // (Sorted here, as the string compare of the range queries: PostgreSQL's collation may order otherwise.)
  return [...codes].sort();
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every postal code's rows, a batch at a time: one postal code's records, grouped; null after each batch. A batch is
 * as many postal codes as make some ROWS_PER_QUERY rows (one query's synchronous part stays a few milliseconds at any
 * density: 16 ZIPs of a national import are 60,000 points).
 */
async function* zipsOf(db: Snapshot) {
  const codes = await postalCodesOf(db);
  let perBatch = 16;
  for (let i = 0; i < codes.length;) {
    const batch = codes.slice(i, i + perBatch);
    i += batch.length;
    const rows = await rowsOf(db, batch);
    const read = rows.points.length + rows.ranges.length + rows.segments.length;
    perBatch = Math.max(1, Math.min(MAX_CODES_PER_BATCH, Math.round((batch.length * ROWS_PER_QUERY) / Math.max(1, read))));
    const points = byCode(rows.points, (r) => r.postal_code);
    const ranges = byCode(rows.ranges, (r) => r.zip);
    const segments = byCode(rows.segments, (r) => r.postal_code);
    for (const code of batch) yield { code, points: points.get(code) ?? [], ranges: ranges.get(code) ?? [], segments: segments.get(code) ?? [] };
    yield null; // a batch done: the caller commits and yields to the event loop
  }
}

async function cityNameRows(db: Snapshot) {
  return db.all<{ zip: string; city: string; state: string; mailing_name: boolean | number; preferred_name: string }>(
    `SELECT zip, city, state, mailing_name, preferred_name FROM reference_city_names ORDER BY ${db.dialect === 'sqlite' ? 'rowid' : 'ctid'}`,
  );
}

/** The newest import in the snapshot (`0-0` before any): what the index holds. */
async function versionIn(db: Pick<Snapshot, 'all'>): Promise<string> {
  const rows = await db.all<{ id: number | string; created_at: number | string }>(`SELECT id, created_at FROM reference_imports ORDER BY id DESC LIMIT 1`);
  return rows.length ? `${rows[0].id}-${rows[0].created_at}` : '0-0';
}

/** The shipped GeoNames ZIPs and FSAs alone (the CLI's build: not the country metadata the engine also loads). */
function shippedPostalIndex(): PostalIndex {
  const read = (name: string) => fs.readFileSync(new URL(name, SHIPPED_DATA_DIR), 'utf8');
  return PostalIndex.fromText(read('us-zip-codes.tsv'), read('ca-fsa.tsv'));
}

export interface BuildProgress {
  postalCodes: number; points: number;
  /** The newest import the snapshot read holds (the index's `snapshot_version`). */
  version?: string;
}

/**
 * Writes the index of the data as it is now (one snapshot of the tables) to `file` (to a file beside it, renamed into
 * place once whole: a reader never sees half an index, and a build killed half-way leaves the previous one as it was).
 * It yields to the event loop every SLICE_MS, so that a service building one in the background keeps answering.
 */
export async function buildReferenceIndexFile(
  db: Database, file: string, meta: Record<string, string> = {}, onBatch?: (progress: BuildProgress) => void | Promise<void>,
  /** The postal data the autocomplete's suggestions are written with (the shipped GeoNames data when not given). */
  postal: PostalIndex = shippedPostalIndex(),
): Promise<BuildProgress> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}.partial`;
  const writer = new ReferenceIndexWriter(partial);
  const progress: BuildProgress = { postalCodes: 0, points: 0 };
  const snapshot = await snapshotOf(db);
  let slice = performance.now();
  const yieldOften = async () => {
    if (performance.now() - slice < SLICE_MS) return;
    await yieldToLoop();
    slice = performance.now();
  };
  try {
    progress.version = await versionIn(snapshot);
    for await (const z of zipsOf(snapshot)) {
      if (z === null) {
        writer.checkpoint();
        await onBatch?.(progress);
        await yieldOften();
        continue;
      }
      const zip = emptyZipStreets();
      const names: NewStreetName[] = [];
      const cities: string[] = [];
      let points = 0;
      for (const row of z.points) {
        const point = pointOf(row);
        const added = addPointTo(zip, point);
        if (added.newName) names.push(added.newName);
        if (added.newNumber) points++;
        // (One spelling per place, the first, as the in-memory index keeps it.)
        if (point.city && !cities.some((c) => cityKey(c) === cityKey(point.city!))) cities.push(point.city);
      }
      for (const row of z.ranges) {
        const added = addRangeTo(zip, rangeOf(row));
        if (added) names.push(added);
      }
      for (const row of z.segments) addSegmentTo(zip, segmentOf(row));
      // The autocomplete's streets, stored sorted in the file: a service opening it builds none.
      for (const key of new Set([...zip.points.keys(), ...zip.ranges.keys()])) {
        const made = streetSuggestionsOf(postal, cities, {
          postalCode: z.code, street: partsOfKey(key), numbers: [...zip.points.get(key)?.keys() ?? []], ranges: zip.ranges.get(key) ?? [],
        });
        if (made) writer.addSuggestion(storedStreetOf(made.street));
      }
      writer.addZip(z.code, zip, names, cities, { points, ranges: z.ranges.length });
      progress.postalCodes++;
      progress.points += points;
      await yieldOften();
    }
    for (const c of await cityNameRows(snapshot)) {
      writer.addCityName(c.zip, c.city, c.mailing_name === true || c.mailing_name === 1, c.state, c.preferred_name || c.city);
    }
    await snapshot.end();
    for (const _ of writer.finishing({ ...meta, snapshot_version: progress.version })) await yieldOften();
    await fs.promises.rename(partial, file);
    return progress;
  } catch (err) {
    writer.abandon();
    await snapshot.end().catch(() => undefined);
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
}

/** The same rows as buildReferenceIndexFile reads (one snapshot), into an in-memory index (small data). */
export async function loadReferenceRows(db: Database): Promise<ReferenceIndex> {
  const index = new ReferenceIndex();
  const snapshot = await snapshotOf(db);
  try {
    for await (const z of zipsOf(snapshot)) {
      if (z === null) continue;
      for (const row of z.points) index.addPoint(pointOf(row));
      for (const row of z.ranges) index.addRange(rangeOf(row));
      for (const row of z.segments) index.addSegment(segmentOf(row));
    }
    for (const c of await cityNameRows(snapshot)) {
      if (c.mailing_name === true || c.mailing_name === 1) index.addCityName(c.zip, c.city);
      else index.addCityAlias(c.zip, c.city, c.state, c.preferred_name || c.city);
    }
  } finally {
    await snapshot.end();
  }
  return index;
}

/** The reference index an engine reads, and how to let it go once no request reads it any more. */
export interface OpenedReference {
  index: ReferenceIndex;
  close(): void;
  /** `memory` for small data, else the index file read. */
  kept: 'memory' | string;
}

/** Builds in progress in this process, by file: a second ask waits for the first build. */
const builds = new Map<string, Promise<unknown>>();

/** How long a partial file may go unwritten before its build is taken for dead. */
const PARTIAL_STALE_MS = 120_000;

/** True when another process is writing this index file: a partial file of it, written to lately. */
async function buildingElsewhere(file: string): Promise<boolean> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  const ours = `${prefix}${process.pid}.`;
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix) || !name.endsWith('.partial') || name.startsWith(ours)) continue;
    const at = (await fs.promises.stat(path.join(dir, name)).catch(() => null))?.mtimeMs ?? 0;
    if (Date.now() - at < PARTIAL_STALE_MS) return true;
  }
  return false;
}

/** Index files of other versions in the folder, all but the newest `keep` (an instance still reading one keeps its mapping). */
async function removeOlderFiles(dir: string, current: string, keep = 1): Promise<void> {
  const files = (await fs.promises.readdir(dir)).filter((f) => /^index-.*\.sqlite$/.test(f)).map((f) => path.join(dir, f)).filter((f) => f !== current);
  const dated = await Promise.all(files.map(async (f) => ({ f, at: (await fs.promises.stat(f).catch(() => null))?.mtimeMs ?? 0 })));
  for (const { f } of dated.sort((a, b) => b.at - a.at).slice(keep)) await fs.promises.rm(f, { force: true });
}

/**
 * The reference of the data at `version`: in memory up to `memoryRows` rows, else the index file of that version in
 * `dir`, built first when absent (`building` is told while it is).
 */
export async function openReference(
  db: Database, version: string, options: { dir: string; memoryRows: number; cachePoints?: number; postal?: PostalIndex },
  building: (on: boolean) => void = () => {},
): Promise<OpenedReference> {
  // (Counted no further than the threshold: a national table is not counted through at every swap.)
  let rows = 0;
  for (const table of ['reference_points', 'reference_ranges', 'reference_segments']) {
    const limit = options.memoryRows + 1 - rows;
    if (limit <= 0) break;
    rows += Number((await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} LIMIT ${limit}) t`))[0]?.n ?? 0);
  }
  if (rows <= options.memoryRows) return { index: await loadReferenceRows(db), close() {}, kept: 'memory' };
  const dir = path.resolve(options.dir);
  const file = referenceIndexFileOf(dir, version);
  if (!fs.existsSync(file)) {
    building(true);
    try {
      // Another process of the machine building it (`reference import`, another instance): its file, once whole.
      while (!fs.existsSync(file) && (await buildingElsewhere(file))) await new Promise((resolve) => setTimeout(resolve, 500));
      let build = builds.get(file);
      if (!build && !fs.existsSync(file)) {
        builds.set(file, (build = buildReferenceIndexFile(db, file, { version }, undefined, options.postal).finally(() => builds.delete(file))));
      }
      await build;
    } finally {
      building(false);
    }
  }
  const opened = await openReferenceIndexFileInSteps(file, { cachePoints: options.cachePoints });
  await removeOlderFiles(dir, file).catch(() => undefined);
  return { ...opened, kept: file };
}
