/**
 * The local store's OAuth for a public app (shopify.dev: "Implement authorization code grant manually"): the authorize
 * page and the code's exchange. Shopify answers an app the shop has already approved without a prompt for any staff
 * member signed in to the shop's admin: the authorize page sends the browser straight back to `redirect_uri` with a
 * one-time `code`, `shop`, `state` (as given), `host`, `timestamp` and `hmac` (hex HMAC-SHA256 with the app's secret over
 * the other parameters, sorted, as `name=value&…`). The exchange (`POST /admin/oauth/access_token` with `client_id`,
 * `client_secret`, `code`) takes each code once and answers a new offline token, which the Admin API then accepts.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import type { FakeShopState } from './fake-admin.js';

export interface FakeApp {
  apiKey: string;
  apiSecret: string;
}

export interface OAuthBook {
  app: FakeApp | null;
  /** Codes given and not yet exchanged. */
  codes: Set<string>;
  /** Every authorize request as the browser brought it. */
  authorizeRequests: URLSearchParams[];
}

export const newOAuthBook = (app: FakeApp | undefined): OAuthBook => ({ app: app ?? null, codes: new Set(), authorizeRequests: [] });

type Reply = (status: number, body: string, headers?: Record<string, string>) => void;

/** Shopify's HMAC over a redirect's query (every parameter but `hmac`), with the app's secret. */
export function signQuery(params: Record<string, string>, secret: string): string {
  const message = Object.keys(params).sort().map((k) => `${k}=${params[k]}`).join('&');
  return crypto.createHmac('sha256', secret).update(message).digest('hex');
}

/** `GET /admin/oauth/authorize`: the app is installed already, so the browser goes back at once with a code. */
export function authorize(state: FakeShopState, book: OAuthBook, url: URL, reply: Reply): void {
  book.authorizeRequests.push(url.searchParams);
  const redirect = url.searchParams.get('redirect_uri');
  if (!book.app || url.searchParams.get('client_id') !== book.app.apiKey || !redirect) {
    return reply(400, JSON.stringify({ errors: 'Oauth error invalid_request: The redirect_uri is missing or the client_id is unknown' }));
  }
  const code = crypto.randomBytes(16).toString('hex');
  book.codes.add(code);
  const params: Record<string, string> = {
    code, host: Buffer.from(`${state.shop}/admin`).toString('base64url'), shop: state.shop,
    state: url.searchParams.get('state') ?? '', timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const back = new URL(redirect);
  for (const [k, v] of Object.entries({ ...params, hmac: signQuery(params, book.app.apiSecret) })) back.searchParams.set(k, v);
  reply(302, '', { location: back.toString() });
}

/** The authorization-code grant: a code once, for the app's own id and secret; a new token the Admin API accepts. */
export function exchangeCode(state: FakeShopState, book: OAuthBook, form: Record<string, unknown>, reply: Reply): void {
  state.count('code_exchange');
  const code = String(form.code ?? '');
  const known = book.codes.delete(code);
  if (!book.app || form.client_id !== book.app.apiKey || form.client_secret !== book.app.apiSecret || !known) {
    return reply(400, JSON.stringify({ error: 'invalid_request', error_description: 'The authorization code was not found or was already used' }));
  }
  const accessToken = `shpat_${crypto.randomBytes(16).toString('hex')}`;
  state.grantedTokens.add(accessToken);
  reply(200, JSON.stringify({ access_token: accessToken, scope: [...state.scopes].join(',') }));
}

/** The form of a token request: JSON or urlencoded, as the client sent it. */
export function formOf(req: http.IncomingMessage, body: string): Record<string, unknown> {
  try {
    return String(req.headers['content-type']).includes('json') ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body));
  } catch {
    return {};
  }
}
