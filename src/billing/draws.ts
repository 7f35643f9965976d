/**
 * Pure: how a debit draws on an account's grants, and the shape of its outcome; shared by the ledger's two ways of
 * committing (ledger.ts, postgres-group-commit.ts).
 */
import type { Charge, Module } from './pricing.js';

/**
 * A debit made, or refused for want of credits. `repeated`: with `once`, the key held a debit already and nothing was
 * drawn now (`charged` and `draws` are that earlier debit, less what was refunded since).
 */
export type DebitOutcome =
  | { ok: true; charged: number; remaining: number; draws: Draw[]; repeated: boolean }
  | { ok: false; balance: number; required: number };

/** A grant with credits left, as a debit needs it. */
export interface LiveGrant {
  id: string;
  remaining: number;
  expiresAt: number;
}

export interface GrantRow {
  id: string;
  remaining: number | string;
  expires_at: number | string;
}

export interface Draw {
  grantId: string;
  module: Module;
  credits: number;
}

/** Pure: which grants pay for which charge, drawing from the earliest expiry first; null if they do not cover it. */
export function planDraws(grants: readonly { id: string; remaining: number }[], charges: Charge[]): Draw[] | null {
  const left = grants.map((g) => g.remaining);
  const draws: Draw[] = [];
  for (const charge of charges) {
    let due = charge.credits;
    for (let i = 0; i < left.length && due > 0; i++) {
      const take = Math.min(due, left[i]);
      if (take > 0) {
        left[i] -= take;
        due -= take;
        draws.push({ grantId: grants[i].id, module: charge.module, credits: take });
      }
    }
    if (due > 0) return null;
  }
  return draws;
}

/** One ledger entry per grant a movement draws on: its credits by module, signed (a debit's counted negative). */
export function creditsByGrant(kind: 'debit' | 'refund', draws: readonly Draw[]): Map<string, Record<Module, number>> {
  const sign = kind === 'debit' ? -1 : 1;
  const byGrant = new Map<string, Record<Module, number>>();
  for (const d of draws) {
    let credits = byGrant.get(d.grantId);
    if (!credits) byGrant.set(d.grantId, (credits = { address: 0, email: 0, phone: 0 }));
    credits[d.module] += sign * d.credits;
  }
  return byGrant;
}

/** Credits per grant, summed over modules: one UPDATE per grant touched. */
export function perGrant(rows: { grantId: string; credits: number }[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.grantId, (sums.get(r.grantId) ?? 0) + r.credits);
  return sums;
}
