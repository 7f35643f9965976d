/**
 * "Connect Salesforce" from the dashboard: the OAuth 2.0 web-server flow with PKCE (RFC 7636; Salesforce Help, "OAuth 2.0
 * Web Server Flow for Web App Integration"), the story:
 * 1. A signed-in person sends the form (name, login host, objects, options). The login host is one of Salesforce's
 *    (production `login.salesforce.com`, sandbox `test.salesforce.com`, or the org's My Domain): never another site, so
 *    the form cannot be made an open redirect. A state nonce and a PKCE verifier are made; they, the form and the
 *    person's session are sealed (AES-GCM, the connectors' key) into a short-lived HttpOnly cookie, and the browser goes
 *    to Salesforce's authorize page with the state and the verifier's challenge.
 * 2. Salesforce sends the browser back with a code and the state. The cookie is opened; the state must be its nonce
 *    and the session the same person's (CSRF: a callback from another browser or session is refused); the code is
 *    exchanged, with the verifier, for a refresh token, through the outbound guard. The flow's nonce is used once: it
 *    is remembered (in the database, for the fleet) until the flow expires, and a replay of the callback with the same
 *    cookie is refused before any code is exchanged (else it would make a second connector).
 * 3. The connector is created with the app's client id and secret and the refresh token as its credentials, sealed
 *    like every connector's; each of its sessions is a refresh-token grant.
 */
import crypto from 'node:crypto';
import { checkPlatformUrl, UnsafeUrl } from '../../src/sync/platform-url.js';
import { createGuardedHttp } from '../../src/sync/plugin.js';
import type { SecretBox } from '../../src/sync/secrets.js';
import { guardedTransport } from './transport.js';

export interface SalesforceApp {
  clientId: string;
  clientSecret: string;
}

/** This service's callback as the connected app lists it. */
export const CALLBACK_PATH = '/connectors/salesforce/callback';

export class ConnectRefused extends Error {}

export const CONNECT_COOKIE = 'cv_sf_connect';
export const LOGIN_HOSTS = { production: 'https://login.salesforce.com', sandbox: 'https://test.salesforce.com' } as const;
const FLOW_TTL_MS = 10 * 60_000;
/** Salesforce's own login and My Domain hosts (`acme.my.salesforce.com`, `acme--uat.sandbox.my.salesforce.com`). */
const SALESFORCE_HOST = /^(?:[a-z0-9-]+\.)*(?:salesforce\.com|force\.com)$/i;
const LOCAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2})$/;

/** What the form asked for, carried through Salesforce's pages in the sealed cookie. */
export interface ConnectRequest {
  name: string;
  loginUrl: string;
  schedule: string;
  settings: Record<string, unknown>;
  writeBack: Record<string, unknown>;
}

/** The flows' nonces already used (src/sync/flow-nonces.ts): true the first time only. */
export interface FlowNonceBook {
  useOnce(purpose: string, nonce: string, expiresAt: number): Promise<boolean>;
}

/** The signed-in person: their account, and their session (the flow is bound to it). */
export interface Who { accountId: string; sessionHash: string }

interface Flow extends ConnectRequest {
  nonce: string;
  verifier: string;
  session: string;
  account: string;
  expires: number;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/**
 * The login URL a person chose: production, sandbox, or a My Domain (a name, a host or an https URL). Only
 * Salesforce's hosts, unless CONNECTOR_ALLOW_PRIVATE lets a test org on loopback stand in.
 */
export async function loginUrlOf(environment: string, myDomain: string, allowPrivate: boolean): Promise<string> {
  if (environment === 'production' || environment === 'sandbox') return LOGIN_HOSTS[environment];
  const typed = myDomain.trim().replace(/\/+$/, '');
  if (!typed) throw new ConnectRefused('Type the org\'s My Domain (acme.my.salesforce.com).');
  const text = /^[a-z0-9-]+$/i.test(typed) ? `https://${typed}.my.salesforce.com` : /^https?:\/\//i.test(typed) ? typed : `https://${typed}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConnectRefused('The My Domain is not a host name.');
  }
  const salesforce = url.protocol === 'https:' && SALESFORCE_HOST.test(url.hostname) && !url.port;
  // Tests: a local org on a loopback or private address stands in; still never a public site that is not Salesforce's.
  const localOrg = allowPrivate && LOCAL_HOST.test(url.hostname);
  if (!salesforce && !localOrg) throw new ConnectRefused('The My Domain must be a Salesforce host (…my.salesforce.com).');
  try {
    await checkPlatformUrl(url.origin, allowPrivate);
  } catch (err) {
    if (err instanceof UnsafeUrl) throw new ConnectRefused(`The My Domain ${err.message}.`);
    throw err;
  }
  return url.origin;
}

