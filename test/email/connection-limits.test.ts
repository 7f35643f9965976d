import { describe, expect, it } from 'vitest';
import { ConnectionLimitTimeoutError, ConnectionLimits, ConnectionRateExceededError } from '../../src/validation/email/connection-limits.js';

describe('connection limits', () => {
  it('When two connections to a host are open, then a third waits until one is released', async () => {
    const limits = new ConnectionLimits(2, 10);
    const first = await limits.acquire('192.0.2.1', 100);
    await limits.acquire('192.0.2.1', 100);
    let third = false;
    const waiting = limits.acquire('192.0.2.1', 1000).then((release) => { third = true; return release; });
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    await limits.acquire('198.51.100.1', 100); // other hosts are not held up
    first();
    await waiting;
    expect(third).toBe(true);
  });

  it('When the global cap is reached, then a waiter gives up after its time', async () => {
    const limits = new ConnectionLimits(2, 1);
    await limits.acquire('192.0.2.1', 100);
    await expect(limits.acquire('198.51.100.1', 30)).rejects.toBeInstanceOf(ConnectionLimitTimeoutError);
  });

  it('When a host has had its connections this minute, then the next is refused at once until the minute has passed', async () => {
    let clock = 0;
    const limits = new ConnectionLimits(2, 10, 2, () => clock);
    (await limits.acquire('192.0.2.1', 100))();
    (await limits.acquire('192.0.2.1', 100))();
    await expect(limits.acquire('192.0.2.1', 100)).rejects.toBeInstanceOf(ConnectionRateExceededError);
    (await limits.acquire('198.51.100.1', 100))();
    clock += 60_001;
    (await limits.acquire('192.0.2.1', 100))();
  });
});
