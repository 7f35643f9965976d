/**
 * E-mail engine bench: offline answers (syntax, lists, suggestion) per second, and full answers (DNS + SMTP) against
 * local servers on 127.0.0.1 (dns2, smtp-server): latency of a first check, and of the same address from the cache.
 * Bounded: fixed counts, everything local, stops by itself.   npm run bench:email
 * smtp-server holds its greeting 100 ms (early-talker detection), and all 30 test domains share one mail host, so
 * with 2 connections per host the first pass measures that queue: about 10 conversations ahead of each request.
 */
import { performance } from 'node:perf_hooks';
import { createEmailEngine, loadEmailLists } from '../src/validation/email/index.js';
import { startEmailTestRig } from '../test/email/email-test-rig.js';

const OFFLINE_CHECKS = 200_000;
const NETWORK_ADDRESSES = 300;
const CONCURRENCY = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  console.log(`${label}: n=${sorted.length} p50=${percentile(sorted, 50).toFixed(2)}ms p95=${percentile(sorted, 95).toFixed(2)}ms max=${sorted.at(-1)!.toFixed(2)}ms`);
}

async function benchOffline(): Promise<void> {
  const started = performance.now();
  const lists = loadEmailLists();
  console.log(`lists loaded in ${(performance.now() - started).toFixed(0)}ms`);
  const engine = createEmailEngine({ networkChecks: false, smtpPort: 25, allowPrivate: false, heloName: 'bench.test', mailFrom: 'v@bench.test', lists });
  const inputs = ['john.smith@gmail.com', 'info@gmial.com', 'x@mailinator.com', 'bad@@example.com', 'user+tag@sub.example.co.uk', 'a@bücher.de'];
  const t0 = performance.now();
  for (let i = 0; i < OFFLINE_CHECKS; i++) await engine.validate(inputs[i % inputs.length], { smtp: false, deadline: Date.now() + 1000 });
  const seconds = (performance.now() - t0) / 1000;
  console.log(`offline: ${OFFLINE_CHECKS} answers in ${seconds.toFixed(2)}s = ${Math.round(OFFLINE_CHECKS / seconds)}/s`);
  await engine.close();
}

async function benchNetwork(): Promise<void> {
  const domains = Array.from({ length: 30 }, (_, i) => `d${i}.bench.test`);
  const zone = Object.fromEntries([
    ...domains.map((d) => [d, { MX: [{ exchange: 'mx.bench.test', priority: 10 }] }]),
    ['mx.bench.test', { A: ['127.0.0.1'] }],
  ]);
  const byAddress = Object.fromEntries(Array.from({ length: NETWORK_ADDRESSES }, (_, i) => [`user${i}@${domains[i % domains.length]}`, 'accept' as const]));
  const rig = await startEmailTestRig(zone, { byAddress });
  const engine = rig.engine({ maxConnectionsPerHost: 2, maxProbesInFlight: 50, maxConnectionsPerHostPerMinute: Infinity, replyTimeoutMs: 2000, probeTimeoutMs: 10_000 });
  const addresses = Object.keys(byAddress);
  for (const pass of ['first check', 'from cache']) {
    const samples: number[] = [];
    const verdicts = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < addresses.length) {
        const address = addresses[next++];
        const t = performance.now();
        const result = await engine.validate(address, { smtp: true, deadline: Date.now() + 2000 });
        samples.push(performance.now() - t);
        verdicts.set(result.smtp, (verdicts.get(result.smtp) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    summary(`network, ${pass}, ${CONCURRENCY} at a time, 2 connections per host, budget 2000ms`, samples);
    console.log(`  smtp: ${JSON.stringify(Object.fromEntries(verdicts))}; server saw at most ${rig.smtpServer.maxConcurrent} connections at once`);
  }
  await rig.close();
}

await benchOffline();
await benchNetwork();
