/**
 * Answers that arrive later (issue 54.2), against the real service on SQLite and PostgreSQL, a greylisting SMTP server
 * on 127.0.0.1 (451 "try again in 2 seconds" for 2 s after an address is first asked) and a resolver on 127.0.0.1: an
 * address greylisted at request time ends `valid` in the cache, at GET /v1/email-checks/{id}, in one `email.verified`
 * event and in the CSV batch's result row within the greylist delay (plus the tick's second), charged once; another
 * account's check is a 404 like a missing one; an account's pending checks are capped; a check survives a restart;
 * two instances on one PostgreSQL deliver its event once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_ZONE } from '../email/email-test-rig.js';
import { startLocalDnsServer, type LocalDnsServer } from '../email/local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer } from '../email/local-smtp-server.js';
import { upload, waitForStatus } from '../support/batches.js';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, problemOf, startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const GREYLIST_MS = 2000;
/** The tick fires once a second and a try takes a few milliseconds on loopback; a loaded machine gets room on top. */
const TICK_AND_LOAD_MS = 3500;

const ZONE = {
  ...CANARY_ZONE,
  'grey.test': { MX: [{ exchange: 'mx.grey.test', priority: 10 }] },
  'mx.grey.test': { A: ['127.0.0.1'] },
};

function envFor(dns: LocalDnsServer, smtp: LocalSmtpServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port),
    EMAIL_SMTP_ALLOW_PRIVATE: 'true', EMAIL_SPECIAL_USE_NAMES_ORDINARY: 'true',
    // Short waits for the test; the server's own "try again in 2 seconds" makes the first one 2 s.
    EMAIL_CHECK_SCHEDULE_MS: '500,1000,2000,4000',
    CONNECTOR_SECRET_KEY: 'c3'.repeat(32), WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TICK_MS: '1000', BATCH_SWEEP_MS: '200',
    ...extra,
  };
}

async function validate(s: TestService, key: string, email: string) {
  const res = await s.post('/v1/validate', { email, options: { smtp: true } }, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as { email: Record<string, any>; credits: { charged: number; remaining: number } };
}

async function checkUntil(s: TestService, key: string, id: string, statuses: string[], timeoutMs = 20_000) {
  for (const until = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 50))) {
    const body = (await (await s.get(`/v1/email-checks/${id}`, key)).json()) as Record<string, any>;
    if (statuses.includes(body.status) || Date.now() > until) return body;
  }
}

async function subscribe(s: TestService, key: string, url: string) {
  const res = await s.post('/v1/webhook_endpoints', { url, events: ['email.verified'] }, { key });
  expect(res.status).toBe(201);
}

const addressesOf = (smtp: LocalSmtpServer, address: string) => smtp.recipients.filter((r) => r === address).length;

