import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key answers belong to the API key that asked (its id), not to the whole account: a publishable key in a
 * store's page can neither replay a secret key's answer (with the balance it never sees) nor claim a key a secret key
 * will use. The primary key changes, so the table is built again; answers kept before (24 hours at most) cannot be
 * told apart by key and are not carried over.
 */
export class IdempotencyPerKey1764821000000 implements MigrationInterface {
  name = 'IdempotencyPerKey1764821000000';

  /** The table, with the key id among its columns and its primary key, or (down) as it was. */
  private async rebuild(q: QueryRunner, perKey: boolean): Promise<void> {
    const keyId = perKey ? ['key_id TEXT NOT NULL,'] : [];
    await q.query(`DROP TABLE idempotency_records`);
    await q.query([
      'CREATE TABLE idempotency_records (',
      'account_id TEXT NOT NULL REFERENCES accounts(id),', ...keyId, 'idempotency_key TEXT NOT NULL,',
      'request_hash TEXT NOT NULL,', "state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),",
      'response_status INTEGER,', 'response_body TEXT,', 'created_at BIGINT NOT NULL,', 'expires_at BIGINT NOT NULL,',
      `PRIMARY KEY (account_id, ${perKey ? 'key_id, ' : ''}idempotency_key))`,
    ].join(' '));
  }

  async up(q: QueryRunner): Promise<void> {
    await this.rebuild(q, true);
  }

  async down(q: QueryRunner): Promise<void> {
    await this.rebuild(q, false);
  }
}
