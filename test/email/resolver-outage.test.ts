/**
 * A resolver that denies every name (a captive or misconfigured network: NXDOMAIN without an SOA for everything),
 * then recovers; and one that denies only what does not exist. A real DNS server on 127.0.0.1 (dns2) plays both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainExistence } from '../../src/validation/email/mail-host-resolver.js';
import { ResolverHealth, type ResolverHealthReport } from '../../src/validation/email/resolver-health.js';
import { startEmailTestRig, type EmailTestRig } from './email-test-rig.js';

const ZONE = {
  'mail.test': { MX: [{ exchange: 'mx.mail.test', priority: 10 }] },
  'mx.mail.test': { A: ['127.0.0.1'] },
  'acme-shop.com': { MX: [{ exchange: 'mx.mail.test', priority: 10 }] },
  'googlemail.com': {},
  'nodata-shop.com': {},
};

describe('e-mail engine when the resolver denies every name, then recovers', () => {
  let rig: EmailTestRig;
  let clock = Date.parse('2026-12-01T10:00:00Z');
  const changes: ResolverHealthReport[] = [];

  beforeAll(async () => {
    rig = await startEmailTestRig(ZONE, { byAddress: {}, byDomain: {} }, { now: () => clock });
  });
  afterAll(() => rig.close());

  it('When every name is denied, then ann@gmail.com is unknown dns_unavailable, still free, and so is an unknown domain; never invalid', async () => {
    // Arrange
    const engine = rig.engine({ onResolverHealthChange: (report) => changes.push(report) });
    rig.dnsServer.denyAll = true;
    const check = (address: string) => engine.validate(address, { smtp: true, deadline: Date.now() + 2000 });

    // Act
    const gmail = await check('ann@gmail.com');
    const unknownDomain = await check('bob@no-such-shop-anywhere.com');
    const again = await check('carl@acme-shop.com');

    // Assert
    expect(gmail).toMatchObject({ status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'dns_unavailable', free: true });
    expect(unknownDomain).toMatchObject({ status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'dns_unavailable' });
    expect(again).toMatchObject({ status: 'unknown', reason: 'dns_unavailable' });
    expect(await engine.resolverHealth()).toMatchObject({ healthy: false });
    expect(engine.dnsUnavailableAnswers).toBe(3);
    // One warning for the change, not one per answer.
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ healthy: false });

    // Act: the resolver recovers. Nothing of the outage was cached (its NXDOMAIN answers carried no SOA).
    rig.dnsServer.denyAll = false;
    const gmailAskedBefore = rig.dnsServer.questions.get('MX gmail.com') ?? 0;
    const recovered = await engine.validate('ann@gmail.com', { smtp: false, deadline: Date.now() + 2000 });
    const shop = await engine.validate('carl@acme-shop.com', { smtp: false, deadline: Date.now() + 2000 });

    // Assert: real answers at once
    expect(recovered).toMatchObject({ status: 'valid', smtp: 'skipped', reason: 'mail_server_found', free: true });
    expect(shop).toMatchObject({ status: 'valid', reason: 'mail_server_found' });
    expect(rig.dnsServer.questions.get('MX gmail.com')).toBeGreaterThan(gmailAskedBefore);

    // Act: once the verdict is stale, the next look finds the resolver healthy again (one more change, logged once).
    clock += 31_000;
    expect(await engine.resolverHealth()).toMatchObject({ healthy: true });
    expect(await engine.validate('dan@no-such-shop-anywhere.com', { smtp: false, deadline: Date.now() + 2000 }))
      .toMatchObject({ status: 'invalid', reason: 'no_such_domain' });
    expect(changes.map((c) => c.healthy)).toEqual([false, true]);
  });

  it('When every name is denied, then a TLD the root zone does not delegate is still no_such_domain (no resolver needed to know)', async () => {
    const engine = rig.engine();
    rig.dnsServer.denyAll = true;
    try {
      expect(await engine.validate('ann@example.notatld', { smtp: false, deadline: Date.now() + 2000 }))
        .toMatchObject({ status: 'invalid', reason: 'no_such_domain' });
    } finally {
      rig.dnsServer.denyAll = false;
    }
  });
});

describe('e-mail engine when the resolver denies only what does not exist', () => {
  let rig: EmailTestRig;

  beforeAll(async () => {
    rig = await startEmailTestRig(ZONE, { byAddress: {}, byDomain: {} }, { dns: { soaOnNxdomain: true } });
  });
  afterAll(() => rig.close());

  it('When a domain answers NXDOMAIN with an SOA while the canaries resolve, then it is invalid no_such_domain, and that answer is cached', async () => {
    const engine = rig.engine();
    const check = (address: string) => engine.validate(address, { smtp: false, deadline: Date.now() + 2000 });

    expect(await check('ann@no-such-shop-anywhere.com')).toMatchObject({ status: 'invalid', risk: 'high', smtp: 'undeliverable', reason: 'no_such_domain' });
    expect(await check('bob@no-such-shop-anywhere.com')).toMatchObject({ reason: 'no_such_domain' });
    expect(rig.dnsServer.questions.get('MX no-such-shop-anywhere.com')).toBe(1);
    expect(await engine.resolverHealth()).toMatchObject({ healthy: true });
  });

  it('When a canary has no mail server (googlemail.com without MX), then that too proves a broken resolver', async () => {
    const engine = rig.engine();
    expect(await engine.validate('ann@googlemail.com', { smtp: false, deadline: Date.now() + 2000 }))
      .toMatchObject({ status: 'unknown', reason: 'dns_unavailable', free: true });
    expect(await engine.validate('ann@nodata-shop.com', { smtp: false, deadline: Date.now() + 2000 }))
      .toMatchObject({ status: 'unknown', reason: 'dns_unavailable' });
  });

  it('When a canary itself answers NXDOMAIN (yahoo.com), then that alone proves a broken resolver: unknown dns_unavailable', async () => {
    const engine = rig.engine();
    expect(await engine.validate('ann@yahoo.com', { smtp: false, deadline: Date.now() + 2000 }))
      .toMatchObject({ status: 'unknown', reason: 'dns_unavailable', free: true });
    expect(await engine.resolverHealth()).toMatchObject({ healthy: false, canaries: [{ domain: 'yahoo.com', answer: 'no_such_domain' }] });
  });
});

describe('resolver health verdict', () => {
  /** A resolver of our own, in memory: what each domain answers, and how often it was asked. */
  const resolverOf = (answers: Record<string, DomainExistence>) => {
    const asked: string[] = [];
    return {
      asked,
      answers,
      async domainExists(domain: string): Promise<DomainExistence> {
        asked.push(domain);
        return answers[domain] ?? 'no_such_domain';
      },
    };
  };

  it('When many NXDOMAIN answers arrive at once, then the canaries are asked once, and not again within the verdict time', async () => {
    let clock = 0;
    const resolver = resolverOf({ 'gmail.com': 'exists' });
    const health = new ResolverHealth({ resolver, canaries: ['gmail.com', 'yahoo.com'], now: () => clock, verdictMs: 30_000 });

    const verdicts = await Promise.all(Array.from({ length: 5 }, (_, i) => health.believesDenial(`x${i}.com`)));
    clock += 29_000;
    await health.believesDenial('y.com');

    expect(verdicts).toEqual([true, true, true, true, true]);
    expect(resolver.asked).toEqual(['gmail.com', 'yahoo.com']);
    clock += 2_000;
    await health.believesDenial('z.com');
    expect(resolver.asked).toHaveLength(4);
  });

  it('When the canaries time out, then NXDOMAIN is not believed either (the resolver cannot vouch for anything)', async () => {
    const health = new ResolverHealth({
      resolver: resolverOf({ 'gmail.com': 'no_answer' }), canaries: ['gmail.com'], now: () => 0, verdictMs: 30_000,
    });
    expect(await health.believesDenial('x.com')).toBe(false);
  });
});
