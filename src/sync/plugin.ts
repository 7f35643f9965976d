/**
 * What a connector plugin (`connectors/<platform>/`) gives the shared core (src/sync), and nothing more (how to write
 * one: connectors/README.md): its settings,
 * credentials and write-back schemas, the URLs it will call (checked against SSRF by the core), and a session that
 * lists the records changed since a watermark, a page at a time, and writes verdicts back. Runs, watermarks, change
 * detection, credits, schedules and encryption live in the core (Airbyte's and Singer's split: the source knows its
 * platform, the platform knows the rest).
 */
import type { z } from 'zod';
import type { NextAction } from '../contact-check/policies.js';
import type { OutboundFetch } from '../net/outbound-guard.js';
import type { AddressResult, EmailResult, PhoneResult } from '../validation/types.js';
import type { ConnectorRow } from './connector-store.js';
import type { OrderChecks } from './order-checks.js';
import type { OrderPort } from './order-port.js';

/** For plugins: what each module's answer says to do (`accept`, `confirm`, `fix`: docs/api.md#next_action), the values a next-action field takes. */
export { NEXT_ACTIONS, type NextAction } from '../contact-check/policies.js';

/** For plugins: the optional fields an account has, kept a while per account (known-fields.ts). */
export { KnownFields } from './known-fields.js';

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

/**
 * A module's verdict as it is written back: the engine's answer, and what to do with it under the connector's policy
 * (`next_action`; absent only in a write-back owed since before connectors had policies: leave the platform's as it is).
 */
export type WrittenVerdict<T> = T & { next_action?: NextAction };

/** The verdicts to write onto one record: only the modules validated in this run are present. */
export interface WriteBackItem {
  key: string;
  address?: WrittenVerdict<AddressResult>;
  email?: WrittenVerdict<EmailResult>;
  phone?: WrittenVerdict<PhoneResult>;
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
   * The records of these keys, read whole (a webhook action `read`: events that name records without carrying them);
   * keys no longer on the platform are left out. Needed by a plugin whose webhooks answer `read`.
   */
  read?(keys: string[]): Promise<PlatformRecord[]>;
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
  /**
   * `warning`: runs work, but something optional is not written (a field a newer version writes, which a platform set
   * up before lacks: written once it is there); absent: it keeps a run from working.
   */
  severity?: 'warning';
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

  // ---- Issue #53: the contract whole. Each member below is optional; the core serves it for every plugin that
  // ---- declares it (one `/connectors/{type}/connect`, one `/webhooks/{type}`, the dashboard's forms and check page).

  /** How the dashboard names and presents the platform (absent: its `type`). */
  presentation?: PluginPresentation;
  /**
   * How a person connects it, each way one entry (a token form, an OAuth authorization-code flow, an app install):
   * the dashboard renders one form per entry from its fields, and the core serves its steps
   * (`POST /connectors/{type}/connect?method={id}`, `GET /connectors/{type}/callback`).
   */
  connect?: ConnectMethod<S, C, W>[];
  /** The webhooks it receives at `POST /webhooks/{type}`: the signature checked, then each topic mapped to actions. */
  webhooks?: WebhookSpec<C>;
  /**
   * The objects and fields it can read and write with these credentials (Airbyte's `discover`), for the check page
   * and field mapping; signs in like `check`. Refused credentials may throw ConnectorError `auth_failed`.
   */
  discover?(context: ConnectorContext<S, C, W>): Promise<Catalog>;
  /**
   * Work of the plugin's own the core keeps as jobs of the job engine (a store's order checked at purchase), by
   * name: a webhook action `{ kind: 'job', job: name }` stores one before the delivery is answered, and any instance
   * works it under the engine's lease. A handler is written to be repeated (an instance may die in the middle);
   * throwing gives the job back for another attempt.
   */
  jobs?: Record<string, PluginJobHandler>;
  /**
   * Orders checked at purchase (docs/shopify.md), the one port a store plugin implements: built once with the core's
   * order services (OrderChecks: the books, the charge-once check, mail, links). The core's order endpoints and pages
   * reach the plugin that declares it only through the registry (`registry.orders()`).
   */
  orders?(services: OrderChecks): OrderPort;
}

