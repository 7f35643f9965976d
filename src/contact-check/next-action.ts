/**
 * What a form or a clean-up should do with an answer (docs/api.md#next_action): `accept` it as it is, `confirm` it with
 * the person (we changed, guessed or could not check something), or have the person `fix` it (something is invalid).
 * One rule per module, read from the engines' closed vocabularies; the whole answer takes its most demanding module's.
 */
import type { AddressResult, AddressStatus, EmailResult, EmailStatus, PhoneResult, PhoneStatus } from '../validation/types.js';

export const NEXT_ACTIONS = ['accept', 'confirm', 'fix'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

/** `plausible` is as far as the data reaches: nothing to ask unless something was changed or added (see below). */
const BY_ADDRESS_STATUS: Record<AddressStatus, NextAction> = {
  verified: 'accept', plausible: 'accept', corrected: 'confirm', partial: 'confirm', ambiguous: 'confirm', invalid: 'fix',
};

/** `risky` (a typo, disposable, role, catch-all, full mailbox) and `unknown` (not checked, no answer) are the person's call. */
const BY_EMAIL_STATUS: Record<EmailStatus, NextAction> = { valid: 'accept', risky: 'confirm', unknown: 'confirm', invalid: 'fix' };

const BY_PHONE_STATUS: Record<PhoneStatus, NextAction> = { valid: 'accept', unknown: 'confirm', invalid: 'fix' };

/**
 * Footnotes `A#` (ZIP code), `B#` (city, state, province or country) and `M#` (street, house number) say a part was
 * corrected or added from the rest: the standardized form then says more than the person wrote, and they should see
 * it (a `plausible` answer carries them where no reference data confirmed the corrected address).
 */
const CHANGED_PARTS = /^[ABM]#/;

export function addressNextAction(result: Pick<AddressResult, 'status' | 'footnotes'>): NextAction {
  const action = BY_ADDRESS_STATUS[result.status];
  return action === 'accept' && result.footnotes.some((f) => CHANGED_PARTS.test(f)) ? 'confirm' : action;
}

/** A suggestion (`gmial.com` → `gmail.com`) is always asked about, whatever the status. */
export function emailNextAction(result: Pick<EmailResult, 'status' | 'suggestion'>): NextAction {
  const action = BY_EMAIL_STATUS[result.status];
  return action === 'accept' && result.suggestion !== null ? 'confirm' : action;
}

export function phoneNextAction(result: Pick<PhoneResult, 'status'>): NextAction {
  return BY_PHONE_STATUS[result.status];
}

const RANK: Record<NextAction, number> = { accept: 0, confirm: 1, fix: 2 };

/** The whole answer: `fix` if any module asked says fix, else `confirm` if any says confirm, else `accept`. */
export function overallNextAction(actions: readonly (NextAction | null)[]): NextAction {
  let worst: NextAction = 'accept';
  for (const a of actions) if (a !== null && RANK[a] > RANK[worst]) worst = a;
  return worst;
}

/** Each module's answer with its own `next_action`, and the whole answer's. */
export function withNextActions(answer: { address: AddressResult | null; email: EmailResult | null; phone: PhoneResult | null }) {
  const address = answer.address && { ...answer.address, next_action: addressNextAction(answer.address) };
  const email = answer.email && { ...answer.email, next_action: emailNextAction(answer.email) };
  const phone = answer.phone && { ...answer.phone, next_action: phoneNextAction(answer.phone) };
  const next_action = overallNextAction([address?.next_action ?? null, email?.next_action ?? null, phone?.next_action ?? null]);
  return { next_action, address, email, phone };
}
