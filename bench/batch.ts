/**
 * The bulk pipeline (CSV batches, docs/batches.md) beside the request path, from one run on one machine:
 *
 *     npm run bench:batch [-- --quick --rows-large 1000000 --rows-small 100000 --rows-throughput 100000 --rounds 3
 *                            --duration 10 --connections 32 --warmup 3 --rows-interference 100000 --latency-rounds 3
 *                            --latency-duration 15 --latency-connections 4 --latency-rate R]
 *     npm run bench:batch -- --against REV [--current REV --quick --scan-only --rows-throughput 100000 --rounds 5
 *                            --rows-scan 500000 --scan-rounds 7 --warmup 0]
 *
 * `--quick` (about a minute) uses 20K/100K-row files for the memory runs instead of 100K/1M, 30K-row throughput
 * batches, shorter and fewer rounds; `--rows-large 0` skips the large memory run. Progress goes to stderr, the
 * markdown tables to stdout.
 *
 * `--against REV` compares instead of measuring against the request path: the batch throughput and the upload+scan of
 * a large file, on this checkout and on the service at git revision REV, in alternating rounds of one run
 * (bench/batch-against.ts); `--scan-only` keeps only the upload+scan, with more rounds; `--current REV` puts the
 * service at REV in this checkout's place (one commit against its parent).
 *
 * One service child (test/support/quiet-service.ts: the real service on a throw-away SQLite and batch folder, network
 * checks off, uploads up to 1 GiB, default batch knobs unless BATCH_* are set in the environment) serves everything; the load generator and
 * the CSV writer run here, in another process. Every row is the same contact as a bench:validate body (real US
 * addresses from OpenAddresses via EthanRBrown/rrad, e-mails and phones as users type them, bench/validate-bodies.ts):
 * one-line addresses in `Address`, or in `Street,Unit,City,State,Zip` for the bodies that send an address object, with
 * `Email`, `Phone`, `Country`. The CSV files are written to a temp folder as streams.
 *
 * 1. Throughput: after a warm-up of both paths, rounds alternate (request path, batch, request path, batch, …) and each
 *    reports the median of its rounds. Request path: the rows as POST /v1/validate bodies from autocannon with 32
 *    connections for a fixed time; rows/s = 2xx answers / duration. Batch: a file of `--rows-throughput` rows uploaded
 *    (streamed, ?smtp=false), polled every 100 ms until completed. Two batch rates are shown: "processing" is
 *    rows_total / (finished_at - started_at) from the service's own clock; "end-to-end" is rows_total / (time from the
 *    first byte of the upload until the poll that saw `completed`), which includes upload, scan and up to one poll
 *    interval. The verdict (target: batch >= 1.5x the request path) uses end-to-end, the stricter of the two.
 *    The request path's client (autocannon) shares the 2 CPUs with the service; the batch path has no such client:
 *    that is part of what a batch saves, and the per-row server CPU (from /proc) is shown to separate the two.
 *    Each batch's result file is downloaded and its rows counted against the input's.
 * 2. Memory: a `--rows-small` and a `--rows-large` batch, each alone, with the service child's resident set sampled
 *    from /proc/<pid>/status every 100 ms (VmRSS; VmHWM is reset through /proc/<pid>/clear_refs before each run and
 *    read too, so a peak between two samples is not missed). Peak RSS is shown while the batch runs and, separately,
 *    while its result is downloaded. Flat memory: the large batch's peak RSS in the last quarter of its run no more
 *    than 1.15x its peak in the first quarter (a cost per row kept in memory would rise), beside the large batch's
 *    peak over the small one's (informational: V8 sizes its heap by what the process did before, so the RSS between
 *    runs drifts by a hundred MiB or more).
 * 3. Interference: p99 of POST /v1/validate under a moderate fixed load, with no batch, then while a 100K-row batch
 *    (`--rows-interference`) runs; the load starts once the batch is `running` and lasts at most 70% of the batch's
 *    unloaded time (from step 1), so that it ends before the batch does; the batch is then canceled. Rounds
 *    alternate (no batch, batch, …), after a 2 s pause each, and the medians are compared. Target: p99 with the
 *    batch <= 2x p99 without. The load is a fixed rate (default: 20% of the request path's measured throughput, at
 *    least 20/s, at most 400/s) over 4 connections, with autocannon's coordinated-omission correction on: at that rate
 *    the service is far from saturation without a batch, so p99 reflects the service time of one request, and the
 *    same offered load with a batch shows what the batch adds (event-loop turns taken by batch records, SQLite
 *    writes, CPU), not queueing from a saturated server. A closed loop at 32 connections would only measure
 *    saturation (the batch and the requests sharing one event loop), and its p99 would be dominated by queueing.
 *
 * Only 127.0.0.1 is spoken to; every wait is bounded; the child is stopped at the end and on errors. The exit code is
 * 0 whatever the numbers (this is a measurement), and non-zero only when the service fails to start, to answer a first
 * request correctly, or dies during the run.
 */
