/**
 * One HubSpot account reached with @hubspot/api-client's generated APIs (CRM contacts, properties, OAuth) on the
 * core's fetch (http.ts). Tokens: a private app's token as it is; an OAuth app's access token (30 minutes) from the
 * refresh token, renewed five minutes before it expires and at once when HubSpot answers 401 (one new grant, then the
 * call again). Retries are the core's (src/sync/retry.ts): the library's own (`numberOfApiCallRetries`, bottleneck)
 * are not used, so a 429 waits what HubSpot's window says and a daily limit ends the run without a wasted try.
 */
import * as contacts from '@hubspot/api-client/lib/codegen/crm/contacts/index.js';
import * as properties from '@hubspot/api-client/lib/codegen/crm/properties/index.js';
import * as oauth from '@hubspot/api-client/lib/codegen/oauth/index.js';
import type { ConnectorContext, PlatformFetch } from '../../src/sync/plugin.js';
import { withRetries, type RetryPolicy } from '../../src/sync/retry.js';
import { HubspotError, httpLibrary, send, type TransportOptions } from './http.js';
import type { HubspotContact } from './mapping.js';
import type { HubspotProperty } from './properties.js';

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 1000, maxDelayMs: 60_000, maxElapsedMs: 5 * 60_000 };
/** A token this close to its expiry is renewed before the call (HubSpot's last 30 minutes). */
const TOKEN_MARGIN_MS = 5 * 60_000;

export type HubspotAuth =
  | { accessToken: string }
  | { clientId: string; clientSecret: string; refreshToken: string };

export interface ClientOptions {
  baseUrl: string;
  auth: HubspotAuth;
  fetch: PlatformFetch;
  retry: RetryPolicy;
  timeoutMs: number;
  /** The least time between two CRM searches (HubSpot's search API takes about five a second per account). */
  searchIntervalMs: number;
  onApiUsage?: (used: number, limit: number) => void;
  log: ConnectorContext<unknown, unknown, unknown>['log'];
  sleep?: (ms: number) => Promise<void>;
}

/** Whose token this is and what it may do: `/oauth/v1/access-tokens/{token}`, or a private app's token info. */
export interface TokenInfo { hubId: number; scopes: string[]; appId: number | null }

export interface SearchRequest {
  filterGroups: { filters: { propertyName: string; operator: string; value?: string }[] }[];
  sorts: { propertyName: string; direction: 'ASCENDING' | 'DESCENDING' }[];
  properties: string[];
  limit: number;
  after?: string;
}
export interface SearchPage { total: number; results: HubspotContact[]; paging?: { next?: { after: string } } }
export interface BatchError { status?: string; category?: string; message: string; context?: { ids?: string[] } }
export interface BatchResult { results: HubspotContact[]; errors?: BatchError[] }

