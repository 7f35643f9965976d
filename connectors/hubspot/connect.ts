/**
 * How a person connects HubSpot (the dashboard renders both from these declarations; the core serves the steps):
 * - "Connect HubSpot": the OAuth 2.0 authorization-code flow of the service's HubSpot app (HUBSPOT_CLIENT_ID and
 *   HUBSPOT_CLIENT_SECRET). HubSpot documents no PKCE for it: the core's state nonce, sealed in a cookie bound to the
 *   person's session and used once, guards the callback, and the code is worth nothing without the app's secret. The
 *   code is exchanged for a refresh token (POST /oauth/v1/token), whose access token names the account
 *   (GET /oauth/v1/access-tokens/{token}: `hub_id`), which becomes `settings.portal_id`.
 * - "HubSpot with a private app": the account's id and the private app's access token (and its client secret, which
 *   signs the private app's webhooks).
 */
import { ConnectRefused, type ConnectMethod, type OAuthFinish, type PlatformFetch } from '../../src/sync/plugin.js';
import { REQUIRED_SCOPES } from './check.js';
import { HubspotError, httpLibrary } from './http.js';

/** The service's HubSpot app (HUBSPOT_CLIENT_ID, HUBSPOT_CLIENT_SECRET). */
export interface HubspotApp {
  clientId: string;
  clientSecret: string;
  /** The scopes asked at install (default: REQUIRED_SCOPES). */
  scopes?: string;
}

export const AUTHORIZE_URL = 'https://app.hubspot.com/oauth/authorize';
export const API_BASE_URL = 'https://api.hubapi.com';

export interface ConnectOptions {
  app: HubspotApp | null;
  /** Tests only: where the code is exchanged instead of HubSpot's API (a local stand-in), and where runs then go. */
  apiBaseUrl?: string;
}

/** The client library's OAuth APIs on the guarded fetch, loaded by the first connect rather than at every start. */
async function oauthApis(fetch: PlatformFetch, baseUrl: string) {
  const oauth = await import('@hubspot/api-client/lib/codegen/oauth/index.js');
  const configuration = oauth.createConfiguration({
    baseServer: new oauth.ServerConfiguration(baseUrl, {}),
    httpApi: oauth.wrapHttpLibrary(httpLibrary({ fetch, timeoutMs: 30_000 }, oauth.ResponseContext)),
  });
  return { tokens: new oauth.TokensApi(configuration), info: new oauth.AccessTokensApi(configuration) };
}

/** The code for a refresh token, and the account it reaches; HubSpot's refusal in its words. */
export async function exchangeCode(app: HubspotApp, baseUrl: string, finish: Pick<OAuthFinish, 'code' | 'redirectUri' | 'fetch'>) {
  const apis = await oauthApis(finish.fetch, baseUrl);
  try {
    const granted = await apis.tokens.create('authorization_code', finish.code, finish.redirectUri, app.clientId, app.clientSecret);
    const info = await apis.info.get(granted.accessToken);
    return { refreshToken: granted.refreshToken, hubId: info.hubId, scopes: info.scopes };
  } catch (err) {
    if (err instanceof HubspotError && err.status >= 400 && err.status < 500) throw new ConnectRefused(`HubSpot refused the authorization (${err.platformMessage}).`);
    throw err;
  }
}

export function connectMethods(options: ConnectOptions): ConnectMethod[] {
  const { app } = options;
  const apiBaseUrl = (options.apiBaseUrl ?? API_BASE_URL).replace(/\/+$/, '');
  return [
    {
      kind: 'oauth', id: 'oauth', title: 'Connect HubSpot', submit: 'Connect HubSpot', pkce: false,
      description: 'Sign in to HubSpot as a Super Admin of the account and allow access: its contacts are then checked as they change.',
      fields: [],
      unavailable: () => (app ? null : 'HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET are not set (the service\'s HubSpot app).'),
      async authorize(start) {
        if (!app) throw new ConnectRefused('The HubSpot app is not configured.');
        const query = new URLSearchParams({
          client_id: app.clientId, redirect_uri: start.redirectUri, scope: app.scopes ?? REQUIRED_SCOPES.join(' '), state: start.state,
        });
        return { location: `${AUTHORIZE_URL}?${query}`, tokenOrigin: new URL(apiBaseUrl).origin };
      },
      async exchange(finish) {
        if (!app) throw new ConnectRefused('The HubSpot app is not configured.');
        const granted = await exchangeCode(app, apiBaseUrl, finish);
        return {
          credentials: { client_id: app.clientId, client_secret: app.clientSecret, refresh_token: granted.refreshToken },
          settings: { portal_id: granted.hubId, ...(options.apiBaseUrl ? { api_base_url: apiBaseUrl } : {}) },
        };
      },
    },
    {
      kind: 'form', id: 'private_app', title: 'HubSpot with a private app', submit: 'Connect',
      description: 'In HubSpot: Settings → Integrations → Private apps → Create, with the scopes crm.objects.contacts.read, ' +
        'crm.objects.contacts.write and crm.schemas.contacts.write; paste its access token here.',
      unavailable: () => null,
      fields: [
        { name: 'portal_id', target: 'settings.portal_id', label: 'HubSpot account id (Hub ID)', kind: 'text', required: true, hint: 'Shown in HubSpot\'s account menu.' },
        { name: 'access_token', target: 'credentials.access_token', label: 'Access token', kind: 'secret', required: true, hint: 'pat-…' },
        { name: 'client_secret', target: 'credentials.client_secret', label: 'Client secret (for its webhooks)', kind: 'secret', hint: 'On the private app\'s Auth tab; only with webhooks.' },
      ],
    },
  ];
}
