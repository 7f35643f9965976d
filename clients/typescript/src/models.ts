// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
/**
 * The service's requests and answers, typed. The service may add members to an answer and values to a vocabulary
 * (docs/api.md#vocabularies): answers keep an index signature and each vocabulary is open at the end
 * (`| (string & {})`), so code compiled against this version keeps working and editors still offer the known values.
 */
import type { ConnectorType, EmailReason } from './types.js';

/** Known values plus any later addition, without losing autocompletion. */
type Open<T extends string> = T | (string & {});

/** `rooftop`: on the building (NAD Placement, NAR); `parcel`: on its property (a parcel centroid, or an OpenAddresses point, which does not say where on the property it stands); `interpolated`: along a TIGER street segment by the house number; `postal_code`: the postal code's centre (GeoNames, about 1 km) */
export const LocationPrecision = {
  Rooftop: 'rooftop',
  Parcel: 'parcel',
  Interpolated: 'interpolated',
  PostalCode: 'postal_code',
} as const;
export type LocationPrecision = Open<(typeof LocationPrecision)[keyof typeof LocationPrecision]>;

/** `verified` delivery point confirmed; `corrected` confirmed by reference data after changing input components; `partial` building confirmed, unit missing or unknown; `plausible` well-formed and consistent but not confirmed (corrections made without reference data say so in `A#`/`B#`/`M#` footnotes); `ambiguous` several candidates; `invalid` */
export const AddressStatus = {
  Verified: 'verified',
  Corrected: 'corrected',
  Partial: 'partial',
  Plausible: 'plausible',
  Ambiguous: 'ambiguous',
  Invalid: 'invalid',
} as const;
export type AddressStatus = Open<(typeof AddressStatus)[keyof typeof AddressStatus]>;

/** USPS DPV code, or "" when no reference data covers the address */
export const Dpv = {
  Confirmed: 'Y',
  NotConfirmed: 'N',
  SecondaryMissing: 'S',
  SecondaryNotConfirmed: 'D',
  NotCovered: '',
} as const;
export type Dpv = Open<(typeof Dpv)[keyof typeof Dpv]>;

/** What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid` */
export const NextAction = {
  Accept: 'accept',
  Confirm: 'confirm',
  Fix: 'fix',
} as const;
export type NextAction = Open<(typeof NextAction)[keyof typeof NextAction]>;

/** What confirmed the address (docs/api.md#address-evidence): `delivery_point` (USPS data holds it), `address_point` (an address file: NAD, OpenAddresses, NAR, RRAD), `street_range` (a TIGER number range of the street: not a house), `street` (the street is known in the postal code, the number not), `postal_code` (postal code, city and state agree), `none` */
export const AddressEvidence = {
  DeliveryPoint: 'delivery_point',
  AddressPoint: 'address_point',
  StreetRange: 'street_range',
  Street: 'street',
  PostalCode: 'postal_code',
  None: 'none',
} as const;
export type AddressEvidence = Open<(typeof AddressEvidence)[keyof typeof AddressEvidence]>;

export const EmailStatus = {
  Valid: 'valid',
  Invalid: 'invalid',
  Risky: 'risky',
  Unknown: 'unknown',
} as const;
export type EmailStatus = Open<(typeof EmailStatus)[keyof typeof EmailStatus]>;

export const EmailRisk = {
  Low: 'low',
  Medium: 'medium',
  High: 'high',
} as const;
export type EmailRisk = Open<(typeof EmailRisk)[keyof typeof EmailRisk]>;

/** `pending`: the probe goes on past the budget; `skipped`: no probe was made */
export const SmtpResult = {
  Deliverable: 'deliverable',
  Undeliverable: 'undeliverable',
  CatchAll: 'catch_all',
  MailboxFull: 'mailbox_full',
  Disabled: 'disabled',
  Unknown: 'unknown',
  Pending: 'pending',
  Skipped: 'skipped',
} as const;
export type SmtpResult = Open<(typeof SmtpResult)[keyof typeof SmtpResult]>;

export const PhoneStatus = {
  Valid: 'valid',
  Invalid: 'invalid',
  Unknown: 'unknown',
} as const;
export type PhoneStatus = Open<(typeof PhoneStatus)[keyof typeof PhoneStatus]>;

export const PhoneType = {
  Mobile: 'mobile',
  Landline: 'landline',
  FixedOrMobile: 'fixed_or_mobile',
  Voip: 'voip',
  TollFree: 'toll_free',
  PremiumRate: 'premium_rate',
  SharedCost: 'shared_cost',
  Personal: 'personal',
  Pager: 'pager',
  Uan: 'uan',
  Voicemail: 'voicemail',
  Unknown: 'unknown',
} as const;
export type PhoneType = Open<(typeof PhoneType)[keyof typeof PhoneType]>;

