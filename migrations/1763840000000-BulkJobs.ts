import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bulk pipeline (src/bulk): jobs (a CSV batch now, connector runs next), the chunks a job is cut into (the unit
 * of work a runner claims with a lease), and one row per finished record, keyed by (job, record key), which is what
 * makes a repeated chunk skip the records it finished and never charge one twice.
 */
export class BulkJobs1763840000000 implements MigrationInterface {
  name = 'BulkJobs1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE bulk_jobs (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL,
      name TEXT,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'completed', 'failed', 'canceled')),
      reason TEXT,
      settings TEXT NOT NULL,
      rows_total INTEGER NOT NULL,
      rows_done INTEGER NOT NULL DEFAULT 0,
      rows_failed INTEGER NOT NULL DEFAULT 0,
      credits_charged INTEGER NOT NULL DEFAULT 0,
      resume_credits INTEGER,
      created_at BIGINT NOT NULL,
      started_at BIGINT,
      finished_at BIGINT,
      expires_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX bulk_jobs_account ON bulk_jobs(account_id, created_at)`);
    await q.query(`CREATE INDEX bulk_jobs_status ON bulk_jobs(status)`);
    await q.query(`CREATE TABLE bulk_chunks (
      job_id TEXT NOT NULL REFERENCES bulk_jobs(id) ON DELETE CASCADE,
      idx INTEGER NOT NULL,
      first_seq INTEGER NOT NULL,
      row_count INTEGER NOT NULL,
      byte_start BIGINT NOT NULL,
      byte_end BIGINT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done')),
      lease_owner TEXT,
      lease_until BIGINT,
      sent_at BIGINT,
      PRIMARY KEY (job_id, idx))`);
    await q.query(`CREATE INDEX bulk_chunks_state ON bulk_chunks(state, lease_until)`);
    // record_key sorts in the source's order (a CSV row's is its zero-padded sequence number).
    await q.query(`CREATE TABLE bulk_records (
      job_id TEXT NOT NULL REFERENCES bulk_jobs(id) ON DELETE CASCADE,
      record_key TEXT NOT NULL,
      outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'failed', 'empty')),
      credits INTEGER NOT NULL,
      result TEXT NOT NULL,
      worker TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (job_id, record_key))`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['bulk_records', 'bulk_chunks', 'bulk_jobs']) await q.query(`DROP TABLE ${t}`);
  }
}
