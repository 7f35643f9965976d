/**
 * What a connector plugin (`connectors/<platform>/`) gives the shared core (src/sync), and nothing more: its settings,
 * credentials and write-back schemas, the URLs it will call (checked against SSRF by the core), and a session that
 * lists the records changed since a watermark, a page at a time, and writes verdicts back. Runs, watermarks, change
 * detection, credits, schedules and encryption live in the core (Airbyte's and Singer's split: the source knows its
 * platform, the platform knows the rest).
 */
import type { z } from 'zod';
import type { OutboundFetch } from '../net/outbound-guard.js';
import type { AddressResult, EmailResult, PhoneResult } from '../validation/types.js';

/** For plugins: a country field as the ISO code the engines take (null: leave its text in the address). */
export { countryCodeOf } from '../validation/country-codes.js';

/**
 * For plugins: the outbound guard's refusal (a private address, a name that does not resolve, a redirect), found in
 * an error's causes. A plugin neither retries it nor takes it for refused credentials: the core reports it.
 */
export { OutboundRefused, refusalIn } from '../net/outbound-guard.js';
/** The fetch every request of a plugin goes through (the outbound guard: checked addresses, no redirects). */
export type { OutboundFetch as PlatformFetch } from '../net/outbound-guard.js';
/** For a plugin's own requests outside a run (an OAuth token exchange at install): the same guard, built for them. */
export { createGuardedHttp } from '../net/outbound-guard.js';

/** Why a run stopped, in the vocabulary of docs/connectors.md (`credits_exhausted` is the core's own). */
export type ConnectorFailureReason = 'auth_failed' | 'rate_limited' | 'api_error';

/**
 * What a plugin tells the core's retries (src/sync/retry.ts) about a failed call: whether trying again can help (a 5xx,
 * a throttle, no answer), and how long the platform asked to wait (Retry-After, a cost bucket's refill). The core owns
 * the tries, the back-off and the limits.
 */
export interface RetryAdvice {
  retryable?: boolean;
  /** The platform's own wait; absent: the core's back-off. */
  retryAfterMs?: number | null;
}

/** A failure of the platform, with the platform's own words kept for the operator. */
export class ConnectorError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;

  constructor(
    readonly reason: ConnectorFailureReason,
    message: string,
    /** The platform's message (e.g. Salesforce's `errorCode: message`), shown on the run. */
    readonly platformMessage: string | null = null,
    advice: RetryAdvice = {},
  ) {
    super(message);
    this.retryable = advice.retryable ?? false;
    this.retryAfterMs = advice.retryAfterMs ?? null;
  }
}

/** The contact a record holds, as the validation use case takes it (country already an ISO code, or in the text). */
export interface RecordContact {
  address?: string;
  email?: string;
  phone?: string;
  country?: string;
}

export interface PlatformRecord {
  /** Stable and unique within the connector: `Contact:003…`, `customer:gid://…`. */
  key: string;
  contact: RecordContact;
  /**
   * A record paid for once whatever its edits (a store's order: the buyer's corrections are free): its checks are
   * charged under this key instead of one per checked input. Absent: each new input is paid for.
   */
  chargeKey?: string;
  /**
   * Verified long enough ago to be checked again though nothing changed (Salesforce's `reverify_after_days`): every
   * module with a value is validated and paid for anew, once per `reverify` mark (the time it was last verified).
   */
  reverify?: string;
}

/** Where reading stopped, per stream (object or resource): opaque to the core, kept between runs as JSON. */
export type Watermark = Record<string, unknown>;

export interface ChangePage {
  records: PlatformRecord[];
  /** The watermark once this page is done: the core saves it after the page's records are validated and written. */
  watermark: Watermark;
}

/** The verdicts to write onto one record: only the modules validated in this run are present. */
export interface WriteBackItem {
  key: string;
  address?: AddressResult;
  email?: EmailResult;
  phone?: PhoneResult;
  validatedAt: string;
}

export interface WriteBackOutcome {
  key: string;
  ok: boolean;
  /** The platform's reason when the record was not saved (`FIELD_CUSTOM_VALIDATION_EXCEPTION: …`). */
  error?: string;
  /**
   * The record's contact as it will read after this write, when the write changed a checked field (the standardized
   * address written over the typed one): the core takes it as the new baseline, so that its own write never makes
   * the record look changed.
   */
  written?: RecordContact;
}

/** Where a platform's change stream stopped, per channel (Salesforce: the last replay id of each): opaque JSON to the core. */
export type StreamPosition = Record<string, unknown>;

