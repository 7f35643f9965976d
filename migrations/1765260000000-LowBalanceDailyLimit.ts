import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The low-balance alert remembers its past (issue 51.5): a threshold removed keeps its row (`threshold` NULL), so that
 * removing and setting it again does not re-arm an alert that went out, and `alerts_day` / `alerts_that_day` count the
 * alerts sent on one UTC day (src/webhooks/low-balance.ts sends at most MAX_ALERTS_PER_DAY). SQLite cannot drop a NOT
 * NULL, so there the table is copied into its new shape.
 */
export class LowBalanceDailyLimit1765260000000 implements MigrationInterface {
  name = 'LowBalanceDailyLimit1765260000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'postgres') {
      await q.query(`ALTER TABLE low_balance_alerts ALTER COLUMN threshold DROP NOT NULL`);
      await q.query(`ALTER TABLE low_balance_alerts ADD COLUMN alerts_day BIGINT`);
      await q.query(`ALTER TABLE low_balance_alerts ADD COLUMN alerts_that_day INTEGER NOT NULL DEFAULT 0`);
      return;
    }
    await q.query(`CREATE TABLE low_balance_alerts_next (
      account_id TEXT PRIMARY KEY REFERENCES accounts(id),
      threshold INTEGER,
      armed INTEGER NOT NULL,
      last_alert_at BIGINT,
      updated_at BIGINT NOT NULL,
      alerts_day BIGINT,
      alerts_that_day INTEGER NOT NULL DEFAULT 0)`);
    await q.query(`INSERT INTO low_balance_alerts_next (account_id, threshold, armed, last_alert_at, updated_at)
      SELECT account_id, threshold, armed, last_alert_at, updated_at FROM low_balance_alerts`);
    await q.query(`DROP TABLE low_balance_alerts`);
    await q.query(`ALTER TABLE low_balance_alerts_next RENAME TO low_balance_alerts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM low_balance_alerts WHERE threshold IS NULL`);
    await q.query(`ALTER TABLE low_balance_alerts DROP COLUMN alerts_that_day`);
    await q.query(`ALTER TABLE low_balance_alerts DROP COLUMN alerts_day`);
  }
}