/** `live`: current carrier from a live look-up; `allocation`: original holder of the number block; `none` */
export const CarrierSource = {
  Live: 'live',
  Allocation: 'allocation',
  None: 'none',
} as const;
export type CarrierSource = Open<(typeof CarrierSource)[keyof typeof CarrierSource]>;

export const BatchStatus = {
  Queued: 'queued',
  Running: 'running',
  Paused: 'paused',
  Completed: 'completed',
  Failed: 'failed',
  Canceled: 'canceled',
} as const;
export type BatchStatus = Open<(typeof BatchStatus)[keyof typeof BatchStatus]>;

export const RunStatus = {
  Running: 'running',
  Completed: 'completed',
  Failed: 'failed',
  Paused: 'paused',
} as const;
export type RunStatus = Open<(typeof RunStatus)[keyof typeof RunStatus]>;

/** `listening`: an instance is subscribed to the change events; `dropped`: the stream broke (a catch-up run reads what was missed, and the stream is taken again from the kept position); `starting`: no instance has subscribed yet; `stopped`: the connector is not active */
export const StreamStatus = {
  Listening: 'listening',
  Dropped: 'dropped',
  Starting: 'starting',
  Stopped: 'stopped',
} as const;
export type StreamStatus = Open<(typeof StreamStatus)[keyof typeof StreamStatus]>;

export const ConnectorStatus = {
  Active: 'active',
  Paused: 'paused',
  Error: 'error',
} as const;
export type ConnectorStatus = Open<(typeof ConnectorStatus)[keyof typeof ConnectorStatus]>;

/** At least one of address, email, phone. `address` is one line (or several, separated by commas or line breaks), or its parts. */
export interface ValidateRequest {
  address?: string | { line1: string; line2?: string; city?: string; state?: string; postal_code?: string; country?: string } | null;
  email?: string | null;
  phone?: string | null;
  country?: string;
  options?: { smtp?: boolean };
}

/** Absent parts are null. */
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
  /** US/Canada: units Pub 28 keeps off the delivery line (`BLDG A`, `FL 3`) */
  extra_secondaries?: string[];
  /** Puerto Rico's `URB` name */
  urbanization?: string | null;
  /** US/Canada: what the delivery line is */
  delivery_type?: Open<'street' | 'po_box' | 'rural_route' | 'highway_contract' | 'military' | 'general_delivery'> | null;
  /** US: the ZIP code's county (GeoNames) */
  county?: string | null;
  /** Canada: `STN MAIN`, `SUCC CENTRE-VILLE` */
  delivery_installation?: string | null;
  [extra: string]: unknown;
}

export interface AddressLocation {
  lat: number;
  lon: number;
  /** `rooftop`: on the building (NAD Placement, NAR); `parcel`: on its property (a parcel centroid, or an OpenAddresses point, which does not say where on the property it stands); `interpolated`: along a TIGER street segment by the house number; `postal_code`: the postal code's centre (GeoNames, about 1 km) */
  precision: LocationPrecision;
  [extra: string]: unknown;
}

export interface AddressResult {
  /** `verified` delivery point confirmed; `corrected` confirmed by reference data after changing input components; `partial` building confirmed, unit missing or unknown; `plausible` well-formed and consistent but not confirmed (corrections made without reference data say so in `A#`/`B#`/`M#` footnotes); `ambiguous` several candidates; `invalid` */
  status: AddressStatus;
  /** Upper case, one line, postal code included */
  standardized: string | null;
  /** USPS DPV code, or "" when no reference data covers the address */
  dpv: Dpv;
  /** `12345-6789` when the reference data gives the add-on */
  zip4: string | null;
  /** ISO 3166-1 alpha-2 */
  country: string | null;
  components: AddressComponents;
  /** Stable-prefix codes (`A#` ZIP, `B#` city/state, `N#` standardized, …) */
  footnotes: string[];
  /** What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid` */
  next_action: NextAction;
  /** What confirmed the address (docs/api.md#address-evidence): `delivery_point` (USPS data holds it), `address_point` (an address file: NAD, OpenAddresses, NAR, RRAD), `street_range` (a TIGER number range of the street: not a house), `street` (the street is known in the postal code, the number not), `postal_code` (postal code, city and state agree), `none` */
  evidence: AddressEvidence;
  /** Ids of the data behind `evidence`: `usps`, `nad`, `openaddresses`, `nar`, `rrad`, `tiger`, `geonames` */
  sources: string[];
  /** Where it is, and how closely; null when not known (or the address is invalid) */
  location: AddressLocation | null;
  /** What changed, part by part (docs/api.md#what-changed): each part the answer has, as written and as answered */
  changes: Array<{ name: Open<'primary_number' | 'street' | 'unit' | 'city' | 'state' | 'postal_code' | 'plus4' | 'country'>; value: string; input: string | null; change: Open<'none' | 'inferred' | 'replaced' | 'spell_corrected' | 'unconfirmed'>; [extra: string]: unknown }>;
  /** The building has units and none was given (USPS DPV `D`): ask for the unit (`next_action` `confirm`, `next_action_reason` `missing_unit`) */
  missing_unit: boolean;
  /** 0 to 1: how far the evidence reaches (`delivery_point` 1 … `none` 0.2), less 0.05 a part inferred or spell-corrected, 0.1 a part replaced or a missing unit; 0 when `invalid` */
  match_score: number;
  /** Which rule made `next_action` more than `accept`: `missing_unit`, `corrections` (a part corrected or added), or `status:<status>`; null for `accept` */
  next_action_reason: Open<'missing_unit' | 'corrections' | 'status:verified' | 'status:corrected' | 'status:partial' | 'status:plausible' | 'status:ambiguous' | 'status:invalid'> | null;
  [extra: string]: unknown;
}

