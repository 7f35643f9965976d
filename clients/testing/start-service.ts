/**
 * For the client libraries' test suites (clients/<language>): the quiet service of test/support/quiet-service.ts (in
 * process, a throw-away SQLite database, network checks off, an account holding credits) with a fault proxy in front.
 * Prints one JSON line
 *
 *     {"url", "direct_url", "api_key", "account_id", "control_url"}
 *
 * on stdout once it serves, and stops (deleting its files) when stdin closes or on SIGTERM/SIGINT.
 *
 * `url` is the proxy: it forwards every request to the service unchanged, unless told otherwise through
 * `POST {control_url}` with `{"fault": "503" | "429" | "drop_before" | "drop_after", "count": N}`: the next N requests
 * are answered 503 (with `Retry-After: 1`) or 429 (same) without reaching the service, or their connection is dropped
 * before forwarding (`drop_before`: the service never sees them) or after the service answered (`drop_after`: the
 * request was processed, and charged, but the client never hears it — the case an Idempotency-Key is for).
 * `GET {control_url}` answers `{"forwarded", "faulted"}` counts. Run it from the repository root:
 *
 *     node --import tsx clients/testing/start-service.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startQuietService } from '../../test/support/quiet-service.js';
import { serveUntilParentGoes } from '../../test/support/service-child.js';

const service = await startQuietService({
  accounts: [{ name: 'client tests', credits: 1_000_000 }],
  env: {
    SHUTDOWN_GRACE_MS: '500', BATCH_SWEEP_MS: '200', FAILED_AUTH_PER_MINUTE: '100000',
    CONNECTOR_SECRET_KEY: 'c3'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
    // Webhook endpoints on the suites' own receivers on 127.0.0.1; a low balance noticed within 200 ms.
    WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TICK_MS: '200',
    SHOPIFY_API_KEY: 'client-tests', SHOPIFY_API_SECRET: 'client-tests-secret', PUBLIC_BASE_URL: 'https://cv.example.com',
    // Stripe configured (its webhook then checks signatures rather than answering 503), its API a closed local port.
    STRIPE_SECRET_KEY: 'sk_test_clienttests', STRIPE_WEBHOOK_SECRET: 'whsec_clienttests', STRIPE_API_BASE: 'http://127.0.0.1:9',
  },
});
const [{ accountId: account_id, apiKey: api_key }] = service.funded;

type Fault = '503' | '429' | 'drop_before' | 'drop_after';
const faults: Fault[] = [];
const counts = { forwarded: 0, faulted: 0 };
const target = new URL(service.url);

const proxy = http.createServer((req, res) => {
  if (req.url?.startsWith('/__control')) {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST') {
        const { fault, count = 1 } = JSON.parse(body || '{}') as { fault: Fault; count?: number };
        for (let i = 0; i < count; i++) faults.push(fault);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...counts, pending: faults.length }));
    });
    return;
  }
  const fault = faults.shift();
  if (fault === '503' || fault === '429') {
    counts.faulted++;
    req.resume();
    const status = Number(fault);
    res.writeHead(status, { 'content-type': 'application/problem+json', 'retry-after': '1' }).end(JSON.stringify({
      type: status === 503 ? '/problems/database-unavailable' : '/problems/rate-limited',
      title: status === 503 ? 'The database is unreachable; nothing was charged' : 'Too many requests for this API key',
      status, request_id: 'req_fault_proxy',
    }));
    return;
  }
  if (fault === 'drop_before') {
    counts.faulted++;
    req.socket.destroy();
    return;
  }
  counts.forwarded++;
  const upstream = http.request({
    host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers,
  }, (answer) => {
    if (fault === 'drop_after') {
      counts.faulted++;
      answer.resume();
      answer.on('end', () => req.socket.destroy());
      return;
    }
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => req.socket.destroy());
  req.pipe(upstream);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

serveUntilParentGoes({
  url: proxyUrl, direct_url: service.url, api_key, account_id, control_url: `${proxyUrl}/__control`,
}, async () => {
  proxy.closeAllConnections();
  proxy.close();
  await service.close();
});
