/**
 * The rows of reference records (pointRow …), a batch of them deduplicated (PendingRows) and packed where they were read
 * (PendingRows: on the worker thread of reference-import-worker.ts), and how reference-import.ts writes a packed batch with
 * the import's checkpoint, in one transaction:
 * - SQLite: multi-row `INSERT … ON CONFLICT DO UPDATE` statements inside one BEGIN IMMEDIATE, their parameters bound
 *   from the packed arrays as they are.
 * - PostgreSQL: the packed COPY text, FROM STDIN into a temporary staging table per table (ON COMMIT DELETE ROWS: no WAL for them),
 *   then one `INSERT … SELECT … ON CONFLICT DO UPDATE` per table, on the import's own connection; durable commits as
 *   the server is set, one per batch. Measured by bench/reference-import.ts.
 * Rows of one batch are deduplicated by natural key first (an upsert may not touch one row twice); the last word wins.
 * The same point from several files is one row: `sources` gains the file's source id (`nad,openaddresses`), its
 * coordinates are kept unless the new file's are as good or better (a rooftop is not replaced by a parcel point), a
 * point of a whole file stays one of a whole file when a sample file names it too.
 */
import { from as copyFrom } from 'pg-copy-streams';
import type { PoolClient } from 'pg';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database } from './data-source.js';
import type { TableSpec } from './upsert.js';
import type { AddressPointRecord, StreetRangeRecord, StreetSegmentRecord } from '../validation/address/reference-types.js';
import { streetKey } from '../validation/address/street-writings.js';
import type { CityNameRecord } from '../validation/address/reference-formats/index.js';

/** A table as a batch writes it: the upsert's SET clause (`excluded.` is the row offered). */
export interface TableWrite extends TableSpec {
  update: string;
}

const setAll = (spec: TableSpec) => spec.columns.filter((c) => !spec.key.includes(c)).map((c) => `${c} = excluded.${c}`).join(', ');

/** A point of a sample (the embedded RRAD, a `--sample` file): the SQL of reference-import.ts's isSampleSource. */
const sampleSql = (row: string) => `(${row}.source = 'rrad-embedded' OR ${row}.source LIKE '%+sample')`;
const betterLocation = `excluded.lat IS NOT NULL AND (reference_points.precision IS NULL OR reference_points.precision <> 'rooftop' OR excluded.precision = 'rooftop')`;

export const POINTS: TableWrite = {
  table: 'reference_points',
  columns: ['postal_code', 'street_key', 'primary_number', 'unit', 'predirection', 'street_name', 'suffix', 'postdirection', 'plus4', 'source', 'city',
    'lat', 'lon', 'precision', 'sources'],
  key: ['postal_code', 'street_key', 'primary_number', 'unit'],
  update: [
    'predirection = excluded.predirection', 'street_name = excluded.street_name', 'suffix = excluded.suffix', 'postdirection = excluded.postdirection',
    'plus4 = COALESCE(excluded.plus4, reference_points.plus4)',
    `city = CASE WHEN excluded.city <> '' THEN excluded.city ELSE reference_points.city END`,
    `source = CASE WHEN ${sampleSql('excluded')} AND NOT ${sampleSql('reference_points')} THEN reference_points.source ELSE excluded.source END`,
    ...['lat', 'lon', 'precision'].map((c) => `${c} = CASE WHEN ${betterLocation} THEN excluded.${c} ELSE reference_points.${c} END`),
    `sources = CASE WHEN reference_points.sources = '' THEN excluded.sources
      WHEN (',' || reference_points.sources || ',') LIKE ('%,' || excluded.sources || ',%') THEN reference_points.sources
      ELSE reference_points.sources || ',' || excluded.sources END`,
  ].join(', '),
};

const RANGES_SPEC: TableSpec = {
  table: 'reference_ranges',
  columns: ['zip', 'street_key', 'record_type', 'primary_low', 'primary_high', 'primary_parity', 'secondary_low', 'secondary_high',
    'secondary_designator', 'secondary_parity', 'predirection', 'street_name', 'suffix', 'postdirection', 'plus4_low', 'plus4_high', 'source'],
  key: ['zip', 'street_key', 'record_type', 'primary_low', 'primary_high', 'primary_parity', 'secondary_low', 'secondary_high'],
};
export const RANGES: TableWrite = { ...RANGES_SPEC, update: setAll(RANGES_SPEC) };

