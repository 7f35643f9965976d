import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRecord, VERDICT_COLUMNS } from '../../src/bulk/record-pipeline.js';
import { EngineFailed } from '../../src/contact-check/errors.js';
import { loadConfig } from '../../src/config.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { createLogger } from '../../src/log.js';
import { ContactValidation, type Engines } from '../../src/contact-check/validate-contact.js';
import { openEngines } from '../../src/service.js';
import { testDatabases } from '../support/databases.js';
import { QUIET_ENV } from '../support/quiet-service.js';
import { useTestService, type TestService } from '../support/service.js';

const log = createLogger('silent');

describe.each(testDatabases)('when an engine fails or runs late, on $name', (database) => {
  const current = useTestService(database);
  let service: TestService;
  let real: Engines & { close(): Promise<void> };
  beforeAll(async () => {
    service = current();
    real = await openEngines(loadConfig({ ...QUIET_ENV }), service.db);
  });
  afterAll(() => real?.close());

  const validationWith = (phone: Engines['phone'], budgetMs = 1000) =>
    new ContactValidation({ ...real, phone }, service.ledger, budgetMs);

  it.each([
    ['rejects its promise', 'req-fault-1', async () => { throw new Error('engine crashed'); }],
    ['answers at once but throws instead', 'req-fault-2', () => { throw new Error('engine crashed at once'); }],
  ])('When an engine %s, then the use case throws EngineFailed and the whole charge is refunded', async (_how, requestId, validate) => {
    const { accountId } = await service.newAccount(10);
    const broken = { ...real.phone, validate };

    const attempt = validationWith(broken).validate(accountId, requestId, {
      address: '1 Main St, Springfield, IL 62701', phone: '+14155550123', smtp: false,
    }, Date.now(), log);

    await expect(attempt).rejects.toBeInstanceOf(EngineFailed);
    expect(await service.ledger.balance(accountId)).toBe(10);
  });

  it('When an engine fails behind the HTTP error handler, then the answer is the 500 problem it always was', async () => {
    const { accountId } = await service.newAccount(10);
    const broken = { ...real.phone, validate: async () => { throw new Error('engine crashed'); } };
    const app = express();
    app.post('/v1/validate', async () => {
      await validationWith(broken).validate(accountId, 'req-fault-http', { phone: '+14155550123', smtp: false }, Date.now(), log);
    });
    app.use(errorHandler());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));

    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/validate`, { method: 'POST' });
    server.close();

    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.text()).toBe(JSON.stringify({
      type: '/problems/internal', title: 'The service failed to process the request', status: 500,
      detail: 'A validation engine failed; nothing was charged.',
    }));
    expect(await service.ledger.balance(accountId)).toBe(10);
  });

  it("When an engine fails on a bulk job's record, then the record is failed with cv_error internal and not charged", async () => {
    const { accountId } = await service.newAccount(10);
    const broken = { ...real.phone, validate: async () => { throw new Error('engine crashed'); } };
    const record = { key: '000001', input: { phone: '+14155550123', smtp: false } };

    const finished = await validateRecord(validationWith(broken), accountId, 'job-fault-1', record, log);

    expect(finished).toMatchObject({ key: '000001', outcome: 'failed', credits: 0 });
    expect(finished.result[VERDICT_COLUMNS.indexOf('cv_error')]).toBe('internal');
    expect(await service.ledger.balance(accountId)).toBe(10);
  });

  it('When every engine answers at once (no budget timer set), then the answer is the one given through the budget', async () => {
    const { accountId } = await service.newAccount(10);
    const input = { address: '1 Main St, Springfield, IL 62701', phone: '+12026301234', smtp: false };
    const awaited = { ...real.phone, validate: async (...args: Parameters<Engines['phone']['validate']>) => real.phone.validate(...args) };

    const atOnce = await validationWith(real.phone).validate(accountId, 'req-now-1', input, Date.now(), log);
    const throughBudget = await validationWith(awaited).validate(accountId, 'req-now-2', input, Date.now(), log);

    expect({ ...atOnce, credits: null }).toEqual({ ...throughBudget, credits: null });
    expect(atOnce.phone).toMatchObject({ status: 'valid', e164: '+12026301234', carrier_source: 'allocation' });
    expect(atOnce.credits).toEqual({ charged: 3, remaining: 7 });
    expect(throughBudget.credits).toEqual({ charged: 3, remaining: 4 });
  });

  it('When an engine is still working past the budget, then its module answers unknown/timeout in time and the rest is kept', async () => {
    const { accountId } = await service.newAccount(10);
    const stuck = { ...real.phone, validate: () => new Promise<never>(() => undefined) };
    const started = Date.now();

    const answer = await validationWith(stuck, 100).validate(accountId, 'req-late-1', {
      address: '1 Main St, Springfield, IL 62701', phone: '+14155550123', smtp: false,
    }, started, log);

    // The stuck engine never answers: the 100 ms budget ended the wait, not the default 2 s one (and a loaded machine
    // has room for its delays).
    expect(Date.now() - started).toBeLessThan(1500);
    expect(answer.phone).toMatchObject({ status: 'unknown', reason: 'timeout', carrier_source: 'none' });
    expect(answer.address?.components.postal_code).toBe('62701');
    expect(answer.credits).toEqual({ charged: 3, remaining: 7 });
  });
});

describe.each(testDatabases)('a debit in doubt on $name', (database) => {
  const service = useTestService(database);

  it('When the connection dies after the debit committed, then the request answers 503 and its credits come back', async () => {
    const s = service();
    const { accountId, apiKey } = await s.newAccount(100);
    const { debit } = s.ledger;
    // The COMMIT reached the database; its answer did not reach us (the connection reset on the way back).
    Object.assign(s.ledger, {
      debit: async (...args: Parameters<typeof debit>) => {
        await debit.apply(s.ledger, args);
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      },
    });
    let res: Response;
    try {
      res = await s.post('/v1/validate', { phone: '+1 502 713 4410' }, { key: apiKey });
    } finally {
      Object.assign(s.ledger, { debit });
    }
    const charged = 100 - (await s.ledger.balance(accountId));
    await s.inDoubt.settle();

    expect(res.status).toBe(503);
    expect(charged).toBe(2); // it did commit
    expect(await s.ledger.balance(accountId)).toBe(100); // and is given back
    expect(s.inDoubt.size).toBe(0);
  });
});