export class HubspotClient {
  /** The token held, and when to renew it (null: never, a private app's). */
  private access: { token: string; renewAt: number | null } | null = null;
  private refreshing: Promise<void> | null = null;
  private lastSearch = 0;
  private readonly contacts: { search: contacts.SearchApi; batch: contacts.BatchApi };
  private readonly properties: { core: properties.CoreApi; groups: properties.GroupsApi };
  private readonly oauth: { tokens: oauth.TokensApi; info: oauth.AccessTokensApi };
  private readonly transport: TransportOptions;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ClientOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    if ('accessToken' in options.auth) this.access = { token: options.auth.accessToken, renewAt: null };
    this.transport = {
      fetch: options.fetch, timeoutMs: options.timeoutMs, token: () => this.access?.token ?? '',
      onAnswer: (headers) => this.noteUsage(headers),
    };
    const base = options.baseUrl.replace(/\/+$/, '');
    const c = contacts.createConfiguration({
      baseServer: new contacts.ServerConfiguration(base, {}),
      httpApi: contacts.wrapHttpLibrary(httpLibrary(this.transport, contacts.ResponseContext)),
    });
    this.contacts = { search: new contacts.SearchApi(c), batch: new contacts.BatchApi(c) };
    const p = properties.createConfiguration({
      baseServer: new properties.ServerConfiguration(base, {}),
      httpApi: properties.wrapHttpLibrary(httpLibrary(this.transport, properties.ResponseContext)),
    });
    this.properties = { core: new properties.CoreApi(p), groups: new properties.GroupsApi(p) };
    // The token endpoint takes the client's secret in its form, never a bearer token.
    const o = oauth.createConfiguration({
      baseServer: new oauth.ServerConfiguration(base, {}),
      httpApi: oauth.wrapHttpLibrary(httpLibrary({ fetch: options.fetch, timeoutMs: options.timeoutMs }, oauth.ResponseContext)),
    });
    this.oauth = { tokens: new oauth.TokensApi(o), info: new oauth.AccessTokensApi(o) };
  }

  get baseUrl() { return this.options.baseUrl; }

  /** A working access token (an OAuth app's granted now when none is held): `auth_failed` when HubSpot refuses. */
  async authenticate(): Promise<void> {
    await this.attempt('token', async () => this.ensureToken());
  }

  async tokenInfo(): Promise<TokenInfo> {
    return this.call('tokenInfo', async () => {
      const token = this.access!.token;
      if ('accessToken' in this.options.auth) {
        // A private app's token is no OAuth token: its own info endpoint (POST, the token in the body).
        const answer = await send({ fetch: this.options.fetch, timeoutMs: this.options.timeoutMs }, `${this.options.baseUrl.replace(/\/+$/, '')}/oauth/v2/private-apps/get/access-token-info`, {
          method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ tokenKey: token }),
        });
        const info = JSON.parse(answer.text) as { hubId: number; scopes?: string[]; appId?: number };
        return { hubId: info.hubId, scopes: info.scopes ?? [], appId: info.appId ?? null };
      }
      const info = await this.oauth.info.get(token);
      return { hubId: info.hubId, scopes: info.scopes, appId: info.appId ?? null };
    });
  }

  /** One CRM search (POST /crm/v3/objects/contacts/search), paced under the search API's own limit. */
  async search(request: SearchRequest): Promise<SearchPage> {
    return this.call('search', async () => {
      const wait = this.lastSearch + this.options.searchIntervalMs - Date.now();
      if (wait > 0) await this.sleep(wait);
      this.lastSearch = Date.now();
      return await this.contacts.search.doSearch(request as unknown as contacts.PublicObjectSearchRequest) as unknown as SearchPage;
    });
  }

  /** POST /crm/v3/objects/contacts/batch/update: 100 inputs at most; 207 carries the errors of some. */
  async batchUpdate(inputs: { id: string; properties: Record<string, string> }[]): Promise<BatchResult> {
    return this.call('batchUpdate', async () => await this.contacts.batch.update({ inputs }) as unknown as BatchResult);
  }

  /** POST /crm/v3/objects/contacts/batch/read: the contacts a webhook named, read whole. */
  async batchRead(ids: string[], names: readonly string[]): Promise<BatchResult> {
    return this.call('batchRead', async () =>
      await this.contacts.batch.read({ inputs: ids.map((id) => ({ id })), properties: [...names], propertiesWithHistory: [] }, false) as unknown as BatchResult);
  }

  async contactProperties(): Promise<HubspotProperty[]> {
    return this.call('properties', async () => (await this.properties.core.getAll('contacts')).results as unknown as HubspotProperty[]);
  }

  async propertyGroups(): Promise<{ name: string }[]> {
    return this.call('groups', async () => (await this.properties.groups.getAll('contacts')).results);
  }

  async createPropertyGroup(group: { name: string; label: string; displayOrder: number }): Promise<void> {
    await this.call('createGroup', () => this.properties.groups.create('contacts', group));
  }

  async createProperty(body: object): Promise<void> {
    await this.call('createProperty', () => this.properties.core.create('contacts', body as properties.PropertyCreate));
  }

  /**
   * `run` with a valid token, with the core's retries; a 401 to an OAuth token renews it once and sends the call again
   * within the same try (an access token revoked or expired early). A 401 after a new token is a refusal.
   */
  private call<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.attempt(name, async () => {
      await this.ensureToken();
      try {
        return await run();
      } catch (err) {
        if (!(err instanceof HubspotError) || err.status !== 401 || 'accessToken' in this.options.auth) throw err;
        this.options.log.info({ operation: name }, 'hubspot answered 401: renewing the access token');
        this.access = null;
        await this.ensureToken();
        return await run();
      }
    });
  }

  private attempt<T>(name: string, run: () => Promise<T>): Promise<T> {
    return withRetries(run, {
      policy: this.options.retry,
      sleep: this.sleep,
      onRetry: (attempt, delay, error) => this.options.log.warn({ operation: name, attempt, delay, error: error.platformMessage }, 'hubspot call failed: retrying'),
    });
  }

  /** An OAuth access token, granted when none is held or the one held expires within the margin; one grant at a time. */
  private async ensureToken(): Promise<void> {
    const auth = this.options.auth;
    if ('accessToken' in auth) return;
    if (this.access && this.access.renewAt !== null && Date.now() < this.access.renewAt) return;
    this.refreshing ??= this.grant(auth).finally(() => { this.refreshing = null; });
    await this.refreshing;
  }

  private async grant(auth: Extract<HubspotAuth, { refreshToken: string }>): Promise<void> {
    try {
      const answer = await this.oauth.tokens.create('refresh_token', undefined, undefined, auth.clientId, auth.clientSecret, auth.refreshToken);
      // Five minutes before expiry (half its life for a shorter token).
      const lifeMs = answer.expiresIn * 1000;
      this.access = { token: answer.accessToken, renewAt: Date.now() + lifeMs - Math.min(TOKEN_MARGIN_MS, lifeMs / 2) };
      this.options.log.info({ expiresIn: answer.expiresIn }, 'hubspot access token granted');
    } catch (err) {
      // BAD_REFRESH_TOKEN, BAD_CLIENT_ID, an uninstalled app: a new consent is needed, not another try.
      if (err instanceof HubspotError && err.status >= 400 && err.status < 500 && err.status !== 429) {
        throw new HubspotError('auth_failed', 'HubSpot refused the refresh token', err.code, err.platformMessage ?? err.message, {}, err.status, err.body);
      }
      throw err;
    }
  }

  /** `X-HubSpot-RateLimit-Daily` and `-Daily-Remaining`, when HubSpot sends them (not on search answers). */
  private noteUsage(headers: Headers) {
    const limit = Number(headers.get('x-hubspot-ratelimit-daily'));
    const remaining = Number(headers.get('x-hubspot-ratelimit-daily-remaining'));
    if (limit > 0 && Number.isFinite(remaining)) this.options.onApiUsage?.(limit - remaining, limit);
  }
}
