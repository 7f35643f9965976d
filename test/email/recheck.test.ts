/**
 * The engine asked again for an answer that arrives later (`recheck`, src/email-checks): a greylisting server on
 * 127.0.0.1 says how long to wait, the engine keeps that wait (`retryHintMs`), a try before it is `temp_fail` again,
 * one after it is `valid` and cached; a cached definite answer is given without asking the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmailTestRig, type EmailTestRig } from './email-test-rig.js';

const GREYLIST_MS = 1500;

describe('recheck of a greylisted address', () => {
  let rig: EmailTestRig;
  beforeAll(async () => {
    rig = await startEmailTestRig(
      { 'grey.test': { MX: [{ exchange: 'mx.grey.test', priority: 10 }] }, 'mx.grey.test': { A: ['127.0.0.1'] } },
      { byAddress: { 'ann@grey.test': { greylistForMs: GREYLIST_MS } } },
    );
  });
  afterAll(() => rig?.close());

  it('When the server greylists with a hint, then the wait is kept and a try after it is valid and cached', async () => {
    const engine = rig.engine({ greylistRetryMs: 0 });
    const first = await engine.validate('ann@grey.test', { smtp: true, deadline: Date.now() + 2000 });
    expect(first).toMatchObject({ status: 'unknown', reason: 'temp_fail' });
    expect(engine.retryHintMs('ann@grey.test')).toBe(2000); // "try again in 2 seconds": the text rounds up

    const early = await engine.recheck('ann@grey.test');
    expect(early).toMatchObject({ result: { reason: 'temp_fail' }, retryAfterMs: 2000 });

    await new Promise((r) => setTimeout(r, GREYLIST_MS + 100));
    const later = await engine.recheck('ann@grey.test');
    expect(later).toMatchObject({ result: { status: 'valid', reason: 'accepted' }, retryAfterMs: null });

    const asked = rig.smtpServer.recipients.filter((r) => r === 'ann@grey.test').length;
    expect(await engine.validate('ann@grey.test', { smtp: true, deadline: Date.now() + 2000 })).toMatchObject({ status: 'valid' });
    expect((await engine.recheck('ann@grey.test')).result.status).toBe('valid');
    expect(rig.smtpServer.recipients.filter((r) => r === 'ann@grey.test')).toHaveLength(asked);
  });

  it('When the address is no address, then recheck answers its syntax error without the network', async () => {
    const engine = rig.engine();
    expect((await engine.recheck('not an address')).result).toMatchObject({ status: 'invalid' });
  });
});