import { benchAgainst } from './batch-against.js';
import {
  api, batchDeadlineMs, batchKnobs, BENCH_SERVICE, benchScratch, type BatchRun, type BatchView, f0, f1, f2, FINAL, load,
  type LoadRun, log, machineLine, md, median, mib, pollUntil, preflight, printEnd, requestsFor, runBatch, type Server,
  sleep, startBatch, startServer,
} from './batch-runs.js';
import { serviceChild } from './git-worktree.js';
import { alive } from './process-usage.js';

const TARGET_THROUGHPUT_RATIO = 1.5;
const TARGET_P99_RATIO = 2;
/** A pause before each interference round's measurement without a batch. */
const SETTLE_MS = 2_000;

// ---------------------------------------------------------------------------------------------------------------------
// Settings

interface Settings {
  quick: boolean;
  rowsSmall: number;
  rowsLarge: number;
  rowsThroughput: number;
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  rowsInterference: number;
  latencyRounds: number;
  latencyDuration: number;
  latencyConnections: number;
  /** Requests per second of the interference load; 0: derived from the measured throughput. */
  latencyRate: number;
  /** A git revision to compare this checkout's batch path with (bench/batch-against.ts), or null. */
  against: string | null;
  /** With `against`: a git revision measured instead of this checkout, or null. */
  current: string | null;
  scanOnly: boolean;
  rowsScan: number;
  scanRounds: number;
}

function readSettings(argv: string[]): Settings {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${JSON.stringify(argv[i])}`);
    if (m[2] !== undefined) flags.set(m[1], m[2]);
    else if (m[1] === 'quick' || m[1] === 'scan-only') flags.set(m[1], '1');
    else if (i + 1 < argv.length) flags.set(m[1], argv[++i]);
    else throw new Error(`--${m[1]} needs a value`);
  }
  const known = new Set([
    'quick', 'rows-small', 'rows-large', 'rows-throughput', 'rows-interference', 'rounds', 'duration', 'warmup',
    'connections', 'latency-rounds', 'latency-duration', 'latency-connections', 'latency-rate', 'against', 'current', 'scan-only',
    'rows-scan', 'scan-rounds',
  ]);
  for (const name of flags.keys()) if (!known.has(name)) throw new Error(`unknown flag --${name}`);
  const quick = flags.has('quick') && flags.get('quick') !== '0';
  const against = flags.get('against') || null;
  const scanOnly = flags.has('scan-only') && flags.get('scan-only') !== '0';
  if ((scanOnly || flags.has('current')) && !against) throw new Error('--scan-only and --current compare two revisions: they need --against REV');
  const number = (name: string, full: number, short: number, min: number) => {
    const raw = flags.get(name);
    const value = raw === undefined || raw === '' ? (quick ? short : full) : Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number >= ${min}`);
    return value;
  };
  return {
    quick,
    rowsSmall: number('rows-small', 100_000, 20_000, 1),
    rowsLarge: number('rows-large', 1_000_000, 100_000, 0),
    rowsThroughput: number('rows-throughput', 100_000, 30_000, 100),
    rowsInterference: number('rows-interference', 100_000, 100_000, 100),
    latencyRounds: number('latency-rounds', 3, 2, 1),
    // Two revisions differ by less than the request path and the batch do: more rounds.
    rounds: against ? number('rounds', 5, 3, 1) : number('rounds', 3, 2, 1),
    duration: number('duration', 10, 4, 1),
    warmup: number('warmup', 3, 2, 0),
    connections: number('connections', 32, 32, 1),
    latencyDuration: number('latency-duration', 15, 4, 1),
    latencyConnections: number('latency-connections', 4, 4, 1),
    latencyRate: number('latency-rate', 0, 0, 0),
    against,
    current: flags.get('current') || null,
    scanOnly,
    rowsScan: number('rows-scan', 500_000, 500_000, 100),
    scanRounds: scanOnly ? number('scan-rounds', 15, 9, 1) : number('scan-rounds', 7, 5, 1),
  };
}


