/**
 * The database: a TypeORM DataSource on SQLite (better-sqlite3, WAL) or PostgreSQL, chosen by DATABASE_URL, with the
 * migrations of migrations/ run at start. Queries are written once with PostgreSQL's `$1` placeholders; `Database`
 * rewrites them for SQLite.
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { DataSource } from 'typeorm';
import { migrations } from '../../migrations/index.js';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';

export type Dialect = 'sqlite' | 'postgres';

export function createDataSource(databaseUrl: string): DataSource {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return new DataSource({
      type: 'better-sqlite3',
      database: file,
      enableWAL: true,
      // Concurrent writers (a CLI beside the server) wait for the lock instead of failing at once.
      prepareDatabase: (db: BetterSqlite3.Database) => {
        db.pragma('busy_timeout = 5000');
        db.pragma('foreign_keys = ON');
        db.pragma('synchronous = NORMAL');
      },
      migrations,
      migrationsTransactionMode: 'each',
      logging: false,
    });
  }
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    migrations,
    migrationsTransactionMode: 'each',
    logging: false,
    extra: { max: 20, connectionTimeoutMillis: 5000 },
  });
}

/** What one transaction may do: the same two calls as Database, on one connection. */
export interface SqlExecutor {
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export class Database implements SqlExecutor {
  readonly dialect: Dialect;
  /** Per query text (with `$n`): its prepared SQLite statement and which parameter each `?` binds, found once. */
  private readonly sqliteQueries = new Map<string, { stmt: BetterSqlite3.Statement; order: number[] }>();

  constructor(readonly dataSource: DataSource) {
    this.dialect = dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
  }

  static async open(databaseUrl: string, { migrate = true } = {}): Promise<Database> {
    const ds = createDataSource(databaseUrl);
    await ds.initialize();
    if (migrate) await ds.runMigrations();
    return new Database(ds);
  }

  /** The raw better-sqlite3 handle (SQLite only): money moves through it with BEGIN IMMEDIATE. */
  get sqlite(): BetterSqlite3.Database {
    if (this.dialect !== 'sqlite') throw new Error('not a SQLite database');
    return (this.dataSource.driver as unknown as { databaseConnection: BetterSqlite3.Database }).databaseConnection;
  }

  async all<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.dialect === 'sqlite') return this.allSync<T>(sql, params);
    // Structured: an UPDATE … RETURNING answers its rows too (TypeORM's plain answer is then [rows, count]).
    const runner = this.dataSource.createQueryRunner();
    try {
      return ((await runner.query(sql, params as unknown[], true)) as { records: T[] }).records;
    } finally {
      await runner.release();
    }
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    if (this.dialect === 'sqlite') return this.runSync(sql, params);
    const runner = this.dataSource.createQueryRunner();
    try {
      const result = await runner.query(sql, params as unknown[], true);
      return (result as { affected?: number }).affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /**
   * `sql` (written with PostgreSQL's `$n` placeholders) prepared on the raw SQLite handle, with its parameters in `?`
   * order (better-sqlite3 binds `?` only): rewritten and prepared once per query text.
   */
  private bindSqlite(sql: string, params: readonly unknown[]): [BetterSqlite3.Statement, unknown[]] {
    let query = this.sqliteQueries.get(sql);
    if (!query) {
      const order: number[] = [];
      const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      query = { stmt: this.sqlite.prepare(text), order };
      this.sqliteQueries.set(sql, query);
    }
    const ordered = query.order.map((i) => {
      const p = params[i];
      return typeof p === 'boolean' ? (p ? 1 : 0) : p;
    });
    return [query.stmt, ordered];
  }

  allSync<T>(sql: string, params: readonly unknown[] = []): T[] {
    const [stmt, ordered] = this.bindSqlite(sql, params);
    return (stmt.reader ? stmt.all(...ordered) : (stmt.run(...ordered), [])) as T[];
  }

  runSync(sql: string, params: readonly unknown[] = []): number {
    const [stmt, ordered] = this.bindSqlite(sql, params);
    return stmt.run(...ordered).changes;
  }

  /**
   * A PostgreSQL transaction on one pooled connection. (SQLite transactions go through `immediate` instead: TypeORM's
   * SQLite transactions share one connection and issue a plain BEGIN, which loses updates under concurrency.)
   */
  async pgTransaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const tx: SqlExecutor = {
        all: async <R>(sql: string, params: readonly unknown[] = []) =>
          ((await runner.query(sql, params as unknown[], true)) as { records: R[] }).records,
        run: async (sql: string, params: readonly unknown[] = []) =>
          ((await runner.query(sql, params as unknown[], true)) as { affected?: number }).affected ?? 0,
      };
      const result = await work(tx);
      await runner.commitTransaction();
      return result;
    } catch (err) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  /** A synchronous SQLite transaction opened with BEGIN IMMEDIATE on the raw handle: it takes the write lock first. */
  immediate<T>(work: () => T): T {
    // One transaction wrapper for all work (better-sqlite3 builds several functions per transaction() call).
    this.runInTransaction ??= this.sqlite.transaction((fn: () => unknown) => fn());
    return this.runInTransaction.immediate(work) as T;
  }

