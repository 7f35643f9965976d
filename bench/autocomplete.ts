/**
 * Latency of GET /v1/address/autocomplete under load, beside two baselines of the same service in the same run:
 *
 *     npm run bench:autocomplete [-- --connections 50 --duration 10 --rounds 3 --warmup 3]
 *
 * (or BENCH_CONNECTIONS, BENCH_DURATION, BENCH_ROUNDS, BENCH_WARMUP).
 *
 * One service child (test/support/quiet-service.ts: SQLite, network checks off, the per-key rate limit on with a limit
 * no run reaches, so that its cost is paid as in production), one key. Targets, alternating round by round so that the
 * machine's drift falls on all alike, each the median of its rounds:
 *   - `GET /healthz`: the service's cheapest answer (a database ping), no key;
 *   - `POST /v1/validate` with an address only: the key, the rate limit, a debit and the address engine;
 *   - `GET /v1/address/autocomplete`: what a shopper's keystrokes send, cycling through 240 queries made from real US
 *     addresses (the bench:validate list, OpenAddresses via RRAD): the start of the street line at 3, 6 and 10
 *     characters, the line with the city begun, and the city alone.
 * The autocomplete's index is built by a first request before any load (built on first use, docs/api.md).
 *
 * Target: the autocomplete's p99 under 20 ms at 50 concurrent connections (closed loop: each connection sends its next
 * request when the last is answered, as fast as the server goes), with no failed request. The verdict is printed; the
 * exit code is 0 whatever the numbers, non-zero only when the service fails to start or to answer a first request.
 */
import os from 'node:os';
import { autocannon, type AutocannonRequest, type AutocannonResult } from './autocannon.js';
import { serviceChild } from './git-worktree.js';
import { cpuSeconds } from './process-usage.js';
import { ADDRESSES } from './validate-bodies.js';
import { startChild, stopChild, type StartedChild } from '../test/support/service-child.js';

const TARGET_P99_MS = 20;
const SERVICE = {
  accounts: [{ name: 'bench', credits: 50_000_000 }],
  env: { RATE_LIMIT_PER_MINUTE: '100000000' },
};

function setting(argv: string[], name: string, fallback: number): number {
  const at = argv.indexOf(`--${name}`);
  const raw = at >= 0 ? argv[at + 1] : process.env[`BENCH_${name.toUpperCase()}`];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < (name === 'warmup' ? 0 : 1)) throw new Error(`--${name} must be a whole number`);
  return value;
}

/** What a shopper's keystrokes send: prefixes of the street line, then the line with the city begun, and cities. */
function autocompleteQueries(): string[] {
  const queries: string[] = [];
  for (const [line1, , city] of ADDRESSES) {
    queries.push(line1.slice(0, 3), line1.slice(0, 6), line1.slice(0, 10), `${line1}, ${city.slice(0, 4)}`, city.slice(0, 6));
  }
  return queries;
}

interface Target {
  label: string;
  requests: AutocannonRequest[];
  rounds: AutocannonResult[];
  cpuUs: number[];
}

