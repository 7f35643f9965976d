/**
 * The service with two SMTP egresses (SMTP_EGRESS_<NAME>_*, issue 54.1), each a real SOCKS5 server on 127.0.0.1
 * (Dante, test/support/dante.ts): one reaches the mail server's port, the other's rules refuse it. /readyz and /metrics
 * say which reaches it (SMTP_EGRESS_PROBE_HOST), the answers of the blocked one say `egress_blocked`, and a bad
 * SMTP_EGRESS_ setting stops the start with a message naming the variable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { CANARY_ZONE } from '../email/email-test-rig.js';
import { startLocalDnsServer, type LocalDnsServer } from '../email/local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer } from '../email/local-smtp-server.js';
import { DANTE_SERVER, startDante, type DanteServer } from '../support/dante.js';
import { testDatabases } from '../support/databases.js';
import { prerequisites } from '../support/prerequisites.js';
import { startTestService, type TestService } from '../support/service.js';

const ZONE = {
  ...CANARY_ZONE,
  'gmail-smtp-in.l.google.com': { A: ['127.0.0.1'] },
  'people.test': { MX: [{ exchange: 'mx.people.test', priority: 10 }] },
  'mx.people.test': { A: ['127.0.0.1'] },
};

async function readyWhenChecked(service: TestService): Promise<Record<string, any>> {
  for (const until = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const body = (await (await fetch(`${service.url}/readyz`)).json()) as Record<string, any>;
    const states = Object.values(body.smtp_egress ?? { pending: 'unchecked' });
    if (!states.includes('unchecked') || Date.now() > until) return body;
  }
}

describe('SMTP_EGRESS_ settings', () => {
  const base = { SMTP_EGRESS_A_URL: 'socks5://u:p%40ss@127.0.0.1:1080', SMTP_EGRESS_A_HELO: 'out-a.example.net' };

  it('When an egress is set, then its proxy, identity and providers are read, and the password is percent-decoded', () => {
    const config = loadConfig({ ...base, SMTP_EGRESS_B_URL: 'socks5://10.0.0.5', SMTP_EGRESS_B_HELO: 'out-b.example.net', SMTP_EGRESS_B_PROVIDERS: 'google, Microsoft365' });
    expect(config.smtpEgresses).toEqual([
      { name: 'a', proxy: { host: '127.0.0.1', port: 1080, username: 'u', password: 'p@ss' }, heloName: 'out-a.example.net', mailFrom: 'verify@out-a.example.net', providers: null },
      { name: 'b', proxy: { host: '10.0.0.5', port: 1080 }, heloName: 'out-b.example.net', mailFrom: 'verify@out-b.example.net', providers: ['google', 'microsoft365'] },
    ]);
    expect(config.email.egressProbe).toBeUndefined();
  });

  it.each([
    [{ ...base, SMTP_EGRESS_A_URL: 'socks5h://127.0.0.1:1080' }, 'SMTP_EGRESS_A_URL: expected socks5://'],
    [{ SMTP_EGRESS_A_URL: base.SMTP_EGRESS_A_URL }, 'SMTP_EGRESS_A_HELO: missing'],
    [{ ...base, SMTP_EGRESS_A_PROVIDERS: 'gmail' }, 'SMTP_EGRESS_A_PROVIDERS: one of google, microsoft365, yahoo, proofpoint, mimecast, other'],
    [{ ...base, SMTP_EGRESS_A_MAIL_FROM: 'not an address' }, 'SMTP_EGRESS_A_MAIL_FROM: an address'],
    [{ ...base, SMTP_EGRESS_A_HOST: 'x' }, 'SMTP_EGRESS_A_HOST: not a setting'],
    [{ ...base, SMTP_EGRESS_B_URL: 'socks5://127.0.0.1:1081', SMTP_EGRESS_B_HELO: 'b.example.net' }, 'at most one egress may carry every provider'],
    [{ ...base, SMTP_EGRESS_A_PROVIDERS: 'google', SMTP_EGRESS_B_URL: 'socks5://127.0.0.1:1081', SMTP_EGRESS_B_HELO: 'b.example.net', SMTP_EGRESS_B_PROVIDERS: 'yahoo,google' },
      'SMTP_EGRESS_A_PROVIDERS, SMTP_EGRESS_B_PROVIDERS: google is named by more than one egress'],
  ])('When the settings are %j, then the start is refused naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe.runIf(prerequisites('SMTP egress through a SOCKS5 server', ...DANTE_SERVER)).each(testDatabases)('two SMTP egresses, on $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let open: DanteServer;
  let blocking: DanteServer;
  let service: TestService;

  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE);
    smtp = await startLocalSmtpServer({ byAddress: { 'ann@gmail.com': 'accept', 'ann@people.test': 'accept' } });
    [open, blocking] = await Promise.all([startDante(), startDante({ blockedPorts: [smtp.port] })]);
    service = await startTestService(await database.create(), {
      EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port), EMAIL_SMTP_ALLOW_PRIVATE: 'true',
      SMTP_EGRESS_GMAIL_URL: open.url(), SMTP_EGRESS_GMAIL_HELO: 'out-gmail.verifier.test', SMTP_EGRESS_GMAIL_PROVIDERS: 'google',
      SMTP_EGRESS_REST_URL: blocking.url(), SMTP_EGRESS_REST_HELO: 'out-rest.verifier.test', SMTP_EGRESS_REST_MAIL_FROM: 'probe@out-rest.verifier.test',
      SMTP_EGRESS_PROBE_HOST: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await service?.close();
    await database.dropAll();
    await Promise.all([smtp?.close(), dns?.close(), open?.close(), blocking?.close()]);
  });

  it('When one egress cannot reach port 25, then /readyz (200) and /metrics say so and its answers say egress_blocked; the other answers', async () => {
    // Arrange
    const { apiKey } = await service.newAccount(5);

    // Act
    const ready = await readyWhenChecked(service);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    const blocked = (await (await service.post('/v1/validate', { email: 'ann@people.test' }, { key: apiKey })).json()) as any;
    const gmail = (await (await service.post('/v1/validate', { email: 'ann@gmail.com' }, { key: apiKey })).json()) as any;

    // Assert
    expect(ready).toMatchObject({ status: 'ready', smtp_egress: { gmail: 'ok', rest: 'blocked' } });
    expect(metrics).toMatch(/^cv_smtp_egress_reachable\{egress="gmail",state="ok"\} 1$/m);
    expect(metrics).toMatch(/^cv_smtp_egress_reachable\{egress="rest",state="blocked"\} 0$/m);
    expect(blocked.email).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'egress_blocked' });
    expect(blocked.credits).toEqual({ charged: 0, remaining: 5 });
    expect(gmail.email).toMatchObject({ status: 'valid', smtp: 'deliverable', reason: 'accepted' });
    expect(smtp.senders.map((s) => s.helo)).toEqual(['out-gmail.verifier.test']);
  });
});
