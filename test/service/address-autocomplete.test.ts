/**
 * GET /v1/address/autocomplete (docs/api.md#address-autocomplete) against the real service on each database: delivery
 * points of the embedded and imported reference data and places of the postal data, best first; free; secret and
 * publishable keys; rate-limited per key; bad input as problems.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importReferenceFile } from '../../src/db/reference-import.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';

const SHOP = 'https://shop.example.com';
const FIXTURES = path.resolve(import.meta.dirname, '../address/fixtures');

interface Suggestion { text: string; street: string | null; city: string | null; state: string | null; zip: string | null; country: string; kind: string }

function autocomplete(s: TestService, key: string | null, query: string, origin?: string): Promise<Response> {
  return fetch(`${s.url}/v1/address/autocomplete?${query}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(origin ? { origin } : {}) },
  });
}

async function suggestions(s: TestService, key: string, query: string): Promise<Suggestion[]> {
  const res = await autocomplete(s, key, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { suggestions: Suggestion[] }).suggestions;
}

/** Asks until the answer holds what is expected: a running service loads an import within REFERENCE_RELOAD_MS. */
async function eventually(ask: () => Promise<Suggestion[]>, holds: (found: Suggestion[]) => boolean): Promise<Suggestion[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const found = await ask();
    if (holds(found) || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(testDatabases)('address autocomplete on $name', (database) => {
  const service = useTestService(database, { RATE_LIMIT_PER_MINUTE: '1000', PUBLISHABLE_RATE_LIMIT_PER_MINUTE: '1000', REFERENCE_RELOAD_MS: '100' });

  it('When the start of a delivery line is typed, then the delivery point comes first, and nothing is charged', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);

    const typing = await suggestions(s, apiKey, `q=${encodeURIComponent('6007 Applegate La')}`);
    const spelledOut = await suggestions(s, apiKey, `q=${encodeURIComponent('6007 applegate lane, louis')}`);
    const account = (await (await s.get('/v1/account', apiKey)).json()) as { balance: number };

    expect(typing[0]).toEqual({
      text: '6007 APPLEGATE LN, LOUISVILLE, KY 40219', street: '6007 APPLEGATE LN', city: 'LOUISVILLE', state: 'KY', zip: '40219',
      country: 'US', kind: 'address',
    });
    expect(spelledOut[0].text).toBe('6007 APPLEGATE LN, LOUISVILLE, KY 40219');
    expect(account.balance).toBe(100);
  });

  it('When a city, a ZIP or an FSA is typed, then places of the postal data come, the biggest city first, within the limit', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);

    const city = await suggestions(s, apiKey, 'q=Louisvil&limit=3');
    const zips = await suggestions(s, apiKey, `q=${encodeURIComponent('Louisville, KY 4021')}`);
    const zip = await suggestions(s, apiKey, 'q=40219');
    const fsa = await suggestions(s, apiKey, 'q=m5h&country=ca');
    const elsewhere = await suggestions(s, apiKey, 'q=Berlin&country=DE');

    expect(city).toHaveLength(3);
    expect(city[0]).toMatchObject({ text: 'LOUISVILLE, KY', city: 'LOUISVILLE', state: 'KY', zip: null, kind: 'place' });
    expect(zips.map((p) => p.zip)).toEqual(['40210', '40211', '40212', '40213', '40214']);
    expect(zip[0]).toMatchObject({ text: 'LOUISVILLE, KY 40219', kind: 'place' });
    expect(fsa[0]).toMatchObject({ state: 'ON', country: 'CA', kind: 'place', zip: null });
    expect(fsa[0].text).toMatch(/^M5H, ON \(DOWNTOWN TORONTO/);
    expect(elsewhere).toEqual([]);
  });

  it('When an operator imports OpenAddresses, NAR and USPS ZIP+4 files, then their addresses are suggested once loaded', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const before = await suggestions(s, apiKey, `q=${encodeURIComponent('1600 Amphitheatre')}`);

    await importReferenceFile(s.db, 'openaddresses', path.join(FIXTURES, 'openaddresses-sample.csv'));
    await importReferenceFile(s.db, 'nar', path.join(FIXTURES, 'nar-sample.csv'));
    await importReferenceFile(s.db, 'usps-zip4', path.join(FIXTURES, 'usps-zip4-sample.txt'));
    // 1521 is no point of any file, but inside the ZIP+4 file's odd range 1501-1599 of the street (the last import).
    // (A reload that began during an earlier import reads the rows a few postal codes at a time, not in one snapshot: it
    // may hold the last file's rows and not the one before, until the next reload sees the newest import. Wait for both.)
    await eventually(() => suggestions(s, apiKey, `q=${encodeURIComponent('2701 23rd Ave NE')}&country=CA`), (f) => f.length > 0);
    const inRange = await eventually(() => suggestions(s, apiKey, `q=${encodeURIComponent('1521 Amphitheatre')}`), (f) => f.length > 0);
    const point = await suggestions(s, apiKey, `q=${encodeURIComponent('1600 Amphitheatre P')}`);
    const canadian = await suggestions(s, apiKey, `q=${encodeURIComponent('2701 23rd Ave NE')}&country=CA`);
    const outOfRange = await suggestions(s, apiKey, `q=${encodeURIComponent('1522 Amphitheatre')}`);

    expect(before.filter((f) => f.kind === 'address')).toEqual([]);
    expect(point[0]).toMatchObject({ text: '1600 AMPHITHEATRE PKWY, MOUNTAIN VIEW, CA 94043', kind: 'address' });
    expect(canadian[0]).toMatchObject({ text: '2701 23RD AVE NE, CALGARY, AB T2E 1K4', country: 'CA', kind: 'address' });
    expect(inRange[0]).toMatchObject({ text: '1521 AMPHITHEATRE PKWY, MOUNTAIN VIEW, CA 94043', kind: 'address' });
    expect(outOfRange.filter((f) => f.kind === 'address')).toEqual([]);
  });

  it('When two accounts ask the same, then they get the same answer: the reference data is the service\'s, no account\'s', async () => {
    const s = service();
    const first = await s.newAccount(100, 'First shop');
    const second = await s.newAccount(0, 'Second shop');

    const [a, b] = await Promise.all([first, second].map((account) => autocomplete(s, account.apiKey, 'q=1745%20T')));

    expect(a.status).toBe(200);
    expect(b.status).toBe(200); // free: an account without credits is served
    expect(await a.text()).toBe(await b.text());
  });

  it('When a publishable key asks from its origin, then it is answered with CORS; from another origin, 403', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const created = await s.post('/v1/keys', { publishable: true, origins: [SHOP] }, { key: apiKey });
    const key = ((await created.json()) as { api_key: string }).api_key;

    const preflight = await fetch(`${s.url}/v1/address/autocomplete?q=6007`, {
      method: 'OPTIONS', headers: { origin: SHOP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    const fromShop = await autocomplete(s, key, 'q=6007%20Apple', SHOP);
    const fromElsewhere = await autocomplete(s, key, 'q=6007%20Apple', 'https://evil.example');
    const validateOnly = await fetch(`${s.url}/v1/account`, { headers: { authorization: `Bearer ${key}`, origin: SHOP } });

    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET');
    expect(fromShop.status).toBe(200);
    expect(fromShop.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(((await fromShop.json()) as { suggestions: Suggestion[] }).suggestions[0].street).toBe('6007 APPLEGATE LN');
    expect(fromElsewhere.status).toBe(403);
    expect(fromElsewhere.headers.get('access-control-allow-origin')).toBeNull();
    expect(await problemOf(fromElsewhere)).toMatchObject({ type: '/problems/origin-not-allowed' });
    expect(validateOnly.status).toBe(401);
  });

  it('When the service\'s own page asks without Origin (a same-origin GET), then Sec-Fetch-Site names the service as the origin', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const created = await s.post('/v1/keys', { publishable: true, origins: [s.url] }, { key: apiKey });
    const ownPages = ((await created.json()) as { api_key: string }).api_key;
    const shopOnly = ((await (await s.post('/v1/keys', { publishable: true, origins: [SHOP] }, { key: apiKey })).json()) as { api_key: string }).api_key;
    const sameOrigin = (key: string, site: string) => fetch(`${s.url}/v1/address/autocomplete?q=6007`, {
      headers: { authorization: `Bearer ${key}`, 'sec-fetch-site': site },
    });

    expect((await sameOrigin(ownPages, 'same-origin')).status).toBe(200);
    expect((await sameOrigin(ownPages, 'cross-site')).status).toBe(403);
    expect((await sameOrigin(shopOnly, 'same-origin')).status).toBe(403);
  });

  it('When the input is bad or the key missing, then a problem says which field', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const cases = ['', 'q=', `q=${'a'.repeat(201)}`, 'q=main&limit=0', 'q=main&limit=11', 'q=main&limit=many', 'q=main&country=USA', 'q=main&page=2'];

    const answers = await Promise.all(cases.map((query) => autocomplete(s, apiKey, query)));
    const noKey = await autocomplete(s, null, 'q=main');
    const post = await fetch(`${s.url}/v1/address/autocomplete?q=main`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` } });

    for (const [i, res] of answers.entries()) {
      expect(res.status, cases[i]).toBe(400);
      const problem = await problemOf(res);
      expect(problem.type).toBe('/problems/invalid-request');
      expect((problem.errors as { field?: string; pointer?: string }[]).length, cases[i]).toBeGreaterThan(0);
    }
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe.each(testDatabases)('address autocomplete rate limit on $name', (database) => {
  const service = useTestService(database, { RATE_LIMIT_PER_MINUTE: '3' });

  it('When a key asks more often than its limit, then 429 with Retry-After, though the calls cost nothing', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);

    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await autocomplete(s, apiKey, 'q=6007');
      statuses.push(last.status);
    }

    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await problemOf(last!)).toMatchObject({ type: '/problems/rate-limited' });
  });
});
