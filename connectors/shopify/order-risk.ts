/**
 * One order risk assessment from the three verdicts (docs/shopify.md, "Order risk"): the facts a merchant reads on the
 * order page (`OrderRiskAssessmentFactInput`: a description of at most 256 characters and a sentiment) and the risk
 * level (`RiskAssessmentResult`). An undeliverable address is HIGH on its own (the parcel comes back); two doubts make
 * HIGH, one makes MEDIUM; none is LOW. What the order did not carry is not a fact.
 */
import type { AddressResult, EmailResult, PhoneResult } from '../../src/validation/types.js';

export type RiskLevel = 'HIGH' | 'MEDIUM' | 'LOW' | 'NONE';
export type Sentiment = 'NEGATIVE' | 'NEUTRAL' | 'POSITIVE';

/** A fact's stable code (kept in our books, shown on the dashboard) and what Shopify shows the merchant. */
export interface RiskFact { code: string; description: string; sentiment: Sentiment }

export interface OrderVerdicts { address: AddressResult | null; email: EmailResult | null; phone: PhoneResult | null }

/** The address cannot take a parcel: no such delivery point, or the reference data says so (DPV `N`). */
export const undeliverable = (address: AddressResult | null | undefined): boolean =>
  Boolean(address && (address.status === 'invalid' || address.dpv === 'N'));

/** Worth asking the buyer about: undeliverable, several candidates, or a unit missing. */
export const doubtful = (address: AddressResult | null | undefined): boolean =>
  Boolean(address && (undeliverable(address) || address.status === 'ambiguous' || address.status === 'partial'));

/** A footnote of the reference data saying nobody receives mail there (USPS CMRA/vacancy flags as imported). */
const vacant = (address: AddressResult) => address.footnotes.some((f) => /vacan/i.test(f));

/** The fact table: each row a test on the verdicts and what it tells the merchant. */
const FACTS: { code: string; sentiment: Sentiment; test: (v: OrderVerdicts) => boolean; say: (v: OrderVerdicts) => string }[] = [
  { code: 'address_undeliverable', sentiment: 'NEGATIVE', test: (v) => undeliverable(v.address),
    say: (v) => `Shipping address is undeliverable (${v.address!.status}${v.address!.dpv ? `, DPV ${v.address!.dpv}` : ''})` },
  { code: 'address_vacant', sentiment: 'NEGATIVE', test: (v) => Boolean(v.address && vacant(v.address)), say: () => 'Shipping address is marked vacant' },
  { code: 'address_ambiguous', sentiment: 'NEGATIVE', test: (v) => v.address?.status === 'ambiguous', say: () => 'Shipping address matches several delivery points' },
  { code: 'address_unit_missing', sentiment: 'NEUTRAL', test: (v) => v.address?.status === 'partial', say: () => 'Shipping address: the building exists; the unit is missing or unknown' },
  { code: 'address_verified', sentiment: 'POSITIVE', test: (v) => v.address?.status === 'verified' || v.address?.status === 'corrected',
    say: (v) => `Shipping address is a confirmed delivery point${v.address!.status === 'corrected' ? ' once corrected' : ''}` },
  { code: 'email_disposable', sentiment: 'NEGATIVE', test: (v) => Boolean(v.email?.disposable), say: () => 'E-mail is a disposable address' },
  { code: 'email_invalid', sentiment: 'NEGATIVE', test: (v) => v.email?.status === 'invalid', say: (v) => `E-mail cannot receive mail (${v.email!.reason ?? 'invalid'})` },
  { code: 'email_valid', sentiment: 'POSITIVE', test: (v) => v.email?.status === 'valid' && !v.email.disposable, say: () => 'E-mail accepts mail' },
  { code: 'phone_invalid', sentiment: 'NEGATIVE', test: (v) => v.phone?.status === 'invalid', say: () => 'Phone number is not a valid number' },
  { code: 'phone_voip', sentiment: 'NEGATIVE', test: (v) => v.phone?.type === 'voip', say: () => 'Phone number is a VoIP number' },
  { code: 'phone_valid', sentiment: 'POSITIVE', test: (v) => v.phone?.status === 'valid' && v.phone.type !== 'voip',
    say: (v) => `Phone number is valid (${v.phone!.type.replace(/_/g, ' ')})` },
];

export interface RiskAssessment { riskLevel: RiskLevel; facts: RiskFact[] }

export function assessRisk(verdicts: OrderVerdicts): RiskAssessment {
  const facts = FACTS.filter((f) => f.test(verdicts))
    .map((f) => ({ code: f.code, description: `Contact Validator: ${f.say(verdicts)}`.slice(0, 256), sentiment: f.sentiment }));
  const negative = facts.filter((f) => f.sentiment === 'NEGATIVE').length;
  const checked = verdicts.address || verdicts.email || verdicts.phone;
  const riskLevel: RiskLevel = !checked ? 'NONE'
    : undeliverable(verdicts.address) || negative >= 2 ? 'HIGH'
      : negative === 1 ? 'MEDIUM' : 'LOW';
  // Shopify takes at most 20 facts; the table has fewer.
  return { riskLevel, facts: facts.slice(0, 20) };
}
