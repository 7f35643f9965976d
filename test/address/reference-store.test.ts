import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import { importReferenceFile, referenceStatus } from '../../src/db/reference-import.js';
import { loadReferenceIndex, seedEmbeddedReference } from '../../src/db/reference-store.js';
import { createAddressEngine } from '../../src/validation/address/index.js';
import { testDatabases } from '../support/databases.js';
import { shippedData } from './shipped-engine.js';
import { COPYRIGHT_RECORD, cityStateRecord, zip4Record } from './usps-fixture.js';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

describe.each(testDatabases)('address reference store on $name', (database) => {
  afterAll(() => database.dropAll());

  const opened = (async () => Database.open(await database.create()))();
  const count = async (table: string) => Number((await (await opened).all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);

  afterAll(async () => (await opened).close());

  it('When a USPS ZIP+4 file is imported twice, then the second import upserts the same rows and reports the rejects', async () => {
    const db = await opened;
    const first = await importReferenceFile(db, 'usps-zip4', fixture('usps-zip4-sample.txt'));
    const rows = await count('reference_ranges');
    const second = await importReferenceFile(db, 'usps-zip4', fixture('usps-zip4-sample.txt'));
    expect([first.read, first.loaded, first.deleted, first.rejected]).toEqual([9, 7, 1, 1]);
    expect(first.rejects).toEqual([{ record: 10, reason: 'bad ZIP "ABCDE"' }]);
    expect([second.loaded, rows, await count('reference_ranges')]).toEqual([7, 7, 7]);
  });

  it('When the other formats are imported, then points and city names are stored', async () => {
    const db = await opened;
    const results = [
      await importReferenceFile(db, 'openaddresses', fixture('openaddresses-sample.csv')),
      await importReferenceFile(db, 'nar', fixture('nar-sample.csv')),
      await importReferenceFile(db, 'usps-city-state', fixture('usps-city-state-sample.txt')),
    ];
    expect(results.map((r) => [r.loaded, r.rejected])).toEqual([[4, 2], [4, 1], [3, 1]]);
    expect([await count('reference_points'), await count('reference_city_names')]).toEqual([8, 3]);
  });

  it('When the format is unknown or the file missing, then the import fails before touching the tables', async () => {
    const db = await opened;
    await expect(importReferenceFile(db, 'shapefile', fixture('nar-sample.csv'))).rejects.toThrow(/unknown format/);
    await expect(importReferenceFile(db, 'nar', '/nonexistent/file.csv')).rejects.toThrow(/ENOENT/);
  });

  it('When the embedded RRAD data is seeded twice, then it loads once', async () => {
    const db = await opened;
    const first = await seedEmbeddedReference(db);
    const second = await seedEmbeddedReference(db);
    expect([first.seeded, second.seeded]).toEqual([true, false]);
    expect(first.loaded).toBeGreaterThan(3000);
  });

  it('When the index is loaded from the database, then the engine confirms stored points, ranges and city names', async () => {
    const engine = createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(await opened) });
    const check = (s: string) => engine.validateSync(s, { deadline: Number.MAX_SAFE_INTEGER });
    expect(check('1600 Amphitheatre Pkwy, Moffett Field, CA 94043')).toMatchObject({ status: 'verified', dpv: 'Y', zip4: '94043-1351' });
    expect(check('1500 Amphitheatre Pkwy Ste 200, Mountain View, CA 94043')).toMatchObject({ dpv: 'Y', zip4: '94043-1300' });
    expect(check('105-2701 23rd Ave NE, Calgary AB T2E 1K4')).toMatchObject({ status: 'verified', dpv: 'Y' });
    expect(check('1745 T Street Southeast, Washington, DC 20020')).toMatchObject({ status: 'verified', dpv: 'Y' });
  });

  it('When the index is loaded from the database, then the places the address files give are accepted for their ZIP', async () => {
    const engine = createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(await opened) });
    // RRAD places 9209 Eupora Court in Jeffersontown, a USPS name of 40299 that GeoNames (LOUISVILLE) lacks.
    const r = engine.validateSync('9209 Eupora Ct, Jeffersontown, KY 40299', { deadline: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.components.city]).toEqual(['verified', 'JEFFERSONTOWN']);
  });

  it('When City-State data is stored, then its accepted names find a place typed without its ZIP, and a name it does not accept is written as it says', async () => {
    const db = await opened;
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cv-cs-')), 'city-state.txt');
    fs.writeFileSync(file, [COPYRIGHT_RECORD,
      cityStateRecord({ zip: '44512', city: 'YOUNGSTOWN', state: 'OH' }),
      cityStateRecord({ zip: '44512', city: 'BOARDMAN', state: 'OH', preferred: 'YOUNGSTOWN' }),
      cityStateRecord({ zip: '44515', city: 'YOUNGSTOWN', state: 'OH' }),
      cityStateRecord({ zip: '44515', city: 'AUSTINTOWN', state: 'OH', mailing: false, preferred: 'YOUNGSTOWN' }),
    ].join('\n'));
    await importReferenceFile(db, 'usps-city-state', file);
    const engine = createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(db) });
    const check = (s: string) => engine.validateSync(s, { deadline: Number.MAX_SAFE_INTEGER });
    expect(check('500 Elm St, Boardman, OH')).toMatchObject({ status: 'plausible', standardized: '500 ELM ST BOARDMAN OH 44512' });
    expect(check('12 Oak Ave, Austintown, OH')).toMatchObject({ status: 'plausible', standardized: '12 OAK AVE YOUNGSTOWN OH 44515' });
  });

  it('When the embedded sample alone names a street, then a number it lacks is not denied; once a whole file names it, it is', async () => {
    const db = await opened;
    const checkWith = async (input: string) =>
      createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(db) }).validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
    // (The RRAD rows were seeded above; their source column marks them as the sample.)
    expect(await checkWith('6009 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'plausible', dpv: '' });
    await importReferenceFile(db, 'openaddresses', fixture('openaddresses-applegate.csv'));
    expect(await checkWith('6009 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'invalid', dpv: 'N' });
    expect(await checkWith('6011 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'verified', dpv: 'Y' });
    expect(await checkWith('6007 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'verified', dpv: 'Y' });
  });

  it('When an operator imported a file before the first start, then seeding the embedded sample leaves its points as imported', async () => {
    const db = await Database.open(await database.create());
    try {
      await importReferenceFile(db, 'openaddresses', fixture('openaddresses-applegate.csv'));
      expect((await seedEmbeddedReference(db)).seeded).toBe(true);
      const engine = createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(db) });
      const check = (s: string) => engine.validateSync(s, { deadline: Number.MAX_SAFE_INTEGER });
      // RRAD's 6007 APPLEGATE LN (no add-on) did not overwrite the file's (40219-2201), nor made its street a sample's.
      expect(check('6007 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'verified', dpv: 'Y', zip4: '40219-2201' });
      expect(check('6009 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'invalid', dpv: 'N' });
      expect(check('1745 T Street Southeast, Washington, DC 20020')).toMatchObject({ status: 'verified', dpv: 'Y' });
    } finally {
      await db.close();
    }
  });

  it('When an operator asks what is loaded, then every import is listed, the latest first, with its deletes and whether it was a sample', async () => {
    const db = await Database.open(await database.create());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-status-'));
    try {
      expect(await referenceStatus(db)).toEqual({
        points: 0, points_complete: 0, ranges: 0, segments: 0, city_names: 0, postal_codes: { points: 0, ranges: 0 }, imports: [], in_progress: [],
      });
      await seedEmbeddedReference(db);
      await importReferenceFile(db, 'usps-zip4', fixture('usps-zip4-sample.txt'));
      const update = path.join(dir, 'update.txt');
      fs.writeFileSync(update, zip4Record({ zip: '40219', type: 'S', name: 'MAPLE', suffix: 'ST', state: 'KY', action: 'D', low: '1', high: '99', parity: 'O', addonLow: '2002' }));
      await importReferenceFile(db, 'usps-zip4', update);
      await importReferenceFile(db, 'openaddresses', fixture('openaddresses-applegate.csv'), { sample: true });

      const status = await referenceStatus(db);

      expect(status.imports.map((i) => [i.format, path.basename(i.file), i.sample, i.read, i.loaded, i.deleted, i.rejected])).toEqual([
        ['openaddresses', 'openaddresses-applegate.csv', true, 3, 3, 0, 0],
        ['usps-zip4', 'update.txt', false, 1, 0, 1, 0],
        ['usps-zip4', 'usps-zip4-sample.txt', false, 9, 7, 1, 1],
        ['rrad-embedded', 'rrad-addresses-us.tsv', true, 3220, status.imports[3].loaded, 0, status.imports[3].rejected],
      ]);
      expect(status.imports[3].loaded).toBeGreaterThan(3100);
      expect(status.imports.every((i) => !Number.isNaN(Date.parse(i.imported_at)))).toBe(true);
      const rows = async (table: string) => Number((await db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
      expect([status.points, status.ranges, status.city_names]).toEqual([await rows('reference_points'), await rows('reference_ranges'), 0]);
      // Every point is a sample's (RRAD's, the sample file's): none denies another number of its street.
      expect(status.points_complete).toBe(0);
      expect(status.postal_codes.ranges).toBeGreaterThan(0);
      expect(status.postal_codes.points).toBeGreaterThan(100);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await db.close();
    }
  });

  it('When a USPS transaction file deletes a range, or changes one (a delete and an add of its key), then the import applies it', async () => {
    const db = await Database.open(await database.create());
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-usps-'));
    try {
      const maple = { zip: '40219', type: 'S', name: 'MAPLE', suffix: 'ST', state: 'KY' } as const;
      const file = (name: string, records: string[]) => {
        fs.writeFileSync(path.join(dir, name), records.join('\n'));
        return path.join(dir, name);
      };
      await importReferenceFile(db, 'usps-zip4', file('full.txt', [
        zip4Record({ ...maple, low: '100', high: '198', parity: 'E', addonLow: '1001' }),
        zip4Record({ ...maple, low: '1', high: '99', parity: 'O', addonLow: '2002' }),
      ]));
      // The next month: the odd side is no longer delivered; the even side's add-on changed.
      const update = await importReferenceFile(db, 'usps-zip4', file('update.txt', [
        zip4Record({ ...maple, action: 'D', low: '1', high: '99', parity: 'O', addonLow: '2002' }),
        zip4Record({ ...maple, action: 'D', low: '100', high: '198', parity: 'E', addonLow: '1001' }),
        zip4Record({ ...maple, action: 'A', low: '100', high: '198', parity: 'E', addonLow: '1003' }),
      ]));
      expect([update.read, update.loaded, update.deleted, update.rejected]).toEqual([3, 1, 2, 0]);
      const engine = createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(db) });
      const check = (s: string) => engine.validateSync(s, { deadline: Number.MAX_SAFE_INTEGER });
      expect(check('120 Maple St, Louisville, KY 40219')).toMatchObject({ status: 'verified', zip4: '40219-1003' });
      expect(check('45 Maple St, Louisville, KY 40219')).toMatchObject({ status: 'invalid', dpv: 'N' });
      // A delete of a range not held changes nothing; applying the update again neither.
      const again = await importReferenceFile(db, 'usps-zip4', path.join(dir, 'update.txt'));
      expect(again.deleted).toBe(2);
      const reloaded = createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(db) });
      expect(reloaded.validateSync('120 Maple St, Louisville, KY 40219', { deadline: Number.MAX_SAFE_INTEGER }).zip4).toBe('40219-1003');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await db.close();
    }
  });

  it('When a file is imported as a sample, then its numbers deny no other; imported again as a whole file, they do', async () => {
    const db = await Database.open(await database.create());
    try {
      const checkWith = async (input: string) =>
        createAddressEngine({ ...shippedData, reference: await loadReferenceIndex(db) }).validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
      const sampled = await importReferenceFile(db, 'openaddresses', fixture('openaddresses-applegate.csv'), { sample: true });
      expect(sampled).toMatchObject({ format: 'openaddresses', sample: true, loaded: 3 });
      expect(await checkWith('6009 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'plausible', dpv: '' });
      expect(await checkWith('6007 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'verified', zip4: '40219-2201' });
      await importReferenceFile(db, 'openaddresses', fixture('openaddresses-applegate.csv'));
      expect(await checkWith('6009 Applegate Lane, Louisville, KY 40219')).toMatchObject({ status: 'invalid', dpv: 'N' });
      await expect(importReferenceFile(db, 'usps-city-state', fixture('usps-city-state-sample.txt'), { sample: true })).rejects.toThrow(/--sample is for address-point files/);
    } finally {
      await db.close();
    }
  });
});
