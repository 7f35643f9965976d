/**
 * A connector's monthly credit cap (`credit_cap_monthly`, docs/connectors.md): what its records may take in a calendar
 * month (UTC), counted from the ledger (debits less refunds keyed by the connector, so a record charged once is
 * counted once). A run or a delivery that finds the cap reached stops before the next record and the connector pauses
 * (`credit_cap_reached`) until the month turns or the cap is raised; the account's owner gets one e-mail a month
 * (src/people/mailer.ts), whichever instance sees it first.
 */
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { Mailer } from '../people/mailer.js';

export interface CreditCapDeps {
  /** The account owner's confirmed e-mail address, when the account has a person as owner. */
  ownerEmailOf(accountId: string): Promise<string | null>;
  mailer: Mailer;
  /** The dashboard's address, for the mail's link. */
  dashboardUrl(): string;
  log: Logger;
}

export interface CapState {
  cap: number | null;
  spent: number;
}

/** `2026-11`: the calendar month (UTC) a time falls in, and when it began. */
export function monthOf(ms: number): { key: string; start: number; next: number } {
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return { key: new Date(start).toISOString().slice(0, 7), start, next: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

export class CreditCaps {
  constructor(
    private readonly db: Database,
    private readonly deps: CreditCapDeps,
    private readonly now: () => number = Date.now,
  ) {}

  async setCap(connectorId: string, cap: number | null): Promise<void> {
    await this.db.run(`UPDATE connectors SET credit_cap_monthly = $2 WHERE id = $1`, [connectorId, cap]);
  }

  /** The cap and what the connector's records took this month. */
  async state(connector: { id: string; accountId: string }): Promise<CapState> {
    const [row] = await this.db.all<{ credit_cap_monthly: number | string | null }>(
      `SELECT credit_cap_monthly FROM connectors WHERE id = $1`, [connector.id],
    );
    const cap = row?.credit_cap_monthly === null || row?.credit_cap_monthly === undefined ? null : Number(row.credit_cap_monthly);
    if (cap === null) return { cap, spent: 0 };
    const [spent] = await this.db.all<{ spent: number | string | null }>(
      `SELECT SUM(-credits) AS spent FROM ledger_entries
       WHERE account_id = $1 AND created_at >= $2 AND kind IN ('debit', 'refund') AND request_id LIKE $3`,
      [connector.accountId, monthOf(this.now()).start, `${connector.id}:%`],
    );
    return { cap, spent: Number(spent?.spent ?? 0) };
  }

  /**
   * Whether the connector may spend `next` more credits this month. When it may not, its owner is told (once a month)
   * and the state is returned for the run's message.
   */
  async reached(connector: { id: string; accountId: string; name: string }, next = 1): Promise<CapState | null> {
    const state = await this.state(connector);
    if (state.cap === null || state.spent + next <= state.cap) return null;
    const month = monthOf(this.now());
    const first = await this.db.run(
      `UPDATE connectors SET cap_alerted_month = $2 WHERE id = $1 AND (cap_alerted_month IS NULL OR cap_alerted_month <> $2)`,
      [connector.id, month.key],
    );
    if (first === 1) await this.alert(connector, state, month.next);
    return state;
  }

  private async alert(connector: { id: string; accountId: string; name: string }, state: CapState, resumesAt: number): Promise<void> {
    const to = await this.deps.ownerEmailOf(connector.accountId).catch(() => null);
    if (!to) return;
    await this.deps.mailer.send({
      to,
      subject: `Connector ${connector.name} reached its monthly credit cap`,
      text: [
        `The connector "${connector.name}" (${connector.id}) has used ${state.spent} of its ${state.cap} credits this month, and is paused.`,
        `It goes on by itself on ${new Date(resumesAt).toISOString().slice(0, 10)} (UTC), or as soon as you raise or remove its cap.`,
        '',
        `Connectors: ${this.deps.dashboardUrl()}/connectors`,
      ].join('\n'),
    }).catch((err) => this.deps.log.warn({ err, connector_id: connector.id }, 'credit cap mail not sent'));
  }
}
