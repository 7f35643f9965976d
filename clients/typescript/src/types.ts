/**
 * The service's answers, typed (docs/api.md#vocabularies, docs/batches.md, docs/connectors.md). Vocabularies are closed sets on the server's side, but a newer
 * service may add values (docs/api.md#vocabularies allows it): each union is open at the end (`| (string & {})`) so that code
 * compiled against this version keeps working and editors still offer the known values.
 */

/** Known values plus any later addition, without losing autocompletion. */
type Open<T extends string> = T | (string & {});

export const AddressStatus = {
  Verified: 'verified', Corrected: 'corrected', Partial: 'partial', Plausible: 'plausible', Ambiguous: 'ambiguous', Invalid: 'invalid',
} as const;
export type AddressStatus = Open<(typeof AddressStatus)[keyof typeof AddressStatus]>;

/** USPS DPV codes, or `""` when no reference data covers the address. */
export const Dpv = { Confirmed: 'Y', NotConfirmed: 'N', SecondaryMissing: 'S', SecondaryNotConfirmed: 'D', NotCovered: '' } as const;
export type Dpv = Open<(typeof Dpv)[keyof typeof Dpv]>;

export const EmailStatus = { Valid: 'valid', Invalid: 'invalid', Risky: 'risky', Unknown: 'unknown' } as const;
export type EmailStatus = Open<(typeof EmailStatus)[keyof typeof EmailStatus]>;

export const EmailRisk = { Low: 'low', Medium: 'medium', High: 'high' } as const;
export type EmailRisk = Open<(typeof EmailRisk)[keyof typeof EmailRisk]>;

export const SmtpResult = {
  Deliverable: 'deliverable', Undeliverable: 'undeliverable', CatchAll: 'catch_all', MailboxFull: 'mailbox_full',
  Disabled: 'disabled', Unknown: 'unknown', Pending: 'pending', Skipped: 'skipped',
} as const;
export type SmtpResult = Open<(typeof SmtpResult)[keyof typeof SmtpResult]>;

/** Why the e-mail status; `syntax` may carry a finer code after a colon (`syntax:local_too_long`). */
export const EmailReason = {
  Syntax: 'syntax', NoSuchDomain: 'no_such_domain', NoMailServer: 'no_mail_server', NullMx: 'null_mx',
  MailboxNotFound: 'mailbox_not_found', Disabled: 'disabled', CatchAll: 'catch_all', MailboxFull: 'mailbox_full',
  Disposable: 'disposable', Role: 'role', TempFail: 'temp_fail', Timeout: 'timeout', Blocked: 'blocked',
  NoConnect: 'no_connect', DnsError: 'dns_error', Accepted: 'accepted', NotChecked: 'not_checked',
} as const;
export type EmailReason = Open<(typeof EmailReason)[keyof typeof EmailReason] | `syntax:${string}`>;

export const PhoneStatus = { Valid: 'valid', Invalid: 'invalid', Unknown: 'unknown' } as const;
export type PhoneStatus = Open<(typeof PhoneStatus)[keyof typeof PhoneStatus]>;

export const PhoneType = {
  Mobile: 'mobile', Landline: 'landline', FixedOrMobile: 'fixed_or_mobile', Voip: 'voip', TollFree: 'toll_free',
  PremiumRate: 'premium_rate', SharedCost: 'shared_cost', Personal: 'personal', Pager: 'pager', Uan: 'uan',
  Voicemail: 'voicemail', Unknown: 'unknown',
} as const;
export type PhoneType = Open<(typeof PhoneType)[keyof typeof PhoneType]>;

export const CarrierSource = { Live: 'live', Allocation: 'allocation', None: 'none' } as const;
export type CarrierSource = Open<(typeof CarrierSource)[keyof typeof CarrierSource]>;

// ---- POST /v1/validate ----

export interface ValidateRequest {
  /** One line: `1600 Amphitheatre Pkwy, Mountain View, CA 94043`. */
  address?: string;
  email?: string;
  phone?: string;
  /** ISO 3166-1 alpha-2 hint. */
  country?: string;
  options?: { smtp?: boolean };
}

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
  [extra: string]: unknown;
}

export interface AddressResult {
  status: AddressStatus;
  /** Upper case, one line, postal code included. */
  standardized: string | null;
  dpv: Dpv;
  /** `12345-6789` when the reference data gives the add-on. */
  zip4: string | null;
  country: string | null;
  components: AddressComponents;
  footnotes: string[];
  [extra: string]: unknown;
}

export interface EmailResult {
  status: EmailStatus;
  risk: EmailRisk;
  smtp: SmtpResult;
  reason: EmailReason;
  normalized: string | null;
  suggestion: string | null;
  disposable: boolean;
  role: boolean;
  free: boolean;
  [extra: string]: unknown;
}

export interface PhoneResult {
  status: PhoneStatus;
  type: PhoneType;
  carrier: string | null;
  carrier_source: CarrierSource;
  e164: string | null;
  country: string | null;
  [extra: string]: unknown;
}

