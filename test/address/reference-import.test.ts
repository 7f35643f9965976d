/**
 * `reference import` of national data on each database (issue #50): NAD points with their coordinates and precision,
 * TIGER segments, one point from two files with both sources, and an import killed with SIGKILL part-way through
 * going on from its checkpoint when run again (a changed file starting over).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticNad } from '../../bench/reference-data.js';
import { Database } from '../../src/db/data-source.js';
import { importReferenceFile, referenceStatus } from '../../src/db/reference-import.js';
import { testDatabases } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const national = (name: string) => path.join(ROOT, 'test/fixtures/reference', name);
const address = (name: string) => path.join(ROOT, 'test/address/fixtures', name);

async function until(what: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(testDatabases)('national reference imports on $name', (database) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-import-'));
  afterAll(async () => {
    await database.dropAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When the NAD and then OpenAddresses hold the same point, then it is one row with both sources and the rooftop kept', async () => {
    const db = await Database.open(await database.create());
    try {
      const nad = await importReferenceFile(db, 'nad', national('nad-sample.txt'));
      expect([nad.read, nad.loaded, nad.rejected]).toEqual([10, 8, 2]);
      await importReferenceFile(db, 'openaddresses', address('openaddresses-sample.csv'));
      const rows = await db.all<{ primary_number: string; sources: string; source: string; lat: number; lon: number; precision: string; plus4: string }>(
        `SELECT primary_number, sources, source, lat, lon, precision, plus4 FROM reference_points WHERE postal_code = '94043' ORDER BY primary_number`);
      const amphitheatre = rows.find((r) => r.primary_number === '1600')!;
      expect(rows.filter((r) => r.primary_number === '1600')).toHaveLength(1);
      // OpenAddresses' point is not said to be on the building: the NAD's rooftop stays.
      expect({ ...amphitheatre, lat: Number(amphitheatre.lat), lon: Number(amphitheatre.lon) }).toEqual({
        primary_number: '1600', sources: 'nad,openaddresses', source: 'openaddresses', lat: 37.422006, lon: -122.084095, precision: 'rooftop', plus4: '1351',
      });
      expect(rows.find((r) => r.primary_number === '1500')).toMatchObject({ sources: 'openaddresses', precision: 'parcel' });
      // The same file again adds no source twice.
      await importReferenceFile(db, 'nad', national('nad-sample.txt'));
      const [again] = await db.all<{ sources: string }>(`SELECT sources FROM reference_points WHERE postal_code = '94043' AND primary_number = '1600'`);
      expect(again.sources).toBe('nad,openaddresses');
      const geocoded = await db.all<{ lat: number | null; precision: string | null }>(`SELECT lat, precision FROM reference_points WHERE postal_code = '53217'`);
      expect(geocoded).toEqual([{ lat: null, precision: null }]);
    } finally {
      await db.close();
    }
  });

  it('When a TIGER county is imported from its zip, then its sides are segments; the .shp again changes nothing', async () => {
    const db = await Database.open(await database.create());
    try {
      const first = await importReferenceFile(db, 'tiger-addrfeat', national('tl_2024_17031_addrfeat.zip'));
      expect([first.read, first.loaded, first.rejected]).toEqual([5, 4, 1]);
      await importReferenceFile(db, 'tiger-addrfeat', national('tl_2024_17031_addrfeat.shp'));
      const segments = await db.all<Record<string, unknown>>(`SELECT postal_code, street_key, from_number, to_number, parity, from_lat, to_lon, source FROM reference_segments ORDER BY postal_code, from_number`);
      expect(segments.map((s) => ({ ...s, from_lat: Number(s.from_lat), to_lon: Number(s.to_lon) }))).toEqual([
        { postal_code: '60605', street_key: '|LAKESHORE|BLVD|', from_number: '1198', to_number: '1100', parity: 'E', from_lat: 41.87, to_lon: -87.619, source: 'tiger' },
        { postal_code: '60606', street_key: 'S|WACKER|DR|', from_number: '200', to_number: '298', parity: 'E', from_lat: 41.8797, to_lon: -87.6362, source: 'tiger' },
        { postal_code: '60606', street_key: 'S|WACKER|DR|', from_number: '201', to_number: '299', parity: 'O', from_lat: 41.8797, to_lon: -87.6362, source: 'tiger' },
        { postal_code: '60610', street_key: '|OAK|ST|', from_number: '1', to_number: '99', parity: 'B', from_lat: 41.9, to_lon: -87.625, source: 'tiger' },
      ]);
      expect((await referenceStatus(db)).segments).toBe(4);
      await expect(importReferenceFile(db, 'tiger-addrfeat', national('tl_2024_17031_addrfeat.zip'), { sample: true })).rejects.toThrow(/--sample is for address-point files/);
    } finally {
      await db.close();
    }
  });

  it('When an import is killed with SIGKILL part-way, then running it again goes on from its checkpoint and ends with every point once', async () => {
    const url = await database.create();
    const file = path.join(dir, `${database.name}-nad.txt`);
    const points = 120_000;
    await writeSyntheticNad(file, points, 5);
    const child = spawn(process.execPath, ['--import', 'tsx', '-e',
      `const { Database } = await import('./src/db/data-source.ts'); const { importReferenceFile } = await import('./src/db/reference-import.ts');
       await importReferenceFile(await Database.open(process.env.URL), 'nad', process.env.FILE);`], {
      cwd: ROOT, env: { ...process.env, URL: url, FILE: file }, stdio: 'ignore',
    });
    const db = await Database.open(url);
    try {
      const checkpoint = async () => (await db.all<{ records: number | string; byte_offset: number | string }>(`SELECT records, byte_offset FROM reference_import_checkpoints`))[0];
      await until(async () => (await checkpoint()) !== undefined || child.exitCode !== null, 120_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const left = await checkpoint();
      expect(left, 'the child finished before it was killed: nothing to resume').toBeDefined();
      expect(Number(left.records)).toBeGreaterThan(0);
      expect(Number(left.records)).toBeLessThan(points);
      expect((await referenceStatus(db)).in_progress).toMatchObject([{ format: 'nad', file, records: Number(left.records), byte_offset: Number(left.byte_offset) }]);
      const held = Number((await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM reference_points`))[0].n);
      expect(held).toBeGreaterThanOrEqual(Number(left.records));

      const resumed = await importReferenceFile(db, 'nad', file);

      expect(resumed.resumed).toEqual({ records: Number(left.records), byte_offset: Number(left.byte_offset) });
      expect([resumed.read, resumed.loaded, resumed.rejected]).toEqual([points, points, 0]);
      expect(Number((await db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM reference_points`))[0].n)).toBe(points);
      const status = await referenceStatus(db);
      expect([status.in_progress, status.imports.length, status.imports[0].read]).toEqual([[], 1, points]);
    } finally {
      child.kill('SIGKILL');
      await db.close();
    }
  }, 240_000);

  it('When the file changed since the checkpoint was written, then the import starts over', async () => {
    const db = await Database.open(await database.create());
    try {
      const file = path.join(dir, `${database.name}-changed.txt`);
      fs.copyFileSync(national('nad-sample.txt'), file);
      // A checkpoint as an interrupted import of this file left it, half-way.
      const stat = fs.statSync(file);
      await db.run(`INSERT INTO reference_import_checkpoints (format, file, size, mtime_ms, head_sha256, byte_offset, records, records_read, records_loaded,
        records_rejected, records_deleted, started_at, updated_at) VALUES ('nad', $1, $2, $3, 'not-this-file', 900, 4, 4, 4, 0, 0, 1, 1)`, [file, stat.size, Math.floor(stat.mtimeMs)]);
      const result = await importReferenceFile(db, 'nad', file);
      expect([result.resumed, result.read, result.loaded]).toEqual([undefined, 10, 8]);
      expect((await referenceStatus(db)).in_progress).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