// ---------------------------------------------------------------------------------------------------------------
// Presentation and forms: what the dashboard renders from a declaration, with no per-platform branch.

export interface PluginPresentation {
  /** `Salesforce`, `Shopify`, `HubSpot`. */
  title: string;
  /** One sentence for the connectors page: what it keeps checked. */
  summary?: string;
  /** Pages of the plugin's own beside the check (Shopify's checkout and orders page): `/connectors/{id}/{path}`. */
  links?: { label: string; path: string }[];
  /**
   * What an admin does by hand instead of the one-click set-up, one step each, shown on the check page (text;
   * `backticks` mark a command).
   */
  manualSteps?: string[];
  /** A create body (POST /v1/connectors) and a check answer for the API description's examples. */
  examples?: { create?: Record<string, unknown>; check?: { ok: boolean; problems: CheckProblem[] } };
}

/**
 * One field of a connect form, rendered by the dashboard and read back by the core into the connector's body: the
 * typed value lands at `target` (`settings.shop`, `credentials.access_token`, `write_back.tags`), or stays with the
 * flow (`flow.environment`: read by the plugin's own step, e.g. to choose a login host). `name` and `schedule` are
 * the core's own fields on every form and are not declared.
 */
export interface FormField {
  /** The form's name for the value (unique within a form). */
  name: string;
  /** Where it goes: `settings.<key>`, `credentials.<key>`, `write_back.<key>`, `flow.<key>`; a choice's `sets` may add more. */
  target: `settings.${string}` | `credentials.${string}` | `write_back.${string}` | `flow.${string}`;
  label: string;
  /**
   * `text`, `url`, `secret` (a password input, never shown again, never echoed into a refused form); `checkbox`
   * (true when ticked); `radio`/`select` (one of `choices`); `multi` (checkboxes of `choices`, a list).
   */
  kind: 'text' | 'url' | 'secret' | 'checkbox' | 'radio' | 'select' | 'multi';
  hint?: string;
  required?: boolean;
  /** The value shown at first (`multi`: the values ticked). */
  initial?: string | boolean | string[];
  /** Lower-case the typed text (a shop's domain). */
  lowercase?: boolean;
  choices?: FormChoice[];
}

