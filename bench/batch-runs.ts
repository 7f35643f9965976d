/**
 * What bench:batch does to a running service child, and how it prints: the CSV files of the bench:validate bodies,
 * uploads and polls of batches, the request path under autocannon, and the markdown tables.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse';
import { autocannon, type AutocannonRequest } from './autocannon.js';
import { alive, cpuSeconds, RssSampler, rssMiB } from './process-usage.js';
import type { QuietServiceOptions } from '../test/support/quiet-service.js';
import { startChild, stopChild, type StartedChild } from '../test/support/service-child.js';
import { validateBodies } from './validate-bodies.js';

const POLL_MS = 100;

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

/** The bench's CSV files in `dir`, one per row count, each written once (before any measurement) from `bodies`. */
export class CsvFiles {
  private readonly written = new Map<number, { file: string; bytes: number }>();
  private readonly lines: string[];
  constructor(private readonly dir: string, bodies: string[]) {
    this.lines = bodies.map((b) => csvLineOf(JSON.parse(b) as Body));
  }
  async write(rows: number): Promise<{ file: string; bytes: number }> {
    let f = this.written.get(rows);
    if (!f) {
      const file = path.join(this.dir, `rows-${rows}.csv`);
      f = { file, bytes: await writeCsv(file, rows, this.lines) };
      this.written.set(rows, f);
    }
    return f;
  }
  get(rows: number): { file: string; bytes: number } {
    const f = this.written.get(rows);
    if (!f) throw new Error(`no CSV file of ${rows} rows was written`);
    return f;
  }
}

/** The batch knobs keep the service's defaults unless this environment sets them: a bench measures what `npm start` runs. */
const KNOBS = ['BATCH_CHUNK_ROWS', 'BATCH_CONCURRENCY', 'BATCH_MAX_IN_FLIGHT', 'BATCH_WORKERS'] as const;
export const batchKnobs = (): Record<string, string> =>
  Object.fromEntries(KNOBS.filter((k) => process.env[k]).map((k) => [k, process.env[k]!]));

/** The bench's service child: an account holding enough for any run, uploads up to 1 GiB (1M-row files), the knobs. */
export const BENCH_SERVICE: QuietServiceOptions = {
  accounts: [{ name: 'bench', credits: 50_000_000 }],
  env: { SHUTDOWN_GRACE_MS: '1000', BATCH_MAX_BYTES: String(1024 * 1024 * 1024), ...batchKnobs() },
};

/** A service child (bench/git-worktree.ts's serviceChild): its URL, its first account's key, its pid. */
export interface Server extends StartedChild {
  url: string;
  apiKey: string;
  pid: number;
}

export async function startServer(child: { script: string; args: string[] }): Promise<Server> {
  const started = await startChild('the service', child.script, { args: child.args });
  const first = started.first as { url: string; api_key?: string; pid?: number };
  if (typeof first.api_key !== 'string') {
    await stopChild(started);
    throw new Error('the service did not start: no api_key');
  }
  return { ...started, url: first.url, apiKey: first.api_key, pid: first.pid ?? started.child.pid! };
}

/**
 * The bench's scratch: a temp folder for its CSV files of the bench:validate bodies, removed, with the services that
 * `running()` names stopped, by `cleanUp` or when the bench is interrupted (SIGINT, SIGTERM).
 */
export function benchScratch(running: () => Server[]) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-batch-csv-'));
  const cleanUp = async () => {
    await Promise.all(running().map(stopChild));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  process.once('SIGTERM', () => void cleanUp().then(() => process.exit(143)));
  const bodies = validateBodies();
  return { bodies, files: new CsvFiles(tmp, bodies), cleanUp };
}

// ---------------------------------------------------------------------------------------------------------------------
// HTTP helpers (127.0.0.1 only)

export async function api<T>(server: Server, method: string, pathname: string, timeoutMs = 10_000): Promise<{ status: number; json: T }> {
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

export interface BatchView {
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

export interface BatchRun {
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const FINAL = new Set(['completed', 'failed', 'canceled']);

/** A generous bound on one batch: a minute plus 2 ms a row (500 rows/s). */
export const batchDeadlineMs = (rows: number) => 60_000 + rows * 2;

export async function startBatch(server: Server, file: string, label: string, rows: number): Promise<{ id: string; t0: number; tAccepted: number }> {
  const t0 = performance.now();
  const { status, json } = await upload(server, file, label, 120_000 + rows / 5);
  const tAccepted = performance.now();
  if (status !== 202) throw new Error(`POST /v1/batches answered ${status}: ${JSON.stringify(json).slice(0, 500)}`);
  if (json.rows_total !== rows) throw new Error(`the batch counts ${json.rows_total} rows; the file has ${rows}`);
  return { id: json.batch_id, t0, tAccepted };
}

export async function pollUntil(server: Server, id: string, deadline: number, done: (v: BatchView) => boolean): Promise<BatchView> {
  for (;;) {
    const { status, json } = await api<BatchView>(server, 'GET', `/v1/batches/${id}`);
    if (status !== 200) throw new Error(`GET /v1/batches/${id} answered ${status}: ${JSON.stringify(json).slice(0, 300)}`);
    if (done(json) || FINAL.has(json.status)) return json;
    if (performance.now() > deadline) return json;
    if (!alive(server)) throw new Error('the service exited');
    await sleep(POLL_MS);
  }
}

export async function runBatch(server: Server, file: string, rows: number, label: string, { memory = false } = {}): Promise<BatchRun> {
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

export interface LoadRun {
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

export function requestsFor(server: Server, bodies: string[]): AutocannonRequest[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${server.apiKey}` };
  return bodies.map((body) => ({ method: 'POST', path: '/v1/validate', headers, body }));
}

export async function load(server: Server, requests: AutocannonRequest[], connections: number, duration: number, overallRate?: number): Promise<LoadRun> {
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

export async function preflight(server: Server, body: string): Promise<void> {
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

export function median(values: number[]): number {
  const s = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function md(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(3, ...rows.map((r) => r[c].length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

export const f0 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(0));
export const f1 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(1));
export const f2 = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : v.toFixed(2));
export const mib = (bytes: number) => bytes / 1024 / 1024;
/** The machine the figures come from: the first line of every report. */
export function machineLine(): string {
  const cpus = os.cpus();
  return `node ${process.version} on ${os.platform()}/${os.arch()}, ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown CPU'}`;
}

/** The end of every report: what went wrong, if anything, and how long the bench took. */
export function printEnd(problems: string[], started: number): void {
  if (problems.length) {
    console.log('### Problems seen');
    console.log('');
    for (const p of problems) console.log(`- ${p}`);
    console.log('');
  }
  console.log(`total time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

export const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
