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
 * numbers, units, ZIP+4) imported with `reference import`'s code; the index file built (streamed); every imported
 * point looked up in it (dpv Y) and the next number of its street (absent: N); then two services as child processes,
 * the embedded-only one (a fresh database: the RRAD sample alone) and one on the imported database with the index
 * file present: time to ready, resident memory after the load, /v1/validate p50/p99 at 16 connections with the same
 * bodies; then a swap under load (a new import lands: the service builds the new index in the background and swaps it
 * in): p99 and failed requests during it. Last, the extrapolation to 150 M points from the per-point figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { autocannon, type AutocannonRequest } from './autocannon.js';
import { Database } from '../src/db/data-source.js';
import { importReferenceFile } from '../src/db/reference-import.js';
import { buildReferenceIndexFile, referenceIndexFileOf, referenceIndexVersion } from '../src/db/reference-index-build.js';
import { seedEmbeddedReference } from '../src/db/reference-store.js';
import { openReferenceIndexFile } from '../src/validation/address/reference-index-file.js';
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

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const line = (p: Pick<SyntheticPoint, 'predirection' | 'name' | 'suffix' | 'unit' | 'city' | 'state' | 'zip'>, number: string) =>
  `${number} ${[p.predirection, p.name, p.suffix].filter(Boolean).join(' ')}${p.unit ? ` Apt ${p.unit}` : ''}, ${p.city}, ${p.state} ${p.zip}`;

function requestsOf(apiKey: string, addresses: string[]): AutocannonRequest[] {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  return addresses.map((address) => ({ method: 'POST', path: '/v1/validate', headers, body: JSON.stringify({ address }) }));
}

async function load(service: QuietServiceChild, addresses: string[], seconds = SECONDS) {
  return autocannon({ url: service.url, connections: CONNECTIONS, duration: seconds, requests: requestsOf(service.funded[0].apiKey, addresses), timeout: 10 });
}

async function startTimed(options: Parameters<typeof spawnQuietService>[0]) {
  const started = Date.now();
  const service = await spawnQuietService(options);
  return { service, readyMs: Date.now() - started };
}

interface Row {
  points: number; importPerSecond: number; buildSeconds: number; diskBytesPerPoint: number; rssBeyondPerPoint: number; readyMs: number;
  embeddedReadyMs: number; p50: number; p99: number; embeddedP50: number; embeddedP99: number; swapP99: number; swapFailed: number;
  swapSeconds: number; dpvY: string; dpvN: string;
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
    const imported = await importReferenceFile(db, 'openaddresses', csv);
    const importPerSecond = imported.loaded / ((Date.now() - started) / 1000);
    await seedEmbeddedReference(db); // as every service's first start does: the import log's version moves then
    console.error(`${size}: imported ${imported.loaded} at ${Math.round(importPerSecond)}/s`);
    const indexDir = path.join(dir, 'index');
    const file = referenceIndexFileOf(indexDir, await referenceIndexVersion(db));
    started = Date.now();
    const built = await buildReferenceIndexFile(db, file);
    const buildSeconds = (Date.now() - started) / 1000;
    const diskBytesPerPoint = fs.statSync(file).size / imported.loaded;
    console.error(`${size}: index built in ${buildSeconds.toFixed(1)} s, ${diskBytesPerPoint.toFixed(1)} bytes/point`);

    // Every imported point confirmed, and the next number of its street (the other parity: none of the run) denied.
    const index = openReferenceIndexFile(file);
    let y = 0; let n = 0; let looked = 0;
    for (const p of values.file ? [] : syntheticPoints(size)) {
      const q = { postalCode: p.zip, street: { predirection: p.predirection, name: p.name, suffix: p.suffix, postdirection: null } };
      if (index.index.lookup({ ...q, primaryNumber: p.number, secondaryNumber: p.unit }).dpv === 'Y') y++;
      if (index.index.lookup({ ...q, primaryNumber: String(Number(p.number) + 1), secondaryNumber: null }).dpv === 'N') n++;
      looked++;
    }
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
    const run = await load(big.service, addresses);
    const rss = rssOf(big.service.pid);

