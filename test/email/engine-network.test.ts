/**
 * The e-mail engine against real servers on 127.0.0.1: dns2 for DNS, smtp-server for SMTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailEngineOptions } from '../../src/validation/email/index.js';
import type { EmailResult } from '../../src/validation/types.js';
import { startEmailTestRig, type EmailTestRig } from './email-test-rig.js';
import type { LocalDnsServer } from './local-dns-server.js';
import type { LocalSmtpServer } from './local-smtp-server.js';

const LOOPBACK_MX = (exchange: string) => ({ MX: [{ exchange, priority: 10 }] });

const ZONE = {
  'mail.test': LOOPBACK_MX('mx.mail.test'),
  'mx.mail.test': { A: ['127.0.0.1'] },
  'catchall.test': LOOPBACK_MX('mx.mail.test'),
  'greylist.test': LOOPBACK_MX('mx.mail.test'),
  'policy.test': LOOPBACK_MX('mx.mail.test'),
  'slow.test': LOOPBACK_MX('mx.mail.test'),
  'm365.test': LOOPBACK_MX('tenant.mail.protection.outlook.com'),
  'tenant.mail.protection.outlook.com': { A: ['127.0.0.1'] },
  'yahoo-like.test': LOOPBACK_MX('mta5.am0.yahoodns.net'),
  'mta5.am0.yahoodns.net': { A: ['127.0.0.1'] },
  'backup.test': { MX: [{ exchange: 'dead.backup.test', priority: 5 }, { exchange: 'mx.mail.test', priority: 20 }] },
  'dead.backup.test': { A: ['127.0.0.2'] },
  'implicit.test': { A: ['127.0.0.1'] },
  'nullmx.test': { MX: [{ exchange: '', priority: 0 }] },
  'nodata.test': {},
  'broken.test': { rcode: 2 },
  'silent.test': { silent: true },
  'private.test': LOOPBACK_MX('mx.private.test'),
  'mx.private.test': { A: ['10.1.2.3'] },
  'xn--bcher-kva.test': LOOPBACK_MX('mx.mail.test'),
  'mailinator.com': LOOPBACK_MX('mx.mail.test'),
  // A typo-squat that takes mail, as such domains do.
  'gmial.com': LOOPBACK_MX('mx.mail.test'),
  'queue.test': LOOPBACK_MX('mx.mail.test'),
  'novrfy.test': LOOPBACK_MX('mx.mail.test'),
  'ttl.test': { ...LOOPBACK_MX('mx.mail.test'), ttl: 60 },
};

const SMTP_SCRIPT = {
  byAddress: {
    'alice@mail.test': 'accept' as const,
    'info@mail.test': 'accept' as const,
    'full@mail.test': { code: 552, message: '5.2.2 Mailbox full' },
    'anyone@novrfy.test': { code: 252, message: '2.1.5 Cannot VRFY user, but will accept message and attempt delivery' },
    'gone@mail.test': { code: 550, message: '5.2.1 Mailbox disabled' },
    // Far past the 150 ms budget it is checked with, so that a loaded machine's delays cannot make the two meet.
    'slow@slow.test': { delayMs: 1500 },
    'dave@mail.test': { greylistFirst: true as const },
    // smtp-server hands the application U-labels; on the wire the probe sends the A-label.
    'alice@bücher.test': 'accept' as const,
    'alice@implicit.test': 'accept' as const,
    'alice@backup.test': 'accept' as const,
    'alice@m365.test': 'accept' as const,
    'ghost@m365.test': { code: 550, message: '5.4.1 Recipient address rejected: Access denied. AS(201806281)' },
  },
  byDomain: {
    'catchall.test': 'accept' as const,
    'greylist.test': { code: 451, message: '4.7.1 Greylisted, please try again later' },
    'policy.test': { code: 550, message: '5.7.1 Client host rejected: listed at zen.spamhaus.org' },
    'queue.test': { delayMs: 100 },
  },
};

describe('e-mail engine with DNS and SMTP', () => {
  let rig: EmailTestRig;
  let dnsServer: LocalDnsServer;
  let smtpServer: LocalSmtpServer;

  beforeAll(async () => {
    rig = await startEmailTestRig(ZONE, SMTP_SCRIPT);
    ({ dnsServer, smtpServer } = rig);
  });
  afterAll(() => rig.close());

  const engine = (overrides: Partial<EmailEngineOptions> = {}) => rig.engine(overrides);
  const check = (e: ReturnType<typeof engine>, address: string, budgetMs = 2000, smtp = true): Promise<EmailResult> =>
    e.validate(address, { smtp, deadline: Date.now() + budgetMs });

  it('When the mailbox exists, then the answer is valid and deliverable', async () => {
    const result = await check(engine(), 'alice@mail.test');
    expect(result).toMatchObject({ status: 'valid', risk: 'low', smtp: 'deliverable', reason: 'accepted', normalized: 'alice@mail.test' });
  });

  it('When the server answers 5.1.1 for the mailbox, then the answer is invalid, mailbox_not_found', async () => {
    const result = await check(engine(), 'nobody@mail.test');
    expect(result).toMatchObject({ status: 'invalid', smtp: 'undeliverable', reason: 'mailbox_not_found' });
  });

  it('When the domain takes any local part, then the answer is risky catch_all', async () => {
    const e = engine();
    const result = await check(e, 'anyone@catchall.test');
    expect(result).toMatchObject({ status: 'risky', smtp: 'catch_all', reason: 'catch_all' });
    const probe = smtpServer.recipients.find((r) => r.startsWith('cv-') && r.endsWith('@catchall.test'));
    expect(probe).toMatch(/^cv-[0-9a-f]{16}@catchall\.test$/);
  });

  it('When the server accepts without checking (252 Cannot VRFY), then the answer is unknown, never valid', async () => {
    expect(await check(engine(), 'anyone@novrfy.test')).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'unverified' });
  });

  it('When the mailbox is full, then the answer is risky mailbox_full', async () => {
    expect(await check(engine(), 'full@mail.test')).toMatchObject({ status: 'risky', smtp: 'mailbox_full', reason: 'mailbox_full' });
  });

  it('When the mailbox is disabled, then the answer is invalid disabled', async () => {
    expect(await check(engine(), 'gone@mail.test')).toMatchObject({ status: 'invalid', smtp: 'disabled', reason: 'disabled' });
  });

  it('When the server greylists (451 4.7.1), then the answer is unknown temp_fail, never invalid', async () => {
    expect(await check(engine(), 'bob@greylist.test')).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'temp_fail' });
  });

  it('When an address was greylisted, then it is asked again in the background and the next answer is definite', async () => {
    const e = engine({ greylistRetryMs: 100 });
    expect(await check(e, 'dave@mail.test')).toMatchObject({ status: 'unknown', reason: 'temp_fail' });
    // Asked until the retry in the background has answered (the greylisted answer is served from the cache meanwhile).
    await expect.poll(async () => (await check(e, 'dave@mail.test')).smtp, { timeout: 5_000, interval: 50 }).toBe('deliverable');
    const rcptsFor = () => smtpServer.recipients.filter((r) => r === 'dave@mail.test').length;
    expect(rcptsFor()).toBe(2);
    expect(await check(e, 'dave@mail.test')).toMatchObject({ status: 'valid', smtp: 'deliverable' });
    expect(rcptsFor()).toBe(2);
  });

  it('When the server refuses us by policy (5.7.1 blocklist), then the answer is unknown blocked', async () => {
    expect(await check(engine(), 'bob@policy.test')).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'blocked' });
  });

  it('When Microsoft 365 answers 5.4.1 Access denied, then the mailbox does not exist and no catch-all probe was sent', async () => {
    const e = engine();
    expect(await check(e, 'ghost@m365.test')).toMatchObject({ status: 'invalid', reason: 'mailbox_not_found' });
    expect(await check(e, 'alice@m365.test')).toMatchObject({ status: 'valid', smtp: 'deliverable' });
    expect(smtpServer.recipients.filter((r) => r.startsWith('cv-') && r.endsWith('@m365.test'))).toEqual([]);
  });

  it('When the provider accepts every RCPT (Yahoo), then it is not asked and the answer is unknown', async () => {
    const before = smtpServer.connections;
    expect(await check(engine(), 'someone@yahoo-like.test')).toMatchObject({ status: 'unknown', reason: 'unverifiable' });
    expect(smtpServer.connections).toBe(before);
  });

  it('When the server is too slow for the budget, then the answer is pending in time, and the next one comes from the cache', async () => {
    const e = engine({ replyTimeoutMs: 4_000 }); // the slow server's 1.5 s are not a time-out
    const started = Date.now();
    const first = await check(e, 'slow@slow.test', 150);
    // Before the server's answer (1.5 s): the budget, not the server, ended it.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(first).toMatchObject({ status: 'unknown', smtp: 'pending' });

    // Asked again until the probe in the background has finished (joined, never a second probe), then from the cache.
    await expect.poll(async () => (await check(e, 'slow@slow.test', 150)).smtp, { timeout: 5_000, interval: 50 }).toBe('deliverable');
    const rcptsBefore = smtpServer.recipients.length;
    const second = await check(e, 'slow@slow.test', 150);
    expect(second).toMatchObject({ status: 'valid', smtp: 'deliverable' });
    expect(smtpServer.recipients.length).toBe(rcptsBefore);
    expect(smtpServer.recipients.filter((r) => r === 'slow@slow.test')).toHaveLength(1);
  });

  it('When the first MX cannot be reached, then the next MX by preference answers', async () => {
    const e = engine({ smtpPort: smtpServer.port });
    expect(await check(e, 'alice@backup.test')).toMatchObject({ status: 'valid', smtp: 'deliverable' });
  });

  it('When the domain has no MX but an A record, then the A host is the mail server (implicit MX)', async () => {
    expect(await check(engine(), 'alice@implicit.test')).toMatchObject({ status: 'valid', smtp: 'deliverable' });
  });

  it('When the domain publishes a null MX, then the answer is invalid null_mx without any connection', async () => {
    const before = smtpServer.connections;
    expect(await check(engine(), 'a@nullmx.test')).toMatchObject({ status: 'invalid', smtp: 'undeliverable', reason: 'null_mx' });
    expect(smtpServer.connections).toBe(before);
  });

  it('When the domain does not exist (NXDOMAIN), then the answer is invalid no_such_domain', async () => {
    expect(await check(engine(), 'a@nowhere.test')).toMatchObject({ status: 'invalid', reason: 'no_such_domain' });
  });

  it('When the domain exists with neither MX nor address, then the answer is invalid no_mail_server', async () => {
    expect(await check(engine(), 'a@nodata.test')).toMatchObject({ status: 'invalid', reason: 'no_mail_server' });
  });

  it('When the resolver fails (SERVFAIL) or does not answer, then the answer is unknown, never invalid', async () => {
    const e = engine();
    expect(await check(e, 'a@broken.test')).toMatchObject({ status: 'unknown', reason: 'dns_error' });
    expect(await check(e, 'a@silent.test')).toMatchObject({ status: 'unknown', reason: 'dns_error:timeout' });
  });

  it('When an MX points at a private address and the guard is on, then no connection is made', async () => {
    const before = smtpServer.connections;
    const guarded = engine({ allowPrivate: false });
    expect(await check(guarded, 'a@private.test')).toMatchObject({ status: 'unknown', reason: 'no_connect:private_address' });
    // 127.0.0.1, where the test server listens, is refused the same way.
    expect(await check(guarded, 'alice@mail.test')).toMatchObject({ status: 'unknown', reason: 'no_connect:private_address' });
    expect(smtpServer.connections).toBe(before);
  });

  it('When the engine closes while a DNS question hangs, then it closes at once', async () => {
    const e = engine({ dnsTimeoutMs: 5000 });
    expect(await check(e, 'a@silent.test', 50)).toMatchObject({ smtp: 'pending' });
    const started = Date.now();
    await e.close();
    // Well before the DNS time-out (5 s) it would otherwise wait for.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('When the domain is internationalized, then it is checked under its A-label', async () => {
    const result = await check(engine(), 'alice@bücher.test');
    expect(result).toMatchObject({ status: 'valid', smtp: 'deliverable', normalized: 'alice@xn--bcher-kva.test' });
  });

  it.each([
    'alice@mail.test\r\nRCPT TO:<victim@mail.test>',
    'alice@mail.test\nDATA',
    'alice\r\n@mail.test',
    '"a\r\nb"@mail.test',
    'alice@mail.test>\r\nRSET',
    'alice@mail.test\u0000',
  ])('When the input tries command injection (%j), then it is a syntax error and nothing reaches the wire', async (input) => {
    const before = { connections: smtpServer.connections, rcpts: smtpServer.recipients.length };
    const result = await check(engine(), input);
    expect(result.status).toBe('invalid');
    expect(result.reason).toMatch(/^syntax:/);
    expect(smtpServer.connections).toBe(before.connections);
    expect(smtpServer.recipients.length).toBe(before.rcpts);
  });

  it('When the request turns the probe off, then DNS still answers and smtp is skipped', async () => {
    const before = smtpServer.connections;
    const e = engine();
    expect(await check(e, 'alice@mail.test', 2000, false)).toMatchObject({ status: 'valid', smtp: 'skipped', reason: 'mail_server_found' });
    expect(await check(e, 'a@nowhere.test', 2000, false)).toMatchObject({ status: 'invalid', reason: 'no_such_domain' });
    expect(smtpServer.connections).toBe(before);
  });

  it('When network checks are off, then lists and suggestion still answer and smtp is skipped', async () => {
    const e = engine({ networkChecks: false });
    // The lists hold gmial.com among the throw-away domains: a typo is neither disposable nor free.
    expect(await check(e, 'info@gmial.com')).toMatchObject({
      status: 'risky', reason: 'typo', smtp: 'skipped', suggestion: 'info@gmail.com', role: true, disposable: false, free: false,
    });
    expect(await check(e, 'x@mailinator.com')).toMatchObject({ status: 'risky', reason: 'disposable', disposable: true, smtp: 'skipped' });
    expect(await check(e, 'joe@gmail.com')).toMatchObject({ status: 'unknown', reason: 'not_checked', free: true });
  });

  it('When the syntax fails on a pasted form of an address, then the answer is invalid and suggests the address meant, its domain mended', async () => {
    const e = engine({ networkChecks: false });
    expect(await check(e, 'John Smith <john@gmial.com>')).toEqual({
      status: 'invalid', risk: 'high', smtp: 'skipped', reason: 'syntax:local_invalid_character', normalized: null,
      suggestion: 'john@gmail.com', disposable: false, role: false, free: false,
    });
    expect(await check(e, 'jane@gmail')).toMatchObject({ reason: 'syntax:single_label_domain', suggestion: 'jane@gmail.com' });
    expect(e.offlineAnswer('John Smith <john@gmial.com>')).toEqual(await check(e, 'John Smith <john@gmial.com>'));
  });

  it('When network checks are off, then a TLD outside the root zone is no_such_domain, an internationalized one is not', async () => {
    const e = engine({ networkChecks: false });
    expect(await check(e, 'jane@gmail.con')).toMatchObject({
      status: 'invalid', risk: 'high', smtp: 'undeliverable', reason: 'no_such_domain', suggestion: 'jane@gmail.com',
    });
    expect(await check(e, 'x@example.рф')).toMatchObject({ status: 'unknown', reason: 'not_checked', normalized: 'x@example.xn--p1ai' });
  });

  it('When network checks are off, then the offline answer (used for pricing) is the answer validate gives', async () => {
    const e = engine({ networkChecks: false });
    for (const address of ['joe@gmail.com', 'info@gmial.com', 'x@mailinator.com', 'jane@gmail.con', 'not an address', 'a@@b.co']) {
      expect(e.offlineAnswer(address), address).toEqual(await check(e, address));
    }
  });

  it('When network checks are on, then the offline answer is given for a syntax error only: DNS and SMTP decide the rest', async () => {
    const e = engine();
    expect(e.offlineAnswer('alice@mail.test')).toBeNull();
    expect(e.offlineAnswer('jane@gmail.con')).toBeNull();
    expect(e.offlineAnswer('not an address')).toEqual(await check(e, 'not an address'));
    expect(e.offlineAnswer('not an address')).toMatchObject({ status: 'invalid', smtp: 'skipped' });
  });

  it('When network checks are on, then DNS decides, not the TLD list (.test is in no root zone, but the local DNS serves it)', async () => {
    expect(await check(engine(), 'alice@mail.test', 2000, false)).toMatchObject({ status: 'valid', reason: 'mail_server_found' });
  });

  it('When the domain is a typo-squat the free-provider list holds (gmail.co), then it is corrected and not called free', async () => {
    expect(await check(engine({ networkChecks: false }), 'jane@gmail.co')).toMatchObject({ suggestion: 'jane@gmail.com', free: false });
    expect(await check(engine({ networkChecks: false }), 'jane@hotmail.gr')).toMatchObject({ suggestion: null, free: true });
  });

  it('When the address has white space around it (a form\'s trailing space), then it is checked without it', async () => {
    expect(await check(engine({ networkChecks: false }), ' joe@gmail.com \u00a0')).toMatchObject({ status: 'unknown', normalized: 'joe@gmail.com' });
  });

  it('When the domain is disposable, then the answer is risky and the mailbox is not probed', async () => {
    const before = smtpServer.connections;
    expect(await check(engine(), 'x@mailinator.com')).toMatchObject({ status: 'risky', risk: 'high', reason: 'disposable' });
    expect(smtpServer.connections).toBe(before);
  });

  it('When the domain is a typo of a well-known one that takes mail (gmial.com), then the answer is risky typo with the suggestion, and no mailbox is probed', async () => {
    const before = smtpServer.connections;
    expect(await check(engine(), 'john@gmial.com')).toEqual({
      status: 'risky', risk: 'high', smtp: 'skipped', reason: 'typo', normalized: 'john@gmial.com', suggestion: 'john@gmail.com',
      disposable: false, role: false, free: false,
    });
    expect(smtpServer.connections).toBe(before);
  });

  it('When a mistyped domain does not exist, then undeliverable outranks the typo', async () => {
    expect(await check(engine(), 'john@gmaill.com')).toMatchObject({ status: 'invalid', reason: 'no_such_domain', suggestion: 'john@gmail.com' });
  });

  it('When a role mailbox is accepted, then the answer is risky role', async () => {
    expect(await check(engine(), 'info@mail.test')).toMatchObject({ status: 'risky', smtp: 'deliverable', reason: 'role', role: true });
  });

  it('When DNS answers were cached, then the same question is not asked again within its TTL', async () => {
    const e = engine();
    await check(e, 'alice@mail.test', 2000, false);
    const asked = dnsServer.questions.get('MX mail.test');
    await check(e, 'other@mail.test', 2000, false);
    expect(dnsServer.questions.get('MX mail.test')).toBe(asked);
  });
});

describe('e-mail engine manners and lifetimes', () => {
  let rig: EmailTestRig;
  let dnsServer: LocalDnsServer;
  let smtpServer: LocalSmtpServer;
  let clock = Date.parse('2026-01-05T10:00:00Z');

  beforeAll(async () => {
    rig = await startEmailTestRig(ZONE, SMTP_SCRIPT, { now: () => clock });
    ({ dnsServer, smtpServer } = rig);
  });
  afterAll(() => rig.close());

  const engine = (overrides: Partial<EmailEngineOptions> = {}) => rig.engine(overrides);
  const check = (e: ReturnType<typeof engine>, address: string, smtp = true) =>
    e.validate(address, { smtp, deadline: Date.now() + 3000 });

  it('When many addresses at one mail host are checked at once, then at most 2 connections are open to it', async () => {
    const e = engine({ maxConnectionsPerHost: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => check(e, `user${i}@queue.test`)));
    expect(results.every((r) => r.status !== 'invalid')).toBe(true);
    expect(smtpServer.maxConcurrent).toBeLessThanOrEqual(2);
  });

  it('When one mail host has had its connections for the minute, then further addresses there are throttled, not probed', async () => {
    const e = engine({ maxConnectionsPerHostPerMinute: 2 });
    await check(e, 'alice@mail.test');
    await check(e, 'nobody@mail.test');
    const connections = smtpServer.connections;
    expect(await check(e, 'carol@mail.test')).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'throttled' });
    expect(smtpServer.connections).toBe(connections);
    clock += 61_000;
    expect(await check(e, 'nobody2@mail.test')).toMatchObject({ reason: 'mailbox_not_found' });
  });

  it('When a DNS answer outlives its TTL, then the question is asked again', async () => {
    const e = engine();
    await check(e, 'a@ttl.test', false);
    await check(e, 'b@ttl.test', false);
    expect(dnsServer.questions.get('MX ttl.test')).toBe(1);
    clock += 61_000;
    await check(e, 'c@ttl.test', false);
    expect(dnsServer.questions.get('MX ttl.test')).toBe(2);
  });

  it('When a greylisted answer is minutes old, then the address is probed again; a definite one is kept', async () => {
    const e = engine();
    const rcpts = (address: string) => smtpServer.recipients.filter((r) => r === address).length;
    await check(e, 'carol@greylist.test');
    await check(e, 'carol@greylist.test');
    expect(rcpts('carol@greylist.test')).toBe(1);
    await check(e, 'alice@mail.test');
    clock += 6 * 60_000;
    await check(e, 'carol@greylist.test');
    expect(rcpts('carol@greylist.test')).toBe(2);
    const before = rcpts('alice@mail.test');
    expect(await check(e, 'alice@mail.test')).toMatchObject({ smtp: 'deliverable' });
    expect(rcpts('alice@mail.test')).toBe(before);
  });

  it('When the same domain is probed twice in a day, then the catch-all probe uses the same local part, and another the next day', async () => {
    const e = engine({ lifetimes: { catchAllMs: 0 } });
    const probes = () => smtpServer.recipients.filter((r) => r.startsWith('cv-') && r.endsWith('@catchall.test'));
    await check(e, 'p1@catchall.test');
    await check(e, 'p2@catchall.test');
    expect(probes()).toHaveLength(2);
    expect(new Set(probes()).size).toBe(1);
    clock += 86_400_000;
    await check(e, 'p3@catchall.test');
    expect(new Set(probes()).size).toBe(2);
  });
});

describe('e-mail engine over STARTTLS', () => {
  it('When the server offers STARTTLS, then the RCPT goes over TLS', async () => {
    const rig = await startEmailTestRig(ZONE, SMTP_SCRIPT, { startTls: true });
    try {
      const result = await rig.engine({ replyTimeoutMs: 2000 }).validate('alice@mail.test', { smtp: true, deadline: Date.now() + 3000 });
      expect(result).toMatchObject({ smtp: 'deliverable' });
      expect(rig.smtpServer.secureRcpts.length).toBeGreaterThan(0);
      expect(rig.smtpServer.secureRcpts.every(Boolean)).toBe(true);
    } finally {
      await rig.close();
    }
  });
});
