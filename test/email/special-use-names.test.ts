/**
 * The names reserved for examples, tests and the local host (RFC 2606, RFC 6761) are never a mailbox, network or not
 * (issue #52 item 4: `info@example.com` was `unknown`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailEngine } from '../../src/validation/email/index.js';
import { startEmailTestRig, type EmailTestRig } from './email-test-rig.js';

const RESERVED = ['info@example.com', 'ann@mail.example.org', 'bo@example.net', 'x@shop.test', 'y@b.example', 'z@q.invalid', 'w@app.localhost'];
const ORDINARY = ['info@example.co.uk', 'ann@myexample.com', 'bo@test.com', 'x@examples.net'];
const deadline = () => Date.now() + 2000;

describe('e-mail addresses at special-use names', () => {
  const offline = createEmailEngine({ networkChecks: false, smtpPort: 25, allowPrivate: false, heloName: 'v.example.org', mailFrom: 'v@v.example.org' });
  let rig: EmailTestRig;

  beforeAll(async () => {
    // A resolver and a mail server that would accept mail for example.com: the answer must not depend on them.
    rig = await startEmailTestRig(
      { 'example.com': { MX: [{ exchange: 'mx.example.com', priority: 10 }] }, 'mx.example.com': { A: ['127.0.0.1'] } },
      { byAddress: { 'info@example.com': 'accept' } },
    );
  });
  afterAll(async () => {
    await offline.close();
    await rig?.close();
  });

  it.each(RESERVED)('When "%s" is checked with network checks off, then it is invalid: reserved_domain, known before any network', async (input) => {
    const answer = await offline.validate(input, { smtp: true, deadline: deadline() });
    expect(answer).toMatchObject({ status: 'invalid', risk: 'high', smtp: 'skipped', reason: 'reserved_domain', suggestion: null });
    // Pricing asks offlineAnswer first: the same answer, so it is charged as any invalid address is.
    expect(offline.offlineAnswer(input)).toEqual(answer);
  });

  it('When network checks are on and DNS would answer for example.com, then it is still invalid and nothing is asked', async () => {
    const engine = rig.engine({ specialUseNamesOrdinary: false });
    const answer = await engine.validate('info@example.com', { smtp: true, deadline: deadline() });
    expect(answer).toMatchObject({ status: 'invalid', reason: 'reserved_domain', normalized: 'info@example.com' });
    expect([...rig.dnsServer.questions.keys()].filter((q) => q.includes('example.com'))).toEqual([]);
    expect(engine.offlineAnswer('info@example.com')).toMatchObject({ status: 'invalid', reason: 'reserved_domain' });
  });

  it.each(ORDINARY)('When "%s" only looks like a reserved name, then it is checked as any other', async (input) => {
    const answer = await offline.validate(input, { smtp: true, deadline: deadline() });
    expect(answer.reason).not.toBe('reserved_domain');
  });
});
