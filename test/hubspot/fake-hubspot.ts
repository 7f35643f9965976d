/**
 * A local stand-in of HubSpot's API on 127.0.0.1, speaking the documented shapes: the CRM (fake-hubspot-crm.ts), the
 * OAuth token endpoint (`POST /oauth/v1/token`: authorization_code and refresh_token grants, 30-minute access tokens
 * unless told otherwise), token info (`GET /oauth/v1/access-tokens/{token}`, and a private app's
 * `POST /oauth/v2/private-apps/get/access-token-info`), scopes (403 MISSING_SCOPES), and HubSpot's limits: a rolling
 * window of N calls (429 `TEN_SECONDLY_ROLLING` with the `X-HubSpot-RateLimit-*` headers), the daily allowance
 * (429 `DAILY`), and throttles forced on the next calls. Webhook deliveries are signed as HubSpot signs them (v3).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CrmError, FakeCrm } from './fake-hubspot-crm.js';

export const ALL_SCOPES = ['crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.schemas.contacts.write', 'oauth'];

export interface FakeHubspotOptions {
  hubId?: number;
  /** OAuth access tokens' life (HubSpot's: 1,800 s). */
  accessTokenSeconds?: number;
  /** The rolling window: at most `max` calls per `ms` (HubSpot's: 100 or 190 per 10 s); absent: no limit. */
  window?: { max: number; ms: number };
  /** Calls allowed today before every call is 429 DAILY. */
  daily?: number;
}

interface Grant { hubId: number; scopes: string[] }

export class FakeHubspotState {
  readonly crm = new FakeCrm();
  readonly hubId: number;
  readonly app = { appId: 4242, clientId: 'hs-client-id', clientSecret: 'hs-client-secret' };
  readonly privateTokens = new Map<string, Grant>();
  readonly refreshTokens = new Map<string, Grant>();
  readonly accessTokens = new Map<string, Grant & { expiresAt: number }>();
  readonly codes = new Map<string, { grant: Grant; redirectUri: string }>();
  /** Every call: method, path, status. */
  readonly calls: { method: string; path: string; status: number }[] = [];
  accessTokenSeconds: number;
  window?: { max: number; ms: number };
  dailyLeft: number;
  readonly dailyLimit: number;
  /** Answers forced on the next calls, whatever they are: `429 TEN_SECONDLY_ROLLING`, `429 DAILY`, `500`. */
  readonly forced: ({ status: 429; policy: 'TEN_SECONDLY_ROLLING' | 'SECONDLY' | 'DAILY' } | { status: 500 | 503 })[] = [];
  private recent: number[] = [];

  constructor(options: FakeHubspotOptions) {
    this.hubId = options.hubId ?? 7_654_321;
    this.accessTokenSeconds = options.accessTokenSeconds ?? 1800;
    this.window = options.window;
    this.dailyLimit = options.daily ?? 500_000;
    this.dailyLeft = this.dailyLimit;
  }

  /** A private app's token with these scopes. */
  privateToken(scopes: string[] = ALL_SCOPES): string {
    const token = `pat-na1-${crypto.randomUUID()}`;
    this.privateTokens.set(token, { hubId: this.hubId, scopes });
    return token;
  }

  /** A refresh token as an install of the OAuth app leaves it. */
  refreshToken(scopes: string[] = ALL_SCOPES): string {
    const token = `na1-${crypto.randomUUID()}`;
    this.refreshTokens.set(token, { hubId: this.hubId, scopes });
    return token;
  }

  /** An authorization code, as HubSpot's authorize page gives the app's redirect URI after consent. */
  authorizationCode(redirectUri: string, scopes: string[] = ALL_SCOPES): string {
    const code = crypto.randomUUID();
    this.codes.set(code, { grant: { hubId: this.hubId, scopes }, redirectUri });
    return code;
  }

  /** Every access token granted so far expires now (as one does after its 30 minutes). */
  expireAccessTokens() {
    for (const t of this.accessTokens.values()) t.expiresAt = 0;
  }

  /** After this many more CRM calls, every access token granted expires (revoked early, or its life shorter than told). */
  expireTokensAfter: number | null = null;

  get grants() { return this.calls.filter((c) => c.path === '/oauth/v1/token' && c.status === 200).length; }

  /** A limit's refusal due now, or null (the window and the day are counted on every authenticated call). */
  limited(): { policy: string; headers: Record<string, string> } | null {
    const forced = this.forced.shift();
    if (forced && forced.status === 429) return { policy: forced.policy, headers: {} };
    if (forced) throw new CrmError(forced.status, { status: 'error', category: 'INTERNAL_ERROR', message: 'internal error' });
    if (this.dailyLeft <= 0) return { policy: 'DAILY', headers: {} };
    const now = Date.now();
    const w = this.window;
    if (w) {
      this.recent = this.recent.filter((t) => t > now - w.ms);
      if (this.recent.length >= w.max) {
        return { policy: 'TEN_SECONDLY_ROLLING', headers: { 'X-HubSpot-RateLimit-Max': String(w.max), 'X-HubSpot-RateLimit-Remaining': '0', 'X-HubSpot-RateLimit-Interval-Milliseconds': String(w.ms) } };
      }
      this.recent.push(now);
    }
    this.dailyLeft--;
    return null;
  }

