/**
 * bench:reference — the national reference index (issue #50) at national-like sizes, on SQLite:
 *
 *     npm run bench:reference                          # 1 M and 4 M points
 *     npm run bench:reference -- --points 20000000     # one size (repeat --points for several)
 *     npm run bench:reference -- --file points.csv     # an OpenAddresses CSV of your own instead of synthetic data
 *     npm run bench:reference -- --seconds 10          # each load's length (default 10)
 *     npm run bench:reference -- --service-builds      # the swap's index built by the service itself, not beside it
 *
 * Per size: synthetic OpenAddresses points (test/support/synthetic-reference.ts: real ZIPs and cities, runs of
 * numbers, units, ZIP+4) imported with `reference import`'s code; the index file built (streamed), its bytes per point
 * by table; every imported point looked up in it (dpv Y) and the next number of its street (absent: N, or, in a dense
 * ZIP, corrected to another street of the name that has it, counted apart) — above 4 M
 * points, all of the first 100,000 and one in 20 of the rest, which the table says; then two services as child
 * processes, the embedded-only one (a fresh database: the RRAD sample alone) and one on the imported database with the
 * index file present: time to ready, resident memory after the load (VmRSS, and apart its RssAnon, the private memory
 * each instance pays, and RssFile, the file pages it maps: shared between the instances of a machine and evictable),
 * /v1/validate p50/p99 at 16 connections with the same bodies, the load client in a process of its own
 * (bench/autocannon-child.ts); then a swap under load (a new import lands: its index is built beside the service, as
 * `reference import` does, which opens it and drops the old one): p99 and failed requests during it, and the longest
 * the event loop is held by that open and drop (measured here, the same calls, with monitorEventLoopDelay). The load
 * average (1 min) is printed beside each figure: the machine is shared. Last, the extrapolation to 150 M points.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Sqlite from 'better-sqlite3';
import type { AutocannonRequest } from './autocannon.js';
import { autocannonInChild } from './autocannon-child.js';
import { Database } from '../src/db/data-source.js';
import { importReferenceFile } from '../src/db/reference-import.js';
import { buildReferenceIndexFile, referenceIndexFileOf, referenceIndexVersion } from '../src/db/reference-index-build.js';
import { seedEmbeddedReference } from '../src/db/reference-store.js';
import { createAddressEngine, loadShippedAddressData } from '../src/validation/address/index.js';
import { openReferenceIndexFile, openReferenceIndexFileInSteps } from '../src/validation/address/reference-index-file.js';
import { OPENADDRESSES_HEADER, openAddressesLine, type SyntheticPoint, syntheticPoints } from '../test/support/synthetic-reference.js';
import { spawnQuietService, type QuietServiceChild } from '../test/support/quiet-service.js';

const { values } = parseArgs({
  options: {
    points: { type: 'string', multiple: true }, file: { type: 'string' }, seconds: { type: 'string', default: '10' },
    'service-builds': { type: 'boolean', default: false },
  },
});
const sizes = (values.points?.length ? values.points : ['1000000', '4000000']).map(Number);
const SECONDS = Number(values.seconds);
const CONNECTIONS = 16;
const MiB = 1024 * 1024;

/** Above this many points, the dpv checks read all of the first CHECK_ALL_FIRST points and one in CHECK_ONE_IN of the rest. */
const CHECK_ALL_UP_TO = 4_000_000;
const CHECK_ALL_FIRST = 100_000;
const CHECK_ONE_IN = 20;

