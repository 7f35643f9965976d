/**
 * The benches' service child (bench/servers/service.ts, started with tsx, its first stdout line its URL and key), the
 * service as `npm start` runs it (startCompiledService), and what they cost: CPU seconds and resident memory read from /proc, sampled while a batch runs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
  return spawnChild(name, [...nodeFlags, '--import', 'tsx', path.join(ROOT, script)], { NODE_ENV: 'production' }, (line) => {
    try {
      const first = JSON.parse(line) as Record<string, unknown>;
      if (typeof first.url !== 'string') throw new Error('no url');
      return first;
    } catch (e) {
      throw new Error(`unexpected first line ${JSON.stringify(line.slice(0, 200))} (${(e as Error).message})`);
    }
  });
}

/**
 * Starts node with `args` and waits for the first stdout line that `ready` takes (it returns what the line says about
 * the child, undefined to wait for the next line, or throws when the line says the start went wrong).
 */
function spawnChild(
  name: string, args: string[], env: Record<string, string>, ready: (line: string) => Record<string, unknown> | undefined,
): Promise<StartedChild> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        let first;
        try {
          first = ready(line);
        } catch (e) {
          fail((e as Error).message);
          return;
        }
        if (!first) continue;
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        child.removeAllListeners('exit');
        clearTimeout(timer);
        resolve({ child, first, stderr: () => err });
        return;
      }
    });
  });
}

/** The compiled service (`CompiledService`): its URL, two accounts' keys, its pid and its throw-away folder. */
export interface CompiledService extends StartedChild {
  url: string;
  apiKeys: [string, string];
  pid: number;
  dir: string;
}

/** Credits each account of the compiled service starts with: more than any test or bench run spends. */
const COMPILED_SERVICE_CREDITS = 50_000_000;

/**
 * The service as `npm start` runs it: the compiled entry (`node scripts/start.mjs main`, built first if a source
 * changed), in its own process, on a throw-away SQLite file and batch folder, with two accounts made beforehand by the
 * compiled CLI (`accounts create`). Network checks off; `env` adds to or overrides that; every other setting keeps its
 * default. Ready once it logs `listening`. stopCompiledService stops it and deletes the folder.
 */
export async function startCompiledService(env: Record<string, string> = {}): Promise<CompiledService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-compiled-'));
  const settings = {
    NODE_ENV: 'production', DATABASE_URL: `sqlite:${path.join(dir, 'service.sqlite')}`, BATCH_DIR: path.join(dir, 'batches'),
    HOST: '127.0.0.1', PORT: '0', EMAIL_NETWORK_CHECKS: 'false', ...env,
  };
  try {
    const account = (name: string) => {
      const out = execFileSync(process.execPath, ['scripts/start.mjs', 'cli', 'accounts', 'create', '--name', name], {
        cwd: ROOT, env: { ...process.env, ...settings, FREE_CREDITS: String(COMPILED_SERVICE_CREDITS) }, encoding: 'utf8',
      });
      return (JSON.parse(out) as { api_key: string }).api_key;
    };
    const apiKeys: [string, string] = [account('compiled service'), account('compiled service, other tenant')];
    const started = await spawnChild('the compiled service', ['scripts/start.mjs', 'main'], settings, (line) => {
      let entry: { msg?: string; url?: string } = {};
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch { /* not a log line */ }
      return entry.msg === 'listening' && entry.url ? entry : undefined;
    });
    return { ...started, url: started.first.url as string, apiKeys, pid: started.child.pid!, dir };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export async function stopCompiledService(service: CompiledService): Promise<void> {
  try {
    await stopServer(service);
  } finally {
    fs.rmSync(service.dir, { recursive: true, force: true });
  }
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

