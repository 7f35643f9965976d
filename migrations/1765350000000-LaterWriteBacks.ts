import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The second write-back (issue 54.2e, src/sync/later-answers.ts): a check asked for a connector's record keeps, once
 * answered, when its answer was written onto the platform record (`written_at`), or why it never will be (a newer
 * check of the record's e-mail superseded it: `superseded`). A run writes the answered ones not yet written.
 */
export class LaterWriteBacks1765350000000 implements MigrationInterface {
  name = 'LaterWriteBacks1765350000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_checks ADD COLUMN written_at BIGINT`);
    await q.query(`ALTER TABLE email_checks ADD COLUMN write_outcome TEXT`);
    // What the once-a-second look for owed write-backs reads: answered, not yet written (a batch's are marked as mended).
    await q.query(`UPDATE email_checks SET written_at = finished_at, write_outcome = 'before_second_write_back' WHERE status <> 'pending'`);
    await q.query(`CREATE INDEX email_checks_unwritten ON email_checks(origin_job) WHERE status = 'done' AND written_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX email_checks_unwritten`);
    await q.query(`ALTER TABLE email_checks DROP COLUMN write_outcome`);
    await q.query(`ALTER TABLE email_checks DROP COLUMN written_at`);
  }
}
