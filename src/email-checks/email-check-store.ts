/**
 * `email_checks` (migrations/1765300000000-EmailChecks.ts): one row per e-mail answer that arrives later. Every state
 * change is one conditional UPDATE: a due row is claimed with a lease (one instance works an attempt), and `status`
 * leaves `pending` once, by the instance that holds the lease, so that what follows (the event, the batch row) is
 * done once across a fleet.
 */
import type { Database } from '../db/data-source.js';
import type { EmailResult } from '../validation/types.js';

export type EmailCheckStatus = 'pending' | 'done' | 'expired';

/** Where the address was asked from, besides the API: a bulk job's record, whose row is mended when the answer comes. */
export interface EmailCheckOrigin {
  job: string;
  key: string;
}

export interface EmailCheckRow {
  id: string;
  accountId: string;
  email: string;
  status: EmailCheckStatus;
  attempts: number;
  firstReason: string;
  result: EmailResult | null;
  origin: EmailCheckOrigin | null;
  /** The record's other modules' next action (address, phone), so that its row's `cv_next_action` can be made again. */
  othersNextAction: string | null;
  nextAttemptAt: number | null;
  createdAt: number;
  finishedAt: number | null;
}

const COLUMNS = `id, account_id, email, status, attempts, first_reason, result, origin_job, origin_key, origin,
  next_attempt_at, created_at, finished_at`;
/** Ids (or keys) per statement: far under either database's parameter limit. */
const IDS_PER_STATEMENT = 500;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function rowOf(r: Record<string, unknown>): EmailCheckRow {
  const extra = r.origin ? (JSON.parse(String(r.origin)) as { others_next_action?: string }) : {};
  return {
    id: String(r.id),
    accountId: String(r.account_id),
    email: String(r.email),
    status: r.status as EmailCheckStatus,
    attempts: Number(r.attempts),
    firstReason: String(r.first_reason),
    result: r.result ? (JSON.parse(String(r.result)) as EmailResult) : null,
    origin: r.origin_job ? { job: String(r.origin_job), key: String(r.origin_key) } : null,
    othersNextAction: extra.others_next_action ?? null,
    nextAttemptAt: num(r.next_attempt_at),
    createdAt: Number(r.created_at),
    finishedAt: num(r.finished_at),
  };
}

export class EmailCheckStore {
  constructor(private readonly db: Database) {}

  async insert(row: Omit<EmailCheckRow, 'status' | 'attempts' | 'result' | 'finishedAt'>): Promise<void> {
    await this.db.run(
      `INSERT INTO email_checks (id, account_id, email, status, attempts, first_reason, origin_job, origin_key, origin,
         next_attempt_at, created_at)
       VALUES ($1, $2, $3, 'pending', 0, $4, $5, $6, $7, $8, $9)`,
      [row.id, row.accountId, row.email, row.firstReason, row.origin?.job ?? null, row.origin?.key ?? null,
        JSON.stringify({ others_next_action: row.othersNextAction }), row.nextAttemptAt, row.createdAt],
    );
  }

