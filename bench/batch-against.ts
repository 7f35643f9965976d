/**
 * `bench:batch --against REV`: the batch path of this checkout beside the service as it was at git revision REV, in
 * the same run, so that a change's cost is not lost in a shared machine's drift between two runs. REV is checked out
 * in a temporary worktree sharing this node_modules (bench/git-worktree.ts, as bench:validate does); both services run
 * as children at once (test/support/quiet-service.ts of each revision), idle but for the one being measured.
 *
 * Two measurements, each in rounds that alternate the two services (the first of a round alternates too, so that a
 * drift within a round falls on both alike), each reported as the median of its rounds and as current/baseline, the
 * median of the rounds' ratios (each round's two runs are next to each other in time, so drift cancels in its ratio):
 * 1. Throughput (skipped with `--scan-only`): a `--rows-throughput`-row batch run to completion, as in bench:batch's
 *    step 1: end-to-end rows/s (first upload byte to the poll that saw `completed`), processing rows/s (the
 *    service's started_at to finished_at), upload+scan s (to the 202) and server CPU µs a row.
 * 2. Upload and scan of a large file (`--rows-scan`, 500K rows, about 43 MiB): the time from the first byte of the
 *    upload to the 202, which covers receiving, scanning and planning the file, and the server's CPU seconds over it
 *    (from /proc: less moved by other processes than wall time). The batch is canceled at once (DELETE) and its end
 *    awaited, so that its rows do not run into the next round.
 * `--current REV` measures the service at another revision instead of this checkout (a commit against its parent,
 * without what later commits or uncommitted work changed).
 * Verdict: a loss beyond noise is a current/baseline above 1.05 for a time or a CPU figure, or under 0.95 for a rate.
 */
import { serviceChild } from './git-worktree.js';
import {
  api, BENCH_SERVICE, type BatchRun, benchScratch, f0, f2, FINAL, log, machineLine, md, median, mib, pollUntil, preflight, printEnd,
  runBatch, type Server, sleep, startBatch, startServer,
} from './batch-runs.js';
import { alive, cpuSeconds } from './process-usage.js';

/** A current/baseline beyond this much either way is more than this machine's noise. */
const NOISE = 0.05;
const WARM_ROWS = 2_000;

export interface AgainstSettings {
  against: string;
  /** A git revision measured instead of this checkout (`--current REV`: one commit against its parent), or null. */
  current: string | null;
  scanOnly: boolean;
  rounds: number;
  rowsThroughput: number;
  rowsScan: number;
  scanRounds: number;
  warmup: boolean;
}

interface ScanRun {
  /** First byte of the upload to the 202, s. */
  uploadS: number;
  /** The service's CPU (user + system) over the same span, s. */
  cpuS: number;
}

interface Target {
  label: string;
  server: Server;
  batches: BatchRun[];
  scans: ScanRun[];
}

/** Uploads `file` until its 202, then cancels the batch and waits for its end. */
async function scanRound(server: Server, file: string, rows: number, label: string): Promise<ScanRun> {
  const cpu0 = cpuSeconds(server.pid);
  const { id, t0, tAccepted } = await startBatch(server, file, label, rows);
  const cpuS = cpuSeconds(server.pid) - cpu0;
  const del = await api(server, 'DELETE', `/v1/batches/${id}`);
  if (del.status !== 204 && del.status !== 200) throw new Error(`DELETE of a scanned batch answered ${del.status}`);
  await pollUntil(server, id, performance.now() + 30_000, (v) => FINAL.has(v.status));
  await sleep(500); // chunks in flight wind down
  return { uploadS: (tAccepted - t0) / 1000, cpuS };
}

/** The two services in alternating order: baseline first in odd rounds, current first in even ones. */
const inTurn = (targets: Target[], round: number) => (round % 2 ? targets : [...targets].reverse());

