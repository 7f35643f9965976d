/**
 * The first /readyz after start already tells the truth about the e-mail check's resolver (issue 52.5): the service asks
 * it once before it says it is ready, instead of assuming a resolver that works until an e-mail comes (offline, /readyz
 * said `"dns":"ok"` for its first seconds, then `degraded`).
 */
import dgram from 'node:dgram';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalDnsServer } from '../email/local-dns-server.js';
import { testDatabases } from '../support/databases.js';
import { startTestService } from '../support/service.js';

/** A loopback UDP port nobody listens on: a resolver that is not there (the machine offline). */
async function deadPort(): Promise<number> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

const database = testDatabases[0];
afterAll(() => database.dropAll());

async function firstAnswers(dnsServers: string) {
  const service = await startTestService(await database.create(), { EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dnsServers });
  try {
    // Nothing asked of the e-mail check before: the very first probes after start.
    const ready = await fetch(`${service.url}/readyz`);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    return { status: ready.status, body: await ready.json(), metrics };
  } finally {
    await service.close();
  }
}

describe('readiness at start', () => {
  it('When the resolver is not there, then the first /readyz after start says DNS is degraded, and so does the metric', async () => {
    const { status, body, metrics } = await firstAnswers(`127.0.0.1:${await deadPort()}`);

    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ready', dns: 'degraded' });
    expect(metrics).toMatch(/^cv_dns_resolver_healthy 0$/m);
  });

  it('When the resolver denies every name, then the first /readyz after start says DNS is degraded', async () => {
    const dns = await startLocalDnsServer({}, { soaOnNxdomain: true });
    dns.denyAll = true;
    try {
      expect((await firstAnswers(dns.address)).body).toMatchObject({ status: 'ready', dns: 'degraded' });
    } finally {
      await dns.close();
    }
  });

  it('When the resolver finds the well-known providers, then the first /readyz after start says DNS is ok', async () => {
    const dns = await startLocalDnsServer({
      'gmail.com': { MX: [{ exchange: 'mx.mail.test', priority: 5 }] },
      'outlook.com': { MX: [{ exchange: 'mx.mail.test', priority: 5 }] },
      'yahoo.com': { MX: [{ exchange: 'mx.mail.test', priority: 5 }] },
    });
    try {
      const { body, metrics } = await firstAnswers(dns.address);

      expect(body).toMatchObject({ status: 'ready', dns: 'ok' });
      expect(metrics).toMatch(/^cv_dns_resolver_healthy 1$/m);
      expect(dns.questions.size).toBeGreaterThan(0); // asked, not assumed
    } finally {
      await dns.close();
    }
  });
});
