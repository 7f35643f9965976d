/**
 * POST /v1/validate/batch of 100 address-only contacts beside POST /v1/validate of one, in the same run on the same
 * service (issue 55.1's target: the batch call's p99 within 5x the single call's):
 *
 *     npm run bench:validate-batch [-- --calls 200 --warmup 20]
 *
 * One service child on SQLite (test/support/quiet-service.ts: network checks off, an account holding enough credits),
 * one client calling in turn (single, batch, single, batch, …) so that the machine's drift falls on both alike; each
 * call's latency is the time to its whole answer. The addresses are the real US ones of bench/validate-bodies.ts, each
 * batch's 100 a window shifted by one per call. Prints a table and the ratio; the exit code is 0 whatever the numbers.
 */
import os from 'node:os';
import { serviceChild } from './git-worktree.js';
import { ADDRESSES } from './validate-bodies.js';
import { startChild, stopChild, type StartedChild } from '../test/support/service-child.js';

const TARGET_RATIO = 5;
const CONTACTS = 100;

function setting(argv: string[], name: string, fallback: number): number {
  const at = argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const line = (i: number) => {
  const [line1, line2, city, state, zip] = ADDRESSES[i % ADDRESSES.length];
  return `${[line1, line2].filter(Boolean).join(' ')}, ${city}, ${state} ${zip}`;
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

async function main(argv: string[]): Promise<number> {
  const calls = setting(argv, 'calls', 200);
  const warmup = setting(argv, 'warmup', 20);
  const cpus = os.cpus();
  console.log(`node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`POST /v1/validate/batch (${CONTACTS} addresses) beside POST /v1/validate (1 address), one service on SQLite, one client, ${warmup} warm-up and ${calls} measured calls of each, alternating`);

  const { script, args } = serviceChild({ accounts: [{ name: 'bench', credits: 50_000_000 }] });
  let service: StartedChild;
  try {
    service = await startChild('the service', script, { args });
  } catch (err) {
    console.error(`bench:validate-batch: ${(err as Error).message}`);
    return 1;
  }
  try {
    const url = service.first.url as string;
    const key = (service.first.accounts as { api_key: string }[])[0].api_key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const timed = async (path: string, body: string, check: (answer: any) => boolean): Promise<number> => {
      const started = performance.now();
      const res = await fetch(url + path, { method: 'POST', headers, body });
      const answer = await res.json();
      const ms = performance.now() - started;
      if (res.status !== 200 || !check(answer)) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      return ms;
    };
    const single: number[] = [];
    const batch: number[] = [];
    for (let i = 0; i < warmup + calls; i++) {
      const one = await timed('/v1/validate', JSON.stringify({ address: line(i) }), (a) => a.address !== null);
      const contacts = Array.from({ length: CONTACTS }, (_, j) => ({ input_id: String(j), address: line(i + j) }));
      const many = await timed('/v1/validate/batch', JSON.stringify({ contacts }), (a) => a.results.length === CONTACTS && a.failed === 0);
      if (i >= warmup) {
        single.push(one);
        batch.push(many);
      }
    }
    const rows = [['POST /v1/validate (1 address)', single], [`POST /v1/validate/batch (${CONTACTS} addresses)`, batch]] as const;
    console.log('\n| call | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|');
    for (const [label, ms] of rows) {
      const sorted = [...ms].sort((a, b) => a - b);
      console.log(`| ${label} | ${[0.5, 0.9, 0.99, 1].map((q) => quantile(sorted, q).toFixed(1)).join(' | ')} |`);
    }
    const p99 = (ms: readonly number[]) => quantile([...ms].sort((a, b) => a - b), 0.99);
    const ratio = p99(batch) / p99(single);
    console.log(`\np99 of the batch call / p99 of the single call: ${ratio.toFixed(2)} (target at most ${TARGET_RATIO}): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`);
    console.log(`per contact in the batch call, at p50: ${(quantile([...batch].sort((a, b) => a - b), 0.5) / CONTACTS).toFixed(3)} ms`);
    return 0;
  } finally {
    await stopChild(service);
  }
}

process.exitCode = await main(process.argv.slice(2));
