import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Answers that arrive later (issue 54.2, src/email-checks): one row per e-mail check whose first answer was
 * `temp_fail`, `throttled` or `timeout`, retried on its schedule by the fleet's tick until a definite answer comes or
 * its tries run out. `origin_job` / `origin_key` name the CSV batch row (or connector record) it was asked for, so
 * that the batch's result file is mended when the answer comes. Claimed by a conditional UPDATE with a lease, so one
 * instance works each attempt; `status` moves from `pending` once (the `email.verified` event is told once).
 */
export class EmailChecks1765300000000 implements MigrationInterface {
  name = 'EmailChecks1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE email_checks (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      email TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      first_reason TEXT NOT NULL,
      result TEXT,
      origin_job TEXT,
      origin_key TEXT,
      origin TEXT,
      next_attempt_at BIGINT,
      lease_owner TEXT,
      lease_until BIGINT,
      created_at BIGINT NOT NULL,
      finished_at BIGINT)`);
    await q.query(`CREATE INDEX email_checks_due ON email_checks(status, next_attempt_at)`);
    await q.query(`CREATE INDEX email_checks_account ON email_checks(account_id, status)`);
    await q.query(`CREATE INDEX email_checks_address ON email_checks(email, status)`);
    await q.query(`CREATE INDEX email_checks_job ON email_checks(origin_job, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_checks`);
  }
}
