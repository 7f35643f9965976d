/**
 * `npm run bench:fleet`: /v1/validate (48 varied bodies, all three modules, network checks off) against one instance
 * directly, one instance behind nginx, and two instances behind nginx, in alternating rounds of the same run, on a
 * private PostgreSQL cluster (initdb into a temporary folder, deleted afterwards) and Debian's nginx-light. Prints
 * throughput, p50/p99, failures, and the CPU time each process spent per 1,000 answers (read from /proc), and from
 * the direct rounds how many cores 10,000 requests a second would take.
 *
 * On a two-core machine this shows what the load balancer and a second instance cost, not how a fleet scales: the
 * load generator, nginx, PostgreSQL and the instances share the same two cores. Size a fleet from the CPU per
 * request, not from these rates.
 *
 * PostgreSQL runs with its production defaults (fsync and synchronous_commit on) and the table says so; `--fsync-off`
 * measures the unsafe setting, to be reported beside the durable figures, never instead.
 *
 *   npm run bench:fleet -- [--seconds 10] [--rounds 3] [--connections 32] [--fsync-off]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { autocannon, type AutocannonRequest } from './autocannon.js';
import { cpuSeconds, treeCpuSeconds } from './process-usage.js';
import { validateBodies } from './validate-bodies.js';
import {
  newAccount, startInstance, startNginx, startPrivatePostgres, type Instance, type Nginx, type PrivatePostgres,
} from '../test/support/fleet.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    // PostgreSQL's defaults (durable commits) unless asked; an unsafe setting is reported beside, never instead.
    'fsync-off': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const TARGET_RPS = 10_000;
/** Cores kept at most this busy in the sizing (headroom for bursts, GC, a lost instance). */
const TARGET_UTILISATION = 0.6;

interface Round {
  rps: number; p50: number; p99: number; failed: number; instanceMsPer1k: number; nginxMsPer1k: number; postgresMsPer1k: number;
}

interface Setup { name: string; url: string; instances: Instance[]; nginx?: Nginx }

async function round(setup: Setup, requests: AutocannonRequest[], postmaster: number): Promise<Round> {
  const pids = setup.instances.map((i) => i.child.pid!);
  const before = pids.map(cpuSeconds);
  const nginxBefore = setup.nginx ? treeCpuSeconds(setup.nginx.pid) : 0;
  const postgresBefore = treeCpuSeconds(postmaster);
  const r = await autocannon({ url: setup.url, connections: CONNECTIONS, duration: SECONDS, requests, timeout: 10 });
  const instanceCpu = pids.map(cpuSeconds).reduce((sum, after, i) => sum + after - before[i], 0);
  const nginxCpu = setup.nginx ? treeCpuSeconds(setup.nginx.pid) - nginxBefore : 0;
  const postgresCpu = treeCpuSeconds(postmaster) - postgresBefore;
  const ok = r['2xx'];
  return {
    rps: ok / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors,
    instanceMsPer1k: ok ? (instanceCpu * 1e6) / ok : NaN,
    nginxMsPer1k: ok ? (nginxCpu * 1e6) / ok : NaN,
    postgresMsPer1k: ok ? (postgresCpu * 1e6) / ok : NaN,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-');

async function main() {
  let pg: PrivatePostgres | undefined;
  const instances: Instance[] = [];
  const proxies: Nginx[] = [];
  const stop = async () => {
    for (const p of proxies) await p.close();
    for (const i of instances) await i.stop(5_000);
    await pg?.close();
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  try {
    process.stderr.write('bench:fleet: starting PostgreSQL, two instances and nginx…\n');
    pg = await startPrivatePostgres({ durable: !args['fsync-off'] });
    const env = { DATABASE_URL: pg.url, RATE_LIMIT_PER_MINUTE: '0', VALIDATION_BUDGET_MS: '2000' };
    instances.push(await startInstance(env), await startInstance(env));
    const { apiKey } = await newAccount(pg.url, 2_000_000_000);
    const hosts = instances.map((i) => `127.0.0.1:${i.port}`);
    const behindOne = await startNginx([hosts[0]]);
    const behindTwo = await startNginx(hosts);
    proxies.push(behindOne, behindTwo);
    const setups: Setup[] = [
      { name: 'one instance, direct', url: instances[0].url, instances: [instances[0]] },
      { name: 'one instance behind nginx', url: behindOne.url, instances: [instances[0]], nginx: behindOne },
      { name: 'two instances behind nginx', url: behindTwo.url, instances, nginx: behindTwo },
    ];
    const requests: AutocannonRequest[] = validateBodies().map((body) => ({
      method: 'POST', path: '/v1/validate', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body,
    }));
    // Warm-up: JIT, caches and the pools of every path.
    for (const s of setups) await autocannon({ url: s.url, connections: CONNECTIONS, duration: 2, requests, timeout: 10 });

    const results = new Map<string, Round[]>(setups.map((s) => [s.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of r % 2 ? [...setups].reverse() : setups) {
        const one = await round(s, requests, pg.pid());
        results.get(s.name)!.push(one);
        process.stderr.write(`  round ${r + 1}/${ROUNDS} ${s.name}: ${fmt(one.rps)} req/s, p99 ${one.p99} ms\n`);
      }
    }

    const rows = setups.map((s) => {
      const rs = results.get(s.name)!;
      return {
        name: s.name, rps: median(rs.map((x) => x.rps)), p50: median(rs.map((x) => x.p50)), p99: median(rs.map((x) => x.p99)),
        failed: rs.reduce((sum, x) => sum + x.failed, 0),
        instanceMs: median(rs.map((x) => x.instanceMsPer1k)), nginxMs: median(rs.map((x) => x.nginxMsPer1k)),
        postgresMs: median(rs.map((x) => x.postgresMsPer1k)),
      };
    });
    const base = rows[0].rps;
    const settings = await pg.settings();
    console.log(`\nbench:fleet: ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections, medians; ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores; PostgreSQL ${settings}\n`);
    console.log('| setup | req/s | vs direct | p50 ms | p99 ms | failed | CPU ms per 1,000 req: instances | nginx | PostgreSQL |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(`| ${r.name} | ${fmt(r.rps)} | ${fmt(r.rps / base, 2)} | ${r.p50} | ${r.p99} | ${r.failed} | ${fmt(r.instanceMs)} | ${r.name.includes('nginx') ? fmt(r.nginxMs) : '-'} | ${fmt(r.postgresMs)} |`);
    }
    const perRequestMs = rows[0].instanceMs / 1000;
    const cores = (TARGET_RPS * perRequestMs) / 1000;
    const coresOf = (msPer1k: number) => fmt((TARGET_RPS * msPer1k) / 1e6, 1);
    console.log(`\nOne instance spends ${fmt(rows[0].instanceMs)} ms of CPU per 1,000 requests (${fmt(perRequestMs * 1000)} µs each);` +
      ` ${fmt(TARGET_RPS)} req/s need ${fmt(cores, 1)} cores busy, ${fmt(Math.ceil(cores / TARGET_UTILISATION))} at ${TARGET_UTILISATION * 100}% use` +
      ' (one instance per core: a Node process runs its requests on one thread),' +
      ` plus nginx ${coresOf(rows[2].nginxMs)} and PostgreSQL ${coresOf(rows[0].postgresMs)} cores busy at the rates measured per request here.`);
    console.log('On two cores this shows the overhead of the balancer and of a second instance, not scale: all share the same cores.');
  } finally {
    await stop();
  }
}

await main();
