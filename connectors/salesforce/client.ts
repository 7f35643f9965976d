/**
 * One Salesforce session through jsforce: the OAuth 2.0 grant (client credentials or JWT bearer), a new grant when
 * the session expires (jsforce's own refresh needs a refresh token these flows never get: PLATFORM-NOTES), and REST
 * calls with the org's API usage watched (`Sforce-Limit-Info`) and our own retries: jsforce retries 429/503 on GET
 * only, never a PATCH, and ignores Retry-After.
 */
import crypto from 'node:crypto';
import jsforce from 'jsforce';
import type { Connection, HttpRequest, HttpRequestOptions, HttpResponse } from 'jsforce';
import { ConnectorError, refusalIn, type ConnectorContext, type PlatformFetch, type RetryAdvice } from '../../src/sync/plugin.js';
import { retryAfterMs, withRetries, type RetryPolicy } from '../../src/sync/retry.js';
import { CALL_OPTIONS_CLIENT } from './mapping.js';
import { useGuardedTransport } from './transport.js';

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 };

export type Credentials =
  | { client_id: string; client_secret: string }
  | { client_id: string; username: string; private_key: string }
  | { client_id: string; client_secret?: string; refresh_token: string };

export interface ClientOptions {
  loginUrl: string;
  apiVersion: string;
  credentials: Credentials;
  apiUsageMaxShare: number;
  retry: RetryPolicy;
  onApiUsage?: ConnectorContext<unknown, unknown, unknown>['onApiUsage'];
  log: ConnectorContext<unknown, unknown, unknown>['log'];
  /** Every request (the grant, refreshes, API calls) goes through it: the outbound guard. */
  fetch: PlatformFetch;
  sleep?: (ms: number) => Promise<void>;
}

/** A ConnectorError that keeps Salesforce's `errorCode` (`INVALID_QUERY_LOCATOR`, `INVALID_FIELD`, …). */
export class SalesforceError extends ConnectorError {
  constructor(
    reason: ConstructorParameters<typeof ConnectorError>[0], message: string, readonly errorCode: string, platformMessage: string,
    advice: RetryAdvice = {},
  ) {
    super(reason, message, platformMessage, advice);
  }
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** Salesforce accepts a JWT bearer assertion for at most 3 minutes. */
const ASSERTION_LIFETIME_S = 180;

/** The token request of the flow the credentials are for (a JWT assertion is signed anew each time). */
export function grantOf(credentials: Credentials, loginUrl: string): { grant_type: string; [name: string]: string } {
  // The web-server flow's sessions: a refresh-token grant each (jsforce adds client_id and client_secret).
  if ('refresh_token' in credentials) return { grant_type: 'refresh_token', refresh_token: credentials.refresh_token };
  if ('client_secret' in credentials) return { grant_type: 'client_credentials' };
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = {
    iss: credentials.client_id, sub: credentials.username, aud: loginUrl,
    exp: Math.floor(Date.now() / 1000) + ASSERTION_LIFETIME_S,
  };
  const data = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
  const signature = crypto.sign('RSA-SHA256', Buffer.from(data), credentials.private_key).toString('base64url');
  return { grant_type: JWT_BEARER, assertion: `${data}.${signature}` };
}

export class SalesforceClient {
  readonly conn: Connection;
  /** The session the last new grant gave, and the last one the API answered: a new session is proven once it is used. */
  private renewedToken: string | null = null;
  private provenToken: string | null = null;
  private refreshRefused: Error | null = null;
  private usage: { used: number; limit: number } | null = null;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ClientOptions) {
    const { credentials, loginUrl } = options;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.conn = new jsforce.Connection({
      loginUrl,
      version: options.apiVersion,
      oauth2: { loginUrl, clientId: credentials.client_id, ...('client_secret' in credentials && credentials.client_secret ? { clientSecret: credentials.client_secret } : {}) },
      // An expired session (on a read or on a write-back alike): a new grant, then jsforce sends the call again, once.
      // jsforce joins concurrent 401s into one refresh. A 401 on a session a new grant gave and the API never accepted
      // means the new session is refused too: a real authentication failure, not a loop of grants.
      refreshFn: (conn, callback) => {
        if (this.renewedToken !== null && conn.accessToken === this.renewedToken && this.provenToken !== this.renewedToken) {
          return callback(new Error('INVALID_SESSION_ID: the new session was refused too'));
        }
        this.options.log.info({ loginUrl }, 'salesforce session expired: authenticating again');
        conn.oauth2.requestToken(grantOf(credentials, loginUrl)).then((res) => {
          this.renewedToken = res.access_token;
          this.refreshRefused = null;
          callback(null, res.access_token, res);
        }, (err: Error) => {
          // jsforce keeps only the message of a failed refresh: the guard's refusal is remembered here.
          this.refreshRefused = refusalIn(err);
          callback(err);
        });
      },
    });
    useGuardedTransport(this.conn, options.fetch);
  }

