import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connector's change stream (Salesforce Change Data Capture, `settings.realtime`): the instance that holds its one
 * subscription across the fleet and until when (a lease, renewed while it listens), where the stream stopped (the last
 * replay id of each channel, kept after the records it named were written back: a restart goes on after them), and
 * how it is doing (`listening`, or `dropped` with why), for the connector's owner.
 */
export class ConnectorStreams1764950000000 implements MigrationInterface {
  name = 'ConnectorStreams1764950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE connectors ADD COLUMN stream_owner TEXT`);
    await q.query(`ALTER TABLE connectors ADD COLUMN stream_lease_until BIGINT`);
    await q.query(`ALTER TABLE connectors ADD COLUMN stream_position TEXT NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE connectors ADD COLUMN stream_status TEXT`);
    await q.query(`ALTER TABLE connectors ADD COLUMN stream_detail TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const c of ['stream_detail', 'stream_status', 'stream_position', 'stream_lease_until', 'stream_owner']) {
      await q.query(`ALTER TABLE connectors DROP COLUMN ${c}`);
    }
  }
}
