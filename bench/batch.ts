/**
 * The bulk pipeline (CSV batches, docs/batches.md) beside the request path, from one run on one machine:
 *
 *     npm run bench:batch [-- --quick --rows-large 1000000 --rows-small 100000 --rows-throughput 100000 --rounds 3
 *                            --duration 10 --connections 32 --warmup 3 --rows-interference 100000 --latency-rounds 3
 *                            --latency-duration 15 --latency-connections 4 --latency-rate R]
 *
 * `--quick` (about a minute) uses 20K/100K-row files for the memory runs instead of 100K/1M, 30K-row throughput
 * batches, shorter and fewer rounds; `--rows-large 0` skips the large memory run. Progress goes to stderr, the
 * markdown tables to stdout.
 *
 * One service child (bench/servers/service.ts: the real service on a throw-away SQLite and batch folder, network
 * checks off, default batch knobs unless BATCH_* are set in the environment) serves everything; the load generator and
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
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse';
import { validateBodies } from './validate-bodies.js';
import { autocannon, type AutocannonRequest, type AutocannonResult } from './autocannon.js';
import { alive, cpuSeconds, memoryKb, RssSampler, rssMiB, startServer, stopServer, type Server } from './service-child.js';

const TARGET_THROUGHPUT_RATIO = 1.5;
const TARGET_P99_RATIO = 2;
const POLL_MS = 100;
/** A pause before each interference round's measurement without a batch. */
const SETTLE_MS = 2_000;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');


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
}

function readSettings(argv: string[]): Settings {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) throw new Error(`unexpected argument ${JSON.stringify(argv[i])}`);
    if (m[2] !== undefined) flags.set(m[1], m[2]);
    else if (m[1] === 'quick') flags.set(m[1], '1');
    else if (i + 1 < argv.length) flags.set(m[1], argv[++i]);
    else throw new Error(`--${m[1]} needs a value`);
  }
  const known = new Set([
    'quick', 'rows-small', 'rows-large', 'rows-throughput', 'rows-interference', 'rounds', 'duration', 'warmup',
    'connections', 'latency-rounds', 'latency-duration', 'latency-connections', 'latency-rate',
  ]);
  for (const name of flags.keys()) if (!known.has(name)) throw new Error(`unknown flag --${name}`);
  const quick = flags.has('quick') && flags.get('quick') !== '0';
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
    rounds: number('rounds', 3, 2, 1),
    duration: number('duration', 10, 4, 1),
    warmup: number('warmup', 3, 2, 0),
    connections: number('connections', 32, 32, 1),
    latencyDuration: number('latency-duration', 15, 4, 1),
    latencyConnections: number('latency-connections', 4, 4, 1),
    latencyRate: number('latency-rate', 0, 0, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Rows: the bench:validate bodies, as JSON bodies and as CSV lines

const HEADER = ['Address', 'Street', 'Unit', 'City', 'State', 'Zip', 'Email', 'Phone', 'Country'];
const BATCH_QUERY = new URLSearchParams({
  smtp: 'false',
  address_columns: 'Address,Street,Unit,City,State,Zip',
  email_column: 'Email',
  phone_column: 'Phone',
  country_column: 'Country',
});

interface Body {
  address: string | { line1: string; line2?: string; city: string; state: string; postal_code: string };
  email: string;
  phone: string;
  country?: string;
}

const csvCell = (v: string) => (/[",\r\n;\t]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function csvLineOf(body: Body): string {
  const a = body.address;
  const cells = typeof a === 'string'
    ? [a, '', '', '', '', '']
    : ['', a.line1, a.line2 ?? '', a.city, a.state, a.postal_code];
  return [...cells, body.email, body.phone, body.country ?? ''].map(csvCell).join(',');
}

/** Writes a CSV file of `rows` rows (cycling through `lines`) as a stream, a thousand lines per write. */
async function writeCsv(file: string, rows: number, lines: string[]): Promise<number> {
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
  });
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', r)));
  await write(`${HEADER.join(',')}\r\n`);
  for (let i = 0; i < rows;) {
    const n = Math.min(1_000, rows - i);
    let block = '';
    for (let k = 0; k < n; k++) block += `${lines[(i + k) % lines.length]}\r\n`;
    i += n;
    await write(block);
  }
  out.end();
  await done;
  return fs.statSync(file).size;
}

