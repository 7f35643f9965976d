import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connectors (src/sync): one row per connected platform account, its encrypted credentials (with the id of the key
 * that sealed them), its watermark, and the lease a run holds on it (never two runs of one connector at once, across
 * instances); its runs; and per record the hash of each checked input, so that a record is validated again only when
 * what is checked changed, and a write-back that failed is tried again without validating or charging.
 */
export class Connectors1763850000000 implements MigrationInterface {
  name = 'Connectors1763850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE connectors (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      type TEXT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'error')),
      reason TEXT,
      reason_detail TEXT,
      schedule TEXT NOT NULL,
      settings TEXT NOT NULL,
      write_back TEXT NOT NULL,
      secret TEXT NOT NULL,
      secret_key_id TEXT NOT NULL,
      watermark TEXT NOT NULL,
      platform_key TEXT,
      run_owner TEXT,
      run_lease_until BIGINT,
      last_run_id TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX connectors_account ON connectors(account_id, created_at)`);
    // A webhook finds its connector by the platform's name for the account (a Shopify shop's domain).
    await q.query(`CREATE INDEX connectors_platform ON connectors(type, platform_key)`);
    await q.query(`CREATE TABLE connector_runs (
      id TEXT PRIMARY KEY,
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      triggered_by TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'paused')),
      reason TEXT,
      message TEXT,
      records_read INTEGER NOT NULL DEFAULT 0,
      records_validated INTEGER NOT NULL DEFAULT 0,
      records_written INTEGER NOT NULL DEFAULT 0,
      records_skipped INTEGER NOT NULL DEFAULT 0,
      records_failed INTEGER NOT NULL DEFAULT 0,
      credits_charged INTEGER NOT NULL DEFAULT 0,
      errors TEXT NOT NULL DEFAULT '[]',
      started_at BIGINT NOT NULL,
      finished_at BIGINT)`);
    await q.query(`CREATE INDEX connector_runs_connector ON connector_runs(connector_id, started_at)`);
    await q.query(`CREATE TABLE connector_records (
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      record_key TEXT NOT NULL,
      address_hash TEXT,
      email_hash TEXT,
      phone_hash TEXT,
      pending_write TEXT,
      write_error TEXT,
      validated_at BIGINT NOT NULL,
      PRIMARY KEY (connector_id, record_key))`);
    // Webhook deliveries seen (a delivery repeated with the same id is acknowledged and not processed again), and
    // the privacy requests received and carried out (GDPR topics), kept as the record that we did.
    await q.query(`CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      connector_id TEXT NOT NULL,
      topic TEXT NOT NULL,
      received_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX webhook_deliveries_received ON webhook_deliveries(received_at)`);
    await q.query(`CREATE TABLE privacy_requests (
      id TEXT PRIMARY KEY,
      connector_id TEXT,
      platform_key TEXT NOT NULL,
      topic TEXT NOT NULL,
      subject TEXT,
      records_deleted INTEGER NOT NULL,
      received_at BIGINT NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['privacy_requests', 'webhook_deliveries', 'connector_records', 'connector_runs', 'connectors']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