  rateHeaders(): Record<string, string> {
    return { 'X-HubSpot-RateLimit-Daily': String(this.dailyLimit), 'X-HubSpot-RateLimit-Daily-Remaining': String(Math.max(0, this.dailyLeft)) };
  }
}

export interface FakeHubspot {
  url: string;
  state: FakeHubspotState;
  close(): Promise<void>;
}

const SCOPE_OF: [RegExp, string, string][] = [
  [/^POST \/crm\/v3\/objects\/contacts\/search$/, 'crm.objects.contacts.read', ''],
  [/^POST \/crm\/v3\/objects\/contacts\/batch\/read$/, 'crm.objects.contacts.read', ''],
  [/^POST \/crm\/v3\/objects\/contacts\/batch\/update$/, 'crm.objects.contacts.write', ''],
  [/^GET \/crm\/v3\/properties\/contacts(\/groups)?$/, 'crm.objects.contacts.read', 'crm.schemas.contacts.read'],
  [/^POST \/crm\/v3\/properties\/contacts(\/groups)?$/, 'crm.schemas.contacts.write', ''],
];

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json;charset=utf-8', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

const error = (category: string, message: string, extra: Record<string, unknown> = {}) =>
  ({ status: 'error', message, correlationId: crypto.randomUUID(), category, ...extra });

