/**
 * What a service child (test/support/quiet-service.ts's spawnQuietService) costs: CPU seconds and resident memory read
 * from /proc, sampled while a batch runs.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

const RSS_SAMPLE_MS = 100;

export const alive = (server: { child: ChildProcess }) => server.child.exitCode === null && server.child.signalCode === null;

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/**
 * CPU seconds of a server and its children, from /proc: nginx's master and its worker, PostgreSQL's postmaster and its
 * backends. (A child that exited meanwhile is missed; the pools keep theirs open.)
 */
export function treeCpuSeconds(parent: number): number {
  let total = cpuSeconds(parent);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) total += cpuSeconds(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return total;
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

