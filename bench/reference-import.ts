/**
 * bench:reference-import — `reference import` alone (issue #50: >= 150K points/s on SQLite and on PostgreSQL, the
 * importing process under 400 MiB), at national-like size:
 *
 *     npm run bench:reference-import                        # 1 M synthetic NAD points
 *     npm run bench:reference-import -- --points 4000000    # another size
 *     npm run bench:reference-import -- --file nad.txt      # a NAD text file of your own
 *     npm run bench:reference-import -- --no-baseline       # the worker path alone
 *     npm run bench:reference-import -- --against eeed51d   # and the importer as it was at a revision, too
 *
 * The NAD file is written by bench/reference-data.ts (writeSyntheticNad), then imported into a fresh SQLite file and
 * into a private PostgreSQL cluster started here with its production defaults (fsync and synchronous_commit on: the
 * durable commits production pays; one commit per batch of 25,000 rows), each import in a process of its own, the
 * same code as `reference import --format nad`. Per database: points/s (records over the import's own time, schema
 * migrations excluded), the importer's CPU seconds and points per CPU-second (the figure the machine's load does not
 * move), PostgreSQL's own CPU seconds (its process tree, exited backends included), the importer's peak RSS (getrusage maxRSS), and the rows the
 * table holds afterwards. The machine's load average is printed, since its two cores are shared.
 * Each database is imported twice in the same run: read on the importing thread between the writes (`this thread`,
 * the path before src/db/reference-import-worker.ts: the baseline), and read on a worker thread beside them
 * (`worker`, what `reference import` does), the baseline first.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { Database } from '../src/db/data-source.js';
import { importReferenceFile } from '../src/db/reference-import.js';
import { startPrivatePostgres } from '../test/support/fleet.js';
import { treeCpuSeconds } from './process-usage.js';
import { checkOut } from './git-worktree.js';
import { writeSyntheticNad } from './reference-data.js';

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '1000000' },
    file: { type: 'string' },
    seed: { type: 'string', default: '7' },
    child: { type: 'boolean', default: false },
    url: { type: 'string' },
    format: { type: 'string', default: 'nad' },
    'read-on': { type: 'string', default: 'worker' },
    'no-baseline': { type: 'boolean', default: false },
    against: { type: 'string' },
  },
});
const MiB = 1024 * 1024;

/** The server's CPU seconds: its live process tree, and the backends that exited (the postmaster's cutime + cstime). */
function serverCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return treeCpuSeconds(pid) + (Number(fields[13]) + Number(fields[14])) / 100;
}

interface ChildReport { seconds: number; cpuSeconds: number; maxRssBytes: number; read: number; loaded: number; rejected: number; rows: number }

if (values.child) {
  // The importing process: opens (and migrates) the database, then times the import alone.
  const db = await Database.open(values.url!);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const result = await importReferenceFile(db, values.format!, values.file!, { readOn: values['read-on'] === 'this-thread' ? 'this-thread' : 'worker' });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const rows = Number((await db.all<{ n: number | string }>('SELECT COUNT(*) AS n FROM reference_points'))[0].n);
  await db.close();
  const report: ChildReport = { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssBytes: process.resourceUsage().maxRSS * 1024, read: result.read, loaded: result.loaded, rejected: result.rejected, rows };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}

/** `readOn` a revision (`--against`): that checkout's own bench child, which reads where the code then did. */
function runImport(url: string, file: string, readOn: string, checkout?: string): Promise<ChildReport> {
  const root = checkout ?? path.resolve(import.meta.dirname, '..');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/reference-import.ts'), '--child', '--url', url, '--file', file,
      ...(checkout ? [] : ['--read-on', readOn])], {
      cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as ChildReport);
      else reject(new Error(`import child exited ${code}: ${out}`));
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-import-'));
const cluster = await startPrivatePostgres({ durable: true });
try {
  let file = values.file;
  if (!file) {
    file = path.join(dir, 'nad.txt');
    const t0 = performance.now();
    await writeSyntheticNad(file, Number(values.points), Number(values.seed));
    console.error(`synthetic NAD: ${Number(values.points).toLocaleString('en-US')} points, ${(fs.statSync(file).size / MiB).toFixed(0)} MiB, written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const readOns = [...(values.against ? [`at ${values.against}`] : []), ...(values['no-baseline'] ? ['worker'] : ['this-thread', 'worker'])];
  const checkout = values.against ? checkOut(values.against) : undefined;
  const dbName = (readOn: string) => `import_${readOn.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  const runs: [string, string, string][] = [];
  for (const readOn of readOns) runs.push(['SQLite', `sqlite:${path.join(dir, `${dbName(readOn)}.sqlite`)}`, readOn]);
  for (const readOn of readOns) runs.push(['PostgreSQL', cluster.url.replace(/\/[^/]*$/, `/${dbName(readOn)}`), readOn]);
  const settings = await cluster.settings();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  for (const r of readOns) await admin.query(`CREATE DATABASE ${dbName(r)}`);
  await admin.end();
  console.log(`\nbench:reference-import, ${path.basename(file)} (${(fs.statSync(file).size / MiB).toFixed(0)} MiB), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log('| database | read on | records | import s | points/s | importer CPU s | points per importer CPU-s | server CPU s | importer peak RSS | rows held | rejected | load avg (1 min) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  for (const [name, url, readOn] of runs) {
    const server0 = name === 'PostgreSQL' ? serverCpuSeconds(cluster.pid()) : 0;
    const r = await runImport(url, file, readOn, readOn.startsWith('at ') ? checkout : undefined);
    const server = name === 'PostgreSQL' ? (serverCpuSeconds(cluster.pid()) - server0).toFixed(1) : '-';
    console.log(`| ${name}${name === 'PostgreSQL' ? ` (${settings})` : ' (WAL, synchronous=NORMAL)'} | ${readOn === 'worker' ? 'worker' : readOn === 'this-thread' ? 'this thread (baseline)' : `this thread, code ${readOn}`} | ${fmt(r.read)} | ${r.seconds.toFixed(1)} | ${fmt(r.loaded / r.seconds)} | ` +
      `${r.cpuSeconds.toFixed(1)} | ${fmt(r.loaded / r.cpuSeconds)} | ${server} | ${(r.maxRssBytes / MiB).toFixed(0)} MiB | ${fmt(r.rows)} | ${r.rejected} | ${os.loadavg()[0].toFixed(2)} |`);
  }
  console.log('\n(points/s is wall time on this shared machine; points per importer CPU-second is what one free core would do on SQLite, where'
    + ' the import is in-process; on PostgreSQL the server works beside the importer, a batch written while the next is read.)');
  console.log(`\nload average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await cluster.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