export interface StreamHandlers {
  /**
   * Records created or changed, as the stream told them (the plugin reads them whole), and the position once they are
   * done: the core validates and writes them back, then keeps the position, so that a restart goes on after them.
   * Records the platform says our own write-backs changed never come here; the position still moves past them.
   */
  onRecords(records: PlatformRecord[], position: StreamPosition): Promise<void>;
  /** The stream stopped (the connection dropped, the session was refused, the platform lost events): the core falls back. */
  onDrop(reason: string): void;
}

export interface ChangeStream {
  close(): Promise<void>;
}

export interface ConnectorSession {
  /**
   * Subscribes to the platform's change stream from `position` (the start of what the platform still keeps when it is
   * empty: new changes only) when the settings ask for it; absent for platforms without one.
   */
  listen?(position: StreamPosition, handlers: StreamHandlers): Promise<ChangeStream>;
  /**
   * Pages of records created or changed since `watermark` (all of them when it is empty), in the platform's order.
   * May give records already seen (an overlapping window): the core's change detection drops what did not change.
   */
  changes(watermark: Watermark): AsyncIterable<ChangePage>;
  writeBack(items: WriteBackItem[]): Promise<WriteBackOutcome[]>;
  /**
   * Subscribes the platform's webhooks to `callbackUrl` (this service's endpoint for the platform), adding those
   * missing and leaving the rest; called at the start of each run when PUBLIC_BASE_URL is set.
   */
  ensureWebhooks?(callbackUrl: string): Promise<void>;
  /** The URLs the session calls beyond `urlsOf` (an instance URL the login answered with): the core checks them too. */
  urls?(): string[];
  close?(): Promise<void>;
}

export interface ConnectorContext<S, C, W> {
  settings: S;
  credentials: C;
  writeBack: W;
  /** Every request to the platform goes through this fetch (the outbound guard), never the global one. */
  fetch: OutboundFetch;
  /** Called with the platform's API usage when it tells it (Salesforce's `Sforce-Limit-Info`). */
  onApiUsage?(used: number, limit: number): void;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/**
 * What a check can find wrong before a first run (docs/connectors.md lists them): the credentials, the fields the
 * plugin reads and writes, the permissions they need, the webhooks; the core adds what it finds itself (an address the
 * outbound guard refuses, no credentials held, a platform that does not answer).
 */
export type CheckProblemCode =
  | 'credentials_missing' | 'credentials_refused' | 'platform_unreachable' | 'outbound_refused'
  | 'object_not_accessible' | 'field_missing' | 'field_not_writable' | 'scope_missing' | 'webhook_refused';

/** One thing that keeps a connector from working: a stable code, what is wrong, and what to do about it. */
export interface CheckProblem {
  code: CheckProblemCode;
  message: string;
  fix?: string;
}

export interface CheckContext<S, C, W> extends ConnectorContext<S, C, W> {
  /** This service's endpoint for the platform's webhooks, when PUBLIC_BASE_URL is set (the runs subscribe them then). */
  webhookUrl?: string;
}

export interface ConnectorPlugin<S = unknown, C = unknown, W = unknown> {
  type: string;
  settingsSchema: z.ZodType<S>;
  credentialsSchema: z.ZodType<C>;
  writeBackSchema: z.ZodType<W>;
  /** Every URL the plugin will call with these settings: the core refuses non-https and private addresses. */
  urlsOf(settings: S): string[];
  /**
   * The platform's own name for the account these settings reach (a Shopify shop's domain), stored with the
   * connector so that a webhook delivery finds it. Absent for platforms without webhooks.
   */
  platformKeyOf?(settings: S): string;
  /**
   * The records a webhook delivery (its topic and parsed JSON body) carries, mapped as `changes` maps them; [] for a
   * topic that carries none. Absent for platforms without webhooks.
   */
  recordsOfDelivery?(topic: string, payload: unknown): PlatformRecord[];
  /**
   * Authenticates and opens a session (settings, credentials and write-back as the schemas parsed them, defaults
   * filled in); throws ConnectorError (`auth_failed` for refused credentials).
   */
  open(context: ConnectorContext<S, C, W>): Promise<ConnectorSession>;
  /**
   * Before a first run (Airbyte's `check`): signs in, and finds what would keep a run from reading or writing (fields,
   * permissions, scopes, webhooks), every problem at once, [] when none. Changes nothing on the platform but what a
   * run would set up itself (the webhooks). Refused credentials are a problem, not an error; a platform that does not
   * answer may throw (ConnectorError `api_error`), and the core reports it.
   */
  check(context: CheckContext<S, C, W>): Promise<CheckProblem[]>;
  /**
   * The one-click set-up after a check: creates on the platform what a run needs and the connected user may create
   * (Salesforce: the CV_ fields and the permission set, assigned to the connected user), leaving what is there as it is.
   * Returns what it did, in words. Absent: the check's fixes are done by hand.
   */
  setUp?(context: ConnectorContext<S, C, W>): Promise<string[]>;
}
