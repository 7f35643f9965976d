/**
 * The Connectors pages without JSON (src/web/connector-routes.ts), over HTTP as a person's browser sends them, on SQLite and
 * PostgreSQL: Connect Salesforce through the local org's consent page (authorization code with PKCE, the state bound to
 * the session), the check with its one-click set-up, the client-credentials and Shopify forms, the install link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startFakeOrg, USERS, type FakeOrg } from '../salesforce/fake-org.js';
import { answerConsent } from '../salesforce/fake-org-oauth.js';
import { catalogRowOf, signedUpPerson, useServiceWithMail, type WebAgent } from './web-agent.js';

const PASSWORD = 'a long enough passphrase';
const PUBLIC_BASE = 'https://validator.example.com';

/** The admin allows at the org's consent page; the browser's way back to the service. */
async function consent(location: string) {
  const { back } = await answerConsent(location);
  return { back, path: back.pathname + back.search };
}

/** The page's move on to another site (its meta refresh). */
const continueTo = (html: string) => /<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

describe.each(testDatabases)('the Connectors pages on $name', (database) => {
  let org: FakeOrg;
  beforeAll(async () => { org = await startFakeOrg(); });
  afterAll(async () => { await org.close(); });
  const started = useServiceWithMail(database, {
    FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', CONNECTOR_SECRET_KEY: 'b2'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
    SALESFORCE_CLIENT_ID: 'fake-client-id', SALESFORCE_CLIENT_SECRET: 'fake-client-secret',
    SHOPIFY_API_KEY: 'shopify-key', SHOPIFY_API_SECRET: 'shopify-secret', PUBLIC_BASE_URL: PUBLIC_BASE,
  });
  const person = (tag: string) => signedUpPerson(started().s.url, started().mail, tag, PASSWORD);

  async function connect(agent: WebAgent, form: Record<string, string> = {}) {
    await agent.get('/connectors');
    const answer = await agent.post('/connectors/salesforce/connect', {
      name: 'Production org', environment: 'mydomain', my_domain: org.url, objects: 'Lead', realtime: 'true', write_mode: 'shadow', schedule: '0 * * * *', ...form,
    });
    expect(answer.status).toBe(200);
    return answer;
  }

  it('When a person connects Salesforce, then consent at the org creates the connector with a sealed refresh token, and its check follows', async () => {
    const { agent } = await person('sf-connect');
    org.state.missingFields.add('Lead.CV_Email__c');

    const answer = await connect(agent);
    const location = continueTo(answer.text);
    const asked = new URL(location).searchParams;
    const { back, path } = await consent(location);
    const landed = await agent.get(path);

    expect(location.startsWith(`${org.url}/services/oauth2/authorize?`)).toBe(true);
    expect(asked.get('redirect_uri')).toBe(`${PUBLIC_BASE}/connectors/salesforce/callback`);
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(back.searchParams.get('state')).toBe(asked.get('state'));
    expect(landed.status).toBe(303);
    const id = /^\/connectors\/(conn_[\w-]+)\/check\?done=connected$/.exec(landed.location ?? '')?.[1];
    expect(id).toBeTruthy();
    const stored = await started().s.sync.store.get(id!);
    expect(stored).toMatchObject({
      name: 'Production org', schedule: '0 * * * *', settings: { login_url: org.url, objects: ['Lead'], realtime: true },
      writeBack: { overwrite_address: false, shadow_fields: true },
    });
    expect(JSON.stringify(stored)).not.toContain('5Aep');

    const checked = await agent.get(landed.location!);
    expect(checked.text).toContain('Salesforce is connected.');
    expect(checked.text).toContain('Lead has no Lead.CV_Email__c');
    expect(checked.text).toContain('Set up the fields for me');
    // What it reads and writes (the plugin's discover): the org's own fields with their use, the missing one said so.
    expect(catalogRowOf(checked.text, 'Lead', 'Email')).toMatch(/^Email \S+ e-mail read yes yes yes$/);
    expect(catalogRowOf(checked.text, 'Lead', 'SystemModstamp')).toMatch(/^SystemModstamp \S+ changes paged by yes yes (yes|no)$/);
    expect(catalogRowOf(checked.text, 'Lead', 'CV_Email__c')).toBe('CV_Email__c string verdict written missing no no');

    const setUp = await agent.post(`/connectors/${id}/setup`, {});
    expect(setUp.text).toContain('created the field Lead.CV_Email__c (CV Email)');
    expect(setUp.text).toContain('data-testid="check-ok"');
    expect(catalogRowOf(setUp.text, 'Lead', 'CV_Email__c')).toMatch(/^CV_Email__c \S+ verdict written yes yes yes$/);
    // The connected admin's session made the fields: the connector works as the admin who consented.
    expect([...org.state.sessionUsers.values()]).toContain(USERS.admin);
  });

  it('When the callback arrives in another person\'s session, or without the state cookie, then nothing is connected', async () => {
    const { agent } = await person('sf-victim');
    const { agent: other } = await person('sf-other');
    const answer = await connect(agent);
    const { path } = await consent(continueTo(answer.text));

    const elsewhere = await other.get(path);
    const noCookie = await (async () => {
      const cookie = agent.cookies.get('cv_connect');
      agent.cookies.delete('cv_connect');
      const res = await agent.get(path);
      agent.cookies.set('cv_connect', cookie!);
      return res;
    })();

    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('does not match');
    expect(noCookie.status).toBe(400);
    expect(await started().s.sync.connectors.list((await started().s.db.all<{ account_id: string }>(`SELECT account_id FROM users WHERE email LIKE 'sf-victim%'`))[0].account_id)).toEqual([]);
  });

  it('When the callback is replayed with the same flow cookie in the same session, then it is refused and no second connector is made', async () => {
    const { agent, email } = await person('sf-replay');
    const answer = await connect(agent);
    const location = continueTo(answer.text);
    const { path } = await consent(location);
    const flowCookie = agent.cookies.get('cv_connect')!;
    const first = await agent.get(path);
    // The replay: the same cookie sent again, with the same callback, and with a fresh code under the same state.
    agent.cookies.set('cv_connect', flowCookie);
    const sameCallback = await agent.get(path);
    agent.cookies.set('cv_connect', flowCookie);
    const { path: freshCode } = await consent(location);
    const tokenCallsBefore = org.state.calls.token ?? 0;
    const replayed = await agent.get(freshCode);

    const [{ account_id: accountId }] = await started().s.db.all<{ account_id: string }>(`SELECT account_id FROM users WHERE email = $1`, [email]);
    expect(first.status).toBe(303);
    expect(sameCallback.status).toBe(400);
    expect(sameCallback.text).toContain('already used');
    expect(replayed.status).toBe(400);
    expect(replayed.text).toContain('already used');
    expect(org.state.calls.token ?? 0).toBe(tokenCallsBefore);
    expect(await started().s.sync.connectors.list(accountId)).toHaveLength(1);
  });

  it('When the form is sent without its token, or names a host that is not Salesforce\'s, then it is refused', async () => {
    const { agent } = await person('sf-csrf');
    await agent.get('/connectors');

    const forged = await agent.post('/connectors/salesforce/connect', { environment: 'production' }, { csrf: false });
    const elsewhere = await agent.post('/connectors/salesforce/connect', { environment: 'mydomain', my_domain: 'https://evil.example.com' });

    expect(forged.status).toBe(403);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain('role="alert"');
  });

  it('When a person fills in the client-credentials or the Shopify form, then the connector is made; a bad field is shown, no secret echoed', async () => {
    const { agent } = await person('forms');
    await agent.get('/connectors');

    const salesforce = await agent.post('/connectors/new', {
      type: 'salesforce', name: 'Org by app', login_url: org.url, client_id: org.state.clientId, client_secret: org.state.clientSecret, objects: 'Contact',
    });
    const shopify = await agent.post('/connectors/new', { type: 'shopify', name: 'Store', shop: 'Example.myshopify.com', access_token: 'shpat_secret123', api_secret: 'hush-hush' });
    const bad = await agent.post('/connectors/new', { type: 'shopify', name: 'Store', shop: 'not a shop', access_token: 'shpat_secret456', api_secret: 'hush' });

    expect(salesforce.status).toBe(303);
    expect(shopify.status).toBe(303);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('settings.shop');
    expect(bad.text).not.toContain('shpat_secret456');
    const page = await agent.get('/connectors');
    expect(page.text).toContain('Org by app');
    expect(page.text).toContain('Store <small>shopify</small>');
    const checked = await agent.get(salesforce.location!);
    expect(checked.text).toContain('data-testid="check-ok"');
  });

  it('When a person saves a connector\'s policy, then a name the account has is kept, none is the fixed table, and an unknown one is refused on the page', async () => {
    const { agent } = await person('policy');
    await agent.get('/connectors');
    const made = await agent.post('/connectors/new', { type: 'shopify', name: 'Policy store', shop: 'policy-form.myshopify.com', access_token: 'shpat_policy', api_secret: 'hush' });
    const id = /\/connectors\/(conn_[\w-]+)\/check/.exec(made.location ?? '')![1];
    await agent.get('/connectors');

    const saved = await agent.post(`/connectors/${id}/policy`, { policy: 'checkout' });
    const kept = (await started().s.sync.store.get(id))!.policy;
    const unknown = await agent.post(`/connectors/${id}/policy`, { policy: 'nope' });
    const cleared = await agent.post(`/connectors/${id}/policy`, { policy: '' });
    const forged = await agent.post(`/connectors/${id}/policy`, { policy: 'signup' }, { csrf: false });

    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/connectors?done=policy-saved');
    expect(kept).toBe('checkout');
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('role="alert"');
    expect(unknown.text).toContain('policy: no policy named &quot;nope&quot;');
    expect(cleared.status).toBe(303);
    expect(forged.status).toBe(403);
    expect((await started().s.sync.store.get(id))!.policy).toBeNull();
  });

  it('When a person asks for the Shopify install link, then the page moves on to this service\'s signed install link', async () => {
    const { agent } = await person('shopify-install');
    await agent.get('/connectors');

    const answer = await agent.post('/connectors/shopify/install', { shop: 'acme.myshopify.com', name: 'Acme' });
    const location = new URL(continueTo(answer.text));

    expect(answer.status).toBe(200);
    expect(location.origin + location.pathname).toBe(`${PUBLIC_BASE}/shopify/install`);
    expect(location.searchParams.get('shop')).toBe('acme.myshopify.com');
    // The same browser, signed in to the account that made the link, goes on to Shopify; another browser is asked to sign in.
    const app = await agent.get(`/shopify/install${location.search}`);
    const elsewhere = await fetch(`${started().s.url}/shopify/install${location.search}`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(app.status).toBe(302);
    expect(app.location).toContain('https://acme.myshopify.com/admin/oauth/authorize?client_id=shopify-key');
    expect(elsewhere.status).toBe(200);
    expect(await elsewhere.text()).toContain('Sign in and continue');
  });
});
