/**
 * The reference index on disk: one SQLite file per import, written once (ReferenceIndexWriter, fed postal code by
 * postal code in order) and opened read-only, memory-mapped, by every instance (openReferenceIndexFile). Look-ups stay
 * synchronous (better-sqlite3), so the address engine reads it exactly as it reads the in-memory index.
 *
 * Layout: `zips` holds one deflated blob per postal code (zip-streets.ts: its streets, numbers, units, add-ons, ranges,
 * TIGER sides, sources, coordinates); small tables hold what is looked up across postal codes (street name, written-
 * alike key and route -> postal codes; street names by first letter and length for slips) and the place names
 * (bounded by the number of postal codes, read into memory at open). A blob read is decoded into the per-ZIP maps the
 * in-memory index uses and kept in a least-recently-used cache bounded by the points it holds.
 */
import Database from 'better-sqlite3';
import { ReferenceIndex, slipIndexOf, type StoredStreet, type StoredSuggestions, type StreetTables } from './reference-index.js';
import { decodeZipStreets, encodeZipStreets, type NewStreetName, type ZipStreets } from './zip-streets.js';

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE zips (postal_code TEXT PRIMARY KEY, covered INTEGER NOT NULL, points INTEGER NOT NULL, blob BLOB NOT NULL);
  CREATE TABLE street_zips (key TEXT PRIMARY KEY, zips TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE alike_zips (key TEXT PRIMARY KEY, zips TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE route_zips (key TEXT PRIMARY KEY, zips TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE slips (bucket TEXT PRIMARY KEY, names TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE local_cities (seq INTEGER PRIMARY KEY, postal_code TEXT NOT NULL, city TEXT NOT NULL);
  CREATE TABLE suggestions (country TEXT NOT NULL, key TEXT NOT NULL, zip TEXT NOT NULL, street_key TEXT NOT NULL,
    weight INTEGER NOT NULL, ranges TEXT, PRIMARY KEY (country, key, zip, street_key)) WITHOUT ROWID;
  CREATE TABLE city_names (seq INTEGER PRIMARY KEY, zip TEXT NOT NULL, city TEXT NOT NULL, mailing INTEGER NOT NULL, state TEXT NOT NULL, preferred TEXT NOT NULL);
`;
export const FORMAT_VERSION = '3';
/** Rows a step of the writer's last grouping reads before it lets the caller yield. */
const ROWS_PER_STEP = 4_000;
/** Postal codes per look-up table kind, in the build's scratch table. */
const KIND = { street: 0, alike: 1, route: 2 } as const;

/** Writes one index file; postal codes in any order, each once. Synchronous, a postal code at a time. */
export class ReferenceIndexWriter {
  private readonly db: Database.Database;
  private readonly insertZip: Database.Statement;
  private readonly insertPair: Database.Statement;
  private readonly insertLocal: Database.Statement;
  private readonly insertCity: Database.Statement;
  private readonly insertSuggestion: Database.Statement;
  private points = 0;
  private ranges = 0;
  private covered = 0;

  constructor(file: string) {
    this.db = new Database(file);
    // Small pages: a postal code's blob spans overflow pages, and its last one is half empty on average (with 4 KiB
    // pages, 2 KiB per postal code: some 20 bytes per point at 4 M points; with 1 KiB, a quarter of that).
    this.db.pragma('page_size = 1024');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    // (The suggestions and the scratch pairs are B-trees filled in their keys' order of postal codes, not their own:
    // a page cache of some MB keeps those inserts off the disk.)
    this.db.pragma('cache_size = -32000');
    this.db.exec(SCHEMA);
    // Kept sorted as they come (a B-tree, not a sort at the end): the last step reads them in order, a page at a time.
    this.db.exec(`CREATE TEMP TABLE pairs (kind INTEGER NOT NULL, key TEXT NOT NULL, zip TEXT NOT NULL, PRIMARY KEY (kind, key, zip)) WITHOUT ROWID`);
    this.insertZip = this.db.prepare(`INSERT INTO zips (postal_code, covered, points, blob) VALUES (?, ?, ?, ?)`);
    this.insertPair = this.db.prepare(`INSERT OR IGNORE INTO temp.pairs (kind, key, zip) VALUES (?, ?, ?)`);
    this.insertLocal = this.db.prepare(`INSERT INTO local_cities (postal_code, city) VALUES (?, ?)`);
    this.insertCity = this.db.prepare(`INSERT INTO city_names (zip, city, mailing, state, preferred) VALUES (?, ?, ?, ?, ?)`);
    this.insertSuggestion = this.db.prepare(`INSERT OR IGNORE INTO suggestions (country, key, zip, street_key, weight, ranges) VALUES (?, ?, ?, ?, ?, ?)`);
    this.db.exec('BEGIN');
  }

  /** One postal code's streets, the street names new to it (what they add across postal codes), its place names. */
  addZip(postalCode: string, zip: ZipStreets, names: readonly NewStreetName[], localCities: readonly string[], counts: { points: number; ranges: number }): void {
    const covered = zip.points.size > 0 || zip.ranges.size > 0;
    // (Its weight in the reader's cache: what it decodes into.)
    let weight = counts.points + counts.ranges;
    for (const list of zip.segments.values()) weight += list.length;
    this.insertZip.run(postalCode, covered ? 1 : 0, weight, encodeZipStreets(zip));
    for (const n of names) {
      this.insertPair.run(KIND.street, n.name, postalCode);
      if (n.alike) this.insertPair.run(KIND.alike, n.alike, postalCode);
      if (n.route) this.insertPair.run(KIND.route, n.route, postalCode);
    }
    for (const city of localCities) this.insertLocal.run(postalCode, city);
    this.points += counts.points;
    this.ranges += counts.ranges;
    if (covered) this.covered++;
  }

  /**
   * A street's autocomplete suggestion by its search key: only what the reader cannot make again from the postal code
   * and the street (autocomplete.ts's storedStreetEntry): its weight and its numeric USPS ranges.
   */
  addSuggestion(s: StoredStreet): void {
    this.insertSuggestion.run(s.country, s.key, s.zip, s.streetKey, s.weight, s.ranges);
  }

  addCityName(zip: string, city: string, mailing: boolean, state: string, preferred: string): void {
    this.insertCity.run(zip, city, mailing ? 1 : 0, state, preferred);
  }

  /** Commits a batch of postal codes (the caller yields between batches). */
  checkpoint(): void {
    this.db.exec('COMMIT; BEGIN');
  }

  /**
   * The tables across postal codes grouped from the scratch pairs, read in key order a page at a time: each step is
   * at most ROWS_PER_STEP rows, and the caller yields between steps (a service building an index keeps answering).
   * `finish` runs them all at once.
   */
  *finishing(meta: Record<string, string>): Generator<void> {
    const page = this.db.prepare(`SELECT key, zip FROM temp.pairs WHERE kind = ? AND (key, zip) > (?, ?) ORDER BY key, zip LIMIT ${ROWS_PER_STEP}`).raw();
    for (const [table, kind] of [['street_zips', KIND.street], ['alike_zips', KIND.alike], ['route_zips', KIND.route]] as const) {
      const insert = this.db.prepare(`INSERT INTO ${table} (key, zips) VALUES (?, ?)`);
      let key: string | null = null;
      let zips: string[] = [];
      let after: [string, string] = ['', ''];
      for (;;) {
        const rows = page.all(kind, ...after) as [string, string][];
        for (const [k, zip] of rows) {
          if (k !== key) {
            if (key !== null) insert.run(key, zips.join(','));
            key = k;
            zips = [];
          }
          zips.push(zip);
        }
        if (rows.length < ROWS_PER_STEP) break;
        after = rows[rows.length - 1];
        yield;
      }
      if (key !== null) insert.run(key, zips.join(','));
      yield;
    }
    // (Street names are bounded by the streets, not the points: the names of a country in memory for a moment.)
    const slips = slipIndexOf(this.db.prepare(`SELECT key FROM street_zips`).pluck().all() as string[]);
    const insertSlip = this.db.prepare(`INSERT INTO slips (bucket, names) VALUES (?, ?)`);
    for (const [bucket, names] of slips) insertSlip.run(bucket, names.join('\n'));
    yield;
    const insertMeta = this.db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?)`);
    const all = { ...meta, format: FORMAT_VERSION, points: String(this.points), ranges: String(this.ranges), covered: String(this.covered) };
    for (const [key, value] of Object.entries(all)) insertMeta.run(key, value);
    this.db.exec('COMMIT');
    // (The scratch pairs are in the temporary database, not this file: nothing to compact.)
    this.db.exec('DROP TABLE temp.pairs');
    this.db.close();
  }

  finish(meta: Record<string, string>): void {
    for (const _ of this.finishing(meta));
  }

  /** Gives up (the caller removes the file). */
  abandon(): void {
    if (this.db.open) this.db.close();
  }
}

/** A map that forgets what was read least recently once its entries weigh more than `budget`. */
class LeastRecentlyUsed<V> {
  private readonly map = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(private readonly budget: number) {}

  get(key: string, load: () => { value: V; weight: number }): V {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit.value;
    }
    const loaded = load();
    this.map.set(key, loaded);
    this.weight += loaded.weight;
    for (const [k, v] of this.map) {
      if (this.weight <= this.budget || k === key) break;
      this.map.delete(k);
      this.weight -= v.weight;
    }
    return loaded.value;
  }
}

