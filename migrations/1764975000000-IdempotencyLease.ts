import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An in-flight Idempotency-Key record names its owner (one attempt) and holds a short lease: a retry that finds the
 * lease lapsed (its instance died mid-request) takes the record over instead of answering 409 until it expires. The
 * record's ledger id keys the request's debit, so that the attempt that takes over is not charged again for a debit
 * the dead one committed. Records written before carry none of them and are never taken over.
 */
export class IdempotencyLease1764975000000 implements MigrationInterface {
  name = 'IdempotencyLease1764975000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_records ADD COLUMN owner TEXT`);
    await q.query(`ALTER TABLE idempotency_records ADD COLUMN lease_expires_at BIGINT`);
    await q.query(`ALTER TABLE idempotency_records ADD COLUMN ledger_id TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['ledger_id', 'lease_expires_at', 'owner']) {
      await q.query(`ALTER TABLE idempotency_records DROP COLUMN ${column}`);
    }
  }
}
