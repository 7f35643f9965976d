import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `used_flow_nonces`: the state nonces of OAuth flows that came back once (Connect Salesforce's callback), kept until
 * the flow's own expiry, so that a callback replayed with the same flow cookie is refused by every instance of a fleet
 * (the cookie alone is valid for its whole life). Only a SHA-256 of the nonce is kept.
 */
export class UsedFlowNonces1765200000000 implements MigrationInterface {
  name = 'UsedFlowNonces1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE used_flow_nonces (
      nonce_hash TEXT PRIMARY KEY,
      purpose TEXT NOT NULL,
      used_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX used_flow_nonces_expiry ON used_flow_nonces(expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE used_flow_nonces`);
  }
}