export interface EmailResult {
  status: EmailStatus;
  risk: EmailRisk;
  /** `pending`: the probe goes on past the budget; `skipped`: no probe was made */
  smtp: SmtpResult;
  /** Why the status: `syntax` (finer codes after a colon, `syntax:local_too_long`), `no_such_domain`, `no_mail_server`, `null_mx`, `mailbox_not_found`, `disabled`, `catch_all`, `mailbox_full`, `disposable`, `role`, `temp_fail`, `timeout`, `blocked`, `no_connect`, `dns_error`, `accepted`, `typo`, `not_checked`, `reserved_domain` (example.com, `.test`, `.example`, `.invalid`, `.localhost`: never a mailbox), `bounced` (the account reported a hard bounce, `POST /v1/feedback`), … */
  reason: EmailReason;
  normalized: string | null;
  /** A likely intended address when the domain looks mistyped */
  suggestion: string | null;
  disposable: boolean;
  role: boolean;
  free: boolean;
  /** What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid` */
  next_action: NextAction;
  /** On a `temp_fail`, `throttled` or `timeout` answer: the service asks again later; `GET /v1/email-checks/{check_id}` gives the answer that arrives, as do the cache, an `email.verified` event and a batch's result row (docs/email.md) */
  check_id?: string;
  /** On a catch-all answer, once the account has told outcomes of its mail (`POST /v1/feedback`): how likely a mail to the domain is delivered (docs/email.md#feedback) */
  catch_all_score?: { score: number; outcomes: number; [extra: string]: unknown };
  [extra: string]: unknown;
}

export interface PhoneResult {
  status: PhoneStatus;
  type: PhoneType;
  carrier: string | null;
  /** `live`: current carrier from a live look-up; `allocation`: original holder of the number block; `none` */
  carrier_source: CarrierSource;
  e164: string | null;
  country: string | null;
  /** Why the number is invalid: `too_short`, `too_long`, `invalid_length`, `invalid_country_code`, `missing_country_code`, `invalid_for_region`, `not_a_number`, `empty`, `emergency_number` (`911`, `112`, …), `short_code` (`411`, an SMS short code) */
  reason?: string | null;
  /** National format */
  national?: string | null;
  /** What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid` */
  next_action: NextAction;
  [extra: string]: unknown;
}

export interface Credits {
  charged: number;
  remaining: number;
  [extra: string]: unknown;
}

/** Every module asked for has an object; a module not asked for is null. */
export interface ValidateResponse {
  address: AddressResult | null;
  email: EmailResult | null;
  phone: PhoneResult | null;
  /** null for a publishable key, which reads nothing of the account */
  credits: Credits | null;
  request_id: string;
  response_ms: number;
  /** true when a test key (`cv_test_…`) asked: network checks off, nothing charged (docs/account.md#test-keys) */
  test: boolean;
  /** The most demanding of the modules asked: `fix` if one says fix, else `confirm` if one says confirm, else `accept` */
  next_action: NextAction;
  [extra: string]: unknown;
}

export interface AddressSuggestion {
  /** One line as a form shows it: `6007 APPLEGATE LN, LOUISVILLE, KY 40219` */
  text: string;
  /** The delivery line (number and street), or the street alone; null for a place */
  street: string | null;
  city: string | null;
  /** State or province code */
  state: string | null;
  /** ZIP or Canadian postal code; null for a city of several ZIPs or a Canadian FSA */
  zip: string | null;
  country: Open<'US' | 'CA'>;
  /** `address`: a delivery point of the loaded data (an address file's point, or a number inside a USPS range); `street`: a street of a postal code, without a number; `place`: a city, or a ZIP's or FSA's place */
  kind: Open<'address' | 'street' | 'place'>;
  [extra: string]: unknown;
}

export interface AddressSuggestions {
  /** Best first: with a house number typed, delivery points first; else places and streets */
  suggestions: AddressSuggestion[];
  [extra: string]: unknown;
}

