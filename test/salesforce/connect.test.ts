/**
 * "Connect Salesforce" (connectors/salesforce/connect.ts, served by the core's src/sync/connect-flows.ts): the OAuth 2.0
 * web-server flow with PKCE against the local org's authorize and token endpoints, then sessions by the refresh-token
 * grant through the real jsforce client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectRefused, loginUrlOf } from '../../connectors/salesforce/connect.js';
import { createSalesforcePlugin, salesforceSettingsSchema, salesforceWriteBackSchema } from '../../connectors/salesforce/index.js';
import { createGuardedHttp } from '../../src/net/outbound-guard.js';
import { ConnectFlows } from '../../src/sync/connect-flows.js';
import type { OAuthConnect } from '../../src/sync/plugin.js';
import { ConnectorRegistry } from '../../src/sync/registry.js';
import { SecretBox } from '../../src/sync/secrets.js';
import { startFakeOrg, USERS, type FakeOrg } from './fake-org.js';
import { answerConsent } from './fake-org-oauth.js';

let org: FakeOrg;
afterEach(async () => { await org?.close(); });

const BASE = 'https://validator.example.com';
const REDIRECT = `${BASE}/connectors/salesforce/callback`;
const who = { accountId: 'acct_1', userId: 'usr_1', sessionHash: 'session-hash-1' };
const secrets = new SecretBox(Buffer.alloc(32, 7));

/** The used nonces as the database keeps them (src/sync/flow-nonces.ts), in memory: true the first time only. */
const usedNonces = () => {
  const used = new Set<string>();
  return { useOnce: async (purpose: string, nonce: string) => !used.has(`${purpose}:${nonce}`) && Boolean(used.add(`${purpose}:${nonce}`)) };
};

/** What a person asks for: a name, a login host (here the local org, as a My Domain), a schedule. */
interface ConnectRequest { name: string; loginUrl: string; schedule: string }

/** The core's flows over the Salesforce plugin with the org's connected app: the form sent, the callback taken. */
function connectFor(o: FakeOrg) {
  const plugin = createSalesforcePlugin({ app: { clientId: o.state.clientId, clientSecret: o.state.clientSecret } });
  const flows = new ConnectFlows(new ConnectorRegistry([plugin]), null, secrets, usedNonces(), true);
  const method = flows.method('salesforce', 'connect', 'oauth') as OAuthConnect;
  return {
    start: (person: typeof who, request: ConnectRequest, base: string) => flows.start(person, 'salesforce', method, { name: request.name, schedule: request.schedule }, {
      environment: 'mydomain', my_domain: request.loginUrl,
    }, base),
    finish: (query: Record<string, string>, cookie: string | undefined, person: typeof who, base: string) => flows.exchange('salesforce', query, cookie, person, base),
  };
}

/** The admin allows (or denies) at the org's consent page; the query the browser brings back. */
async function consent(location: string, decision: 'allow' | 'deny' = 'allow') {
  const { status, pageStatus, back } = await answerConsent(location, decision);
  expect([pageStatus, status]).toEqual([200, 302]);
  expect(back.origin + back.pathname).toBe(REDIRECT);
  return Object.fromEntries(back.searchParams);
}

const plugin = createSalesforcePlugin({ retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 10 }, sleep: async () => undefined });

