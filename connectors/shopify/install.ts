/**
 * The OAuth install of the Shopify app (the second way to connect a store, beside a custom app's token), the story:
 * 1. The account asks for an install link (`POST /v1/connectors/shopify/install`, its secret key, or the dashboard): a
 *    link to this service, signed and valid an hour, naming the account and the shop.
 * 2. A person opens it (`GET /shopify/install`): they must be signed in to the dashboard as a member of the link's
 *    account (else a page asks them to sign in and the link goes on after it; a member of another account is refused).
 *    A nonce is set in a cookie with a MAC binding it to that person, and the browser is sent to the shop's authorize
 *    page with `state` = the nonce and the link.
 * 3. Shopify sends the browser back (`GET /shopify/callback`): Shopify's HMAC over the query (with the app's secret),
 *    the timestamp, the state's nonce against the cookie (CSRF), the cookie's person against the person signed in now
 *    (still a member of the link's account) and the link's signature are checked; then the code is exchanged for the
 *    store's access token, sealed with the connector's credentials like any other.
 * Why the person: Shopify answers an app the shop approved already without a prompt, to whoever of the shop's staff
 * opens the authorize page, so a link alone proves nothing about who wants the shop where. And a shop whose connector
 * belongs to another account and still reaches the shop is never moved by an install (src/sync/connectors.ts).
 * The core serves the steps (src/sync/connect-flows.ts) at the paths the app lists: `shopifyInstallMethod`.
 */
import crypto from 'node:crypto';
import {
  createGuardedHttp, InstallForAnotherAccount, InstallNeedsSignIn, InstallRefused, type AppInstallConnect, type InstallContext,
  type PlatformFetch,
} from '../../src/sync/plugin.js';

export interface ShopifyAppSettings {
  apiKey: string;
  apiSecret: string;
  scopes: string;
  /** Where Shopify sends the merchant back: this service as the world reaches it. */
  publicBaseUrl: string;
  /** Tests only: the shop's admin (authorize page, token exchange) at this base URL instead of `https://{shop}`. */
  adminBaseUrl?: string;
}

export { InstallForAnotherAccount, InstallNeedsSignIn, InstallRefused };

