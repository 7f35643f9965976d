import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-server manners shared by a fleet (issue 54.3, src/email-checks/fleet-host-manners.ts): one row per mail host
 * address that asked us to come less often (a 421, a 4.7.x about us), until when no probe connects to it and how many
 * refusals in a row it gave. Each instance writes the slow-downs it decides and reads the others' every second.
 */
export class MailHostManners1765330000000 implements MigrationInterface {
  name = 'MailHostManners1765330000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE mail_host_manners (
      host TEXT PRIMARY KEY,
      slow_until BIGINT NOT NULL,
      level INTEGER NOT NULL,
      updated_at BIGINT NOT NULL,
      updated_by TEXT NOT NULL)`);
    await q.query(`CREATE INDEX mail_host_manners_updated ON mail_host_manners(updated_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mail_host_manners`);
  }
}
