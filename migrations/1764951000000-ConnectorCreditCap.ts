import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connector's monthly credit cap (what its records may take each calendar month, UTC; null: no cap) and the month its
 * owner was last told the cap was reached (one e-mail a month, whichever instance sees it first).
 */
export class ConnectorCreditCap1764951000000 implements MigrationInterface {
  name = 'ConnectorCreditCap1764951000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connectors ADD COLUMN credit_cap_monthly INTEGER`);
    await q.query(`ALTER TABLE connectors ADD COLUMN cap_alerted_month TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connectors DROP COLUMN cap_alerted_month`);
    await q.query(`ALTER TABLE connectors DROP COLUMN credit_cap_monthly`);
  }
}
