/**
 * A transaction written once as a generator that yields its SQL, and driven two ways: synchronously inside BEGIN
 * IMMEDIATE on the raw better-sqlite3 handle (nothing else can run between the statements), and asynchronously inside
 * a PostgreSQL transaction. The ledger drives its own (it groups many into one commit); other stores use runSteps.
 */
import type { Database, SqlExecutor } from './data-source.js';

export type Step = { op: 'all' | 'run'; sql: string; params: unknown[] };
export type Steps<T> = Generator<Step, T, unknown>;

export const all = (sql: string, ...params: unknown[]): Step => ({ op: 'all', sql, params });
export const run = (sql: string, ...params: unknown[]): Step => ({ op: 'run', sql, params });

/** Runs the steps as one transaction: all of them or none. */
export function runSteps<T>(db: Database, steps: () => Steps<T>): Promise<T> {
  if (db.dialect === 'sqlite') {
    try {
      return Promise.resolve(db.immediate(() => driveSync(db, steps)));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  return db.pgTransaction((tx) => driveOn(tx, steps));
}

/** PostgreSQL: the steps on one connection, in whatever transaction the caller holds there. */
export async function driveOn<T>(tx: SqlExecutor, steps: () => Steps<T>): Promise<T> {
  const gen = steps();
  let r = gen.next();
  while (!r.done) {
    const s = r.value;
    r = gen.next(s.op === 'all' ? await tx.all(s.sql, s.params) : await tx.run(s.sql, s.params));
  }
  return r.value;
}

/** SQLite: the steps on the raw handle, in whatever transaction the caller holds. */
export function driveSync<T>(db: Database, steps: () => Steps<T>): T {
  const gen = steps();
  let r = gen.next();
  while (!r.done) {
    const s = r.value;
    r = gen.next(s.op === 'all' ? db.allSync(s.sql, s.params) : db.runSync(s.sql, s.params));
  }
  return r.value;
}