export async function benchAgainst(settings: AgainstSettings): Promise<number> {
  const started = performance.now();
  console.log(machineLine());
  console.log(
    `bench:batch --against ${settings.against}: ${settings.current ? `the service at ${settings.current}` : 'this checkout'} ` +
      `beside the service at ${settings.against}, alternating; ` +
      (settings.scanOnly ? '' : `throughput: ${settings.rounds} round(s) of a ${settings.rowsThroughput}-row batch; `) +
      `upload+scan: ${settings.scanRounds} round(s) of a ${settings.rowsScan}-row file`,
  );

  const targets: Target[] = [];
  const { bodies, files, cleanUp } = benchScratch(() => targets.map((t) => t.server));
  try {
    log(`checking out ${[settings.against, settings.current].filter(Boolean).join(' and ')} and starting both services`);
    const baseline = await startServer(serviceChild(BENCH_SERVICE, settings.against));
    targets.push({ label: `baseline ${settings.against}`, server: baseline, batches: [], scans: [] });
    const current = await startServer(serviceChild(BENCH_SERVICE, settings.current ?? undefined));
    targets.push({ label: settings.current ? `current ${settings.current}` : 'current', server: current, batches: [], scans: [] });
    for (const t of targets) await preflight(t.server, bodies[0]);
  } catch (err) {
    console.error(`bench:batch: ${(err as Error).message}`);
    await cleanUp();
    return 1;
  }

  const problems: string[] = [];
  try {
    log('writing CSV files');
    for (const rows of new Set([WARM_ROWS, settings.scanOnly ? 0 : settings.rowsThroughput, settings.rowsScan].filter((n) => n > 0))) {
      log(`  ${rows} rows: ${f2(mib((await files.write(rows)).bytes))} MiB`);
    }
    if (settings.warmup) {
      for (const t of targets) {
        log(`warm-up of ${t.label}: a ${WARM_ROWS}-row batch and one upload of ${settings.rowsScan} rows`);
        const w = await runBatch(t.server, files.get(WARM_ROWS).file, WARM_ROWS, 'warm-up');
        if (w.note) problems.push(`warm-up batch of ${t.label}: ${w.note}`);
        await scanRound(t.server, files.get(settings.rowsScan).file, settings.rowsScan, 'warm-up-scan');
      }
    }
    if (!settings.scanOnly) {
      for (let i = 1; i <= settings.rounds; i++) {
        for (const t of inTurn(targets, i)) {
          log(`throughput round ${i}/${settings.rounds}: ${t.label}, a ${settings.rowsThroughput}-row batch`);
          const b = await runBatch(t.server, files.get(settings.rowsThroughput).file, settings.rowsThroughput, `throughput-${i}`);
          t.batches.push(b);
          if (b.note) problems.push(`throughput round ${i} of ${t.label}: ${b.note}`);
          log(`  ${f0(b.endToEndRate)} rows/s end-to-end, upload+scan ${f2(b.uploadS)} s`);
        }
      }
    }
    for (let i = 1; i <= settings.scanRounds; i++) {
      for (const t of inTurn(targets, i)) {
        log(`upload+scan round ${i}/${settings.scanRounds}: ${t.label}, ${settings.rowsScan} rows`);
        const s = await scanRound(t.server, files.get(settings.rowsScan).file, settings.rowsScan, `scan-${i}`);
        t.scans.push(s);
        log(`  ${f2(s.uploadS)} s to the 202, ${f2(s.cpuS)} CPU s`);
      }
    }
  } catch (err) {
    problems.push(`run stopped: ${(err as Error).message}`);
  }
  const crashed = targets.filter((t) => !alive(t.server));
  for (const t of crashed) {
    problems.push(`${t.label} exited during the run (${t.server.child.signalCode ?? t.server.child.exitCode})\n${t.server.stderr().trim()}`);
  }
  for (const t of targets) {
    const stderr = t.server.stderr().trim();
    if (stderr && !crashed.includes(t)) problems.push(`${t.label} wrote on stderr:\n${stderr.slice(-2_000)}`);
  }
  const scanBytes = files.get(settings.rowsScan).bytes;
  await cleanUp();

  console.log('');
  console.log(report(settings, targets, scanBytes));
  printEnd(problems, started);
  return crashed.length ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Report

interface Measure {
  name: string;
  /** Higher is better (a rate) or lower is (a time, a cost). */
  better: 'higher' | 'lower';
  of: (t: Target) => number[];
  digits: (v: number) => string;
}

function report(settings: AgainstSettings, targets: Target[], scanBytes: number): string {
  const [baseline, current] = targets;
  const measures: Measure[] = [];
  const batchOf = (pick: (b: BatchRun) => number) => (t: Target) => t.batches.map(pick);
  if (!settings.scanOnly) {
    const n = settings.rowsThroughput;
    measures.push(
      { name: `batch of ${n} rows, end-to-end rows/s`, better: 'higher', of: batchOf((b) => b.endToEndRate), digits: f0 },
      { name: `batch of ${n} rows, processing rows/s`, better: 'higher', of: batchOf((b) => b.processingRate), digits: f0 },
      { name: `batch of ${n} rows, upload+scan s`, better: 'lower', of: batchOf((b) => b.uploadS), digits: f2 },
      { name: `batch of ${n} rows, server CPU µs/row`, better: 'lower', of: batchOf((b) => b.cpuUsPerRow), digits: f0 },
    );
  }
  const scanName = `${settings.rowsScan} rows (${f0(mib(scanBytes))} MiB)`;
  measures.push(
    { name: `${scanName}, upload to 202 s`, better: 'lower', of: (t) => t.scans.map((s) => s.uploadS), digits: f2 },
    { name: `${scanName}, server CPU s to 202`, better: 'lower', of: (t) => t.scans.map((s) => s.cpuS), digits: f2 },
  );

  const rows: string[][] = [['measure', baseline.label, current.label, 'current/baseline, paired', 'better', 'rounds: baseline / current']];
  const losses: string[] = [];
  const unknown: string[] = [];
  for (const m of measures) {
    const b = m.of(baseline);
    const c = m.of(current);
    // Each round's two runs are next to each other in time: their ratio cancels the machine's drift, which the ratio
    // of the two medians does not (on a shared machine a batch's rate moves 2x within minutes).
    const ratio = median(c.slice(0, b.length).map((v, i) => v / b[i]));
    const loss = m.better === 'higher' ? ratio < 1 - NOISE : ratio > 1 + NOISE;
    if (loss) losses.push(`${m.name} ${f2(ratio)}`);
    if (!Number.isFinite(ratio)) unknown.push(m.name);
    rows.push([
      m.name, m.digits(median(b)), m.digits(median(c)), `${f2(ratio)}${loss ? ' (loss)' : ''}`, m.better,
      `${b.map(m.digits).join(' ')} / ${c.map(m.digits).join(' ')}`,
    ]);
  }
  const scanRounds = Math.min(baseline.scans.length, current.scans.length);
  return [
    `### bench:batch --against ${settings.against}${settings.current ? ` --current ${settings.current}` : ''} ` +
      '(medians; rounds alternate the two services)',
    '',
    md(rows),
    '',
    `verdict: ${losses.length ? `LOSS beyond ${NOISE * 100}%: ${losses.join('; ')}`
      : unknown.length ? `unknown: no figure for ${unknown.join('; ')}`
      : `no loss beyond ${NOISE * 100}% (current/baseline ${1 - NOISE} or better for rates, ${1 + NOISE} or better for times)`}` +
      `; ${scanRounds} upload+scan round(s) each`,
    '',
  ].join('\n');
}
