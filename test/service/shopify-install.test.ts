/**
 * The Shopify app's OAuth install (connectors/shopify/install.ts, docs/connectors.md) as a merchant's browser goes
 * through it, on SQLite and PostgreSQL: the real service, people signed in to the dashboard, and the local store's
 * authorize page, which (as Shopify does for an app the shop approved already) sends the browser straight back with a
 * signed code. The install belongs to a signed-in person of the link's account at the link and at the callback, and a
 * shop connected to another account is never paused, erased or moved by a click.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSecretKey, SecretBox } from '../../src/sync/secrets.js';
import { json, request, runNow } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { problemOf } from '../support/service.js';
import { startFakeShop, type FakeShop } from '../shopify/fake-admin.js';
import { signQuery } from '../shopify/fake-admin-oauth.js';
import { newKeyOf, signedUpPerson, useServiceWithMail, WebAgent } from '../web/web-agent.js';

const PASSWORD = 'a long enough passphrase';
const PUBLIC_BASE = 'https://cv.example.com';
const APP = { apiKey: 'app-key', apiSecret: 'app-secret' };
const SECRET_KEY = 'e5'.repeat(32);

describe.each(testDatabases)('installing the Shopify app by OAuth on $name', (database) => {
  // One local store for the service (SHOPIFY_ADMIN_BASE_URL); each test gives it a domain of its own (one shop, one
  // connector). Started before the service: vitest runs beforeAll hooks in the order they are registered.
  let shop: FakeShop;
  beforeAll(async () => { shop = await startFakeShop({ app: APP }); });
  afterAll(async () => { await shop.close(); });
  const started = useServiceWithMail(database, {
    FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', CONNECTOR_SECRET_KEY: SECRET_KEY, CONNECTOR_ALLOW_PRIVATE: 'true',
    SHOPIFY_API_KEY: APP.apiKey, SHOPIFY_API_SECRET: APP.apiSecret, PUBLIC_BASE_URL: PUBLIC_BASE,
    get SHOPIFY_ADMIN_BASE_URL() { return shop.url; },
  });
  const s = () => started().s;
  let shopCounter = 0;
  const newShop = () => {
    shop.state.shop = `store-${++shopCounter}.myshopify.com`;
    return shop;
  };
  const person = async (tag: string) => {
    const { agent, email } = await signedUpPerson(s().url, started().mail, tag, PASSWORD);
    return { agent, email, key: await newKeyOf(agent) };
  };
  const linkFor = async (key: string, shopDomain: string, extra: Record<string, unknown> = {}) => {
    const res = await request(s(), 'POST', '/v1/connectors/shopify/install', key, { shop: shopDomain, name: 'Via OAuth', ...extra });
    expect(res.status).toBe(201);
    return new URL((await json(res)).install_url as string);
  };

  /**
   * A browser opens the link: the service's page, Shopify's authorize page (which answers at once), and Shopify's
   * signed redirect back to the service. Returns each answer the browser met, and the last.
   */
  async function openLink(agent: WebAgent, link: URL) {
    const first = await agent.get(link.pathname + link.search);
    if (first.status !== 302) return { first, last: first };
    const authorize = await fetch(first.location!, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(`${PUBLIC_BASE}/shopify/callback`);
    return { first, back, last: await agent.get(back.pathname + back.search) };
  }

  const holderOf = async (domain: string) => (await s().sync.store.byPlatformKey('shopify', domain))?.id ?? null;
  const credentialsOf = async (id: string) => new SecretBox(parseSecretKey(SECRET_KEY)).open<Record<string, string>>((await s().sync.store.get(id))!.sealed);
  const connectorsOf = async (key: string) => (await json(await s().get('/v1/connectors', key))).connectors as { connector_id: string }[];

  /** The store's owner S connects the store by the install, signed in to S's account. */
  async function ownerConnects(tag: string) {
    const store = newShop();
    const owner = await person(tag);
    const { last } = await openLink(owner.agent, await linkFor(owner.key, store.state.shop));
    expect(last.status).toBe(201);
    const [connector] = await connectorsOf(owner.key);
    return { store, owner, connectorId: connector.connector_id };
  }

  it("When another account's install link for a connected store is opened by the store's merchant, then the store stays its owner's and nothing changes", async () => {
    // Arrange: S's store is connected to S; T (another tenant) asks for an install link naming S's store.
    const { store, owner, connectorId } = await ownerConnects('shop-owner');
    store.state.seedCustomers(3, (i) => ({ email: `buyer${i}@example.com` }));
    const attacker = await person('attacker');
    const link = await linkFor(attacker.key, store.state.shop, { settings: { hold: true, mode: 'block' } });
    const tokenBefore = (await credentialsOf(connectorId)).access_token;
    const exchangesBefore = store.state.calls.code_exchange ?? 0;

    // Act: the merchant opens it signed in to S's dashboard, and again in a browser signed in to nothing.
    const signedInToS = await openLink(owner.agent, link);
    const anonymous = await openLink(new WebAgent(s().url), link);

    // Assert: neither went on to Shopify; S's connector is untouched and still reads the store; T has nothing.
    expect(signedInToS.first.status).toBe(400);
    expect(signedInToS.first.text).toContain('another account');
    expect(anonymous.first.status).toBe(200);
    expect(anonymous.first.text).toMatch(/href="\/signin\?next=%2Fshopify%2Finstall/);
    expect(store.state.calls.code_exchange ?? 0).toBe(exchangesBefore);
    expect(await holderOf(store.state.shop)).toBe(connectorId);
    expect(await json(await s().get(`/v1/connectors/${connectorId}`, owner.key))).toMatchObject({ status: 'active', reason: null });
    expect((await credentialsOf(connectorId)).access_token).toBe(tokenBefore);
    expect(await connectorsOf(attacker.key)).toEqual([]);
    const run = await runNow(s(), owner.key, connectorId);
    expect(run).toMatchObject({ status: 'completed', records_read: 3 });
  });

  it("When the link's own account installs a store connected to another account, then the callback refuses and changes nothing, until the owner disconnects it", async () => {
    const { store, owner, connectorId } = await ownerConnects('holder');
    const other = await person('other-tenant');
    const tokenBefore = (await credentialsOf(connectorId)).access_token;
    const exchangesBefore = store.state.calls.code_exchange ?? 0;

    // A person of the other account, signed in there and a staff member of the shop, goes all the way to the callback.
    const refused = await openLink(other.agent, await linkFor(other.key, store.state.shop));
    const kept = {
      holder: await holderOf(store.state.shop), token: (await credentialsOf(connectorId)).access_token,
      exchanges: store.state.calls.code_exchange ?? 0, others: (await connectorsOf(other.key)).length,
    };
    const shown = await json(await s().get(`/v1/connectors/${connectorId}`, owner.key));
    // The owner lets the store go; the same install then moves it.
    const released = await request(s(), 'DELETE', `/v1/connectors/${connectorId}`, owner.key);
    const moved = await openLink(other.agent, await linkFor(other.key, store.state.shop));

    expect(refused.first.status).toBe(302);
    expect(refused.last.status).toBe(409);
    expect(refused.last.text).toContain('connected to another account');
    // Refused before the code was exchanged: no token was minted for the other account.
    expect(kept).toEqual({ holder: connectorId, token: tokenBefore, exchanges: exchangesBefore, others: 0 });
    expect(shown).toMatchObject({ status: 'active', reason: null });
    expect(released.status).toBe(204);
    expect(moved.last.status).toBe(201);
    const [mine] = await connectorsOf(other.key);
    expect(await holderOf(store.state.shop)).toBe(mine.connector_id);
  });

  it('When the person opening the link is not signed in, then a page asks them to sign in and the install goes on after it', async () => {
    const store = newShop();
    const { email, key } = await person('signs-in-later');
    const link = await linkFor(key, store.state.shop);
    const browser = new WebAgent(s().url);

    const asked = await browser.get(link.pathname + link.search);
    const next = /href="(\/signin\?next=[^"]+)"/.exec(asked.text)![1].replace(/&amp;/g, '&');
    const form = await browser.get(next);
    const signedIn = await browser.post('/signin', { email, password: PASSWORD, next: /name="next" value="([^"]+)"/.exec(form.text)![1].replace(/&amp;/g, '&') });
    const { last } = await openLink(browser, new URL(signedIn.location!, PUBLIC_BASE));

    expect(asked.status).toBe(200);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(link.pathname + link.search);
    expect(last.status).toBe(201);
    expect(last.text).toContain(`Your store ${store.state.shop} is connected`);
    expect(await connectorsOf(key)).toHaveLength(1);
  });

  it('When the callback comes without the state cookie, with a forged signature, or in a session of another account, then nothing is connected', async () => {
    const store = newShop();
    const { agent, key } = await person('careful');
    const other = await person('elsewhere');
    const link = await linkFor(key, store.state.shop);
    const first = await agent.get(link.pathname + link.search);
    const back = new URL((await fetch(first.location!, { redirect: 'manual' })).headers.get('location')!);
    const query = Object.fromEntries(back.searchParams);
    const { hmac: _hmac, ...signed } = query;
    const path = (params: Record<string, string>) => `/shopify/callback?${new URLSearchParams(params)}`;
    const cookie = agent.cookies.get('cv_shopify_state')!;

    const withoutCookie = await fetch(`${s().url}${path(query)}`, { headers: { accept: 'application/json' } });
    const forged = await agent.get(path({ ...signed, hmac: signQuery(signed, 'wrong') }), { accept: 'application/json' });
    other.agent.cookies.set('cv_shopify_state', cookie);
    const otherSession = await other.agent.get(path(query), { accept: 'application/json' });
    const done = await agent.get(path(query), { accept: 'application/json' });

    expect(withoutCookie.status).toBe(400);
    expect(await problemOf(withoutCookie)).toMatchObject({ type: '/problems/shopify-install-refused' });
    expect(forged.status).toBe(400);
    expect(otherSession.status).toBe(400);
    expect(await connectorsOf(other.key)).toEqual([]);
    expect(done.status).toBe(201);
    const connector = JSON.parse(done.text);
    expect(connector).toMatchObject({ type: 'shopify', name: 'Via OAuth', settings: { shop: store.state.shop }, status: 'active' });
    expect(done.text).not.toMatch(/shpat_/);
    expect(store.state.oauth.authorizeRequests.at(-1)!.get('redirect_uri')).toBe(`${PUBLIC_BASE}/shopify/callback`);
  });

  it("When a connector squats a store with a token the store refuses, then the owner's install takes the store, and a reinstall keeps one", async () => {
    const store = newShop();
    const squatter = await person('squatter');
    const owner = await person('real-owner');
    const squatted = await json(await request(s(), 'POST', '/v1/connectors', squatter.key, {
      type: 'shopify', name: 'Not mine', settings: { shop: store.state.shop }, credentials: { access_token: 'shpat_squat', api_secret: 'squat' },
    }));
    const refused = await request(s(), 'POST', '/v1/connectors', owner.key, {
      type: 'shopify', name: 'Mine', settings: { shop: store.state.shop }, credentials: { access_token: 'shpat_mine', api_secret: 'mine' },
    });

    const installed = await openLink(owner.agent, await linkFor(owner.key, store.state.shop));
    const reinstalled = await openLink(owner.agent, await linkFor(owner.key, store.state.shop));

    const left = await json(await s().get(`/v1/connectors/${squatted.connector_id}`, squatter.key));
    const mine = await connectorsOf(owner.key);
    expect(refused.status).toBe(409);
    expect(installed.last.status).toBe(201);
    expect(left).toMatchObject({ status: 'paused', reason: 'shop_claimed' });
    expect(await credentialsOf(squatted.connector_id)).toEqual({});
    expect(reinstalled.last.status).toBe(201);
    expect(mine).toHaveLength(1);
    expect(await holderOf(store.state.shop)).toBe(mine[0].connector_id);
  });
});
