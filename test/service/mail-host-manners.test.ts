/**
 * Per-server manners (issue 54.3), against the real service on SQLite and PostgreSQL and a scripted mail server on
 * 127.0.0.1 that answers its second connection `421 4.7.0 Too many connections, try again in 3 seconds`: the host is
 * slowed down for every address (the next probe connects no sooner than the server asked), /metrics names it, and on
 * PostgreSQL a second instance leaves it alone too.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_ZONE } from '../email/email-test-rig.js';
import { startLocalDnsServer, type LocalDnsServer } from '../email/local-dns-server.js';
import { testDatabases } from '../support/databases.js';
import { databaseUrlOf, startTestService, type TestService } from '../support/service.js';

const WAIT_S = 3;

interface BusyServer { port: number; connectedAt: number[]; close(): Promise<void> }

/** Accepts every RCPT, but turns away the connections whose numbers (1-based) are in `refused` with a 421 greeting. */
async function startBusyServer(refused: Set<number>): Promise<BusyServer> {
  const connectedAt: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connectedAt.push(Date.now());
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (refused.has(connectedAt.length)) {
      socket.end(`421 4.7.0 Too many connections, try again in ${WAIT_S} seconds\r\n`);
      return;
    }
    socket.write('220 busy.test ESMTP\r\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let i = buffered.indexOf('\r\n'); i >= 0; i = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, i).toUpperCase();
        buffered = buffered.slice(i + 2);
        if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        // The catch-all probe's made-up address (cv-…) is refused: a real server, not one taking everything.
        else if (line.startsWith('RCPT') && line.includes('<CV-')) socket.write('550 5.1.1 User unknown\r\n');
        else socket.write(line.startsWith('EHLO') ? '250 busy.test\r\n' : '250 2.1.5 OK\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connectedAt,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }),
  };
}

const ZONE = {
  ...CANARY_ZONE,
  'busy.test': { MX: [{ exchange: 'mx.busy.test', priority: 10 }] },
  'mx.busy.test': { A: ['127.0.0.1'] },
};

function envFor(dns: LocalDnsServer, smtp: BusyServer): Record<string, string> {
  return {
    EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port),
    EMAIL_SMTP_ALLOW_PRIVATE: 'true', EMAIL_SPECIAL_USE_NAMES_ORDINARY: 'true',
    // Our own slow-down is shorter than the server's word: the server's 3 s is what the probe must wait.
    EMAIL_HOST_SLOWDOWN_MS: '500', EMAIL_HOST_SLOWDOWN_MAX_MS: '10000', EMAIL_CHECK_SCHEDULE_MS: '60000',
  };
}

async function validate(s: TestService, key: string, email: string) {
  const res = await s.post('/v1/validate', { email, options: { smtp: true } }, { key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { email: Record<string, any> }).email;
}

describe.each(testDatabases)('per-server manners on $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: BusyServer;
  let a: TestService;
  let b: TestService | undefined;

  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE);
    smtp = await startBusyServer(new Set([2]));
    a = await startTestService(await database.create(), envFor(dns, smtp));
    // A second instance on the same database: on PostgreSQL, as a fleet runs.
    if (database.name === 'postgres') b = await startTestService(databaseUrlOf(a), envFor(dns, smtp));
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database.dropAll();
    await Promise.all([smtp?.close(), dns?.close()]);
  });

  it('When a mail host answers 421 "try again in 3 seconds", then no probe from the fleet connects to it sooner', async () => {
    const { apiKey } = await a.newAccount(20);
    expect(await validate(a, apiKey, 'one@busy.test')).toMatchObject({ status: 'valid' });
    const refused = await validate(a, apiKey, 'two@busy.test');
    expect(refused).toMatchObject({ status: 'unknown', reason: 'temp_fail' });
    const refusedAt = smtp.connectedAt[1];
    expect(smtp.connectedAt).toHaveLength(2);

    const metrics = await (await fetch(`${a.url}/metrics`)).text();
    expect(metrics).toMatch(/^cv_smtp_host_slowed_seconds\{host="127\.0\.0\.1"\} [1-3](\.\d+)?$/m);
    expect(metrics).toMatch(/^cv_smtp_host_slowdowns_total 1$/m);

    // The other instance (on PostgreSQL), or this one, asks for another address at that host meanwhile.
    const other = b ?? a;
    if (b) await new Promise((r) => setTimeout(r, 1500)); // the fleet's slow-downs are read every second
    const waiting = await validate(other, apiKey, 'three@busy.test');
    // The probe waits for the rest of the server's 3 s: within the 2 s budget when the wait left is short (the fleet's
    // case, a second and a half later), else the answer is `pending` and the probe goes on once the wait is over.
    expect(['pending', 'deliverable']).toContain(waiting.smtp);
    for (const until = Date.now() + 10_000; smtp.connectedAt.length < 3 && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
    expect(smtp.connectedAt).toHaveLength(3);
    console.log(`[host-manners ${database.name}] next connection ${smtp.connectedAt[2] - refusedAt} ms after the 421 (asked: ${WAIT_S * 1000} ms)`);
    expect(smtp.connectedAt[2] - refusedAt).toBeGreaterThanOrEqual(WAIT_S * 1000 - 100);
    // The probe that waited got its answer, and the next request finds it.
    for (const until = Date.now() + 5000; Date.now() < until;) {
      if ((await validate(other, apiKey, 'three@busy.test')).status === 'valid') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await validate(other, apiKey, 'three@busy.test')).toMatchObject({ status: 'valid' });
  });
});
