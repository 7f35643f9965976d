/**
 * The answer shapes of the three engines (docs/api.md#vocabularies) and the small interface each engine presents to the HTTP layer.
 * Each answer is one zod schema, its TypeScript type inferred from it: the HTTP layer's answer schemas
 * (src/http/endpoints/validate.ts) are these with `next_action` added, so a field of an answer is written here and in
 * its engine. Engines are pure: they take their data, resolvers and clocks as arguments and import nothing from HTTP,
 * the database or process.env.
 */
import { z } from 'zod';

// ---- address ---------------------------------------------------------------------------------------------------

export const ADDRESS_STATUSES = ['verified', 'corrected', 'partial', 'plausible', 'ambiguous', 'invalid'] as const;
export type AddressStatus = (typeof ADDRESS_STATUSES)[number];
export const DPV_CODES = ['Y', 'N', 'S', 'D', ''] as const;
export type Dpv = (typeof DPV_CODES)[number];
/** US/Canada: what the delivery line is (street, highways included; PO box; rural route; …). */
export const DELIVERY_TYPES = ['street', 'po_box', 'rural_route', 'highway_contract', 'military', 'general_delivery'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

const part = z.string().nullable();

/** The parts of an address; the optional ones are the North American engine's (./address/north-america). */
export const addressComponentsSchema = z.object({
  primary_number: part, street_predirection: part, street_name: part, street_suffix: part, street_postdirection: part,
  secondary_designator: part, secondary_number: part, city: part, state: part, postal_code: part, plus4: part, country: part,
  extra_secondaries: z.array(z.string()).optional().describe('US/Canada: units Pub 28 keeps off the delivery line (`BLDG A`, `FL 3`)'),
  urbanization: part.optional().describe("Puerto Rico's `URB` name"),
  delivery_type: z.enum(DELIVERY_TYPES).nullable().optional().describe('US/Canada: what the delivery line is'),
  county: part.optional().describe("US: the ZIP code's county (GeoNames)"),
  delivery_installation: part.optional().describe('Canada: `STN MAIN`, `SUCC CENTRE-VILLE`'),
});
export type AddressComponents = z.infer<typeof addressComponentsSchema>;

/**
 * What confirmed the address, strongest first (docs/api.md#address-evidence): a USPS delivery point, an address point
 * of an address file (NAD, OpenAddresses, NAR, RRAD), a TIGER number range of the street, the street alone, the
 * postal code agreeing with the city and state, or nothing beyond the address's form.
 */
export const ADDRESS_EVIDENCE = ['delivery_point', 'address_point', 'street_range', 'street', 'postal_code', 'none'] as const;
export type AddressEvidence = (typeof ADDRESS_EVIDENCE)[number];
export const LOCATION_PRECISIONS = ['rooftop', 'parcel', 'interpolated', 'postal_code'] as const;
export type AddressLocationPrecision = (typeof LOCATION_PRECISIONS)[number];

export const addressLocationSchema = z.object({
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  precision: z.enum(LOCATION_PRECISIONS).describe(
    "`rooftop`: on the building (NAD Placement, NAR); `parcel`: on its property (a parcel centroid, or an OpenAddresses " +
    "point, which does not say where on the property it stands); `interpolated`: " +
    "along a TIGER street segment by the house number; `postal_code`: the postal code's centre (GeoNames, about 1 km)",
  ),
});
export type AddressLocation = z.infer<typeof addressLocationSchema>;

/** What an answer did to one part (./address/component-changes.ts builds them). */
export const COMPONENT_CHANGES = ['none', 'inferred', 'replaced', 'spell_corrected', 'unconfirmed'] as const;
export type ComponentChange = (typeof COMPONENT_CHANGES)[number];
export const CHANGED_COMPONENT_NAMES = [
  'primary_number', 'street', 'unit', 'city', 'state', 'postal_code', 'plus4', 'country',
] as const;
export type ChangedComponentName = (typeof CHANGED_COMPONENT_NAMES)[number];

export const componentChangeSchema = z.object({
  name: z.enum(CHANGED_COMPONENT_NAMES).describe('`street`: predirection, name, suffix and postdirection; `unit`: designator and number'),
  value: z.string().describe('As the answer writes it'),
  input: z.string().nullable().describe('As the text wrote it, where known: the part before its correction, or the value found as written; null when added'),
  change: z.enum(COMPONENT_CHANGES).describe(
    '`none`; `inferred`: added from the rest (a ZIP code from the city, a country from the text); `replaced`: another value put in ' +
    'its place (a ZIP code of another place); `spell_corrected`: a spelling slip mended (`Louisvile`); `unconfirmed`: kept as written, not confirmed by reference data',
  ),
});
export type ComponentChangeEntry = z.infer<typeof componentChangeSchema>;

/**
 * The address engine's answer. New fields go last, so that the clients' generated models (Java records) keep their
 * constructors. `changes`, `missing_unit` and `match_score` are set by ./address/component-changes.ts on every answer
 * the engine gives (optional here for the engine's own steps before it; the HTTP answer requires them).
 */
export const addressResultSchema = z.object({
  status: z.enum(ADDRESS_STATUSES).describe(
    '`verified` delivery point confirmed; `corrected` confirmed by reference data after changing input components; ' +
    '`partial` building confirmed, unit missing or unknown; `plausible` well-formed and consistent but not confirmed ' +
    '(corrections made without reference data say so in `A#`/`B#`/`M#` footnotes); `ambiguous` several candidates; `invalid`',
  ),
  standardized: z.string().nullable().describe('Upper case, one line, postal code included'),
  dpv: z.enum(DPV_CODES).describe('USPS DPV code, or "" when no reference data covers the address'),
  zip4: z.string().nullable().describe('`12345-6789` when the reference data gives the add-on'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
  components: addressComponentsSchema,
  footnotes: z.array(z.string()).describe('Stable-prefix codes (`A#` ZIP, `B#` city/state, `N#` standardized, …)'),
  // Added for issue #50, last.
  evidence: z.enum(ADDRESS_EVIDENCE).describe(
    'What confirmed the address (docs/api.md#address-evidence): `delivery_point` (USPS data holds it), `address_point` ' +
    '(an address file: NAD, OpenAddresses, NAR, RRAD), `street_range` (a TIGER number range of the street: not a house), ' +
    '`street` (the street is known in the postal code, the number not), `postal_code` (postal code, city and state ' +
    'agree), `none`',
  ),
  sources: z.array(z.string()).describe('Ids of the data behind `evidence`: `usps`, `nad`, `openaddresses`, `nar`, `rrad`, `tiger`, `geonames`'),
  location: addressLocationSchema.nullable().describe('Where it is, and how closely; null when not known (or the address is invalid)'),
  // Added for issue #55, last.
  changes: z.array(componentChangeSchema).describe('What changed, part by part (docs/api.md#what-changed): each part the answer has, as written and as answered').optional(),
  missing_unit: z.boolean().describe('The building has units and none was given (USPS DPV `D`): ask for the unit (`next_action` `confirm`, `next_action_reason` `missing_unit`)').optional(),
  match_score: z.number().min(0).max(1).describe('0 to 1: how far the evidence reaches (`delivery_point` 1 … `none` 0.2), less 0.05 a part inferred or spell-corrected, 0.1 a part replaced or a missing unit; 0 when `invalid`').optional(),
});
export type AddressResult = z.infer<typeof addressResultSchema>;

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

export const EMAIL_STATUSES = ['valid', 'invalid', 'risky', 'unknown'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
export const EMAIL_RISKS = ['low', 'medium', 'high'] as const;
export type EmailRisk = (typeof EMAIL_RISKS)[number];
export const SMTP_VERDICTS = ['deliverable', 'undeliverable', 'catch_all', 'mailbox_full', 'disabled', 'unknown', 'pending', 'skipped'] as const;
export type SmtpVerdict = (typeof SMTP_VERDICTS)[number];

/** The e-mail engine's answer; new fields go last (see addressResultSchema). */
export const emailResultSchema = z.object({
  status: z.enum(EMAIL_STATUSES),
  risk: z.enum(EMAIL_RISKS),
  smtp: z.enum(SMTP_VERDICTS).describe('`pending`: the probe goes on past the budget; `skipped`: no probe was made'),
  reason: z.string().describe(
    'Why the status: `syntax` (finer codes after a colon, `syntax:local_too_long`), `no_such_domain`, `no_mail_server`, ' +
    '`null_mx`, `mailbox_not_found`, `disabled`, `catch_all`, `mailbox_full`, `disposable`, `role`, `temp_fail`, ' +
    '`timeout`, `blocked`, `no_connect`, `dns_error`, `accepted`, `typo`, `not_checked`, `reserved_domain` (example.com, ' +
    '`.test`, `.example`, `.invalid`, `.localhost`: never a mailbox), `bounced` (the account reported a hard bounce, ' +
    '`POST /v1/feedback`), …',
  ),
  normalized: z.string().nullable(),
  suggestion: z.string().nullable().describe('A likely intended address when the domain looks mistyped'),
  disposable: z.boolean(),
  role: z.boolean(),
  free: z.boolean(),
  // Issue 54.2, last: a `temp_fail`, `throttled` or `timeout` answer the service keeps asking about (src/email-checks).
  check_id: z.string().optional().describe(
    'On a `temp_fail`, `throttled` or `timeout` answer: the service asks again later; `GET /v1/email-checks/{check_id}` ' +
    'gives the answer that arrives, as do the cache, an `email.verified` event and a batch\'s result row (docs/email.md)',
  ),
  // Issue 54.4, last (src/email-feedback).
  catch_all_score: z.object({
    score: z.number().min(0).max(1).describe('(delivered + 1) / (delivered + bounced + 2) over the account\'s outcomes at the domain'),
    outcomes: z.int().min(0).describe('How many outcomes the score rests on'),
  }).optional().describe(
    'On a catch-all answer, once the account has told outcomes of its mail (`POST /v1/feedback`): how likely a mail to the domain is delivered (docs/email.md#feedback)',
  ),
});
export type EmailResult = z.infer<typeof emailResultSchema>;

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
export const PHONE_STATUSES = ['valid', 'invalid', 'unknown'] as const;
export type PhoneStatus = (typeof PHONE_STATUSES)[number];
export const CARRIER_SOURCES = ['live', 'allocation', 'none'] as const;
export type CarrierSource = (typeof CARRIER_SOURCES)[number];

/** The phone engine's answer; new fields go last (see addressResultSchema). */
export const phoneResultSchema = z.object({
  status: z.enum(PHONE_STATUSES),
  type: z.enum(PHONE_TYPES),
  carrier: z.string().nullable(),
  carrier_source: z.enum(CARRIER_SOURCES).describe(
    '`live`: current carrier from a live look-up; `allocation`: original holder of the number block; `none`',
  ),
  e164: z.string().nullable(),
  country: z.string().nullable(),
  reason: z.string().nullable().optional().describe(
    'Why the number is invalid: `too_short`, `too_long`, `invalid_length`, `invalid_country_code`, `missing_country_code`, ' +
    '`invalid_for_region`, `not_a_number`, `empty`, `emergency_number` (`911`, `112`, …), `short_code` (`411`, an SMS short code)',
  ),
  national: z.string().nullable().optional().describe('National format'),
});
export type PhoneResult = z.infer<typeof phoneResultSchema>;

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
