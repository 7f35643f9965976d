/**
 * The benches' service child (bench/servers/service.ts, started with tsx, its first stdout line its URL and key)
 * and what it costs: CPU seconds and resident memory read from /proc, sampled while a batch runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_START_TIMEOUT_MS = 60_000;
const RSS_SAMPLE_MS = 100;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// ---------------------------------------------------------------------------------------------------------------------
// The service child

export interface Server {
  url: string;
  apiKey: string;
  pid: number;
  knobs: Record<string, string>;
  child: ChildProcess;
  stderr: () => string;
}

export function startServer(script: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, script)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let out = '';
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => { err = (err + d).slice(-8_000); });
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`the service did not start: ${why}${err ? `\n--- its stderr ---\n${err.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no URL within ${SERVER_START_TIMEOUT_MS / 1000} s`), SERVER_START_TIMEOUT_MS);
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before printing its URL`));
    child.stdout!.setEncoding('utf8').on('data', function onData(d: string) {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      child.removeAllListeners('exit');
      clearTimeout(timer);
      try {
        const info = JSON.parse(out.slice(0, nl)) as { url: string; api_key: string; pid?: number; knobs?: Record<string, string> };
        if (typeof info.url !== 'string' || typeof info.api_key !== 'string') throw new Error('no url or api_key');
        const url = new URL(info.url);
        if (url.hostname !== '127.0.0.1') throw new Error(`the service listens on ${url.hostname}, not 127.0.0.1`);
        resolve({ url: info.url, apiKey: info.api_key, pid: info.pid ?? child.pid!, knobs: info.knobs ?? {}, child, stderr: () => err });
      } catch (e) {
        fail(`unexpected first line ${JSON.stringify(out.slice(0, 200))} (${(e as Error).message})`);
      }
    });
  });
}

export function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
    server.child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    server.child.kill('SIGTERM');
  });
}

export const alive = (server: Server) => server.child.exitCode === null && server.child.signalCode === null;

// ---------------------------------------------------------------------------------------------------------------------
// /proc: CPU time and resident set of the service child

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** VmRSS and VmHWM in KiB (NaN where /proc is not available). */
export function memoryKb(pid: number): { rss: number; hwm: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

/** Samples the child's RSS until stopped; the peak is the larger of the samples and VmHWM (reset at the start). */
export class RssSampler {
  private peakKb = 0;
  private readonly samples: { t: number; kb: number }[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly hwmReset: boolean;
  constructor(private readonly pid: number) {
    let reset = false;
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // 5: reset the peak resident set size (VmHWM)
      reset = true;
    } catch { /* not allowed here: the samples alone */ }
    this.hwmReset = reset;
    this.sample();
    this.timer = setInterval(() => this.sample(), RSS_SAMPLE_MS);
  }
  private sample(): void {
    const { rss } = memoryKb(this.pid);
    if (Number.isNaN(rss)) return;
    this.samples.push({ t: performance.now(), kb: rss });
    if (rss > this.peakKb) this.peakKb = rss;
  }
  /** Peak of the samples (MiB) in the first and in the last quarter of the time sampled: a leak shows as a rise. */
  quarters(): { first: number; last: number } {
    if (this.samples.length < 4) return { first: NaN, last: NaN };
    const t0 = this.samples[0].t;
    const span = this.samples[this.samples.length - 1].t - t0;
    const peak = (from: number, to: number) =>
      Math.max(...this.samples.filter((x) => x.t - t0 >= from * span && x.t - t0 <= to * span).map((x) => x.kb)) / 1024;
    return { first: peak(0, 0.25), last: peak(0.75, 1) };
  }
  /** Peak in MiB. */
  stop(): number {
    clearInterval(this.timer);
    this.sample();
    const { hwm } = memoryKb(this.pid);
    return (this.hwmReset && hwm > this.peakKb ? hwm : this.peakKb) / 1024;
  }
}

export const rssMiB = (pid: number) => memoryKb(pid).rss / 1024;

