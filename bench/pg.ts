/**
 * `npm run bench:pg`: the embedded database against PostgreSQL with durable commits, in one run on one machine.
 *
 *     npm run bench:pg -- [--seconds 5] [--rounds 5] [--connections 16] [--rows 10000] [--records 5000] [--batch-rounds 2]
 *
 * A private PostgreSQL cluster (initdb into a temporary folder, deleted afterwards) runs with its production defaults,
 * fsync and synchronous_commit on, and the table prints the settings it ran with; pg_stat_statements is loaded to count
 * the statements a request costs. Two quiet service children (test/support/quiet-service.ts: network checks off; the
 * per-key rate limit on, as in production, with a limit no run reaches, so that its counting is paid for), one on a
 * throw-away SQLite file and one on that cluster, each with two funded accounts, serve:
 *
 * 1. `/v1/validate` (the 48 bench:validate bodies, all three modules) with `--connections` connections, for one account,
 *    then split over two accounts, in alternating rounds (SQLite, PostgreSQL, …, the order reversed every other
 *    round): req/s and p99 (medians of the rounds; each ratio is the median of the rounds' own ratios, the two
 *    databases measured back to back, so that the machine's load moves both), the service's CPU per request and PostgreSQL's (the postmaster and
 *    its backends, from /proc), and from pg_stat_statements and pg_stat_wal the statements, transactions and WAL
 *    flushes per request.
 * 2. A `--rows` CSV batch (?smtp=false), rows/s from the upload's first byte to the poll that saw it completed,
 *    alternating SQLite and PostgreSQL for `--batch-rounds` rounds each.
 * 3. A Salesforce connector's first run of `--records` Contacts against the tests' local org with no API latency
 *    (bench/connector-run.ts, the service in this process), alternating likewise.
 *
 * Each PostgreSQL figure is given as a ratio of SQLite's from the same rounds; the machine's load average is printed,
 * since the two cores are shared. Only 127.0.0.1 is spoken to; the children and the cluster are stopped at the end.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { autocannon, type AutocannonRequest } from './autocannon.js';
import { benchScratch, runBatch, type Server } from './batch-runs.js';
import { connectorRun } from './connector-run.js';
import { cpuSeconds, treeCpuSeconds } from './process-usage.js';
import { startPrivatePostgres, type PrivatePostgres } from '../test/support/fleet.js';
import { spawnQuietService, type QuietServiceChild } from '../test/support/quiet-service.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    rows: { type: 'string', default: '10000' },
    records: { type: 'string', default: '5000' },
    'batch-rounds': { type: 'string', default: '2' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const ROWS = Number(args.rows);
const RECORDS = Number(args.records);
const BATCH_ROUNDS = Number(args['batch-rounds']);

const GOALS = { validateRatio: 0.6, p99Ms: 100, bulkRatio: 0.8 };

type Database = 'SQLite' | 'PostgreSQL';

interface LoadRound {
  answers: number; rps: number; p99: number; failed: number; serviceUsPerReq: number; postgresUsPerReq: number;
  statementsPerReq: number; commitsPerReq: number; walSyncsPerReq: number; walSyncMs: number;
  top: { query: string; calls: number; meanMs: number; totalMs: number }[];
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '-';
const log = (msg: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/** pg_stat_statements and pg_stat_wal of the cluster: reset before a round, read after it. */
class PostgresCounters {
  constructor(private readonly client: pg.Client) {}

  async reset(): Promise<void> {
    await this.client.query(`SELECT pg_stat_statements_reset(), pg_stat_reset_shared('wal'), pg_stat_reset()`);
  }

