/**
 * Test keys (docs/account.md#test-keys) through the real service on SQLite and PostgreSQL: made by the command line, the
 * API and the dashboard's form; the documented fixed inputs give their documented answers (the table is read from
 * docs/account.md); nothing is charged and the ledger holds nothing; every endpoint but /v1/validate refuses them; they
 * are rate-limited like a live key; and with the network checks on for live keys, a test key asks no DNS, SMTP or
 * Twilio server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalDnsServer, type LocalDnsServer } from '../email/local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer } from '../email/local-smtp-server.js';
import { startTwilioLikeServer, type TwilioLikeServer } from '../phone/twilio-like-server.js';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, problemOf, startTestService, useTestService, type TestService } from '../support/service.js';

const root = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** `npm run -s cli -- …` without npm: the compiled command line (dist/, built by the tests' global setup). */
async function cli(databaseUrl: string, ...args: string[]): Promise<Record<string, any>> {
  const { stdout } = await run(process.execPath, ['scripts/start.mjs', 'cli', ...args], {
    cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, EMAIL_NETWORK_CHECKS: 'false' },
  });
  return JSON.parse(stdout);
}

interface FixedInput {
  body: Record<string, string>;
  nextAction: string;
  /** Each module the row names: its status, and its reason when the row gives one. */
  modules: { module: 'address' | 'email' | 'phone'; status: string; reason?: string }[];
}