const CITY_NAMES_SPEC: TableSpec = {
  table: 'reference_city_names',
  columns: ['zip', 'city', 'state', 'mailing_name', 'preferred_name'],
  key: ['zip', 'city'],
};
export const CITY_NAMES: TableWrite = { ...CITY_NAMES_SPEC, update: setAll(CITY_NAMES_SPEC) };

const SEGMENTS_SPEC: TableSpec = {
  table: 'reference_segments',
  columns: ['postal_code', 'street_key', 'predirection', 'street_name', 'suffix', 'postdirection', 'from_number', 'to_number', 'parity',
    'from_lat', 'from_lon', 'to_lat', 'to_lon', 'source'],
  key: ['postal_code', 'street_key', 'from_number', 'to_number', 'parity'],
};
export const SEGMENTS: TableWrite = { ...SEGMENTS_SPEC, update: setAll(SEGMENTS_SPEC) };

export function pointRow(p: AddressPointRecord, source: string, sourceId: string): unknown[] {
  const s = p.street;
  const at = p.location ?? null;
  return [p.postalCode, streetKey(s), p.primaryNumber, p.unit ?? '', s.predirection, s.name, s.suffix, s.postdirection, p.plus4, source, p.city ?? '',
    at?.lat ?? null, at?.lon ?? null, at?.precision ?? null, sourceId];
}

export function rangeRow(r: StreetRangeRecord, source: string): unknown[] {
  const s = r.street;
  return [r.zip, streetKey(s), r.recordType, r.primaryLow, r.primaryHigh, r.primaryParity, r.secondaryLow ?? '', r.secondaryHigh ?? '',
    r.secondaryDesignator, r.secondaryParity, s.predirection, s.name, s.suffix, s.postdirection, r.plus4Low, r.plus4High, source];
}

export function cityRow(c: CityNameRecord): unknown[] {
  return [c.zip, c.city, c.state, c.mailingName, c.preferredName];
}

export function segmentRow(g: StreetSegmentRecord): unknown[] {
  const s = g.street;
  return [g.postalCode, streetKey(s), s.predirection, s.name, s.suffix, s.postdirection, g.fromNumber, g.toNumber, g.parity,
    g.from?.lat ?? null, g.from?.lon ?? null, g.to?.lat ?? null, g.to?.lon ?? null, g.source];
}

const keyIndexes = new Map<TableWrite, number[]>();
/** The positions of a table's key columns in its rows. */
function keyColumns(spec: TableWrite): number[] {
  let at = keyIndexes.get(spec);
  if (!at) keyIndexes.set(spec, (at = spec.key.map((k) => spec.columns.indexOf(k))));
  return at;
}

/**
 * Rows waiting to be written, packed as they come: per table by natural key (the last word on a key wins: a row to
 * upsert, or DELETED), or, where the database takes a key twice, appended in file order. A row is kept in the form its
 * database takes (PostgreSQL: its COPY line; SQLite's appended tables: its values pushed onto the statement's flat
 * parameters), so that a batch holds a few large arrays and strings, not one small array per row: rows of a batch
 * live long enough to be promoted out of V8's young generation, and every small object promoted is collector work.
 */
const DELETED = Symbol('deleted');
export class PendingRows {
  private readonly keyed = new Map<TableWrite, Map<string, unknown[] | string | typeof DELETED>>();
  /** SQLite's points and segments: full statements' parameters, and those of the rows after the last full one. */
  private readonly appended = new Map<TableWrite, { full: unknown[][]; rest: unknown[] }>();
  /** The key columns' values of each key marked DELETED. */
  private readonly deletedKeys = new Map<string, unknown[]>();
  size = 0;

  /**
   * SQLite applies a multi-row upsert row by row, so that a key twice in a batch is an insert and an update, as in two
   * batches; the points and segments (no deletes among them) then skip the deduplication, which costs a string key and
   * a map entry a row. PostgreSQL refuses a key twice in one INSERT … ON CONFLICT.
   */
  constructor(private readonly dialect: 'sqlite' | 'postgres') {}

  add(spec: TableWrite, row: unknown[]): void {
    if (this.dialect === 'sqlite' && (spec === POINTS || spec === SEGMENTS)) {
      let rows = this.appended.get(spec);
      if (!rows) this.appended.set(spec, (rows = { full: [], rest: [] }));
      for (const v of row) rows.rest.push(v);
      if (rows.rest.length >= statementRows(spec) * spec.columns.length) {
        rows.full.push(rows.rest);
        rows.rest = [];
      }
      this.size++;
      return;
    }
    this.set(spec, row, this.dialect === 'postgres' ? copyLine(row) : row);
  }