  async read(): Promise<{ statements: number; commits: number; walSyncs: number; walSyncMs: number; top: LoadRound['top'] }> {
    // The counters of the statistics collector lag by up to its flush interval: wait for it.
    await new Promise((r) => setTimeout(r, 600));
    const own = `query NOT LIKE '%pg_stat%'`;
    // One after another: a pg.Client runs one query at a time.
    const { rows: [sum] } = await this.client.query(`SELECT COALESCE(SUM(calls), 0)::float8 AS calls FROM pg_stat_statements WHERE ${own}`);
    const { rows: top } = await this.client.query(`SELECT query, calls::float8 AS calls, mean_exec_time AS mean, total_exec_time AS total
      FROM pg_stat_statements WHERE ${own} ORDER BY calls DESC, total_exec_time DESC LIMIT 8`);
    const { rows: [db] } = await this.client.query(`SELECT xact_commit::float8 AS commits FROM pg_stat_database WHERE datname = current_database()`);
    const { rows: [wal] } = await this.client.query(`SELECT wal_sync::float8 AS syncs, wal_sync_time AS ms FROM pg_stat_wal`);
    return {
      statements: Number(sum.calls), commits: Number(db.commits), walSyncs: Number(wal.syncs),
      walSyncMs: Number(wal.syncs) ? Number(wal.ms) / Number(wal.syncs) : NaN,
      top: top.map((r) => ({ query: String(r.query).replace(/\s+/g, ' ').slice(0, 90), calls: Number(r.calls), meanMs: Number(r.mean), totalMs: Number(r.total) })),
    };
  }
}

function requestsOf(keys: string[], bodies: string[]): AutocannonRequest[] {
  // Every body for every key, interleaved: with two keys, each connection alternates between the accounts.
  return bodies.flatMap((body) => keys.map((key) => ({
    method: 'POST', path: '/v1/validate', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body,
  })));
}

async function loadRound(
  service: QuietServiceChild, requests: AutocannonRequest[], postgres?: { pid: number; counters: PostgresCounters },
): Promise<LoadRound> {
  await postgres?.counters.reset();
  const service0 = cpuSeconds(service.pid);
  const postgres0 = postgres ? treeCpuSeconds(postgres.pid) : 0;
  const r = await autocannon({ url: service.url, connections: CONNECTIONS, duration: SECONDS, requests, timeout: 10 });
  const serviceCpu = cpuSeconds(service.pid) - service0;
  const postgresCpu = postgres ? treeCpuSeconds(postgres.pid) - postgres0 : NaN;
  const ok = r['2xx'];
  const counted = postgres ? await postgres.counters.read() : undefined;
  const per = (n: number | undefined) => (ok && n !== undefined ? n / ok : NaN);
  return {
    answers: ok, rps: ok / r.duration, p99: r.latency.p99, failed: r.non2xx + r.errors,
    serviceUsPerReq: per(serviceCpu * 1e6), postgresUsPerReq: per(postgresCpu * 1e6),
    statementsPerReq: per(counted?.statements), commitsPerReq: per(counted?.commits), walSyncsPerReq: per(counted?.walSyncs), walSyncMs: counted?.walSyncMs ?? NaN,
    top: counted?.top ?? [],
  };
}