export interface CreditGrant {
  id: string;
  kind: Open<'free' | 'pack' | 'admin'>;
  credits: number;
  remaining: number;
  price_usd: number | null;
  created_at: string;
  expires_at: string;
  expired: boolean;
  [extra: string]: unknown;
}

export interface PublishableScope {
  /** The origins whose pages may use the key (CORS is answered for them alone) */
  origins: string[];
  /** Whether the key may check phone numbers */
  phone: boolean;
  [extra: string]: unknown;
}

export interface ApiKey {
  key_id: string;
  /** The first characters of the key, to recognise it; the key itself is shown only at creation */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** Present for a publishable key */
  publishable?: PublishableScope;
  /** A test key (`cv_test_…`, docs/account.md#test-keys) */
  test: boolean;
  /** Its default policy, when it has one (docs/api.md#policies) */
  policy?: string;
  [extra: string]: unknown;
}

/** Requests charged and credits spent per module over the window */
export interface Usage {
  window_days: number;
  address: ModuleUsage;
  email: ModuleUsage;
  phone: ModuleUsage;
  [extra: string]: unknown;
}

export interface ModuleUsage {
  requests: number;
  credits: number;
  [extra: string]: unknown;
}

/** One e-mail to the owner and one `credits.low` webhook each time the balance falls below the threshold, at most 3 a UTC day */
export interface LowBalanceAlert {
  /** Alert when the balance falls below this many credits; null: no alert */
  threshold: number | null;
  /** false once an alert went out, until credits added bring the balance back at or above the threshold */
  armed: boolean;
  last_alert_at: string | null;
  [extra: string]: unknown;
}

export interface Account {
  account_id: string;
  name: string;
  created_at: string;
  /** Usable credits: what the unexpired grants have left */
  balance: number;
  grants: CreditGrant[];
  /** Requests charged and credits spent per module over the window */
  usage: Usage;
  keys: ApiKey[];
  low_balance_alert: LowBalanceAlert;
  [extra: string]: unknown;
}

export interface UpdateAccountRequest {
  /** Credits; null removes the alert */
  low_balance_threshold: number | null;
}

export interface KeyList {
  keys: ApiKey[];
  [extra: string]: unknown;
}

/** No body (or `{}`): a secret key. `publishable: true` with 1 to 20 origins: a key for web pages. `test: true`: a test key. */
export interface CreateKeyRequest {
  publishable?: boolean;
  origins?: string[];
  phone?: boolean;
  /** A test key (`cv_test_…`): validates with network checks off and charges nothing */
  test?: boolean;
  /** The policy its answers follow unless a request names another (`?policy=`): a preset or one of the account's (docs/api.md#policies) */
  policy?: string;
}

export interface CreatedKey {
  key_id: string;
  /** Shown this once; only its hash is kept */
  api_key: string;
  publishable?: PublishableScope;
  /** `true` for a test key; absent otherwise */
  test?: boolean;
  /** Its default policy, when one was given */
  policy?: string;
  [extra: string]: unknown;
}

export interface RevokedKey {
  key_id: string;
  revoked_at: string;
  [extra: string]: unknown;
}

export interface Batch {
  batch_id: string;
  name: string | null;
  status: BatchStatus;
  /** `credits_exhausted` for a paused batch; why, for a failed one */
  reason: string | null;
  rows_total: number;
  /** Rows processed, the failed ones included */
  rows_done: number;
  rows_failed: number;
  credits_charged: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** When the file and results are deleted (BATCH_RETENTION_DAYS) */
  expires_at: string | null;
  eta_seconds: number | null;
  /** GET /v1/batches/{batch_id} only: its e-mail answers that arrive later (docs/batches.md#answers-that-arrive-later) */
  email_checks?: { pending: number; answered: number; wait_seconds: number; waiting_until: string | null; [extra: string]: unknown };
  [extra: string]: unknown;
}

/** The columns read, as named or as detected from the header */
export interface BatchColumns {
  /** Header names joined with ", " into the one-line address */
  address: string[];
  email: string | null;
  phone: string | null;
  country: string | null;
  /** The feedback column (docs/batches.md#feedback) */
  feedback: string | null;
  [extra: string]: unknown;
}

export interface CreatedBatch extends Batch {
  /** The columns read, as named or as detected from the header */
  columns: BatchColumns;
  /** The delimiter detected: `,`, `;` or tab */
  delimiter: string;
}

export interface BatchList {
  /** Newest first, a page (docs/api.md#lists) */
  batches: Batch[];
  /** Whether older items follow this page */
  has_more: boolean;
  /** While `has_more`: the last item's id, to send as `starting_after` for the next page; else null */
  next_starting_after: string | null;
  [extra: string]: unknown;
}