/** The person in the browser: signed in to the dashboard (src/people), a member of `accountId`. */
export interface Installer { accountId: string; userId: string }

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

  /** The cookie's MAC: the nonce bound to the person who opened the link (a browser's cookie in another session is refused). */
  private personMac(nonce: string, userId: string): string {
    return this.sign(`installer.${nonce}.${userId}`);
  }

  /** Step 2: where to send the browser, and the cookie (the nonce, bound to the person) to keep in it. */
  authorize(shop: string, token: string, who: Installer | null): { location: string; cookie: string } {
    const link = this.readLink(token);
    if (link.shop !== shop.trim().toLowerCase()) throw new InstallRefused('the install link is for another shop');
    if (!who) throw new InstallNeedsSignIn();
    if (who.accountId !== link.account) throw new InstallForAnotherAccount();
    const nonce = crypto.randomBytes(16).toString('base64url');
    const url = new URL('/admin/oauth/authorize', this.adminBase(link.shop));
    url.searchParams.set('client_id', this.app.apiKey);
    url.searchParams.set('scope', this.app.scopes);
    url.searchParams.set('redirect_uri', new URL('/shopify/callback', this.app.publicBaseUrl).toString());
    url.searchParams.set('state', `${nonce}~${token}`);
    return { location: url.toString(), cookie: `${nonce}.${this.personMac(nonce, who.userId)}` };
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

  /**
   * Step 3: the callback checked, and the install handed to the core: it refuses a shop another account's connector
   * still reaches before the code is exchanged, and otherwise exchanges it and connects the shop.
   */
  async callback(query: Record<string, string>, cookie: string | undefined, who: Installer | null, connect: InstallContext['connect']) {
    if (!this.verifyQuery(query)) throw new InstallRefused("the callback is not signed by Shopify with this app's secret");
    const age = this.now() / 1000 - Number(query.timestamp);
    if (!Number.isFinite(age) || Math.abs(age) > CALLBACK_MAX_AGE_S) throw new InstallRefused('the callback is too old');
    const [nonce, token] = (query.state ?? '').split('~');
    const [cookieNonce, mac] = (cookie ?? '').split('.');
    if (!nonce || !cookieNonce || !same(nonce, cookieNonce)) throw new InstallRefused('the state does not match this browser (start the install again)');
    if (!who) throw new InstallNeedsSignIn();
    if (!mac || !same(mac, this.personMac(nonce, who.userId))) throw new InstallRefused('the install was started by another person (start it again)');
    const link = this.readLink(token ?? '');
    if (link.account !== who.accountId) throw new InstallForAnotherAccount();
    if (link.shop !== query.shop) throw new InstallRefused('the callback is for another shop');
    return connect(link.account, {
      name: link.name, ...(link.schedule ? { schedule: link.schedule } : {}), settings: { ...link.settings, shop: link.shop },
    }, {
      credentials: async () => ({ access_token: await this.tokenFor(link.shop, query.code), api_secret: this.app.apiSecret }),
      holderReaches: (credentials) => this.reaches(link.shop, credentials),
    });
  }

  /**
   * Whether a connector's credentials still reach the shop: its token answered by the Admin API (anything but 401), or
   * its client ID granted a token. No token, or one refused: it does not. Shopify unreachable: refused, try again
   * (an install never moves a shop on a guess).
   */
  private async reaches(shop: string, credentials: Record<string, unknown>): Promise<boolean> {
    const { access_token: accessToken, client_id: clientId, api_secret: clientSecret } = credentials;
    if (typeof accessToken !== 'string' && typeof clientId !== 'string') return false;
    const answer = await this.call(shop, typeof accessToken === 'string'
      ? { path: '/admin/api/2025-10/graphql.json', headers: { 'x-shopify-access-token': accessToken }, body: { query: '{ shop { id } }' } }
      : { path: '/admin/oauth/access_token', body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret } });
    if (answer.status >= 500 || answer.status === 429) {
      throw new InstallRefused(`Shopify could not say whether the shop's current connector still reaches it (${answer.status}); try again`);
    }
    return typeof accessToken === 'string' ? answer.status !== 401 : answer.ok;
  }

  /** One call to the shop's admin, through the outbound guard unless an exchange was given. */
  private async call(shop: string, request: { path: string; headers?: Record<string, string>; body: unknown }) {
    const guard = this.exchange ? null : createGuardedHttp({ privateOrigins: this.app.adminBaseUrl ? [this.app.adminBaseUrl] : [] });
    try {
      const answer = await (this.exchange ?? guard!.fetch)(new URL(request.path, this.adminBase(shop)), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(10_000),
      }).catch((err: Error) => {
        throw new InstallRefused(`Shopify could not be reached (${err.message}); start the install again`);
      });
      const text = await answer.text();
      return { status: answer.status, ok: answer.ok, text };
    } finally {
      await guard?.close();
    }
  }

  /** The code exchanged for the shop's access token. */
  private async tokenFor(shop: string, code: string | undefined): Promise<string> {
    const answer = await this.call(shop, { path: '/admin/oauth/access_token', body: { client_id: this.app.apiKey, client_secret: this.app.apiSecret, code } });
    if (!answer.ok) throw new InstallRefused(`Shopify refused the code (${answer.status})`);
    let accessToken: unknown;
    try {
      accessToken = (JSON.parse(answer.text) as { access_token?: unknown }).access_token;
    } catch {
      accessToken = undefined;
    }
    if (typeof accessToken !== 'string' || !accessToken) throw new InstallRefused('Shopify gave no access token');
    return accessToken;
  }
}

/** The install as the core serves it (`connect` of kind `install`), at the paths Shopify's app lists. */
export function shopifyInstallMethod(app: ShopifyAppSettings | null, options: { exchange?: PlatformFetch; now?: () => number } = {}): AppInstallConnect {
  const install = app ? new ShopifyInstall(app, options.exchange, options.now) : null;
  const configured = () => {
    if (!install) throw new InstallRefused('The Shopify app is not set up on this service.');
    return install;
  };
  return {
    kind: 'install', id: 'install', title: 'Install the Shopify app', submit: 'Install on Shopify',
    description: 'This browser goes on to Shopify, where you approve the app on the store; its customers and orders are then ' +
      'checked. The install link works only for a person signed in to this account, and never moves a store another account ' +
      'has connected: that account disconnects it first.',
    unavailable: () => (install ? null : "The operator has not set up the Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): use a custom app's token instead."),
    fields: [
      { name: 'shop', target: 'settings.shop', label: 'Store', kind: 'text', hint: 'example.myshopify.com', required: true, lowercase: true },
    ],
    cookie: { name: STATE_COOKIE, path: '/shopify' },
    paths: { install: '/shopify/install', callback: '/shopify/callback' },
    link: (accountId, draft) => configured().link(accountId, {
      shop: String(draft.settings.shop ?? ''), ...(draft.name ? { name: draft.name } : {}),
      ...(draft.schedule ? { schedule: draft.schedule } : {}),
      ...(Object.keys(draft.settings).some((k) => k !== 'shop') ? { settings: draft.settings } : {}),
    }),
    authorize: ({ query, cookie: _none }, { who }) => configured().authorize(query.shop ?? '', query.link ?? '', who),
    callback: ({ query, cookie }, { who, connect }) => configured().callback(query, cookie, who, connect),
  };
}
