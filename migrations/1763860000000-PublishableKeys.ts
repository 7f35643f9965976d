import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Publishable keys (docs/account.md#publishable-keys): a key a store may show in its pages, that only validates, only for requests from its
 * origins. `publishable_origins` holds them (JSON; null for a secret key); `publishable_phone` lets it check phones.
 */
export class PublishableKeys1763860000000 implements MigrationInterface {
  name = 'PublishableKeys1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN publishable_origins TEXT`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN publishable_phone INTEGER NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN publishable_phone`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN publishable_origins`);
  }
}
