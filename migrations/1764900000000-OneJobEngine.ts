import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One job engine for CSV batches and connector runs (src/bulk/README.md):
 * - `job_schedules`: the fleet's recurring ticks, each with the time it is next due; whichever instance moves
 *   `next_run_at` on (a conditional UPDATE) fires the tick, so that it fires once across the fleet.
 * - `connectors.next_run_at`: when a connector's schedule is next due, claimed the same way; its runs' lease is the
 *   job's chunk lease, so the connector's own run lease (`run_owner`, `run_lease_until`) goes.
 * - `bulk_jobs.lock_key`: at most one live (queued, running or paused) job per key: one run of a connector at a time.
 * - `connector_runs.job_id` and `owner`: a run is one attempt at a connector's job, by one runner; a takeover fails
 *   the dead runner's run and starts the next.
 */
export class OneJobEngine1764900000000 implements MigrationInterface {
  name = 'OneJobEngine1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE job_schedules (
      name TEXT PRIMARY KEY,
      cron TEXT NOT NULL,
      next_run_at BIGINT NOT NULL,
      last_fired_at BIGINT,
      fired_by TEXT)`);
    await q.query(`ALTER TABLE connectors ADD COLUMN next_run_at BIGINT`);
    await q.query(`CREATE INDEX connectors_due ON connectors(next_run_at)`);
    await q.query(`ALTER TABLE connectors DROP COLUMN run_owner`);
    await q.query(`ALTER TABLE connectors DROP COLUMN run_lease_until`);
    await q.query(`ALTER TABLE bulk_jobs ADD COLUMN lock_key TEXT`);
    await q.query(`CREATE UNIQUE INDEX bulk_jobs_live_lock ON bulk_jobs(lock_key)
      WHERE lock_key IS NOT NULL AND status IN ('queued', 'running', 'paused')`);
    await q.query(`ALTER TABLE connector_runs ADD COLUMN job_id TEXT`);
    await q.query(`ALTER TABLE connector_runs ADD COLUMN owner TEXT`);
    await q.query(`CREATE INDEX connector_runs_job ON connector_runs(job_id, status)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX connector_runs_job`);
    await q.query(`ALTER TABLE connector_runs DROP COLUMN owner`);
    await q.query(`ALTER TABLE connector_runs DROP COLUMN job_id`);
    await q.query(`DROP INDEX bulk_jobs_live_lock`);
    await q.query(`ALTER TABLE bulk_jobs DROP COLUMN lock_key`);
    await q.query(`ALTER TABLE connectors ADD COLUMN run_owner TEXT`);
    await q.query(`ALTER TABLE connectors ADD COLUMN run_lease_until BIGINT`);
    await q.query(`DROP INDEX connectors_due`);
    await q.query(`ALTER TABLE connectors DROP COLUMN next_run_at`);
    await q.query(`DROP TABLE job_schedules`);
  }
}
