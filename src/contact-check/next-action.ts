/**
 * What a form or a clean-up should do with an answer (docs/api.md#next_action): `accept` it as it is, `confirm` it with
 * the person (we changed, guessed or could not check something), or have the person `fix` it (something is invalid).
 * One rule per module, read from the engines' closed vocabularies under a policy (./policies.ts: the fixed table by
 * default); the whole answer takes its most demanding module's.
 */
import type { AddressResult, EmailResult, PhoneResult } from '../validation/types.js';
import { byReason, DEFAULT_POLICY, NEXT_ACTIONS, type NextAction, type PolicyRules } from './policies.js';

export { NEXT_ACTIONS, type NextAction };

/**
 * Footnotes `A#` (ZIP code), `B#` (city, state, province or country) and `M#` (street, house number) say a part was
 * corrected or added from the rest: the standardized form then says more than the person wrote, and they should see
 * it (a `plausible` answer carries them where no reference data confirmed the corrected address).
 */
const CHANGED_PARTS = /^[ABM]#/;

/** Why an address answer is more than `accept`: its status's rule, a part corrected or added, or a missing unit. */
export type AddressActionReason = `status:${AddressResult['status']}` | 'corrections' | 'missing_unit';

/**
 * The status's action, made more demanding by a part corrected or added (the policy's `corrections`) and by a missing
 * unit (`missing_unit`), with the rule that decided it (of the most demanding, the most telling); no reason for `accept`.
 */
export function addressVerdict(
  result: Pick<AddressResult, 'status' | 'footnotes' | 'missing_unit'>, rules = DEFAULT_POLICY.address,
): { action: NextAction; reason: AddressActionReason | null } {
  const changed = result.footnotes.some((f) => CHANGED_PARTS.test(f));
  const rulesMet: [NextAction, AddressActionReason][] = [[rules.statuses[result.status], `status:${result.status}`]];
  if (changed) rulesMet.push([rules.corrections, 'corrections']);
  if (result.missing_unit) rulesMet.push([rules.missing_unit ?? 'confirm', 'missing_unit']);
  const action = overallNextAction(rulesMet.map(([a]) => a));
  // The most telling rule first: a missing unit, then a part changed, then the status (which a `D` makes `partial`).
  return { action, reason: action === 'accept' ? null : [...rulesMet].reverse().find(([a]) => a === action)![1] };
}

export function addressNextAction(result: Pick<AddressResult, 'status' | 'footnotes' | 'missing_unit'>, rules = DEFAULT_POLICY.address): NextAction {
  return addressVerdict(result, rules).action;
}

/** The reason's rule, else the status's; a suggestion (`gmial.com` → `gmail.com`) is asked about by default, whatever the status. */
export function emailNextAction(result: Pick<EmailResult, 'status' | 'suggestion'> & { reason?: string }, rules = DEFAULT_POLICY.email): NextAction {
  const action = byReason(rules.reasons, result.reason) ?? rules.statuses[result.status];
  return overallNextAction([action, result.suggestion !== null ? rules.suggestion : null]);
}

export function phoneNextAction(result: Pick<PhoneResult, 'status'> & { reason?: string | null }, rules = DEFAULT_POLICY.phone): NextAction {
  return byReason(rules.reasons, result.reason) ?? rules.statuses[result.status];
}

const RANK: Record<NextAction, number> = { accept: 0, confirm: 1, fix: 2 };

/** The whole answer: `fix` if any module asked says fix, else `confirm` if any says confirm, else `accept`. */
export function overallNextAction(actions: readonly (NextAction | null)[]): NextAction {
  let worst: NextAction = 'accept';
  for (const a of actions) if (a !== null && RANK[a] > RANK[worst]) worst = a;
  return worst;
}

/** Each module's answer with its own `next_action` under `policy` (default: the fixed table), and the whole answer's. */
export function withNextActions(
  answer: { address: AddressResult | null; email: EmailResult | null; phone: PhoneResult | null }, policy: PolicyRules = DEFAULT_POLICY,
) {
  const verdict = answer.address && addressVerdict(answer.address, policy.address);
  const address = answer.address && { ...answer.address, next_action: verdict!.action, next_action_reason: verdict!.reason };
  const email = answer.email && { ...answer.email, next_action: emailNextAction(answer.email, policy.email) };
  const phone = answer.phone && { ...answer.phone, next_action: phoneNextAction(answer.phone, policy.phone) };
  const next_action = overallNextAction([address?.next_action ?? null, email?.next_action ?? null, phone?.next_action ?? null]);
  return { next_action, address, email, phone };
}