async function main() {
  const started = Date.now();
  const load0 = os.loadavg();
  let cluster: PrivatePostgres | undefined;
  let client: pg.Client | undefined;
  const services: QuietServiceChild[] = [];
  const servers: Server[] = [];
  const scratch = benchScratch(() => servers);
  try {
    log('bench:pg: a private PostgreSQL cluster with its durable defaults, and a service on each database…');
    cluster = await startPrivatePostgres({ durable: true, settings: { shared_preload_libraries: 'pg_stat_statements', track_wal_io_timing: 'on' } });
    client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const counters = new PostgresCounters(client);
    const accounts = [{ name: 'one', credits: 2_000_000_000 }, { name: 'two', credits: 2_000_000_000 }];
    const env = { SHUTDOWN_GRACE_MS: '1000', RATE_LIMIT_PER_MINUTE: '100000000' };
    const onDatabase = {} as Record<Database, QuietServiceChild>;
    for (const [name, database] of [['SQLite', undefined], ['PostgreSQL', cluster.url]] as const) {
      const service = await spawnQuietService({ database, accounts, env });
      services.push(service);
      onDatabase[name] = service;
      servers.push({ ...service, apiKey: service.funded[0].apiKey });
    }
    const settings = await cluster.settings();
    const postgres = { pid: cluster.pid(), counters };

    // 1. /v1/validate, one account and two, alternating databases.
    const setups = [1, 2].flatMap((n) => (['SQLite', 'PostgreSQL'] as const).map((db) => ({
      db, accounts: n, name: `${db}, ${n === 1 ? 'one account' : 'two accounts'}`,
      requests: requestsOf(onDatabase[db].funded.slice(0, n).map((a) => a.apiKey), scratch.bodies),
    })));
    log('warm-up…');
    for (const s of setups) await autocannon({ url: onDatabase[s.db].url, connections: CONNECTIONS, duration: 2, requests: s.requests, timeout: 10 });
    const results = new Map<string, LoadRound[]>(setups.map((s) => [s.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of r % 2 ? [...setups].reverse() : setups) {
        const one = await loadRound(onDatabase[s.db], s.requests, s.db === 'PostgreSQL' ? postgres : undefined);
        results.get(s.name)!.push(one);
        log(`round ${r + 1}/${ROUNDS} ${s.name}: ${fmt(one.rps)} req/s, p99 ${one.p99} ms${one.failed ? `, ${one.failed} failed` : ''}`);
      }
    }
    const summary = (name: string) => {
      const rs = results.get(name)!;
      const m = (f: (x: LoadRound) => number) => median(rs.map(f));
      return {
        rps: m((x) => x.rps), p99: m((x) => x.p99), failed: rs.reduce((sum, x) => sum + x.failed, 0),
        serviceUs: m((x) => x.serviceUsPerReq), postgresUs: m((x) => x.postgresUsPerReq), statements: m((x) => x.statementsPerReq),
        commits: m((x) => x.commitsPerReq), walSyncs: m((x) => x.walSyncsPerReq), walSyncMs: m((x) => x.walSyncMs), last: rs[rs.length - 1],
      };
    };
    /** The median over rounds of one setup's req/s over another's in the same round. */
    const pairedRatio = (a: string, b: string) =>
      median(results.get(a)!.map((x, i) => x.rps / results.get(b)![i].rps));
    const ratio1 = pairedRatio('PostgreSQL, one account', 'SQLite, one account');
    const ratio2 = pairedRatio('PostgreSQL, two accounts', 'SQLite, two accounts');
    const twoOverOne = pairedRatio('PostgreSQL, two accounts', 'PostgreSQL, one account');
    const sqliteTwoOverOne = pairedRatio('SQLite, two accounts', 'SQLite, one account');
    const sqlite1 = summary('SQLite, one account');
    const sqlite2 = summary('SQLite, two accounts');
    const pg1 = summary('PostgreSQL, one account');
    const pg2 = summary('PostgreSQL, two accounts');

    // 2. CSV batches, alternating.
    const { file } = await scratch.files.write(ROWS);
    const batchRates: Record<Database, number[]> = { SQLite: [], PostgreSQL: [] };
    for (let r = 0; r < BATCH_ROUNDS; r++) {
      for (const db of r % 2 ? (['PostgreSQL', 'SQLite'] as const) : (['SQLite', 'PostgreSQL'] as const)) {
        const run = await runBatch(servers[db === 'SQLite' ? 0 : 1], file, ROWS, `${db} ${r + 1}`);
        if (run.status !== 'completed') throw new Error(`the ${db} batch ${run.note}`);
        batchRates[db].push(run.endToEndRate);
        log(`batch ${r + 1}/${BATCH_ROUNDS} ${db}: ${fmt(run.endToEndRate)} rows/s end to end (${fmt(run.processingRate)} processing)`);
      }
    }

    // 3. Connector runs, alternating.
    const connectorRates: Record<Database, number[]> = { SQLite: [], PostgreSQL: [] };
    for (let r = 0; r < BATCH_ROUNDS; r++) {
      for (const db of r % 2 ? (['PostgreSQL', 'SQLite'] as const) : (['SQLite', 'PostgreSQL'] as const)) {
        const { seconds } = await connectorRun({ records: RECORDS, latencyMs: 0, database: db === 'SQLite' ? undefined : cluster.url });
        connectorRates[db].push(RECORDS / seconds);
        log(`connector ${r + 1}/${BATCH_ROUNDS} ${db}: ${fmt(RECORDS / seconds)} records/s`);
      }
    }

    const load1 = os.loadavg();
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    const batchS = median(batchRates.SQLite); const batchP = median(batchRates.PostgreSQL);
    const connS = median(connectorRates.SQLite); const connP = median(connectorRates.PostgreSQL);
    const batchRatio = median(batchRates.PostgreSQL.map((p, i) => p / batchRates.SQLite[i]));
    const connRatio = median(connectorRates.PostgreSQL.map((p, i) => p / connectorRates.SQLite[i]));
    console.log(`\nbench:pg, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${os.cpus().length} cores,` +
      ` load average ${load0.map((l) => l.toFixed(1)).join(' ')} at the start and ${load1.map((l) => l.toFixed(1)).join(' ')} at the end;` +
      ` PostgreSQL ${settings}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s, medians\n`);
    console.log('| measure | SQLite | PostgreSQL | PostgreSQL / SQLite | goal |');
    console.log('|---|---:|---:|---:|---|');
    console.log(`| \`/v1/validate\` req/s, one account | ${fmt(sqlite1.rps)} | ${fmt(pg1.rps)} | ${fmt(ratio1, 2)} | ≥ ${GOALS.validateRatio} ${verdict(ratio1 >= GOALS.validateRatio)} |`);
    console.log(`| \`/v1/validate\` p99 ms, one account | ${fmt(sqlite1.p99)} | ${fmt(pg1.p99)} | | ≤ ${GOALS.p99Ms} ms ${verdict(pg1.p99 <= GOALS.p99Ms)} |`);
    console.log(`| \`/v1/validate\` req/s, two accounts | ${fmt(sqlite2.rps)} | ${fmt(pg2.rps)} | ${fmt(ratio2, 2)} | |`);
    console.log(`| two accounts / one | ${fmt(sqliteTwoOverOne, 2)} | ${fmt(twoOverOne, 2)} | | PostgreSQL no better than one (≤ 1.1) ${verdict(twoOverOne <= 1.1)} |`);
    console.log(`| \`/v1/validate\` p99 ms, two accounts | ${fmt(sqlite2.p99)} | ${fmt(pg2.p99)} | | |`);
    console.log(`| ${fmt(ROWS)}-row CSV batch, rows/s end to end | ${fmt(batchS)} | ${fmt(batchP)} | ${fmt(batchRatio, 2)} | ≥ ${GOALS.bulkRatio} ${verdict(batchRatio >= GOALS.bulkRatio)} |`);
    console.log(`| connector run (${fmt(RECORDS)} Contacts, no API latency), records/s | ${fmt(connS)} | ${fmt(connP)} | ${fmt(connRatio, 2)} | ≥ ${GOALS.bulkRatio} ${verdict(connRatio >= GOALS.bulkRatio)} |`);
    console.log(`| failed requests (all rounds) | ${sqlite1.failed + sqlite2.failed} | ${pg1.failed + pg2.failed} | | 0 |`);

    console.log('\nWhere the time goes, per `/v1/validate` answer (medians of the rounds):\n');
    console.log('| | service CPU µs | PostgreSQL CPU µs | statements | transactions committed | WAL flushes | ms per WAL flush |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const [name, s] of [['SQLite, one account', sqlite1], ['PostgreSQL, one account', pg1], ['PostgreSQL, two accounts', pg2]] as const) {
      console.log(`| ${name} | ${fmt(s.serviceUs)} | ${fmt(s.postgresUs)} | ${fmt(s.statements, 2)} | ${fmt(s.commits, 3)} | ${fmt(s.walSyncs, 3)} | ${fmt(s.walSyncMs, 1)} |`);
    }
    console.log('\nPostgreSQL, one account, last round: the most frequent statements (pg_stat_statements)\n');
    console.log('| calls per answer | mean ms | statement |');
    console.log('|---:|---:|---|');
    for (const t of pg1.last.top) console.log(`| ${fmt(t.calls / pg1.last.answers, 3)} | ${fmt(t.meanMs, 3)} | \`${t.query.replace(/\|/g, '\\|')}\` |`);
    console.log(`\nbench:pg took ${fmt((Date.now() - started) / 1000)} s.`);
  } finally {
    await client?.end().catch(() => undefined);
    await scratch.cleanUp();
    await cluster?.close();
  }
}

await main();