export interface IndexFileOptions {
  /** How many points the decoded postal codes in memory may hold together (default 50,000: some 35 MB). */
  cachePoints?: number;
}

const EMPTY = new Set<string>();
/** Suggestion rows read per query of a prefix scan (the autocomplete reads at most 100 per prefix). */
const SUGGESTIONS_PAGE = 128;

/** The streets of an index file: StreetTables over its blobs and tables. */
class FileStreetTables implements StreetTables {
  readonly counts: { points: number; ranges: number };
  readonly coveredCount: number;
  /** Postal code -> covered (undefined until asked: read from its row then, one lookup). */
  private readonly codes = new Map<string, boolean | undefined>();
  private readonly zips: LeastRecentlyUsed<ZipStreets>;
  /** (Weighed in postal codes: some 200,000 of them, about 10 MB.) */
  private readonly lists = new LeastRecentlyUsed<ReadonlySet<string>>(200_000);
  private readonly blobOf: Database.Statement;
  private readonly coveredOf: Database.Statement;
  private readonly zipsOf: Record<'street' | 'alike' | 'route', Database.Statement>;
  private readonly slipsOf: Database.Statement;
  readonly suggestions: StoredSuggestions;

  constructor(private readonly db: Database.Database, options: IndexFileOptions) {
    const meta = new Map(db.prepare(`SELECT key, value FROM meta`).raw().all() as [string, string][]);
    if (meta.get('format') !== FORMAT_VERSION) throw new Error(`reference index format ${meta.get('format')} is not ${FORMAT_VERSION}`);
    this.counts = { points: Number(meta.get('points')), ranges: Number(meta.get('ranges')) };
    this.coveredCount = Number(meta.get('covered'));
    this.zips = new LeastRecentlyUsed(options.cachePoints ?? 50_000);
    this.blobOf = db.prepare(`SELECT blob, points FROM zips WHERE postal_code = ?`).raw();
    this.coveredOf = db.prepare(`SELECT covered FROM zips WHERE postal_code = ?`).pluck();
    const listOf = (table: string) => db.prepare(`SELECT zips FROM ${table} WHERE key = ?`).pluck();
    this.zipsOf = { street: listOf('street_zips'), alike: listOf('alike_zips'), route: listOf('route_zips') };
    this.slipsOf = db.prepare(`SELECT names FROM slips WHERE bucket = ?`).pluck();
    const columns = `SELECT key, zip, street_key, weight, ranges FROM suggestions WHERE country = ?`;
    const first = db.prepare(`${columns} AND key >= ? ORDER BY key, zip, street_key LIMIT ${SUGGESTIONS_PAGE}`).raw();
    const next = db.prepare(`${columns} AND (key, zip, street_key) > (?, ?, ?) ORDER BY key, zip, street_key LIMIT ${SUGGESTIONS_PAGE}`).raw();
    this.suggestions = {
      streetsStartingWith(country, prefix, visit) {
        // Pages of rows in key order (the table's own), as the in-memory arrays' binary search and scan read them.
        let rows = first.all(country, prefix) as [string, string, string, number, string | null][];
        for (;;) {
          for (const [key, zip, streetKey, weight, ranges] of rows) {
            if (!key.startsWith(prefix) || !visit({ country, key, zip, streetKey, weight, ranges })) return;
          }
          if (rows.length < SUGGESTIONS_PAGE) return;
          const [key, zip, streetKey] = rows[rows.length - 1];
          rows = next.all(country, key, zip, streetKey) as typeof rows;
        }
      },
    };
  }

