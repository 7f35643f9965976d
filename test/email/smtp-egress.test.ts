/**
 * The mailbox probe through SOCKS5 egresses (issue 54.1), against real servers on 127.0.0.1: Dante as the proxy
 * (RFC 1928 with RFC 1929 username/password, test/support/dante.ts), smtp-server as the mail server and dns2 as the
 * resolver (the email test rig). The loopback MX is let through by the test allowance every e-mail network test uses
 * (`allowPrivate`, EMAIL_SMTP_ALLOW_PRIVATE); without it the guard refuses that address before any proxy is asked.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSocksEgress } from '../../src/net/socks-egress.js';
import { EgressError, type EgressRoute } from '../../src/validation/email/index.js';
import { DANTE_SERVER, startDante, type DanteServer } from '../support/dante.js';
import { prerequisites } from '../support/prerequisites.js';
import { startEmailTestRig, type EmailTestRig } from './email-test-rig.js';

const ZONE = {
  'people.test': { MX: [{ exchange: 'mx.people.test', priority: 10 }] },
  'mx.people.test': { A: ['127.0.0.1'] },
  // gmail.com's MX (the rig's canary zone names it) on loopback: an MX the engine classifies as Google's.
  'gmail-smtp-in.l.google.com': { A: ['127.0.0.1'] },
};

const SCRIPT = { byAddress: { 'ann@people.test': 'accept' as const, 'ann@gmail.com': 'accept' as const } };

function egress(name: string, proxyUrl: { host: string; port: number; username?: string; password?: string }, providers: string[] | null = null): EgressRoute {
  return {
    egress: createSocksEgress({ name, proxy: proxyUrl, heloName: `out-${name}.verifier.test`, mailFrom: `probe@out-${name}.verifier.test` }),
    providers,
  };
}

const proxyOf = (dante: DanteServer, password = dante.password) => ({ host: dante.host, port: dante.port, username: dante.username, password });
const soon = () => ({ smtp: true, deadline: Date.now() + 8000 });

async function eventually<T>(read: () => T, ok: (value: T) => boolean, ms = 8000): Promise<T> {
  for (const until = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 50))) {
    const value = read();
    if (ok(value) || Date.now() > until) return value;
  }
}

describe.runIf(prerequisites('SMTP egress through a SOCKS5 server', ...DANTE_SERVER))('the mailbox probe through SOCKS5 egresses', () => {
  let rig: EmailTestRig;
  let proxyA: DanteServer;
  let proxyB: DanteServer;
  let blockingProxy: DanteServer;

  beforeAll(async () => {
    rig = await startEmailTestRig(ZONE, SCRIPT);
    [proxyA, proxyB, blockingProxy] = await Promise.all([
      startDante(), startDante(), startDante({ blockedPorts: [rig.smtpServer.port] }),
    ]);
  });
  afterAll(async () => {
    await rig?.close();
    await Promise.all([proxyA?.close(), proxyB?.close(), blockingProxy?.close()]);
  });

  it('When the probe goes out through the proxy, then it gets the mailbox verdicts, with the HELO and MAIL FROM of the egress', async () => {
    // Arrange
    const engine = rig.engine({ egresses: [egress('a', proxyOf(proxyA))] });
    const sendersBefore = rig.smtpServer.senders.length;

    // Act
    const good = await engine.validate('ann@people.test', soon());
    const gone = await engine.validate('bob@people.test', soon());

    // Assert
    expect(good).toMatchObject({ status: 'valid', smtp: 'deliverable', reason: 'accepted' });
    expect(gone).toMatchObject({ status: 'invalid', smtp: 'undeliverable', reason: 'mailbox_not_found' });
    const senders = rig.smtpServer.senders.slice(sendersBefore);
    expect(senders.length).toBeGreaterThanOrEqual(2);
    expect(new Set(senders.map((s) => `${s.helo} ${s.mailFrom}`))).toEqual(new Set(['out-a.verifier.test probe@out-a.verifier.test']));
  });

  it('When the mail server offers STARTTLS, then the session through the proxy is upgraded before RCPT', async () => {
    // Arrange: a second mail server, with STARTTLS (smtp-server's own test certificate)
    const tlsRig = await startEmailTestRig(ZONE, SCRIPT, { startTls: true });
    try {
      const engine = tlsRig.engine({ egresses: [egress('a', proxyOf(proxyA))] });

      // Act
      const answer = await engine.validate('ann@people.test', soon());

      // Assert
      expect(answer).toMatchObject({ status: 'valid', reason: 'accepted' });
      expect(tlsRig.smtpServer.secureRcpts.length).toBeGreaterThan(0);
      expect(tlsRig.smtpServer.secureRcpts.every(Boolean)).toBe(true);
      expect(tlsRig.smtpServer.senders.map((s) => s.helo)).toContain('out-a.verifier.test');
    } finally {
      await tlsRig.close();
    }
  });

  it('When the proxy refuses the credentials, then the answer is unknown with reason egress_unavailable:auth and no mail server is reached', async () => {
    // Arrange
    const engine = rig.engine({ egresses: [egress('a', proxyOf(proxyA, 'not-the-password'))] });
    const connectionsBefore = rig.smtpServer.connections;

    // Act
    const answer = await engine.validate('ann@people.test', soon());

    // Assert
    expect(answer).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'egress_unavailable:auth' });
    expect(rig.smtpServer.connections).toBe(connectionsBefore);
  });

  it('When the proxy cannot be reached, then the answer is unknown with reason egress_unavailable, not a verdict on the mail host', async () => {
    // Arrange: a loopback port nothing listens on
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const engine = rig.engine({ egresses: [egress('a', { host: '127.0.0.1', port, username: 'x', password: 'y' })] });

    // Act
    const answer = await engine.validate('ann@people.test', soon());

    // Assert
    expect(answer).toMatchObject({ status: 'unknown', reason: 'egress_unavailable' });
  });

  it('When the MX address is loopback and the test allowance is off, then the guard refuses it before the proxy is asked', async () => {
    // Arrange
    const engine = rig.engine({ allowPrivate: false, egresses: [egress('a', proxyOf(proxyA))] });
    const connectionsBefore = rig.smtpServer.connections;

    // Act
    const answer = await engine.validate('ann@people.test', soon());

    // Assert
    expect(answer).toMatchObject({ status: 'unknown', reason: 'no_connect:private_address' });
    expect(rig.smtpServer.connections).toBe(connectionsBefore);
  });

  it('When the egress is asked for a name instead of an address, then it refuses before anything is sent to the proxy', async () => {
    // Arrange
    const { egress: socks } = egress('a', proxyOf(proxyA));

    // Act
    const refusal = await socks.connect('mx.people.test', rig.smtpServer.port, 2000).catch((error: unknown) => error);

    // Assert
    expect(refusal).toBeInstanceOf(EgressError);
    expect(refusal).toMatchObject({ fault: 'blocked' });
  });

  it('When one egress carries Google and another the rest, then a Gmail-classified MX goes out through the first and any other through the second', async () => {
    // Arrange
    const engine = rig.engine({ egresses: [egress('a', proxyOf(proxyA), ['google']), egress('b', proxyOf(proxyB))] });
    const sendersBefore = rig.smtpServer.senders.length;

    // Act
    const gmail = await engine.validate('ann@gmail.com', soon());
    const sendersAfterGmail = rig.smtpServer.senders.length;
    const other = await engine.validate('ann@people.test', soon());

    // Assert
    expect(gmail).toMatchObject({ status: 'valid', reason: 'accepted' });
    expect(other).toMatchObject({ status: 'valid', reason: 'accepted' });
    expect(rig.smtpServer.senders.slice(sendersBefore, sendersAfterGmail).map((s) => s.helo)).toEqual(['out-a.verifier.test']);
    expect(new Set(rig.smtpServer.senders.slice(sendersAfterGmail).map((s) => s.helo))).toEqual(new Set(['out-b.verifier.test']));
  });

  it('When an egress cannot reach port 25, then its check says blocked, the other ok, and its answers say egress_blocked', async () => {
    // Arrange
    const engine = rig.engine({
      egresses: [egress('a', proxyOf(proxyA), ['google']), egress('b', proxyOf(blockingProxy))],
      egressProbe: { host: '127.0.0.1', intervalMs: 60_000 },
    });

    // Act
    const reports = await eventually(() => engine.egressReports(), (r) => r.every((e) => e.state !== 'unchecked'));
    const blocked = await engine.validate('ann@people.test', soon());
    const throughA = await engine.validate('ann@gmail.com', soon());

    // Assert
    expect(reports.map(({ name, state, providers }) => ({ name, state, providers }))).toEqual([
      { name: 'a', state: 'ok', providers: ['google'] },
      { name: 'b', state: 'blocked', providers: ['*'] },
    ]);
    expect(blocked).toMatchObject({ status: 'unknown', smtp: 'unknown', reason: 'egress_blocked' });
    expect(throughA).toMatchObject({ status: 'valid', reason: 'accepted' });
  });

  it('When the direct way out cannot reach the port and its check says so, then the answer is egress_blocked instead of no_connect', async () => {
    // Arrange: the probe's port is one nothing listens on, as port 25 of a cloud host that drops it
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unchecked = rig.engine({ smtpPort: port });
    const checked = rig.engine({ smtpPort: port, egressProbe: { host: '127.0.0.1', intervalMs: 60_000 } });

    // Act
    const before = await unchecked.validate('ann@people.test', soon());
    const reports = await eventually(() => checked.egressReports(), (r) => r.every((e) => e.state !== 'unchecked'));
    const after = await checked.validate('ann@people.test', soon());

    // Assert
    expect(unchecked.egressReports()).toEqual([]);
    expect(before).toMatchObject({ status: 'unknown', reason: 'no_connect' });
    expect(reports).toMatchObject([{ name: 'direct', state: 'blocked', providers: ['*'] }]);
    expect(after).toMatchObject({ status: 'unknown', reason: 'egress_blocked' });
  });
});
