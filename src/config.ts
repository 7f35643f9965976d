/**
 * The service's configuration: the only reader of process.env (docs/operations.md#configuration). Every variable is listed in .env.example.
 */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseSecretKey } from './kit/secrets.js';
import { MAIL_PROVIDER_NAMES, type EmailEngineOptions } from './validation/email/index.js';
import type { PhoneLookupOptions } from './validation/phone/live/create-phone-lookup.js';
import { TWILIO_LOOKUP_BASE_URL } from './validation/phone/live/twilio-lookup-provider.js';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const hostPortList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:\[\]]+)(:\d{1,5})?$/, 'expected host:port')));

/** Per-credit prices of the packs (USD), falling with each tier; `SIZE:PRICE,...`. */
const packPrices = (fallback: string) => z
  .string()
  .default(fallback)
  .transform((s, ctx) => {
    const out = new Map<number, number>();
    for (const part of s.split(',').map((x) => x.trim()).filter(Boolean)) {
      const m = /^(\d+):(\d+(?:\.\d+)?)$/.exec(part);
      if (!m) {
        ctx.addIssue({ code: 'custom', message: `bad pack "${part}", expected SIZE:PRICE_PER_CREDIT` });
        return z.NEVER;
      }
      out.set(Number(m[1]), Number(m[2]));
    }
    return out;
  });

/**
 * TRUST_PROXY, express's `trust proxy`: false (the default: X-Forwarded-* are ignored), a number of proxy hops, or
 * the proxies' addresses and subnets (and express's names loopback, linklocal, uniquelocal). Not `true`: trusting
 * every hop lets any client name its own address, and the per-address limits would count nothing.
 */
const trustProxy = z.string().default('false').transform((text, ctx): false | number | string[] => {
  if (text === 'false') return false;
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const items = text.split(',').map((x) => x.trim()).filter(Boolean);
  const bad = items.find((item) => {
    const [address, bits, extra] = item.split('/');
    return !['loopback', 'linklocal', 'uniquelocal'].includes(item)
      && !(net.isIP(address) && extra === undefined && (bits === undefined || /^\d{1,3}$/.test(bits)));
  });
  if (bad !== undefined || items.length === 0) {
    ctx.addIssue({ code: 'custom', message: `"${bad ?? text}" is not false, a hop count, an address or a subnet (10.0.0.0/8)` });
    return z.NEVER;
  }
  return items;
});

const hostname = os.hostname() || 'localhost';