  /**
   * The postal codes' list, a page at a time (the opener yields between pages), from the primary key's index alone:
   * reading `covered` with it scanned the table's leaf pages, which hold the blobs' first bytes (the open touched
   * pages in proportion to the points). Whether a postal code is covered is read from its row when first asked.
   */
  *readCodes(): Generator<void> {
    const page = this.db.prepare(`SELECT postal_code FROM zips WHERE postal_code > ? ORDER BY postal_code LIMIT ${OPEN_PAGE}`).pluck();
    for (let after = '';;) {
      const codes = page.all(after) as string[];
      for (const code of codes) this.codes.set(code, undefined);
      if (codes.length < OPEN_PAGE) return;
      after = codes[codes.length - 1];
      yield;
    }
  }

  zip(postalCode: string): ZipStreets | undefined {
    if (!this.codes.has(postalCode)) return undefined;
    return this.zips.get(postalCode, () => {
      const [blob, points] = this.blobOf.get(postalCode) as [Buffer, number];
      return { value: decodeZipStreets(postalCode, blob), weight: Math.max(1, points) };
    });
  }

  postalCodes(): Iterable<string> { return this.codes.keys(); }
  covers(postalCode: string): boolean {
    let covered = this.codes.get(postalCode);
    if (covered === undefined) {
      if (!this.codes.has(postalCode)) return false;
      covered = this.coveredOf.get(postalCode) === 1;
      this.codes.set(postalCode, covered);
    }
    return covered;
  }