    // A swap under load: a new import lands (the log's version moves) and its index is built as `reference import`
    // builds it, in a process of its own (this one); the service sees the build under way, waits for the file, and
    // opens it. (With --service-builds, the service builds it itself, beside its requests.)
    const writer = await Database.open(url);
    const states = new Set<string>();
    const watch = setInterval(() => {
      fetch(`${big.service.url}/readyz`).then(async (r) => states.add(`${r.status} ${((await r.json()) as { reference?: string }).reference}`)).catch(() => states.add('unreachable'));
    }, 250);
    const swapStarted = Date.now();
    let swapped = 0;
    const during = load(big.service, addresses, Math.max(SECONDS, values['service-builds'] ? 20 : Math.ceil(buildSeconds * 1.5)));
    await writer.run(`INSERT INTO reference_imports (format, file, records_read, records_loaded, records_rejected, records_deleted, created_at)
      VALUES ('openaddresses', 'swap', 0, 0, 0, 0, $1)`, [Date.now()]);
    const next = referenceIndexFileOf(indexDir, await referenceIndexVersion(writer));
    if (!values['service-builds']) await buildReferenceIndexFile(writer, next);
    while (!fs.existsSync(next) && Date.now() - swapStarted < 1_800_000) await new Promise((resolve) => setTimeout(resolve, 200));
    swapped = (Date.now() - swapStarted) / 1000;
    const swapRun = await during;
    clearInterval(watch);
    await writer.close();
    await big.service.stop();
    console.error(`${size}: readyz during the swap: ${[...states].join(', ')}`);

    return {
      points: imported.loaded, importPerSecond, buildSeconds, diskBytesPerPoint, rssBeyondPerPoint: (rss - embeddedRss) / imported.loaded,
      readyMs: big.readyMs, embeddedReadyMs: embedded.readyMs, p50: run.latency.p50, p99: run.latency.p99,
      embeddedP50: embeddedRun.latency.p50, embeddedP99: embeddedRun.latency.p99, swapP99: swapRun.latency.p99,
      swapFailed: swapRun.errors + swapRun.timeouts + swapRun.non2xx, swapSeconds: swapped,
      dpvY: `${y}/${looked}`, dpvN: `${n}/${looked}`,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const size of sizes) rows.push(await runSize(size));
console.log('| points | import points/s | index build | disk bytes/point | RSS beyond embedded-only, bytes/point | ready (embedded-only) | validate p50 / p99 ms (embedded-only) | p99 during swap (failed) | swap built in | dpv Y imported | dpv N absent |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${r.points.toLocaleString('en-US')} | ${Math.round(r.importPerSecond).toLocaleString('en-US')} | ${r.buildSeconds.toFixed(1)} s | ${r.diskBytesPerPoint.toFixed(1)} | ${r.rssBeyondPerPoint.toFixed(1)} | ${(r.readyMs / 1000).toFixed(1)} s (${(r.embeddedReadyMs / 1000).toFixed(1)} s) | ${r.p50} / ${r.p99} (${r.embeddedP50} / ${r.embeddedP99}) | ${r.swapP99} ms (${r.swapFailed}) | ${r.swapSeconds.toFixed(1)} s | ${r.dpvY} | ${r.dpvN} |`);
}
const last = rows[rows.length - 1];
const at150 = 150e6;
console.log(`\nExtrapolated to 150 M points from the ${last.points.toLocaleString('en-US')} run: index ${((last.diskBytesPerPoint * at150) / 1024 / MiB).toFixed(1)} GiB on disk, ` +
  `${((Math.max(0, last.rssBeyondPerPoint) * at150) / MiB).toFixed(0)} MiB resident beyond the embedded-only service (the pages touched; the cache is bounded), ` +
  `build ${((last.buildSeconds * at150) / last.points / 60).toFixed(0)} min, import ${((at150 / last.importPerSecond) / 60).toFixed(0)} min.`);
