/**
 * The dashboard over HTTP, as a browser without rendering would use it (test/web/web-agent.ts): sign-up, sign-in,
 * mail links through a real SMTP server on 127.0.0.1, and the attacks the issue names: CSRF, another account's ids,
 * session fixation, guessing passwords. The browser itself is driven in dashboard-browser.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import type { MailCatcher } from '../support/mail-catcher.js';
import type { TestService } from '../support/service.js';
import { newEmail, newKeyOf, signedUpPerson, useServiceWithMail, WebAgent } from './web-agent.js';

const PASSWORD = 'correct horse battery';
const CSV = 'email,phone\nann@example.com,+14155550123\nbob@example.org,+442079460000\n';

describe.each(testDatabases)('the dashboard on $name', (database) => {
  const started = useServiceWithMail(database, {
    FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', SIGN_IN_ATTEMPTS_PER_15_MIN: '3', SIGN_UPS_PER_15_MIN: '3',
    CONNECTOR_SECRET_KEY: 'ab'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: 'http://127.0.0.1:9',
  });
  let s: TestService;
  let mail: MailCatcher;
  beforeAll(() => void ({ s, mail } = started()));

  const signedUp = (tag = 'person') => signedUpPerson(s.url, mail, tag, PASSWORD);

  it('When a visitor is not signed in, then every page sends them to sign in', async () => {
    const agent = new WebAgent(s.url);
    for (const path of ['/', '/keys', '/batches', '/connectors', '/billing', '/members', '/settings']) {
      const res = await agent.get(path);
      expect([path, res.status, res.location]).toEqual([path, 303, '/signin']);
    }
  });

  it('When a person signs up, then the mailed link confirms the address, and they sign in to 100 free credits and no key', async () => {
    const agent = new WebAgent(s.url);
    const email = newEmail('person');
    const answer = await agent.signUp(email, PASSWORD);
    const sessionAtOnce = agent.cookies.has('cv_session');
    const early = await new WebAgent(s.url).signIn(email, PASSWORD);
    const link = await mail.link(email, '/confirm');
    const confirmed = await agent.get(new URL(link).pathname + new URL(link).search);
    const signedIn = await agent.signIn(email, PASSWORD);
    const overview = await agent.get('/');

    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Check your mail');
    expect(sessionAtOnce).toBe(false);
    expect(early.status).toBe(401); // not before the address is confirmed
    expect(confirmed).toMatchObject({ status: 303, location: '/signin?done=confirmed' });
    expect(signedIn).toMatchObject({ status: 303, location: '/' });
    expect(overview.text).toMatch(/data-testid="balance">100</);
    expect(overview.text).not.toContain('Confirm your e-mail address (we sent you a link)');
    expect((await agent.get('/keys')).text).toContain('0 active of 0');
  });

  it('When a person makes a test key on the keys page, then it is shown once, marked TEST in the list, and validates for free', async () => {
    // Arrange
    const { agent } = await signedUp('tester');
    await agent.get('/keys');

    // Act
    const made = await agent.post('/keys', { kind: 'test' });
    const testKey = /id="new-key"[^>]*value="([^"]+)"/.exec(made.text)?.[1] ?? '';
    const listed = await agent.get('/keys');
    const answer = await s.post('/v1/validate', { email: 'info@mailinator.com' }, { key: testKey });
    const overview = await agent.get('/');

    // Assert
    expect(made.status).toBe(201);
    expect(made.text).toContain('Your new test key');
    expect(testKey).toMatch(/^cv_test_/);
    expect(listed.text).toContain('data-testid="test-key-badge"');
    expect(listed.text).toContain(`${testKey.slice(0, 12)}…`);
    expect(listed.text).not.toContain(testKey); // shown once
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ test: true, next_action: 'confirm', credits: { charged: 0, remaining: 100 } });
    expect(overview.text).toMatch(/data-testid="balance">100</);
  });

  it('When the session cookie is set, then it is HttpOnly and SameSite, and the page forbids framing and foreign scripts', async () => {
    const { email } = await signedUp('flags');
    const agent = new WebAgent(s.url);
    await agent.get('/signin');
    const res = await fetch(`${s.url}/signin`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `cv_csrf=${agent.csrf}` },
      body: new URLSearchParams({ _csrf: agent.csrf, email, password: PASSWORD }),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cv_session='))!;
    const page = await agent.get('/signin');

    expect(res.status).toBe(303);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('When a form comes without its CSRF token, with a wrong one, or from another site, then it is refused and nothing changes', async () => {
    const { agent } = await signedUp('csrf');
    await agent.get('/keys');
    const missing = await agent.post('/keys', { kind: 'secret' }, { csrf: false });
    const wrong = await agent.post('/keys', { kind: 'secret', _csrf: 'x'.repeat(43) });
    const foreign = await agent.post('/keys', { kind: 'secret' }, { headers: { origin: 'https://evil.example' } });
    const crossSite = await agent.post('/keys', { kind: 'secret' }, { headers: { 'sec-fetch-site': 'cross-site' } });
    const json = await agent.post('/keys', { kind: 'secret' }, { csrf: false, headers: { accept: 'application/json' } });
    const signOut = await agent.post('/signout', {}, { csrf: false });

    for (const res of [missing, wrong, foreign, crossSite, signOut]) {
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('reload the page');
    }
    expect(json.status).toBe(403);
    expect(json.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(json.text)).toMatchObject({ type: '/problems/csrf-failed', status: 403 });
    expect((await agent.get('/keys')).text).toContain('0 active of 0');
    expect((await agent.get('/')).status).toBe(200); // still signed in: the forged sign-out did nothing
  });

  it('When a sign-in form is posted from another site (login CSRF), then it is refused', async () => {
    const { email } = await signedUp('login-csrf');
    const attacker = new WebAgent(s.url);
    const res = await attacker.post('/signin', { email, password: PASSWORD }, { csrf: false });
    expect(res.status).toBe(403);
    expect(attacker.cookies.has('cv_session')).toBe(false);
  });

  it("When a person puts another account's ids in every URL, then each answers not found and nothing of the other account changes", async () => {
    const victim = await signedUp('victim');
    const apiKey = await newKeyOf(victim.agent);
    const keyId = (await s.accounts.authenticate(apiKey))!.keyId;
    const accountId = (await s.accounts.authenticate(apiKey))!.accountId;
    const upload = new FormData();
    upload.append('file', new Blob([CSV], { type: 'text/csv' }), 'contacts.csv');
    const batch = await (await fetch(`${s.url}/v1/batches?smtp=false`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: upload })).json() as { batch_id: string };
    const connector = await s.sync.connectors.create(accountId, {
      type: 'shopify', name: 'Store', settings: { shop: 'victim.myshopify.com' }, credentials: { access_token: 'shpat_x', api_secret: 'secret' },
    });
    await victim.agent.post('/members', { email: newEmail('teammate') });
    const member = (await s.people.members(accountId)).find((m) => m.role === 'member')!;
    const attacker = (await signedUp('attacker')).agent;
    await attacker.get('/');

    const answers = await Promise.all([
      attacker.post(`/keys/${keyId}/revoke`, {}),
      attacker.get(`/batches/${batch.batch_id}/status`, { accept: 'application/json' }),
      attacker.get(`/batches/${batch.batch_id}/result`),
      attacker.get(`/batches/${batch.batch_id}`),
      attacker.post(`/batches/${batch.batch_id}/resume`, {}),
      attacker.post(`/connectors/${connector.connector_id}/run`, {}),
      attacker.post(`/connectors/${connector.connector_id}/pause`, {}),
      attacker.post(`/members/${member.user_id}/remove`, {}),
      attacker.post(`/members/${member.user_id}/resend`, {}),
    ]);

    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    expect((await s.accounts.authenticate(apiKey))?.keyId).toBe(keyId);
    expect((await s.sync.connectors.get(accountId, connector.connector_id))?.status).toBe('active');
    expect((await s.sync.connectors.runs(connector.connector_id)).items).toEqual([]);
    expect((await s.people.members(accountId)).map((m) => m.user_id)).toContain(member.user_id);
    for (const path of ['/', '/keys', '/batches', '/connectors', '/billing', '/members']) {
      const page = await attacker.get(path);
      expect(page.text).not.toContain(victim.email);
      expect(page.text).not.toContain(batch.batch_id);
      expect(page.text).not.toContain(connector.connector_id);
      expect(page.text).not.toContain(keyId);
    }
  });

  it('When a session id is planted before sign-in (fixation), then sign-in issues a new one and the planted one opens nothing', async () => {
    const { email } = await signedUp('fixation');
    const agent = new WebAgent(s.url);
    agent.cookies.set('cv_session', 'planted-by-an-attacker-000000000000000000');
    await agent.get('/signin');
    const signedIn = await agent.post('/signin', { email, password: PASSWORD });
    const issued = agent.cookies.get('cv_session')!;
    const planted = new WebAgent(s.url);
    planted.cookies.set('cv_session', 'planted-by-an-attacker-000000000000000000');

    expect(signedIn).toMatchObject({ status: 303, location: '/' });
    expect(issued).not.toBe('planted-by-an-attacker-000000000000000000');
    expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await planted.get('/')).status).toBe(303);
    // Signing out ends the session on the server, not only in this browser.
    const copy = new WebAgent(s.url);
    copy.cookies.set('cv_session', issued);
    await agent.get('/');
    await agent.post('/signout', {});
    expect((await copy.get('/')).status).toBe(303);
  });

  it('When someone keeps guessing a password, then sign-in is refused for a while even with the right one, and the person can still reset it', async () => {
    const { email } = await signedUp('guess');
    const agent = new WebAgent(s.url);
    const tries = [];
    for (let i = 0; i < 3; i++) tries.push((await agent.signIn(email, `wrong password ${i}`)).status);
    const right = await agent.signIn(email, PASSWORD);

    expect(tries).toEqual([401, 401, 401]);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(right.text).toContain('Too many failed sign-ins');
    expect(agent.cookies.has('cv_session')).toBe(false);

    const before = mail.messages.length;
    await agent.get('/forgot');
    await agent.post('/forgot', { email });
    const link = new URL(await mail.link(email, '/reset', before));
    await agent.get(link.pathname + link.search);
    const reset = await agent.post('/reset', { token: link.searchParams.get('token')!, password: 'a brand new passphrase' });
    expect(reset).toMatchObject({ status: 303, location: '/?done=password-set' });
    expect((await new WebAgent(s.url).signIn(email, 'a brand new passphrase')).status).toBe(303);
  });

  it('When one client address makes account after account, then the fourth within 15 minutes is refused', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await new WebAgent(s.url).signUp(newEmail('farm'), PASSWORD)).status);
    const refused = await new WebAgent(s.url).signUp(newEmail('farm'), PASSWORD);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses[3]).toBe(429);
    expect(refused.text).toContain('Too many new accounts');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('When one client tries many addresses, then it is limited per client address as well', async () => {
    const agent = new WebAgent(s.url);
    const statuses = [];
    for (let i = 0; i < 16; i++) statuses.push((await agent.signIn(newEmail('nobody'), 'not the password')).status);
    expect(statuses.slice(0, 15).every((st) => st === 401)).toBe(true);
    expect(statuses[15]).toBe(429);
  });

  it('When a password is reset, then the link works once, other sessions end, and an unknown address gets the same answer', async () => {
    const { agent: first, email } = await signedUp('reset');
    const before = mail.messages.length;
    const other = new WebAgent(s.url);
    await other.get('/forgot');
    const known = await other.post('/forgot', { email });
    const unknown = await other.post('/forgot', { email: newEmail('unknown') });
    const link = new URL(await mail.link(email, '/reset', before));
    const token = link.searchParams.get('token')!;
    const form = await other.get(link.pathname + link.search);
    const weak = await other.post('/reset', { token, password: 'short' });
    const done = await other.post('/reset', { token, password: 'another good passphrase' });
    const again = await new WebAgent(s.url).post('/reset', { token, password: 'yet another passphrase' }, { csrf: false });
    const replay = new WebAgent(s.url);
    await replay.get(link.pathname + link.search);
    const reused = await replay.post('/reset', { token, password: 'yet another passphrase' });

    expect(known.text).toBe(unknown.text); // the same page either way…
    expect(known.status).toBe(unknown.status);
    expect(mail.messages.slice(before).length).toBe(1); // …but mail only to the known one
    expect(form.text).toContain(email);
    expect(weak.status).toBe(400);
    expect(done).toMatchObject({ status: 303 });
    expect(again.status).toBe(403);
    expect(reused.status).toBe(400);
    expect(reused.text).toContain('used already');
    expect((await first.get('/')).status).toBe(303); // the session signed in with the old password is over
    expect((await new WebAgent(s.url).signIn(email, PASSWORD)).status).toBe(401);
  });

  it('When a signed-in person changes the password, then the current one is required and other browsers are signed out', async () => {
    const { agent, email } = await signedUp('change');
    const other = new WebAgent(s.url);
    await other.signIn(email, PASSWORD);
    await agent.get('/settings');
    const wrong = await agent.post('/settings/password', { current: 'not the password', password: 'a fresh passphrase here' });
    const weak = await agent.post('/settings/password', { current: PASSWORD, password: 'short' });
    const done = await agent.post('/settings/password', { current: PASSWORD, password: 'a fresh passphrase here' });

    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is not right');
    expect(weak.status).toBe(400);
    expect(done).toMatchObject({ status: 303, location: '/settings?done=password-set' });
    expect((await agent.get('/')).status).toBe(200);
    expect((await other.get('/')).status).toBe(303);
    expect((await new WebAgent(s.url).signIn(email, 'a fresh passphrase here')).status).toBe(303);
  });

  it('When someone asks for reset links to one address again and again, then its mailbox gets three, and the page says the same', async () => {
    const { email } = await signedUp('bomb');
    const agent = new WebAgent(s.url);
    await agent.get('/forgot');
    const before = mail.messages.length;
    const pages = [];
    for (let i = 0; i < 5; i++) pages.push(await agent.post('/forgot', { email }));
    await mail.next(email, before);
    await new Promise((r) => setTimeout(r, 300));

    expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(pages.map((p) => p.text)).size).toBe(1);
    expect(mail.messages.slice(before).filter((m) => m.to.includes(email)).length).toBe(3);
  });

  it('When a link is altered, expired or of another kind, then it does nothing', async () => {
    const { email } = await signedUp('links');
    const link = new URL(await mail.link(email, '/confirm'));
    const token = link.searchParams.get('token')!;
    const agent = new WebAgent(s.url);
    const altered = await agent.get(`/confirm?token=${token.slice(0, -2)}xx`);
    const asReset = await agent.get(`/reset?token=${token}`);
    const garbage = await agent.get('/invite?token=%00%ff');
    for (const res of [altered, asReset, garbage]) {
      expect(res.status).toBe(400);
      expect(res.text).toContain('This link does not work');
    }
  });

  it('When the owner invites someone, then the invited person joins the same account; a member cannot invite or remove', async () => {
    const { agent: owner, email: ownerEmail } = await signedUp('owner');
    const invitee = newEmail('invitee');
    await owner.get('/members');
    const invited = await owner.post('/members', { email: invitee });
    // The owner sends it again (lost in a spam folder): a second mail, and either link works until one is used.
    const pending = /members\/(user_[^/]+)\/resend/.exec((await owner.get('/members')).text)?.[1];
    const before = mail.messages.length;
    const resent = await owner.post(`/members/${pending}/resend`, {});
    const link = new URL(await mail.link(invitee, '/invite', before));
    const member = new WebAgent(s.url);
    const form = await member.get(link.pathname + link.search);
    const joined = await member.post('/invite', { token: link.searchParams.get('token')!, password: 'member passphrase here' });
    const members = await member.get('/members');
    const tries = await member.post('/members', { email: newEmail('third') });
    const memberId = /members\/(user_[^/]+)\/remove/.exec((await owner.get('/members')).text)?.[1];

    expect(invited).toMatchObject({ status: 303, location: '/members?done=invited' });
    expect(resent).toMatchObject({ status: 303, location: '/members?done=invited' });
    expect(form.text).toContain(invitee);
    expect(joined).toMatchObject({ status: 303 });
    expect(members.text).toContain(ownerEmail);
    expect((await member.get('/')).text).toMatch(/data-testid="balance">100</);
    expect(tries.status).toBe(403);
    expect(memberId).toBeDefined(); // the owner sees a Remove button for the member…
    const removed = await owner.post(`/members/${memberId}/remove`, {});
    expect(removed.status).toBe(303);
    expect((await member.get('/')).status).toBe(303); // …and the member's session ends with the removal
  });

  it('When the address is not confirmed, then buying is refused', async () => {
    const { agent, email } = await signedUp('unconfirmed');
    // A person signed in before confirming (an account from before sign-in waited for the confirmation).
    await s.db.run(`UPDATE users SET email_confirmed_at = NULL WHERE email = $1`, [email]);
    await agent.get('/billing');
    const res = await agent.post('/billing/checkout', { pack: '20000' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Confirm your e-mail address');
  });

  /** A CSV uploaded through the dashboard's form (its session and CSRF token), and its status once done (10 s at most). */
  async function uploadAndWait(agent: WebAgent, csv: string, name: string) {
    await agent.get('/batches');
    const form = new FormData();
    form.append('smtp', 'false');
    form.append('file', new Blob([csv], { type: 'text/csv' }), name);
    const res = await fetch(`${s.url}/batches`, {
      method: 'POST', body: form,
      headers: { cookie: `cv_session=${agent.cookies.get('cv_session')}`, 'x-csrf-token': agent.csrf, accept: 'application/json' },
    });
    const created = (await res.json()) as { batch_id: string };
    let status = '';
    for (let i = 0; i < 100 && status !== 'completed'; i++) {
      status = (JSON.parse((await agent.get(`/batches/${created.batch_id}/status`, { accept: 'application/json' })).text) as { status: string }).status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }
    return { res, created, status };
  }

  it('When a person uploads a CSV in the dashboard, then the batch runs and its result downloads', async () => {
    const { agent } = await signedUp('batch');
    const { res, created, status } = await uploadAndWait(agent, CSV, 'contacts.csv');
    const result = await agent.get(`/batches/${created.batch_id}/result`);
    const page = await agent.get('/batches');

    expect(res.status).toBe(202);
    expect(status).toBe('completed');
    expect(result.status).toBe(200);
    expect(result.text.split('\n')[0]).toContain('cv_email_status');
    expect(result.text.split(/\r?\n/)[0]).toMatch(/,cv_next_action,cv_address_lat,cv_address_lon,cv_address_precision,cv_address_evidence,cv_address_changes,cv_feedback$/);
    expect(result.text).toContain('ann@example.com');
    // Each row says what to do (then where the address is: lat, lon, precision, evidence; what changed; feedback), and the
    // page says what the columns mean.
    expect(result.text.split(/\r?\n/)[1]).toMatch(/,(accept|confirm|fix)(,[^,]*){6}$/);
    expect(page.text).toContain('data-testid="next-action-hint"');
    expect(page.text).toContain('data-testid="address-changes-hint"');
  });

  it('When a batch is done, then its page lists the rows to look at (confirm, fix) with what changed in each address', async () => {
    const { agent } = await signedUp('batch-rows');
    const { created, status } = await uploadAndWait(agent,
      'street,city,state,zip\n6007 applegate lane,Louisvile,KY,40219\n6007 Applegate Ln,Louisville,KY,40219\n1 Nowhere Rd,Springfield,ZZ,00000\n', 'addresses.csv');

    const list = await agent.get('/batches');
    const detail = await agent.get(`/batches/${created.batch_id}`);
    const cells = (row: number) => (detail.text.split(`<tr data-row="${row}">`)[1]?.split('</tr>')[0] ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();

    expect(status).toBe('completed');
    expect(list.text).toContain(`href="/batches/${created.batch_id}"`);
    expect(detail.status).toBe(200);
    // The misspelt city is mended (confirm), the address that does not exist is to fix; the right one is not listed.
    expect(cells(1)).toMatch(/^1 confirm corrected 6007 APPLEGATE LN.* city spell_corrected \(LOUISVILE → LOUISVILLE\)/);
    expect(cells(3)).toMatch(/^3 fix invalid/);
    expect(cells(2)).toBe('');
    expect(detail.text).toContain(`href="/batches/${created.batch_id}/result"`);
  });

  it('When the dashboard script is fetched, then it is far under 200 KB', async () => {
    const js = await fetch(`${s.url}/assets/dashboard.js`);
    const css = await fetch(`${s.url}/assets/dashboard.css`);
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeLessThan(10_000);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});