  delete(spec: TableWrite, row: unknown[]): void {
    const key = this.set(spec, row, DELETED);
    this.deletedKeys.set(key, keyColumns(spec).map((i) => row[i] ?? ''));
  }

  private set(spec: TableWrite, row: unknown[], value: unknown[] | string | typeof DELETED): string {
    let rows = this.keyed.get(spec);
    if (!rows) this.keyed.set(spec, (rows = new Map()));
    let key = '';
    for (const i of keyColumns(spec)) key += `${String(row[i] ?? '')}\u0001`;
    if (!rows.has(key)) this.size++;
    rows.set(key, value);
    return key;
  }

  /** The batch as its database takes it: the DELETE statements with their parameters, and each table's rows. */
  pack(): PackedRows {
    const packed: PackedRows = { deletes: [], tables: [] };
    for (const [spec, { full, rest }] of this.appended) {
      const n = spec.columns.length;
      const sqlite = [...full];
      for (const [from, to] of statementChunks(rest.length / n, statementRows(spec))) sqlite.push(rest.slice(from * n, to * n));
      packed.tables.push({ table: spec.table, rows: (full.length * statementRows(spec)) + rest.length / n, sqlite });
    }
    for (const [spec, rows] of this.keyed) {
      const upserts: (unknown[] | string)[] = [];
      for (const [key, row] of rows) {
        // (Deletes and upserts of one batch touch different keys: their order does not matter.)
        if (row === DELETED) packed.deletes.push([`DELETE FROM ${spec.table} WHERE ${spec.key.map((k, i) => `${k} = $${i + 1}`).join(' AND ')}`, this.deletedKeys.get(key)!]);
        else upserts.push(row);
      }
      if (!upserts.length) continue;
      if (this.dialect === 'postgres') packed.tables.push({ table: spec.table, rows: upserts.length, copy: `${upserts.join('\n')}\n` });
      else {
        const all = upserts as unknown[][];
        packed.tables.push({ table: spec.table, rows: all.length, sqlite: statementChunks(all.length, statementRows(spec)).map(([from, to]) => parameters(all, from, to)) });
      }
    }
    return packed;
  }
}

/** The import's own statement committed with its rows (the checkpoint, or at the end the log line). */
export type TrailingStatement = [string, unknown[]];

/**
 * A batch's rows packed for its database where the rows were read (the worker thread of reference-import-worker.ts,
 * or the importing thread itself): a few large arrays and strings, which a thread hands to another in one structured
 * clone, and which the writing thread gives to its driver as they are, without a loop over the rows.
 *   sqlite    per table, the parameters of each multi-row statement, flat (statementChunks' sizes).
 *   copy      per table, the rows in COPY's text format (PostgreSQL).
 */
export interface PackedTable {
  table: string;
  rows: number;
  sqlite?: unknown[][];
  copy?: string;
}
export interface PackedRows {
  deletes: [string, unknown[]][];
  tables: PackedTable[];
}

const TABLES: ReadonlyMap<string, TableWrite> = new Map([POINTS, RANGES, CITY_NAMES, SEGMENTS].map((t) => [t.table, t]));

/** SQLite allows 32,766 parameters a statement. */
const SQLITE_PARAMETERS = 30_000;
const statementRows = (spec: TableWrite) => Math.floor(SQLITE_PARAMETERS / spec.columns.length);

/**
 * `rows` cut into statements of `most` rows, the rest in powers of two: each size is a statement text that is
 * prepared once and kept, so that the sizes stay few (a prepared statement of thousands of parameters is not small).
 */
function statementChunks(rows: number, most: number): [number, number][] {
  const chunks: [number, number][] = [];
  let at = 0;
  for (; rows - at >= most; at += most) chunks.push([at, at + most]);
  for (let size = 1 << Math.floor(Math.log2(most)); at < rows; size >>= 1) {
    if (rows - at >= size) { chunks.push([at, at + size]); at += size; }
  }
  return chunks;
}

/** The parameters of rows `from` to `to`, in one array (booleans as SQLite's 1 and 0). */
function parameters(rows: readonly unknown[][], from: number, to: number): unknown[] {
  const params: unknown[] = [];
  for (let r = from; r < to; r++) for (const v of rows[r]) params.push(typeof v === 'boolean' ? (v ? 1 : 0) : v);
  return params;
}