// ---------------------------------------------------------------------------------------------------------------------
// HTTP helpers (127.0.0.1 only)

async function api<T>(server: Server, method: string, pathname: string, timeoutMs = 10_000): Promise<{ status: number; json: T }> {
  const res = await fetch(server.url + pathname, {
    method, headers: { authorization: `Bearer ${server.apiKey}` }, signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: T;
  try {
    json = JSON.parse(text) as T;
  } catch {
    json = { raw: text.slice(0, 500) } as T;
  }
  return { status: res.status, json };
}

/** Sends the file as the body of POST /v1/batches, streamed from disk. */
function upload(server: Server, file: string, name: string, timeoutMs: number): Promise<{ status: number; json: BatchCreated }> {
  return new Promise((resolve, reject) => {
    const size = fs.statSync(file).size;
    const query = new URLSearchParams(BATCH_QUERY);
    query.set('name', name);
    const req = http.request(new URL(`/v1/batches?${query}`, server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'text/csv', 'content-length': String(size) },
      timeout: timeoutMs,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => { text += d; }).on('error', reject).on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as BatchCreated });
        } catch {
          reject(new Error(`upload answered ${res.statusCode}: ${text.slice(0, 500)}`));
        }
      });
    });
    req.once('timeout', () => req.destroy(new Error(`upload not answered within ${timeoutMs / 1000} s`)));
    req.once('error', reject);
    fs.createReadStream(file).once('error', (e) => req.destroy(e)).pipe(req);
  });
}