describe.each(testDatabases)('answers that arrive later, on $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let receiver: WebhookReceiver;
  let s: TestService;
  const grey = (local: string) => `${local}@grey.test`;
  const greylisted = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal'].map(grey);
  const slow = ['s1', 's2', 's3', 's4'].map(grey);

  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE);
    smtp = await startLocalSmtpServer({
      byAddress: {
        ...Object.fromEntries(greylisted.map((a) => [a, { greylistForMs: GREYLIST_MS }])),
        // Greylisted far longer than the test: these checks stay pending.
        ...Object.fromEntries(slow.map((a) => [a, { greylistForMs: 3_600_000 }])),
      },
    });
    receiver = await startWebhookReceiver();
    s = await startTestService(await database.create(), envFor(dns, smtp, { EMAIL_CHECKS_MAX_PENDING_PER_ACCOUNT: '3' }));
  });
  afterAll(async () => {
    await s?.close();
    await database.dropAll();
    await Promise.all([smtp?.close(), dns?.close(), receiver?.close()]);
  });

  it('When an address is greylisted at request time, then within the greylist delay it is valid in the check, the cache and one event, charged once', async () => {
    const { apiKey, accountId } = await s.newAccount(100);
    await subscribe(s, apiKey, receiver.url);
    const address = grey('ann');

    const asked = Date.now();
    const first = await validate(s, apiKey, address);
    expect(first.email).toMatchObject({ status: 'unknown', reason: 'temp_fail', smtp: 'unknown' });
    expect(first.email.check_id).toMatch(/^ec_/);
    expect(first.credits.charged).toBe(0); // an unknown e-mail is refunded

    const pending = (await (await s.get(`/v1/email-checks/${first.email.check_id}`, apiKey)).json()) as Record<string, any>;
    expect(pending).toMatchObject({ id: first.email.check_id, email: address, status: 'pending', first_reason: 'temp_fail' });
    // The server's "try again in 2 seconds" is respected: the first try is not before it.
    expect(Date.parse(pending.next_attempt_at) - asked).toBeGreaterThanOrEqual(GREYLIST_MS - 100);

    const done = await checkUntil(s, apiKey, first.email.check_id, ['done', 'expired']);
    const tookMs = Date.now() - asked;
    console.log(`[email-checks ${database.name}] greylisted ${GREYLIST_MS} ms: answer arrived ${tookMs} ms after the request`);
    expect(done).toMatchObject({ status: 'done', attempts: 1, result: { status: 'valid', reason: 'accepted', smtp: 'deliverable', check_id: first.email.check_id } });
    expect(tookMs).toBeLessThan(GREYLIST_MS + TICK_AND_LOAD_MS);

    const [event] = await receiver.waitFor(1);
    expect(event.body).toMatchObject({ type: 'email.verified', data: { id: first.email.check_id, status: 'done', result: { status: 'valid' } } });
    expect(event.at - asked).toBeLessThan(GREYLIST_MS + TICK_AND_LOAD_MS);

    // The retry is no new charge: the balance is what the first answer left.
    expect(await s.ledger.balance(accountId)).toBe(100);
    const asks = addressesOf(smtp, address);
    const again = await validate(s, apiKey, address);
    expect(again.email).toMatchObject({ status: 'valid', reason: 'accepted' });
    expect(again.email.check_id).toBeUndefined();
    expect(addressesOf(smtp, address)).toBe(asks); // from the cache: the server was not asked again
    expect(again.credits.charged).toBe(1);
    expect(await s.ledger.balance(accountId)).toBe(99);

    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.filter((r) => r.body.data.id === first.email.check_id)).toHaveLength(1);
    expect(await (await fetch(`${s.url}/metrics`)).text()).toMatch(/^cv_email_checks\{status="done"\} [1-9]/m);
  });

  it("When another account asks for a check's id, then it is the same 404 problem as a missing id", async () => {
    const owner = await s.newAccount(10);
    const other = await s.newAccount(10);
    const { email } = await validate(s, owner.apiKey, grey('bob'));
    expect(email.check_id).toMatch(/^ec_/);

    const foreign = await s.get(`/v1/email-checks/${email.check_id}`, other.apiKey);
    const missing = await s.get('/v1/email-checks/ec_nothing', other.apiKey);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    const [a, b] = [await problemOf(foreign), await problemOf(missing)];
    const same = (p: Record<string, unknown>) => ({ ...p, instance: undefined, request_id: undefined });
    expect(same(a)).toEqual(same(b));
    expect(a.type).toMatch(/not-found$/);
  });

  it('When an account has as many pending checks as its cap, then its next such answer carries no check_id', async () => {
    const { apiKey } = await s.newAccount(10);
    const ids = [];
    for (const address of slow.slice(0, 3)) ids.push((await validate(s, apiKey, address)).email.check_id);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    // The same address asked again joins its check rather than opening another.
    expect((await validate(s, apiKey, slow[0])).email.check_id).toBe(ids[0]);
    const over = await validate(s, apiKey, slow[3]);
    expect(over.email).toMatchObject({ status: 'unknown', reason: 'temp_fail' });
    expect(over.email.check_id).toBeUndefined();
  });

  it('When a CSV batch has a greylisted address, then it waits for it and its result row says valid', async () => {
    const { apiKey } = await s.newAccount(100);
    const started = Date.now();
    const res = await upload(s, apiKey, `name,email\r\nCat,${grey('cat')}\r\nDan,${grey('dan')}\r\n`, { query: '?smtp=true' });
    expect(res.status).toBe(202);
    const { batch_id: batchId } = (await res.json()) as { batch_id: string };
    const waiting = await waitForStatus(s, apiKey, batchId, ['running', 'completed'], 10_000);
    const batch = await waitForStatus(s, apiKey, batchId, ['completed', 'failed'], 30_000);
    // While it waits, its status states the limit; once completed, its checks are answered.
    if (waiting.status === 'running') expect(waiting.email_checks).toMatchObject({ wait_seconds: 900 });
    expect(batch.email_checks).toMatchObject({ pending: 0, answered: 2, wait_seconds: 900 });
    expect(batch.status).toBe('completed');
    const tookMs = Date.now() - started;
    console.log(`[email-checks ${database.name}] batch with 2 greylisted rows completed ${tookMs} ms after upload`);
    expect(tookMs).toBeLessThan(GREYLIST_MS + TICK_AND_LOAD_MS + 2000);

    const csv = await (await s.get(`/v1/batches/${batchId}/result`, apiKey)).text();
    const [header, ...rows] = csv.trim().split(/\r?\n/);
    const columns = header.split(',');
    const status = columns.indexOf('cv_email_status');
    const reason = columns.indexOf('cv_email_reason');
    const action = columns.indexOf('cv_next_action');
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const cells = row.split(',');
      expect([cells[status], cells[reason], cells[action]]).toEqual(['valid', 'accepted', 'accept']);
    }
    // Charged once per row, for the answer the row ends with: the retries added nothing.
    expect(batch.credits_charged).toBe(0);
  });
});

