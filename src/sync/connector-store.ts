/**
 * Where connectors live: `connectors` (settings, sealed credentials, watermark, when the schedule is next due),
 * `connector_runs` (each an attempt at a connector's job in src/bulk, whose chunk lease is the run's), and
 * `connector_records` (per record the hash of each checked input, and a write-back still owed). Every query names the
 * account or the connector: one account never reaches another's rows.
 */
import type { Database } from '../db/data-source.js';
import crypto from 'node:crypto';
import { keysetPage, type Page, type PageQuery } from '../db/pages.js';
import { all, run, runSteps, type Steps } from '../db/transaction-steps.js';
import { upsertSql, type TableSpec } from '../db/upsert.js';
import type { Sealed } from '../kit/secrets.js';

export type ConnectorStatus = 'active' | 'paused' | 'error';
export type RunStatus = 'running' | 'completed' | 'failed' | 'paused';

export interface ConnectorRow {
  id: string;
  accountId: string;
  type: string;
  name: string;
  status: ConnectorStatus;
  reason: string | null;
  reasonDetail: string | null;
  schedule: string;
  settings: Record<string, unknown>;
  writeBack: Record<string, unknown>;
  /** The policy its answers' `next_action` follow, by name (a preset's or the account's own); null: the fixed table. */
  policy: string | null;
  sealed: Sealed;
  watermark: Record<string, unknown>;
  lastRunId: string | null;
  /** When the schedule is next due (null: not computed yet). */
  nextRunAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Its change stream as last reported by the instance holding it (StreamStore; null: never subscribed). */
  stream: { status: 'listening' | 'dropped' | null; detail: string | null };
}

export interface RunCounts {
  records_read: number;
  records_validated: number;
  records_written: number;
  records_skipped: number;
  records_failed: number;
  credits_charged: number;
}

export interface RunRow extends RunCounts {
  id: string;
  connectorId: string;
  triggeredBy: string;
  status: RunStatus;
  reason: string | null;
  message: string | null;
  errors: { key: string; error: string }[];
  startedAt: number;
  finishedAt: number | null;
}

/** What was last validated of a record: the hash of each checked input, and a write-back still owed. */
export interface RecordState {
  address: string | null;
  email: string | null;
  phone: string | null;
  pendingWrite: string | null;
}

/** Rows of connector_records per INSERT (8 parameters each: far under either database's limit). */
const STATES_PER_INSERT = 500;
const RECORD_STATES: TableSpec = {
  table: 'connector_records',
  columns: ['connector_id', 'record_key', 'address_hash', 'email_hash', 'phone_hash', 'pending_write', 'write_error', 'validated_at'],
  key: ['connector_id', 'record_key'],
};

const COLUMNS = `id, account_id, type, name, status, reason, reason_detail, schedule, settings, write_back, secret,
  secret_key_id, watermark, last_run_id, next_run_at, created_at, updated_at, stream_status, stream_detail, policy`;

function connectorOf(r: Record<string, unknown>): ConnectorRow {
  return {
    id: String(r.id), accountId: String(r.account_id), type: String(r.type), name: String(r.name),
    status: r.status as ConnectorStatus, reason: (r.reason as string | null) ?? null,
    reasonDetail: (r.reason_detail as string | null) ?? null, schedule: String(r.schedule),
    settings: JSON.parse(String(r.settings)), writeBack: JSON.parse(String(r.write_back)),
    policy: (r.policy as string | null) ?? null,
    sealed: { secret: String(r.secret), keyId: String(r.secret_key_id) }, watermark: JSON.parse(String(r.watermark)),
    lastRunId: (r.last_run_id as string | null) ?? null,
    nextRunAt: r.next_run_at === null || r.next_run_at === undefined ? null : Number(r.next_run_at), createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
    stream: { status: (r.stream_status as 'listening' | 'dropped' | null) ?? null, detail: (r.stream_detail as string | null) ?? null },
  };
}

const RUN_COLUMNS = `id, connector_id, triggered_by, status, reason, message, records_read, records_validated, records_written,
  records_skipped, records_failed, credits_charged, errors, started_at, finished_at`;

