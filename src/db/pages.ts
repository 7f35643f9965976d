/**
 * Lists read a page at a time, newest first, by keyset (docs/api.md#lists): a page asks for `limit` rows after the
 * one named by `starting_after` (the last id of the page before), compared on (time, id) so that rows written
 * meanwhile neither repeat nor go missing, and answers whether more follow. One row beyond the page is read to know.
 */
import type { SqlExecutor } from './data-source.js';

export interface PageQuery {
  limit: number;
  /** The id of the last row of the page before; absent: the newest rows. */
  startingAfter?: string;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** `starting_after` names no row of this list (another account's, another list's, or made up). */
export class UnknownCursor extends Error {
  constructor(readonly id: string) {
    super(`starting_after: no item "${id.slice(0, 100)}" in this list`);
  }
}

export interface KeysetList {
  table: string;
  columns: string;
  /** The list's own condition, with `$1`…`$n` for `params` (the account, the parent): the cursor must satisfy it too. */
  where: string;
  params: readonly unknown[];
  /** The column the list is newest-first by (ties broken by `id`). */
  time: string;
}

export async function keysetPage<R>(db: SqlExecutor, list: KeysetList, query: PageQuery): Promise<Page<R>> {
  const params: unknown[] = [...list.params];
  let after = '';
  if (query.startingAfter !== undefined) {
    params.push(query.startingAfter);
    const [cursor] = await db.all<{ t: unknown }>(
      `SELECT ${list.time} AS t FROM ${list.table} WHERE ${list.where} AND id = $${params.length}`, params);
    if (!cursor) throw new UnknownCursor(query.startingAfter);
    params.push(cursor.t);
    // (time, id) < (cursor's): written as two comparisons, which both SQLite and PostgreSQL plan on the index.
    after = ` AND (${list.time} < $${params.length} OR (${list.time} = $${params.length} AND id < $${params.length - 1}))`;
  }
  params.push(query.limit + 1);
  const rows = await db.all<R>(
    `SELECT ${list.columns} FROM ${list.table} WHERE ${list.where}${after} ORDER BY ${list.time} DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return { items: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}
