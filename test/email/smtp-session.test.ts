/**
 * The SMTP client and probe against a hand-scripted server on 127.0.0.1, for the replies smtp-server cannot be made
 * to give: EHLO refused, multi-line replies, a refusing greeting, a server that never answers.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionLimits } from '../../src/validation/email/connection-limits.js';
import { MailHostResolver } from '../../src/validation/email/mail-host-resolver.js';
import { DEFAULT_PROVIDER_POLICY } from '../../src/validation/email/mail-provider-policies.js';
import { probeMailbox, type MailboxProbeSettings } from '../../src/validation/email/mailbox-probe.js';
import { SmtpProtocolError, SmtpSession } from '../../src/validation/email/smtp-session.js';

/** Answers each command line with whatever `reply` returns (null: say nothing). Records what it was sent. */
async function startScriptedServer(greeting: string | null, reply: (line: string) => string | null) {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (greeting !== null) socket.write(greeting);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let newline: number;
      while ((newline = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        received.push(line);
        const answer = reply(line);
        if (answer !== null) socket.write(answer);
        if (line === 'QUIT') socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

const ACCEPT_ALL = (line: string): string | null => {
  if (line.startsWith('EHLO')) return '250-scripted.test greets you\r\n250-PIPELINING\r\n250 8BITMIME\r\n';
  if (line === 'QUIT') return '221 2.0.0 Bye\r\n';
  return '250 2.0.0 OK\r\n';
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function settings(port: number): MailboxProbeSettings {
  return {
    port, heloName: 'verifier.test', mailFrom: 'verify@verifier.test', connectTimeoutMs: 300, replyTimeoutMs: 300,
    startTls: true, allowPrivate: true, maxMailHosts: 3, maxAddressesPerHost: 2, slotWaitMs: 300,
  };
}

/** A resolver that is never asked: the hosts below are IP literals resolved by a stub. */
function stubResolver(): MailHostResolver {
  const resolver = new MailHostResolver({ servers: [], now: Date.now, timeoutMs: 10 });
  resolver.resolveHostAddresses = async () => ({ kind: 'addresses', addresses: ['127.0.0.1'] });
  return resolver;
}

async function probe(port: number, address = 'alice@scripted.test') {
  return probeMailbox(
    {
      address,
      catchAllProbeAddress: null,
      hosts: [{ name: 'mx.scripted.test', preference: 10 }],
      policy: DEFAULT_PROVIDER_POLICY,
      signal: new AbortController().signal,
    },
    { resolver: stubResolver(), limits: new ConnectionLimits(2, 10), settings: settings(port) },
  );
}

describe('SMTP client', () => {
  it('When the server refuses EHLO, then the probe falls back to HELO and goes on', async () => {
    const server = await startScriptedServer('220 old.test ESMTP\r\n', (line) =>
      line.startsWith('EHLO') ? '502 5.5.1 Command not implemented\r\n' : ACCEPT_ALL(line));
    closers.push(server.close);
    expect(await probe(server.port)).toEqual({ kind: 'accepted', catchAll: null });
    expect(server.received.slice(0, 3)).toEqual(['EHLO verifier.test', 'HELO verifier.test', 'MAIL FROM:<verify@verifier.test>']);
    expect(server.received).toContain('RSET');
    expect(server.received.at(-1)).toBe('QUIT');
  });

  it('When a reply spans several lines, then the whole reply is read and classified', async () => {
    const server = await startScriptedServer('220-first line\r\n220-second line\r\n220 ready\r\n', (line) =>
      line.startsWith('RCPT')
        ? '550-5.1.1 The email account that you tried to reach does not exist.\r\n550 5.1.1 https://support.test/ nosuchuser\r\n'
        : ACCEPT_ALL(line));
    closers.push(server.close);
    expect(await probe(server.port)).toEqual({ kind: 'mailbox_not_found' });
  });

  it('When the greeting refuses service (554), then the answer is blocked, not a verdict on the mailbox', async () => {
    const server = await startScriptedServer('554 5.7.1 No SMTP service here\r\n', ACCEPT_ALL);
    closers.push(server.close);
    expect(await probe(server.port)).toEqual({ kind: 'blocked' });
    expect(server.received.at(-1)).toBe('QUIT');
  });

  it('When the first MX greets 421 and the next cannot be reached, then the answer is temp_fail, not no_connect', async () => {
    const server = await startScriptedServer('421 4.3.2 Service shutting down\r\n', ACCEPT_ALL);
    closers.push(server.close);
    const resolver = stubResolver();
    resolver.resolveHostAddresses = async (host) => ({ kind: 'addresses', addresses: [host === 'mx1.test' ? '127.0.0.1' : '127.0.0.2'] });
    const outcome = await probeMailbox(
      {
        address: 'alice@scripted.test', catchAllProbeAddress: null, policy: DEFAULT_PROVIDER_POLICY, signal: new AbortController().signal,
        hosts: [{ name: 'mx1.test', preference: 10 }, { name: 'mx2.test', preference: 20 }],
      },
      { resolver, limits: new ConnectionLimits(2, 10), settings: settings(server.port) },
    );
    expect(outcome).toEqual({ kind: 'temp_fail' });
  });

  it('When the server never greets, then the probe times out', async () => {
    const server = await startScriptedServer(null, ACCEPT_ALL);
    closers.push(server.close);
    const started = Date.now();
    expect(await probe(server.port)).toEqual({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('When nothing listens on the port, then the answer is no_connect', async () => {
    const server = await startScriptedServer(null, ACCEPT_ALL);
    await server.close();
    expect(await probe(server.port)).toEqual({ kind: 'no_connect' });
  });

  it('When the server offers STARTTLS but the handshake fails, then the probe asks again in plain text', async () => {
    let connection = 0;
    const server = await startScriptedServer('220 ready\r\n', (line) => {
      if (line.startsWith('EHLO')) {
        connection += 1;
        return '250-tls.test\r\n250 STARTTLS\r\n';
      }
      if (line === 'STARTTLS') return '220 2.0.0 Go ahead\r\nthis is not a TLS record\r\n';
      return ACCEPT_ALL(line);
    });
    closers.push(server.close);
    expect(await probe(server.port)).toEqual({ kind: 'accepted', catchAll: null });
    expect(connection).toBe(2);
    expect(server.received.filter((l) => l === 'STARTTLS')).toHaveLength(1);
  });

  it('When a command carries CR or LF, then the client refuses to send it', async () => {
    const server = await startScriptedServer('220 ready\r\n', ACCEPT_ALL);
    closers.push(server.close);
    const { session } = await SmtpSession.open({ host: '127.0.0.1', port: server.port, connectTimeoutMs: 300, replyTimeoutMs: 300 });
    try {
      await expect(session.command('RCPT TO:<a@b.test>\r\nDATA')).rejects.toBeInstanceOf(SmtpProtocolError);
      await expect(session.command('MAIL FROM:<a@b.test>\u0000')).rejects.toBeInstanceOf(SmtpProtocolError);
      expect(server.received).toEqual([]);
    } finally {
      session.destroy();
    }
  });
});
