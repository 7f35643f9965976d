/**
 * The OAuth install of the Shopify app (the second way to connect a store, beside a custom app's token), the story:
 * 1. The account asks for an install link (`POST /v1/connectors/shopify/install`, its secret key): a link to this
 *    service, signed and valid an hour, naming the account and the shop.
 * 2. The merchant opens it (`GET /shopify/install`): the link is checked, a nonce is set in a cookie, and the browser is
 *    sent to the shop's authorize page with `state` = the nonce and the link.
 * 3. Shopify sends the browser back (`GET /shopify/callback`): Shopify's HMAC over the query (with the app's secret),
 *    the timestamp, the state's nonce against the cookie (CSRF) and the link's signature are checked; the code is
 *    exchanged for the store's access token, which is sealed with the connector's credentials like any other. The
 *    install proves the shop is the installer's: the shop's connector becomes this account's (one shop, one connector).
 */
import crypto from 'node:crypto';
import type { Connectors } from '../../src/sync/connectors.js';
import { createGuardedHttp, type PlatformFetch } from '../../src/sync/plugin.js';

export interface ShopifyAppSettings {
  apiKey: string;
  apiSecret: string;
  scopes: string;
  /** Where Shopify sends the merchant back: this service as the world reaches it. */
  publicBaseUrl: string;
  /** Tests only: the shop's admin (authorize page, token exchange) at this base URL instead of `https://{shop}`. */
  adminBaseUrl?: string;
}

export class InstallRefused extends Error {}

const SHOP = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;
const LINK_TTL_MS = 60 * 60_000;
const CALLBACK_MAX_AGE_S = 60 * 60;
export const STATE_COOKIE = 'cv_shopify_state';

interface Link {
  account: string;
  shop: string;
  name: string;
  schedule?: string;
  settings?: Record<string, unknown>;
  expires: number;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

export class ShopifyInstall {
  /** The links' own key, derived from the app's secret: a link is worthless without the service's configuration. */
  private readonly linkKey: Buffer;

  constructor(
    private readonly app: ShopifyAppSettings,
    private readonly connectors: Connectors,
    /** The token exchange's way out: by default the outbound guard (the shop's own admin, or the configured base URL). */
    private readonly exchange?: PlatformFetch,
    private readonly now: () => number = Date.now,
  ) {
    this.linkKey = Buffer.from(crypto.hkdfSync('sha256', app.apiSecret, 'contact-validator', 'shopify-install-link', 32));
  }

  private sign(payload: string): string {
    return crypto.createHmac('sha256', this.linkKey).update(payload).digest('base64url');
  }

  private adminBase(shop: string): string {
    return this.app.adminBaseUrl ?? `https://${shop}`;
  }

  /** Step 1: a signed install link for the account and shop. */
  link(accountId: string, request: { shop: string; name?: string; schedule?: string; settings?: Record<string, unknown> }) {
    const shop = request.shop.trim().toLowerCase();
    if (!SHOP.test(shop)) throw new InstallRefused('shop must be a *.myshopify.com domain');
    const link: Link = {
      account: accountId, shop, name: request.name ?? shop, schedule: request.schedule, settings: request.settings,
      expires: this.now() + LINK_TTL_MS,
    };
    const payload = b64(JSON.stringify(link));
    const token = `${payload}.${this.sign(payload)}`;
    const url = new URL('/shopify/install', this.app.publicBaseUrl);
    url.searchParams.set('shop', shop);
    url.searchParams.set('link', token);
    return { install_url: url.toString(), expires_at: new Date(link.expires).toISOString() };
  }

  private readLink(token: string): Link {
    const [payload, signature] = token.split('.');
    if (!payload || !signature || !same(signature, this.sign(payload))) throw new InstallRefused('the install link is not valid');
    const link = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Link;
    if (link.expires < this.now()) throw new InstallRefused('the install link has expired; ask for a new one');
    return link;
  }

  /** Step 2: where to send the browser, and the nonce to keep in its cookie. */
  authorize(shop: string, token: string): { location: string; nonce: string } {
    const link = this.readLink(token);
    if (link.shop !== shop.trim().toLowerCase()) throw new InstallRefused('the install link is for another shop');
    const nonce = crypto.randomBytes(16).toString('base64url');
    const url = new URL('/admin/oauth/authorize', this.adminBase(link.shop));
    url.searchParams.set('client_id', this.app.apiKey);
    url.searchParams.set('scope', this.app.scopes);
    url.searchParams.set('redirect_uri', new URL('/shopify/callback', this.app.publicBaseUrl).toString());
    url.searchParams.set('state', `${nonce}~${token}`);
    return { location: url.toString(), nonce };
  }

  /**
   * Shopify's signature of a redirect: HMAC-SHA256 (hex) with the app's secret over the other query parameters,
   * sorted by name and joined as `name=value&…`.
   */
  verifyQuery(query: Record<string, string>): boolean {
    const { hmac, signature: _ignored, ...rest } = query;
    if (!hmac) return false;
    const message = Object.keys(rest).sort().map((k) => `${k}=${rest[k]}`).join('&');
    return same(hmac, crypto.createHmac('sha256', this.app.apiSecret).update(message).digest('hex'));
  }

  /** Step 3: the callback checked, the code exchanged, the connector created. */
  async callback(query: Record<string, string>, cookieNonce: string | undefined) {
    if (!this.verifyQuery(query)) throw new InstallRefused("the callback is not signed by Shopify with this app's secret");
    const age = this.now() / 1000 - Number(query.timestamp);
    if (!Number.isFinite(age) || Math.abs(age) > CALLBACK_MAX_AGE_S) throw new InstallRefused('the callback is too old');
    const [nonce, token] = (query.state ?? '').split('~');
    if (!nonce || !cookieNonce || !same(nonce, cookieNonce)) throw new InstallRefused('the state does not match this browser (start the install again)');
    const link = this.readLink(token ?? '');
    if (link.shop !== query.shop) throw new InstallRefused('the callback is for another shop');
    const accessToken = await this.tokenFor(link.shop, query.code);
    // The install proves the shop is the installer's: its connector is this account's from now on.
    return this.connectors.connectByInstall(link.account, {
      type: 'shopify', name: link.name, ...(link.schedule ? { schedule: link.schedule } : {}),
      settings: { ...link.settings, shop: link.shop },
      credentials: { access_token: accessToken, api_secret: this.app.apiSecret },
    });
  }

  /** The code exchanged for the shop's access token, through the outbound guard unless an exchange was given. */
  private async tokenFor(shop: string, code: string | undefined): Promise<string> {
    const guard = this.exchange ? null : createGuardedHttp({ privateOrigins: this.app.adminBaseUrl ? [this.app.adminBaseUrl] : [] });
    try {
      const answer = await (this.exchange ?? guard!.fetch)(new URL('/admin/oauth/access_token', this.adminBase(shop)), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ client_id: this.app.apiKey, client_secret: this.app.apiSecret, code }),
        signal: AbortSignal.timeout(10_000),
      }).catch((err: Error) => {
        throw new InstallRefused(`Shopify could not be reached for the token (${err.message}); start the install again`);
      });
      if (!answer.ok) throw new InstallRefused(`Shopify refused the code (${answer.status})`);
      const { access_token: accessToken } = (await answer.json()) as { access_token?: string };
      if (!accessToken) throw new InstallRefused('Shopify gave no access token');
      return accessToken;
    } finally {
      await guard?.close();
    }
  }
}
