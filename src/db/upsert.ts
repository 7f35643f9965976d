/** A table as a multi-row upsert writes it: its columns in order, and the natural key a row conflicts on. */
export interface TableSpec {
  table: string;
  columns: readonly string[];
  key: readonly string[];
}

/**
 * `INSERT … VALUES (…), (…) ON CONFLICT (natural key) DO UPDATE` (the same text works on SQLite and PostgreSQL): a row
 * already there is updated, or, with `keepExisting`, left as it is (`DO NOTHING`).
 */
export function upsertSql(spec: TableSpec, rows: number, keepExisting = false): string {
  const n = spec.columns.length;
  const values = Array.from({ length: rows }, (_, r) => `(${spec.columns.map((_, c) => `$${r * n + c + 1}`).join(', ')})`);
  const updates = spec.columns.filter((c) => !spec.key.includes(c)).map((c) => `${c} = excluded.${c}`);
  return `INSERT INTO ${spec.table} (${spec.columns.join(', ')}) VALUES ${values.join(', ')} ` +
    `ON CONFLICT (${spec.key.join(', ')}) ${keepExisting ? 'DO NOTHING' : `DO UPDATE SET ${updates.join(', ')}`}`;
}
