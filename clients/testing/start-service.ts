/**
 * For the client libraries' test suites (clients/<language>): the real service, in process on a throw-away SQLite
 * database, with network checks off, an account holding credits and a fault proxy in front of it. Prints one JSON line
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
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService } from '../../src/service.js';

const CREDITS = 1_000_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-client-tests-'));
const service = await startService(loadConfig({
  DATABASE_URL: `sqlite:${path.join(dir, 'service.sqlite')}`, BATCH_DIR: path.join(dir, 'batches'),
  HOST: '127.0.0.1', PORT: '0', EMAIL_NETWORK_CHECKS: 'false', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'silent',
  FREE_CREDITS: '0', SHUTDOWN_GRACE_MS: '500', BATCH_SWEEP_MS: '200', FAILED_AUTH_PER_MINUTE: '100000',
  CONNECTOR_SECRET_KEY: 'c3'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
  SHOPIFY_API_KEY: 'client-tests', SHOPIFY_API_SECRET: 'client-tests-secret', PUBLIC_BASE_URL: 'https://cv.example.com',
  // Stripe configured (its webhook then checks signatures rather than answering 503), its API a closed local port.
  STRIPE_SECRET_KEY: 'sk_test_clienttests', STRIPE_WEBHOOK_SECRET: 'whsec_clienttests', STRIPE_API_BASE: 'http://127.0.0.1:9',
}), createLogger('silent'));
const { account_id, api_key } = await service.accounts.create('client tests');
await service.accounts.grantCredits(account_id, CREDITS);

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

process.stdout.write(`${JSON.stringify({
  url: proxyUrl, direct_url: service.url, api_key, account_id, control_url: `${proxyUrl}/__control`,
})}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  proxy.closeAllConnections();
  proxy.close();
  await service.close().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
