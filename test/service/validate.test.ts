import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { useTestService, type TestService } from '../support/service.js';

describe.each(testDatabases)('POST /v1/validate on $name', (database) => {
  const current = useTestService(database);
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });

  it('When all three modules are asked for, then each has an answer, credits are charged and response_ms is given', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', {
      address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043',
      email: 'Someone@Example.COM',
      phone: '+1 415 555 0123',
      options: { smtp: false },
    }, { key: apiKey });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json() as any;
    expect(body.address).toMatchObject({ country: 'US', components: expect.objectContaining({ postal_code: '94043', state: 'CA' }) });
    expect(['verified', 'corrected', 'partial', 'plausible', 'ambiguous', 'invalid']).toContain(body.address.status);
    expect(body.email.normalized).toBe('Someone@example.com');
    expect(body.phone).toMatchObject({ e164: '+14155550123', country: 'US' });
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    expect(typeof body.response_ms).toBe('number');
    // address 1 + phone 2 charged; e-mail 1 charged unless its status is unknown (refunded, docs/api.md#credits-and-prices)
    const emailCharge = body.email.status === 'unknown' ? 0 : 1;
    expect(body.credits).toEqual({ charged: 3 + emailCharge, remaining: 10 - 3 - emailCharge });
  });

  it('When the whole address is sent as line1 and its city, state and ZIP again as parts, then it is read once', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', {
      address: { line1: '1267 Martin St #203, Nashville, TN 37203', city: 'Nashville', state: 'TN', postal_code: '37203-1234', country: 'US' },
    }, { key: apiKey });

    const body = await res.json() as any;
    expect(res.status).toBe(200);
    expect(body.address).toMatchObject({ status: 'verified', dpv: 'Y', standardized: '1267 MARTIN ST # 203 NASHVILLE TN 37203' });
  });

  it('When only a phone is asked for, then address and email are null and only the phone is charged', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', { phone: '+442079460958' }, { key: apiKey });

    const body = await res.json() as any;
    expect(res.status).toBe(200);
    expect(body.address).toBeNull();
    expect(body.email).toBeNull();
    expect(body.phone.status).toBe('valid');
    expect(body.credits.charged).toBe(body.phone.type === 'landline' ? 3 : 2);
  });

  it('When a national phone number comes with a US address and no country, then the address decides its region', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', { address: '1 Main St, Springfield, IL 62701', phone: '(217) 555-0134' }, { key: apiKey });

    const body = await res.json() as any;
    expect(body.phone).toMatchObject({ status: 'valid', e164: '+12175550134', country: 'US' });
  });

  it('When the address is outside the US and Canada, then it costs 3 credits', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', { address: '10 Downing Street, London SW1A 2AA', country: 'GB' }, { key: apiKey });

    expect(res.status).toBe(200);
    expect((await res.json() as any).credits).toEqual({ charged: 3, remaining: 7 });
  });

  it('When an address written in Hangul names no country, then its script tells South Korea: priced as international, and a national phone number is read in Korea', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', { address: '서울특별시 종로구 세종대로 175, 03172', phone: '02-2100-2114' }, { key: apiKey });

    expect(res.status).toBe(200);
    const body = await res.json() as any;
    expect(body.address).toMatchObject({ status: 'plausible', country: 'KR' });
    expect(body.address.footnotes[0]).toMatch(/^B#: country SOUTH KOREA told from the Hangul script/);
    expect(body.phone).toMatchObject({ e164: '+82221002114', country: 'KR' });
    expect(body.credits.charged).toBe(3 + (body.phone.type === 'landline' ? 3 : 2));
  });

  it('When the address is in Puerto Rico (country "PR"), then it is domestic USPS mail (read as US, 1 credit) and the phone is read in PR', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', {
      address: { line1: '150 Calle A', line2: 'Urb Las Gladiolas', city: 'San Juan', postal_code: '00926' }, country: 'PR',
      phone: '(787) 722-1234',
    }, { key: apiKey });

    expect(res.status).toBe(200);
    const body = await res.json() as any;
    expect(body.address).toMatchObject({ status: 'plausible', country: 'US', components: expect.objectContaining({ state: 'PR', urbanization: 'LAS GLADIOLAS' }) });
    expect(body.phone).toMatchObject({ status: 'valid', e164: '+17877221234', country: 'PR' });
    expect(body.credits).toEqual({ charged: 1 + (body.phone.type === 'landline' ? 3 : 2), remaining: 9 - (body.phone.type === 'landline' ? 3 : 2) });
  });

  it('When a US address without ZIP ends with a state code that is also a country code (KY: Cayman Islands), then it costs 1 credit, as a US one', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', { address: '6007 Applegate Lane, Louisville, KY' }, { key: apiKey });

    const body = await res.json() as any;
    expect(body.address).toMatchObject({ country: 'US', status: 'verified', components: expect.objectContaining({ state: 'KY' }) });
    expect(body.credits).toEqual({ charged: 1, remaining: 9 });
  });

  it('When the address is given as parts, then it is validated like the one-line form', async () => {
    const { apiKey } = await service.newAccount(10);

    const res = await service.post('/v1/validate', {
      address: { line1: '1600 Amphitheatre Pkwy', city: 'Mountain View', state: 'CA', postal_code: '94043' },
    }, { key: apiKey });

    expect(res.status).toBe(200);
    expect((await res.json() as any).address.components).toMatchObject({ postal_code: '94043', state: 'CA' });
  });

  it('When the caller sends a safe X-Request-Id, then it is used; an unsafe one is replaced', async () => {
    const { apiKey } = await service.newAccount(10);

    const safe = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey, headers: { 'x-request-id': 'trace-42' } });
    const unsafe = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey, headers: { 'x-request-id': '<script>' } });

    expect((await safe.json() as any).request_id).toBe('trace-42');
    expect((await unsafe.json() as any).request_id).toMatch(/^req_/);
  });

  it('When a caller repeats an X-Request-Id, then each request is charged, counted and refundable on its own', async () => {
    const { apiKey } = await service.newAccount(10);
    const headers = { 'x-request-id': 'same-id-twice' };

    const first = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey, headers });
    const second = await service.post('/v1/validate', { phone: '+14155550123' }, { key: apiKey, headers });
    const account = await (await service.get('/v1/account', apiKey)).json() as any;

    expect([(await first.json() as any).request_id, (await second.json() as any).request_id]).toEqual(['same-id-twice', 'same-id-twice']);
    expect(account.usage.phone).toEqual({ requests: 2, credits: 4 });
    expect(account.balance).toBe(6);
  });

  it('When GET /healthz is called, then it answers ok without a key', async () => {
    const res = await service.get('/healthz');

    expect(res.status).toBe(200);
    expect(await res.json() as any).toEqual({ status: 'ok' });
  });
});