export interface SalesforceSettings {
  login_url: string;
  api_version?: string;
  objects?: Array<Open<'Contact' | 'Lead'>>;
  page_size?: number;
  api_usage_max_share?: number;
  realtime?: boolean;
  reverify_after_days?: number;
  [extra: string]: unknown;
}

/** Write-only: stored encrypted, never returned */
export type SalesforceCredentials = { client_id: string; client_secret: string } | { client_id: string; username: string; private_key: string } | { client_id: string; client_secret?: string; refresh_token: string };

export interface SalesforceWriteBack {
  overwrite_address?: boolean;
  shadow_fields?: boolean;
  [extra: string]: unknown;
}

export interface SalesforceConnectorInput {
  type: 'salesforce';
  name: string;
  schedule?: string;
  settings: SalesforceSettings;
  credentials: SalesforceCredentials;
  write_back?: SalesforceWriteBack;
  /** Credits the connector may take each calendar month (UTC); reached, it pauses (`credit_cap_reached`) and the owner is mailed */
  credit_cap_monthly?: number | null;
  /** The policy every answer's `next_action` follows, and so what is written on the platform: a preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's (GET /v1/policies); null: the fixed table (docs/api.md#next_action) */
  policy?: string | null;
}

export interface ShopifySettings {
  shop: string;
  api_version?: string;
  resources?: Array<Open<'customers' | 'orders'>>;
  page_size?: number;
  mode?: Open<'warn' | 'block'>;
  hold?: boolean;
  [extra: string]: unknown;
}

/** Write-only: stored encrypted, never returned */
export type ShopifyCredentials = { access_token: string; api_secret: string } | { client_id: string; api_secret: string };

export interface ShopifyWriteBack {
  tags?: boolean;
  metafields?: boolean;
  [extra: string]: unknown;
}

export interface ShopifyConnectorInput {
  type: 'shopify';
  name: string;
  schedule?: string;
  settings: ShopifySettings;
  credentials: ShopifyCredentials;
  write_back?: ShopifyWriteBack;
  /** Credits the connector may take each calendar month (UTC); reached, it pauses (`credit_cap_reached`) and the owner is mailed */
  credit_cap_monthly?: number | null;
  /** The policy every answer's `next_action` follows, and so what is written on the platform: a preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's (GET /v1/policies); null: the fixed table (docs/api.md#next_action) */
  policy?: string | null;
}

/** One variant per platform, told by `type` */
export type CreateConnectorRequest = SalesforceConnectorInput | ShopifyConnectorInput | { type: 'hubspot'; name: string; schedule?: string; settings: { portal_id: number; api_base_url?: string; page_size?: number; [extra: string]: unknown }; credentials: {  }; write_back?: {  }; credit_cap_monthly?: number | null; policy?: string | null };

/** `settings`, `credentials` and `write_back` follow the connector's platform schemas; new credentials clear an `auth_failed` error. */
export interface UpdateConnectorRequest {
  name?: string;
  status?: Open<'active' | 'paused'>;
  schedule?: string;
  settings?: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  write_back?: Record<string, unknown>;
  /** Credits the connector may take each calendar month (UTC); reached, it pauses (`credit_cap_reached`) and the owner is mailed */
  credit_cap_monthly?: number | null;
  /** The policy every answer's `next_action` follows, and so what is written on the platform: a preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's (GET /v1/policies); null: the fixed table (docs/api.md#next_action) */
  policy?: string | null;
}

export interface RunError {
  key: string;
  error: string;
  [extra: string]: unknown;
}

export interface ConnectorRun {
  run_id: string;
  status: RunStatus;
  /** Why a run failed or paused */
  reason: Open<'credits_exhausted' | 'auth_failed' | 'rate_limited' | 'api_error' | 'uninstalled' | 'credit_cap_reached'> | null;
  /** The platform's own words, for the operator */
  message: string | null;
  triggered_by: Open<'schedule' | 'api' | 'cli' | 'webhook' | 'dashboard' | 'stream_dropped' | 'email_check'>;
  started_at: string;
  finished_at: string | null;
  /** Distinct records read */
  records_read: number;
  records_validated: number;
  records_written: number;
  /** Records whose checked fields did not change: free */
  records_skipped: number;
  records_failed: number;
  credits_charged: number;
  /** Per record, the platform's reason */
  errors: RunError[];
  [extra: string]: unknown;
}

export interface ConnectorStream {
  /** `listening`: an instance is subscribed to the change events; `dropped`: the stream broke (a catch-up run reads what was missed, and the stream is taken again from the kept position); `starting`: no instance has subscribed yet; `stopped`: the connector is not active */
  status: StreamStatus;
  /** While `dropped`, the platform's reason */
  detail: string | null;
  [extra: string]: unknown;
}

