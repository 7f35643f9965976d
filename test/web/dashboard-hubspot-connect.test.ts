/**
 * Connect HubSpot from the dashboard (issue #53), over HTTP as a person's browser sends it, on SQLite and PostgreSQL:
 * the service's HubSpot app configured by HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET, the authorization code exchanged
 * at the local HubSpot (HUBSPOT_API_BASE_URL, tests only), the connector made with a sealed refresh token and its
 * portal, its check through the granted token; a callback in another session connects nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startFakeHubspot, type FakeHubspot } from '../hubspot/fake-hubspot.js';
import { setUpProperties } from '../hubspot/properties.js';
import { catalogRowOf, signedUpPerson, useServiceWithMail } from './web-agent.js';

const PASSWORD = 'a long enough passphrase';
const PUBLIC_BASE = 'https://validator.example.com';
const AUTHORIZE = 'https://app.hubspot.com/oauth/authorize';

/** The page's move on to another site (its meta refresh). */
const continueTo = (html: string) => /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe.each(testDatabases)('Connect HubSpot from the dashboard on $name', (database) => {
  let hub: FakeHubspot;
  const env: Record<string, string> = {
    FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', CONNECTOR_SECRET_KEY: 'c3'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
    HUBSPOT_CLIENT_ID: 'hs-client-id', HUBSPOT_CLIENT_SECRET: 'hs-client-secret', PUBLIC_BASE_URL: PUBLIC_BASE,
  };
  // (Registered before the service's own beforeAll: the local HubSpot's address is in its environment.)
  beforeAll(async () => {
    hub = await startFakeHubspot({ hubId: 4242 });
    setUpProperties(hub.state);
    env.HUBSPOT_API_BASE_URL = hub.url;
  });
  afterAll(async () => { await hub.close(); });
  const started = useServiceWithMail(database, env);
  const person = (tag: string) => signedUpPerson(started().s.url, started().mail, tag, PASSWORD);

  /** The person asks to connect; the service sends the browser to HubSpot's consent page. */
  async function ask(tag: string) {
    const { agent } = await person(tag);
    await agent.get('/connectors');
    const answer = await agent.post('/connectors/hubspot/connect', { method: 'oauth', name: 'Our CRM', schedule: '0 * * * *' });
    expect(answer.status).toBe(200);
    const location = continueTo(answer.text);
    return { agent, location, asked: new URL(location).searchParams };
  }

  it('When a person connects HubSpot, then consent at HubSpot creates the connector with a sealed refresh token for its portal, and its check passes', async () => {
    const { agent, location, asked } = await ask('hs-connect');
    // HubSpot's consent page sends the browser back with a code for the redirect URI asked.
    const code = hub.state.authorizationCode(asked.get('redirect_uri')!);
    const landed = await agent.get(`/connectors/hubspot/callback?code=${code}&state=${encodeURIComponent(asked.get('state')!)}`);

    expect(location.startsWith(`${AUTHORIZE}?`)).toBe(true);
    expect(asked.get('client_id')).toBe('hs-client-id');
    expect(asked.get('redirect_uri')).toBe(`${PUBLIC_BASE}/connectors/hubspot/callback`);
    expect(asked.get('scope')).toBe('crm.objects.contacts.read crm.objects.contacts.write crm.schemas.contacts.write');
    expect(landed.status, landed.text.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(-1500)).toBe(303);
    const id = /^\/connectors\/(conn_[\w-]+)\/check\?done=connected$/.exec(landed.location ?? '')?.[1];
    expect(id).toBeTruthy();
    const stored = await started().s.sync.store.get(id!);
    expect(stored).toMatchObject({ type: 'hubspot', name: 'Our CRM', settings: { portal_id: 4242, api_base_url: hub.url } });
    expect(JSON.stringify(stored)).not.toContain('hs-client-secret');
    const checked = await agent.get(landed.location!);
    expect(checked.status).toBe(200);
    expect(checked.text).toContain('HubSpot is connected.');
    expect(checked.text).toContain('data-testid="check-ok"');
    // What it reads and writes (the plugin's discover): the contact properties read, and the cv_ ones written.
    expect(catalogRowOf(checked.text, 'contacts', 'email')).toMatch(/^email \S+ e-mail read yes yes no$/);
    expect(catalogRowOf(checked.text, 'contacts', 'lastmodifieddate')).toBe('lastmodifieddate datetime changes paged by yes yes no');
    expect(catalogRowOf(checked.text, 'contacts', 'cv_phone_status')).toBe('cv_phone_status enumeration verdict written yes yes yes');
    expect(hub.state.grants).toBeGreaterThanOrEqual(1);
  });

  it('When the callback arrives in another person\'s session, or its code was made for another redirect, then nothing is connected', async () => {
    const first = await ask('hs-owner');
    const other = await person('hs-other');
    const code = hub.state.authorizationCode(first.asked.get('redirect_uri')!);
    const state = encodeURIComponent(first.asked.get('state')!);

    const elsewhere = await other.agent.get(`/connectors/hubspot/callback?code=${code}&state=${state}`);
    const wrongRedirect = await first.agent.get(`/connectors/hubspot/callback?code=${hub.state.authorizationCode('https://evil.example.com/cb')}&state=${state}`);

    expect(elsewhere.status).toBe(400);
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.text).not.toContain('hs-client-secret');
    for (const agent of [first.agent, other.agent]) {
      const page = await agent.get('/connectors');
      expect(page.text).not.toContain('Our CRM');
    }
  });
});