/** Counts the data rows of a batch's result (csv-parse, so a quoted line break would not miscount). */
async function countResultRows(server: Server, id: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(`/v1/batches/${id}/result`, server.url), {
      headers: { authorization: `Bearer ${server.apiKey}` }, timeout: timeoutMs,
    }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`result answered ${res.statusCode}`));
        return;
      }
      let rows = -1; // the header
      const parser = res.pipe(parse({ relax_column_count: true }));
      parser.on('data', () => { rows++; }).once('error', reject).once('end', () => resolve(rows));
    });
    const timer = setTimeout(() => req.destroy(new Error(`result not read within ${timeoutMs / 1000} s`)), timeoutMs);
    req.once('close', () => clearTimeout(timer));
    req.once('timeout', () => req.destroy(new Error('result stream stalled')));
    req.once('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Batches

interface BatchCreated {
  batch_id: string;
  status: string;
  rows_total: number;
  detail?: string;
}

interface BatchView {
  batch_id: string;
  status: string;
  reason: string | null;
  rows_total: number;
  rows_done: number;
  rows_failed: number;
  credits_charged: number;
  started_at: string | null;
  finished_at: string | null;
}

interface BatchRun {
  label: string;
  rows: number;
  status: string;
  /** Upload start to 202, s. */
  uploadS: number;
  /** started_at to finished_at (service clock), s. */
  processingS: number;
  /** Upload start to the poll that saw the end, s. */
  endToEndS: number;
  processingRate: number;
  endToEndRate: number;
  cpuUsPerRow: number;
  rowsFailed: number;
  credits: number;
  resultRows: number | null;
  peakRssMiB?: number;
  peakRssResultMiB?: number;
  rssBeforeMiB?: number;
  /** Peak RSS in the first and in the last quarter of the batch's run. */
  rssQuarters?: { first: number; last: number };
  note: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const FINAL = new Set(['completed', 'failed', 'canceled']);

/** A generous bound on one batch: a minute plus 2 ms a row (500 rows/s). */
const batchDeadlineMs = (rows: number) => 60_000 + rows * 2;

async function startBatch(server: Server, file: string, label: string, rows: number): Promise<{ id: string; t0: number; tAccepted: number }> {
  const t0 = performance.now();
  const { status, json } = await upload(server, file, label, 120_000 + rows / 5);
  const tAccepted = performance.now();
  if (status !== 202) throw new Error(`POST /v1/batches answered ${status}: ${JSON.stringify(json).slice(0, 500)}`);
  if (json.rows_total !== rows) throw new Error(`the batch counts ${json.rows_total} rows; the file has ${rows}`);
  return { id: json.batch_id, t0, tAccepted };
}

async function pollUntil(server: Server, id: string, deadline: number, done: (v: BatchView) => boolean): Promise<BatchView> {
  for (;;) {
    const { status, json } = await api<BatchView>(server, 'GET', `/v1/batches/${id}`);
    if (status !== 200) throw new Error(`GET /v1/batches/${id} answered ${status}: ${JSON.stringify(json).slice(0, 300)}`);
    if (done(json) || FINAL.has(json.status)) return json;
    if (performance.now() > deadline) return json;
    if (!alive(server)) throw new Error('the service exited');
    await sleep(POLL_MS);
  }
}

async function runBatch(server: Server, file: string, rows: number, label: string, { memory = false } = {}): Promise<BatchRun> {
  const rssBefore = memory ? rssMiB(server.pid) : undefined;
  const sampler = memory ? new RssSampler(server.pid) : null;
  const cpu0 = cpuSeconds(server.pid);
  const { id, t0, tAccepted } = await startBatch(server, file, label, rows);
  const deadline = t0 + batchDeadlineMs(rows);
  const view = await pollUntil(server, id, deadline, (v) => FINAL.has(v.status));
  const tEnd = performance.now();
  const cpu = cpuSeconds(server.pid) - cpu0;
  const peak = sampler?.stop();
  const rssQuarters = sampler?.quarters();
  let note = '';
  if (view.status !== 'completed') {
    note = `ended ${view.status}${view.reason ? ` (${view.reason})` : ''} after ${view.rows_done}/${view.rows_total} rows`;
    if (!FINAL.has(view.status)) {
      note = `not done within ${(batchDeadlineMs(rows) / 1000).toFixed(0)} s: ${view.rows_done}/${view.rows_total} rows, canceled`;
      await api(server, 'DELETE', `/v1/batches/${id}`).catch(() => undefined);
    }
  }
  const processingS = view.started_at && view.finished_at
    ? (Date.parse(view.finished_at) - Date.parse(view.started_at)) / 1000 : NaN;
  const endToEndS = (tEnd - t0) / 1000;
  let resultRows: number | null = null;
  let peakResult: number | undefined;
  if (view.status === 'completed') {
    const resultSampler = memory ? new RssSampler(server.pid) : null;
    try {
      resultRows = await countResultRows(server, id, 60_000 + rows / 5);
    } catch (err) {
      note += `${note ? '; ' : ''}result: ${(err as Error).message}`;
    }
    peakResult = resultSampler?.stop();
    if (resultRows !== null && resultRows !== rows) note += `${note ? '; ' : ''}result has ${resultRows} rows, input ${rows}`;
  }
  return {
    label, rows, status: view.status,
    uploadS: (tAccepted - t0) / 1000,
    processingS,
    endToEndS,
    processingRate: view.status === 'completed' ? view.rows_total / processingS : NaN,
    endToEndRate: view.status === 'completed' ? view.rows_total / endToEndS : NaN,
    cpuUsPerRow: view.rows_done ? (cpu * 1e6) / view.rows_done : NaN,
    rowsFailed: view.rows_failed,
    credits: view.credits_charged,
    resultRows,
    peakRssMiB: peak,
    peakRssResultMiB: peakResult,
    rssBeforeMiB: rssBefore,
    rssQuarters,
    note,
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// The request path

interface LoadRun {
  rps: number;
  cpuUsPerRow: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  duration: number;
}

function requestsFor(server: Server, bodies: string[]): AutocannonRequest[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` };
  return bodies.map((body) => ({ method: 'POST', path: '/v1/validate', headers, body }));
}

async function load(server: Server, requests: AutocannonRequest[], connections: number, duration: number, overallRate?: number): Promise<LoadRun> {
  const cpu0 = cpuSeconds(server.pid);
  const r = await autocannon({ url: server.url, connections, duration, requests, timeout: 10, ...(overallRate ? { overallRate } : {}) });
  const cpu = cpuSeconds(server.pid) - cpu0;
  return {
    rps: r['2xx'] / r.duration,
    cpuUsPerRow: r['2xx'] ? (cpu * 1e6) / r['2xx'] : NaN,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    duration: r.duration,
  };
}

async function preflight(server: Server, body: string): Promise<void> {
  const res = await fetch(`${server.url}/v1/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`the service answered ${res.status} to a first request: ${text.slice(0, 500)}`);
  const json = JSON.parse(text) as Record<string, unknown>;
  const missing = ['address', 'email', 'phone'].filter((m) => json[m] == null);
  if (missing.length) throw new Error(`the service answered without ${missing.join(', ')}: ${text.slice(0, 500)}`);
}

// ---------------------------------------------------------------------------------------------------------------------
// Output

function median(values: number[]): number {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function md(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(3, ...rows.map((r) => r[c].length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

const f0 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(0));
const f1 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1));
const f2 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(2));
const mib = (bytes: number) => bytes / 1024 / 1024;
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

// ---------------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  let settings: Settings;
  try {
    settings = readSettings(process.argv.slice(2));
  } catch (err) {
    console.error(`bench:batch: ${(err as Error).message} (see the flags at the top of bench/batch.ts)`);
    return 2;
  }
  const started = performance.now();
  const cpus = os.cpus();
  console.log(`node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}`);
  console.log(
    `bench:batch${settings.quick ? ' --quick' : ''}: rows = address + email + phone (EMAIL_NETWORK_CHECKS=false, SQLite); ` +
      `throughput: ${settings.rounds} alternating round(s) of ${settings.duration} s at ${settings.connections} connections ` +
      `vs a ${settings.rowsThroughput}-row batch; memory: ${settings.rowsSmall}` +
      `${settings.rowsLarge ? ` and ${settings.rowsLarge}` : ''} rows; interference: ${settings.latencyRounds} round(s) with a ` +
      `${settings.rowsInterference}-row batch`,
  );

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-batch-csv-'));
  let server: Server | null = null;
  const cleanUp = async () => {
    if (server) await stopServer(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanUp().then(() => process.exit(143)));

  const bodies = validateBodies();
  const lines = bodies.map((b) => csvLineOf(JSON.parse(b) as Body));
  const files = new Map<number, { file: string; bytes: number }>();
  const fileOf = async (rows: number) => {
    let f = files.get(rows);
    if (!f) {
      const file = path.join(tmp, `rows-${rows}.csv`);
      f = { file, bytes: await writeCsv(file, rows, lines) };
      files.set(rows, f);
    }
    return f;
  };

  try {
    server = await startServer('bench/servers/service.ts');
    await preflight(server, bodies[0]);
  } catch (err) {
    console.error(`bench:batch: ${(err as Error).message}`);
    await cleanUp();
    return 1;
  }
  const knobs = Object.entries(server.knobs).map(([k, v]) => `${k}=${v}`).join(' ');
  console.log(`service pid ${server.pid}; batch knobs: ${knobs || 'defaults (BATCH_CHUNK_ROWS 500, BATCH_CONCURRENCY 32, BATCH_MAX_IN_FLIGHT 64, BATCH_WORKERS 2)'}`);

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
      const { bytes } = await fileOf(rows);
      log(`  ${rows} rows: ${f1(mib(bytes))} MiB`);
    }

    // Warm-up: both paths once.
    if (settings.warmup > 0) {
      log('warm-up');
      const w = await load(server, requests, settings.connections, settings.warmup);
      if (w.non2xx || w.errors) problems.push(`warm-up of /v1/validate: ${w.non2xx} non-2xx, ${w.errors} errors`);
      const wb = await runBatch(server, files.get(warmRows)!.file, warmRows, 'warm-up');
      if (wb.note) problems.push(`warm-up batch: ${wb.note}`);
    }

    // 1. Throughput, alternating.
    for (let i = 1; i <= settings.rounds; i++) {
      log(`throughput round ${i}/${settings.rounds}: request path`);
      const r = await load(server, requests, settings.connections, settings.duration);
      reqRounds.push(r);
      log(`  ${f0(r.rps)} rows/s`);
      log(`throughput round ${i}/${settings.rounds}: batch of ${settings.rowsThroughput} rows`);
      const b = await runBatch(server, files.get(settings.rowsThroughput)!.file, settings.rowsThroughput, `throughput-${i}`);
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
      const { id, t0 } = await startBatch(server, files.get(settings.rowsInterference)!.file, `interference-${i}`, settings.rowsInterference);
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
      const m = await runBatch(server, files.get(rows)!.file, rows, `memory-${rows}`, { memory: true });
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
        String(m.rows), f1(mib(files.get(m.rows)?.bytes ?? NaN)), f0(m.rssBeforeMiB), f0(m.peakRssMiB),
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

  if (problems.length) {
    console.log('### Problems seen');
    console.log('');
    for (const p of problems) console.log(`- ${p}`);
    console.log('');
  }
  console.log(`total time ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return crashed ? 1 : 0;
}

process.exitCode = await main();