export interface Connector {
  connector_id: string;
  /** The platform: one of the create body variants */
  type: ConnectorType;
  name: string;
  status: ConnectorStatus;
  reason: Open<'credits_exhausted' | 'auth_failed' | 'rate_limited' | 'api_error' | 'uninstalled' | 'credit_cap_reached' | 'shop_already_connected' | 'shop_claimed'> | null;
  reason_detail: string | null;
  /** A cron expression */
  schedule: string;
  /** The platform's settings, defaults filled in */
  settings: Record<string, unknown>;
  write_back: Record<string, unknown>;
  /** The policy every answer's `next_action` follows, and so the next action each plugin writes beside the statuses: a preset or one of the account's (docs/api.md#policies); null: the fixed table */
  policy: string | null;
  /** Where reading stopped, per stream; opaque */
  watermark: Record<string, unknown>;
  /** What the connector's records may take each calendar month (UTC); null: no cap */
  credit_cap_monthly: number | null;
  /** What the connector's records took this calendar month (UTC) */
  credits_this_month: number;
  last_run: ConnectorRun | null;
  created_at: string;
  updated_at: string;
  /** The change stream of a connector with `settings.realtime` (a platform's change stream, such as Change Data Capture); null without real time */
  realtime: ConnectorStream | null;
  [extra: string]: unknown;
}

export interface ConnectorList {
  connectors: Connector[];
  [extra: string]: unknown;
}

export interface ConnectorRunList {
  /** Newest first, a page (docs/api.md#lists) */
  runs: ConnectorRun[];
  /** Whether older items follow this page */
  has_more: boolean;
  /** While `has_more`: the last item's id, to send as `starting_after` for the next page; else null */
  next_starting_after: string | null;
  [extra: string]: unknown;
}

export interface RunStarted {
  run_id: string;
  [extra: string]: unknown;
}

export interface CreateWebhookEndpointRequest {
  /** https on a public address; the deliveries are POSTed there */
  url: string;
  /** The events to receive */
  events: Array<Open<'batch.completed' | 'batch.paused' | 'batch.failed' | 'connector.run.failed' | 'connector.paused' | 'credits.low' | 'email.verified'>>;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: Array<Open<'batch.completed' | 'batch.paused' | 'batch.failed' | 'connector.run.failed' | 'connector.paused' | 'credits.low' | 'email.verified'>>;
  created_at: string;
  [extra: string]: unknown;
}

export interface CreatedWebhookEndpoint {
  id: string;
  url: string;
  events: Array<Open<'batch.completed' | 'batch.paused' | 'batch.failed' | 'connector.run.failed' | 'connector.paused' | 'credits.low' | 'email.verified'>>;
  created_at: string;
  /** The signing secret, shown this once: `Contact-Validator-Signature` is the HMAC-SHA256 of `<t>.<raw body>` under it */
  secret: string;
  [extra: string]: unknown;
}

export interface WebhookEndpointList {
  /** Newest first */
  webhook_endpoints: WebhookEndpoint[];
  [extra: string]: unknown;
}

export interface WebhookDelivery {
  id: string;
  /** The `id` of the body sent: the same for every attempt, and every endpoint */
  event_id: string;
  type: Open<'batch.completed' | 'batch.paused' | 'batch.failed' | 'connector.run.failed' | 'connector.paused' | 'credits.low' | 'email.verified'>;
  /** `pending`: not yet delivered, tried again at `next_attempt_at`; `failed`: given up after the retry window */
  status: Open<'pending' | 'succeeded' | 'failed'>;
  attempts: number;
  /** The endpoint's last HTTP status; null when it gave none (refused, unreachable, timed out) */
  response_status: number | null;
  /** At most 200 characters of the last answer, or why there was none */
  response_text: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  [extra: string]: unknown;
}

export interface WebhookDeliveryList {
  /** Newest first, a page (docs/api.md#lists) */
  deliveries: WebhookDelivery[];
  /** Whether older items follow this page */
  has_more: boolean;
  /** While `has_more`: the last item's id, to send as `starting_after` for the next page; else null */
  next_starting_after: string | null;
  [extra: string]: unknown;
}

export interface FieldError {
  /** Dotted path of the field, or `(body)` */
  field: string;
  message: string;
  [extra: string]: unknown;
}

export interface ValidateBatchRequest {
  /** 1 to 100 contacts, each a /v1/validate body with its `input_id`; more is 422 `too-many-contacts` */
  contacts: Array<{ address?: string | { line1: string; line2?: string; city?: string; state?: string; postal_code?: string; country?: string } | null; email?: string | null; phone?: string | null; country?: string; options?: { smtp?: boolean }; input_id: string }>;
}