interface Rss { vm: number; anon: number; file: number }
function rssOf(pid: number): Rss {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
  return { vm: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
}
const load1 = () => os.loadavg()[0].toFixed(1);
const line = (p: Pick<SyntheticPoint, 'predirection' | 'name' | 'suffix' | 'unit' | 'city' | 'state' | 'zip'>, number: string) =>
  `${number} ${[p.predirection, p.name, p.suffix].filter(Boolean).join(' ')}${p.unit ? ` Apt ${p.unit}` : ''}, ${p.city}, ${p.state} ${p.zip}`;

function requestsOf(apiKey: string, addresses: string[]): AutocannonRequest[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  return addresses.map((address) => ({ method: 'POST', path: '/v1/validate', headers, body: JSON.stringify({ address }) }));
}

async function load(service: QuietServiceChild, addresses: string[], seconds = SECONDS) {
  return autocannonInChild({ url: service.url, connections: CONNECTIONS, duration: seconds, requests: requestsOf(service.funded[0].apiKey, addresses), timeout: 10 });
}

async function startTimed(options: Parameters<typeof spawnQuietService>[0]) {
  const started = Date.now();
  const service = await spawnQuietService(options);
  return { service, readyMs: Date.now() - started };
}

interface Row {
  points: number; importPerSecond: number; buildSeconds: number; diskBytesPerPoint: number; diskByTable: string;
  rss: Rss; embeddedRss: Rss; readyMs: number;
  embeddedReadyMs: number; p50: number; p99: number; embeddedP50: number; embeddedP99: number; swapP99: number; swapFailed: number;
  swapSeconds: number; swapLoopMaxMs: number; dpvY: string; dpvN: string; checked: string;
  loads: { importing: string; building: string; validating: string; swapping: string };
}

/** Bytes per point of the index file's tables: the blobs, the autocomplete's streets, the rest. */
function diskByTable(file: string, points: number): string {
  const db = new Sqlite(file, { readonly: true });
  try {
    const rows = db.prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name`).all() as { name: string; bytes: number }[];
    const of = (names: string[]) => rows.filter((r) => names.includes(r.name)).reduce((sum, r) => sum + r.bytes, 0) / points;
    const rest = rows.reduce((sum, r) => sum + r.bytes, 0) / points - of(['zips', 'suggestions']);
    return `blobs ${of(['zips']).toFixed(1)}, streets ${of(['suggestions']).toFixed(1)}, rest ${rest.toFixed(1)}`;
  } finally {
    db.close();
  }
}

/**
 * What the service does at a swap, here with the event loop watched: open the new file, make the engine over it,
 * close the old one. The longest the loop was held, ms.
 */
async function swapLoopDelay(oldFile: string, newFile: string): Promise<number> {
  const shipped = loadShippedAddressData({ rrad: false });
  const old = openReferenceIndexFile(oldFile);
  createAddressEngine({ ...shipped, reference: old.index });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const next = await openReferenceIndexFileInSteps(newFile);
  createAddressEngine({ ...shipped, reference: next.index });
  await new Promise((resolve) => setTimeout(resolve, 20));
  old.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  histogram.disable();
  next.close();
  return histogram.max / 1e6;
}

async function runSize(size: number): Promise<Row> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-bench-reference-'));
  try {
    const csv = values.file ?? path.join(dir, 'points.csv');
    const sample: SyntheticPoint[] = [];
    if (!values.file) {
      const out = fs.createWriteStream(csv);
      out.write(`${OPENADDRESSES_HEADER}\n`);
      let i = 0;
      for (const p of syntheticPoints(size)) {
        if (!out.write(`${openAddressesLine(p)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        if (i++ % Math.max(1, Math.floor(size / 4000)) === 0) sample.push(p);
      }
      await new Promise<void>((resolve) => out.end(() => resolve()));
    }
    const url = `sqlite:${path.join(dir, 'reference.sqlite')}`;
    const db = await Database.open(url);
    let started = Date.now();
    const importing = load1();
    const imported = await importReferenceFile(db, 'openaddresses', csv);
    const importPerSecond = imported.loaded / ((Date.now() - started) / 1000);
    await seedEmbeddedReference(db); // as every service's first start does: the import log's version moves then
    console.error(`${size}: imported ${imported.loaded} at ${Math.round(importPerSecond)}/s (load ${importing}-${load1()})`);
    const indexDir = path.join(dir, 'index');
    const file = referenceIndexFileOf(indexDir, await referenceIndexVersion(db));
    started = Date.now();
    const building = load1();
    await buildReferenceIndexFile(db, file);
    const buildSeconds = (Date.now() - started) / 1000;
    const diskBytesPerPoint = fs.statSync(file).size / imported.loaded;
    const byTable = diskByTable(file, imported.loaded);
    console.error(`${size}: index built in ${buildSeconds.toFixed(1)} s (load ${building}-${load1()}), ${diskBytesPerPoint.toFixed(1)} bytes/point (${byTable})`);

    // Every imported point confirmed, and the next number of its street (the other parity: none of the run) denied;
    // above CHECK_ALL_UP_TO points, the first CHECK_ALL_FIRST and one in CHECK_ONE_IN of the rest.
    const index = openReferenceIndexFile(file);
    let y = 0; let n = 0; let moved = 0; let looked = 0; let at = 0;
    const all = size <= CHECK_ALL_UP_TO;
    for (const p of values.file ? [] : syntheticPoints(size)) {
      if (!all && at++ >= CHECK_ALL_FIRST && at % CHECK_ONE_IN !== 0) continue;
      const q = { postalCode: p.zip, street: { predirection: p.predirection, name: p.name, suffix: p.suffix, postdirection: null } };
      if (index.index.lookup({ ...q, primaryNumber: p.number, secondaryNumber: p.unit }).dpv === 'Y') y++;
      const next = index.index.lookup({ ...q, primaryNumber: String(Number(p.number) + 1), secondaryNumber: null });
      if (next.dpv === 'N') n++;
      // Dense ZIPs: the number is a delivery point of another street of the name (S RIDGE ST's 4761 on RIDGE DR), which
      // the engine corrects to by design (reference-index.ts: "on one other street of its name"). Counted apart.
      else if (next.correctedStreet && next.dpv !== '') moved++;
      looked++;
    }
    const checked = all ? 'all' : `first ${CHECK_ALL_FIRST.toLocaleString('en-US')} + 1 in ${CHECK_ONE_IN}`;
    console.error(`${size}: dpv Y ${y}/${looked}, N ${n}/${looked}, corrected to another street of the name ${moved} (${checked})`);
    index.close();
    await db.close();

    const addresses = sample.flatMap((p) => [line(p, p.number), line(p, String(Number(p.number) + 1))]);
    const embedded = await startTimed({ accounts: [{ name: 'bench', credits: 1e9 }] });
    await load(embedded.service, addresses, 2);
    const embeddedRun = await load(embedded.service, addresses);
    const embeddedRss = rssOf(embedded.service.pid);
    await embedded.service.stop();

    const env = { REFERENCE_INDEX_DIR: indexDir, REFERENCE_RELOAD_MS: '1000' };
    const big = await startTimed({ database: url, accounts: [{ name: 'bench', credits: 1e9 }], env });
    await load(big.service, addresses, 2);
    const validating = load1();
    const run = await load(big.service, addresses);
    const rss = rssOf(big.service.pid);

    // A swap under load: a new import lands (the log's version moves) with its index file already built beside the
    // service, as `reference import` builds it (here a copy of the first: the same data); the service opens it within REFERENCE_RELOAD_MS and closes the old
    // one 30 s later (CLOSE_SWAPPED_AFTER_MS): the load covers both. (With --service-builds, the file is not built
    // first: the service builds it itself, beside its requests.)
    const writer = await Database.open(url);
    const last = (await writer.all<{ id: number }>(`SELECT MAX(id) AS id FROM reference_imports`))[0].id;
    const id = Number(last) + 1;
    const createdAt = Date.now();
    const next = referenceIndexFileOf(indexDir, `${id}-${createdAt}`);
    // (The same data: a copy of the file stands for the new import's, built as the first was; the swap is the same.)
    if (!values['service-builds']) fs.copyFileSync(file, next);
    const states = new Set<string>();
    const watch = setInterval(() => {
      fetch(`${big.service.url}/readyz`).then(async (r) => states.add(`${r.status} ${((await r.json()) as { reference?: string }).reference}`)).catch(() => states.add('unreachable'));
    }, 250);
    const swapping = load1();
    const during = load(big.service, addresses, values['service-builds'] ? Math.max(40, Math.ceil(buildSeconds * 2) + 35) : 40);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const swapStarted = Date.now();
    await writer.run(`INSERT INTO reference_imports (id, format, file, records_read, records_loaded, records_rejected, records_deleted, created_at)
      VALUES ($1, 'openaddresses', 'swap', 0, 0, 0, 0, $2)`, [id, createdAt]);
    while (!fs.existsSync(next) && Date.now() - swapStarted < 1_800_000) await new Promise((resolve) => setTimeout(resolve, 200));
    const swapped = (Date.now() - swapStarted) / 1000;
    const swapRun = await during;
    clearInterval(watch);
    await writer.close();
    await big.service.stop();
    console.error(`${size}: readyz during the swap: ${[...states].join(', ')}`);
    const swapLoopMaxMs = await swapLoopDelay(file, next);

    return {
      points: imported.loaded, importPerSecond, buildSeconds, diskBytesPerPoint, diskByTable: byTable, rss, embeddedRss,
      readyMs: big.readyMs, embeddedReadyMs: embedded.readyMs, p50: run.latency.p50, p99: run.latency.p99,
      embeddedP50: embeddedRun.latency.p50, embeddedP99: embeddedRun.latency.p99, swapP99: swapRun.latency.p99,
      swapFailed: swapRun.errors + swapRun.timeouts + swapRun.non2xx, swapSeconds: swapped, swapLoopMaxMs,
      dpvY: `${y}/${looked}`, dpvN: `${n}/${looked}${moved ? ` (+${moved} on another street of the name)` : ''}`, checked,
      loads: { importing, building, validating, swapping },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const perPoint = (bytes: number, points: number) => (bytes / points).toFixed(1);
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;
const rows: Row[] = [];
for (const size of sizes) rows.push(await runSize(size));
console.log('| points | import points/s (load) | index build (load) | disk bytes/point (by table) | RSS beyond embedded-only, bytes/point: VmRSS / RssAnon / RssFile | RSS of the instance (embedded-only) | ready (embedded-only) | validate p50 / p99 ms (embedded-only; load) | p99 during swap (failed; load) | loop held at swap | dpv Y imported | dpv N absent |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const beyond = (k: keyof Rss) => perPoint(r.rss[k] - r.embeddedRss[k], r.points);
  console.log(`| ${r.points.toLocaleString('en-US')} | ${Math.round(r.importPerSecond).toLocaleString('en-US')} (${r.loads.importing}) | ${r.buildSeconds.toFixed(1)} s (${r.loads.building}) | ` +
    `${r.diskBytesPerPoint.toFixed(1)} (${r.diskByTable}) | ${beyond('vm')} / ${beyond('anon')} / ${beyond('file')} | ` +
    `${mib(r.rss.vm)}: anon ${mib(r.rss.anon)}, file ${mib(r.rss.file)} (${mib(r.embeddedRss.vm)}: anon ${mib(r.embeddedRss.anon)}, file ${mib(r.embeddedRss.file)}) | ` +
    `${(r.readyMs / 1000).toFixed(1)} s (${(r.embeddedReadyMs / 1000).toFixed(1)} s) | ${r.p50} / ${r.p99} (${r.embeddedP50} / ${r.embeddedP99}; ${r.loads.validating}) | ` +
    `${r.swapP99} ms (${r.swapFailed}; ${r.loads.swapping}) | ${r.swapLoopMaxMs.toFixed(0)} ms | ${r.dpvY} (${r.checked}) | ${r.dpvN} |`);
}
const last = rows[rows.length - 1];
const at150 = 150e6;
const anonBeyond = last.rss.anon - last.embeddedRss.anon;
const fileBeyond = last.rss.file - last.embeddedRss.file;
console.log(`\nExtrapolated to 150 M points from the ${last.points.toLocaleString('en-US')} run: index ${((last.diskBytesPerPoint * at150) / 1024 / MiB).toFixed(1)} GiB on disk; ` +
  `resident beyond the embedded-only service ${mib(Math.max(0, anonBeyond))} private (RssAnon: the decoded-postal-code cache and the place names, bounded, not per point) ` +
  `and the file pages touched (RssFile ${mib(Math.max(0, fileBeyond))} in this run: the postal codes the load asked for; shared by the instances, evictable; at most the file), ` +
  `or ${mib(Math.max(0, anonBeyond) + (fileBeyond * at150) / last.points)} counted per point in a straight line; ` +
  `build ${((last.buildSeconds * at150) / last.points / 60).toFixed(0)} min, import ${((at150 / last.importPerSecond) / 60).toFixed(0)} min.`);
