/**
 * Attacks on the people of an account, over HTTP on SQLite and PostgreSQL: limits beaten by parallel requests (issue
 * 38 items 3 and 4), forms that tell who has an account (item 10), and API keys that outlive the person who made them
 * (item 6).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import type { MailCatcher } from '../support/mail-catcher.js';
import type { TestService } from '../support/service.js';
import { newEmail, newKeyOf, signedUpPerson, useServiceWithMail, WebAgent } from './web-agent.js';

const PASSWORD = 'correct horse battery';

describe.each(testDatabases)('people under attack on $name', (database) => {
  const started = useServiceWithMail(database, {
    FREE_CREDITS: '100', PASSWORD_SCRYPT_LOG_N: '10', SIGN_IN_ATTEMPTS_PER_15_MIN: '10', SIGN_UPS_PER_15_MIN: '5',
  });
  let s: TestService;
  let mail: MailCatcher;
  beforeAll(() => void ({ s, mail } = started()));

  const signedUp = (tag: string) => signedUpPerson(s.url, mail, tag, PASSWORD);

  const validates = async (key: string) => (await s.post('/v1/validate', { email: 'ann@example.com' }, { key })).status;

  it('When 30 sign-ins race (29 wrong passwords, one right), then at most 10 are checked and the rest get the limit page', async () => {
    const { email } = await signedUp('race');
    const agent = new WebAgent(s.url);
    await agent.get('/signin');
    const passwords = Array.from({ length: 30 }, (_, i) => (i === 15 ? PASSWORD : `wrong password ${i}`));

    const answers = await Promise.all(passwords.map((password) => agent.post('/signin', { email, password })));

    const checked = answers.filter((a) => a.status !== 429);
    const limited = answers.filter((a) => a.status === 429);
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(checked.length + limited.length).toBe(30);
    for (const res of limited) {
      expect(res.text).toContain('Too many failed sign-ins');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('cv_session='))).toBe(false);
    }
    // The right password got a session only if it was among the ones checked.
    const right = answers[15];
    expect(right.status === 303).toBe(right.headers.getSetCookie().some((c) => c.startsWith('cv_session=')));
    // Once the limit is reached, the right password is refused too.
    const after = await agent.post('/signin', { email, password: PASSWORD });
    if (right.status !== 303) expect(after.status).toBe(429);
  });

  it('When 12 sign-ups race from one client address, then at most 5 accounts are made', async () => {
    const agent = new WebAgent(s.url);
    await agent.get('/signup');
    const emails = Array.from({ length: 12 }, () => newEmail('farm'));
    const accountsBefore = Number((await s.db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM accounts`))[0].n);

    const answers = await Promise.all(emails.map((email) => agent.post('/signup', { email, password: PASSWORD })));

    const made = await s.db.all<{ email: string }>(`SELECT email FROM users WHERE email LIKE 'farm-%'`);
    const accountsAfter = Number((await s.db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM accounts`))[0].n);
    expect(made.filter((u) => emails.includes(u.email)).length).toBeLessThanOrEqual(5);
    expect(accountsAfter - accountsBefore).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(7);
    expect(answers.filter((a) => a.status === 429).every((a) => a.text.includes('Too many new accounts'))).toBe(true);
  });

  it('When someone signs up with an address that has an account, then the page is the same as for a new one and its owner is told by mail', async () => {
    const { email: taken } = await signedUp('taken');
    const fresh = newEmail('fresh');
    const agent = new WebAgent(s.url);
    await agent.get('/signup');
    const before = mail.messages.length;

    const known = await agent.post('/signup', { email: taken, password: 'another passphrase 1' });
    const unknown = await agent.post('/signup', { email: fresh, password: 'another passphrase 1' });
    const notice = await mail.next(taken, before);
    const signInWithChosen = await new WebAgent(s.url).signIn(taken, 'another passphrase 1');

    expect(known.status).toBe(unknown.status);
    expect(known.text.replace(taken, 'X')).toBe(unknown.text.replace(fresh, 'X'));
    expect(known.headers.getSetCookie()).toEqual(unknown.headers.getSetCookie());
    expect(notice.subject).toBe('You already have an account');
    expect(notice.text).not.toContain('token=');
    expect(signInWithChosen.status).toBe(401); // the password typed at sign-up does not open the existing account
    expect((await s.db.all(`SELECT 1 FROM users WHERE email = $1`, [taken])).length).toBe(1);
  });

  it("When the owner invites an address that has an account elsewhere, then the answer and the list are the same as for a new address", async () => {
    const { agent: owner } = await signedUp('inviter');
    const { email: elsewhere } = await signedUp('elsewhere');
    const fresh = newEmail('newcomer');
    await owner.get('/members');
    const before = mail.messages.length;

    const toKnown = await owner.post('/members', { email: elsewhere });
    const toFresh = await owner.post('/members', { email: fresh });
    const list = (await owner.get('/members')).text;
    const notice = await mail.next(elsewhere, before);
    const rowOf = (email: string) => list.split('<tr>').find((row) => row.includes(`${email} <small>(invited)</small>`));
    const knownId = /members\/(user_[A-Za-z0-9]+)\/resend/.exec(rowOf(elsewhere) ?? '')?.[1];

    expect(toKnown).toMatchObject({ status: 303, location: '/members?done=invited' });
    expect(toFresh).toMatchObject({ status: 303, location: '/members?done=invited' });
    expect(rowOf(elsewhere)).toBeDefined();
    expect(rowOf(fresh)).toBeDefined();
    expect(notice.subject).toBe('An invitation to another account');
    expect(notice.text).not.toContain('token=');
    expect(knownId).toBeDefined();
    expect((await owner.post(`/members/${knownId}/resend`, {})).status).toBe(303);
    expect((await owner.post(`/members/${knownId}/remove`, {})).status).toBe(303);
    expect((await owner.get('/members')).text).not.toContain(elsewhere);
  });

  it("When a member is removed, then the keys they made (and the keys those keys made) stop working, and the owner's go on", async () => {
    const { agent: owner, email: ownerEmail } = await signedUp('keys-owner');
    const invitee = newEmail('keys-member');
    await owner.get('/members');
    await owner.post('/members', { email: invitee });
    const link = new URL(await mail.link(invitee, '/invite'));
    const member = new WebAgent(s.url);
    await member.get(link.pathname + link.search);
    await member.post('/invite', { token: link.searchParams.get('token')!, password: 'member passphrase here' });
    const ownerKey = await newKeyOf(owner);
    const memberKey = await newKeyOf(member);
    const minted = (await (await s.post('/v1/keys', {}, { key: memberKey })).json()) as { api_key: string };
    const keysPage = (await owner.get('/keys')).text;
    const memberId = /members\/(user_[^/]+)\/remove/.exec((await owner.get('/members')).text)![1];

    expect(keysPage).toContain(ownerEmail);
    expect(keysPage).toContain(invitee);
    expect([await validates(memberKey), await validates(minted.api_key)]).toEqual([200, 200]);

    await owner.post(`/members/${memberId}/remove`, {});

    expect([await validates(memberKey), await validates(minted.api_key), await validates(ownerKey)]).toEqual([401, 401, 200]);
    expect((await s.post('/v1/keys', {}, { key: memberKey })).status).toBe(401); // it mints nothing more
    expect((await owner.get('/keys')).text).toContain('a removed member');
  });

  it('When a password is reset, then the form offers to revoke the keys the person made, ticked, and does so unless unticked', async () => {
    const { agent, email } = await signedUp('reset-keys');
    const key = await newKeyOf(agent);
    const resetWith = async (form: Record<string, string>) => {
      const before = mail.messages.length;
      const other = new WebAgent(s.url);
      await other.get('/forgot');
      await other.post('/forgot', { email });
      const link = new URL(await mail.link(email, '/reset', before));
      const page = await other.get(link.pathname + link.search);
      const done = await other.post('/reset', { token: link.searchParams.get('token')!, ...form });
      return { page, done };
    };

    const kept = await resetWith({ password: 'first new passphrase' }); // the box unticked: the browser sends nothing
    const stillWorks = await validates(key);
    const revoked = await resetWith({ password: 'second new passphrase', revoke_keys: 'true' });

    expect(kept.page.text).toMatch(/name="revoke_keys" value="true" checked/);
    expect(kept.page.text).toContain('(1 active)');
    expect(kept.done.status).toBe(303);
    expect(stillWorks).toBe(200);
    expect(revoked.done.status).toBe(303);
    expect(await validates(key)).toBe(401);
  });
});