export interface ValidateBatchAnswer {
  /** One per contact, in the order sent */
  results: Array<{ input_id: string; next_action: Open<'accept' | 'confirm' | 'fix'> | null; address: AddressResult | null; email: EmailResult | null; phone: PhoneResult | null; charged: number; problem: { type: Open<'/problems/invalid-json' | '/problems/invalid-request' | '/problems/invalid-header' | '/problems/unauthorized' | '/problems/webhook-unauthorized' | '/problems/session-token-invalid' | '/problems/webhook-signature-invalid' | '/problems/insufficient-credits' | '/problems/origin-not-allowed' | '/problems/module-not-allowed' | '/problems/csrf-failed' | '/problems/email-unconfirmed' | '/problems/owner-only' | '/problems/not-found' | '/problems/method-not-allowed' | '/problems/idempotency-key-in-use' | '/problems/payload-too-large' | '/problems/batch-too-large' | '/problems/contacts-too-large' | '/problems/too-many-contacts' | '/problems/batch-not-ready' | '/problems/batch-not-paused' | '/problems/batch-gone' | '/problems/invalid-csv' | '/problems/connector-busy' | '/problems/webhook-delivery-busy' | '/problems/shop-already-connected' | '/problems/policy-conflict' | '/problems/connectors-not-configured' | '/problems/webhooks-not-configured' | '/problems/shopify-app-not-configured' | '/problems/payments-not-configured' | '/problems/shopify-install-refused' | '/problems/unsupported-media-type' | '/problems/address-undeliverable' | '/problems/idempotency-key-reused' | '/problems/rate-limited' | '/problems/store-refused' | '/problems/internal' | '/problems/database-unavailable' | '/problems/not-ready'>; title: string; status: number; detail?: string; instance?: string; request_id?: string; balance?: number; required?: number; [extra: string]: unknown } | null; [extra: string]: unknown }>;
  /** How many results carry a `problem` instead of an answer */
  failed: number;
  /** `charged`: the whole call; `remaining`: the balance after it */
  credits: Credits;
  request_id: string;
  response_ms: number;
  [extra: string]: unknown;
}

export interface UsageDays {
  days: Array<{ date: string; address: number; email: number; phone: number; credits: number; [extra: string]: unknown }>;
  [extra: string]: unknown;
}

