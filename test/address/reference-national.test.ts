/**
 * The readers of national public data (issue #50): the NAD text release (columns by header name, NENA spellings
 * through the input parser, Placement as precision), TIGER/Line ADDRFEAT from its shapefile pair or its zip, the
 * byte offsets an interrupted import goes on from, the point builder's caches against the parser itself, and the NAR's
 * building point from Statistics Canada Lambert. Fixtures: test/fixtures/reference (README.md, generate.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticNad } from '../../bench/reference-data.js';
import { ReferenceReaders, type ReferenceRecord } from '../../src/validation/address/reference-formats/index.js';
import { placementPrecision } from '../../src/validation/address/reference-formats/nad.js';
import { statCanLambertToDegrees } from '../../src/validation/address/reference-formats/address-points.js';
import { PointBuilder } from '../../src/validation/address/reference-formats/point-builder.js';
import { addressPointOf } from '../../src/validation/address/reference-records.js';

const fixture = (name: string) => path.resolve(import.meta.dirname, '../fixtures/reference', name);

async function readAll(format: 'nad' | 'tiger-addrfeat', file: string, options: Parameters<(typeof ReferenceReaders)['nad']>[1] = {}): Promise<ReferenceRecord[]> {
  const out: ReferenceRecord[] = [];
  const input = format === 'nad' ? fs.createReadStream(file, { highWaterMark: 97, start: options.from?.offset ?? 0 }) : [];
  for await (const r of ReferenceReaders[format](input, { path: file, ...options })) out.push(r);
  return out;
}

describe('national reference readers', () => {
  it('When the NAD fixture is read, then each row becomes a Pub 28 point with its Placement precision, and bad rows are rejected', async () => {
    const records = await readAll('nad', fixture('nad-sample.txt'));
    expect(records.map((r) => r.kind).join(',')).toBe('point,point,point,point,point,point,point,point,rejected,rejected');
    const points = records.flatMap((r) => (r.kind === 'point' ? [r.point] : []));
    expect(points[0]).toEqual({
      postalCode: '94043', street: { predirection: null, name: 'AMPHITHEATRE', suffix: 'PKWY', postdirection: null }, primaryNumber: '1600',
      unit: null, plus4: '1351', city: 'MOUNTAIN VIEW', location: { lat: 37.422006, lon: -122.084095, precision: 'rooftop' },
    });
    expect(points[1]).toMatchObject({ street: { name: 'T', suffix: 'ST', postdirection: 'SE' }, location: { precision: 'parcel' } });
    expect(points[2]).toMatchObject({ street: { predirection: 'S', name: 'WACKER', suffix: 'DR' }, unit: '3500', location: { precision: 'rooftop' } });
    // St_PreTyp `Avenue` + St_Name `B` is read as a user typing `Avenue B` is read; a Site placement is on the property.
    expect(points[3]).toMatchObject({ primaryNumber: '12', location: { precision: 'parcel' } });
    expect(points[3].street).toEqual((addressPointOf({ number: '12', street: 'Avenue B', postalCode: '10009', country: 'US' }) as { street: unknown }).street);
    // Geocoded and unknown placements keep the point, not the coordinates; a number prefix and suffix stay on it.
    expect(points[4]).toMatchObject({ primaryNumber: (addressPointOf({ number: 'N6450', street: 'Port Washington Rd', postalCode: '53217', country: 'US' }) as { primaryNumber: string }).primaryNumber });
    expect([points[4].location, points[5].location, points[7].location]).toEqual([undefined, undefined, undefined]);
    expect(points[5]).toMatchObject({ primaryNumber: (addressPointOf({ number: '27A', street: 'Elm St', postalCode: '01103', country: 'US' }) as { primaryNumber: string }).primaryNumber });
    expect(points[6]).toMatchObject({ street: { name: '5TH', suffix: 'AVE' }, unit: '150' });
    expect(points[7]).toMatchObject({ unit: 'B', postalCode: '11803' });
    expect(records.slice(8)).toEqual([
      { kind: 'rejected', record: 10, reason: 'Add_Number or St_Name empty', end: expect.any(Number) },
      { kind: 'rejected', record: 11, reason: 'bad postal code "6604"', end: expect.any(Number) },
    ]);
  });

  it('When the Placement vocabulary is read, then structures are rooftops, parcels and sites parcels, and nothing else is claimed', () => {
    expect(['Structure - Rooftop', 'Structure - Entrance', 'Parcel - Centroid', 'Parcel - Other', 'Site', 'Property Access', 'Geocoding', 'Linear Geocode', 'Unknown', 'Other', '']
      .map(placementPrecision)).toEqual(['rooftop', 'rooftop', 'parcel', 'parcel', 'parcel', 'parcel', null, null, null, null, null]);
  });

  it('When a NAD file is read again from the end of one of its rows, then the rows after it come out, numbered as before', async () => {
    const file = fixture('nad-sample.txt');
    const all = await readAll('nad', file);
    const header = fs.readFileSync(file, 'utf8').split('\r\n')[0];
    const rest = await readAll('nad', file, { from: { offset: all[3].end!, header, record: 5 } });
    expect(rest).toEqual(all.slice(4));
    expect(all[all.length - 1].end).toBe(fs.statSync(file).size);
  });

  it('When synthetic national rows go through the point builder, then each point is the one the parser gives', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cv-nad-'));
    try {
      const file = path.join(dir, 'nad.txt');
      await writeSyntheticNad(file, 3_000, 11);
      const builder = new PointBuilder('US');
      const rows = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
      const at = (name: string) => rows[0].indexOf(name);
      let compared = 0;
      for (const r of rows.slice(1)) {
        const raw = {
          number: r[at('Add_Number')], street: [r[at('St_PreDir')], r[at('St_Name')], r[at('St_PosTyp')]].filter(Boolean).join(' '),
          unit: r[at('Unit')] || undefined, postalCode: r[at('Plus_4')] ? `${r[at('Zip_Code')]}-${r[at('Plus_4')]}` : r[at('Zip_Code')], city: r[at('Post_City')],
        };
        expect(builder.point(raw)).toEqual(addressPointOf({ ...raw, country: 'US' }));
        compared++;
      }
      expect(compared).toBe(3_000);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('When a TIGER ADDRFEAT county is read, then each side with a ZIP and a range is a segment with the line ends, from the .shp or the .zip alike', async () => {
    const fromShp = await readAll('tiger-addrfeat', fixture('tl_2024_17031_addrfeat.shp'));
    const fromZip = await readAll('tiger-addrfeat', fixture('tl_2024_17031_addrfeat.zip'));
    expect(fromZip).toEqual(fromShp);
    expect(fromShp.map((r) => r.kind).join(',')).toBe('segment,segment,segment,segment,rejected');
    const segments = fromShp.flatMap((r) => (r.kind === 'segment' ? [r.segment] : []));
    expect(segments[0]).toEqual({
      postalCode: '60606', street: { predirection: 'S', name: 'WACKER', suffix: 'DR', postdirection: null }, fromNumber: '201', toNumber: '299',
      parity: 'O', from: { lat: 41.8797, lon: -87.6364 }, to: { lat: 41.8779, lon: -87.6362 }, source: 'tiger',
    });
    expect(segments[1]).toMatchObject({ fromNumber: '200', toNumber: '298', parity: 'E' });
    // A range written high to low stays as written; mixed parity reads as both.
    expect(segments[2]).toMatchObject({ postalCode: '60605', street: { name: 'LAKESHORE', suffix: 'BLVD' }, fromNumber: '1198', toNumber: '1100' });
    expect(segments[3]).toMatchObject({ postalCode: '60610', parity: 'B' });
    expect(fromShp[4]).toEqual({ kind: 'rejected', record: 4, reason: 'no side with a ZIP and a number range' });
  });

  it('When a NAR row gives its building point in Statistics Canada Lambert, then it is kept in degrees as a rooftop', async () => {
    // The projection's false origin is its centre of projection.
    const origin = statCanLambertToDegrees(6200000, 3000000);
    expect([origin.lat, origin.lon].map((d) => d.toFixed(6))).toEqual(['63.390675', '-91.866667']);
    // On the central meridian y grows northward, and east of it x grows.
    const south = statCanLambertToDegrees(6200000, 1000000);
    expect(south.lat).toBeLessThan(origin.lat - 15);
    expect(south.lon).toBeCloseTo(-91.866667, 6);
    expect(statCanLambertToDegrees(7500000, 1500000).lon).toBeGreaterThan(-80);
    const header = 'CIVIC_NO,MAIL_STREET_NAME,MAIL_STREET_TYPE,MAIL_MUN_NAME,MAIL_PROV_ABVN,MAIL_POSTAL_CODE,BG_X,BG_Y';
    const out: ReferenceRecord[] = [];
    for await (const r of ReferenceReaders.nar([`${header}\n10,Main,ST,Ottawa,ON,K1A 0B1,7000000,1200000\n11,Main,ST,Ottawa,ON,K1A 0B1,,\n`])) out.push(r);
    const [withPoint, without] = out.map((r) => (r.kind === 'point' ? r.point.location : 'rejected'));
    expect(withPoint).toMatchObject({ precision: 'rooftop' });
    expect(without).toBeUndefined();
  });
});
