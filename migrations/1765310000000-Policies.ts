import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Policies (issue 55.2): an account's own rules of what answers mean accept, confirm or fix (src/contact-check/
 * policy-store.ts), found by name within the account; and a key's default policy, by name (a preset's or the
 * account's own). The same SQL on SQLite and PostgreSQL.
 */
export class Policies1765310000000 implements MigrationInterface {
  name = 'Policies1765310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE policies (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      base TEXT NOT NULL,
      rules TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      UNIQUE (account_id, name))`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN policy TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN policy`);
    await q.query(`DROP TABLE policies`);
  }
}
