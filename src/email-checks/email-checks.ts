/**
 * Answers that arrive later (docs/email.md#answers-that-arrive-later), the story: an e-mail answer that a retry could
 * change (`temp_fail`: greylisting, RFC 6647; `throttled`; `timeout`) is given an `email.check_id` and kept in
 * `email_checks`; the fleet's tick (once a second, on one instance) claims the checks that are due, a few a second at
 * most, and asks the engine again; a definite answer ends the check: the engine's cache holds it for the next
 * `/v1/validate`, `GET /v1/email-checks/{id}` shows it, the account's endpoints get `email.verified`, and a CSV batch's
 * row is mended. Waits follow a schedule that the server's own hint ("try again in 300 seconds") lengthens; the
 * tries are bounded, and so are an account's pending checks. The retry costs nothing: the request was charged for the
 * answer it got (an `unknown` is refunded), and nothing here touches the ledger.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import { emailNextAction, overallNextAction, type NextAction } from '../contact-check/next-action.js';
import type { EmailEngine, EmailResult } from '../validation/types.js';
import { EmailCheckStore, type EmailCheckOrigin, type EmailCheckRow } from './email-check-store.js';
import { mendedRow } from './record-row.js';

/** Reasons of an `unknown` that a later attempt may turn into an answer. */
export const LATER_REASONS: ReadonlySet<string> = new Set(['temp_fail', 'throttled', 'timeout']);

export interface EmailCheckSettings {
  /** Wait before each try, in order (their count bounds the tries); the server's hint may lengthen one, never beyond the last. */
  scheduleMs: readonly number[];
  /** Pending checks an account may have; past it an answer gets no `check_id`. */
  maxPendingPerAccount: number;
  /** Tries begun per tick (once a second, across the fleet): the most mail servers are asked again by these checks. */
  perTick: number;
  /** Tries under way at once on one instance. */
  maxInFlight: number;
  /** How long a claimed try is held (longer than the engine's whole probe). */
  leaseMs: number;
  /** How long a check's definite answer stands for later questions about the address on any instance. */
  answerLifetimeMs: number;
  /** How long a CSV batch waits for its checks after the newest was opened (BATCH_EMAIL_CHECK_WAIT_MS); 0: not at all. */
  batchWaitMs: number;
}

