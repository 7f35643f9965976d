/** The core's retries (src/sync/retry.ts): what a plugin's error advises, and the policy's limits. */
import { describe, expect, it } from 'vitest';
import { OutboundRefused } from '../../src/net/outbound-guard.js';
import { ConnectorError } from '../../src/sync/plugin.js';
import { backoffMs, retryAfterMs, withRetries, type RetryPolicy } from '../../src/sync/retry.js';

const policy: RetryPolicy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 5_000 };
const busy = (retryAfter: number | null = null) => new ConnectorError('rate_limited', 'busy', null, { retryable: true, retryAfterMs: retryAfter });

/** A call failing with `errors` in turn, then answering 'ok'; the waits asked for are recorded. */
function flaky(errors: unknown[]) {
  const sleeps: number[] = [];
  let calls = 0;
  const call = async () => {
    calls++;
    if (errors.length) throw errors.shift();
    return 'ok';
  };
  return { call, sleeps, sleep: async (ms: number) => { sleeps.push(ms); }, calls: () => calls };
}

describe('the core retries', () => {
  it('When a call fails with retryable errors, then it is tried again after growing, jittered waits', async () => {
    const f = flaky([busy(), busy(), busy()]);

    const answer = await withRetries(f.call, { policy, sleep: f.sleep });

    expect(answer).toBe('ok');
    expect(f.calls()).toBe(4);
    // Equal jitter: each wait between half its step and the step (100, 200, 400).
    f.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual((100 * 2 ** i) / 2);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
  });

  it('When the platform says how long to wait, then that wait is kept', async () => {
    const f = flaky([busy(1_500)]);

    await withRetries(f.call, { policy, sleep: f.sleep });

    expect(f.sleeps).toEqual([1_500]);
  });

  it('When the platform asks for longer than the longest wait, then the call gives up at once', async () => {
    const f = flaky([busy(60_000)]);

    await expect(withRetries(f.call, { policy, sleep: f.sleep })).rejects.toMatchObject({ reason: 'rate_limited' });

    expect(f.sleeps).toEqual([]);
  });

  it('When every try fails, then the last error comes out after the policy\'s tries', async () => {
    const f = flaky([busy(), busy(), busy(), busy(), busy()]);

    await expect(withRetries(f.call, { policy, sleep: f.sleep })).rejects.toBeInstanceOf(ConnectorError);

    expect(f.calls()).toBe(4);
    expect(f.sleeps).toHaveLength(3);
  });

  it('When the error is not retryable (refused credentials, the outbound guard), then it is not tried again', async () => {
    for (const error of [new ConnectorError('auth_failed', 'refused'), new OutboundRefused('not_public', 'private address'), new Error('bug')]) {
      const f = flaky([error]);

      await expect(withRetries(f.call, { policy, sleep: f.sleep })).rejects.toBe(error);

      expect(f.calls()).toBe(1);
    }
  });

  it('When the tries would pass the time allowed, then the call gives up before waiting', async () => {
    let clock = 0;
    const f = flaky([busy(1_000), busy(1_000), busy(1_000)]);

    const tried = withRetries(f.call, {
      policy: { ...policy, maxElapsedMs: 2_500 }, now: () => clock, sleep: async (ms) => { f.sleeps.push(ms); clock += ms; },
    });

    await expect(tried).rejects.toBeInstanceOf(ConnectorError);
    expect(f.sleeps).toEqual([1_000, 1_000]);
  });

  it('When the signal aborts during a wait, then no other try follows', async () => {
    const controller = new AbortController();
    const f = flaky([busy(2_000), busy()]);
    setTimeout(() => controller.abort(new Error('stopping')), 20);

    await expect(withRetries(f.call, { policy, signal: controller.signal })).rejects.toThrow('stopping');

    expect(f.calls()).toBe(1);
  });

  it('When the back-off grows past the longest wait, then it stays there', () => {
    expect(backoffMs(policy, 20, () => 1)).toBe(5_000);
    expect(backoffMs(policy, 1, () => 0)).toBe(50);
  });

  it('When Retry-After is seconds or an HTTP-date, then it reads as milliseconds from now', () => {
    const now = Date.parse('2026-11-27T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});