export class SalesforceConnect {
  constructor(
    private readonly app: SalesforceApp,
    private readonly secrets: SecretBox,
    /** CONNECTOR_ALLOW_PRIVATE (tests): the login host may be a local org on loopback. */
    private readonly allowPrivate: boolean,
    private readonly usedNonces: FlowNonceBook,
    private readonly now: () => number = Date.now,
  ) {}

  /** jsforce's OAuth2 client for the login host (jsforce, a large package, is loaded when a person connects, not at start). */
  private async oauth2(loginUrl: string, baseUrl: string) {
    const { default: jsforce } = await import('jsforce');
    const redirectUri = new URL(CALLBACK_PATH, baseUrl).toString();
    return new jsforce.OAuth2({ loginUrl, clientId: this.app.clientId, clientSecret: this.app.clientSecret, redirectUri });
  }

  /**
   * Step 1: where to send the browser, and the sealed cookie that carries the flow to the callback. `baseUrl` is this
   * service as the browser (and the connected app's callback URL) reaches it.
   */
  async start(who: Who, request: ConnectRequest, baseUrl: string): Promise<{ location: string; cookie: string }> {
    const nonce = crypto.randomBytes(32).toString('base64url');
    const verifier = crypto.randomBytes(48).toString('base64url');
    const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
    const flow: Flow = { ...request, nonce, verifier, session: who.sessionHash, account: who.accountId, expires: this.now() + FLOW_TTL_MS };
    const sealed = this.secrets.seal(flow);
    const location = (await this.oauth2(request.loginUrl, baseUrl)).getAuthorizationUrl({
      scope: 'api refresh_token', state: nonce, code_challenge: challenge, prompt: 'login consent',
    });
    return { location, cookie: `${sealed.keyId}.${sealed.secret}` };
  }

  /** Step 2: the callback checked against the cookie and the session, and the code exchanged for a refresh token. */
  async finish(
    query: Record<string, string>, cookie: string | undefined, who: Who, baseUrl: string,
  ): Promise<{ request: ConnectRequest; credentials: { client_id: string; client_secret: string; refresh_token: string } }> {
    const flow = this.open(cookie);
    if (!flow || !query.state || !same(query.state, flow.nonce)) throw new ConnectRefused('This answer from Salesforce does not match the connection this browser started: start again.');
    if (flow.session !== who.sessionHash || flow.account !== who.accountId) throw new ConnectRefused('The connection was started in another session: start again.');
    if (flow.expires < this.now()) throw new ConnectRefused('The connection took too long: start again.');
    if (!(await this.usedNonces.useOnce('salesforce-connect', flow.nonce, flow.expires))) {
      throw new ConnectRefused('This answer from Salesforce was already used: the connection it started is made or refused already. Start again to connect another org.');
    }
    if (query.error) throw new ConnectRefused(`Salesforce did not give access (${query.error_description || query.error}).`);
    if (!query.code) throw new ConnectRefused('Salesforce sent no authorization code: start again.');
    const guard = createGuardedHttp({ privateOrigins: this.allowPrivate ? [flow.loginUrl] : [] });
    try {
      const oauth2 = await this.oauth2(flow.loginUrl, baseUrl);
      oauth2._transport = guardedTransport(guard.fetch);
      const token = await oauth2.requestToken(query.code, { code_verifier: flow.verifier }).catch((err: Error) => {
        throw new ConnectRefused(`Salesforce refused the authorization code (${err.name}: ${err.message.slice(0, 200)}): start again.`);
      });
      if (!token.refresh_token) throw new ConnectRefused('Salesforce gave no refresh token: add the "refresh_token" scope to the connected app.');
      const { nonce: _n, verifier: _v, session: _s, account: _a, expires: _e, ...request } = flow;
      return { request, credentials: { client_id: this.app.clientId, client_secret: this.app.clientSecret, refresh_token: token.refresh_token } };
    } finally {
      await guard.close();
    }
  }

  private open(cookie: string | undefined): Flow | null {
    const [keyId, secret] = (cookie ?? '').split('.');
    if (!keyId || !secret) return null;
    try {
      return this.secrets.open<Flow>({ keyId, secret });
    } catch {
      return null;
    }
  }
}
