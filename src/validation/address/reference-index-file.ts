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
import { ReferenceIndex, slipIndexOf, type StoredSuggestions, type StreetTables } from './reference-index.js';
import { decodeZipStreets, encodeZipStreets, type NewStreetName, type ZipStreets } from './zip-streets.js';

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE zips (postal_code TEXT PRIMARY KEY, covered INTEGER NOT NULL, points INTEGER NOT NULL, blob BLOB NOT NULL);
  CREATE TABLE street_zips (key TEXT PRIMARY KEY, zips TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE alike_zips (key TEXT PRIMARY KEY, zips TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE route_zips (key TEXT PRIMARY KEY, zips TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE slips (bucket TEXT PRIMARY KEY, names TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE local_cities (seq INTEGER PRIMARY KEY, postal_code TEXT NOT NULL, city TEXT NOT NULL);
  CREATE TABLE suggestions (country TEXT NOT NULL, key TEXT NOT NULL, entry TEXT NOT NULL);
  CREATE TABLE city_names (seq INTEGER PRIMARY KEY, zip TEXT NOT NULL, city TEXT NOT NULL, mailing INTEGER NOT NULL, state TEXT NOT NULL, preferred TEXT NOT NULL);
`;
const FORMAT_VERSION = '1';
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
    this.db.exec(SCHEMA);
    this.db.exec(`CREATE TEMP TABLE pairs (kind INTEGER NOT NULL, key TEXT NOT NULL, zip TEXT NOT NULL)`);
    this.insertZip = this.db.prepare(`INSERT INTO zips (postal_code, covered, points, blob) VALUES (?, ?, ?, ?)`);
    this.insertPair = this.db.prepare(`INSERT INTO temp.pairs (kind, key, zip) VALUES (?, ?, ?)`);
    this.insertLocal = this.db.prepare(`INSERT INTO local_cities (postal_code, city) VALUES (?, ?)`);
    this.insertCity = this.db.prepare(`INSERT INTO city_names (zip, city, mailing, state, preferred) VALUES (?, ?, ?, ?, ?)`);
    this.insertSuggestion = this.db.prepare(`INSERT INTO suggestions (country, key, entry) VALUES (?, ?, ?)`);
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

  /** A street's autocomplete suggestion (autocomplete.ts's entry), by its search key. */
  addSuggestion(country: string, key: string, entry: object): void {
    this.insertSuggestion.run(country, key, JSON.stringify(entry));
  }

  addCityName(zip: string, city: string, mailing: boolean, state: string, preferred: string): void {
    this.insertCity.run(zip, city, mailing ? 1 : 0, state, preferred);
  }

  /** Commits a batch of postal codes (the caller yields between batches). */
  checkpoint(): void {
    this.db.exec('COMMIT; BEGIN');
  }

  /**
   * The tables across postal codes grouped from the scratch pairs (one sort: the one step of the build that does not
   * yield, some seconds at national size; `reference import` builds the index in its own process for that reason).
   */
  finish(meta: Record<string, string>): void {
    for (const [table, kind] of [['street_zips', KIND.street], ['alike_zips', KIND.alike], ['route_zips', KIND.route]] as const) {
      this.db.exec(`INSERT INTO ${table} (key, zips) SELECT key, group_concat(zip) FROM (SELECT key, zip FROM temp.pairs WHERE kind = ${kind} ORDER BY key, zip) GROUP BY key`);
    }
    const slips = slipIndexOf(this.db.prepare(`SELECT key FROM street_zips`).pluck().iterate() as IterableIterator<string>);
    const insertSlip = this.db.prepare(`INSERT INTO slips (bucket, names) VALUES (?, ?)`);
    for (const [bucket, names] of slips) insertSlip.run(bucket, names.join('\n'));
    // (One sort of the streets, some hundredths of the points: the autocomplete's prefix scans read this index.)
    this.db.exec(`CREATE INDEX suggestions_by_key ON suggestions (country, key)`);
    const insertMeta = this.db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?)`);
    const all = { ...meta, format: FORMAT_VERSION, points: String(this.points), ranges: String(this.ranges), covered: String(this.covered) };
    for (const [key, value] of Object.entries(all)) insertMeta.run(key, value);
    this.db.exec('COMMIT');
    // (The scratch pairs are in the temporary database, not this file: nothing to compact.)
    this.db.exec('DROP TABLE temp.pairs');
    this.db.close();
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

/** The streets of an index file: StreetTables over its blobs and tables. */
class FileStreetTables implements StreetTables {
  readonly counts: { points: number; ranges: number };
  readonly coveredCount: number;
  private readonly codes = new Map<string, boolean>();
  private readonly zips: LeastRecentlyUsed<ZipStreets>;
  /** (Weighed in postal codes: some 200,000 of them, about 10 MB.) */
  private readonly lists = new LeastRecentlyUsed<ReadonlySet<string>>(200_000);
  private readonly blobOf: Database.Statement;
  private readonly zipsOf: Record<'street' | 'alike' | 'route', Database.Statement>;
  private readonly slipsOf: Database.Statement;
  readonly suggestions: StoredSuggestions;

  constructor(private readonly db: Database.Database, options: IndexFileOptions) {
    const meta = new Map(db.prepare(`SELECT key, value FROM meta`).raw().all() as [string, string][]);
    if (meta.get('format') !== FORMAT_VERSION) throw new Error(`reference index format ${meta.get('format')} is not ${FORMAT_VERSION}`);
    this.counts = { points: Number(meta.get('points')), ranges: Number(meta.get('ranges')) };
    this.coveredCount = Number(meta.get('covered'));
    for (const [code, covered] of db.prepare(`SELECT postal_code, covered FROM zips`).raw().iterate() as IterableIterator<[string, number]>) {
      this.codes.set(code, covered === 1);
    }
    this.zips = new LeastRecentlyUsed(options.cachePoints ?? 50_000);
    this.blobOf = db.prepare(`SELECT blob, points FROM zips WHERE postal_code = ?`).raw();
    const listOf = (table: string) => db.prepare(`SELECT zips FROM ${table} WHERE key = ?`).pluck();
    this.zipsOf = { street: listOf('street_zips'), alike: listOf('alike_zips'), route: listOf('route_zips') };
    this.slipsOf = db.prepare(`SELECT names FROM slips WHERE bucket = ?`).pluck();
    const startingWith = db.prepare(`SELECT key, entry FROM suggestions WHERE country = ? AND key >= ? ORDER BY country, key LIMIT ?`).raw();
    this.suggestions = {
      streetsStartingWith(country, prefix, visit) {
        // Pages of rows in key order, as the in-memory arrays' binary search and scan read them.
        let from = prefix;
        let skip = 0;
        for (;;) {
          const rows = startingWith.all(country, from, 256 + skip) as [string, string][];
          for (let i = skip; i < rows.length; i++) {
            if (!rows[i][0].startsWith(prefix) || !visit(rows[i][1])) return;
          }
          if (rows.length < 256 + skip) return;
          const last = rows[rows.length - 1][0];
          // (Rows of the same key as the page's last are read again next page: skip those already seen.)
          skip = rows.filter((r) => r[0] === last).length;
          from = last;
        }
      },
    };
  }

  zip(postalCode: string): ZipStreets | undefined {
    if (!this.codes.has(postalCode)) return undefined;
    return this.zips.get(postalCode, () => {
      const [blob, points] = this.blobOf.get(postalCode) as [Buffer, number];
      return { value: decodeZipStreets(postalCode, blob), weight: Math.max(1, points) };
    });
  }

  postalCodes(): Iterable<string> { return this.codes.keys(); }
  covers(postalCode: string): boolean { return this.codes.get(postalCode) === true; }

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

export function openReferenceIndexFile(file: string, options: IndexFileOptions = {}): OpenedReferenceIndex {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Pages are read through the page cache, not copied into SQLite's: resident memory is the pages touched.
    db.pragma('mmap_size = 1099511627776');
    db.pragma('cache_size = -8000');
    const tables = new FileStreetTables(db, options);
    const index = new ReferenceIndex(tables);
    for (const [postalCode, city] of db.prepare(`SELECT postal_code, city FROM local_cities ORDER BY seq`).raw().iterate() as IterableIterator<[string, string]>) {
      index.addLocalCityName(postalCode, city);
    }
    const cities = db.prepare(`SELECT zip, city, mailing, state, preferred FROM city_names ORDER BY seq`).raw().iterate() as IterableIterator<[string, string, number, string, string]>;
    for (const [zip, city, mailing, state, preferred] of cities) {
      if (mailing === 1) index.addCityName(zip, city);
      else index.addCityAlias(zip, city, state, preferred);
    }
    return { index, close: () => tables.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}
