import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test keys (docs/account.md#test-keys): `cv_test_…` keys that validate with the real engines, network checks off, and
 * charge nothing. `test` marks them (1; 0 for every other key), so that authentication knows without reading the key.
 */
export class TestKeys1764920000000 implements MigrationInterface {
  name = 'TestKeys1764920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN test INTEGER NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN test`);
  }
}