  private list(kind: 'street' | 'alike' | 'route', key: string): ReadonlySet<string> | undefined {
    const set = this.lists.get(`${kind}\u0001${key}`, () => {
      const text = this.zipsOf[kind].get(key) as string | undefined;
      return { value: text === undefined ? EMPTY : new Set(text.split(',')), weight: text === undefined ? 1 : text.length / 6 + 1 };
    });
    return set === EMPTY ? undefined : set;
  }

  zipsWithStreetName(name: string) { return this.list('street', name); }
  zipsWithAlikeKey(key: string) { return this.list('alike', key); }
  zipsWithRoute(key: string) { return this.list('route', key); }

  slipCandidates(bucket: string): readonly string[] {
    const text = this.slipsOf.get(bucket) as string | undefined;
    return text ? text.split('\n') : [];
  }

  close(): void {
    this.db.close();
  }
}

/** A reference index opened from its file: answers as the in-memory one built from the same data would. */
export interface OpenedReferenceIndex {
  index: ReferenceIndex;
  close(): void;
}

/** Rows read per page at open (the postal codes, the place names): a few milliseconds each. */
const OPEN_PAGE = 1_000;

/** Rows of a table by its `seq`, a page at a time. */
function* pagesOf<R>(db: Database.Database, sql: string, visit: (row: R) => void): Generator<void> {
  const page = db.prepare(`${sql} WHERE seq > ? ORDER BY seq LIMIT ${OPEN_PAGE}`).raw();
  for (let after = 0; ;) {
    const rows = page.all(after) as (R & unknown[])[];
    for (const row of rows) visit(row);
    if (rows.length < OPEN_PAGE) return;
    after = rows[rows.length - 1][0] as number;
    yield;
  }
}

/**
 * The open, a page of rows at a time: what it reads is bounded by the postal codes (their list, the address files'
 * place names per postal code, the USPS City-State names), never by the points.
 */
function* opening(file: string, options: IndexFileOptions): Generator<void, OpenedReferenceIndex> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Pages are read through the page cache, not copied into SQLite's: resident memory is the pages touched.
    db.pragma('mmap_size = 1099511627776');
    db.pragma('cache_size = -8000');
    const tables = new FileStreetTables(db, options);
    yield* tables.readCodes();
    const index = new ReferenceIndex(tables);
    yield* pagesOf<[number, string, string]>(db, `SELECT seq, postal_code, city FROM local_cities`, ([, postalCode, city]) => index.addLocalCityName(postalCode, city));
    yield* pagesOf<[number, string, string, number, string, string]>(db, `SELECT seq, zip, city, mailing, state, preferred FROM city_names`, ([, zip, city, mailing, state, preferred]) => {
      if (mailing === 1) index.addCityName(zip, city);
      else index.addCityAlias(zip, city, state, preferred);
    });
    return { index, close: () => tables.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}

export function openReferenceIndexFile(file: string, options: IndexFileOptions = {}): OpenedReferenceIndex {
  const steps = opening(file, options);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** The same open, yielding to the event loop between its pages (a running service swapping in a new index). */
export async function openReferenceIndexFileInSteps(file: string, options: IndexFileOptions = {}): Promise<OpenedReferenceIndex> {
  const steps = opening(file, options);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