function runOf(r: Record<string, unknown>): RunRow {
  return {
    id: String(r.id), connectorId: String(r.connector_id), triggeredBy: String(r.triggered_by), status: r.status as RunStatus,
    reason: (r.reason as string | null) ?? null, message: (r.message as string | null) ?? null,
    records_read: Number(r.records_read), records_validated: Number(r.records_validated),
    records_written: Number(r.records_written), records_skipped: Number(r.records_skipped),
    records_failed: Number(r.records_failed), credits_charged: Number(r.credits_charged),
    errors: JSON.parse(String(r.errors)), startedAt: Number(r.started_at),
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}

export class ConnectorStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async insert(
    c: Omit<ConnectorRow, 'createdAt' | 'updatedAt' | 'lastRunId' | 'watermark' | 'reason' | 'reasonDetail' | 'stream' | 'policy'> & { policy?: string | null },
    platformKey: string | null,
  ): Promise<void> {
    const at = this.now();
    await this.db.run(
      `INSERT INTO connectors (id, account_id, type, name, status, schedule, settings, write_back, secret, secret_key_id,
         watermark, platform_key, next_run_at, created_at, updated_at, policy)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, '{}', $12, $13, $11, $11, $14)`,
      [c.id, c.accountId, c.type, c.name, c.status, c.schedule, JSON.stringify(c.settings), JSON.stringify(c.writeBack),
        c.sealed.secret, c.sealed.keyId, at, platformKey, c.nextRunAt, c.policy ?? null],
    );
  }

  /** The connector of a platform account (a shop), whoever owns it: one at most (a unique index). */
  async byPlatformKey(type: string, platformKey: string): Promise<ConnectorRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM connectors WHERE type = $1 AND platform_key = $2`, [type, platformKey],
    );
    return rows[0] ? connectorOf(rows[0]) : null;
  }

  async setPlatformKey(id: string, platformKey: string | null): Promise<void> {
    await this.db.run(`UPDATE connectors SET platform_key = $2 WHERE id = $1`, [id, platformKey]);
  }

  async get(id: string): Promise<ConnectorRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(`SELECT ${COLUMNS} FROM connectors WHERE id = $1`, [id]);
    return rows[0] ? connectorOf(rows[0]) : null;
  }

  async getOwn(accountId: string, id: string): Promise<ConnectorRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM connectors WHERE id = $1 AND account_id = $2`, [id, accountId],
    );
    return rows[0] ? connectorOf(rows[0]) : null;
  }

  async list(accountId: string): Promise<ConnectorRow[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM connectors WHERE account_id = $1 ORDER BY created_at DESC, id DESC`, [accountId],
    );
    return rows.map(connectorOf);
  }

  /** Every connector, for the scheduler. */
  async all(): Promise<ConnectorRow[]> {
    return (await this.db.all<Record<string, unknown>>(`SELECT ${COLUMNS} FROM connectors ORDER BY id`)).map(connectorOf);
  }

  async update(id: string, changes: Partial<Pick<ConnectorRow, 'name' | 'status' | 'reason' | 'reasonDetail' | 'schedule' | 'nextRunAt' | 'settings' | 'writeBack' | 'policy' | 'sealed' | 'watermark'>>): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (changes.name !== undefined) set('name', changes.name);
    if (changes.status !== undefined) set('status', changes.status);
    if (changes.reason !== undefined) set('reason', changes.reason);
    if (changes.reasonDetail !== undefined) set('reason_detail', changes.reasonDetail);
    if (changes.schedule !== undefined) set('schedule', changes.schedule);
    if (changes.nextRunAt !== undefined) set('next_run_at', changes.nextRunAt);
    if (changes.settings !== undefined) set('settings', JSON.stringify(changes.settings));
    if (changes.writeBack !== undefined) set('write_back', JSON.stringify(changes.writeBack));
    if (changes.policy !== undefined) set('policy', changes.policy);
    if (changes.watermark !== undefined) set('watermark', JSON.stringify(changes.watermark));
    if (changes.sealed !== undefined) {
      set('secret', changes.sealed.secret);
      set('secret_key_id', changes.sealed.keyId);
    }
    set('updated_at', this.now());
    await this.db.run(`UPDATE connectors SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return runSteps(this.db, function* () {
      const gone = (yield all(`SELECT id FROM connectors WHERE id = $1 AND account_id = $2`, id, accountId)) as unknown[];
      if (!gone.length) return false;
      yield run(`DELETE FROM connector_records WHERE connector_id = $1`, id);
      yield run(`DELETE FROM connector_runs WHERE connector_id = $1`, id);
      // Its run's job (src/bulk) ends with it: the runner finds it canceled at its next claim or save.
      yield run(
        `UPDATE bulk_jobs SET status = 'canceled', finished_at = $1 WHERE lock_key = $2 AND status IN ('queued', 'running', 'paused')`,
        Date.now(), `connector:${id}`,
      );
      yield run(`DELETE FROM connectors WHERE id = $1`, id);
      return true;
    });
  }

  /**
   * The steps that insert a run waiting for its first attempt (no owner yet), inside the transaction that creates or
   * resumes its job: whoever claims the job's chunk finds it there.
   */
  *insertRunSteps(runId: string, connector: ConnectorRow, triggeredBy: string, jobId: string): Steps<void> {
    yield run(
      `INSERT INTO connector_runs (id, connector_id, account_id, triggered_by, status, started_at, job_id)
       VALUES ($1, $2, $3, $4, 'running', $5, $6)`,
      runId, connector.id, connector.accountId, triggeredBy, this.now(), jobId,
    );
    yield run(`UPDATE connectors SET last_run_id = $2 WHERE id = $1`, connector.id, runId);
  }

  /**
   * An attempt at a connector's job begins: the job's runs left `running` by another runner (it died, or lost its
   * lease) are failed, so that the history tells the truth; the run waiting for this attempt is taken, or a new one
   * begins (a takeover, a resume). Returns the attempt's run id.
   */
  async beginAttempt(jobId: string, connector: ConnectorRow, triggeredBy: string, owner: string): Promise<string> {
    const at = this.now();
    const fresh = `run_${crypto.randomBytes(12).toString('base64url')}`;
    const self = this;
    return runSteps(this.db, function* () {
      yield run(
        `UPDATE connector_runs SET status = 'failed', reason = 'api_error',
           message = 'the run was interrupted (its runner stopped); the next run goes on', finished_at = $3
         WHERE job_id = $1 AND status = 'running' AND owner IS NOT NULL AND owner <> $2`,
        jobId, owner, at,
      );
      const waiting = (yield all(
        `UPDATE connector_runs SET owner = $2 WHERE job_id = $1 AND status = 'running' AND owner IS NULL RETURNING id`, jobId, owner,
      )) as { id: string }[];
      if (waiting[0]) return waiting[0].id;
      yield* self.insertRunSteps(fresh, connector, triggeredBy, jobId);
      yield run(`UPDATE connector_runs SET owner = $2 WHERE id = $1`, fresh, owner);
      return fresh;
    });
  }

  /** The run of a job still under way (the latest), if any. */
  async currentRun(jobId: string): Promise<string | null> {
    const rows = await this.db.all<{ id: string }>(
      `SELECT id FROM connector_runs WHERE job_id = $1 AND status = 'running' ORDER BY started_at DESC LIMIT 1`, [jobId],
    );
    return rows[0]?.id ?? null;
  }

  /** Connectors whose schedule is due at `at` (or has no due time yet), active or waiting for credits or their cap. */
  async due(at: number): Promise<ConnectorRow[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM connectors
       WHERE (next_run_at IS NULL OR next_run_at <= $1)
         AND (status = 'active' OR (status = 'paused' AND reason IN ('credits_exhausted', 'credit_cap_reached')))
       ORDER BY next_run_at, id`,
      [at],
    );
    return rows.map(connectorOf);
  }

  /** Moves a connector's due time on from the one read: true for the one caller whose UPDATE did it. */
  async claimDue(id: string, read: number | null, next: number): Promise<boolean> {
    const changed = read === null
      ? await this.db.run(`UPDATE connectors SET next_run_at = $2 WHERE id = $1 AND next_run_at IS NULL`, [id, next])
      : await this.db.run(`UPDATE connectors SET next_run_at = $2 WHERE id = $1 AND next_run_at = $3`, [id, next, read]);
    return changed === 1;
  }

  /** A run ended well: an error's or a credit pause's reason is cleared; a pause its owner asked for stays. */
  async settleAfterRun(id: string): Promise<void> {
    await this.db.run(
      `UPDATE connectors SET status = 'active', reason = NULL, reason_detail = NULL, updated_at = $2
       WHERE id = $1 AND (status = 'active' OR (status = 'paused' AND reason IN ('credits_exhausted', 'credit_cap_reached')))`,
      [id, this.now()],
    );
  }

  async saveRun(runId: string, counts: RunCounts, errors: { key: string; error: string }[]): Promise<void> {
    await this.db.run(
      `UPDATE connector_runs SET records_read = $2, records_validated = $3, records_written = $4, records_skipped = $5,
         records_failed = $6, credits_charged = $7, errors = $8 WHERE id = $1`,
      [runId, counts.records_read, counts.records_validated, counts.records_written, counts.records_skipped,
        counts.records_failed, counts.credits_charged, JSON.stringify(errors.slice(0, 100))],
    );
  }

  async finishRun(runId: string, status: RunStatus, reason: string | null, message: string | null): Promise<void> {
    await this.db.run(
      `UPDATE connector_runs SET status = $2, reason = $3, message = $4, finished_at = $5 WHERE id = $1`,
      [runId, status, reason, message?.slice(0, 1000) ?? null, this.now()],
    );
  }

  async getRun(id: string): Promise<RunRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(`SELECT ${RUN_COLUMNS} FROM connector_runs WHERE id = $1`, [id]);
    return rows[0] ? runOf(rows[0]) : null;
  }

  /** A connector's runs, newest first, a page at a time (src/db/pages.ts). */
  async runs(connectorId: string, page: PageQuery): Promise<Page<RunRow>> {
    const found = await keysetPage<Record<string, unknown>>(this.db, {
      table: 'connector_runs', columns: RUN_COLUMNS, where: 'connector_id = $1', params: [connectorId], time: 'started_at',
    }, page);
    return { items: found.items.map(runOf), hasMore: found.hasMore };
  }

  async recordStates(connectorId: string, keys: string[]): Promise<Map<string, RecordState>> {
    const states = new Map<string, RecordState>();
    for (let i = 0; i < keys.length; i += 500) {
      const slice = keys.slice(i, i + 500);
      const rows = await this.db.all<Record<string, string | null>>(
        `SELECT record_key, address_hash, email_hash, phone_hash, pending_write FROM connector_records
         WHERE connector_id = $1 AND record_key IN (${slice.map((_, k) => `$${k + 2}`).join(', ')})`,
        [connectorId, ...slice],
      );
      for (const r of rows) {
        states.set(String(r.record_key), { address: r.address_hash, email: r.email_hash, phone: r.phone_hash, pendingWrite: r.pending_write });
      }
    }
    return states;
  }

  /** Records validated: their input hashes, and the write-back still owed when saving failed (else null). */
  async saveRecordStates(connectorId: string, states: { key: string; state: RecordState; error: string | null }[]): Promise<void> {
    const at = this.now();
    // One row per key, the last said (PostgreSQL refuses a statement that would update one row twice).
    states = [...new Map(states.map((s) => [s.key, s])).values()];
    await runSteps(this.db, function* () {
      // A few hundred rows a statement: a page's records in a handful of round trips, not one each.
      for (let i = 0; i < states.length; i += STATES_PER_INSERT) {
        const slice = states.slice(i, i + STATES_PER_INSERT);
        yield run(upsertSql(RECORD_STATES, slice.length), ...slice.flatMap(({ key, state, error }) => [
          connectorId, key, state.address, state.email, state.phone, state.pendingWrite, error, at,
        ]));
      }
    });
  }

  /** Write-backs still owed (saving failed in an earlier run), a page at a time. */
  async pendingWrites(connectorId: string, limit: number): Promise<{ key: string; item: string }[]> {
    const rows = await this.db.all<{ record_key: string; pending_write: string }>(
      `SELECT record_key, pending_write FROM connector_records WHERE connector_id = $1 AND pending_write IS NOT NULL
       ORDER BY record_key LIMIT $2`,
      [connectorId, limit],
    );
    return rows.map((r) => ({ key: r.record_key, item: r.pending_write }));
  }

  async clearPendingWrite(connectorId: string, key: string, error: string | null, keep: boolean): Promise<void> {
    await this.db.run(
      `UPDATE connector_records SET pending_write = CASE WHEN $3 THEN pending_write ELSE NULL END, write_error = $4
       WHERE connector_id = $1 AND record_key = $2`,
      [connectorId, key, keep, error],
    );
  }
}