/** What this needs of the webhooks (src/webhooks/webhooks.ts): one event per account, delivered once by its key. */
export type EmailCheckNotifier = (accountId: string, data: Record<string, unknown>, key: string) => Promise<unknown>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The outside view of a check (GET /v1/email-checks/{id}, the `email.verified` event's `data`). */
export function emailCheckView(row: EmailCheckRow) {
  const result = row.result && { ...row.result, check_id: row.id, next_action: emailNextAction(row.result) };
  return {
    id: row.id,
    email: row.email,
    status: row.status,
    attempts: row.attempts,
    first_reason: row.firstReason,
    result,
    batch_id: row.origin?.job ?? null,
    created_at: iso(row.createdAt)!,
    next_attempt_at: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    finished_at: iso(row.finishedAt),
  };
}

export class EmailChecks {
  readonly store: EmailCheckStore;
  /** This instance's name on the leases it takes. */
  readonly owner = `email-checks_${crypto.randomBytes(6).toString('hex')}`;
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;
  /** Checks begun since start, and those ended with an answer / out of tries (the metrics read them). */
  readonly counts = { opened: 0, refusedOverCap: 0, answered: 0, expired: 0, attempts: 0 };

  constructor(
    db: Database,
    private readonly engine: Pick<EmailEngine, 'recheck' | 'retryHintMs'>,
    private readonly settings: EmailCheckSettings,
    private readonly log: Logger,
    private readonly notify: EmailCheckNotifier = async () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new EmailCheckStore(db);
  }

  /**
   * The answer a request gives, once it is paid for: unchanged unless it is one a retry may change. Then, when another
   * instance has had the definite answer meanwhile, that one; else a check joined or opened (within the account's
   * cap) and its id in `check_id`. `othersNextAction`: the record's other modules' (for a batch row mended later).
   */
  async later(
    accountId: string, answer: EmailResult, origin: EmailCheckOrigin | null, othersNextAction: NextAction | null,
  ): Promise<EmailResult> {
    if (answer.status !== 'unknown' || !LATER_REASONS.has(answer.reason) || !answer.normalized || !this.engine.recheck) return answer;
    const at = this.now();
    const known = await this.store.latestDone(answer.normalized, at - this.settings.answerLifetimeMs);
    if (known?.result) {
      const { check_id: _ignored, ...result } = known.result;
      return result;
    }
    const joined = await this.store.pendingFor(accountId, answer.normalized, origin);
    if (joined) return { ...answer, check_id: joined.id };
    if ((await this.store.pendingCount(accountId)) >= this.settings.maxPendingPerAccount) {
      this.counts.refusedOverCap++;
      return answer;
    }
    const id = `ec_${crypto.randomBytes(12).toString('base64url')}`;
    await this.store.insert({
      id, accountId, email: answer.normalized, firstReason: answer.reason, origin, othersNextAction,
      nextAttemptAt: at + this.waitBefore(0, this.engine.retryHintMs?.(answer.normalized) ?? null), createdAt: at,
    });
    this.counts.opened++;
    return { ...answer, check_id: id };
  }

  async get(accountId: string, id: string) {
    const row = await this.store.getOwn(accountId, id);
    return row ? emailCheckView(row) : null;
  }

  /** The fleet's tick: claims the due checks (at most `perTick`, and what this instance has room for) and tries them. */
  async tick(): Promise<number> {
    if (this.stopped) return 0;
    const room = Math.min(this.settings.perTick, this.settings.maxInFlight - this.inFlight.size);
    const at = this.now();
    const claimed = await this.store.claimDue(this.owner, at, at + this.settings.leaseMs, room);
    for (const row of claimed) {
      const attempt: Promise<void> = this.attempt(row)
        .catch(async (err: unknown) => {
          this.log.warn({ err, check_id: row.id }, 'e-mail check attempt failed; it is tried again');
          await this.store.release(row.id, this.owner).catch(() => undefined);
        })
        .finally(() => this.inFlight.delete(attempt));
      this.inFlight.add(attempt);
    }
    return claimed.length;
  }

  /** Waits for the tries under way (tests; the stop). */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.settle();
  }

  /** A batch row's `cv_*` values mended from the check's answer (also called when the batch looks at its checks). */
  async mendRecord(row: EmailCheckRow): Promise<void> {
    if (!row.origin || !row.result) return;
    const result = row.result;
    const whole = overallNextAction([(row.othersNextAction as NextAction | null) ?? null, emailNextAction(result)]);
    // A batch's row mended is its answer delivered; a connector's record has none here (src/sync/later-answers.ts writes it).
    if (await this.store.patchRecord(row.origin.job, row.origin.key, (cells) => mendedRow(cells, result, whole))) {
      await this.store.markWritten([row.id], 'mended', this.now());
    }
  }

  /** Mends the rows of a job's ended checks (a check may end before its record's row is kept). */
  async mendJob(jobId: string): Promise<void> {
    for (const row of await this.store.endedForJob(jobId)) await this.mendRecord(row);
  }

  /** How long a batch waits for its checks (BATCH_EMAIL_CHECK_WAIT_MS). */
  get batchWaitMs(): number {
    return this.settings.batchWaitMs;
  }

  /** A job's checks: how many are pending, and until when it waits for them (the wait after the newest was opened). */
  async jobState(jobId: string): Promise<{ pending: number; total: number; waitUntil: number | null }> {
    const state = await this.store.jobState(jobId);
    const waitUntil = state.newestAt === null || this.settings.batchWaitMs <= 0 ? null : state.newestAt + this.settings.batchWaitMs;
    return { pending: state.pending, total: state.total, waitUntil };
  }

  /** A batch's checks as its status says them (GET /v1/batches/{id}): the limit it waits up to, stated. */
  async batchState(jobId: string) {
    const { pending, total, waitUntil } = await this.jobState(jobId);
    return { pending, answered: total - pending, wait_seconds: Math.round(this.settings.batchWaitMs / 1000), waiting_until: iso(waitUntil) };
  }

  private async attempt(row: EmailCheckRow): Promise<void> {
    const { result, retryAfterMs } = await this.engine.recheck!(row.email);
    this.counts.attempts++;
    const at = this.now();
    const still = result.status === 'unknown' && LATER_REASONS.has(result.reason);
    const tries = row.attempts + 1;
    if (still && tries < this.settings.scheduleMs.length) {
      await this.store.again(row.id, this.owner, result, at + this.waitBefore(tries, retryAfterMs));
      return;
    }
    const status = still ? 'expired' : 'done';
    if (!(await this.store.end(row.id, this.owner, status, result, at))) return; // another instance's lease: its to tell
    const ended: EmailCheckRow = { ...row, status, attempts: tries, result, finishedAt: at, nextAttemptAt: null };
    if (status === 'expired') {
      this.counts.expired++;
      this.log.info({ check_id: row.id, attempts: tries }, 'e-mail check out of tries: its answer stays unknown');
      return;
    }
    this.counts.answered++;
    await this.mendRecord(ended).catch((err: unknown) => this.log.warn({ err, check_id: row.id }, 'batch row not mended yet'));
    await this.notify(row.accountId, emailCheckView(ended), `email.verified:${row.id}`);
  }

  /** The wait before try `n` (0-based): the schedule's, or the server's when it asked for longer, at most the last step. */
  private waitBefore(n: number, hintMs: number | null): number {
    const schedule = this.settings.scheduleMs;
    const step = schedule[Math.min(n, schedule.length - 1)];
    return Math.min(Math.max(step, hintMs ?? 0), Math.max(...schedule));
  }
}
