/**
 * One shop's Admin GraphQL API through @shopify/shopify-api 13.1.0, with what the library leaves to us
 * (PLATFORM-NOTES): THROTTLED arrives as HTTP 200 and is never retried, so we pace on the cost bucket and wait from
 * `throttleStatus`; 429 and 5xx are retried here with jittered back-off (the library's own retries wait a fixed
 * second); and Shopify's text on a 401 is read off the response ourselves (errors.ts).
 *
 * Two kinds of app: an admin-created custom app's Admin API access token (`shpat_…`, lasts until revoked), or a Dev
 * Dashboard app's client ID and secret, exchanged for a 24-hour token through the client credentials grant
 * (admin-created custom apps can no longer be created since 2026-01-01).
 */
// The adapter sets the library's fetch and runtime hooks: it must load before the library is used.
import '@shopify/shopify-api/adapters/node';
import {
  ApiVersion, HttpResponseError, LogSeverity, shopifyApi, type GraphqlClient, type Session, type Shopify,
} from '@shopify/shopify-api';
import { abstractFetch, setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { refusalIn, type ConnectorContext, type PlatformFetch } from '../../src/sync/plugin.js';
import { withRetries, type RetryPolicy } from '../../src/sync/retry.js';
import { failureOf, ShopifyError, shopifyTextOf, type QueryCost } from './errors.js';

export { ShopifyError } from './errors.js';

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** A custom app's access token, or a Dev Dashboard app's client ID (its secret is `apiSecret`). */
export type AppAuth = { accessToken: string } | { clientId: string };

export interface ClientOptions {
  shop: string;
  apiVersion: string;
  auth: AppAuth;
  /** The app's API secret (client secret): signs webhooks, and with `clientId` obtains tokens. */
  apiSecret: string;
  /** Tests only: every Admin API call goes to this origin instead of `https://{shop}`. */
  adminBaseUrl?: string;
  retry: RetryPolicy;
  timeoutMs: number;
  onApiUsage?: ConnectorContext<unknown, unknown, unknown>['onApiUsage'];
  log: ConnectorContext<unknown, unknown, unknown>['log'];
  /** Every request (the grant, API calls) goes through it: the outbound guard. */
  fetch: PlatformFetch;
  sleep?: (ms: number) => Promise<void>;
}

/** A granted token is asked again this long before it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;

export class ShopifyClient {
  private readonly shopify: Shopify;
  private readonly fetch: typeof abstractFetch;
  private graphql: GraphqlClient | null = null;
  /** When a granted token expires (null: a custom app's token, no expiry). */
  private expires: number | null = null;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The bucket as last told, and when. */
  private bucket: { available: number; maximum: number; restoreRate: number; at: number } | null = null;
  /** What each operation cost last time: the points to have before sending it again. */
  private readonly lastCost = new Map<string, number>();
  /** The guard's last refusal: the library keeps only a fetch error's message. */
  private refused: Error | null = null;

  constructor(private readonly options: ClientOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.fetch = fetchFor(options, (refused) => { this.refused = refused; });
    const { auth } = options;
    this.shopify = shopifyApi({
      apiSecretKey: options.apiSecret,
      ...('accessToken' in auth ? { isCustomStoreApp: true, adminApiAccessToken: auth.accessToken } : { apiKey: auth.clientId }),
      isEmbeddedApp: false,
      // Only OAuth redirects and embedded apps use the app's own host: none here.
      hostName: options.shop,
      apiVersion: options.apiVersion as ApiVersion,
      // The library logs its version at Info on console.log: keep to warnings, in our log.
      logger: { level: LogSeverity.Warning, httpRequests: false, log: (severity, message) => options.log.warn({ severity }, message) },
    });
    if ('accessToken' in auth) this.graphql = this.clientFor(this.shopify.session.customAppSession(options.shop));
  }

  /** A Dev Dashboard app's token, through the client credentials grant (a custom app's token needs nothing). */
  async authenticate(): Promise<void> {
    if ('clientId' in this.options.auth) await this.attempt('grant', () => this.grant());
  }

  /** One operation, paced on the cost bucket and retried on THROTTLED, 429, 5xx and network errors. */
  async request<T>(name: string, operation: string, variables?: Record<string, unknown>): Promise<T> {
    return this.attempt(name, async () => {
      if (this.expires !== null && this.expires - Date.now() < TOKEN_MARGIN_MS) await this.grant();
      await this.pace(name);
      try {
        const response = await this.graphql!.request<T>(operation, { variables });
        this.noteCost(name, response.extensions?.cost as QueryCost | undefined);
        return response.data as T;
      } catch (err) {
        // A granted token revoked or expired early: one new grant, then the call again.
        if (this.expires !== null && (err as { response?: { code?: number } }).response?.code === 401) this.expires = 0;
        throw err;
      }
    });
  }

  /**
   * Of the scopes asked (`read_customers`, …; a write scope grants reading too), those the app was not granted: the
   * token works when this answers at all (`currentAppInstallation.accessScopes`, shopify.dev "AppInstallation").
   */
  async missingScopes(required: string[]): Promise<string[]> {
    const data = await this.request<{ shop: { myshopifyDomain: string }; currentAppInstallation: { accessScopes: { handle: string }[] } }>(
      'checkAccess', 'query ConnectorCheck { shop { myshopifyDomain } currentAppInstallation { accessScopes { handle } } }');
    const granted = new Set(data.currentAppInstallation.accessScopes.map((s) => s.handle));
    return required.filter((scope) => !granted.has(scope) && !granted.has(scope.replace(/^read_/, 'write_')));
  }

  /** The token works and holds the scopes asked; else `auth_failed` naming those missing. */
  async checkAccess(required: string[]): Promise<void> {
    const missing = await this.missingScopes(required);
    if (missing.length) {
      throw new ShopifyError('auth_failed', 'The access token lacks access scopes the connector needs', 'ACCESS_DENIED', `missing access scopes: ${missing.join(', ')}`);
    }
  }

  /**
   * `call` with the core's retries (src/sync/retry.ts): each failure read as a ShopifyError that says whether to try
   * again and after how long (Retry-After, the throttle's refill). A granted token refused early is granted once more
   * at once, within the same try.
   */
  private attempt<T>(name: string, call: () => Promise<T>): Promise<T> {
    let regranted = false;
    const once = async (): Promise<T> => {
      try {
        return await call();
      } catch (err) {
        // The guard refused the address or a redirect: not retried, not the token's fault; the core reports it.
        const refused = refusalIn(err) ?? this.refused;
        if (refused) throw refused;
        const { error, cost } = await failureOf(err);
        this.noteCost(name, cost);
        if (this.expires === 0 && !regranted) {
          regranted = true;
          return once();
        }
        throw error;
      }
    };
    return withRetries(once, {
      policy: this.options.retry,
      sleep: (ms) => this.wait(ms),
      onRetry: (attempt, delay, error) => this.options.log.warn({ operation: name, attempt, delay, error: error.platformMessage }, 'shopify call failed: retrying'),
    });
  }

  private async grant() {
    // The grant reads the library's fetch hook when called (not when built): ours only while it starts the request.
    let pending: Promise<{ session: Session }>;
    this.withFetch(() => { pending = this.shopify.auth.clientCredentials({ shop: this.options.shop }); });
    let session: Session;
    try {
      ({ session } = await pending!);
    } catch (err) {
      const status = err instanceof HttpResponseError ? err.response.code : 0;
      if (status >= 400 && status < 500 && status !== 429) {
        const text = await shopifyTextOf(err as HttpResponseError);
        throw new ShopifyError('auth_failed', 'Shopify refused the client credentials', `HTTP_${status}`, `${status} ${text ?? (err as HttpResponseError).response.statusText}`);
      }
      throw err;
    }
    this.expires = session.expires ? session.expires.getTime() : null;
    this.graphql = this.clientFor(session);
    this.options.log.info({ shop: this.options.shop, expires: session.expires?.toISOString() }, 'shopify token granted');
  }

  /** The GraphQL client captures the fetch hook when it is built (PLATFORM-NOTES). */
  private clientFor(session: Session): GraphqlClient {
    let client: GraphqlClient;
    this.withFetch(() => { client = new this.shopify.clients.Graphql({ session, apiVersion: this.options.apiVersion as ApiVersion }); });
    return client!;
  }

  /** Ours for this client only, then the previous hook back (synchronously): clients with and without a base URL coexist. */
  private withFetch(run: () => void) {
    const previous = abstractFetch;
    setAbstractFetchFunc(this.fetch);
    try { run(); } finally { setAbstractFetchFunc(previous); }
  }

  /** Waits until the bucket should hold what this operation cost last time (a query asked with too few points is refused). */
  private async pace(name: string) {
    const cost = this.lastCost.get(name);
    const b = this.bucket;
    if (!cost || !b) return;
    const available = Math.min(b.maximum, b.available + (b.restoreRate * (Date.now() - b.at)) / 1000);
    if (available >= cost) return;
    const wait = Math.ceil(((cost - available) / b.restoreRate) * 1000);
    this.options.log.info({ operation: name, cost, available, wait }, 'shopify cost bucket low: waiting');
    await this.wait(wait);
  }

  /** Sleeps, and counts the time slept as refilling the bucket (a test's sleep takes no time but stands for it). */
  private async wait(ms: number) {
    const start = Date.now();
    await this.sleep(ms);
    const b = this.bucket;
    if (!b) return;
    const refilled = b.available + (b.restoreRate * (start - b.at + ms)) / 1000;
    this.bucket = { ...b, available: Math.min(b.maximum, refilled), at: Date.now() };
  }

  private noteCost(name: string, cost: QueryCost | undefined) {
    const status = cost?.throttleStatus;
    if (!status) return;
    this.bucket = { available: status.currentlyAvailable, maximum: status.maximumAvailable, restoreRate: status.restoreRate, at: Date.now() };
    if (cost.requestedQueryCost) this.lastCost.set(name, cost.requestedQueryCost);
    this.options.onApiUsage?.(Math.round(status.maximumAvailable - status.currentlyAvailable), status.maximumAvailable);
  }
}

/**
 * This client's fetch: the guard's, with `https://{shop}` sent to the base URL when one is set (tests), and a time limit
 * on every call. A refusal is told to `onRefused` before the library turns it into a message.
 */
function fetchFor(options: ClientOptions, onRefused: (refused: Error) => void): typeof abstractFetch {
  const origin = `https://${options.shop}`;
  return (input, init) => {
    let url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (options.adminBaseUrl && (url === origin || url.startsWith(`${origin}/`))) {
      url = options.adminBaseUrl.replace(/\/+$/, '') + url.slice(origin.length);
    }
    return options.fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(options.timeoutMs) }).catch((err: unknown) => {
      const refused = refusalIn(err);
      if (refused) onRefused(refused);
      throw err;
    });
  };
}