describe('Connect Salesforce: the web-server flow with PKCE', () => {
  it('When the admin allows access, then the code and the verifier give a refresh token, and sessions come from it', async () => {
    org = await startFakeOrg();
    const connect = connectFor(org);
    const request = { name: 'Org', loginUrl: org.url, schedule: '*/15 * * * *' };

    const { location, cookie } = await connect.start(who, request, BASE);
    const asked = new URL(location).searchParams;
    const query = await consent(location);
    const { credentials: given, ...carried } = await connect.finish(query, cookie, who, BASE);
    const credentials = given as { client_id: string; client_secret: string; refresh_token: string };

    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('state')).toBe(query.state);
    expect(asked.get('redirect_uri')).toBe(REDIRECT);
    expect(carried).toEqual({
      name: 'Org', schedule: '*/15 * * * *', settings: { login_url: org.url, objects: ['Contact', 'Lead'], realtime: false },
      write_back: { overwrite_address: false, shadow_fields: false },
    });
    expect(credentials).toEqual({ client_id: org.state.clientId, client_secret: org.state.clientSecret, refresh_token: expect.stringMatching(/^5Aep/) });
    expect(cookie).not.toContain(credentials.refresh_token);

    const session = await plugin.open({
      settings: salesforceSettingsSchema.parse({ login_url: org.url }), credentials, writeBack: salesforceWriteBackSchema.parse({}),
      log: { info() {}, warn() {} }, fetch: createGuardedHttp({ privateOrigins: [org.url] }).fetch,
    });
    org.state.seed('Contact', 2);
    org.state.expireSessions();
    const pages = [];
    for await (const page of session.changes({})) pages.push(page);

    expect(pages.flatMap((p) => p.records)).toHaveLength(2);
    // The code's grant, then the first session and the one after it expired: refresh-token grants, as the admin who connected.
    expect(org.state.calls.token).toBe(3);
    expect([...org.state.sessionUsers.values()]).toEqual([USERS.admin, USERS.admin, USERS.admin]);
  });

  it('When the token endpoint gets a code with a wrong verifier, then it refuses it (the local org checks PKCE)', async () => {
    org = await startFakeOrg();
    const connect = connectFor(org);
    const { location } = await connect.start(who, { name: 'Org', loginUrl: org.url, schedule: '*/15 * * * *' }, BASE);
    const { code } = await consent(location);

    const answer = await fetch(`${org.url}/services/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: org.state.clientId, client_secret: org.state.clientSecret, redirect_uri: REDIRECT, code_verifier: 'x'.repeat(64) }),
    });

    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'invalid_grant', error_description: 'invalid code verifier' });
  });

  it('When the callback is replayed with its cookie, or comes with another flow\'s cookie, then it is refused before any exchange', async () => {
    org = await startFakeOrg();
    const connect = connectFor(org);
    const request = { name: 'Org', loginUrl: org.url, schedule: '*/15 * * * *' };
    const first = await connect.start(who, request, BASE);
    const query = await consent(first.location);
    const other = await connect.start(who, request, BASE);

    // The other flow's cookie carries another verifier (and another nonce: the state check goes first).
    await expect(connect.finish(query, other.cookie, who, BASE)).rejects.toThrow(/does not match/);
    await connect.finish(query, first.cookie, who, BASE);
    const tokenCalls = org.state.calls.token;
    // The same cookie again, with the same code or a fresh one under the same state: the flow was used.
    await expect(connect.finish(query, first.cookie, who, BASE)).rejects.toThrow(/already used/);
    await expect(connect.finish(await consent(first.location), first.cookie, who, BASE)).rejects.toThrow(/already used/);
    expect(org.state.calls.token).toBe(tokenCalls);
  });

  it('When the callback comes to another session, without the cookie, or after a denial, then nothing is connected', async () => {
    org = await startFakeOrg();
    const connect = connectFor(org);
    const { location, cookie } = await connect.start(who, { name: 'Org', loginUrl: org.url, schedule: '*/15 * * * *' }, BASE);
    const query = await consent(location);

    await expect(connect.finish(query, cookie, { ...who, sessionHash: 'someone-else' }, BASE)).rejects.toThrow(/another session/);
    await expect(connect.finish(query, undefined, who, BASE)).rejects.toThrow(ConnectRefused);
    await expect(connect.finish(query, `${cookie}x`, who, BASE)).rejects.toThrow(/does not match/);

    const denied = await connect.start(who, { name: 'Org', loginUrl: org.url, schedule: '*/15 * * * *' }, BASE);
    await expect(connect.finish(await consent(denied.location, 'deny'), denied.cookie, who, BASE)).rejects.toThrow(/did not give access \(end-user denied/);
    expect(org.state.calls.token).toBeUndefined();
  });

  it('When the login host is chosen, then only Salesforce\'s hosts are taken (no open redirect)', async () => {
    expect(await loginUrlOf('production', '', false)).toBe('https://login.salesforce.com');
    expect(await loginUrlOf('sandbox', '', false)).toBe('https://test.salesforce.com');
    await expect(loginUrlOf('mydomain', 'https://evil.example.com', false)).rejects.toThrow(/must be a Salesforce host/);
    await expect(loginUrlOf('mydomain', 'http://127.0.0.1:9', false)).rejects.toThrow(/must be a Salesforce host/);
    await expect(loginUrlOf('mydomain', 'acme.my.salesforce.com.evil.example', false)).rejects.toThrow(/must be a Salesforce host/);
    await expect(loginUrlOf('mydomain', '', false)).rejects.toThrow(/Type the org/);
    // Tests' local org on loopback, with CONNECTOR_ALLOW_PRIVATE; a public site still is not a login host.
    expect(await loginUrlOf('mydomain', 'http://127.0.0.1:9/', true)).toBe('http://127.0.0.1:9');
    await expect(loginUrlOf('mydomain', 'https://evil.example.com', true)).rejects.toThrow(/must be a Salesforce host/);
  });
});
