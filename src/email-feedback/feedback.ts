/**
 * Feedback (docs/email.md#feedback): an account tells what became of the mail it sent to an address (`bounced`,
 * `delivered`, `complained`), and its answers learn from it, in its own database only. A hard bounce makes the
 * address `invalid` (`reason` `bounced`) whatever a mail server said at probe time; the outcomes of a catch-all
 * domain's addresses give its `risky` answers a score (`catch_all_score`: how likely a mail to it is delivered, and how
 * many outcomes it rests on) instead of a flat verdict. One row per address, the latest outcome standing, so telling
 * the same thing twice counts once.
 */
import type { Database } from '../db/data-source.js';
import { upsertSql, type TableSpec } from '../db/upsert.js';
import type { EmailResult } from '../validation/types.js';

export const FEEDBACK_OUTCOMES = ['bounced', 'delivered', 'complained'] as const;
export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];

/**
 * The words a mailing tool's export writes for an outcome (Mailchimp's `cleaned`, SendGrid's `bounce` and `spamreport`,
 * Postmark's `HardBounce` and `SpamComplaint`), lower-cased with spaces, `_` and `-` removed. A soft bounce is not a
 * hard one, and is no outcome here.
 */
const OUTCOME_WORDS = new Map<string, FeedbackOutcome>(Object.entries({
  bounced: 'bounced', bounce: 'bounced', hardbounce: 'bounced', hardbounced: 'bounced', cleaned: 'bounced',
  delivered: 'delivered', delivery: 'delivered', opened: 'delivered', clicked: 'delivered',
  complained: 'complained', complaint: 'complained', spam: 'complained', spamreport: 'complained', spamcomplaint: 'complained', abuse: 'complained',
} as const));

/** The outcome a cell of a CSV upload tells (`Hard Bounce` -> `bounced`), or null when it tells none we know. */
export function feedbackOutcomeOf(text: string): FeedbackOutcome | null {
  return OUTCOME_WORDS.get(text.toLowerCase().replace(/[\s_-]+/g, '')) ?? null;
}

/** How likely a mail to a catch-all domain is delivered, from the account's outcomes there. */
export interface CatchAllScore {
  /** (delivered + 1) / (delivered + bounced + 2): 0.5 with no outcome, towards 1 as deliveries come, 0 as bounces do. */
  score: number;
  /** The outcomes it rests on (a complaint was delivered, and counts as a delivery). */
  outcomes: number;
}

export interface DomainOutcomes {
  delivered: number;
  bounced: number;
  complained: number;
}

const FEEDBACK: TableSpec = { table: 'email_feedback', columns: ['account_id', 'email', 'domain', 'outcome', 'updated_at'], key: ['account_id', 'email'] };
/** How long an instance trusts what it knows of whether an account has told anything (feedback shows elsewhere within it). */
const TOLD_TTL_MS = 1_000;

export function catchAllScore(o: DomainOutcomes): CatchAllScore {
  const delivered = o.delivered + o.complained;
  return { score: Math.round(((delivered + 1) / (delivered + o.bounced + 2)) * 100) / 100, outcomes: delivered + o.bounced };
}

export class EmailFeedback {
  /** Whether an account has told anything, known until when: an account that has not skips the lookups. */
  private readonly told = new Map<string, { any: boolean; until: number }>();

  constructor(private readonly db: Database, private readonly now: () => number = Date.now) {}

  /** Keeps an outcome for a normalized address (`local@domain`, the domain in lower-case A-labels). */
  async record(accountId: string, email: string, domain: string, outcome: FeedbackOutcome): Promise<DomainOutcomes> {
    await this.db.run(upsertSql(FEEDBACK, 1), [accountId, email, domain, outcome, this.now()]);
    this.told.delete(accountId);
    return this.outcomes(accountId, domain);
  }

  /** The outcomes of the account's addresses at a domain. */
  async outcomes(accountId: string, domain: string): Promise<DomainOutcomes> {
    const rows = await this.db.all<{ outcome: FeedbackOutcome; n: number | string }>(
      `SELECT outcome, COUNT(*) AS n FROM email_feedback WHERE account_id = $1 AND domain = $2 GROUP BY outcome`, [accountId, domain]);
    const counts: DomainOutcomes = { delivered: 0, bounced: 0, complained: 0 };
    for (const r of rows) counts[r.outcome] = Number(r.n);
    return counts;
  }

  /**
   * An answer as the account's feedback makes it: a reported bounce is `invalid`; a catch-all answer carries its
   * domain's score. Unchanged (and no query beyond a cached one) for an account that has told nothing.
   */
  async amend(accountId: string, result: EmailResult): Promise<EmailResult> {
    if (!result.normalized || !(await this.hasTold(accountId))) return result;
    const [told] = await this.db.all<{ outcome: FeedbackOutcome }>(
      `SELECT outcome FROM email_feedback WHERE account_id = $1 AND email = $2`, [accountId, result.normalized]);
    if (told?.outcome === 'bounced') {
      const { check_id: _pending, ...rest } = result;
      return { ...rest, status: 'invalid', risk: 'high', reason: 'bounced' };
    }
    if (result.smtp !== 'catch_all') return result;
    const domain = result.normalized.slice(result.normalized.lastIndexOf('@') + 1);
    return { ...result, catch_all_score: catchAllScore(await this.outcomes(accountId, domain)) };
  }

  /** Whether the account has told any outcome: one query a second per instance, whatever the answer. */
  private async hasTold(accountId: string): Promise<boolean> {
    const known = this.told.get(accountId);
    if (known && known.until > this.now()) return known.any;
    const rows = await this.db.all(`SELECT 1 AS x FROM email_feedback WHERE account_id = $1 LIMIT 1`, [accountId]);
    if (this.told.size > 10_000) this.told.clear();
    this.told.set(accountId, { any: rows.length > 0, until: this.now() + TOLD_TTL_MS });
    return rows.length > 0;
  }
}