export interface PolicyList {
  /** The named presets, the same on every service (`default` is the fixed table) */
  presets: Array<{ address: { statuses: { verified: Open<'accept' | 'confirm' | 'fix'>; plausible: Open<'accept' | 'confirm' | 'fix'>; corrected: Open<'accept' | 'confirm' | 'fix'>; partial: Open<'accept' | 'confirm' | 'fix'>; ambiguous: Open<'accept' | 'confirm' | 'fix'>; invalid: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; corrections: Open<'accept' | 'confirm' | 'fix'>; missing_unit: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; email: { statuses: { valid: Open<'accept' | 'confirm' | 'fix'>; risky: Open<'accept' | 'confirm' | 'fix'>; unknown: Open<'accept' | 'confirm' | 'fix'>; invalid: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; reasons: Record<string, Open<'accept' | 'confirm' | 'fix'>>; suggestion: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; phone: { statuses: { valid: Open<'accept' | 'confirm' | 'fix'>; unknown: Open<'accept' | 'confirm' | 'fix'>; invalid: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; reasons: Record<string, Open<'accept' | 'confirm' | 'fix'>>; [extra: string]: unknown }; name: Open<'default' | 'signup' | 'checkout' | 'crm_cleanup'>; [extra: string]: unknown }>;
  /** The account's own, by name */
  policies: Policy[];
  [extra: string]: unknown;
}

/** A name, the preset to start from, and any rules to change in it; rules left out are the preset's. */
export interface NewPolicyRequest {
  address?: { statuses?: { verified?: Open<'accept' | 'confirm' | 'fix'>; plausible?: Open<'accept' | 'confirm' | 'fix'>; corrected?: Open<'accept' | 'confirm' | 'fix'>; partial?: Open<'accept' | 'confirm' | 'fix'>; ambiguous?: Open<'accept' | 'confirm' | 'fix'>; invalid?: Open<'accept' | 'confirm' | 'fix'> }; corrections?: Open<'accept' | 'confirm' | 'fix'>; missing_unit?: Open<'accept' | 'confirm' | 'fix'> };
  email?: { statuses?: { valid?: Open<'accept' | 'confirm' | 'fix'>; risky?: Open<'accept' | 'confirm' | 'fix'>; unknown?: Open<'accept' | 'confirm' | 'fix'>; invalid?: Open<'accept' | 'confirm' | 'fix'> }; reasons?: Record<string, Open<'accept' | 'confirm' | 'fix'>>; suggestion?: Open<'accept' | 'confirm' | 'fix'> };
  phone?: { statuses?: { valid?: Open<'accept' | 'confirm' | 'fix'>; unknown?: Open<'accept' | 'confirm' | 'fix'>; invalid?: Open<'accept' | 'confirm' | 'fix'> }; reasons?: Record<string, Open<'accept' | 'confirm' | 'fix'>> };
  /** Unique in the account; not a preset's name */
  name: string;
  /** The preset whose rules the ones given change (default `default`) */
  base?: Open<'default' | 'signup' | 'checkout' | 'crm_cleanup'>;
}

export interface Policy {
  address: { statuses: { verified: Open<'accept' | 'confirm' | 'fix'>; plausible: Open<'accept' | 'confirm' | 'fix'>; corrected: Open<'accept' | 'confirm' | 'fix'>; partial: Open<'accept' | 'confirm' | 'fix'>; ambiguous: Open<'accept' | 'confirm' | 'fix'>; invalid: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; corrections: Open<'accept' | 'confirm' | 'fix'>; missing_unit: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown };
  email: { statuses: { valid: Open<'accept' | 'confirm' | 'fix'>; risky: Open<'accept' | 'confirm' | 'fix'>; unknown: Open<'accept' | 'confirm' | 'fix'>; invalid: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; reasons: Record<string, Open<'accept' | 'confirm' | 'fix'>>; suggestion: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown };
  phone: { statuses: { valid: Open<'accept' | 'confirm' | 'fix'>; unknown: Open<'accept' | 'confirm' | 'fix'>; invalid: Open<'accept' | 'confirm' | 'fix'>; [extra: string]: unknown }; reasons: Record<string, Open<'accept' | 'confirm' | 'fix'>>; [extra: string]: unknown };
  policy_id: string;
  name: string;
  /** The preset it was made from */
  base: Open<'default' | 'signup' | 'checkout' | 'crm_cleanup'>;
  created_at: string;
  updated_at: string;
  [extra: string]: unknown;
}

/** Rules to change; those left out keep their action. */
export interface PolicyChanges {
  address?: { statuses?: { verified?: Open<'accept' | 'confirm' | 'fix'>; plausible?: Open<'accept' | 'confirm' | 'fix'>; corrected?: Open<'accept' | 'confirm' | 'fix'>; partial?: Open<'accept' | 'confirm' | 'fix'>; ambiguous?: Open<'accept' | 'confirm' | 'fix'>; invalid?: Open<'accept' | 'confirm' | 'fix'> }; corrections?: Open<'accept' | 'confirm' | 'fix'>; missing_unit?: Open<'accept' | 'confirm' | 'fix'> };
  email?: { statuses?: { valid?: Open<'accept' | 'confirm' | 'fix'>; risky?: Open<'accept' | 'confirm' | 'fix'>; unknown?: Open<'accept' | 'confirm' | 'fix'>; invalid?: Open<'accept' | 'confirm' | 'fix'> }; reasons?: Record<string, Open<'accept' | 'confirm' | 'fix'>>; suggestion?: Open<'accept' | 'confirm' | 'fix'> };
  phone?: { statuses?: { valid?: Open<'accept' | 'confirm' | 'fix'>; unknown?: Open<'accept' | 'confirm' | 'fix'>; invalid?: Open<'accept' | 'confirm' | 'fix'> }; reasons?: Record<string, Open<'accept' | 'confirm' | 'fix'>> };
}

export interface ConnectorCheck {
  /** No problem keeps the connector from running (warnings may remain) */
  ok: boolean;
  problems: Array<{ code: Open<'credentials_missing' | 'credentials_refused' | 'platform_unreachable' | 'outbound_refused' | 'object_not_accessible' | 'field_missing' | 'field_not_writable' | 'scope_missing' | 'webhook_refused'>; message: string; fix?: string; severity?: Open<'warning'>; [extra: string]: unknown }>;
  [extra: string]: unknown;
}

export interface ShopifyInstallRequest {
  shop: string;
  name?: string;
  schedule?: string;
  settings?: Record<string, unknown>;
}

export interface ShopifyInstallLink {
  /** Open it in the browser of the store's owner: it is valid an hour */
  install_url: string;
  expires_at: string;
  [extra: string]: unknown;
}

export interface FeedbackReport {
  /** The address the mail went to */
  email: string;
  /** `bounced`: a hard bounce (5xx: no such mailbox); `delivered`; `complained`: delivered, and marked as spam */
  outcome: Open<'bounced' | 'delivered' | 'complained'>;
}

export interface FeedbackRecorded {
  /** The address, normalized as the answers normalize it */
  email: string;
  outcome: Open<'bounced' | 'delivered' | 'complained'>;
  /** Its domain, in lower-case A-labels */
  domain: string;
  /** The account's outcomes at the domain, one per address (its latest) */
  domain_outcomes: { delivered: number; bounced: number; complained: number; [extra: string]: unknown };
  /** What the domain's catch-all answers now carry (docs/email.md#feedback) */
  catch_all_score: { score: number; outcomes: number; [extra: string]: unknown };
  [extra: string]: unknown;
}
