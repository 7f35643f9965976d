/**
 * Feedback as a column of a CSV upload (issue 54.4, docs/batches.md#feedback), against the real service on SQLite and
 * PostgreSQL, an SMTP server and a resolver on 127.0.0.1: each row's outcome is recorded before the row is checked, so
 * a row reported bounced answers `invalid` (`bounced`) in the result and in the account's later answers; a mailing
 * tool's words are read; a word that is no outcome, or a row without an address, records nothing and says so; a named
 * feedback column leaves the other columns detected; rows cost what they cost without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { startFeedbackService } from '../email/feedback-rig.js';
import { testDatabases } from '../support/databases.js';
import { upload, waitForStatus } from '../support/batches.js';
import { problemOf, type TestService } from '../support/service.js';


describe.each(testDatabases)('feedback in a CSV upload on $name', (database) => {
  let rig: Awaited<ReturnType<typeof startFeedbackService>>;
  let s: TestService;
  beforeAll(async () => {
    rig = await startFeedbackService(database, ['ann@mail.test', 'bob@mail.test', 'cy@mail.test']);
    s = rig.service;
  });
  afterAll(async () => rig?.close());

  async function resultOf(key: string, csv: string, query = '') {
    const res = await upload(s, key, csv, { query });
    const created = (await res.json()) as Record<string, any>;
    expect(res.status, JSON.stringify(created)).toBe(202);
    const batch = await waitForStatus(s, key, created.batch_id, ['completed']);
    const text = await (await s.get(`/v1/batches/${created.batch_id}/result`, key)).text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    return { created, batch, rows };
  }

  async function emailOf(key: string, email: string) {
    const res = await s.post('/v1/validate', { email, options: { smtp: true } }, { key });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { email: Record<string, any> }).email;
  }

  it('When a file carries a feedback column, then each outcome is recorded before its row is checked and the answers learn from it', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(100);
    const csv = [
      'Email,Delivery Status',
      'ann@mail.test,Hard Bounce', // a mailing tool's words for a hard bounce, of an address the probe calls valid
      'bob@mail.test,',
      'x1@catchall.test,delivered',
      'x2@catchall.test,SpamComplaint',
      'cy@mail.test,soft bounce',
      ',bounced',
    ].join('\r\n');

    // Act
    const { created, batch, rows } = await resultOf(apiKey, `${csv}\r\n`);
    const later = await emailOf(apiKey, 'ann@mail.test');
    const catchAll = await emailOf(apiKey, 'new@catchall.test');

    // Assert
    expect(created.columns).toMatchObject({ email: 'Email', feedback: 'Delivery Status' });
    expect(rows.map((r) => [r.Email, r.cv_email_status, r.cv_email_reason, r.cv_feedback])).toEqual([
      ['ann@mail.test', 'invalid', 'bounced', 'recorded'],
      ['bob@mail.test', 'valid', 'accepted', ''],
      ['x1@catchall.test', 'risky', 'catch_all', 'recorded'],
      ['x2@catchall.test', 'risky', 'catch_all', 'recorded'],
      ['cy@mail.test', 'valid', 'accepted', 'unknown_outcome'],
      ['', '', '', 'no_email'],
    ]);
    expect(rows[5].cv_error).toBe('empty');
    expect(later).toMatchObject({ status: 'invalid', reason: 'bounced' });
    // Two deliveries (a complaint was delivered) and no bounce at the domain: (2 + 1) / (2 + 2).
    expect(catchAll.catch_all_score).toEqual({ score: 0.75, outcomes: 2 });
    // Five rows with an address, priced as without the column (an e-mail probe is 1 credit; the empty row is free).
    expect(batch.credits_charged).toBe(5);
  });

  it('When the feedback column is named, then the other columns are still found by their headers, and a name the header lacks is refused', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(100);
    const csv = 'E-mail,What happened\r\nbob@mail.test,bounced\r\n';

    // Act
    const { created, rows } = await resultOf(apiKey, csv, '?feedback_column=what%20happened');
    const refused = await upload(s, apiKey, csv, { query: '?feedback_column=Outcome' });

    // Assert
    expect(created.columns).toMatchObject({ email: 'E-mail', feedback: 'What happened', address: [] });
    expect(rows[0]).toMatchObject({ cv_email_status: 'invalid', cv_email_reason: 'bounced', cv_feedback: 'recorded' });
    expect(refused.status).toBe(422);
    expect(await problemOf(refused)).toMatchObject({ type: expect.stringContaining('invalid-csv'), detail: expect.stringContaining('"Outcome"') });
  });

  it('When a file has no feedback column, then the result says nothing of feedback and another account is untouched', async () => {
    // Arrange
    const { apiKey } = await s.newAccount(100);

    // Act
    const { created, rows } = await resultOf(apiKey, 'Email\r\nann@mail.test\r\n');

    // Assert: the first test's bounce of ann@mail.test was another account's.
    expect(created.columns.feedback).toBeNull();
    expect(rows[0]).toMatchObject({ cv_email_status: 'valid', cv_feedback: '' });
  });
});
