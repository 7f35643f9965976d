import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

describe.each(testDatabases)('bad input on $name: a precise problem, nothing charged, the service stays up', (database) => {
  const current = useTestService(database);
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    service = current();
    ({ apiKey } = await service.newAccount(50));
  });

  const balance = async () => (await (await service.get('/v1/account', apiKey)).json() as any).balance;

  it.each([
    ['broken JSON', '{"email": "a@b.co",', 400, 'invalid-json'],
    ['a JSON string instead of an object', '"hello"', 400, 'invalid-json'],
    ['an array', '[1,2]', 400, 'invalid-request'],
    ['deeply nested JSON', '{"email":' + '['.repeat(5000) + ']'.repeat(5000) + '}', 400, 'invalid-request'],
    ['a wrong type', '{"email": 42}', 400, 'invalid-request'],
    ['an unknown field', '{"email": "a@b.co", "admin": true}', 400, 'invalid-request'],
    ['no module', '{"country": "US"}', 400, 'invalid-request'],
    ['null modules only', '{"email": null, "phone": null}', 400, 'invalid-request'],
    ['a bad country hint', '{"phone": "+14155550123", "country": "USA"}', 400, 'invalid-request'],
    ['a control character', '{"email": "a\\u0000@b.co"}', 400, 'invalid-request'],
    ['CRLF in the e-mail (SMTP injection)', '{"email": "a@b.co\\r\\nRCPT TO:<x@y.z>"}', 400, 'invalid-request'],
    ['a lone surrogate', '{"phone": "\\ud800"}', 400, 'invalid-request'],
    ['unknown options', '{"email": "a@b.co", "options": {"smtp": "yes"}}', 400, 'invalid-request'],
  ])('When the body has %s, then %i %s', async (_what, body, status, code) => {
    const before = await balance();

    const res = await service.post('/v1/validate', body, { key: apiKey });

    expect(res.status).toBe(status);
    const problem = await problemOf(res);
    expect(problem).toMatchObject({ type: `/problems/${code}`, status });
    expect(JSON.stringify(problem)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    expect(await balance()).toBe(before);
  });

  it('When a schema problem is found, then errors lists each field', async () => {
    const problem = await problemOf(await service.post('/v1/validate', { email: 1, phone: [], extra: 1 }, { key: apiKey }));

    const fields = (problem.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['(body)', 'email', 'phone']);
  });

  it('When the body is over 16 KiB, then 413', async () => {
    const res = await service.post('/v1/validate', { address: 'x'.repeat(17 * 1024) }, { key: apiKey });

    expect(res.status).toBe(413);
    expect((await problemOf(res)).type).toBe('/problems/payload-too-large');
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x']])(
    'When the content type is %s, then 415',
    async (type) => {
      const res = await service.post('/v1/validate', '{"email":"a@b.co"}', { key: apiKey, headers: { 'content-type': type } });

      expect(res.status).toBe(415);
      expect((await problemOf(res)).type).toBe('/problems/unsupported-media-type');
    },
  );

  it('When the JSON body declares an unsupported charset, then 415', async () => {
    const res = await service.post('/v1/validate', '{"email":"a@b.co"}', { key: apiKey, headers: { 'content-type': 'application/json; charset=ebcdic' } });

    expect(res.status).toBe(415);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a malformed key', 'Bearer hello'],
    ['a well-formed but unknown key', `Bearer cv_live_${'A'.repeat(38)}`],
    ['another scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
  ])('When the request has %s, then 401 with WWW-Authenticate', async (_what, authorization) => {
    const res = await fetch(`${service.url}/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: '{"email":"a@b.co"}',
    });

    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await problemOf(res)).type).toBe('/problems/unauthorized');
  });

  it('When the key was revoked, then 401', async () => {
    const account = await service.newAccount(5);
    await service.accounts.revokeKey(account.keyId);

    const res = await service.post('/v1/validate', { email: 'a@b.co' }, { key: account.apiKey });

    expect(res.status).toBe(401);
  });

  it('When the credits do not cover the request, then 402 with balance and required, and nothing is charged', async () => {
    const poor = await service.newAccount(2);

    const res = await service.post('/v1/validate', { address: '1 Main St, Springfield, IL 62701', phone: '+14155550123' }, { key: poor.apiKey });

    const problem = await problemOf(res);
    expect(res.status).toBe(402);
    // Member for member and in this order, as the API has always answered it.
    expect(JSON.stringify(problem)).toBe(JSON.stringify({
      type: '/problems/insufficient-credits', title: "The account's usable credits do not cover the request", status: 402,
      detail: 'This request costs 3 credits; the account has 2 usable.', balance: 2, required: 3, request_id: problem.request_id,
    }));
    expect(problem.request_id).toEqual(expect.any(String));
    expect((await service.accounts.credits(poor.accountId)).balance).toBe(2);
  });

  it('When the path or the method is unknown, then 404 or 405 with Allow', async () => {
    const notFound = await service.get('/nope');
    const wrongMethod = await service.get('/v1/validate', apiKey);

    expect(notFound.status).toBe(404);
    expect((await problemOf(notFound)).type).toBe('/problems/not-found');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it("When a problem's type is followed, then the service describes it", async () => {
    const problem = await problemOf(await service.post('/v1/validate', '{', { key: apiKey }));

    const described = await fetch(new URL(String(problem.type), service.url));

    expect(described.status).toBe(200);
    expect(await described.json() as any).toEqual({ type: '/problems/invalid-json', title: problem.title, status: 400 });
    expect((await service.get('/problems/no-such-thing')).status).toBe(404);
  });

  it('When a malformed URL escape is sent, then 400 problem, not a crash', async () => {
    const res = await service.get('/problems/%E0%A4%A', apiKey);

    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    await problemOf(res);
  });

  it('When one address keeps presenting bad keys, then it gets 429 after 30 failures a minute, while a valid key is still served', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push((await service.post('/v1/validate', { email: 'a@b.co' }, { key: `cv_live_${String(i).padStart(38, 'x')}` })).status);
    }
    const good = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey });

    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    expect(statuses.at(-1)).toBe(429);
    expect(good.status).toBe(200); // a valid key is never held back by the failures
  });

  it('When a raw request smuggles CR LF into a header, then the server refuses it and stays up', async () => {
    const reply = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(service.url).port), '127.0.0.1', () => {
        socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: a\rInjected: yes\r\n\r\n`);
      });
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('close', () => resolve(data));
      socket.setTimeout(2000, () => socket.destroy());
    });

    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    expect(reply).not.toMatch(/Injected/);
    expect((await service.get('/healthz')).status).toBe(200);
  });
});
