/**
 * Issue #30: the client's overhead per call over a raw fetch of the same request, at 32 concurrent calls, in the same
 * run, against the real service (clients/testing/start-service.ts, straight to the service, not through the proxy).
 *
 *     cd clients/typescript && npm run bench            # BENCH_BLOCK=640 BENCH_PAIRS=15 to change the size
 *
 * Calls go in short blocks, raw then client or client then raw, 32 in flight; each pair of blocks gives one ratio and
 * the table shows medians. The CPU columns count this process only: the client's own work, which machine load
 * disturbs far less than wall time. The raw fetch sends exactly what the client sends (same headers, a fresh
 * Idempotency-Key per validate, the body read and parsed), so the difference is the client's own work: options, URL,
 * retry bookkeeping, deadline timer, error mapping. Each call is compared twice: with a bare fetch, and with a fetch given the
 * AbortSignal and timer that any timeout needs.
 */
import { randomUUID } from 'node:crypto';
import { ContactValidator, VERSION } from './src/index.js';
import { startRealService } from './test/real-service.js';

const CONCURRENCY = 32;
const BLOCK = Number(process.env.BENCH_BLOCK ?? 640);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 15);

const service = await startRealService();
const baseUrl = service.direct_url;
const client = new ContactValidator({ apiKey: service.api_key, baseUrl });
const headers = { authorization: `Bearer ${service.api_key}`, accept: 'application/json', 'user-agent': `contact-validator-node/${VERSION}` };
const body = { phone: '+14155550123', email: 'someone@example.com' };

interface Case { name: string; raw: () => Promise<unknown>; client: () => Promise<unknown> }

/**
 * The raw request, bare or with what the client's total timeout needs: an AbortSignal for fetch and its timer.
 * undici's own handling of a request's signal is most of what the client costs over a bare fetch.
 */
function rawFetch(path: string, init: RequestInit, withDeadline: boolean): () => Promise<unknown> {
  return async () => {
    let controller: AbortController | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (withDeadline) {
      const c = new AbortController();
      controller = c;
      timer = setTimeout(() => c.abort(), 30_000);
    }
    try {
      const res = await fetch(`${baseUrl}${path}`, {
        ...init,
        headers: { ...headers, ...(init.method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}) },
        signal: controller?.signal,
      });
      if (!res.ok) throw new Error(`raw ${res.status}`);
      return await res.json();
    } finally {
      clearTimeout(timer);
    }
  };
}

const validateInit = (): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
const cases: Case[] = [
  { name: 'POST /v1/validate vs bare fetch', raw: () => rawFetch('/v1/validate', validateInit(), false)(), client: () => client.validate(body) },
  { name: 'POST /v1/validate vs fetch + timeout signal', raw: () => rawFetch('/v1/validate', validateInit(), true)(), client: () => client.validate(body) },
  { name: 'GET /v1/keys vs bare fetch', raw: rawFetch('/v1/keys', { method: 'GET' }, false), client: () => client.keys.list() },
  { name: 'GET /v1/keys vs fetch + timeout signal', raw: rawFetch('/v1/keys', { method: 'GET' }, true), client: () => client.keys.list() },
];

interface Sample { wallMs: number; cpuUs: number }

/** `calls` calls with `CONCURRENCY` in flight: wall time, and this process's CPU time (the service runs in another). */
async function run(call: () => Promise<unknown>, calls = BLOCK): Promise<Sample> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < calls) await call();
  }));
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuUs: used.user + used.system };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const us = (x: number) => `${x.toFixed(0)} µs`;
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;

/**
 * The same validate through a stub fetch that answers at once, one call at a time: the client's own CPU per call
 * (options, URL, headers, the deadline's AbortController and timer, parsing) with no network and no service, which
 * machine load cannot blur. The abort signal's cost inside undici is not in it (the stub ignores the signal).
 */
async function clientCodeAlone(): Promise<string> {
  const answer = JSON.stringify({ address: null, email: null, phone: { status: 'valid' }, credits: { charged: 2, remaining: 1 }, request_id: 'r', response_ms: 1 });
  const stub = (async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } })) as typeof fetch;
  const stubbed = new ContactValidator({ apiKey: service.api_key, baseUrl, fetch: stub });
  const raw = async () => (await stub(`${baseUrl}/v1/validate`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify(body),
  })).json();
  const cpuPerCall = async (call: () => Promise<unknown>, n = 20_000) => {
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await call();
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / n;
  };
  for (let i = 0; i < 3; i++) { await cpuPerCall(raw); await cpuPerCall(() => stubbed.validate(body)); }
  const r: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < 7; i++) { r.push(await cpuPerCall(raw)); c.push(await cpuPerCall(() => stubbed.validate(body))); }
  const [mr, mc] = [median(r), median(c)];
  return `validate through a stub fetch ${mc.toFixed(1)} µs/call, the raw request ${mr.toFixed(1)} µs/call: the client adds ${(mc - mr).toFixed(1)} µs of CPU per call`;
}

try {
  const rows: string[][] = [];
  for (const c of cases) {
    await run(c.raw, 500);
    await run(c.client, 500);
    const raw: Sample[] = [];
    const viaClient: Sample[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      // Short blocks, alternating which goes first: load on the machine (other processes, GC, SQLite's WAL) falls
      // on both alike, and each pair is compared on its own.
      if (pair % 2 === 0) { raw.push(await run(c.raw)); viaClient.push(await run(c.client)); }
      else { viaClient.push(await run(c.client)); raw.push(await run(c.raw)); }
    }
    const wallRaw = median(raw.map((s) => (s.wallMs * 1000) / BLOCK));
    const wallClient = median(viaClient.map((s) => (s.wallMs * 1000) / BLOCK));
    const ratio = median(raw.map((r, i) => viaClient[i].wallMs / r.wallMs - 1));
    const cpuRaw = median(raw.map((s) => s.cpuUs / BLOCK));
    const cpuClient = median(viaClient.map((s) => s.cpuUs / BLOCK));
    rows.push([
      c.name, us(wallRaw), us(wallClient), pct(ratio), us(cpuRaw), us(cpuClient), us(cpuClient - cpuRaw),
      pct((cpuClient - cpuRaw) / wallRaw),
    ]);
  }
  const head = ['call', 'raw fetch wall/call', 'client wall/call', 'wall overhead (median of pairs)', 'raw CPU/call',
    'client CPU/call', 'client CPU added', 'CPU added / raw wall'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  console.log(`node ${process.version}, ${CONCURRENCY} calls in flight, ${PAIRS} pairs of ${BLOCK}-call blocks per row;`
    + ' wall/call = block time / calls (at 32 in flight); CPU = this process only (the service runs in another)');
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\nclient code alone: ${await clientCodeAlone()}`);
} finally {
  await service.stop();
}
