/**
 * The disk reference index (src/validation/address/reference-index-file.ts, src/db/reference-index-build.ts): built
 * from the database's tables, opened read-only, it answers every input exactly as the in-memory index of the same rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import { buildReferenceIndexFile, loadReferenceRows, openReference, referenceIndexFileOf, referenceIndexVersion } from '../../src/db/reference-index-build.js';
import { seedEmbeddedReference } from '../../src/db/reference-store.js';
import { createAddressEngine, rradRows, SHIPPED_DATA_DIR } from '../../src/validation/address/index.js';
import { createAddressAutocomplete } from '../../src/validation/address/autocomplete.js';
import { openReferenceIndexFile } from '../../src/validation/address/reference-index-file.js';
import { testDatabases } from '../support/databases.js';
import { insertRows, insertSyntheticPoints, type SyntheticPoint, syntheticPoints } from '../support/synthetic-reference.js';
import { shippedData } from './shipped-engine.js';

const POINTS = 20_000;
const deadline = Number.MAX_SAFE_INTEGER;
const line = (p: SyntheticPoint, number = p.number, name = p.name) =>
  `${number} ${[p.predirection, name, p.suffix].filter(Boolean).join(' ')}${p.unit ? ` Apt ${p.unit}` : ''}, ${p.city}, ${p.state} ${p.zip}`;

describe.each(testDatabases)('the disk reference index on $name', (database) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-reference-index-'));
  const opened = (async () => Database.open(await database.create()))();
  const points = [...syntheticPoints(POINTS, { zipCount: 400, seed: 7 })];
  afterAll(async () => {
    await (await opened).close();
    await database.dropAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When the same rows are read into memory and into an index file, then every answer is the same', async () => {
    // Arrange: the embedded sample, a synthetic address file, a USPS range and TIGER sides.
    const db = await opened;
    await seedEmbeddedReference(db);
    await insertSyntheticPoints(db, points);
    await insertRows(db, 'reference_segments', ['postal_code', 'street_key', 'predirection', 'street_name', 'suffix', 'postdirection',
      'from_number', 'to_number', 'parity', 'from_lat', 'from_lon', 'to_lat', 'to_lon', 'source'], [
      [points[0].zip, '|TIGERTAIL|RD|', null, 'TIGERTAIL', 'RD', null, '101', '199', 'O', 38.0, -85.0, 38.001, -85.002, 'tiger'],
    ]);
    const file = path.join(dir, 'index-test.sqlite');

    // Act
    const built = await buildReferenceIndexFile(db, file);
    const disk = openReferenceIndexFile(file, { cachePoints: 2_000 });
    const memory = await loadReferenceRows(db);

    // Assert: the same counts, and the same answer to the sample's points, each synthetic point, a number next to it
    // that is not there, its street misspelt, and it typed without its ZIP.
    expect(built.points).toBe(memory.size.points);
    expect(disk.index.size).toEqual(memory.size);
    const onDisk = createAddressEngine({ ...shippedData, reference: disk.index });
    const inMemory = createAddressEngine({ ...shippedData, reference: memory });
    const rrad = fs.readFileSync(new URL('rrad-addresses-us.tsv', SHIPPED_DATA_DIR), 'utf8');
    const inputs = [...rradRows(rrad)].map((r) => `${r.address1} ${r.address2}, ${r.city}, ${r.state} ${r.zip}`);
    for (const p of points.filter((_, i) => i % 10 === 0)) {
      inputs.push(line(p), line(p, String(Number(p.number) + 1)), line(p, p.number, p.name.slice(0, 2) + p.name.slice(3)),
        line(p).replace(/ \d{5}$/, ''));
    }
    let differ = 0;
    const dpv = { Y: 0, N: 0 };
    for (const input of inputs) {
      const a = onDisk.validateSync(input, { deadline });
      const b = inMemory.validateSync(input, { deadline });
      if (JSON.stringify(a) !== JSON.stringify(b)) differ++;
    }
    for (const p of points.filter((_, i) => i % 10 === 0)) {
      const q = { postalCode: p.zip, street: { predirection: p.predirection, name: p.name, suffix: p.suffix, postdirection: null } };
      const here = disk.index.lookup({ ...q, primaryNumber: p.number, secondaryNumber: p.unit });
      const absent = disk.index.lookup({ ...q, primaryNumber: String(Number(p.number) + 1), secondaryNumber: null });
      if (here.dpv === 'Y' && here.evidence === 'address_point' && here.location?.precision === 'rooftop'
        && Math.abs(here.location.lat - p.lat) < 1e-5 && here.sources?.[0] === 'openaddresses') dpv.Y++;
      if (absent.dpv === 'N' && absent.evidence === 'street') dpv.N++;
    }
    expect(differ).toBe(0);
    expect(dpv).toEqual({ Y: POINTS / 10, N: POINTS / 10 });
    const tiger = disk.index.lookup({
      postalCode: points[0].zip, street: { predirection: null, name: 'TIGERTAIL', suffix: 'RD', postdirection: null }, primaryNumber: '151', secondaryNumber: null,
    });
    expect([tiger.dpv, tiger.evidence, tiger.sources, tiger.location?.precision]).toEqual(['', 'street_range', ['tiger'], 'interpolated']);
    expect(tiger.location!.lat).toBeCloseTo(38 + (0.001 * 50) / 98, 6); // 151 is 50 of the 98 numbers from 101 to 199

    // The autocomplete over the file reads its stored streets (no build): the same streets, and a number typed
    // before a street gives the delivery point where the street holds it.
    const fromDisk = createAddressAutocomplete({ postal: shippedData.postal, reference: disk.index });
    const fromMemory = createAddressAutocomplete({ postal: shippedData.postal, reference: memory });
    expect(fromDisk.size.addresses).toBe(0);
    let same = 0; let addressFirst = 0;
    const sampled = points.filter((_, i) => i % 500 === 0);
    for (const p of sampled) {
      const street = [p.predirection, p.name, p.suffix].filter(Boolean).join(' ');
      const streets = (a: typeof fromDisk) => a.suggest(`${street} ${p.city}`, { limit: 5 }).map((x) => x.text);
      if (JSON.stringify(streets(fromDisk)) === JSON.stringify(streets(fromMemory))) same++;
      const first = fromDisk.suggest(`${p.number} ${street}, ${p.city}`, { limit: 5 })[0];
      if (first?.kind === 'address' && first.text === `${p.number} ${street}, ${p.city}, ${p.state} ${p.zip}`) addressFirst++;
    }
    expect([same, addressFirst]).toEqual([sampled.length, sampled.length]);
    disk.close();
  }, 120_000);

  it('When the data is above the memory threshold, then openReference builds the version\'s file once and opens it', async () => {
    const db = await opened;
    const version = await referenceIndexVersion(db);
    const states: boolean[] = [];
    const first = await openReference(db, version, { dir, memoryRows: 1000 }, (on) => states.push(on));
    const again = await openReference(db, version, { dir, memoryRows: 1000 }, (on) => states.push(on));
    const small = await openReference(db, version, { dir, memoryRows: 1_000_000 });
    expect([first.kept === referenceIndexFileOf(dir, version), again.kept === first.kept, small.kept]).toEqual([true, true, 'memory']);
    expect(states).toEqual([true, false]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
    first.close();
    again.close();
  });

  it('When an import writes while an index is being built, then the index holds the data as it was when the build began', async () => {
    // Arrange: a new number on a street of the first postal code (read first) and of the last (read last).
    const db = await opened;
    const before = await referenceIndexVersion(db);
    const sorted = [...points].sort((a, b) => (a.zip < b.zip ? -1 : a.zip > b.zip ? 1 : 0));
    const added = [sorted[0], sorted[sorted.length - 1]].map((p) => ({ ...p, number: String(Number(p.number) + 1), unit: null, plus4: null }));
    const file = path.join(dir, 'index-snapshot.sqlite');
    let batches = 0;

    // Act: the import's rows land (and are logged) after the build's first batch.
    const built = await buildReferenceIndexFile(db, file, {}, async () => {
      if (batches++ === 0) await insertSyntheticPoints(db, added);
    });
    const later = path.join(dir, 'index-after.sqlite');
    await buildReferenceIndexFile(db, later);

    // Assert: neither new number in the first build, whichever postal code; both in the next one.
    const dpvs = (f: string) => {
      const disk = openReferenceIndexFile(f);
      const dpv = added.map((p) => disk.index.lookup({
        postalCode: p.zip, street: { predirection: p.predirection, name: p.name, suffix: p.suffix, postdirection: null }, primaryNumber: p.number, secondaryNumber: null,
      }).dpv);
      disk.close();
      return dpv;
    };
    expect(batches).toBeGreaterThan(1);
    expect([built.version, dpvs(file), dpvs(later)]).toEqual([before, ['N', 'N'], ['Y', 'Y']]);
  });
});