/** The fixed inputs table of docs/account.md#test-keys, as the guide shows it to client authors. */
function documentedFixedInputs(): FixedInput[] {
  const guide = fs.readFileSync(path.join(root, 'docs/account.md'), 'utf8');
  const section = guide.slice(guide.indexOf('**Fixed inputs.**'));
  return section.split('\n').filter((line) => line.startsWith('| `{')).map((line) => {
    const [body, nextAction, answer] = line.slice(2, -2).split(' | ');
    const modules = [...answer.matchAll(/(address|email|phone) `(\w+)`(?: \(`([^`]+)`\))?/g)].map(([, module, status, reason]) => ({
      module: module as FixedInput['modules'][number]['module'], status, ...(reason ? { reason } : {}),
    }));
    return { body: JSON.parse(body.slice(1, -1)), nextAction: nextAction.slice(1, -1), modules };
  });
}

const validate = (s: TestService, key: string, body: unknown, headers: Record<string, string> = {}) =>
  s.post('/v1/validate', body, { key, headers });

describe.each(testDatabases)('test keys on $name', (database) => {
  const service = useTestService(database, { RATE_LIMIT_PER_MINUTE: '1000' });

  it('When the command line makes a test key, then it validates the documented fixed inputs with their documented answers, free', async () => {
    // Arrange
    const s = service();
    const { accountId, apiKey } = await s.newAccount(7);
    const created = await cli(databaseUrlOf(s), 'keys', 'create', '--account', accountId, '--test');
    const fixed = documentedFixedInputs();

    // Act
    const answers = [];
    for (const row of fixed) {
      const res = await validate(s, created.api_key, row.body);
      answers.push({ row, status: res.status, body: (await res.json()) as Record<string, any> });
    }
    const account = (await (await s.get('/v1/account', apiKey)).json()) as Record<string, any>;
    const entries = await s.db.all<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM ledger_entries WHERE account_id = $1 AND kind <> 'grant'`, [accountId],
    );

    // Assert
    expect(created).toMatchObject({ key_id: expect.stringMatching(/^key_/), api_key: expect.stringMatching(/^cv_test_[0-9A-Za-z]{38}$/), test: true });
    expect(fixed.length).toBeGreaterThanOrEqual(10);
    for (const { row, status, body } of answers) {
      expect(status, JSON.stringify(row.body)).toBe(200);
      expect(body.test).toBe(true);
      expect(body.credits).toEqual({ charged: 0, remaining: 7 });
      expect(body.next_action, JSON.stringify(row.body)).toBe(row.nextAction);
      for (const m of row.modules) {
        const answer = body[m.module];
        expect(answer, `${JSON.stringify(row.body)} ${m.module}`).toMatchObject({ status: m.status });
        // An address says why in its footnotes, an e-mail or a phone in its reason.
        if (m.reason) expect(m.module === 'address' ? answer.footnotes : [answer.reason]).toContain(m.reason);
        expect(['accept', 'confirm', 'fix']).toContain(answer.next_action);
      }
    }
    expect(account.balance).toBe(7);
    expect(account.usage).toMatchObject({ address: { requests: 0, credits: 0 }, email: { requests: 0, credits: 0 }, phone: { requests: 0, credits: 0 } });
    expect(Number(entries[0].n)).toBe(0);
  }, 60_000);

  it('When an account has no credits left, then its test key is still answered and its live key gets 402', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(0);
    const created = (await (await s.post('/v1/keys', { test: true }, { key: apiKey })).json()) as Record<string, any>;

    const testAnswer = await validate(s, created.api_key, { address: '6007 Applegate Ln, Louisville, KY 40219', phone: '+1 502-713-4410' });
    const liveAnswer = await validate(s, apiKey, { address: '6007 Applegate Ln, Louisville, KY 40219' });

    expect(created).toMatchObject({ api_key: expect.stringMatching(/^cv_test_/), test: true });
    expect(testAnswer.status).toBe(200);
    expect(await testAnswer.json()).toMatchObject({ next_action: 'accept', credits: { charged: 0, remaining: 0 }, test: true });
    expect(liveAnswer.status).toBe(402);
  });

  it('When a test key asks for anything but validation and suggestions, then it is refused 401 insufficient_scope and cannot make keys, read the account or upload', async () => {
    // Arrange
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { api_key: testKey } = (await (await s.post('/v1/keys', { test: true }, { key: apiKey })).json()) as { api_key: string };
    const csv = { method: 'POST', headers: { authorization: `Bearer ${testKey}`, 'content-type': 'text/csv' }, body: 'Email\na@example.com\n' };

    // Act
    const refused = await Promise.all([
      s.get('/v1/account', testKey), s.get('/v1/keys', testKey), s.get('/v1/usage', testKey), s.get('/v1/batches', testKey),
      s.get('/v1/connectors', testKey), s.get('/v1/webhook_endpoints', testKey),
      s.post('/v1/keys', {}, { key: testKey }), s.post('/v1/keys', { test: true }, { key: testKey }),
      fetch(`${s.url}/v1/batches`, csv),
    ]);
    const keys = (await (await s.get('/v1/keys', apiKey)).json()) as { keys: Record<string, any>[] };
    const suggestions = await s.get('/v1/address/autocomplete?q=6007%20Applegate', testKey);

    // Assert
    for (const res of refused) {
      expect(res.status, res.url).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
      expect(await problemOf(res)).toMatchObject({ type: '/problems/unauthorized', detail: expect.stringContaining('test key') });
    }
    // Free and the same for every account: address suggestions answer a test key.
    expect(suggestions.status).toBe(200);
    expect(((await suggestions.json()) as { suggestions: unknown[] }).suggestions.length).toBeGreaterThan(0);
    // Nothing was made by the refused requests: the live key and the one test key.
    expect(keys.keys.map((k) => k.test).sort()).toEqual([false, true]);
    expect(keys.keys.find((k) => k.test)?.prefix).toMatch(/^cv_test_/);
  });

  it('When a live key revokes a test key, then the test key stops working at once', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const created = (await (await s.post('/v1/keys', { test: true }, { key: apiKey })).json()) as Record<string, any>;
    const before = await validate(s, created.api_key, { email: 'ann@gmial.com' });

    const revoked = await fetch(`${s.url}/v1/keys/${created.key_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
    const after = await validate(s, created.api_key, { email: 'ann@gmial.com' });

    expect(before.status).toBe(200);
    expect(revoked.status).toBe(200);
    expect(after.status).toBe(401);
  });

  it('When a key is asked to be both publishable and a test key, then 400 names the field', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);

    const res = await s.post('/v1/keys', { test: true, publishable: true, origins: ['https://shop.example.com'] }, { key: apiKey });

    expect(res.status).toBe(400);
    expect(await problemOf(res)).toMatchObject({ errors: [expect.objectContaining({ field: 'test' })] });
  });
});

describe.each(testDatabases)('test keys under a rate limit on $name', (database) => {
  const service = useTestService(database, { RATE_LIMIT_PER_MINUTE: '3' });

  it('When a test key sends more requests than the limit, then it gets 429 with Retry-After, like a live key', async () => {
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const { api_key: testKey } = (await (await s.post('/v1/keys', { test: true }, { key: apiKey })).json()) as { api_key: string };

    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await validate(s, testKey, { email: `n${i}@example.com` }));

    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(statuses[3].headers.get('retry-after')).toMatch(/^\d+$/);
    expect(statuses[0].headers.get('ratelimit-policy')).toContain('3-per-minute');
  });
});

describe.each(testDatabases)('the daily cap of test requests on $name', (database) => {
  const service = useTestService(database, { RATE_LIMIT_PER_MINUTE: '1000', TEST_KEY_REQUESTS_PER_DAY: '3' });

  it('When an account\'s test keys make more requests in a day than the cap, then 429, while its live key and other accounts go on', async () => {
    // Arrange: two test keys of one account share its day
    const s = service();
    const { apiKey } = await s.newAccount(100);
    const other = await s.newAccount(100);
    const [first, second] = await Promise.all([1, 2].map(async () =>
      ((await (await s.post('/v1/keys', { test: true }, { key: apiKey })).json()) as { api_key: string }).api_key));
    const { api_key: othersTestKey } = (await (await s.post('/v1/keys', { test: true }, { key: other.apiKey })).json()) as { api_key: string };

    // Act
    const answers = [];
    for (const key of [first, second, first, second]) answers.push(await validate(s, key, { phone: '+1 502-713-4410' }));
    const live = await validate(s, apiKey, { phone: '+1 502-713-4410' });
    const othersTest = await validate(s, othersTestKey, { phone: '+1 502-713-4410' });

    // Assert
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3].headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await problemOf(answers[3])).toMatchObject({ type: '/problems/rate-limited', detail: expect.stringContaining('test keys') });
    expect(answers[0].headers.get('ratelimit-policy')).toContain('3-test-requests-per-day');
    expect(live.status).toBe(200);
    expect(othersTest.status).toBe(200);
  });
});

describe('test keys with the network checks on for live keys', () => {
  const database = testDatabases[0];
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let twilio: TwilioLikeServer;
  let s: TestService;

  beforeAll(async () => {
    dns = await startLocalDnsServer({ 'example.com': { MX: [{ exchange: 'mx.example.com', priority: 10 }] }, 'mx.example.com': { A: ['127.0.0.1'] } });
    smtp = await startLocalSmtpServer({ byAddress: { 'jane.doe@example.com': 'accept' } });
    twilio = await startTwilioLikeServer();
    s = await startTestService(await database.create(), {
      EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port), EMAIL_SMTP_ALLOW_PRIVATE: 'true',
      PHONE_LOOKUP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_LOOKUP_BASE_URL: twilio.baseUrl,
      VALIDATION_BUDGET_MS: '3000',
    });
  });
  afterAll(async () => {
    await s?.close();
    await database.dropAll();
    await Promise.all([dns?.close(), smtp?.close(), twilio?.close()]);
  });

  it('When a test key and a live key ask the same, then only the live key reaches DNS, SMTP and Twilio, and only it is charged', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(100);
    const { api_key: testKey } = (await (await s.post('/v1/keys', { test: true }, { key: apiKey })).json()) as { api_key: string };
    const body = { email: 'jane.doe@example.com', phone: '+1 502-713-4410' };

    // (The resolver's health check at start asks its own canary names of the same server: counted before, not after.)
    const dnsBefore = dns.questions.size;
    // Act: the test key first, so that nothing it could reuse is cached yet
    const test = (await (await validate(s, testKey, body)).json()) as Record<string, any>;
    const seenByTest = { dns: dns.questions.size - dnsBefore, smtp: smtp.connections, twilio: twilio.requests.length };
    const live = (await (await validate(s, apiKey, body)).json()) as Record<string, any>;

    // Assert
    expect(seenByTest).toEqual({ dns: 0, smtp: 0, twilio: 0 });
    expect(test).toMatchObject({
      test: true, next_action: 'confirm', credits: { charged: 0, remaining: 100 },
      email: { status: 'unknown', reason: 'not_checked', smtp: 'skipped', next_action: 'confirm' },
      phone: { status: 'valid', carrier_source: 'allocation', next_action: 'accept' },
    });
    expect(live).toMatchObject({
      test: false, next_action: 'accept',
      email: { status: 'valid', smtp: 'deliverable', next_action: 'accept' },
      phone: { status: 'valid', carrier_source: 'live', next_action: 'accept' },
    });
    expect(live.credits.charged).toBeGreaterThan(0);
    expect(dns.questions.size).toBeGreaterThan(dnsBefore);
    expect(smtp.recipients).toContain('jane.doe@example.com');
    expect(twilio.requests).toHaveLength(1);
  });
});
