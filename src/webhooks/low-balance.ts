/**
 * The low-balance alert (docs/webhooks.md#low-balance): an account sets a threshold; when its balance is found below
 * it, the owner gets one e-mail and the account's endpoints one `credits.low` event, and nothing more until the
 * balance has been back at or above the threshold (a purchase, a grant) and falls again. The crossing is seen from
 * outside the ledger, on the fleet's tick (and on demand): a conditional UPDATE disarms the alert, so however many
 * instances look at once, one sends it.
 */
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { Mailer } from '../people/mailer.js';
import type { Webhooks } from './webhooks.js';

export interface LowBalanceSetting {
  threshold: number | null;
  /** False once an alert went out, until the balance is back at or above the threshold. */
  armed: boolean;
  last_alert_at: string | null;
}

export interface LowBalanceDeps {
  db: Database;
  /** Usable credits of an account (the ledger's own answer). */
  balanceOf: (accountId: string) => Promise<number>;
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

export class LowBalanceAlerts {
  private readonly now: () => number;
  constructor(private readonly deps: LowBalanceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async get(accountId: string): Promise<LowBalanceSetting> {
    const [row] = await this.deps.db.all<{ threshold: number | string; armed: number | string | boolean; last_alert_at: number | string | null }>(
      `SELECT threshold, armed, last_alert_at FROM low_balance_alerts WHERE account_id = $1`, [accountId],
    );
    if (!row) return { threshold: null, armed: false, last_alert_at: null };
    return {
      threshold: Number(row.threshold), armed: Number(row.armed) === 1,
      last_alert_at: row.last_alert_at === null ? null : new Date(Number(row.last_alert_at)).toISOString(),
    };
  }

  /** Sets (or with null, removes) the threshold; a new threshold is armed, and checked at once. */
  async set(accountId: string, threshold: number | null): Promise<LowBalanceSetting> {
    if (threshold === null) {
      await this.deps.db.run(`DELETE FROM low_balance_alerts WHERE account_id = $1`, [accountId]);
    } else {
      await this.deps.db.run(
        `INSERT INTO low_balance_alerts (account_id, threshold, armed, updated_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (account_id) DO UPDATE SET threshold = $2, armed = 1, updated_at = $3`,
        [accountId, threshold, this.now()],
      );
      await this.check(accountId);
    }
    return this.get(accountId);
  }

  /** Every account with a threshold, checked (the tick). */
  async checkAll(): Promise<number> {
    const rows = await this.deps.db.all<{ account_id: string }>(`SELECT account_id FROM low_balance_alerts ORDER BY account_id`);
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

  /** One account: alerts when its balance is below an armed threshold, re-arms once it is not. True when it alerted. */
  async check(accountId: string): Promise<boolean> {
    const { db } = this.deps;
    const setting = await this.get(accountId);
    if (setting.threshold === null) return false;
    const balance = await this.deps.balanceOf(accountId);
    if (balance >= setting.threshold) {
      if (!setting.armed) await db.run(`UPDATE low_balance_alerts SET armed = 1 WHERE account_id = $1 AND armed = 0`, [accountId]);
      return false;
    }
    if (!setting.armed) return false;
    const at = this.now();
    const won = await db.run(
      `UPDATE low_balance_alerts SET armed = 0, last_alert_at = $3 WHERE account_id = $1 AND armed = 1 AND threshold = $2`,
      [accountId, setting.threshold, at],
    );
    if (won !== 1) return false; // another instance alerted, or the threshold changed meanwhile
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
        'You get this message once each time the balance falls below the threshold; change or remove the threshold on the dashboard\'s Webhooks page.',
      ].join('\n'),
    }).catch((err) => logger.warn({ err, account: accountId }, 'low-balance mail not sent'));
  }
}