const schema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'expected sqlite:PATH or postgres://…')
    .default('sqlite:./data/contact-validator.sqlite'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  PUBLISHABLE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  TEST_KEY_REQUESTS_PER_DAY: z.coerce.number().int().min(0).default(1000),
  FAILED_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/, 'redis://[user:password@]host:port[/db] or rediss://…').optional(),
  VALIDATION_BUDGET_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  EMAIL_NETWORK_CHECKS: bool.default(true),
  EMAIL_DNS_SERVERS: hostPortList.optional(),
  EMAIL_SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(25),
  EMAIL_SMTP_ALLOW_PRIVATE: bool.default(false),
  EMAIL_SPECIAL_USE_NAMES_ORDINARY: bool.default(false),
  EMAIL_HELO_NAME: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/, 'a host name').default(hostname),
  EMAIL_MAIL_FROM: z.string().regex(/^[^\s<>@]+@[A-Za-z0-9.-]+$/, 'an address').optional(),
  SMTP_EGRESS_PROBE_HOST: z.string().regex(/^([A-Za-z0-9.-]{1,253}|\[?[0-9a-fA-F:.]+\]?)$/, 'a mail server\'s host name or IP address').optional(),
  SMTP_EGRESS_PROBE_INTERVAL_MS: z.coerce.number().int().min(1_000).default(300_000),
  PHONE_LOOKUP_PROVIDER: z.enum(['none', 'twilio']).default('none'),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  TWILIO_LOOKUP_BASE_URL: z.string().url().default(TWILIO_LOOKUP_BASE_URL),
  CREDIT_PACK_PRICES: packPrices('20000:0.0040,50000:0.0035,100000:0.0030,250000:0.0025,500000:0.0020'),
  FREE_CREDITS: z.coerce.number().int().min(0).default(100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  SERVER_KEEP_ALIVE_MS: z.coerce.number().int().min(1_000).default(65_000),
  REFERENCE_RELOAD_MS: z.coerce.number().int().min(0).default(60_000),
  REFERENCE_INDEX_DIR: z.string().default('./data/reference'),
  REFERENCE_INDEX_MEMORY_ROWS: z.coerce.number().int().min(0).default(100_000),
  BATCH_MAX_BYTES: z.coerce.number().int().min(1).default(100 * 1024 * 1024),
  BATCH_MAX_COLUMNS: z.coerce.number().int().min(1).max(100_000).default(500),
  BATCH_MAX_FIELD_BYTES: z.coerce.number().int().min(16).max(64 * 1024 * 1024).default(65_536),
  BATCH_MAX_ROW_BYTES: z.coerce.number().int().min(64).max(64 * 1024 * 1024).default(1024 * 1024),
  BATCH_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  BATCH_DIR: z.string().default('./data/batches'),
  BATCH_CHUNK_ROWS: z.coerce.number().int().min(1).max(100_000).default(500),
  BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(96),
  BATCH_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(192),
  BATCH_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  BATCH_LEASE_MS: z.coerce.number().int().min(200).default(30_000),
  BATCH_SWEEP_MS: z.coerce.number().int().min(50).default(5_000),
  /** How long a CSV batch waits, after its newest e-mail check was opened, for its answers (src/email-checks); 0: not at all. */
  BATCH_EMAIL_CHECK_WAIT_MS: z.coerce.number().int().min(0).max(4 * 3_600_000).default(15 * 60_000),
  /** The waits before each try of an answer that arrives later (issue 54.2): 1 minute doubling to 4 hours, 9 tries. */
  EMAIL_CHECK_SCHEDULE_MS: z
    .string()
    .default('60000,120000,240000,480000,900000,1800000,3600000,7200000,14400000')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean).map(Number))
    .pipe(z.array(z.number().int().min(100).max(24 * 3_600_000)).min(1).max(50)),
  EMAIL_CHECKS_MAX_PENDING_PER_ACCOUNT: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  EMAIL_CHECKS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(5),
  /** A mail host that says 421 (or a 4.7.x about us) is left alone this long, doubled per refusal in a row, at most the max. */
  EMAIL_HOST_SLOWDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  EMAIL_HOST_SLOWDOWN_MAX_MS: z.coerce.number().int().min(100).max(24 * 3_600_000).default(900_000),
  CONNECTOR_SECRET_KEY: z.string().refine((s) => parseSecretKey(s) !== null, '32 bytes, as 64 hex digits or base64').optional(),
  CONNECTOR_SECRET_KEYS_PREVIOUS: z.string().optional(),
  CONNECTOR_ALLOW_PRIVATE: bool.default(false),
  CONNECTOR_LEASE_MS: z.coerce.number().int().min(200).default(60_000),
  /** How long a connector's check may wait for its platform before it answers `platform_unreachable`. */
  CONNECTOR_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  CONNECTOR_STREAM_POLL_MS: z.coerce.number().int().min(50).default(5_000),
  CONNECTOR_STREAM_RETRY_MS: z.coerce.number().int().min(50).default(5_000),
  WEBHOOKS_ALLOW_PRIVATE: bool.default(false),
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOKS_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
  WEBHOOKS_RETRY_MAX_MS: z.coerce.number().int().min(10).default(3_600_000),
  WEBHOOKS_RETRY_HOURS: z.coerce.number().min(24, 'at least 24 hours').max(24 * 30).default(72),
  WEBHOOKS_TICK_MS: z.coerce.number().int().min(50).default(5_000),
  SHOPIFY_ADMIN_BASE_URL: z.string().url().optional(),
  SALESFORCE_CLIENT_ID: z.string().optional(),
  SALESFORCE_CLIENT_SECRET: z.string().optional(),
  HUBSPOT_CLIENT_ID: z.string().optional(),
  HUBSPOT_CLIENT_SECRET: z.string().optional(),
  HUBSPOT_SCOPES: z.string().optional(),
  HUBSPOT_API_BASE_URL: z.string().url().optional(),
  SHOPIFY_API_KEY: z.string().optional(),
  SHOPIFY_API_SECRET: z.string().optional(),
  SHOPIFY_SCOPES: z.string().default('read_customers,write_customers,read_orders,write_orders,write_merchant_managed_fulfillment_orders'),
  SHOPIFY_WEBHOOKS_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  PUBLIC_BASE_URL: z.string().url().optional(),
  TRUST_PROXY: trustProxy,
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[0-9A-Za-z]+$/, 'a Stripe secret key (sk_live_… or sk_test_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[0-9A-Za-z+/=]+$/, 'a Stripe webhook signing secret (whsec_…)').optional(),
  STRIPE_API_BASE: z.string().url().optional(),
  STRIPE_CURRENCY: z.string().regex(/^[a-z]{3}$/, 'an ISO 4217 code in lower case').default('usd'),
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, 'smtp://user:pass@host:port or smtps://…').optional(),
  MAIL_FROM: z.string().regex(/^[^\r\n]{3,200}$/, 'a From address').optional(),
  SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  SESSION_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24 * 7),
  SIGN_IN_ATTEMPTS_PER_15_MIN: z.coerce.number().int().min(1).default(10),
  SIGN_UPS_PER_15_MIN: z.coerce.number().int().min(1).default(5),
  PASSWORD_SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(15),
});

