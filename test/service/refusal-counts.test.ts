/**
 * Refusal counts held in this process (RefusalCounter on SQLite, src/http/middleware/rate-limit.ts): a flood from ever
 * new addresses, or naming ever new shops, holds at most a bounded number of keys; past it, new keys share a bucket.
 */
import { describe, expect, it } from 'vitest';
import { BoundedCounts, RefusalCounter } from '../../src/http/middleware/rate-limit.js';

describe('refusal counts in memory', () => {
  it('When 50,000 distinct keys are refused in one window, then at most the cap (and one shared bucket) is held', async () => {
    const counter = new RefusalCounter(5, undefined, 'x:', 1_000);

    for (let i = 0; i < 50_000; i++) await counter.refused(`shop-${i}.myshopify.com`);

    expect(counter.keysHeld).toBe(1_001);
    // The keys first seen past the cap share one bucket, long over its limit.
    expect(await counter.refused('new.myshopify.com')).toBeGreaterThan(0);
    // A key counted before the cap keeps its own count: one refusal so far, under the limit.
    expect(await counter.refused('shop-1.myshopify.com')).toBeNull();
  });

  it('When the window ends, then the counts start again from nothing', () => {
    let now = 1_000_000;
    const counts = new BoundedCounts(10, () => now);
    for (let i = 0; i < 3; i++) counts.increment('a');

    now += 60_000;

    expect(counts.increment('a').totalHits).toBe(1);
    expect(counts.size).toBe(1);
  });
});
