/**
 * Publishable keys (docs/account.md#publishable-keys): a key a store may put in its pages. It only validates, only from its origins (CORS
 * for those alone), is rate-limited per client address too, and reads nothing of the account.
 */
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

const SHOP = 'https://shop.example.com';

async function publishableKey(s: TestService, secretKey: string, body: Record<string, unknown>) {
  const res = await s.post('/v1/keys', { publishable: true, ...body }, { key: secretKey });
  return { res, body: (await res.json()) as Record<string, any> };
}

function validateFrom(s: TestService, key: string, origin: string | null, body: unknown) {
  return fetch(`${s.url}/v1/validate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });
}

describe.each(testDatabases)('publishable keys on $name', (database) => {
  const service = useTestService(database, { PUBLISHABLE_RATE_LIMIT_PER_MINUTE: '50', RATE_LIMIT_PER_MINUTE: '1000' });

  it('When a page on an allowed origin validates an address, then it gets the answer with CORS for that origin and no credits', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { res, body: key } = await publishableKey(s, apiKey, { origins: [SHOP, 'https://www.shop.example.com/'] });

    const preflight = await fetch(`${s.url}/v1/validate`, {
      method: 'OPTIONS', headers: { origin: SHOP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    const answer = await validateFrom(s, key.api_key, SHOP, { address: '6007 Applegate Ln, Louisville, KY 40219', email: 'ann@gmial.com' });
    const body = (await answer.json()) as Record<string, any>;

    expect(res.status).toBe(201);
    expect(key).toMatchObject({ api_key: expect.stringMatching(/^cv_pub_/), publishable: { origins: [SHOP, 'https://www.shop.example.com'], phone: false } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(body).toMatchObject({ address: { status: 'verified' }, email: { suggestion: 'ann@gmail.com' }, credits: null });
  });

  it('When the origin is not the key\'s, or missing, then 403 without CORS headers', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { body: key } = await publishableKey(s, apiKey, { origins: [SHOP] });

    const elsewhere = await validateFrom(s, key.api_key, 'https://evil.example', { email: 'a@example.com' });
    const noOrigin = await validateFrom(s, key.api_key, null, { email: 'a@example.com' });

    for (const res of [elsewhere, noOrigin]) {
      expect(res.status).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect(await problemOf(elsewhere)).toMatchObject({ type: '/problems/origin-not-allowed' });
  });

  it("When preflights probe which shops use the service, then a shop's origin, any other and none get the same answer", async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    await publishableKey(s, apiKey, { origins: [SHOP] });
    const probe = async (origin?: string) => {
      const res = await fetch(`${s.url}/v1/validate`, {
        method: 'OPTIONS', headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(name)));
      return { status: res.status, headers, body: await res.text() };
    };

    const [listed, unlisted, none] = [await probe(SHOP), await probe('https://not-a-customer.example'), await probe()];

    expect(listed.status).toBe(204);
    expect(unlisted).toEqual(listed);
    expect(none).toEqual(listed);
  });

  it('When a publishable key asks for a phone or any other endpoint, then 403 for the module and 401 elsewhere', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { body: key } = await publishableKey(s, apiKey, { origins: [SHOP] });
    const { body: withPhone } = await publishableKey(s, apiKey, { origins: [SHOP], phone: true });

    const phone = await validateFrom(s, key.api_key, SHOP, { phone: '+1 502 713 4410' });
    const allowedPhone = await validateFrom(s, withPhone.api_key, SHOP, { phone: '+1 502 713 4410' });
    const elsewhere = await Promise.all(['/v1/account', '/v1/keys', '/v1/batches', '/v1/connectors'].map((path) =>
      fetch(s.url + path, { headers: { authorization: `Bearer ${key.api_key}`, origin: SHOP } })));

    expect(phone.status).toBe(403);
    expect(await problemOf(phone)).toMatchObject({ type: '/problems/module-not-allowed' });
    expect(allowedPhone.status).toBe(200);
    for (const res of elsewhere) {
      expect(res.status).toBe(401);
      expect((await problemOf(res)).type).toBe('/problems/unauthorized');
    }
  });

  it('When a secret key answers, then it carries no CORS headers (it must never be in a page)', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const res = await validateFrom(s, apiKey, SHOP, { email: 'a@example.com' });

    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await res.json()) as { credits: unknown }).credits).not.toBeNull();
  });

  it('When a publishable key is revoked or asked for with bad origins, then it stops working / is refused', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { body: key } = await publishableKey(s, apiKey, { origins: [SHOP] });
    await fetch(`${s.url}/v1/keys/${key.key_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });

    const revoked = await validateFrom(s, key.api_key, SHOP, { email: 'a@example.com' });
    const bad = await Promise.all([['http://shop.example.com'], ['https://shop.example.com/path'], ['javascript:alert(1)'], []].map((origins) =>
      publishableKey(s, apiKey, { origins })));
    const listed = (await (await s.get('/v1/keys', apiKey)).json()) as { keys: Record<string, any>[] };

    expect(revoked.status).toBe(401);
    for (const { res } of bad) expect(res.status).toBe(400);
    expect(listed.keys.find((k) => k.key_id === key.key_id)).toMatchObject({ prefix: expect.stringMatching(/^cv_pub_/), publishable: { origins: [SHOP] } });
  });
});

describe.each(testDatabases)('publishable keys per client address on $name', (database) => {
  const service = useTestService(database, { PUBLISHABLE_RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_PER_MINUTE: '1000' });

  it('When one client address sends too many requests with a publishable key, then it gets 429 while the key stays usable elsewhere', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { body: key } = await publishableKey(s, apiKey, { origins: [SHOP] });

    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await validateFrom(s, key.api_key, SHOP, { email: `a${i}@example.com` }));
    const secret = await validateFrom(s, apiKey, null, { email: 'b@example.com' });

    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5].status).toBe(429);
    expect(answers[5].headers.get('retry-after')).toBeTruthy();
    expect(secret.status).toBe(200);
  });
});
