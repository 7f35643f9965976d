import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { testDatabases } from '../support/databases.js';
import { QUIET_ENV } from '../support/quiet-service.js';

describe('logs', () => {
  const lines: string[] = [];
  let service: RunningService;
  const database = testDatabases[0];
  beforeAll(async () => {
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(...String(chunk).trim().split('\n')); done(); } });
    const config = loadConfig({ ...QUIET_ENV, DATABASE_URL: await database.create() });
    service = await startService(config, createLogger('info', sink));
  });
  afterAll(async () => {
    await service.close();
    await database.dropAll();
  });

  it('When a request is served, then one JSON line carries its id and masked values, never the key or the raw values', async () => {
    const { api_key } = await service.accounts.create('Logger');
    await service.accounts.grantCredits((await service.accounts.authenticate(api_key))!.accountId, 10);

    const res = await fetch(`${service.url}/v1/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'jane.doe@example.com', phone: '+14155550123' }),
    });
    const requestId = res.headers.get('x-request-id');
    await res.text();
    // The line is written when the response finishes, which the client may see first.
    const entry = await vi.waitFor(() => {
      const found = lines.map((l) => JSON.parse(l)).find((l) => l.request_id === requestId && l.msg === 'request');
      if (!found) throw new Error('no request line yet');
      return found;
    });
    const all = lines.join('\n');
    expect(entry).toMatchObject({ status: 200, path: '/v1/validate', email: 'j***@example.com', phone: '+1415*****23' });
    expect(all).not.toContain(api_key);
    expect(all).not.toContain('jane.doe');
    expect(all).not.toContain('4155550123');
  });
});
