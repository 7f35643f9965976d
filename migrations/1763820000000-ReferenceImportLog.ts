import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The import log keeps the delete records an import applied (USPS transaction files) beside those it read, loaded and
 * rejected, for `reference status`. Imports logged before this migration count 0 deletes. (Whether a file was imported
 * as a sample is in its logged format already: `openaddresses+sample`.)
 */
export class ReferenceImportLog1763820000000 implements MigrationInterface {
  name = 'ReferenceImportLog1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reference_imports ADD COLUMN records_deleted INTEGER NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reference_imports DROP COLUMN records_deleted`);
  }
}
