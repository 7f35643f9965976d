/**
 * How a person connects Salesforce from the dashboard (the core serves both: src/sync/connect-flows.ts):
 * - "Connect Salesforce", the OAuth 2.0 web-server flow with PKCE (RFC 7636; Salesforce Help, "OAuth 2.0 Web Server
 *   Flow for Web App Integration"). The login host is one of Salesforce's (production `login.salesforce.com`, sandbox
 *   `test.salesforce.com`, or the org's My Domain): never another site, so the form cannot be made an open redirect.
 *   The core makes the state and the verifier and keeps them sealed in a cookie bound to the session; here the
 *   authorize URL is made and the code exchanged (jsforce's OAuth2, through the outbound guard) for a refresh token.
 *   The connector's credentials are the app's client id and secret and that refresh token; each session is a
 *   refresh-token grant.
 * - A connected app's client credentials, typed into a form.
 */
import { checkPlatformUrl, UnsafeUrl } from '../../src/sync/platform-url.js';
import { ConnectRefused, type ConnectMethod, type FormField } from '../../src/sync/plugin.js';
import { guardedTransport } from './transport.js';

export { ConnectRefused };

export interface SalesforceApp {
  clientId: string;
  clientSecret: string;
}

/** This service's callback as the connected app lists it (the core's `/connectors/{type}/callback`). */
export const CALLBACK_PATH = '/connectors/salesforce/callback';

export const LOGIN_HOSTS = { production: 'https://login.salesforce.com', sandbox: 'https://test.salesforce.com' } as const;
/** Salesforce's own login and My Domain hosts (`acme.my.salesforce.com`, `acme--uat.sandbox.my.salesforce.com`). */
const SALESFORCE_HOST = /^(?:[a-z0-9-]+\.)*(?:salesforce\.com|force\.com)$/i;
const LOCAL_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2})$/;

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

/** The options both Salesforce forms share: objects, real time, where the standardized values go. */
const OPTIONS: FormField[] = [
  {
    name: 'objects', target: 'settings.objects', label: 'Records to check', kind: 'multi', initial: ['Contact', 'Lead'],
    choices: [{ value: 'Contact', label: 'Contacts' }, { value: 'Lead', label: 'Leads' }],
  },
  { name: 'realtime', target: 'settings.realtime', label: 'Check new and changed records within seconds (Change Data Capture)', kind: 'checkbox' },
  {
    name: 'write_mode', target: 'flow.write_mode', label: 'Standardized address, e-mail and phone', kind: 'select', initial: 'fields',
    choices: [
      { value: 'fields', label: 'Only the verdict fields (CV_…_Status__c)', sets: { 'write_back.overwrite_address': false, 'write_back.shadow_fields': false } },
      { value: 'shadow', label: 'Beside the typed ones, in CV_ shadow fields', sets: { 'write_back.overwrite_address': false, 'write_back.shadow_fields': true } },
      { value: 'overwrite', label: 'Over the typed address when it is confirmed', sets: { 'write_back.overwrite_address': true, 'write_back.shadow_fields': false } },
    ],
  },
];

/** jsforce's OAuth2 client for the login host (jsforce, a large package, is loaded when a person connects, not at start). */
async function oauth2(app: SalesforceApp, loginUrl: string, redirectUri: string) {
  const { default: jsforce } = await import('jsforce');
  return new jsforce.OAuth2({ loginUrl, clientId: app.clientId, clientSecret: app.clientSecret, redirectUri });
}

/** The ways to connect Salesforce: the OAuth flow when the service holds a connected app, and the client-credentials form. */
export function salesforceConnect(app: SalesforceApp | null): ConnectMethod[] {
  return [
    {
      kind: 'oauth', id: 'connect', title: 'Connect Salesforce', submit: 'Connect Salesforce',
      description: 'Sign in to Salesforce as the user the connector should work as (a dedicated integration user is best) and allow access.',
      unavailable: () => (app ? null : "The operator has not set up the Salesforce app (SALESFORCE_CLIENT_ID, SALESFORCE_CLIENT_SECRET): use a connected app's client credentials instead."),
      fields: [
        {
          name: 'environment', target: 'flow.environment', label: 'Org', kind: 'radio', initial: 'production',
          choices: [
            { value: 'production', label: 'Production (login.salesforce.com)' }, { value: 'sandbox', label: 'Sandbox (test.salesforce.com)' },
            { value: 'mydomain', label: 'My Domain' },
          ],
        },
        { name: 'my_domain', target: 'flow.my_domain', label: 'My Domain host', kind: 'text', hint: 'acme.my.salesforce.com, when the org signs in on its My Domain' },
        ...OPTIONS,
      ],
      async authorize({ redirectUri, state, codeChallenge, flow, allowPrivate }) {
        const loginUrl = await loginUrlOf(String(flow.environment ?? ''), String(flow.my_domain ?? ''), allowPrivate);
        const location = (await oauth2(app!, loginUrl, redirectUri)).getAuthorizationUrl({
          scope: 'api refresh_token', state, ...(codeChallenge ? { code_challenge: codeChallenge } : {}), prompt: 'login consent',
        });
        return { location, carry: { loginUrl }, tokenOrigin: loginUrl };
      },
      async exchange({ code, codeVerifier, redirectUri, carried, fetch }) {
        const loginUrl = String(carried.loginUrl);
        const client = await oauth2(app!, loginUrl, redirectUri);
        client._transport = guardedTransport(fetch);
        const token = await client.requestToken(code, codeVerifier ? { code_verifier: codeVerifier } : {}).catch((err: Error) => {
          throw new ConnectRefused(`Salesforce refused the authorization code (${err.name}: ${err.message.slice(0, 200)}): start again.`);
        });
        if (!token.refresh_token) throw new ConnectRefused('Salesforce gave no refresh token: add the "refresh_token" scope to the connected app.');
        return {
          credentials: { client_id: app!.clientId, client_secret: app!.clientSecret, refresh_token: token.refresh_token },
          settings: { login_url: loginUrl },
        };
      },
    },
    {
      kind: 'form', id: 'credentials', title: 'Salesforce with a connected app', submit: 'Add the Salesforce connector',
      description: 'The client-credentials flow of your own connected app, with its run-as user.',
      unavailable: () => null,
      fields: [
        { name: 'login_url', target: 'settings.login_url', label: 'My Domain URL', kind: 'url', hint: 'https://acme.my.salesforce.com', required: true },
        { name: 'client_id', target: 'credentials.client_id', label: 'Consumer key', kind: 'text', required: true },
        { name: 'client_secret', target: 'credentials.client_secret', label: 'Consumer secret', kind: 'secret', required: true },
        ...OPTIONS,
      ],
    },
  ];
}
