/**
 * The answer shapes of the three engines (docs/api.md#vocabularies) and the small interface each engine presents to the HTTP layer.
 * Engines are pure: they take their data, resolvers and clocks as arguments and import nothing from HTTP, the
 * database or process.env.
 */
import type { ComponentChangeEntry } from './address/component-changes.js';

// ---- address ---------------------------------------------------------------------------------------------------

export const ADDRESS_STATUSES = ['verified', 'corrected', 'partial', 'plausible', 'ambiguous', 'invalid'] as const;
export type AddressStatus = (typeof ADDRESS_STATUSES)[number];
export type Dpv = 'Y' | 'N' | 'S' | 'D' | '';

export interface AddressComponents {
  primary_number: string | null;
  street_predirection: string | null;
  street_name: string | null;
  street_suffix: string | null;
  street_postdirection: string | null;
  secondary_designator: string | null;
  secondary_number: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  plus4: string | null;
  country: string | null;
}

/**
 * What confirmed the address, strongest first (docs/api.md#address-evidence): a USPS delivery point, an address point
 * of an address file (NAD, OpenAddresses, NAR, RRAD), a TIGER number range of the street, the street alone, the
 * postal code agreeing with the city and state, or nothing beyond the address's form.
 */
export const ADDRESS_EVIDENCE = ['delivery_point', 'address_point', 'street_range', 'street', 'postal_code', 'none'] as const;
export type AddressEvidence = (typeof ADDRESS_EVIDENCE)[number];
export const LOCATION_PRECISIONS = ['rooftop', 'parcel', 'interpolated', 'postal_code'] as const;
export type AddressLocationPrecision = (typeof LOCATION_PRECISIONS)[number];
export interface AddressLocation {
  lat: number;
  lon: number;
  precision: AddressLocationPrecision;
}

export interface AddressResult {
  status: AddressStatus;
  standardized: string | null;
  dpv: Dpv;
  zip4: string | null;
  country: string | null;
  components: AddressComponents;
  footnotes: string[];
  /** What confirmed it (never more than `status` claims: `verified` and `corrected` need a delivery or address point). */
  evidence: AddressEvidence;
  /** The ids of the data behind the evidence (`usps`, `nad`, `openaddresses`, `nar`, `rrad`, `tiger`, `geonames`). */
  sources: string[];
  /** Where it is, and how closely: the point's own coordinates, along the street, or the postal code's centre; or null. */
  location: AddressLocation | null;
  /** What changed, part by part (./address/component-changes.ts); set by the engine on every answer it gives. */
  changes?: ComponentChangeEntry[];
  /** The building has units and none was given (USPS DPV `D`). */
  missing_unit?: boolean;
  /** 0 to 1: how far the evidence reaches, less what was changed to reach it. */
  match_score?: number;
}

/**
 * What an engine's `validate` gives: the answer itself when the work waited on nothing (local data, CPU), else a
 * promise of it (the network). The use case sets a budget timer only for promises.
 */
export type Answer<T> = T | Promise<T>;

export interface AddressEngine {
  /** Cheap and synchronous: ISO 3166-1 alpha-2 country of the input (hint first), or null. Used for pricing. */
  countryOf(input: string, countryHint?: string): string | null;
  /** Local CPU work only: answers at once. */
  validate(input: string, options: { country?: string; deadline: number }): Answer<AddressResult>;
}

// ---- e-mail ----------------------------------------------------------------------------------------------------

export type EmailStatus = 'valid' | 'invalid' | 'risky' | 'unknown';
export type EmailRisk = 'low' | 'medium' | 'high';
export type SmtpVerdict =
  | 'deliverable' | 'undeliverable' | 'catch_all' | 'mailbox_full' | 'disabled' | 'unknown' | 'pending' | 'skipped';

export interface EmailResult {
  status: EmailStatus;
  risk: EmailRisk;
  smtp: SmtpVerdict;
  reason: string;
  normalized: string | null;
  suggestion: string | null;
  disposable: boolean;
  role: boolean;
  free: boolean;
  /**
   * A `temp_fail`, `throttled` or `timeout` answer the service keeps asking about: `GET /v1/email-checks/{id}` gives
   * the answer that arrives later (src/email-checks). Absent otherwise.
   */
  check_id?: string;
  /**
   * On a catch-all answer of an account that has told outcomes of its mail (`POST /v1/feedback`): how likely a mail to
   * the domain is delivered, and how many outcomes that rests on (src/email-feedback). Absent otherwise.
   */
  catch_all_score?: { score: number; outcomes: number };
}

export interface EmailEngine {
  /** `deadline` is an absolute Date.now() value; the answer is final by then (`pending` if the probe goes on). */
  validate(input: string, options: { smtp: boolean; deadline: number }): Answer<EmailResult>;
  /**
   * Cheap and synchronous: the answer when it needs no network (a syntax error; any address while network checks
   * are off), else null. Used for pricing; `validate` would give the same answer.
   */
  offlineAnswer?(input: string): EmailResult | null;
  /** The address asked again for an answer arriving later; `retryAfterMs`: the wait the server asked for. */
  recheck?(input: string): Promise<{ result: EmailResult; retryAfterMs: number | null }>;
  /** The wait the address's last transient refusal asked for, while it holds; else null. */
  retryHintMs?(input: string): number | null;
  /** Closes sockets, timers and background probes (graceful shutdown, tests). */
  close?(): Promise<void>;
}

// ---- phone -----------------------------------------------------------------------------------------------------

export const PHONE_TYPES = [
  'mobile', 'landline', 'fixed_or_mobile', 'voip', 'toll_free', 'premium_rate', 'shared_cost', 'personal', 'pager',
  'uan', 'voicemail', 'unknown',
] as const;
export type PhoneType = (typeof PHONE_TYPES)[number];
export type PhoneStatus = 'valid' | 'invalid' | 'unknown';
export type CarrierSource = 'live' | 'allocation' | 'none';

export interface PhoneResult {
  status: PhoneStatus;
  type: PhoneType;
  carrier: string | null;
  carrier_source: CarrierSource;
  e164: string | null;
  country: string | null;
  /** Extensions beyond docs/api.md#vocabularies (documented in the README): reason for invalid, national format. */
  reason?: string | null;
  national?: string | null;
}

/** What pricing learnt of a phone number offline; handed back to `validate` so that a request reads the number once. */
export interface PhoneReadingForPricing {
  readonly type: PhoneType;
}

export interface PhoneEngine {
  /** Cheap and synchronous offline line type, used for pricing before the slow work starts. */
  offlineType(input: string, countryHint?: string): PhoneType;
  /** `offlineType`, with the reading itself: pass it to `validate` (for the same input and hint). */
  offlineReading(input: string, countryHint?: string): PhoneReadingForPricing;
  /** At once from offline data; a promise only while a live carrier look-up is asked. */
  validate(input: string, options: { country?: string; deadline: number; reading?: PhoneReadingForPricing }): Answer<PhoneResult>;
  close?(): Promise<void>;
}