const COPY_ESCAPED = /[\\\t\n\r]/;

/** A value in COPY's text format: `\N` is NULL; backslash, tab and line breaks escaped. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 't' : 'f';
  const s = String(v);
  return COPY_ESCAPED.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : s;
}

/** A row as one line of COPY's text format (without its line break). */
function copyLine(row: readonly unknown[]): string {
  return row.map(copyValue).join('\t');
}

const conflict = (spec: TableWrite, keepExisting: boolean) =>
  `ON CONFLICT (${spec.key.join(', ')}) ${keepExisting ? 'DO NOTHING' : `DO UPDATE SET ${spec.update}`}`;

/** Per connection, the multi-row upserts prepared so far, by table, rows and keepExisting. */
const sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

function sqliteUpsert(connection: BetterSqlite3.Database, spec: TableWrite, rows: number, keepExisting: boolean): BetterSqlite3.Statement {
  let prepared = sqliteStatements.get(connection);
  if (!prepared) sqliteStatements.set(connection, (prepared = new Map()));
  const name = `${spec.table} ${rows} ${keepExisting}`;
  let stmt = prepared.get(name);
  if (!stmt) {
    const row = `(${spec.columns.map(() => '?').join(', ')})`;
    stmt = connection.prepare(`INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${Array(rows).fill(row).join(', ')} ${conflict(spec, keepExisting)}`);
    prepared.set(name, stmt);
  }
  return stmt;
}

/** One transaction: the deletes, each table's multi-row upserts (their flat parameters bound as they come), `trailing`. */
export function writeSqliteBatch(db: Database, packed: PackedRows, keepExisting: boolean, trailing: readonly TrailingStatement[]): void {
  const connection = db.sqlite;
  db.immediate(() => {
    for (const [sql, params] of packed.deletes) db.runSync(sql, params);
    for (const table of packed.tables) {
      const spec = TABLES.get(table.table)!;
      for (const params of table.sqlite ?? []) sqliteUpsert(connection, spec, params.length / spec.columns.length, keepExisting).run(params);
    }
    for (const [sql, params] of trailing) db.runSync(sql, params);
  });
}

/** The import's one PostgreSQL connection, with a staging table per reference table. */
export class PgBulkWriter {
  private staged = new Set<string>();

  private constructor(private readonly client: PoolClient, private readonly release: () => Promise<void>) {}

  static async open(db: Database): Promise<PgBulkWriter> {
    const runner = db.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    return new PgBulkWriter(client, () => runner.release());
  }

  private async stage(spec: TableWrite): Promise<string> {
    const name = `stage_${spec.table}`;
    if (!this.staged.has(name)) {
      await this.client.query(`CREATE TEMPORARY TABLE IF NOT EXISTS ${name} (LIKE ${spec.table} INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`);
      this.staged.add(name);
    }
    return name;
  }

  private async copy(table: string, spec: TableWrite, text: string): Promise<void> {
    const stream = this.client.query(copyFrom(`COPY ${table} (${spec.columns.join(', ')}) FROM STDIN`));
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(text);
    });
  }

  async write(packed: PackedRows, keepExisting: boolean, trailing: readonly TrailingStatement[]): Promise<void> {
    await this.client.query('BEGIN');
    try {
      for (const [sql, params] of packed.deletes) await this.client.query(sql, params);
      for (const table of packed.tables) {
        const spec = TABLES.get(table.table)!;
        const stage = await this.stage(spec);
        await this.copy(stage, spec, table.copy ?? '');
        const columns = spec.columns.join(', ');
        // In key order: the primary key's B-tree is then filled page after page, not at random places of it (measured
        // on PostgreSQL 15: 100,000 rows in random order 24 µs a row, in key order 13 µs).
        await this.client.query(`INSERT INTO ${spec.table} (${columns}) SELECT ${columns} FROM ${stage} ORDER BY ${spec.key.join(', ')} ${conflict(spec, keepExisting)}`);
      }
      for (const [sql, params] of trailing) await this.client.query(sql, params);
      await this.client.query('COMMIT');
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      this.staged.clear();
      throw err;
    }
  }

  /** Drops the staging tables (the connection goes back to the pool) and releases the connection. */
  async close(): Promise<void> {
    for (const name of this.staged) await this.client.query(`DROP TABLE IF EXISTS ${name}`).catch(() => undefined);
    await this.release();
  }
}
