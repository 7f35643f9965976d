/**
 * The service behind a resolver that denies every name (a captive or misconfigured network), then recovers: e-mail
 * answers are `unknown` / `dns_unavailable` and refunded, /readyz says DNS is degraded while still serving, the metric
 * says so, and a connector run writes no verdict it could not make (the local Salesforce org, test/salesforce/fake-org.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalDnsServer, type LocalDnsServer } from '../email/local-dns-server.js';
import { startLocalSmtpServer, type LocalSmtpServer } from '../email/local-smtp-server.js';
import { startFakeOrg, type FakeOrg } from '../salesforce/fake-org.js';
import { testDatabases } from '../support/databases.js';
import { startTestService, type TestService } from '../support/service.js';

const ZONE = {
  'gmail.com': { MX: [{ exchange: 'mx.mail.test', priority: 5 }] },
  'mx.mail.test': { A: ['127.0.0.1'] },
};

async function runNow(s: TestService, key: string, connectorId: string) {
  const started = await fetch(`${s.url}/v1/connectors/${connectorId}/runs`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  const { run_id: runId } = (await started.json()) as { run_id: string };
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    const { runs } = (await (await s.get(`/v1/connectors/${connectorId}/runs`, key)).json()) as { runs: Record<string, any>[] };
    const run = runs.find((r) => r.run_id === runId);
    if (run && run.status !== 'running') return run;
  }
  throw new Error(`run ${runId} still running`);
}

describe.each(testDatabases)('a resolver that denies every name, on $name', (database) => {
  let dns: LocalDnsServer;
  let smtp: LocalSmtpServer;
  let org: FakeOrg;
  let service: TestService;

  beforeAll(async () => {
    dns = await startLocalDnsServer(ZONE, { soaOnNxdomain: true });
    smtp = await startLocalSmtpServer({ byAddress: { 'ann@gmail.com': 'accept' } });
    org = await startFakeOrg();
    service = await startTestService(await database.create(), {
      EMAIL_NETWORK_CHECKS: 'true', EMAIL_DNS_SERVERS: dns.address, EMAIL_SMTP_PORT: String(smtp.port), EMAIL_SMTP_ALLOW_PRIVATE: 'true',
      CONNECTOR_SECRET_KEY: 'a1'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
    });
  });
  afterAll(async () => {
    await service?.close();
    await database.dropAll();
    await Promise.all([org?.close(), smtp?.close(), dns?.close()]);
  });

  it('When the resolver denies every name, then e-mails are unknown dns_unavailable and free, /readyz is 200 but degraded, and the metric says so', async () => {
    // Arrange
    dns.denyAll = true;
    const { apiKey } = await service.newAccount(5);

    // Act
    const body = (await (await service.post('/v1/validate', { email: 'ann@gmail.com' }, { key: apiKey })).json()) as any;
    const ready = await fetch(`${service.url}/readyz`);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();

    // Assert
    expect(body.email).toMatchObject({ status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'dns_unavailable', free: true });
    expect(body.credits).toEqual({ charged: 0, remaining: 5 });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', dns: 'degraded', reference: 'loaded' });
    expect(metrics).toMatch(/^cv_dns_resolver_healthy 0$/m);
    expect(metrics).toMatch(/^cv_email_dns_unavailable_total [1-9]/m);
  });

  it('When a connector runs during the outage, then no e-mail verdict is written back, and the next run after recovery checks it', async () => {
    // Arrange: contacts with an e-mail only (nothing else of theirs is written, so only the watermark brings them back)
    dns.denyAll = true;
    const { accountId, apiKey } = await service.newAccount(10);
    const [ann, bob] = org.state.seed('Contact', 2, (i) => ({ Email: ['ann@gmail.com', 'bob@gone-shop.com'][i] }));
    const created = await service.post('/v1/connectors', {
      type: 'salesforce', name: 'Org', schedule: '0 3 * * *',
      settings: { login_url: org.url, objects: ['Contact'] },
      credentials: { client_id: org.state.clientId, client_secret: org.state.clientSecret },
    }, { key: apiKey });
    const { connector_id: connectorId } = (await created.json()) as { connector_id: string };

    // Act
    const during = await runNow(service, apiKey, connectorId);
    const statusDuring = [ann, bob].map((c) => org.state.get(c.Id as string)!.CV_Email_Status__c ?? null);
    dns.denyAll = false;
    const after = await runNow(service, apiKey, connectorId);

    // Assert: nothing written during the outage, nothing charged; after it ann is checked (and paid for), bob not
    // called invalid while the resolver's verdict still stands
    expect(during).toMatchObject({ status: 'completed', records_validated: 2, records_written: 0, credits_charged: 0 });
    expect(statusDuring).toEqual([null, null]);
    expect(during.errors).toHaveLength(2);
    expect(during.errors).toEqual(expect.arrayContaining([ann, bob].map((c) => ({ key: `Contact:${c.Id}`, error: expect.stringContaining('DNS unavailable') }))));
    expect(after).toMatchObject({ status: 'completed', records_read: 2 });
    expect(org.state.get(ann.Id as string)).toMatchObject({ CV_Email_Status__c: 'valid' });
    expect(org.state.get(bob.Id as string)!.CV_Email_Status__c ?? null).not.toBe('invalid');
    expect(await service.ledger.balance(accountId)).toBe(9);
  });
});
