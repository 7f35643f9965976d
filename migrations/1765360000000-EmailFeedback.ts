import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Feedback (issue 54.4, src/email-feedback): what an account tells of the mail it sent, one row per address (the
 * latest outcome stands), kept in the account's own database. A bounce corrects that address's answers; the outcomes
 * of a domain's addresses make its catch-all answers' score.
 */
export class EmailFeedback1765360000000 implements MigrationInterface {
  name = 'EmailFeedback1765360000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE email_feedback (
      account_id TEXT NOT NULL,
      email TEXT NOT NULL,
      domain TEXT NOT NULL,
      outcome TEXT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, email))`);
    await q.query(`CREATE INDEX email_feedback_domain ON email_feedback(account_id, domain, outcome)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE email_feedback`);
  }
}