export type Env = z.input<typeof schema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  rateLimitPerMinute: number;
  /** The scraper's Bearer token for GET /metrics; unset: open (serve it on a private network). */
  metricsToken?: string;
  /** REDIS_URL: where the per-key rate limit counts (every instance the same); unset: PostgreSQL, or memory on SQLite. */
  redisUrl?: string;
  /** Bad keys from one client address per minute before they are answered 429 instead of 401. */
  failedAuthPerMinute: number;
  /** TRUST_PROXY: which proxies' X-Forwarded-For / -Proto to believe (express's `trust proxy`); false: none. */
  trustProxy: false | number | string[];
  /** Requests per client address per minute behind publishable keys (docs/account.md#publishable-keys); 0: off. */
  publishableRateLimitPerMinute: number;
  /** Requests per account per 24 hours with its test keys (docs/account.md#test-keys); 0: off. */
  testKeyRequestsPerDay: number;
  validationBudgetMs: number;
  /** Handed to createEmailEngine as they are. */
  email: Pick<EmailEngineOptions, 'networkChecks' | 'dnsServers' | 'smtpPort' | 'allowPrivate' | 'specialUseNamesOrdinary' | 'heloName' | 'mailFrom' | 'egressProbe' | 'hostSlowdownMs' | 'hostSlowdownMaxMs'>;
  /** SMTP_EGRESS_<NAME>_*: the SOCKS5 proxies the mailbox probe goes out by (docs/email.md); [] : this host's own. */
  smtpEgresses: SmtpEgressConfig[];
  /** Handed to createPhoneLookup as they are. */
  phone: Pick<PhoneLookupOptions, 'provider' | 'accountSid' | 'authToken' | 'baseUrl'>;
  credits: { free: number; packPrices: Map<number, number> };
  logLevel: string;
  shutdownGraceMs: number;
  /** How long an idle keep-alive connection stays open: longer than the load balancer's idle timeout. */
  keepAliveMs: number;
  /** How often a running service looks for new reference imports (the CLI's) and loads them; 0: only at start. */
  referenceReloadMs: number;
  /**
   * The reference index: its files' folder (one file per import, opened read-only by every instance of the machine),
   * and up to how many reference rows it is kept in memory instead (the embedded sample, small imports).
   */
  referenceIndex: { dir: string; memoryRows: number };
  /** Connectors (src/sync): the key credentials are sealed with (and older ones still opened), SSRF, the lease of a connector's jobs. */
  connectors: {
    secretKey: Buffer | null; previousKeys: Buffer[]; allowPrivate: boolean; leaseMs: number; checkTimeoutMs: number;
    /** Change streams (settings.realtime): how often each instance looks for them, and the first wait after a drop. */
    streamPollMs: number; streamRetryMs: number;
    /** Tests only: every Shopify Admin API call goes to this base URL instead of `https://{shop}`. */
    shopifyAdminBaseUrl?: string;
    /** The Shopify app (OAuth install, webhooks' registration): null unless its key, secret and public URL are set. */
    shopifyApp: { apiKey: string; apiSecret: string; scopes: string; publicBaseUrl: string } | null;
    /** The connected app of the dashboard's "Connect Salesforce" (SALESFORCE_CLIENT_ID, SALESFORCE_CLIENT_SECRET). */
    salesforceApp: { clientId: string; clientSecret: string } | null;
    /** The HubSpot app of "Connect HubSpot" and its webhooks (HUBSPOT_CLIENT_ID, HUBSPOT_CLIENT_SECRET, HUBSPOT_SCOPES);
     * tests only: apiBaseUrl (HUBSPOT_API_BASE_URL), where an OAuth code is exchanged instead of api.hubapi.com. */
    hubspot: { app: { clientId: string; clientSecret: string; scopes?: string } | null; apiBaseUrl?: string };
    /** Where Shopify reaches this service (webhook subscriptions are registered only when it is set). */
    publicBaseUrl?: string;
    /** Refused webhook deliveries per shop per minute before that shop's deliveries are answered 429; 0: off. */
    shopifyWebhooksPerMinute: number;
  };
  /** Outgoing webhooks (src/webhooks, docs/webhooks.md): SSRF, each attempt's timeout, the back-off, the tick. */
  webhooks: {
    allowPrivate: boolean; timeoutMs: number; retryBaseMs: number; retryMaxMs: number; retryWindowMs: number;
    /** How often due deliveries and low balances are looked at (besides at once, when an event is emitted). */
    tickMs: number;
  };
  /**
   * The outbound guard (src/net/outbound-guard.ts): the origins an operator pointed somewhere else (STRIPE_API_BASE,
   * SHOPIFY_ADMIN_BASE_URL, a TWILIO_LOOKUP_BASE_URL other than Twilio's), trusted as written: they may be on loopback
   * or a private network. Redirects from them are refused like any other.
   */
  outbound: { privateOrigins: string[] };
  /** Stripe Checkout for credit packs (docs/dashboard.md): null unless the secret key and the webhook secret are set. */
  stripe: { secretKey: string; webhookSecret: string; apiBase?: string; currency: string } | null;
  /** The dashboard's people (src/people, src/web): mail, sessions, sign-in limits, password hashing cost. */
  people: {
    /** SMTP_URL: the relay that sends confirmation, reset and invitation mail; unset, links are only logged. */
    smtpUrl?: string;
    /** Without a relay, whether the log may carry the mail's text (its links): not when NODE_ENV=production. */
    logMail: boolean;
    mailFrom: string;
    /** Signs the links in those mails; unset, a secret generated once and kept in the database (the fleet shares it). */
    sessionSecret?: string;
    sessionMaxAgeMs: number;
    /** Failed sign-ins per e-mail address per 15 minutes (and five times that per client address). */
    signInAttempts: number;
    /** New accounts per client address per 15 minutes. */
    signUpsPerClient: number;
    scryptLogN: number;
    /** Where people reach the dashboard, for links in mail and Stripe's return pages; else the request's own origin. */
    publicBaseUrl?: string;
  };
  /** Answers that arrive later (src/email-checks): the waits before each try, an account's cap, tries begun a second. */
  emailChecks: { scheduleMs: number[]; maxPendingPerAccount: number; perSecond: number };
  /** CSV batches and the bulk pipeline (src/bulk, src/batches). */
  batch: {
    maxBytes: number;
    /** The most columns a row may have, and the most bytes a field and a row may hold (checked while the upload streams). */
    maxColumns: number;
    maxFieldBytes: number;
    maxRowBytes: number;
    retentionDays: number;
    dir: string;
    chunkRows: number;
    /** Records in flight per job, and in the whole process. */
    perJob: number;
    overall: number;
    /** Chunks worked on at once in one process. */
    workers: number;
    /** BATCH_EMAIL_CHECK_WAIT_MS: how long a batch waits for its e-mail answers that arrive later. */
    emailCheckWaitMs: number;
    leaseMs: number;
    sweepMs: number;
  };
}

