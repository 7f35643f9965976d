import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, problemOf, startTestService, useTestService, type TestService } from '../support/service.js';

describe.each(testDatabases)('rate limiting on $name', (database) => {
  const current = useTestService(database, { RATE_LIMIT_PER_MINUTE: '3' });
  let service: TestService;
  beforeAll(async () => {
    service = current();
  });

  it('When a key goes over its limit, then 429 with Retry-After and RateLimit headers, and other keys are unaffected', async () => {
    const busy = await service.newAccount(100);
    const quiet = await service.newAccount(100);

    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await service.post('/v1/validate', { email: 'a@b.co' }, { key: busy.apiKey }));
    const other = await service.post('/v1/validate', { email: 'a@b.co' }, { key: quiet.apiKey });

    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const limited = answers[3];
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/q=3; w=60/);
    expect(limited.headers.get('ratelimit')).toMatch(/r=0/);
    expect((await problemOf(limited)).type).toBe('/problems/rate-limited');
    expect(other.status).toBe(200);
  });

  it.runIf(database.name === 'postgres')('When two instances share PostgreSQL, then they count one window together', async () => {
    const second = await startTestService(databaseUrlOf(service), { RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const { apiKey } = await service.newAccount(100);
      const statuses = [];
      for (const instance of [service, second, service, second]) {
        statuses.push((await instance.post('/v1/validate', { email: 'a@b.co' }, { key: apiKey })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await second.close();
    }
  });
});

describe.each(testDatabases.filter((d) => d.name === 'postgres'))('failed authentications across instances on $name', (database) => {
  it('When bad keys come from one address to two instances, then they count together', async () => {
    const one = await startTestService(await database.create(), { FAILED_AUTH_PER_MINUTE: '5' });
    const two = await startTestService(databaseUrlOf(one), { FAILED_AUTH_PER_MINUTE: '5' });
    try {
      const statuses: number[] = [];
      for (const s of [one, two, one, two, one, two]) {
        statuses.push((await s.post('/v1/validate', { email: 'a@example.com' }, { key: 'cv_live_not_a_key' })).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await one.close();
      await two.close();
      await database.dropAll();
    }
  });
});