describe.each(testDatabases)('an answer that arrives later after a restart, on $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let receiver: WebhookReceiver;
  const address = 'ivy@grey.test';

  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE);
    smtp = await startLocalSmtpServer({ byAddress: { [address]: { greylistForMs: GREYLIST_MS } } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await database.dropAll();
    await Promise.all([smtp?.close(), dns?.close(), receiver?.close()]);
  });

  it('When the service stops while a check is pending, then the next start answers it', async () => {
    const first = await startTestService(await database.create(), envFor(dns, smtp));
    const { apiKey } = await first.newAccount(10);
    await subscribe(first, apiKey, receiver.url);
    const { email } = await validate(first, apiKey, address);
    expect(email.check_id).toMatch(/^ec_/);
    const url = databaseUrlOf(first);
    await first.close();

    const second = await startTestService(url, envFor(dns, smtp));
    try {
      const done = await checkUntil(second, apiKey, email.check_id, ['done', 'expired']);
      expect(done).toMatchObject({ status: 'done', result: { status: 'valid' } });
      const [event] = await receiver.waitFor(1);
      expect(event.body).toMatchObject({ type: 'email.verified', data: { id: email.check_id } });
    } finally {
      await second.close();
    }
  });
});

describe.each(testDatabases.filter((d) => d.name === 'postgres'))('two instances on one $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let receiver: WebhookReceiver;
  let a: TestService;
  let b: TestService;
  const addresses = ['jo', 'kim', 'lee', 'max'].map((l) => `${l}@grey.test`);

  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE);
    smtp = await startLocalSmtpServer({ byAddress: Object.fromEntries(addresses.map((x) => [x, { greylistForMs: GREYLIST_MS }])) });
    receiver = await startWebhookReceiver();
    a = await startTestService(await database.create(), envFor(dns, smtp));
    b = await startTestService(databaseUrlOf(a), envFor(dns, smtp));
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database.dropAll();
    await Promise.all([smtp?.close(), dns?.close(), receiver?.close()]);
  });

  it('When checks are opened on both instances, then each is tried once and its event delivered once; the other instance answers from it', async () => {
    const { apiKey } = await a.newAccount(20);
    await subscribe(a, apiKey, receiver.url);
    const ids = [];
    for (const [i, address] of addresses.entries()) ids.push((await validate(i % 2 ? b : a, apiKey, address)).email.check_id);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    for (const id of ids) expect(await checkUntil(a, apiKey, id, ['done', 'expired'])).toMatchObject({ status: 'done' });
    await receiver.waitFor(ids.length);
    await new Promise((r) => setTimeout(r, 2500));
    expect(receiver.received.map((r) => r.body.data.id).sort()).toEqual([...ids].sort());
    // Each greylisted address was asked twice in all: once at request time, once by its check.
    for (const address of addresses) expect(addressesOf(smtp, address)).toBe(2);
    // The instance that asked (whose own cache held the first `temp_fail` unless it ran the check itself) answers
    // with the check's definite answer, and asks the server nothing.
    const crossed = await validate(b, apiKey, addresses[1]);
    expect(crossed.email).toMatchObject({ status: 'valid', reason: 'accepted' });
    expect(addressesOf(smtp, addresses[1])).toBe(2);
  });
});
