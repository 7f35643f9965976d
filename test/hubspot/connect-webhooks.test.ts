/**
 * How HubSpot reaches us and how a person connects it, as the plugin declares them: v3 webhook signatures (checked
 * before the age, in constant time, five minutes either way), events per portal and what each asks for, and the OAuth
 * connect's authorize URL and code exchange against the local HubSpot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHubspotPlugin } from '../../connectors/hubspot/index.js';
import { createGuardedHttp, ConnectRefused, type OAuthConnect, type WebhookRequest } from '../../src/sync/plugin.js';
import { signedDelivery, startFakeHubspot, type FakeHubspot } from './fake-hubspot.js';

let hub: FakeHubspot;
afterEach(async () => { await hub?.close(); });

const TARGET = 'https://cv.example.com/webhooks/hubspot';

function requestOf(delivery: { body: string; headers: Record<string, string> }, now = Date.now(), url = TARGET): WebhookRequest {
  return {
    method: 'POST', url, now, raw: Buffer.from(delivery.body),
    headers: Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v])),
  };
}

describe('the HubSpot connector: webhooks', () => {
  it('When a delivery is signed with the app\'s secret, then it is valid; altered, mis-signed or unsigned it is invalid; older or newer than 5 minutes it is stale', async () => {
    hub = await startFakeHubspot();
    const app = { clientId: hub.state.app.clientId, clientSecret: hub.state.app.clientSecret };
    const spec = createHubspotPlugin({ app }).webhooks!;
    const events = [{ subscriptionType: 'contact.creation' as const, objectId: 1001 }];
    const good = signedDelivery(hub.state, TARGET, events);
    expect(spec.claimedAccount(requestOf(good))).toBe(String(hub.state.hubId));
    // The app's secret signed: its events speak for every portal they name.
    expect(spec.verify(requestOf(good), null)).toBe('valid-app');
    expect(spec.verify(requestOf(good), { client_id: 'id', client_secret: 'x', refresh_token: 'r' })).toBe('valid-app');

    expect(spec.verify({ ...requestOf(good), raw: Buffer.from(good.body.replace('1001', '1002')) }, null)).toBe('invalid');
    expect(spec.verify(requestOf(good, Date.now(), `${TARGET}?x=1`), null)).toBe('invalid');
    expect(spec.verify(requestOf(signedDelivery(hub.state, TARGET, events, { secret: 'another-secret' })), null)).toBe('invalid');
    const unsigned = requestOf(good);
    delete unsigned.headers['x-hubspot-signature-v3'];
    expect(spec.verify(unsigned, null)).toBe('invalid');

    const old = signedDelivery(hub.state, TARGET, events, { timestamp: Date.now() - 5 * 60_000 - 1000 });
    expect(spec.verify(requestOf(old), null)).toBe('stale');
    const future = signedDelivery(hub.state, TARGET, events, { timestamp: Date.now() + 5 * 60_000 + 1000 });
    expect(spec.verify(requestOf(future), null)).toBe('stale');
    // A forged old delivery is invalid, not stale: the age is read only once the signature holds.
    expect(spec.verify(requestOf(signedDelivery(hub.state, TARGET, events, { secret: 'x', timestamp: Date.now() - 3_600_000 })), null)).toBe('invalid');
  });

  it('When a delivery holds events of several portals, then each is its own event, and only creations and changes of the checked properties ask for a read', async () => {
    hub = await startFakeHubspot();
    const spec = createHubspotPlugin({ app: { clientId: 'id', clientSecret: hub.state.app.clientSecret } }).webhooks!;
    const delivery = signedDelivery(hub.state, TARGET, [
      { subscriptionType: 'contact.creation', objectId: 1001 },
      { subscriptionType: 'contact.propertyChange', objectId: 1002, propertyName: 'email', propertyValue: 'a@b.com', portalId: 555 },
      { subscriptionType: 'contact.propertyChange', objectId: 1003, propertyName: 'cv_email_status', propertyValue: 'valid' },
      { subscriptionType: 'contact.deletion', objectId: 1004 },
    ], { firstEventId: 70 });
    const events = spec.events(requestOf(delivery))!;
    expect(events.map((e) => [e.account, e.topic, e.dedupeKey])).toEqual([
      [String(hub.state.hubId), 'contact.creation', `${hub.state.hubId}:70`],
      ['555', 'contact.propertyChange', '555:71'],
      [String(hub.state.hubId), 'contact.propertyChange', `${hub.state.hubId}:72`],
      [String(hub.state.hubId), 'contact.deletion', `${hub.state.hubId}:73`],
    ]);
    const actions = await Promise.all(events.map((e) => spec.handle(e, { connector: {} as never, credentials: { access_token: 'x' } })));
    expect(actions).toEqual([
      [{ kind: 'read', keys: ['contact:1001'] }], [{ kind: 'read', keys: ['contact:1002'] }], [], [],
    ]);
    expect(spec.events({ ...requestOf(delivery), raw: Buffer.from('{"not":"a list"}') })).toBeNull();
  });

  it('When a private app\'s delivery arrives, then it claims its portal and is checked with that connector\'s client secret, app or no app', async () => {
    hub = await startFakeHubspot();
    const spec = createHubspotPlugin().webhooks!;
    const withApp = createHubspotPlugin({ app: { clientId: 'id', clientSecret: hub.state.app.clientSecret } }).webhooks!;
    const delivery = signedDelivery(hub.state, TARGET, [{ subscriptionType: 'contact.creation', objectId: 9 }], { secret: 'private-app-secret' });
    expect(spec.claimedAccount(requestOf(delivery))).toBe(String(hub.state.hubId));
    expect(spec.verify(requestOf(delivery), { access_token: 'pat', client_secret: 'private-app-secret' })).toBe('valid');
    expect(spec.verify(requestOf(delivery), { access_token: 'pat' })).toBe('invalid');
    expect(spec.verify(requestOf(delivery), null)).toBe('invalid');
    expect(withApp.verify(requestOf(delivery), { access_token: 'pat', client_secret: 'private-app-secret' })).toBe('valid');
    expect(withApp.verify(requestOf(delivery), { access_token: 'pat' })).toBe('invalid');
  });
});

describe('the HubSpot connector: connecting', () => {
  it('When a person connects with OAuth, then they go to HubSpot\'s authorize page with the scopes, and the code becomes a refresh token and the account\'s id', async () => {
    hub = await startFakeHubspot();
    const app = { clientId: hub.state.app.clientId, clientSecret: hub.state.app.clientSecret };
    const plugin = createHubspotPlugin({ app, apiBaseUrl: hub.url });
    const oauth = plugin.connect!.find((m) => m.kind === 'oauth') as OAuthConnect;
    expect(oauth.unavailable()).toBeNull();
    expect(createHubspotPlugin().connect!.find((m) => m.kind === 'oauth')!.unavailable()).toMatch(/HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET/);
    const redirectUri = 'https://cv.example.com/connectors/hubspot/callback';
    const started = await oauth.authorize({ redirectUri, state: 'st4te', draft: { settings: {} }, flow: {}, allowPrivate: true });
    const location = new URL(started.location);
    expect(location.origin + location.pathname).toBe('https://app.hubspot.com/oauth/authorize');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: redirectUri, state: 'st4te', scope: 'crm.objects.contacts.read crm.objects.contacts.write crm.schemas.contacts.write',
    });
    expect(started.tokenOrigin).toBe(hub.url);

    const fetch = createGuardedHttp({ privateOrigins: [hub.url] }).fetch;
    const finished = await oauth.exchange({ code: hub.state.authorizationCode(redirectUri), redirectUri, carried: {}, draft: { settings: {} }, fetch, allowPrivate: true });
    expect(finished.settings).toEqual({ portal_id: hub.state.hubId, api_base_url: hub.url });
    expect(finished.credentials).toEqual({ client_id: app.clientId, client_secret: app.clientSecret, refresh_token: expect.stringMatching(/^na1-/) });
    expect(hub.state.refreshTokens.has(String(finished.credentials.refresh_token))).toBe(true);

    // A code used twice (or for another redirect URI) is HubSpot's refusal, in its words.
    const code = hub.state.authorizationCode(redirectUri);
    await oauth.exchange({ code, redirectUri, carried: {}, draft: { settings: {} }, fetch, allowPrivate: true });
    await expect(oauth.exchange({ code, redirectUri, carried: {}, draft: { settings: {} }, fetch, allowPrivate: true }))
      .rejects.toThrow(new ConnectRefused('HubSpot refused the authorization (400 BAD_AUTH_CODE: missing or unknown auth code).'));
  });

  it('When a person connects a private app, then the form asks for the account id and the token, and its values make a connector', () => {
    const form = createHubspotPlugin().connect!.find((m) => m.kind === 'form')!;
    expect(form.fields.map((f) => [f.target, f.kind, f.required ?? false])).toEqual([
      ['settings.portal_id', 'text', true], ['credentials.access_token', 'secret', true], ['credentials.client_secret', 'secret', false],
    ]);
    const plugin = createHubspotPlugin();
    expect(plugin.settingsSchema.parse({ portal_id: '7654321' })).toMatchObject({ portal_id: 7654321 });
  });
});
