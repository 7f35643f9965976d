import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outgoing webhooks (src/webhooks): the endpoints an account registers (the signing secret sealed like connector
 * credentials), one row per event and endpoint as the durable delivery log (attempts, the last answer, when to try
 * again, and the lease an instance holds while it sends, so that a due delivery is sent once across a fleet and a
 * restart loses no retry), and the account's low-balance alert (its threshold, and whether it is armed: it fires once
 * when the balance falls below the threshold, and is armed again once the balance is back at or above it).
 */
export class Webhooks1764940000000 implements MigrationInterface {
  name = 'Webhooks1764940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      secret TEXT NOT NULL,
      secret_key_id TEXT NOT NULL,
      created_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at)`);
    await q.query(`CREATE TABLE webhook_endpoint_deliveries (
      id TEXT PRIMARY KEY,
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      event_key TEXT NOT NULL,
      body TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      response_status INTEGER,
      response_text TEXT,
      next_attempt_at BIGINT,
      last_attempt_at BIGINT,
      lease_owner TEXT,
      lease_until BIGINT,
      created_at BIGINT NOT NULL)`);
    // One delivery per event and endpoint, however often the event is emitted (by several instances, or again).
    await q.query(`CREATE UNIQUE INDEX webhook_endpoint_deliveries_event ON webhook_endpoint_deliveries(endpoint_id, event_key)`);
    await q.query(`CREATE INDEX webhook_endpoint_deliveries_list ON webhook_endpoint_deliveries(endpoint_id, created_at)`);
    await q.query(`CREATE INDEX webhook_endpoint_deliveries_due ON webhook_endpoint_deliveries(status, next_attempt_at)`);
    await q.query(`CREATE TABLE low_balance_alerts (
      account_id TEXT PRIMARY KEY REFERENCES accounts(id),
      threshold INTEGER NOT NULL,
      armed INTEGER NOT NULL,
      last_alert_at BIGINT,
      updated_at BIGINT NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['low_balance_alerts', 'webhook_endpoint_deliveries', 'webhook_endpoints']) await q.query(`DROP TABLE ${t}`);
  }
}