  /** Inside `immediate`: a SAVEPOINT, so that `work` is all-or-nothing without ending the outer transaction. */
  savepoint<T>(work: () => T): T {
    if (!this.sqlite.inTransaction) throw new Error('savepoint outside a transaction');
    this.runInTransaction ??= this.sqlite.transaction((fn: () => unknown) => fn());
    return this.runInTransaction(work) as T;
  }

  private runInTransaction?: BetterSqlite3.Transaction<(fn: () => unknown) => unknown>;

  /**
   * SQLite: a number that changes whenever another connection (the CLI, a second instance on the same file) has
   * committed since it was last read (PRAGMA data_version); this process's own writes leave it alone. Caches of rows
   * that only this process writes stay valid while it does not change. Always null on PostgreSQL.
   */
  externalChangeStamp(): number | null {
    if (this.dialect !== 'sqlite') return null;
    this.dataVersion ??= this.sqlite.prepare('PRAGMA data_version').pluck();
    this.lastStamp = { value: this.dataVersion.get() as number, at: performance.now() };
    return this.lastStamp.value;
  }

  /**
   * `externalChangeStamp` as read at most `maxAgeMs` ago (each read takes the WAL's shared lock: a hot path that
   * can live with seeing another connection's write a few milliseconds late asks this one).
   */
  recentExternalChangeStamp(maxAgeMs: number): number | null {
    if (this.dialect !== 'sqlite') return null;
    const last = this.lastStamp;
    return last && performance.now() - last.at < maxAgeMs ? last.value : this.externalChangeStamp();
  }

  private dataVersion?: BetterSqlite3.Statement;
  private lastStamp?: { value: number; at: number };

  /**
   * SQLite file databases: WAL checkpoints from now on on a worker thread, every `intervalMs` (see wal-checkpointer.ts),
   * until close(). For the long-running service; a no-op on PostgreSQL and in-memory SQLite. Returns the checkpointer.
   */
  checkpointInBackground(intervalMs: number): WalCheckpointer | null {
    if (this.dialect !== 'sqlite' || this.checkpointer) return this.checkpointer ?? null;
    const file = this.sqlite.name;
    if (file === ':memory:' || file === '') return null;
    this.checkpointer = startWalCheckpointer(this.sqlite, file, intervalMs);
    return this.checkpointer;
  }

  private checkpointer?: WalCheckpointer;

  async ping(): Promise<void> {
    await this.all('SELECT 1 AS ok');
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    this.checkpointer = undefined;
    this.sqliteQueries.clear();
    this.runInTransaction = undefined;
    this.dataVersion = undefined;
    this.lastStamp = undefined;
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/** True for errors that mean the database cannot be reached (answered 503, never charged). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string }; message?: string } | null;
  const code = e?.driverError?.code ?? e?.code ?? '';
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03', '08000', '08001', '08003', '08006',
      'SQLITE_BUSY', 'SQLITE_CANTOPEN', 'SQLITE_IOERR'].includes(code) ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|database is locked|Cannot use a pool after calling end|The database connection is not open/i.test(
      e?.message ?? '',
    )
  );
}