export interface SmtpEgressConfig {
  /** NAME of SMTP_EGRESS_<NAME>_URL, in lower case. */
  name: string;
  proxy: { host: string; port: number; username?: string; password?: string };
  heloName: string;
  mailFrom: string;
  /** Provider names (mail-provider-policies.ts); null: every provider no other egress names. */
  providers: string[] | null;
}

export class ConfigError extends Error {}

const EGRESS_VARIABLE = /^SMTP_EGRESS_([A-Z0-9]+)_(URL|HELO|MAIL_FROM|PROVIDERS)$/;
const EGRESS_SETTINGS = new Set(['SMTP_EGRESS_PROBE_HOST', 'SMTP_EGRESS_PROBE_INTERVAL_MS']);

/** socks5://user:password@host:port (RFC 1928, RFC 1929; user and password percent-encoded). Not socks5h: we resolve. */
const socksUrl = z.string().transform((text, ctx) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected socks5://user:password@host:port' });
    return z.NEVER;
  }
  if (url.protocol !== 'socks5:' || !url.hostname || url.pathname.replace(/^\/$/, '') || url.search) {
    ctx.addIssue({ code: 'custom', message: 'expected socks5://user:password@host:port (socks5h is refused: the service resolves the MX names itself)' });
    return z.NEVER;
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : 1080,
    ...(url.username ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : {}),
  };
});