  /** The first grant; refused credentials are `auth_failed`, an unreachable or failing login server `api_error`. */
  async authenticate(): Promise<void> {
    await this.retrying('login', async () => {
      try {
        await this.conn.authorize(grantOf(this.options.credentials, this.options.loginUrl));
      } catch (err) {
        // The guard refused the login URL or a redirect: not the credentials' fault, and no use trying again.
        const refused = refusalIn(err);
        if (refused) throw refused;
        const e = err as Error;
        const serverSide = /^ERROR_HTTP_5\d\d$/.test(e.name) || e.name === 'FetchError';
        if (!serverSide) {
          throw new SalesforceError('auth_failed', 'Salesforce refused the credentials', e.name, `${e.name}: ${e.message}`);
        }
        throw new SalesforceError('api_error', 'Salesforce login failed', e.name, `${e.name}: ${e.message}`, { retryable: true });
      }
    });
  }

  /** `call` with the core's retries (src/sync/retry.ts), told through the log. */
  private retrying<T>(what: string, call: () => Promise<T>): Promise<T> {
    return withRetries(call, {
      policy: this.options.retry,
      sleep: this.sleep,
      onRetry: (attempt, delay, error) => this.options.log.warn({ url: what, attempt, delay, error: error.platformMessage }, 'salesforce call failed: retrying'),
    });
  }

  get instanceUrl(): string {
    return this.conn.instanceUrl;
  }

  /** The integration user the grant signed in as (the token's identity URL names it): its own changes are ours. */
  get userId(): string | null {
    return this.conn.userInfo?.id ?? null;
  }

  get accessToken(): string {
    return this.conn.accessToken ?? '';
  }

  get<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
    return this.call<T>({ method: 'GET', url, headers });
  }

  post<T>(url: string, body: object): Promise<T> {
    return this.call<T>({ method: 'POST', url, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }

  patch<T>(url: string, body: object): Promise<T> {
    return this.call<T>({
      method: 'PATCH', url, body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'Sforce-Call-Options': CALL_OPTIONS_CLIENT },
    });
  }

  private call<T>(request: HttpRequest): Promise<T> {
    return this.retrying(request.url, async () => {
      this.checkApiShare();
      // jsforce's transport, watched: jsforce's errors carry no status nor headers (Retry-After).
      const seen: { response?: HttpResponse } = {};
      const base = this.conn._transport;
      const transport = {
        httpRequest: (req: HttpRequest, opts?: HttpRequestOptions) => {
          const pending = base.httpRequest(req, opts);
          pending.then((res) => {
            seen.response = res;
            if (res.statusCode !== 401) this.provenToken = bearerOf(req);
          }, () => {});
          return pending;
        },
      };
      try {
        // retry.maxRetries 0: jsforce's own retries (GET only, fixed delays) would hide the answers from us.
        const body = await this.conn.request<T>({ ...request, headers: { ...request.headers } }, { transport, retry: { maxRetries: 0 } });
        this.noteApiUsage();
        return body;
      } catch (err) {
        this.noteApiUsage();
        const refused = refusalIn(err) ?? this.refreshRefused;
        if (refused) throw refused;
        throw failureOf(err as Error & { errorCode?: string }, seen.response ?? null);
      }
    });
  }

  /** Stops before the org's daily allowance is used past the share the connector may take. */
  private checkApiShare() {
    if (!this.usage) return;
    const { used, limit } = this.usage;
    if (used + 1 > limit * this.options.apiUsageMaxShare) {
      const message = `API usage ${used}/${limit} reached the connector's share (${this.options.apiUsageMaxShare * 100}%)`;
      throw new SalesforceError('rate_limited', message, 'API_USAGE_SHARE', message);
    }
  }

  /** jsforce reads `Sforce-Limit-Info: api-usage=N/M` off every answer, errors included, into `limitInfo`. */
  private noteApiUsage() {
    const apiUsage = this.conn.limitInfo?.apiUsage;
    if (!apiUsage || (this.usage && apiUsage.used === this.usage.used && apiUsage.limit === this.usage.limit)) return;
    this.usage = { used: apiUsage.used, limit: apiUsage.limit };
    this.options.onApiUsage?.(apiUsage.used, apiUsage.limit);
  }
}

/** The session a request was sent with (jsforce sets `Authorization: Bearer …` before sending). */
function bearerOf(req: HttpRequest): string | null {
  const header = req.headers?.Authorization ?? req.headers?.authorization;
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

/** What a failed call means: the reason, Salesforce's words, and whether (and after how long) to try again. */
function failureOf(err: Error & { errorCode?: string }, response: HttpResponse | null): SalesforceError {
  const status = response?.statusCode ?? null;
  const code = err.errorCode ?? (status ? `ERROR_HTTP_${status}` : err.name);
  const platformMessage = `${code}: ${err.message}`;
  if (/^Unable to refresh session/.test(err.message)) {
    return new SalesforceError('auth_failed', 'Salesforce refused a new session', 'INVALID_SESSION_ID', err.message);
  }
  const wait = retryAfterMs(response?.headers['retry-after']);
  if (code === 'REQUEST_LIMIT_EXCEEDED' || status === 429) {
    return new SalesforceError('rate_limited', 'Salesforce API limit reached', code, platformMessage, { retryable: true, retryAfterMs: wait });
  }
  // 5xx, or no answer at all (connection refused or reset).
  const retryable = status === null || status >= 500;
  return new SalesforceError('api_error', `Salesforce API call failed (${status ?? err.name})`, code, platformMessage, { retryable, retryAfterMs: wait });
}
