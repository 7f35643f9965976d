/**
 * `reference import` reads its file on a worker thread beside the writes (src/db/reference-import-worker.ts): the rows
 * it commits are exactly those of the same import read on the importing thread, on each database and for each format,
 * and a reader's error comes back from the worker as the same error, nothing committed. (An import killed part-way
 * and resumed, on the worker path, is in reference-import.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticNad } from '../../bench/reference-data.js';
import { Database } from '../../src/db/data-source.js';
import { importReferenceFile, referenceStatus, type ReferenceImportResult } from '../../src/db/reference-import.js';
import { testDatabases } from '../support/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const national = (name: string) => path.join(ROOT, 'test/fixtures/reference', name);
const address = (name: string) => path.join(ROOT, 'test/address/fixtures', name);

const TABLES: [string, string][] = [
  ['reference_points', 'postal_code, street_key, primary_number, unit'],
  ['reference_ranges', 'zip, street_key, record_type, primary_low, primary_high, primary_parity, secondary_low, secondary_high'],
  ['reference_city_names', 'zip, city'],
  ['reference_segments', 'postal_code, street_key, from_number, to_number, parity'],
];

/** Every row of the reference tables, in key order, numbers as numbers (PostgreSQL answers some as text). */
async function dump(db: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of TABLES) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table} ORDER BY ${key}`);
    out[table] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^(lat|lon|from_|to_l)/.test(k) ? Number(v) : v])));
  }
  return out;
}

describe.each(testDatabases)('reference imports read on a worker thread on $name', (database) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-import-worker-'));
  afterAll(async () => {
    await database.dropAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When files of every format are imported with the worker and without, then both databases hold exactly the same rows', async () => {
    // Arrange: 70,000 points are three batches (25,000 rows each) and a last one; the fixtures bring rejects and deletes.
    const nad = path.join(dir, `${database.name}-nad.txt`);
    await writeSyntheticNad(nad, 70_000, 11);
    const files: [string, string][] = [
      ['nad', nad], ['nad', national('nad-sample.txt')], ['openaddresses', address('openaddresses-sample.csv')], ['nar', address('nar-sample.csv')],
      ['usps-zip4', address('usps-zip4-sample.txt')], ['usps-city-state', address('usps-city-state-sample.txt')], ['tiger-addrfeat', national('tl_2024_17031_addrfeat.zip')],
    ];
    const withWorker = await Database.open(await database.create());
    const withoutWorker = await Database.open(await database.create());
    try {
      const results: Record<string, Omit<ReferenceImportResult, 'file'>[]> = { worker: [], 'this-thread': [] };
      // Act
      for (const [format, file] of files) {
        for (const [db, readOn] of [[withWorker, 'worker'], [withoutWorker, 'this-thread']] as const) {
          const { file: _file, ...result } = await importReferenceFile(db, format, file, { readOn });
          results[readOn].push(result);
        }
      }

      // Assert
      expect(results.worker).toEqual(results['this-thread']);
      expect(results.worker[0]).toMatchObject({ read: 70_000, loaded: 70_000, rejected: 0 });
      expect(results.worker.some((r) => r.rejected > 0 && r.rejects?.length)).toBe(true);
      const [a, b] = [await dump(withWorker), await dump(withoutWorker)];
      expect(a.reference_points.length).toBeGreaterThan(70_000);
      expect(a.reference_segments.length).toBe(4);
      expect(a.reference_ranges.length).toBeGreaterThan(0);
      expect(a.reference_city_names.length).toBeGreaterThan(0);
      for (const [table] of TABLES) expect(a[table], table).toEqual(b[table]);
      expect((await referenceStatus(withWorker)).in_progress).toEqual([]);
    } finally {
      await withWorker.close();
      await withoutWorker.close();
    }
  }, 240_000);

  it('When the worker reads a file that is not of its format, then the import fails with the reader\'s own error and commits nothing', async () => {
    const notNad = path.join(dir, `${database.name}-not-nad.csv`);
    fs.writeFileSync(notNad, 'OID_,Street,Zip\n1,Main St,10001\n');
    const db = await Database.open(await database.create());
    try {
      for (const readOn of ['worker', 'this-thread'] as const) {
        await expect(importReferenceFile(db, 'nad', notNad, { readOn }), readOn)
          .rejects.toMatchObject({ message: 'not a NAD file: no ADD_NUMBER, ST_NAME, ZIP_CODE column in its header', code: 'INVALID_ARGUMENT' });
      }
      const status = await referenceStatus(db);
      expect([status.points, status.imports, status.in_progress]).toEqual([0, [], []]);
      // The database is still the import's to use: a good file after the bad one goes in whole.
      expect(await importReferenceFile(db, 'nad', national('nad-sample.txt'))).toMatchObject({ read: 10, loaded: 8, rejected: 2 });
    } finally {
      await db.close();
    }
  }, 60_000);
});
