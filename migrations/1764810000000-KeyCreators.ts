import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys outlive nobody: `api_keys.created_by` names the person who made a key in the dashboard (null for keys made by
 * the CLI, or through the API by a key that had none), so that removing a member, or a password reset, revokes that
 * person's keys. `invitations_elsewhere`: an invitation to an address that already belongs to another account; it is
 * listed on the inviting account like any invitation (the owner learns nothing about the address) and never accepted.
 */
export class KeyCreators1764810000000 implements MigrationInterface {
  name = 'KeyCreators1764810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN created_by TEXT`);
    await q.query(`CREATE INDEX api_keys_created_by ON api_keys(created_by)`);
    await q.query(`CREATE TABLE invitations_elsewhere (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      email TEXT NOT NULL,
      invited_by TEXT,
      created_at BIGINT NOT NULL,
      UNIQUE (account_id, email))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invitations_elsewhere`);
    await q.query(`DROP INDEX api_keys_created_by`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN created_by`);
  }
}
