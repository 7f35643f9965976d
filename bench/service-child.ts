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

/** A child started with tsx whose first stdout line is a JSON object about itself (its URL, its key…). */
export interface StartedChild {
  child: ChildProcess;
  first: Record<string, unknown>;
  stderr: () => string;
}

/** Starts `script` (relative to the repository) and waits for its first line, which must name its `url`. */
export function startChild(name: string, script: string, nodeFlags: string[] = []): Promise<StartedChild> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', path.join(ROOT, script)], {
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
      reject(new Error(`${name} did not start: ${why}${err ? `\n--- its stderr ---\n${err.trim()}` : ''}`));
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
        const first = JSON.parse(out.slice(0, nl)) as Record<string, unknown>;
        if (typeof first.url !== 'string') throw new Error('no url');
        resolve({ child, first, stderr: () => err });
      } catch (e) {
        fail(`unexpected first line ${JSON.stringify(out.slice(0, 200))} (${(e as Error).message})`);
      }
    });
  });
}

/** The service child of bench/servers/service.ts: its URL on 127.0.0.1, its key, its pid and knobs. */
export async function startServer(script: string): Promise<Server> {
  const { child, first, stderr } = await startChild('the service', script);
  const why = typeof first.api_key !== 'string' ? 'no api_key'
    : new URL(first.url as string).hostname !== '127.0.0.1' ? `it listens on ${new URL(first.url as string).hostname}, not 127.0.0.1` : null;
  if (why) {
    child.kill('SIGKILL');
    throw new Error(`the service did not start: ${why}`);
  }
  return {
    url: first.url as string, apiKey: first.api_key as string, pid: (first.pid as number | undefined) ?? child.pid!,
    knobs: (first.knobs as Record<string, string> | undefined) ?? {}, child, stderr,
  };
}

export function stopServer(server: { child: ChildProcess }): Promise<void> {
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