export async function startFakeHubspot(options: FakeHubspotOptions = {}): Promise<FakeHubspot> {
  const state = new FakeHubspotState(options);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      const record = (status: number) => state.calls.push({ method: req.method ?? '', path: url.pathname, status });
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => { record(status); send(res, status, body, headers); };
      try {
        handle(state, req, url, raw, answer);
      } catch (err) {
        if (err instanceof CrmError) answer(err.status, err.body);
        else answer(500, error('INTERNAL_ERROR', (err as Error).message));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type Answer = (status: number, body: unknown, headers?: Record<string, string>) => void;

function handle(state: FakeHubspotState, req: http.IncomingMessage, url: URL, raw: string, answer: Answer) {
  const route = `${req.method} ${url.pathname}`;
  if (route === 'POST /oauth/v1/token') return tokenGrant(state, new URLSearchParams(raw), answer);
  const info = /^\/oauth\/v1\/access-tokens\/(.+)$/.exec(url.pathname);
  if (req.method === 'GET' && info) {
    const t = state.accessTokens.get(decodeURIComponent(info[1]));
    if (!t || t.expiresAt < Date.now()) return answer(404, error('NOT_FOUND', 'The access token is expired or invalid'));
    return answer(200, {
      token: info[1], user: 'admin@example.com', hub_domain: 'example.hubspot.com', scopes: t.scopes, hub_id: t.hubId,
      app_id: state.app.appId, expires_in: Math.round((t.expiresAt - Date.now()) / 1000), user_id: 99, token_type: 'access',
    });
  }
  if (route === 'POST /oauth/v2/private-apps/get/access-token-info') {
    const grant = state.privateTokens.get(String((JSON.parse(raw || '{}') as { tokenKey?: string }).tokenKey));
    if (!grant) return answer(401, error('INVALID_AUTHENTICATION', 'The token is not a private app token'));
    return answer(200, { userId: 99, hubId: grant.hubId, appId: 1234, scopes: grant.scopes });
  }

  // Everything else is the CRM: a bearer token, the limits, then the scopes.
  if (state.expireTokensAfter !== null && state.expireTokensAfter-- <= 0) {
    state.expireTokensAfter = null;
    state.expireAccessTokens();
  }
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const access = state.accessTokens.get(token);
  const grant = state.privateTokens.get(token) ?? (access && access.expiresAt > Date.now() ? access : undefined);
  if (!grant) {
    return answer(401, access
      ? error('EXPIRED_AUTHENTICATION', 'The OAuth token used to make this call expired.')
      : error('INVALID_AUTHENTICATION', 'Authentication credentials not found.'));
  }
  const limited = state.limited();
  if (limited) {
    return answer(429, error('RATE_LIMITS', `You have reached your ${limited.policy.toLowerCase()} limit.`, { errorType: 'RATE_LIMIT', policyName: limited.policy }), limited.headers);
  }
  const needs = SCOPE_OF.find(([pattern]) => pattern.test(route));
  if (needs && !grant.scopes.includes(needs[1]) && !(needs[2] && grant.scopes.includes(needs[2]))) {
    return answer(403, error('MISSING_SCOPES', 'This app hasn\'t been granted all required scopes to make this call.', {
      errors: [{ message: `One or more of the following scopes are required.`, context: { requiredGranularScopes: [needs[1]] } }],
    }));
  }
  const body = raw ? JSON.parse(raw) as Record<string, unknown> : {};
  const ok = (status: number, b: unknown) => answer(status, b, state.rateHeaders());
  const { crm } = state;
  switch (route) {
    case 'POST /crm/v3/objects/contacts/search': return ok(200, crm.search(body));
    case 'POST /crm/v3/objects/contacts/batch/update': { const r = crm.batchUpdate(body); return ok(r.status, r.body); }
    case 'POST /crm/v3/objects/contacts/batch/read': { const r = crm.batchRead(body as { inputs?: unknown; properties?: string[] }); return ok(r.status, r.body); }
    case 'GET /crm/v3/properties/contacts': return ok(200, { results: [...crm.properties.values()] });
    case 'POST /crm/v3/properties/contacts': return ok(201, crm.createProperty(body));
    case 'GET /crm/v3/properties/contacts/groups': return ok(200, { results: [...crm.groups.values()] });
    case 'POST /crm/v3/properties/contacts/groups': return ok(201, crm.createGroup(body));
    default: return answer(404, error('OBJECT_NOT_FOUND', `no route ${route}`));
  }
}

/** POST /oauth/v1/token (form-encoded): HubSpot's errors are `{status: 'BAD_…', message}` with a 400. */
function tokenGrant(state: FakeHubspotState, form: URLSearchParams, answer: Answer) {
  const bad = (status: string, message: string) => answer(400, { status, message, correlationId: crypto.randomUUID() });
  if (form.get('client_id') !== state.app.clientId) return bad('BAD_CLIENT_ID', 'missing or invalid client_id');
  if (form.get('client_secret') !== state.app.clientSecret) return bad('BAD_CLIENT_SECRET', 'missing or invalid client_secret');
  let grant: Grant | undefined;
  let refreshToken = form.get('refresh_token') ?? '';
  if (form.get('grant_type') === 'authorization_code') {
    const code = state.codes.get(form.get('code') ?? '');
    state.codes.delete(form.get('code') ?? '');
    if (!code || code.redirectUri !== form.get('redirect_uri')) return bad('BAD_AUTH_CODE', 'missing or unknown auth code');
    grant = code.grant;
    refreshToken = `na1-${crypto.randomUUID()}`;
    state.refreshTokens.set(refreshToken, grant);
  } else if (form.get('grant_type') === 'refresh_token') {
    grant = state.refreshTokens.get(refreshToken);
    if (!grant) return bad('BAD_REFRESH_TOKEN', 'missing or unknown refresh token');
  } else {
    return bad('BAD_GRANT_TYPE', 'grant_type must be authorization_code or refresh_token');
  }
  const accessToken = `CL-${crypto.randomUUID()}`;
  state.accessTokens.set(accessToken, { ...grant, expiresAt: Date.now() + state.accessTokenSeconds * 1000 });
  answer(200, { token_type: 'bearer', refresh_token: refreshToken, access_token: accessToken, expires_in: state.accessTokenSeconds });
}

// ---- webhook deliveries ---------------------------------------------------------------------------------------------

export interface ContactEvent {
  subscriptionType: 'contact.creation' | 'contact.propertyChange' | 'contact.deletion';
  objectId: number | string;
  propertyName?: string;
  propertyValue?: string;
  portalId?: number;
}

/**
 * A delivery as HubSpot sends one to the app's target URL: a JSON array of events, `X-HubSpot-Signature-v3` =
 * base64(HMAC-SHA256(client secret, method + URI + body + timestamp)) and `X-HubSpot-Request-Timestamp` (ms).
 * Written here from HubSpot's documentation, not with the client library the plugin uses.
 */
export function signedDelivery(state: FakeHubspotState, targetUrl: string, events: ContactEvent[], options: { secret?: string; timestamp?: number; firstEventId?: number } = {}) {
  let eventId = options.firstEventId ?? Math.floor(Math.random() * 1e9);
  const body = JSON.stringify(events.map((e) => ({
    eventId: eventId++, subscriptionId: 55, portalId: e.portalId ?? state.hubId, appId: state.app.appId, occurredAt: Date.now(),
    subscriptionType: e.subscriptionType, attemptNumber: 0, objectId: Number(e.objectId), changeSource: 'CRM_UI',
    ...(e.propertyName ? { propertyName: e.propertyName, propertyValue: e.propertyValue ?? '' } : {}),
  })));
  const timestamp = String(options.timestamp ?? Date.now());
  const signature = crypto.createHmac('sha256', options.secret ?? state.app.clientSecret).update(`POST${targetUrl}${body}${timestamp}`).digest('base64');
  return { body, headers: { 'Content-Type': 'application/json', 'X-HubSpot-Signature-v3': signature, 'X-HubSpot-Request-Timestamp': timestamp } };
}
