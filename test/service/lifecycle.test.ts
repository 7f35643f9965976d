import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, startTestService } from '../support/service.js';

/** A TCP relay to PostgreSQL that can be cut, to make the database unreachable for real. */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => { client.destroy(); upstream.destroy(); };
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cut: () => { server.close(); for (const s of sockets) s.destroy(); },
  };
}

describe.each(testDatabases)('lifecycle on $name', (database) => {
  afterAll(() => database.dropAll());

  it('When the database becomes unreachable, then /v1/validate and /healthz answer 503 problems and nothing is charged', async () => {
    const url = await database.create();
    const relay = database.name === 'postgres' ? await relayTo(new URL(url)) : null;
    const service = await startTestService(relay?.url ?? url);
    const { apiKey } = await service.newAccount(10);
    try {
      if (relay) relay.cut();
      else await service.db.close();

      const res = await service.post('/v1/validate', { email: 'a@b.co' }, { key: apiKey });
      const health = await service.get('/healthz');

      expect(res.status).toBe(503);
      expect((await problemOf(res)).type).toBe('/problems/database-unavailable');
      expect(health.status).toBe(503);
    } finally {
      await service.close();
    }
  });

  it('When the service is closed during a request, then that request still gets its answer and new connections are refused', async () => {
    const service = await startTestService(await database.create());
    const { apiKey } = await service.newAccount(10);

    // Closed once the server holds the request (a fixed wait raced the accept on a loaded machine).
    const received = new Promise((r) => service.server.once('request', r));
    const inFlight = service.post('/v1/validate', { phone: '+14155550123', address: '1 Main St, Springfield, IL 62701' }, { key: apiKey });
    await received;
    const closed = service.close();
    const answer = await inFlight;
    await closed;

    expect(answer.status).toBe(200);
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();
  });
});

describe('the process', () => {
  it('When npm start receives SIGTERM, then it finishes the request in flight and exits 0', async () => {
    const database = testDatabases[0];
    const root = path.resolve(import.meta.dirname, '../..');
    // What `npm start` runs: the compiled service in the launcher's own process.
    const child = spawn(process.execPath, ['scripts/start.mjs', 'main'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: await database.create(), LOG_LEVEL: 'info', EMAIL_NETWORK_CHECKS: 'false' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const line = out.split('\n').find((l) => l.includes('"listening"'));
          if (line) resolve(JSON.parse(line).url);
        });
        child.once('exit', () => reject(new Error(`exited early: ${out}`)));
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

      // A request whose headers are still arriving when the signal comes.
      const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
      let reply = '';
      socket.on('data', (d) => (reply += d));
      await new Promise((r) => socket.once('connect', r));
      socket.write('POST /v1/validate HTTP/1.1\r\nHost: localhost\r\n');
      await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      socket.write('Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      await new Promise((r) => socket.once('close', r));

      expect(reply).toMatch(/^HTTP\/1\.1 401/); // answered, not cut off
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await database.dropAll();
    }
  });
});

describe('configuration', () => {
  it('When the environment is empty, then the documented defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080, host: '0.0.0.0', databaseUrl: 'sqlite:./data/contact-validator.sqlite', rateLimitPerMinute: 600,
      validationBudgetMs: 2000, email: { networkChecks: true, smtpPort: 25, allowPrivate: false }, phone: { provider: 'none' },
    });
    expect(config.email.mailFrom).toBe(`verify@${config.email.heloName}`);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ EMAIL_SMTP_ALLOW_PRIVATE: 'maybe' }, /EMAIL_SMTP_ALLOW_PRIVATE/],
    [{ EMAIL_DNS_SERVERS: '127.0.0.1:53, bad host:1' }, /EMAIL_DNS_SERVERS/],
    [{ PHONE_LOOKUP_PROVIDER: 'twilio' }, /TWILIO_ACCOUNT_SID/],
  ])('When the environment has %o, then a ConfigError names the variable', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('readiness and keep-alive', () => {
  it('When the service serves, then /readyz is 200; once it is closing, 503; and idle connections outlast a load balancer', async () => {
    const database = testDatabases[0];
    const { startTestService } = await import('../support/service.js');
    const service = await startTestService(await database.create(), { SHUTDOWN_GRACE_MS: '300' });
    try {
      const ready = await fetch(`${service.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', dns: 'off', reference: 'loaded' });
      expect(service.server.keepAliveTimeout).toBe(65_000);
      expect(service.server.headersTimeout).toBeGreaterThan(service.server.keepAliveTimeout);

      const closing = service.close();
      const draining = await fetch(`${service.url}/readyz`).catch(() => null);
      await closing;

      // Either answered 503 while draining, or the listener was already closed: never 200.
      if (draining) expect(draining.status).toBe(503);
    } finally {
      await service.close();
      await database.dropAll();
    }
  });
});
