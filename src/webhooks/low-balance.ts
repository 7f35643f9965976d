/**
 * The low-balance alert (docs/webhooks.md#low-balance): an account sets a threshold; when its balance is found below
 * it, the owner gets one e-mail and the account's endpoints one `credits.low` event, and nothing more until credits
 * were added (a purchase, a grant) that brought the balance back at or above the threshold, and it falls again. The
 * crossing is seen from outside the ledger, on the fleet's tick (and on demand): a conditional UPDATE disarms the
 * alert, so however many instances look at once, one sends it.
 *
 * Changing the threshold never re-arms an alert that went out, nor does removing it and setting it again (the row is
 * kept, its threshold NULL): each PATCH fired a mail and a POST to every endpoint before (issue 51.5). And at most
 * MAX_ALERTS_PER_DAY go out per account and UTC day, whatever re-arms it (refunds can lift a balance a little): past
 * that the alert stays armed and goes out the next day if the balance is still low.
 */
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { Mailer } from '../people/mailer.js';
import type { Webhooks } from './webhooks.js';

export interface LowBalanceSetting {
  threshold: number | null;
  /** False once an alert went out, until credits added bring the balance back at or above the threshold. */
  armed: boolean;
  last_alert_at: string | null;
}

export interface LowBalanceDeps {
  db: Database;
  /** Usable credits of an account (the ledger's own answer). */
  balanceOf: (accountId: string) => Promise<number>;
  /** Whether credits were granted to the account (a purchase, a grant) after `at` (epoch ms). */
  grantedSince: (accountId: string, at: number) => Promise<boolean>;
  /** The owner's e-mail address, when the account has a person as owner (accounts made by the CLI may not). */
  ownerEmailOf: (accountId: string) => Promise<string | null>;
  mailer: Mailer;
  webhooks: Webhooks;
  /** Where the owner buys credits (the dashboard's billing page). */
  billingUrl: () => string;
  logger: Logger;
  now?: () => number;
}

export const MAX_THRESHOLD = 100_000_000;
/** Alerts an account gets at most per UTC day (docs/webhooks.md#low-balance). */
export const MAX_ALERTS_PER_DAY = 3;
const DAY_MS = 86_400_000;

export class LowBalanceAlerts {
  private readonly now: () => number;
  constructor(private readonly deps: LowBalanceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async get(accountId: string): Promise<LowBalanceSetting> {
    const [row] = await this.deps.db.all<{ threshold: number | string | null; armed: number | string | boolean; last_alert_at: number | string | null }>(
      `SELECT threshold, armed, last_alert_at FROM low_balance_alerts WHERE account_id = $1`, [accountId],
    );
    if (!row) return { threshold: null, armed: false, last_alert_at: null };
    const threshold = row.threshold === null ? null : Number(row.threshold);
    return {
      threshold, armed: threshold !== null && Number(row.armed) === 1,
      last_alert_at: row.last_alert_at === null ? null : new Date(Number(row.last_alert_at)).toISOString(),
    };
  }

  /**
   * Sets (or with null, removes) the threshold, checked at once. An account's first threshold is armed; a change keeps
   * the alert as it was (one that went out stays out until credits are added).
   */
  async set(accountId: string, threshold: number | null): Promise<LowBalanceSetting> {
    if (threshold === null) {
      await this.deps.db.run(`UPDATE low_balance_alerts SET threshold = NULL, updated_at = $2 WHERE account_id = $1`, [accountId, this.now()]);
    } else {
      await this.deps.db.run(
        `INSERT INTO low_balance_alerts (account_id, threshold, armed, updated_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (account_id) DO UPDATE SET threshold = $2, updated_at = $3`,
        [accountId, threshold, this.now()],
      );
      await this.check(accountId);
    }
    return this.get(accountId);
  }

  /** Every account with a threshold, checked (the tick). */
  async checkAll(): Promise<number> {
    const rows = await this.deps.db.all<{ account_id: string }>(
      `SELECT account_id FROM low_balance_alerts WHERE threshold IS NOT NULL ORDER BY account_id`,
    );
    let sent = 0;
    for (const { account_id: id } of rows) {
      try {
        if (await this.check(id)) sent++;
      } catch (err) {
        this.deps.logger.warn({ err, account: id }, 'low-balance check failed');
      }
    }
    return sent;
  }

  /**
   * One account: alerts when its balance is below an armed threshold (within the day's allowance), re-arms once
   * credits granted since the last alert brought the balance back at or above it. True when it alerted.
   */
  async check(accountId: string): Promise<boolean> {
    const { db } = this.deps;
    const setting = await this.get(accountId);
    if (setting.threshold === null) return false;
    const balance = await this.deps.balanceOf(accountId);
    const lastAlert = setting.last_alert_at === null ? null : Date.parse(setting.last_alert_at);
    if (balance >= setting.threshold) {
      if (!setting.armed && (lastAlert === null || await this.deps.grantedSince(accountId, lastAlert))) {
        await db.run(`UPDATE low_balance_alerts SET armed = 1 WHERE account_id = $1 AND armed = 0`, [accountId]);
      }
      return false;
    }
    if (!setting.armed) return false;
    const at = this.now();
    const day = Math.floor(at / DAY_MS);
    const won = await db.run(
      `UPDATE low_balance_alerts SET armed = 0, last_alert_at = $3,
         alerts_that_day = CASE WHEN alerts_day = $4 THEN alerts_that_day + 1 ELSE 1 END, alerts_day = $4
       WHERE account_id = $1 AND armed = 1 AND threshold = $2
         AND (alerts_day IS NULL OR alerts_day <> $4 OR alerts_that_day < $5)`,
      [accountId, setting.threshold, at, day, MAX_ALERTS_PER_DAY],
    );
    // Another instance alerted, the threshold changed meanwhile, or the day's alerts are spent (it stays armed).
    if (won !== 1) return false;
    await this.alert(accountId, balance, setting.threshold, at);
    return true;
  }

  private async alert(accountId: string, balance: number, threshold: number, at: number): Promise<void> {
    const { logger } = this.deps;
    await this.deps.webhooks.emit(accountId, 'credits.low', { account_id: accountId, balance, threshold }, `credits.low:${accountId}:${at}`)
      .catch((err) => logger.warn({ err, account: accountId }, 'credits.low webhook not logged'));
    const to = await this.deps.ownerEmailOf(accountId);
    if (!to) return;
    await this.deps.mailer.send({
      to,
      subject: `Your contact-validator balance is low: ${balance} credits`,
      text: [
        `The balance of your contact-validator account is ${balance} credits, below the alert threshold of ${threshold} you set.`,
        'When it reaches zero, requests are refused (402), CSV batches pause and connectors pause until credits are added.',
        '',
        `Buy credits: ${this.deps.billingUrl()}/billing`,
        '',
        `You get this message once each time the balance falls below the threshold after credits were added, at most ${MAX_ALERTS_PER_DAY} a day; change or remove the threshold on the dashboard's Webhooks page.`,
      ].join('\n'),
    }).catch((err) => logger.warn({ err, account: accountId }, 'low-balance mail not sent'));
  }
}