const EGRESS_FIELDS = {
  URL: socksUrl,
  HELO: z.string().regex(/^[A-Za-z0-9.-]{1,253}$/, "a host name: the egress address's reverse DNS name"),
  MAIL_FROM: z.string().regex(/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9.-]{1,253}$/, 'an address at a domain of the HELO name'),
  PROVIDERS: z.string().transform((s) => s.split(',').map((x) => x.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.enum(MAIL_PROVIDER_NAMES as [string, ...string[]], { message: `one of ${MAIL_PROVIDER_NAMES.join(', ')}` })).min(1)),
} as const;

/**
 * SMTP_EGRESS_<NAME>_URL (required), _HELO (required: the name the proxy's address resolves back to), _MAIL_FROM
 * (default verify@<HELO>) and _PROVIDERS (default: every provider no other egress names), one set per egress. Any other
 * SMTP_EGRESS_ variable is refused by name: a mistyped one would otherwise be a setting silently not in force.
 */
function smtpEgresses(env: Record<string, string>): SmtpEgressConfig[] {
  const byName = new Map<string, Partial<Record<keyof typeof EGRESS_FIELDS, string>>>();
  const problems: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith('SMTP_EGRESS_') || EGRESS_SETTINGS.has(key)) continue;
    const match = EGRESS_VARIABLE.exec(key);
    if (!match) {
      problems.push(`${key}: not a setting (SMTP_EGRESS_<NAME>_URL, _HELO, _MAIL_FROM, _PROVIDERS; NAME of letters and digits)`);
      continue;
    }
    byName.set(match[1], { ...byName.get(match[1]), [match[2]]: value });
  }
  const egresses: SmtpEgressConfig[] = [];
  for (const [name, fields] of byName) {
    const read = <K extends keyof typeof EGRESS_FIELDS>(field: K): z.output<(typeof EGRESS_FIELDS)[K]> | undefined => {
      const text = fields[field];
      if (text === undefined) return undefined;
      const parsed = EGRESS_FIELDS[field].safeParse(text);
      if (parsed.success) return parsed.data as z.output<(typeof EGRESS_FIELDS)[K]>;
      problems.push(`SMTP_EGRESS_${name}_${field}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      return undefined;
    };
    const proxy = read('URL');
    const heloName = read('HELO');
    const mailFrom = read('MAIL_FROM');
    const providers = read('PROVIDERS');
    if (fields.URL === undefined) problems.push(`SMTP_EGRESS_${name}_URL: missing (socks5://user:password@host:port), needed by the other SMTP_EGRESS_${name}_ settings`);
    if (fields.HELO === undefined) problems.push(`SMTP_EGRESS_${name}_HELO: missing (the host name the egress address's reverse DNS gives)`);
    if (proxy && heloName) egresses.push({ name: name.toLowerCase(), proxy, heloName, mailFrom: mailFrom ?? `verify@${heloName}`, providers: providers ?? null });
  }
  const defaults = egresses.filter((e) => e.providers === null).map((e) => `SMTP_EGRESS_${e.name.toUpperCase()}_PROVIDERS`);
  if (defaults.length > 1) problems.push(`${defaults.join(', ')}: at most one egress may carry every provider; name the providers of the others`);
  const carriers = new Map<string, string[]>();
  for (const e of egresses) for (const p of e.providers ?? []) carriers.set(p, [...(carriers.get(p) ?? []), `SMTP_EGRESS_${e.name.toUpperCase()}_PROVIDERS`]);
  for (const [provider, names] of carriers) if (names.length > 1) problems.push(`${names.join(', ')}: ${provider} is named by more than one egress`);
  if (problems.length) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  return egresses.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Reads `.env` in the working directory, or the file ENV_FILE names, into process.env, as the service and the command
 * line start (issue 52.3). A variable the environment already has, even empty, wins over the file: Node's own reader
 * (process.loadEnvFile, the parser of `node --env-file`) never overwrites one. No `.env` is no error; an ENV_FILE that
 * cannot be read is. Returns the file read, or null.
 */
export function loadEnvironmentFile(): string | null {
  const named = process.env.ENV_FILE;
  const file = path.resolve(named || '.env');
  try {
    process.loadEnvFile(file);
  } catch (err) {
    if (!named && (err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ConfigError(`invalid configuration:\n  ENV_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return file;
}

/** CONNECTOR_SECRET_KEYS_PREVIOUS: comma-separated keys that sealed older credentials (rotation). */
function previousKeys(text: string | undefined): Buffer[] {
  if (!text) return [];
  return text.split(',').map((k) => k.trim()).filter(Boolean).map((k) => {
    const key = parseSecretKey(k);
    if (!key) throw new ConfigError('invalid configuration:\n  CONNECTOR_SECRET_KEYS_PREVIOUS: each key 32 bytes, as 64 hex digits or base64');
    return key;
  });
}

/** Reads the configuration from an environment (process.env by default); throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable counts as unset, as in most twelve-factor tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.PHONE_LOOKUP_PROVIDER === 'twilio' && (!e.TWILIO_ACCOUNT_SID || !e.TWILIO_AUTH_TOKEN)) {
    throw new ConfigError('invalid configuration:\n  PHONE_LOOKUP_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError('invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together: set both or neither');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    publishableRateLimitPerMinute: e.PUBLISHABLE_RATE_LIMIT_PER_MINUTE,
    testKeyRequestsPerDay: e.TEST_KEY_REQUESTS_PER_DAY,
    failedAuthPerMinute: e.FAILED_AUTH_PER_MINUTE,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
    redisUrl: e.REDIS_URL,
    validationBudgetMs: e.VALIDATION_BUDGET_MS,
    email: {
      networkChecks: e.EMAIL_NETWORK_CHECKS,
      dnsServers: e.EMAIL_DNS_SERVERS,
      smtpPort: e.EMAIL_SMTP_PORT,
      allowPrivate: e.EMAIL_SMTP_ALLOW_PRIVATE,
      specialUseNamesOrdinary: e.EMAIL_SPECIAL_USE_NAMES_ORDINARY,
      heloName: e.EMAIL_HELO_NAME,
      mailFrom: e.EMAIL_MAIL_FROM ?? `verify@${e.EMAIL_HELO_NAME}`,
      hostSlowdownMs: e.EMAIL_HOST_SLOWDOWN_MS,
      hostSlowdownMaxMs: Math.max(e.EMAIL_HOST_SLOWDOWN_MAX_MS, e.EMAIL_HOST_SLOWDOWN_MS),
      egressProbe: e.SMTP_EGRESS_PROBE_HOST
        ? { host: e.SMTP_EGRESS_PROBE_HOST.replace(/^\[(.*)\]$/, '$1'), intervalMs: e.SMTP_EGRESS_PROBE_INTERVAL_MS }
        : undefined,
    },
    smtpEgresses: smtpEgresses(cleaned as Record<string, string>),
    phone: {
      provider: e.PHONE_LOOKUP_PROVIDER,
      accountSid: e.TWILIO_ACCOUNT_SID,
      authToken: e.TWILIO_AUTH_TOKEN,
      baseUrl: e.TWILIO_LOOKUP_BASE_URL,
    },
    credits: { free: e.FREE_CREDITS, packPrices: e.CREDIT_PACK_PRICES },
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    keepAliveMs: e.SERVER_KEEP_ALIVE_MS,
    referenceReloadMs: e.REFERENCE_RELOAD_MS,
    referenceIndex: { dir: e.REFERENCE_INDEX_DIR, memoryRows: e.REFERENCE_INDEX_MEMORY_ROWS },
    connectors: {
      secretKey: e.CONNECTOR_SECRET_KEY ? parseSecretKey(e.CONNECTOR_SECRET_KEY) : null,
      previousKeys: previousKeys(e.CONNECTOR_SECRET_KEYS_PREVIOUS),
      allowPrivate: e.CONNECTOR_ALLOW_PRIVATE,
      leaseMs: e.CONNECTOR_LEASE_MS,
      checkTimeoutMs: e.CONNECTOR_CHECK_TIMEOUT_MS,
      streamPollMs: e.CONNECTOR_STREAM_POLL_MS,
      streamRetryMs: e.CONNECTOR_STREAM_RETRY_MS,
      shopifyAdminBaseUrl: e.SHOPIFY_ADMIN_BASE_URL,
      shopifyApp: e.SHOPIFY_API_KEY && e.SHOPIFY_API_SECRET && e.PUBLIC_BASE_URL
        ? { apiKey: e.SHOPIFY_API_KEY, apiSecret: e.SHOPIFY_API_SECRET, scopes: e.SHOPIFY_SCOPES, publicBaseUrl: e.PUBLIC_BASE_URL }
        : null,
      salesforceApp: e.SALESFORCE_CLIENT_ID && e.SALESFORCE_CLIENT_SECRET
        ? { clientId: e.SALESFORCE_CLIENT_ID, clientSecret: e.SALESFORCE_CLIENT_SECRET }
        : null,
      hubspot: {
        app: e.HUBSPOT_CLIENT_ID && e.HUBSPOT_CLIENT_SECRET
          ? { clientId: e.HUBSPOT_CLIENT_ID, clientSecret: e.HUBSPOT_CLIENT_SECRET, ...(e.HUBSPOT_SCOPES ? { scopes: e.HUBSPOT_SCOPES } : {}) }
          : null,
        apiBaseUrl: e.HUBSPOT_API_BASE_URL,
      },
      publicBaseUrl: e.PUBLIC_BASE_URL,
      shopifyWebhooksPerMinute: e.SHOPIFY_WEBHOOKS_PER_MINUTE,
    },
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
      timeoutMs: e.WEBHOOKS_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOKS_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.WEBHOOKS_RETRY_BASE_MS, e.WEBHOOKS_RETRY_MAX_MS),
      retryWindowMs: Math.round(e.WEBHOOKS_RETRY_HOURS * 3_600_000),
      tickMs: e.WEBHOOKS_TICK_MS,
    },
    outbound: {
      privateOrigins: [e.STRIPE_API_BASE, e.SHOPIFY_ADMIN_BASE_URL, e.TWILIO_LOOKUP_BASE_URL]
        .filter((url): url is string => url !== undefined && url !== TWILIO_LOOKUP_BASE_URL)
        .map((url) => new URL(url).origin),
    },
    stripe: e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE, currency: e.STRIPE_CURRENCY }
      : null,
    people: {
      smtpUrl: e.SMTP_URL,
      logMail: e.NODE_ENV !== 'production',
      mailFrom: e.MAIL_FROM ?? `contact-validator <no-reply@${e.EMAIL_HELO_NAME}>`,
      sessionSecret: e.SESSION_SECRET,
      sessionMaxAgeMs: e.SESSION_MAX_AGE_HOURS * 3_600_000,
      signInAttempts: e.SIGN_IN_ATTEMPTS_PER_15_MIN,
      signUpsPerClient: e.SIGN_UPS_PER_15_MIN,
      scryptLogN: e.PASSWORD_SCRYPT_LOG_N,
      publicBaseUrl: e.PUBLIC_BASE_URL,
    },
    batch: {
      maxBytes: e.BATCH_MAX_BYTES,
      maxColumns: e.BATCH_MAX_COLUMNS,
      maxFieldBytes: e.BATCH_MAX_FIELD_BYTES,
      maxRowBytes: e.BATCH_MAX_ROW_BYTES,
      retentionDays: e.BATCH_RETENTION_DAYS,
      dir: e.BATCH_DIR,
      chunkRows: e.BATCH_CHUNK_ROWS,
      perJob: e.BATCH_CONCURRENCY,
      overall: e.BATCH_MAX_IN_FLIGHT,
      workers: e.BATCH_WORKERS,
      leaseMs: e.BATCH_LEASE_MS,
      sweepMs: e.BATCH_SWEEP_MS,
      emailCheckWaitMs: e.BATCH_EMAIL_CHECK_WAIT_MS,
    },
    emailChecks: {
      scheduleMs: e.EMAIL_CHECK_SCHEDULE_MS, maxPendingPerAccount: e.EMAIL_CHECKS_MAX_PENDING_PER_ACCOUNT,
      perSecond: e.EMAIL_CHECKS_PER_SECOND,
    },
  };
}