export interface ValidateResponse {
  /** `null` when no address was asked for. */
  address: AddressResult | null;
  email: EmailResult | null;
  phone: PhoneResult | null;
  /** `null` for publishable keys, which read nothing of the account. */
  credits: { charged: number; remaining: number } | null;
  request_id: string;
  response_ms: number;
}

// ---- Account and keys ----

export interface ApiKey {
  key_id: string;
  /** The first characters of the key, to recognise it; the key itself is shown once, at creation. */
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  [extra: string]: unknown;
}

export interface CreditGrant {
  id: string;
  kind: string;
  credits: number;
  remaining: number;
  price_usd: number | null;
  created_at: string;
  expires_at: string | null;
  expired: boolean;
  [extra: string]: unknown;
}

export interface ModuleUsage { requests: number; credits: number }

export interface Account {
  account_id: string;
  name: string;
  created_at: string;
  balance: number;
  grants: CreditGrant[];
  usage: { window_days: number; address: ModuleUsage; email: ModuleUsage; phone: ModuleUsage };
  keys: ApiKey[];
  [extra: string]: unknown;
}

export interface CreateKeyRequest {
  /** A `cv_pub_…` key for web pages: validates only, only from `origins`. */
  publishable?: boolean;
  origins?: string[];
  /** Lets a publishable key check phones. */
  phone?: boolean;
}

export interface CreatedKey { key_id: string; api_key: string; [extra: string]: unknown }
export interface RevokedKey { key_id: string; revoked_at: string; [extra: string]: unknown }

// ---- Batches ----

export const BatchStatus = {
  Queued: 'queued', Running: 'running', Paused: 'paused', Completed: 'completed', Failed: 'failed', Canceled: 'canceled',
} as const;
export type BatchStatus = Open<(typeof BatchStatus)[keyof typeof BatchStatus]>;

export interface Batch {
  batch_id: string;
  name: string | null;
  status: BatchStatus;
  /** Why `paused` (`credits_exhausted`) or `failed`. */
  reason: string | null;
  rows_total: number;
  /** Rows processed, the failed ones included. */
  rows_done: number;
  rows_failed: number;
  credits_charged: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  expires_at?: string | null;
  eta_seconds: number | null;
  [extra: string]: unknown;
}

/** The answer to an upload: the batch, with the columns the service will read. */
export interface CreatedBatch extends Batch {
  columns: { address: string[]; email: string | null; phone: string | null; country: string | null };
  delimiter?: string;
}

// ---- Connectors ----

export const ConnectorStatus = { Active: 'active', Paused: 'paused', Error: 'error' } as const;
export type ConnectorStatus = Open<(typeof ConnectorStatus)[keyof typeof ConnectorStatus]>;

export const RunStatus = { Running: 'running', Completed: 'completed', Failed: 'failed', Paused: 'paused' } as const;
export type RunStatus = Open<(typeof RunStatus)[keyof typeof RunStatus]>;

export type ConnectorType = Open<'salesforce' | 'shopify'>;

export interface ConnectorRun {
  run_id: string;
  status: RunStatus;
  reason: string | null;
  message?: string | null;
  triggered_by?: Open<'schedule' | 'api' | 'cli' | 'webhook'>;
  started_at: string | null;
  finished_at: string | null;
  records_read: number;
  records_validated: number;
  records_written: number;
  records_skipped: number;
  records_failed: number;
  credits_charged: number;
  errors?: unknown[];
  [extra: string]: unknown;
}

export interface Connector {
  connector_id: string;
  type: ConnectorType;
  name: string;
  status: ConnectorStatus;
  /** `credits_exhausted`, `auth_failed`, `rate_limited`, `api_error`, `uninstalled`. */
  reason?: string | null;
  reason_detail?: string | null;
  schedule: string;
  settings: Record<string, unknown>;
  write_back: Record<string, unknown>;
  watermark?: string | null;
  last_run?: ConnectorRun | null;
  created_at?: string;
  updated_at?: string;
  [extra: string]: unknown;
}

export interface SalesforceConnectorInput {
  type: 'salesforce';
  name: string;
  schedule?: string;
  settings: { login_url: string; api_version?: string; objects?: string[]; [extra: string]: unknown };
  credentials: { client_id: string; client_secret: string };
  write_back?: { overwrite_address?: boolean; [extra: string]: unknown };
}

export interface ShopifyConnectorInput {
  type: 'shopify';
  name: string;
  schedule?: string;
  settings: { shop: string; api_version?: string; resources?: string[]; [extra: string]: unknown };
  credentials: { access_token: string; api_secret?: string };
  write_back?: { tags?: boolean; metafields?: boolean; [extra: string]: unknown };
}

export type CreateConnectorRequest = SalesforceConnectorInput | ShopifyConnectorInput;

export interface UpdateConnectorRequest {
  status?: 'active' | 'paused';
  name?: string;
  schedule?: string;
  settings?: Record<string, unknown>;
  /** Write-only; new credentials clear an `auth_failed` error. */
  credentials?: Record<string, unknown>;
  write_back?: Record<string, unknown>;
}