export interface FormChoice {
  value: string;
  label: string;
  /** Further values this choice sets when chosen (`write_mode=shadow` -> `{ 'write_back.shadow_fields': true }`). */
  sets?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------------
// connect: a token form, an OAuth authorization-code flow (PKCE), or an app install.

/** The connector the core creates from a finished connect step (validated with the plugin's schemas, as POST /v1/connectors). */
export interface ConnectorDraft {
  name?: string;
  schedule?: string;
  settings: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  write_back?: Record<string, unknown>;
}

/** A connect step the plugin refuses, in words for the person (the form comes back with them). */
export class ConnectRefused extends Error {}
/** An install step refused (a bad link, a callback not signed by the platform). */
export class InstallRefused extends ConnectRefused {}
/** Nobody is signed in to the dashboard in this browser: sign in, then the same step goes on. */
export class InstallNeedsSignIn extends InstallRefused {
  constructor() {
    super('Sign in to the dashboard as a member of the account that made this install link, then the install goes on.');
  }
}
/** The person signed in is not a member of the account that made the link. */
export class InstallForAnotherAccount extends InstallRefused {
  constructor() {
    super('This install link was made by another account than the one you are signed in to: nothing was changed. Sign in as a member of the account that made it, or make a link from your own account.');
  }
}

interface ConnectMethodBase {
  /** Stable within the plugin (`token`, `oauth`, `install`): the form's `method`. */
  id: string;
  /** The form's heading (`Connect Salesforce`, `Shopify with a custom app`). */
  title: string;
  /** What the person does, one or two sentences. */
  description?: string;
  /** The submit button's words. */
  submit?: string;
  fields: FormField[];
  /**
   * Null when the service can offer it; otherwise what its operator must set up, shown instead of the form
   * (`SALESFORCE_CLIENT_ID` and `SALESFORCE_CLIENT_SECRET` are not set).
   */
  unavailable(): string | null;
}

/** A form whose fields are the whole connector: credentials typed in (a private app token, client credentials). */
export interface TokenFormConnect extends ConnectMethodBase {
  kind: 'form';
}

/** What the core gives an OAuth flow's steps: this service's callback, and the person's form as typed. */
export interface OAuthStart {
  /** `{base}/connectors/{type}/callback`, as the platform's app must list it. */
  redirectUri: string;
  /** The state the core made (a nonce sealed with the flow in a cookie bound to the person's session). */
  state: string;
  /** PKCE (RFC 7636): the S256 challenge of the verifier the core keeps; absent when the method says `pkce: false`. */
  codeChallenge?: string;
  /** The form as read through the fields' targets. */
  draft: ConnectorDraft;
  /** The `flow.*` fields' values. */
  flow: Record<string, unknown>;
  /** CONNECTOR_ALLOW_PRIVATE (tests): a local stand-in on loopback may be the platform. */
  allowPrivate: boolean;
}

export interface OAuthFinish {
  code: string;
  /** The verifier whose challenge went to the authorize page (PKCE). */
  codeVerifier?: string;
  redirectUri: string;
  /** What `authorize` asked to carry to the callback (`carry`), and the draft as it was then. */
  carried: Record<string, unknown>;
  draft: ConnectorDraft;
  /** The guarded way out for the token exchange (checked addresses, no redirects; private origins under allowPrivate). */
  fetch: OutboundFetch;
  allowPrivate: boolean;
}

/**
 * An OAuth 2.0 authorization-code flow, PKCE by default (Airbyte's `advanced_auth`). The core owns the state nonce,
 * the PKCE verifier, the sealed cookie bound to the person's session, the nonce used once and the connector's
 * creation; the plugin owns the platform's URLs and token exchange.
 */
export interface OAuthConnect extends ConnectMethodBase {
  kind: 'oauth';
  /** Default true. */
  pkce?: boolean;
  /** Older callback paths the platform's apps list (they keep working): served beside `/connectors/{type}/callback`. */
  callbackPaths?: string[];
  /**
   * The platform's authorize URL for this form (throws ConnectRefused for a bad one: never an open redirect), what to
   * carry to the callback (a login host chosen), sealed with the flow, and the origin the code will be exchanged at
   * (checked by the core as every platform URL is; a stand-in on loopback only under CONNECTOR_ALLOW_PRIVATE).
   */
  authorize(start: OAuthStart): Promise<{ location: string; carry?: Record<string, unknown>; tokenOrigin: string }>;
  /**
   * The code exchanged for credentials (a refresh token), through `fetch`; the connector's draft completed (a portal
   * id the token names, as `settings`). Throws ConnectRefused with the platform's refusal.
   */
  exchange(finish: OAuthFinish): Promise<{ credentials: Record<string, unknown>; settings?: Record<string, unknown> }>;
}

/** The person in the browser, signed in to the dashboard. */
export interface ConnectPerson { accountId: string; userId: string; sessionHash: string }

/**
 * What an install's steps get from the core: the person signed in (null: nobody, and the core answers with a sign-in
 * page that comes back), and the install's end, which connects the platform account to the link's account (moving it
 * from another account's connector only when that one's credentials no longer reach it: `holderReaches`).
 */
export interface InstallContext {
  who: ConnectPerson | null;
  connect(accountId: string, draft: ConnectorDraft & { name: string }, how: {
    credentials: () => Promise<Record<string, unknown>>;
    holderReaches: (credentials: Record<string, unknown>) => Promise<boolean>;
  }): Promise<{ connector_id: string; settings: Record<string, unknown> }>;
}

/** A request as the core saw it: the query's strings, the cookie the install set (its name is `cookie`). */
export interface InstallRequest { query: Record<string, string>; cookie: string | undefined }

/**
 * An app installed from the platform's side (Shopify's OAuth install): a signed link made for an account (its
 * dashboard form or `POST /v1/connectors/{type}/install`), opened by a person, approved on the platform, and its
 * callback. The plugin owns the link's signature, the platform's redirect signature and the token exchange; the core
 * owns the routes, the session and the cookie.
 */
export interface AppInstallConnect extends ConnectMethodBase {
  kind: 'install';
  /** The cookie that carries the install's state between the two browser steps, and the path it is set on. */
  cookie: { name: string; path: string };
  /** The paths the platform's app lists (`/shopify/install`, `/shopify/callback`): kept, as merchants' installs hold them. */
  paths: { install: string; callback: string };
  /** Step 1: a signed link for the account (the form's draft). */
  link(accountId: string, draft: ConnectorDraft & { name?: string }): { install_url: string; expires_at: string };
  /** Step 2: where to send the browser, and the cookie to set. */
  authorize(request: InstallRequest, context: InstallContext): { location: string; cookie: string };
  /** Step 3: the platform's callback checked and the account connected. */
  callback(request: InstallRequest, context: InstallContext): Promise<{ connector_id: string; settings: Record<string, unknown> }>;
}

/** One way to connect. (The type parameters are the plugin's, for the reader: a draft is checked by its schemas.) */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type ConnectMethod<S = unknown, C = unknown, W = unknown> = TokenFormConnect | OAuthConnect | AppInstallConnect;

// ---------------------------------------------------------------------------------------------------------------
// webhooks: verify a delivery's signature from the raw request, then map its topics to actions.

/** A delivery as it arrived: what a signature is computed over (HubSpot v3 signs method, URI, body and timestamp). */
export interface WebhookRequest {
  method: string;
  /** The full URL as the platform called it (`https://cv.example.com/webhooks/hubspot?x=1`): PUBLIC_BASE_URL's origin. */
  url: string;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** The body byte for byte: nothing is parsed before the signature is checked. */
  raw: Buffer;
  /** The core's clock, for timestamps a signature covers. */
  now: number;
}

/**
 * A signature check's verdict. `valid`: signed with the claimed account's connector's credentials, so its events speak
 * for that account alone; `valid-app`: signed with the app's own secret (HubSpot's app webhooks), so its events speak
 * for every account they name; `stale`: signed but too old (a replay): acknowledged, not processed.
 */
export type WebhookVerdict = 'valid' | 'valid-app' | 'invalid' | 'stale';

/** One event of a verified delivery: a delivery may hold several (HubSpot batches up to 100, each naming its portal). */
export interface WebhookEvent {
  /** The platform account it concerns (a shop's domain, a portal id): the connector with this platform key gets it. */
  account: string;
  topic: string;
  /**
   * What makes it the same event when delivered again (a hash of its signed content, a platform's event id): seen
   * once per `(type, dedupeKey)`, a repeat is acknowledged and not processed.
   */
  dedupeKey: string;
  payload: unknown;
}

/** What the core does with a verified event of a connector (`handle`'s answer): any number of each. */
export type WebhookAction =
  /** Records to check (read as `changes` reads them): a job of the connector, like a run's page. */
  | { kind: 'records'; records: PlatformRecord[] }
  /** Records named by key only: the job opens a session and reads them (`session.read`), then checks them as `records`. */
  | { kind: 'read'; keys: string[] }
  /**
   * One of the plugin's own jobs (`jobs[job]`), stored before the delivery is answered (its failure fails the answer,
   * so that the platform's retry is taken as new); one live job per connector and `key`.
   */
  | { kind: 'job'; job: string; key: string; payload: Record<string, unknown> }
  /** Work of the plugin's own done after the answer, in the background (waited for at shutdown). */
  | { kind: 'background'; run: () => Promise<unknown> }
  /** The platform let us go (an app uninstalled): the connector paused with `reason`, its credentials replaced by `keep`. */
  | { kind: 'release'; reason: string; keep: Record<string, unknown>; resetWatermark?: boolean }
  /**
   * A privacy request (erase a customer, a shop): what we keep of these records forgotten ('all': every record), and
   * the request recorded with `subject` (whom it is about) and the count deleted (plus `alsoDeleted`).
   */
  | { kind: 'privacy'; forget: string[] | 'all'; subject: string | null; alsoDeleted?: () => Promise<number> };

export interface WebhookHandleContext<C> {
  /** The connector holding the event's account (its status as stored: a paused one's records are not checked). */
  connector: ConnectorRow;
  credentials: C;
}

export interface WebhookSpec<C = unknown> {
  /** Every topic the plugin takes (documented in the OpenAPI description; a delivery of another is acknowledged, unprocessed). */
  topics: readonly string[];
  /** The header that names the topic, and the signature's, for the OpenAPI description (`X-Shopify-Topic`). */
  headers?: { name: string; description: string; required?: boolean; values?: readonly string[] }[];
  /** The largest body a genuine delivery has (default 1 MiB): a larger one is refused 413 before any check. */
  maxBodyBytes?: number;
  /**
   * Refused deliveries per source address and per claimed account per minute (0: off; default 600): past it a
   * refusal is 429 instead of 401 until the minute ends. Counted after the signature was checked, never before.
   */
  refusalsPerMinute?: number;
  /**
   * The platform account the delivery claims, read without trust before the signature is checked (Shopify's
   * `X-Shopify-Shop-Domain`, HubSpot's first event's portal), so that the core can give `verify` that account's
   * connector's credentials; null when it names none the plugin can read (nothing is then counted as refused).
   */
  claimedAccount(request: WebhookRequest): string | null;
  /**
   * Checks the signature, in constant time, with the claimed account's connector's credentials (null: no connector
   * holds it, or none claimed) or the app's own secret the plugin holds: `valid` or `valid-app` says which signed.
   */
  verify(request: WebhookRequest, credentials: C | null): WebhookVerdict;
  /** The events of a verified delivery; null when its body is not what the platform sends (answered 400). */
  events(request: WebhookRequest): WebhookEvent[] | null;
  /**
   * Topics whose deliveries are remembered only `memoryMs` (the frequent record topics); the others (lifecycle,
   * privacy) are remembered for good, so that a replay never pauses or erases a connector again.
   */
  forgetAfter?: { topics: readonly string[]; memoryMs: number };
  /** What a verified event of an active or paused connector means: actions for the core, [] for none. */
  handle(event: WebhookEvent, context: WebhookHandleContext<C>): WebhookAction[] | Promise<WebhookAction[]>;
}

// ---------------------------------------------------------------------------------------------------------------
// discover: the objects and fields a plugin can read and write.

export interface Catalog {
  objects: CatalogObject[];
}

export interface CatalogObject {
  /** The platform's name (`Contact`, `customers`, `contacts`). */
  name: string;
  label?: string;
  readable: boolean;
  writable: boolean;
  fields: CatalogField[];
}

export interface CatalogField {
  name: string;
  label?: string;
  /** The platform's type (`string`, `enumeration`, `datetime`, `metafield`). */
  type: string;
  /** What the plugin uses it for: a contact value it reads, or a verdict it writes. */
  role?: 'email' | 'phone' | 'address' | 'verdict' | 'watermark';
  readable: boolean;
  writable: boolean;
  /** False when the plugin needs it and the platform does not have it (yet): the check's `field_missing`. */
  present?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// jobs of the plugin's own.

export interface PluginJobContext {
  connector: ConnectorRow;
  credentials: Record<string, unknown>;
  log: ConnectorContext<unknown, unknown, unknown>['log'];
}

/** One of the plugin's jobs: the connector as it is now (a deleted one runs nothing), and the payload it was stored with. */
export type PluginJobHandler = (context: PluginJobContext, payload: Record<string, unknown>) => Promise<void>;
