/**
 * The state nonces of OAuth flows already used (migration `UsedFlowNonces`): a flow's callback is taken once, by
 * whichever instance of the fleet gets it first; a replay with the same flow cookie finds its nonce here until the flow
 * would have expired anyway. Kept as SHA-256: a copy of the table replays nothing.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';

export class UsedFlowNonces {
  constructor(private readonly db: Database, private readonly now: () => number = Date.now) {}

  /** True the first time a nonce is used (and it is remembered until `expiresAt`); false for every use after. */
  async useOnce(purpose: string, nonce: string, expiresAt: number): Promise<boolean> {
    const at = this.now();
    const hash = crypto.createHash('sha256').update(`${purpose}:${nonce}`).digest('hex');
    const inserted = await this.db.run(
      `INSERT INTO used_flow_nonces (nonce_hash, purpose, used_at, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (nonce_hash) DO NOTHING`,
      [hash, purpose, at, expiresAt],
    );
    // Now and then, the nonces of flows that have expired go: their cookies are refused by their expiry already.
    if (Math.random() < 0.05) await this.db.run(`DELETE FROM used_flow_nonces WHERE expires_at <= $1`, [at]);
    return inserted === 1;
  }
}
