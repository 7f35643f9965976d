/**
 * What a checkout extension shows for a shipping address, from the service's answer (docs/api.md: the address module,
 * `next_action`). Pure: no `shopify` global, no network; the extensions hand it the answer and the buyer's address.
 *
 * - `fix` (the address is `invalid`): undeliverable. The extension warns, or blocks in "block" mode.
 * - `confirm`: a suggestion, when the standardized address differs from the buyer's beyond cosmetics (case, spaces,
 *   punctuation, a ZIP+4 add-on); a `partial` address (building confirmed, unit unknown) asks for the unit.
 * - `accept`, and anything cosmetic: nothing. A prompt that changes nothing costs conversions.
 */

export type NextAction = 'accept' | 'confirm' | 'fix';

/** The address part of a /v1/validate answer, as far as the extensions read it. */
export interface AddressAnswer {
  status: string;
  /** Present since the service answers `next_action`; older answers are read by their status alone. */
  next_action?: NextAction;
  components?: Partial<Record<AddressComponent, string | null>> | null;
}

type AddressComponent =
  | 'primary_number' | 'street_predirection' | 'street_name' | 'street_suffix' | 'street_postdirection'
  | 'secondary_designator' | 'secondary_number' | 'city' | 'state' | 'postal_code' | 'plus4' | 'country';

/** Shopify's MailingAddress fields the extensions read and write. */
export interface BuyerAddress {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
  countryCode?: string | null;
}

/** What `applyShippingAddressChange` receives: the fields to change. */
export interface SuggestedAddress {
  address1: string;
  address2: string;
  city: string;
  provinceCode: string;
  zip: string;
}

export type Verdict =
  | { kind: 'none' }
  | { kind: 'suggest'; suggestion: SuggestedAddress }
  | { kind: 'unit' }
  | { kind: 'undeliverable' };

export const NO_VERDICT: Verdict = { kind: 'none' };

/** For answers without `next_action`: the same reading of the status vocabulary (docs/api.md). */
const ACTION_BY_STATUS: Record<string, NextAction> = {
  verified: 'accept', plausible: 'accept', corrected: 'confirm', partial: 'confirm', ambiguous: 'confirm', invalid: 'fix',
};

/** The request's `address` parts (docs/api.md), or null while the buyer has not given enough to check. */
export function addressRequestOf(a: BuyerAddress): Record<string, string> | null {
  const parts: Record<string, string> = {
    line1: clean(a.address1, 300), line2: clean(a.address2, 300), city: clean(a.city, 100),
    state: clean(a.provinceCode, 100), postal_code: clean(a.zip, 20), country: clean(a.countryCode, 60),
  };
  if (!parts.line1 || !(parts.city || parts.postal_code)) return null;
  for (const key of Object.keys(parts)) if (!parts[key]) delete parts[key];
  return parts;
}

/** The request schema refuses control characters and longer values: they are cut, never sent to a 400. */
function clean(value: string | null | undefined, max: number): string {
  return (value ?? '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/** The standardized address as Shopify's fields, or null when the answer has no street to offer. */
export function suggestionOf(c: AddressAnswer['components']): SuggestedAddress | null {
  if (!c) return null;
  const join = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');
  const address1 = join(c.primary_number, c.street_predirection, c.street_name, c.street_suffix, c.street_postdirection);
  const zip = c.postal_code && c.plus4 ? `${c.postal_code}-${c.plus4}` : (c.postal_code ?? '');
  if (!address1 || !(c.city || zip)) return null;
  return { address1, address2: join(c.secondary_designator, c.secondary_number), city: c.city ?? '', provinceCode: c.state ?? '', zip };
}

/** Letters and digits only, upper case: what is left when case, spaces and punctuation are set aside. */
const bare = (s: string | null | undefined) => (s ?? '').toUpperCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** A US ZIP compares on its five digits: the +4 add-on alone is no reason to ask. */
const zipOf = (zip: string | null | undefined) => (/^\d{5}([-\s]?\d{4})?$/.test((zip ?? '').trim()) ? bare(zip).slice(0, 5) : bare(zip));

export function differsBeyondCosmetics(typed: BuyerAddress, s: SuggestedAddress): boolean {
  return bare(`${typed.address1 ?? ''} ${typed.address2 ?? ''}`) !== bare(`${s.address1} ${s.address2}`) ||
    bare(typed.city) !== bare(s.city) || bare(typed.provinceCode) !== bare(s.provinceCode) || zipOf(typed.zip) !== zipOf(s.zip);
}

export function verdictOf(answer: AddressAnswer, typed: BuyerAddress): Verdict {
  const action = answer.next_action ?? ACTION_BY_STATUS[answer.status] ?? 'accept';
  if (action === 'fix') return { kind: 'undeliverable' };
  if (action === 'accept') return NO_VERDICT;
  const suggestion = suggestionOf(answer.components);
  if (suggestion && differsBeyondCosmetics(typed, suggestion)) return { kind: 'suggest', suggestion };
  return answer.status === 'partial' ? { kind: 'unit' } : NO_VERDICT;
}

/** One line for the buyer to read: `6007 APPLEGATE LN, LOUISVILLE KY 40219-1234`. */
export function oneLine(a: BuyerAddress): string {
  const street = [a.address1, a.address2].filter(Boolean).join(' ');
  const last = [a.city, [a.provinceCode, a.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [street, last].filter(Boolean).join(', ');
}