// ---------------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  let settings: Settings;
  try {
    settings = readSettings(process.argv.slice(2));
  } catch (err) {
    console.error(`bench:batch: ${(err as Error).message} (see the flags at the top of bench/batch.ts)`);
    return 2;
  }
  if (settings.against) return benchAgainst({ ...settings, against: settings.against, warmup: settings.warmup > 0 });
  const started = performance.now();
  console.log(machineLine());
  console.log(
    `bench:batch${settings.quick ? ' --quick' : ''}: rows = address + email + phone (EMAIL_NETWORK_CHECKS=false, SQLite); ` +
      `throughput: ${settings.rounds} alternating round(s) of ${settings.duration} s at ${settings.connections} connections ` +
      `vs a ${settings.rowsThroughput}-row batch; memory: ${settings.rowsSmall}` +
      `${settings.rowsLarge ? ` and ${settings.rowsLarge}` : ''} rows; interference: ${settings.latencyRounds} round(s) with a ` +
      `${settings.rowsInterference}-row batch`,
  );

  let server: Server | null = null;
  const { bodies, files, cleanUp } = benchScratch(() => (server ? [server] : []));

  try {
    server = await startServer(serviceChild(BENCH_SERVICE));
    await preflight(server, bodies[0]);
  } catch (err) {
    console.error(`bench:batch: ${(err as Error).message}`);
    await cleanUp();
    return 1;
  }
  const knobs = Object.entries(batchKnobs()).map(([k, v]) => `${k}=${v}`).join(' ');
  console.log(`service pid ${server.pid}; batch knobs: ${knobs || 'defaults (BATCH_CHUNK_ROWS 500, BATCH_CONCURRENCY 96, BATCH_MAX_IN_FLIGHT 192, BATCH_WORKERS 2)'}`);

  const requests = requestsFor(server, bodies);
  const problems: string[] = [];
  const reqRounds: LoadRun[] = [];
  const batchRounds: BatchRun[] = [];
  const memoryRuns: BatchRun[] = [];
  const latencyRounds: { idle: LoadRun; busy: LoadRun; batchRowsPerS: number }[] = [];
  let latencyRate = 0;
  let latencyDuration = 0;
  const latencyNotes: string[] = [];
  let crashed = false;

  try {
    // Files first, so that writing them does not fall inside a measurement.
    log('writing CSV files');
    const warmRows = 2_000;
    const sizes = [warmRows, settings.rowsThroughput, settings.rowsInterference, settings.rowsSmall, settings.rowsLarge];
    for (const rows of new Set(sizes.filter((n) => n > 0))) {
      const { bytes } = await files.write(rows);
      log(`  ${rows} rows: ${f1(mib(bytes))} MiB`);
    }

    // Warm-up: both paths once.
    if (settings.warmup > 0) {
      log('warm-up');
      const w = await load(server, requests, settings.connections, settings.warmup);
      if (w.non2xx || w.errors) problems.push(`warm-up of /v1/validate: ${w.non2xx} non-2xx, ${w.errors} errors`);
      const wb = await runBatch(server, files.get(warmRows).file, warmRows, 'warm-up');
      if (wb.note) problems.push(`warm-up batch: ${wb.note}`);
    }

    // 1. Throughput, alternating.
    for (let i = 1; i <= settings.rounds; i++) {
      log(`throughput round ${i}/${settings.rounds}: request path`);
      const r = await load(server, requests, settings.connections, settings.duration);
      reqRounds.push(r);
      log(`  ${f0(r.rps)} rows/s`);
      log(`throughput round ${i}/${settings.rounds}: batch of ${settings.rowsThroughput} rows`);
      const b = await runBatch(server, files.get(settings.rowsThroughput).file, settings.rowsThroughput, `throughput-${i}`);
      batchRounds.push(b);
      log(`  ${f0(b.processingRate)} rows/s processing, ${f0(b.endToEndRate)} rows/s end-to-end${b.note ? ` (${b.note})` : ''}`);
    }

    // 3. Interference (before the long memory runs, so that a slow large batch cannot cut it out), in rounds: the
    //    load without a batch, then the same load while a fresh batch runs.
    const reqRps = median(reqRounds.map((r) => r.rps));
    const batchRate = median(batchRounds.map((b) => b.processingRate));
    latencyRate = settings.latencyRate || Math.max(20, Math.min(400, Math.round((0.2 * reqRps) / 10) * 10 || 20));
    // Stop the load before the batch can finish (it slows a little under the load): 70% of its unloaded time.
    const expectedBatchS = Number.isNaN(batchRate) ? Infinity : settings.rowsInterference / batchRate;
    latencyDuration = Math.max(1, Math.min(settings.latencyDuration, Math.floor(0.7 * expectedBatchS)));
    if (latencyDuration < settings.latencyDuration) {
      latencyNotes.push(`load runs ${latencyDuration} s per condition so that it ends before the ${settings.rowsInterference}-row batch`);
    }
    for (let i = 1; i <= settings.latencyRounds; i++) {
      await sleep(SETTLE_MS); // what the previous step left (garbage, a WAL checkpoint) settles first
      log(`interference round ${i}/${settings.latencyRounds}: ${latencyRate} req/s over ${settings.latencyConnections} connections, ${latencyDuration} s, no batch`);
      const idle = await load(server, requests, settings.latencyConnections, latencyDuration, latencyRate);
      log(`  p99 ${f0(idle.p99)} ms`);
      log(`interference round ${i}/${settings.latencyRounds}: the same load while a ${settings.rowsInterference}-row batch runs`);
      const { id, t0 } = await startBatch(server, files.get(settings.rowsInterference).file, `interference-${i}`, settings.rowsInterference);
      const running = await pollUntil(server, id, t0 + 60_000, (v) => v.status === 'running' && v.rows_done > 0);
      if (running.status !== 'running') throw new Error(`the interference batch is ${running.status}, not running`);
      const busy = await load(server, requests, settings.latencyConnections, latencyDuration, latencyRate);
      const after = (await api<BatchView>(server, 'GET', `/v1/batches/${id}`)).json;
      const batchRowsPerS = (after.rows_done - running.rows_done) / busy.duration;
      log(`  p99 ${f0(busy.p99)} ms; batch ${after.status} at ${after.rows_done}/${after.rows_total} rows, ${f0(batchRowsPerS)} rows/s under the load`);
      if (after.status !== 'running') latencyNotes.push(`round ${i}: the batch was ${after.status} when the load ended (p99 partly without it)`);
      latencyRounds.push({ idle, busy, batchRowsPerS });
      // Not needed any more: cancel it (its remaining rows would only delay what follows).
      const del = await api(server, 'DELETE', `/v1/batches/${id}`);
      if (del.status !== 204 && del.status !== 200) problems.push(`DELETE of an interference batch answered ${del.status}`);
      const gone = await pollUntil(server, id, performance.now() + 30_000, (v) => FINAL.has(v.status)).catch(() => null);
      if (gone && gone.status !== 'canceled') problems.push(`an interference batch is ${gone.status} after DELETE`);
      await sleep(1_000); // chunks in flight wind down
    }

    // 2. Memory.
    for (const rows of [settings.rowsSmall, ...(settings.rowsLarge ? [settings.rowsLarge] : [])]) {
      log(`memory: batch of ${rows} rows (bounded at ${(batchDeadlineMs(rows) / 1000).toFixed(0)} s)`);
      const m = await runBatch(server, files.get(rows).file, rows, `memory-${rows}`, { memory: true });
      memoryRuns.push(m);
      log(`  peak RSS ${f0(m.peakRssMiB)} MiB (before ${f0(m.rssBeforeMiB)}), ${f0(m.processingRate)} rows/s${m.note ? ` (${m.note})` : ''}`);
    }
  } catch (err) {
    problems.push(`run stopped: ${(err as Error).message}`);
  } finally {
    crashed = server !== null && !alive(server);
    if (crashed) problems.push(`the service exited during the run (${server!.child.signalCode ?? server!.child.exitCode})\n${server!.stderr().trim()}`);
    const stderr = server?.stderr().trim();
    await cleanUp();
    if (stderr && !crashed) problems.push(`the service wrote on stderr:\n${stderr.slice(-2_000)}`);
  }

  // ------------------------------------------------------------------------------------------------------------------
  // Report
  console.log('');
  if (reqRounds.length) {
    const per: string[][] = [['round', 'request path rows/s', 'p99 ms', 'non-2xx+errors', 'batch rows/s processing', 'batch rows/s end-to-end', 'upload+scan s', 'result rows']];
    reqRounds.forEach((r, i) => {
      const b = batchRounds[i];
      per.push([
        String(i + 1), f0(r.rps), f0(r.p99), String(r.non2xx + r.errors),
        f0(b?.processingRate), f0(b?.endToEndRate), f2(b?.uploadS), b ? `${b.resultRows ?? '-'}/${b.rows}` : '-',
      ]);
    });
    console.log('### Throughput, per round');
    console.log('');
    console.log(md(per));
    console.log('');

    const req = {
      rps: median(reqRounds.map((r) => r.rps)), cpu: median(reqRounds.map((r) => r.cpuUsPerRow)),
      p50: median(reqRounds.map((r) => r.p50)), p99: median(reqRounds.map((r) => r.p99)),
      failed: reqRounds.reduce((s, r) => s + r.non2xx + r.errors, 0),
    };
    const proc = median(batchRounds.map((b) => b.processingRate));
    const e2e = median(batchRounds.map((b) => b.endToEndRate));
    const bcpu = median(batchRounds.map((b) => b.cpuUsPerRow));
    const rowsFailed = batchRounds.reduce((s, b) => s + b.rowsFailed, 0);
    console.log(`### Throughput (median of ${reqRounds.length} round(s); address + e-mail + phone per row, network checks off)`);
    console.log('');
    console.log(md([
      ['path', 'rows/s', 'vs request path', 'server CPU µs/row', 'notes'],
      [`POST /v1/validate, ${settings.connections} connections, ${settings.duration} s`, f0(req.rps), '1.00', f0(req.cpu),
        `p50 ${f0(req.p50)} ms, p99 ${f0(req.p99)} ms, ${req.failed} failed`],
      [`batch of ${settings.rowsThroughput} rows, processing (started_at → finished_at)`, f0(proc), f2(proc / req.rps), f0(bcpu),
        `${rowsFailed} rows failed`],
      [`batch of ${settings.rowsThroughput} rows, end-to-end (upload → completed)`, f0(e2e), f2(e2e / req.rps), f0(bcpu),
        `upload+scan ${f2(median(batchRounds.map((b) => b.uploadS)))} s`],
    ]));
    console.log('');
    const ratio = e2e / req.rps;
    console.log(
      `throughput ratio batch/request path: ${f2(ratio)} end-to-end (${f2(proc / req.rps)} processing); target >= ${TARGET_THROUGHPUT_RATIO} -> ` +
        `${ratio >= TARGET_THROUGHPUT_RATIO ? 'PASS' : 'FAIL'}`,
    );
    console.log('');
  }

  if (memoryRuns.length) {
    console.log('### Memory of the service process (peak RSS, /proc VmRSS sampled every 100 ms and VmHWM)');
    console.log('');
    const rows: string[][] = [[
      'batch rows', 'file MiB', 'RSS before MiB', 'peak RSS running MiB', 'peak 1st / last quarter MiB',
      'peak RSS result download MiB', 'rows/s processing', 'upload+scan s', 'result rows', 'notes',
    ]];
    for (const m of memoryRuns) {
      rows.push([
        String(m.rows), f1(mib(files.get(m.rows).bytes)), f0(m.rssBeforeMiB), f0(m.peakRssMiB),
        `${f0(m.rssQuarters?.first)} / ${f0(m.rssQuarters?.last)}`, f0(m.peakRssResultMiB),
        f0(m.processingRate), f2(m.uploadS), `${m.resultRows ?? '-'}/${m.rows}`, m.note || '-',
      ]);
    }
    console.log(md(rows));
    console.log('');
    // Flat: the large batch's resident set does not rise from its first quarter to its last (a leak per row would),
    // and its peak is near the small batch's. V8 sizes its heap by what the process did before, so the RSS before a
    // run drifts by a hundred MiB or more between runs: the within-run rise is the steadier sign of the two.
    const large = memoryRuns[memoryRuns.length - 1];
    const rise = (large.rssQuarters?.last ?? NaN) / (large.rssQuarters?.first ?? NaN);
    let line = `${large.rows} rows: peak RSS last quarter / first quarter ${f2(rise)}`;
    if (memoryRuns.length === 2) {
      const small = memoryRuns[0];
      line += `; peak RSS ${large.rows} rows / ${small.rows} rows ${f2((large.peakRssMiB ?? NaN) / (small.peakRssMiB ?? NaN))} ` +
        `for ${f0(large.rows / small.rows)}x the rows`;
    }
    console.log(`${line} (flat: rise <= 1.15) -> ${Number.isNaN(rise) ? 'unknown' : rise <= 1.15 ? 'FLAT' : 'GROWS'}`);
    console.log('');
  }

  if (latencyRounds.length) {
    console.log(
      `### POST /v1/validate latency under a fixed load of ${latencyRate} req/s (${settings.latencyConnections} connections, ` +
        `${latencyDuration} s per condition, median of ${latencyRounds.length} round(s))`,
    );
    console.log('');
    const lat = (label: string, runs: LoadRun[], extra: string) => [
      label, f0(median(runs.map((r) => r.rps))), f1(median(runs.map((r) => r.p50))), f1(median(runs.map((r) => r.p99))),
      f0(Math.max(...runs.map((r) => r.max))), String(runs.reduce((n, r) => n + r.non2xx + r.errors, 0)), extra,
    ];
    const idle = latencyRounds.map((r) => r.idle);
    const busy = latencyRounds.map((r) => r.busy);
    console.log(md([
      ['condition', 'req/s done', 'p50 ms', 'p99 ms', 'max ms (worst round)', 'non-2xx+errors', 'p99 per round'],
      lat('no batch', idle, idle.map((r) => f0(r.p99)).join(', ')),
      lat(`${settings.rowsInterference}-row batch running`, busy, busy.map((r) => f0(r.p99)).join(', ')),
    ]));
    console.log('');
    const idleP99 = median(idle.map((r) => r.p99));
    const ratio = median(busy.map((r) => r.p99)) / Math.max(idleP99, 1);
    console.log(
      `batch rows/s while the load ran: ${latencyRounds.map((r) => f0(r.batchRowsPerS)).join(', ')} ` +
        `(unloaded: ${f0(median(batchRounds.map((b) => b.processingRate)))})`,
    );
    console.log(`p99 ratio with/without batch: ${f2(ratio)} (target <= ${TARGET_P99_RATIO}) -> ${ratio <= TARGET_P99_RATIO ? 'PASS' : 'FAIL'}` +
      `${idleP99 < 1 ? ' (p99 without batch under 1 ms: divided by 1 ms)' : ''}`);
    for (const n of latencyNotes) console.log(`note: ${n}`);
    console.log('');
  }

  printEnd(problems, started);
  return crashed ? 1 : 0;
}

process.exitCode = await main();