  /** One of the account's checks: another account's id answers exactly like a missing one. */
  async getOwn(accountId: string, id: string): Promise<EmailCheckRow | null> {
    const rows = await this.db.all(`SELECT ${COLUMNS} FROM email_checks WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** The account's pending check of this address for this origin (or none), which a repeated question joins. */
  async pendingFor(accountId: string, email: string, origin: EmailCheckOrigin | null): Promise<EmailCheckRow | null> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM email_checks
       WHERE account_id = $1 AND email = $2 AND status = 'pending'
         AND COALESCE(origin_job, '') = $3 AND COALESCE(origin_key, '') = $4
       LIMIT 1`,
      [accountId, email, origin?.job ?? '', origin?.key ?? ''],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  /** The newest check of the address that ended with a definite answer since `since` (any account: as the engine's cache). */
  async latestDone(email: string, since: number): Promise<EmailCheckRow | null> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM email_checks WHERE email = $1 AND status = 'done' AND finished_at >= $2
       ORDER BY finished_at DESC LIMIT 1`,
      [email, since],
    );
    return rows[0] ? rowOf(rows[0]) : null;
  }

  async pendingCount(accountId: string): Promise<number> {
    const rows = await this.db.all<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM email_checks WHERE account_id = $1 AND status = 'pending'`, [accountId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** A job's checks: how many are pending, and when the newest was asked (its wait runs from then). */
  async jobState(jobId: string): Promise<{ pending: number; total: number; newestAt: number | null }> {
    const rows = await this.db.all<{ pending: unknown; total: unknown; newest: unknown }>(
      `SELECT SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending, COUNT(*) AS total, MAX(created_at) AS newest
       FROM email_checks WHERE origin_job = $1`,
      [jobId],
    );
    return { pending: Number(rows[0]?.pending ?? 0), total: Number(rows[0]?.total ?? 0), newestAt: num(rows[0]?.newest) };
  }

  /** A job's checks that have ended, with their answers (the rows of its result file to mend). */
  async endedForJob(jobId: string): Promise<EmailCheckRow[]> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM email_checks WHERE origin_job = $1 AND status <> 'pending'`, [jobId],
    );
    return rows.map(rowOf);
  }

  /** Up to `limit` due checks, leased to `owner` until `leaseUntil`. */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<EmailCheckRow[]> {
    if (limit <= 0) return [];
    const rows = await this.db.all(
      `UPDATE email_checks SET lease_owner = $1, lease_until = $3
       WHERE id IN (SELECT id FROM email_checks
                    WHERE status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
                    ORDER BY next_attempt_at LIMIT $4)
         AND status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
       RETURNING ${COLUMNS}`,
      [owner, now, leaseUntil, limit],
    );
    return rows.map(rowOf);
  }

  /** The check ends (`done`: a definite answer; `expired`: its tries ran out); false when the lease was lost. */
  async end(id: string, owner: string, status: 'done' | 'expired', result: EmailResult, at: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE email_checks SET status = $3, result = $4, finished_at = $5, attempts = attempts + 1,
         next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`,
      [id, owner, status, JSON.stringify(result), at],
    );
    return changed === 1;
  }

  /** Another try later; the last answer kept, so that the check's page shows it. */
  async again(id: string, owner: string, result: EmailResult, nextAttemptAt: number): Promise<boolean> {
    const changed = await this.db.run(
      `UPDATE email_checks SET attempts = attempts + 1, result = $3, next_attempt_at = $4, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`,
      [id, owner, JSON.stringify(result), nextAttemptAt],
    );
    return changed === 1;
  }

  /** Gives a claimed check back untouched (the attempt failed on our side, or the instance stops). */
  async release(id: string, owner: string): Promise<void> {
    await this.db.run(`UPDATE email_checks SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`, [id, owner]);
  }

  /** Active connectors with answered checks not yet written onto their records, at most `limit`. */
  async owedConnectors(limit: number): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>(
      `SELECT DISTINCT e.origin_job AS id FROM email_checks e JOIN connectors c ON c.id = e.origin_job
       WHERE e.status = 'done' AND e.written_at IS NULL AND c.status = 'active' LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.id);
  }

  /** A connector's records' answered checks not yet written onto the platform (the second write-back), oldest first. */
  async unwritten(jobId: string, limit: number): Promise<EmailCheckRow[]> {
    const rows = await this.db.all(
      `SELECT ${COLUMNS} FROM email_checks WHERE origin_job = $1 AND status = 'done' AND written_at IS NULL
       ORDER BY finished_at, id LIMIT $2`,
      [jobId, limit],
    );
    return rows.map(rowOf);
  }

  /** Checks whose second write-back is over: `written`, or the platform's reason it was given up. */
  async markWritten(ids: readonly string[], outcome: string, at: number): Promise<void> {
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
      const chunk = ids.slice(i, i + IDS_PER_STATEMENT);
      await this.db.run(
        `UPDATE email_checks SET written_at = $1, write_outcome = $2 WHERE written_at IS NULL AND id IN (${chunk.map((_, j) => `$${j + 3}`).join(', ')})`,
        [at, outcome.slice(0, 200), ...chunk],
      );
    }
  }

  /**
   * The records' checks asked before `before` (answered or not), except `keep`: their e-mail was checked again since,
   * and that answer is what the platform holds; theirs is never written.
   */
  async supersede(jobId: string, keys: readonly string[], before: number, keep: readonly string[], at: number): Promise<void> {
    for (let i = 0; i < keys.length; i += IDS_PER_STATEMENT) {
      const chunk = keys.slice(i, i + IDS_PER_STATEMENT);
      const kept = keep.length ? ` AND id NOT IN (${keep.map((_, j) => `$${j + 4 + chunk.length}`).join(', ')})` : '';
      await this.db.run(
        `UPDATE email_checks SET written_at = $2, write_outcome = 'superseded'
         WHERE origin_job = $1 AND written_at IS NULL AND created_at < $3
           AND origin_key IN (${chunk.map((_, j) => `$${j + 4}`).join(', ')})${kept}`,
        [jobId, at, before, ...chunk, ...keep],
      );
    }
  }

  /** Mends a bulk record's row (its `cv_*` values) once its e-mail's answer has come; false while there is no such row. */
  async patchRecord(jobId: string, key: string, patch: (row: (string | null)[]) => (string | null)[]): Promise<boolean> {
    const rows = await this.db.all<{ result: string }>(
      `SELECT result FROM bulk_records WHERE job_id = $1 AND record_key = $2`, [jobId, key],
    );
    if (!rows[0]) return false;
    const before = rows[0].result;
    const after = JSON.stringify(patch(JSON.parse(before) as (string | null)[]));
    if (after !== before) {
      await this.db.run(`UPDATE bulk_records SET result = $3 WHERE job_id = $1 AND record_key = $2`, [jobId, key, after]);
    }
    return true;
  }
}