async function load(service: StartedChild, url: string, target: Target, connections: number, duration: number): Promise<AutocannonResult> {
  const before = cpuSeconds(service.child.pid!);
  const result = await autocannon({ url, connections, duration, requests: target.requests, timeout: 10 });
  target.cpuUs.push(result['2xx'] ? ((cpuSeconds(service.child.pid!) - before) * 1e6) / result['2xx'] : NaN);
  return result;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => (c ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  '));
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const connections = setting(argv, 'connections', 50);
  const duration = setting(argv, 'duration', 10);
  const rounds = setting(argv, 'rounds', 3);
  const warmup = setting(argv, 'warmup', 3);
  const cpus = os.cpus();
  console.log(`node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`GET /v1/address/autocomplete beside GET /healthz and POST /v1/validate (address only), one service on SQLite; ` +
    `${connections} connections, ${warmup} s warm-up, ${rounds} alternating rounds of ${duration} s each`);

  const { script, args } = serviceChild(SERVICE);
  let service: StartedChild;
  try {
    service = await startChild('the service', script, { args });
  } catch (err) {
    console.error(`bench:autocomplete: ${(err as Error).message}`);
    return 1;
  }
  const url = service.first.url as string;
  const key = (service.first.accounts as { api_key: string }[])[0].api_key;
  const auth = { authorization: `Bearer ${key}` };
  const targets: Target[] = [
    { label: 'GET /healthz', requests: [{ method: 'GET', path: '/healthz', headers: {}, body: '' }], rounds: [], cpuUs: [] },
    {
      label: 'POST /v1/validate (address)',
      requests: ADDRESSES.map(([line1, line2, city, state, zip]) => ({
        method: 'POST', path: '/v1/validate', headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ address: `${[line1, line2].filter(Boolean).join(' ')}, ${city}, ${state} ${zip}` }),
      })),
      rounds: [], cpuUs: [],
    },
    {
      label: 'GET /v1/address/autocomplete',
      requests: autocompleteQueries().map((q) => ({ method: 'GET', path: `/v1/address/autocomplete?q=${encodeURIComponent(q)}`, headers: auth, body: '' })),
      rounds: [], cpuUs: [],
    },
  ];
  try {
    // A first answer of each by hand: a failure is said before any load, and the autocomplete's index is built.
    for (const t of targets) {
      const [r] = t.requests;
      const res = await fetch(url + r.path, { method: r.method, headers: r.headers, body: r.body || undefined, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${t.label} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    const first = await fetch(`${url}/v1/address/autocomplete?q=${encodeURIComponent('6007 Applegate')}`, { headers: auth });
    const suggestions = ((await first.json()) as { suggestions: { text: string }[] }).suggestions;
    if (suggestions[0]?.text !== '6007 APPLEGATE LN, LOUISVILLE, KY 40219') throw new Error(`unexpected suggestions: ${JSON.stringify(suggestions)}`);

    if (warmup > 0) for (const t of targets) await load(service, url, { ...t, cpuUs: [] }, connections, warmup);
    const perRound: string[][] = [['round', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'server cpu µs/req']];
    for (let i = 1; i <= rounds; i++) {
      for (const t of targets) {
        const r = await load(service, url, t, connections, duration);
        t.rounds.push(r);
        perRound.push([
          `${i}: ${t.label}`, (r['2xx'] / r.duration).toFixed(0), String(r.latency.p50), String((r.latency as { p90?: number }).p90 ?? '-'),
          String(r.latency.p99), String(r.latency.max), String(r.non2xx), String(r.errors), t.cpuUs.at(-1)!.toFixed(0),
        ]);
      }
    }
    console.log('');
    printTable(perRound);
    console.log('');
    const summary: string[][] = [['target (median of rounds)', 'req/s', 'p50 ms', 'p99 ms', 'failed', 'server cpu µs/req']];
    for (const t of targets) {
      summary.push([
        t.label, median(t.rounds.map((r) => r['2xx'] / r.duration)).toFixed(0), median(t.rounds.map((r) => r.latency.p50)).toFixed(0),
        median(t.rounds.map((r) => r.latency.p99)).toFixed(0), String(t.rounds.reduce((s, r) => s + r.non2xx + r.errors, 0)),
        median(t.cpuUs).toFixed(0),
      ]);
    }
    printTable(summary);
    const autocomplete = targets[2];
    const p99 = median(autocomplete.rounds.map((r) => r.latency.p99));
    const failed = autocomplete.rounds.reduce((s, r) => s + r.non2xx + r.errors, 0);
    console.log(`\nautocomplete p99 ${p99} ms at ${connections} connections (target < ${TARGET_P99_MS} ms), failed requests ${failed} -> ${p99 < TARGET_P99_MS && failed === 0 ? 'PASS' : 'FAIL'}`);
    // On a shared machine the tail is mostly the machine's: the cheapest answer's own p99 in the same rounds says how much.
    const healthP99 = median(targets[0].rounds.map((r) => r.latency.p99));
    console.log(`same rounds: GET /healthz p99 ${healthP99} ms (autocomplete/healthz ${(p99 / healthP99).toFixed(2)}); ` +
      `server CPU per autocomplete ${median(autocomplete.cpuUs).toFixed(0)} µs against ${median(targets[0].cpuUs).toFixed(0)} µs per /healthz`);
  } catch (err) {
    console.error(`bench:autocomplete: ${(err as Error).message}`);
    return 1;
  } finally {
    await stopChild(service);
  }
  return service.child.exitCode && service.child.exitCode !== 0 ? 1 : 0;
}

process.exitCode = await main();
