/** Per-server manners (host-manners.ts): which replies slow a host down, for how long, and what the fleet teaches. */
import { describe, expect, it } from 'vitest';
import { HostManners, slowDownAsked } from '../../src/validation/email/host-manners.js';

describe('which replies ask us to come less often', () => {
  it.each<[number, string | null, string, { hintMs: number | null } | null]>([
    [421, '4.7.0', 'Too many connections, try again in 3 seconds', { hintMs: 3000 }],
    [421, null, 'Service not available, closing transmission channel', { hintMs: null }],
    [451, '4.7.0', 'Rate limit exceeded', { hintMs: null }],
    [450, '4.7.1', 'Greylisted, try again in 300 seconds', null],
    [451, '4.3.0', 'Temporary local problem', null],
    [550, '5.7.1', 'Blocked', null],
  ])('When the reply is %i %s "%s", then the slow-down is %j', (code, enhanced, text, expected) => {
    expect(slowDownAsked({ code, enhanced, text })).toEqual(expected);
  });
});

describe('a host slowed down', () => {
  it('When it refuses again and again, then the wait doubles up to the max, takes a longer hint, and answers bring it back', () => {
    let now = 1_000_000;
    const changes: unknown[] = [];
    const manners = new HostManners({ baseMs: 1000, maxMs: 5000, now: () => now, onChange: (s) => changes.push(s) });
    expect(manners.waitMs('192.0.2.1')).toBe(0);
    manners.refused('192.0.2.1', null);
    expect(manners.waitMs('192.0.2.1')).toBe(1000);
    manners.refused('192.0.2.1', null);
    expect(manners.waitMs('192.0.2.1')).toBe(2000);
    manners.refused('192.0.2.1', 4500);
    expect(manners.waitMs('192.0.2.1')).toBe(4500);
    manners.refused('192.0.2.1', null);
    expect(manners.waitMs('192.0.2.1')).toBe(5000);
    expect(manners.concurrencyFor('192.0.2.1', 2)).toBe(1);
    expect(manners.concurrencyFor('192.0.2.9', 2)).toBe(2);
    now += 6000;
    expect(manners.waitMs('192.0.2.1')).toBe(0);
    for (let i = 0; i < 4; i++) manners.answered('192.0.2.1');
    expect(manners.concurrencyFor('192.0.2.1', 2)).toBe(2);
    expect(changes).toHaveLength(8);
    expect(manners.slowdowns).toBe(4);
  });

  it('When another instance slowed a host, then it is learnt without being told back, and an older word changes nothing', () => {
    const now = 1_000_000;
    const changes: unknown[] = [];
    const manners = new HostManners({ baseMs: 1000, maxMs: 5000, now: () => now, onChange: (s) => changes.push(s) });
    manners.learn({ host: '192.0.2.2', slowUntil: now + 3000, level: 1 });
    manners.learn({ host: '192.0.2.2', slowUntil: now + 1000, level: 1 });
    expect(manners.waitMs('192.0.2.2')).toBe(3000);
    expect(manners.slowed()).toEqual([{ host: '192.0.2.2', slowUntil: now + 3000, level: 1 }]);
    expect(changes).toHaveLength(0);
  });
});
