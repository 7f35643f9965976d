/**
 * Outgoing webhooks (docs/webhooks.md) against the real service on SQLite and PostgreSQL: a receiver on 127.0.0.1 gets
 * signed deliveries; a failing one is retried with back-off, and a restart loses no retry; a redirect is not followed;
 * a private address is refused without WEBHOOKS_ALLOW_PRIVATE; one account reaches nothing of another's; the
 * low-balance alert fires once per crossing, by e-mail and webhook, re-armed by credits added and never by a change of
 * threshold, at most 3 a UTC day, and only owner and admin keys change it and the endpoints (issue 51.5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhooks/signature.js';
import { json, request } from '../support/connector-api.js';
import { testDatabases } from '../support/databases.js';
import { startInternalServer } from '../support/internal-server.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import { databaseUrlOf, problemOf, startTestService, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { MAX_ALERTS_PER_DAY } from '../../src/webhooks/low-balance.js';
import { newEmail, newKeyOf, signedUpPerson, WebAgent } from '../web/web-agent.js';

const ENV = {
  CONNECTOR_SECRET_KEY: 'a7'.repeat(32), WEBHOOKS_ALLOW_PRIVATE: 'true', PASSWORD_SCRYPT_LOG_N: '10',
  WEBHOOKS_RETRY_BASE_MS: '300', WEBHOOKS_RETRY_MAX_MS: '2000', WEBHOOKS_TICK_MS: '100', WEBHOOKS_TIMEOUT_MS: '2000',
};
const ADDRESS = { address: '6007 Applegate Ln, Louisville, KY 40219' }; // 1 credit
const PASSWORD = 'a long enough passphrase';
/** Long enough for several ticks of WEBHOOKS_TICK_MS to have looked at an account. */
const SETTLE_MS = 600;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(probe: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testDatabases)('outgoing webhooks on $name', (database) => {
  let s: TestService;
  let receiver: WebhookReceiver;
  let mail: MailCatcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    receiver = await startWebhookReceiver();
    s = await startTestService(await database.create(), { ...ENV, SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
    await mail?.close();
    await database.dropAll();
  });

  async function addEndpoint(key: string, url: string, events: string[] = ['credits.low']) {
    const res = await request(s, 'POST', '/v1/webhook_endpoints', key, { url, events });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json(res)) as { id: string; url: string; events: string[]; secret: string };
  }
  const deliveriesOf = async (key: string, endpointId: string) =>
    (await json(await s.get(`/v1/webhook_endpoints/${endpointId}/deliveries`, key))).deliveries as Record<string, any>[];
  const setThreshold = (key: string, threshold: number | null) => request(s, 'PATCH', '/v1/account', key, { low_balance_threshold: threshold });

  it('When an event happens, then the receiver gets one POST whose signature verifies with the secret shown once', async () => {
    // Arrange
    const { apiKey, accountId } = await s.newAccount(10);
    receiver.respond = () => ({ status: 200, body: 'thanks' });
    const before = receiver.received.length;
    const endpoint = await addEndpoint(apiKey, receiver.url, ['credits.low', 'batch.completed']);

    // Act: a threshold above the balance is crossed at once.
    const patched = await setThreshold(apiKey, 50);
    const [delivery] = (await receiver.waitFor(before + 1)).slice(before);

    // Assert
    expect(patched.status).toBe(200);
    expect((await json(patched)).low_balance_alert).toMatchObject({ threshold: 50, armed: false });
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.body).toEqual({ id: expect.stringMatching(/^evt_/), type: 'credits.low', created: expect.any(Number), data: { account_id: accountId, balance: 10, threshold: 50 } });
    const header = String(delivery!.headers['contact-validator-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(endpoint.secret, delivery!.raw, header)).toBe(true);
    expect(verifySignature(endpoint.secret, delivery!.raw.replace('10', '11'), header)).toBe(false);
    expect(verifySignature('whsec_other', delivery!.raw, header)).toBe(false);
    const listed = await json(await s.get('/v1/webhook_endpoints', apiKey));
    expect(listed.webhook_endpoints).toEqual([{ id: endpoint.id, url: receiver.url, events: ['credits.low', 'batch.completed'], created_at: expect.any(String) }]);
    const log = await until(async () => { const d = await deliveriesOf(apiKey, endpoint.id); return d[0]?.status === 'succeeded' && d; }, 'the log');
    expect(log).toEqual([expect.objectContaining({ event_id: delivery!.body.id, type: 'credits.low', status: 'succeeded', attempts: 1, response_status: 200, response_text: 'thanks', next_attempt_at: null })]);
  });

  it('When the receiver fails, then the delivery is retried with growing waits until it succeeds', async () => {
    const { apiKey } = await s.newAccount(10);
    const failing = await startWebhookReceiver();
    failing.respond = (n) => (n < 3 ? { status: 503, body: '<html><b>down</b> for maintenance</html>' } : { status: 204 });
    try {
      const endpoint = await addEndpoint(apiKey, failing.url);

      await setThreshold(apiKey, 50);
      const tries = await failing.waitFor(4, 15_000);

      // Same event every time, each signed afresh; the waits grow (equal jitter: at least half of 300, 600, 1200 ms).
      expect(new Set(tries.map((t) => t.body.id)).size).toBe(1);
      const gaps = tries.slice(1).map((t, i) => t.at - tries[i]!.at);
      expect(gaps[0]).toBeGreaterThanOrEqual(140);
      expect(gaps[1]).toBeGreaterThanOrEqual(290);
      expect(gaps[2]).toBeGreaterThanOrEqual(590);
      const [log] = await until(async () => { const d = await deliveriesOf(apiKey, endpoint.id); return d[0]?.status === 'succeeded' && d; }, 'success');
      expect(log).toMatchObject({ status: 'succeeded', attempts: 4, response_status: 204 });
    } finally {
      await failing.close();
    }
  });

  it('When a failed attempt is pending and the service restarts, then the new instance delivers it', async () => {
    const failing = await startWebhookReceiver();
    failing.respond = () => ({ status: 500, body: 'boom' });
    // A long first back-off: the retry is due only after the restart.
    const slow = { ...ENV, WEBHOOKS_RETRY_BASE_MS: '1500', WEBHOOKS_RETRY_MAX_MS: '1500' };
    const first = await startTestService(await database.create(), slow);
    let second: TestService | undefined;
    try {
      const { apiKey } = await first.newAccount(10);
      const res = await request(first, 'POST', '/v1/webhook_endpoints', apiKey, { url: failing.url, events: ['credits.low'] });
      const endpoint = await json(res);
      await request(first, 'PATCH', '/v1/account', apiKey, { low_balance_threshold: 50 });
      await failing.waitFor(1);
      const [pending] = await until(async () => {
        const d = (await json(await first.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`, apiKey))).deliveries;
        return d[0]?.attempts === 1 && d;
      }, 'the first attempt logged');
      expect(pending).toMatchObject({ status: 'pending', response_status: 500, response_text: 'boom', next_attempt_at: expect.any(String) });

      // Act: stop, let the receiver recover, start another instance on the same database.
      await first.close();
      failing.respond = () => ({ status: 200 });
      second = await startTestService(databaseUrlOf(first), slow);
      const tries = await failing.waitFor(2, 15_000);

      expect(tries[1]!.body.id).toBe(tries[0]!.body.id);
      const [log] = await until(async () => {
        const d = (await json(await second!.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`, apiKey))).deliveries;
        return d[0]?.status === 'succeeded' && d;
      }, 'success after the restart');
      expect(log).toMatchObject({ attempts: 2, response_status: 200 });
      expect(failing.received).toHaveLength(2);
    } finally {
      await second?.close();
      await first.close().catch(() => undefined);
      await failing.close();
    }
  });

  it('When two instances share the database and many retries fall due at once, then each event reaches the receiver once', async () => {
    // Arrange: every first attempt fails, so every delivery is retried by whichever instance claims it first.
    const flaky = await startWebhookReceiver();
    const failedOnce = new Set<string>();
    flaky.respond = (_n, { id }) => {
      if (failedOnce.has(id)) return { status: 200 };
      failedOnce.add(id);
      return { status: 503 };
    };
    const other = await startTestService(databaseUrlOf(s), ENV);
    try {
      const { apiKey, accountId } = await s.newAccount(0);
      await addEndpoint(apiKey, flaky.url, ['batch.completed']);

      // Act: 40 events, emitted from both instances.
      const emitted = await Promise.all(Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? other : s).outgoing.webhooks.emit(accountId, 'batch.completed', { batch_id: `batch_${i}` }, `batch.completed:batch_${i}`)));
      // The same event emitted again (by the other instance) is logged once.
      await other.outgoing.webhooks.emit(accountId, 'batch.completed', { batch_id: 'batch_0' }, 'batch.completed:batch_0');
      await until(async () => flaky.received.length >= 80, '80 attempts', 20_000);
      await new Promise((r) => setTimeout(r, 1_000));

      // Assert: each event failed once and succeeded once: 80 requests, no more.
      const ids = flaky.received.map((r) => r.body.id);
      expect(new Set(emitted.map((e) => e!.id)).size).toBe(40);
      expect(flaky.received).toHaveLength(80);
      for (const id of new Set(ids)) expect(ids.filter((x) => x === id)).toHaveLength(2);
    } finally {
      await other.close();
      await flaky.close();
    }
  });

  it('When the receiver answers with a redirect, then it is not followed and the delivery is retried', async () => {
    const internal = await startInternalServer();
    const redirecting = await startWebhookReceiver();
    redirecting.respond = () => ({ status: 307, headers: { location: `${internal.url}/latest/meta-data` } });
    try {
      const { apiKey } = await s.newAccount(10);
      const endpoint = await addEndpoint(apiKey, redirecting.url);

      await setThreshold(apiKey, 50);
      await redirecting.waitFor(1);
      const [log] = await until(async () => { const d = await deliveriesOf(apiKey, endpoint.id); return d[0]?.attempts >= 1 && d; }, 'the attempt');

      expect(internal.requests).toHaveLength(0);
      expect(log).toMatchObject({ status: 'pending', response_status: null });
      expect(log!.response_text).toMatch(/redirect/);
      expect(log!.response_text).not.toContain(String(internal.port));
    } finally {
      await redirecting.close();
      await internal.close();
    }
  });

  it('When one account asks for another account\'s endpoint or delivery, then it is answered 404 like a missing one', async () => {
    const owner = await s.newAccount(10);
    const other = await s.newAccount(10);
    const endpoint = await addEndpoint(owner.apiKey, receiver.url);
    const before = receiver.received.length;
    await setThreshold(owner.apiKey, 50);
    await receiver.waitFor(before + 1);
    const [delivery] = await until(async () => { const d = await deliveriesOf(owner.apiKey, endpoint.id); return d.length > 0 && d; }, 'a delivery');

    const answers = [
      await s.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`, other.apiKey),
      await request(s, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/redeliver`, other.apiKey),
      await request(s, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, other.apiKey),
      await s.get('/v1/webhook_endpoints/we_missing/deliveries', other.apiKey),
    ];
    const theirs = await json(await s.get('/v1/webhook_endpoints', other.apiKey));

    for (const res of answers) expect((await problemOf(res)).type).toBe('/problems/not-found');
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    expect(theirs.webhook_endpoints).toEqual([]);
    expect(receiver.received).toHaveLength(before + 1); // nothing redelivered
    expect(await deliveriesOf(owner.apiKey, endpoint.id)).toHaveLength(1);
  });

  it('When a delivery is redelivered, then the same event goes again at once, signed afresh, and the log counts it', async () => {
    const { apiKey } = await s.newAccount(10);
    const endpoint = await addEndpoint(apiKey, receiver.url);
    const before = receiver.received.length;
    await setThreshold(apiKey, 50);
    await receiver.waitFor(before + 1);
    const [delivery] = await until(async () => { const d = await deliveriesOf(apiKey, endpoint.id); return d[0]?.status === 'succeeded' && d; }, 'success');

    const res = await request(s, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery!.id}/redeliver`, apiKey);

    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: delivery!.id, status: 'succeeded', attempts: 2 });
    const again = receiver.received.slice(before);
    expect(again).toHaveLength(2);
    expect(again[1]!.body.id).toBe(again[0]!.body.id);
    expect(verifySignature(endpoint.secret, again[1]!.raw, String(again[1]!.headers['contact-validator-signature']))).toBe(true);
  });

  it('When the endpoint is deleted, then it is gone with its log, and nothing more is sent to it', async () => {
    const { apiKey } = await s.newAccount(10);
    const endpoint = await addEndpoint(apiKey, receiver.url);

    const deleted = await request(s, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, apiKey);
    const before = receiver.received.length;
    await setThreshold(apiKey, 50);
    await new Promise((r) => setTimeout(r, 300));

    expect(deleted.status).toBe(204);
    expect(receiver.received).toHaveLength(before);
    expect((await s.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`, apiKey)).status).toBe(404);
  });

  it('When the body is wrong, then 400 names each field: an unknown event, a URL that is not http(s), credentials in the URL', async () => {
    const { apiKey } = await s.newAccount(0);

    const cases = [
      await request(s, 'POST', '/v1/webhook_endpoints', apiKey, { url: receiver.url, events: ['batch.exploded'] }),
      await request(s, 'POST', '/v1/webhook_endpoints', apiKey, { url: 'ftp://127.0.0.1/x', events: ['credits.low'] }),
      await request(s, 'POST', '/v1/webhook_endpoints', apiKey, { url: 'http://user:pw@127.0.0.1/x', events: ['credits.low'] }),
      await request(s, 'POST', '/v1/webhook_endpoints', apiKey, { url: receiver.url, events: [] }),
    ];

    for (const res of cases) expect((await problemOf(res)).type).toBe('/problems/invalid-request');
    expect(cases.map((r) => r.status)).toEqual([400, 400, 400, 400]);
  });

  it('When the balance falls below the threshold, then the owner gets one mail and one credits.low, again only after a top-up', async () => {
    // Arrange: a person who signed up and confirmed the address owns the account.
    const email = `owner-${Date.now()}@example.com`;
    await s.people.signUp({ email, password: 'a long enough passphrase' }, s.url, '127.0.0.1');
    await s.people.confirmEmail(new URL(await mail.link(email, '/confirm')).searchParams.get('token'));
    const [{ account_id: accountId }] = await s.db.all<{ account_id: string }>(`SELECT account_id FROM users WHERE email = $1`, [email]);
    const { api_key: apiKey } = await s.accounts.createKey(accountId!);
    await s.accounts.grantCredits(accountId!, 8);
    const endpoint = await addEndpoint(apiKey, receiver.url);
    const lowEvents = () => receiver.received.filter((r) => r.body.type === 'credits.low' && r.body.data.account_id === accountId);
    const mailsBefore = mail.messages.length;
    expect((await setThreshold(apiKey, 5)).status).toBe(200);
    const spend = async (n: number) => { for (let i = 0; i < n; i++) expect((await s.post('/v1/validate', ADDRESS, { key: apiKey })).status).toBe(200); };

    // Act 1: from 8 to 4, below 5; then on to 2.
    await spend(4);
    await until(async () => lowEvents().length === 1, 'the first alert');
    const first = await mail.next(email, mailsBefore);
    await spend(2);
    await new Promise((r) => setTimeout(r, 400));

    // Assert 1: one alert for one crossing.
    expect(lowEvents()).toHaveLength(1);
    expect(lowEvents()[0]!.body.data).toEqual({ account_id: accountId, balance: 4, threshold: 5 });
    expect(first.subject).toContain('4 credits');
    expect(first.text).toContain('/billing');
    expect(mail.messages.slice(mailsBefore).filter((m) => m.to.includes(email) && /balance is low/.test(m.subject))).toHaveLength(1);
    expect((await json(await s.get('/v1/account', apiKey))).low_balance_alert).toMatchObject({ threshold: 5, armed: false, last_alert_at: expect.any(String) });

    // Act 2: a grant brings it back above the threshold (re-armed on the tick), then it falls again.
    await s.accounts.grantCredits(accountId!, 10);
    await until(async () => (await json(await s.get('/v1/account', apiKey))).low_balance_alert.armed, 're-armed');
    await spend(8);

    // Assert 2: a second alert.
    await until(async () => lowEvents().length === 2, 'the second alert');
    expect(lowEvents()[1]!.body.data).toEqual({ account_id: accountId, balance: 4, threshold: 5 });
    const log = await deliveriesOf(apiKey, endpoint.id);
    expect(log.filter((d) => d.type === 'credits.low')).toHaveLength(2);
  });

  it('When the threshold is removed, then the account shows no alert', async () => {
    const { apiKey } = await s.newAccount(10);
    await setThreshold(apiKey, 3);

    const res = await setThreshold(apiKey, null);
    const bad = await setThreshold(apiKey, -1);

    expect((await json(res)).low_balance_alert).toEqual({ threshold: null, armed: false, last_alert_at: null });
    expect(bad.status).toBe(400);
  });

  // Issue 51.5: each PATCH of the threshold to the balance plus one re-armed and fired the alert (50 PATCHes, 50 mails;
  // 16 endpoints on one URL, 10 PATCHes, 160 POSTs), and any key of the account could.
  /** A person signs up and confirms the address (the owner), and makes a key on the keys page (an owner key). */
  async function ownedAccount(credits: number) {
    const { agent, email } = await signedUpPerson(s.url, mail, 'owner', PASSWORD);
    const ownerKey = await newKeyOf(agent);
    const accountId = (await json(await s.get('/v1/account', ownerKey))).account_id as string;
    if (credits) await s.accounts.grantCredits(accountId, credits);
    return { agent, email, ownerKey, accountId };
  }
  const lowEventsOf = (accountId: string) => receiver.received.filter((r) => r.body.type === 'credits.low' && r.body.data.account_id === accountId);
  const lowMails = (email: string) => mail.messages.filter((m) => m.to.includes(email) && /balance is low/.test(m.subject));
  const alertOf = async (key: string) => (await json(await s.get('/v1/account', key))).low_balance_alert as { threshold: number | null; armed: boolean };

  it('When the threshold is set to the balance plus one 50 times, lowered, removed and set again, then the owner gets one mail and each of 16 endpoints on one URL one credits.low', async () => {
    // Arrange: 16 endpoints on one receiver URL, a balance of 10.
    const { email, ownerKey, accountId } = await ownedAccount(10);
    for (let i = 0; i < 16; i++) {
      const res = await request(s, 'POST', '/v1/webhook_endpoints', ownerKey, { url: receiver.url, events: ['credits.low'] });
      expect(res.status, await res.clone().text()).toBe(201);
    }

    // Act: the first PATCH crosses (10 < 11); then 49 more, each way a threshold can change: up, down to 0, removed.
    for (let i = 0; i < 50; i++) {
      const threshold = [11 + i, 0, null][i % 3]!;
      expect((await setThreshold(ownerKey, threshold)).status).toBe(200);
    }
    expect((await setThreshold(ownerKey, 11)).status).toBe(200);
    await until(async () => lowEventsOf(accountId).length >= 16, 'the first alert');
    await sleep(SETTLE_MS);

    // Assert: one crossing, one alert: one mail, one POST per endpoint, and it stays disarmed.
    expect(lowMails(email)).toHaveLength(1);
    expect(lowEventsOf(accountId)).toHaveLength(16);
    expect(new Set(lowEventsOf(accountId).map((r) => r.body.id)).size).toBe(1);
    expect(await alertOf(ownerKey)).toMatchObject({ threshold: 11, armed: false });
  });

  it(`When grants lift the balance back over the threshold again and again, then each crossing alerts, at most ${MAX_ALERTS_PER_DAY} a UTC day`, async () => {
    // Arrange: a balance of 5 at a threshold of 5 (not below it: armed, nothing sent).
    const { email, ownerKey, accountId } = await ownedAccount(5);
    await request(s, 'POST', '/v1/webhook_endpoints', ownerKey, { url: receiver.url, events: ['credits.low'] });
    expect((await setThreshold(ownerKey, 5)).status).toBe(200);

    // Act: five times, spend one credit (4, below 5), then buy it back with a grant (5 again).
    const seen: { alerts: number; armedAfterGrant: boolean }[] = [];
    for (let round = 1; round <= 5; round++) {
      expect((await s.post('/v1/validate', ADDRESS, { key: ownerKey })).status).toBe(200);
      const expected = Math.min(round, MAX_ALERTS_PER_DAY);
      await until(async () => lowEventsOf(accountId).length >= expected, `alert ${expected}`);
      if (round > MAX_ALERTS_PER_DAY) await sleep(SETTLE_MS);
      await s.accounts.grantCredits(accountId, 1);
      if (round <= MAX_ALERTS_PER_DAY) await until(async () => (await alertOf(ownerKey)).armed, `re-armed after grant ${round}`);
      seen.push({ alerts: lowEventsOf(accountId).length, armedAfterGrant: (await alertOf(ownerKey)).armed });
    }

    // Assert: 1, 2, 3 alerts, then no more today; the alert stays armed for the next day.
    expect(seen.map((r) => r.alerts)).toEqual([1, 2, 3, 3, 3]);
    expect(seen.every((r) => r.armedAfterGrant)).toBe(true);
    expect(lowMails(email)).toHaveLength(MAX_ALERTS_PER_DAY);
  });

  it("When a member's key changes endpoints or the alert, then it is 403 owner-only and nothing changes; owner and admin keys may, and any key reads", async () => {
    // Arrange: the owner invites a member, who joins and makes a key on the keys page; an admin key from the command line.
    const { agent: owner, ownerKey, accountId } = await ownedAccount(100);
    const memberEmail = newEmail('member');
    await owner.get('/members');
    const before = mail.messages.length;
    await owner.post('/members', { email: memberEmail });
    const link = new URL(await mail.link(memberEmail, '/invite', before));
    const member = new WebAgent(s.url);
    await member.get(link.pathname + link.search);
    expect((await member.post('/invite', { token: link.searchParams.get('token')!, password: 'member passphrase here' })).status).toBe(303);
    const memberKey = await newKeyOf(member);
    const { api_key: adminKey } = await s.accounts.createKey(accountId); // as `keys create --account` makes it
    const endpoint = await json(await request(s, 'POST', '/v1/webhook_endpoints', ownerKey, { url: receiver.url, events: ['credits.low'] }));
    // A key the member's key makes through the API is the member's too.
    const made = await json(await request(s, 'POST', '/v1/keys', memberKey, {}));

    // Act
    const tries = [
      await request(s, 'POST', '/v1/webhook_endpoints', memberKey, { url: receiver.url, events: ['credits.low'] }),
      await request(s, 'PATCH', '/v1/account', memberKey, { low_balance_threshold: 101 }),
      await request(s, 'DELETE', `/v1/webhook_endpoints/${endpoint.id}`, memberKey),
      await request(s, 'POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/wd_none/redeliver`, memberKey),
      await request(s, 'PATCH', '/v1/account', made.api_key as string, { low_balance_threshold: 101 }),
    ];
    const dashboardTries = [
      await member.post('/webhook-endpoints/low-balance', { threshold: '101' }),
      await member.post('/webhook-endpoints', { url: receiver.url, events: 'credits.low' }),
      await member.post(`/webhook-endpoints/${endpoint.id}/delete`, {}),
    ];
    const reads = [await s.get('/v1/webhook_endpoints', memberKey), await s.get('/v1/account', memberKey)];
    const unchanged = await alertOf(ownerKey);
    const byAdmin = await setThreshold(adminKey, 50);
    const byOwner = await setThreshold(ownerKey, 40);
    await owner.get('/webhook-endpoints');
    const byOwnerPage = await owner.post('/webhook-endpoints/low-balance', { threshold: '30' });

    // Assert
    for (const res of tries) {
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ type: '/problems/owner-only', detail: expect.stringContaining('made by a member') });
    }
    expect(dashboardTries.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(reads.map((r) => r.status)).toEqual([200, 200]);
    expect((await json(reads[0]!)).webhook_endpoints).toHaveLength(1);
    expect(unchanged.threshold).toBeNull();
    expect([byAdmin.status, byOwner.status]).toEqual([200, 200]);
    expect(byOwnerPage).toMatchObject({ status: 303, location: '/webhook-endpoints?done=alert-saved' });
    expect((await alertOf(ownerKey)).threshold).toBe(30);
  });
});

describe('webhook endpoints without WEBHOOKS_ALLOW_PRIVATE', () => {
  let s: TestService;
  const database = testDatabases[0]!;
  beforeAll(async () => {
    s = await startTestService(await database.create(), { CONNECTOR_SECRET_KEY: 'a7'.repeat(32) });
  });
  afterAll(async () => {
    await s?.close();
    await database.dropAll();
  });

  it.each([
    'http://127.0.0.1:9/hooks', 'https://127.0.0.1/hooks', 'https://10.0.0.7/hooks', 'https://[::1]/hooks', 'https://169.254.169.254/latest',
    'https://localhost/hooks', 'https://intranet/hooks', 'http://example.com/hooks',
  ])('When the URL is %s, then it is refused with 400 before anything is stored', async (url) => {
    const { apiKey } = await s.newAccount(0);

    const res = await request(s, 'POST', '/v1/webhook_endpoints', apiKey, { url, events: ['credits.low'] });

    expect(res.status).toBe(400);
    expect((await problemOf(res)).errors).toEqual([{ field: 'url', message: expect.stringMatching(/https|public/) }]);
    expect((await json(await s.get('/v1/webhook_endpoints', apiKey))).webhook_endpoints).toEqual([]);
  });
});
