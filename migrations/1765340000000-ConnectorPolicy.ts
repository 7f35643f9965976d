import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connector's policy (issue 55.2): the name of the policy its answers' `next_action` follow (a preset's or the
 * account's own, as a key's default names one); null: the fixed table, as every connector did before.
 */
export class ConnectorPolicy1765340000000 implements MigrationInterface {
  name = 'ConnectorPolicy1765340000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connectors ADD COLUMN policy TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connectors DROP COLUMN policy`);
  }
}
