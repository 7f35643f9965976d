/**
 * Feedback (issue 54.4, docs/email.md#feedback), against the real service on SQLite and PostgreSQL, an SMTP server and
 * a resolver on 127.0.0.1: a hard bounce of an address the probe called `valid` makes it `invalid` (`bounced`) in that
 * account's answers, not another's; a catch-all domain's answers carry a score that bounces lower and deliveries raise;
 * the same outcome told twice counts once; a malformed address or outcome is a 400 problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedbackService } from '../email/feedback-rig.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, type TestService } from '../support/service.js';

describe.each(testDatabases)('feedback on $name', (database) => {
  let rig: Awaited<ReturnType<typeof startFeedbackService>>;
  let s: TestService;
  beforeAll(async () => {
    rig = await startFeedbackService(database, ['ann@mail.test']);
    s = rig.service;
  });
  afterAll(async () => rig?.close());

  async function emailOf(key: string, email: string) {
    const res = await s.post('/v1/validate', { email, options: { smtp: true } }, { key });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { email: Record<string, any> }).email;
  }
  const tell = (key: string, body: unknown) => s.post('/v1/feedback', body, { key });

  it('When an account reports a hard bounce of an address called valid, then its answers say invalid, bounced; another account\'s do not', async () => {
    // Arrange
    const mine = await s.newAccount(100);
    const theirs = await s.newAccount(100);
    const before = await emailOf(mine.apiKey, 'ann@mail.test');

    // Act
    const told = await tell(mine.apiKey, { email: 'ann@MAIL.test', outcome: 'bounced' });
    const after = await emailOf(mine.apiKey, 'ann@mail.test');
    const elsewhere = await emailOf(theirs.apiKey, 'ann@mail.test');

    // Assert
    expect(before).toMatchObject({ status: 'valid', reason: 'accepted' });
    expect(told.status).toBe(200);
    expect(await told.json()).toMatchObject({ email: 'ann@mail.test', outcome: 'bounced', domain: 'mail.test', domain_outcomes: { bounced: 1, delivered: 0 } });
    expect(after).toMatchObject({ status: 'invalid', risk: 'high', reason: 'bounced', next_action: 'fix' });
    expect(elsewhere).toMatchObject({ status: 'valid', reason: 'accepted' });
  });

  it('When outcomes at a catch-all domain come in, then its answers carry a score that bounces lower and deliveries raise, each address counted once', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(100);
    const first = await emailOf(apiKey, 'new@catchall.test');

    // Act
    await tell(apiKey, { email: 'a@catchall.test', outcome: 'bounced' });
    await tell(apiKey, { email: 'a@catchall.test', outcome: 'bounced' }); // the same, told twice
    const afterBounce = await emailOf(apiKey, 'new@catchall.test');
    for (const local of ['b', 'c', 'd', 'e']) await tell(apiKey, { email: `${local}@catchall.test`, outcome: 'delivered' });
    await tell(apiKey, { email: 'f@catchall.test', outcome: 'complained' });
    const afterDeliveries = await emailOf(apiKey, 'new@catchall.test');

    // Assert
    // Before the account has told anything, a catch-all answer is the flat verdict.
    expect(first).toMatchObject({ status: 'risky', smtp: 'catch_all', reason: 'catch_all' });
    expect(first.catch_all_score).toBeUndefined();
    expect(afterBounce.catch_all_score).toEqual({ score: 0.33, outcomes: 1 });
    // (5 delivered + 1) / (5 + 1 bounced + 2)
    expect(afterDeliveries).toMatchObject({ status: 'risky', catch_all_score: { score: 0.75, outcomes: 6 } });
  });

  it('When the address or the outcome is malformed, then a 400 problem names the field and nothing is kept', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(100);

    // Act
    const [address, outcome, extra] = await Promise.all([
      tell(apiKey, { email: 'no-at-sign', outcome: 'bounced' }),
      tell(apiKey, { email: 'x@catchall.test', outcome: 'lost' }),
      tell(apiKey, { email: 'x@catchall.test', outcome: 'bounced', account_id: 'acct_other' }),
    ]);

    // Assert
    expect([address.status, outcome.status, extra.status]).toEqual([400, 400, 400]);
    expect(await problemOf(address)).toMatchObject({ errors: [{ field: 'email' }] });
    expect(JSON.stringify(await problemOf(outcome))).toContain('outcome');
    expect((await emailOf(apiKey, 'x@catchall.test')).catch_all_score).toBeUndefined();
  });
});
