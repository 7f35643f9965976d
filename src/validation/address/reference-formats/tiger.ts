/**
 * Census TIGER/Line ADDRFEAT (CC0; a shapefile per county, `tl_YYYY_SSCCC_addrfeat`): each feature is a street segment
 * with its potential house number range on each side. Attributes come from the .dbf (LINEARID, FULLNAME, LFROMHN,
 * LTOHN, RFROMHN, RTOHN, ZIPL, ZIPR, PARITYL, PARITYR), the line from the .shp (NAD83 degrees, which are WGS 84's to
 * within a metre). A side with a ZIP and both ends of its range becomes a StreetSegmentRecord: evidence that the street
 * holds that number range, never that a house exists. PARITY M (mixed) reads as B (both); FULLNAME goes through the
 * input parser (Pub 28). Read from the .shp with its .dbf beside it, or from the county's .zip as the Census ships it;
 * both stream (the `shapefile` package), one feature in memory at a time.
 */
import path from 'node:path';
import * as shapefile from 'shapefile';
import type { Readable } from 'node:stream';
import { addressPointOf } from '../reference-records.js';
import type { StreetParts, StreetSegmentRecord } from '../reference-types.js';
import type { ByteSource, ReadOptions, ReferenceRecord } from './records.js';
import { zipMemberStream, zipMembers } from './zip-entries.js';

const CACHE_LIMIT = 20_000;

type Side = { zip: unknown; from: unknown; to: unknown; parity: unknown };

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value).trim();
}

function parityOf(value: string): StreetSegmentRecord['parity'] {
  return value === 'O' || value === 'E' ? value : 'B';
}

/** The .shp and .dbf as the shapefile package opens them: paths, or streams of the zip's members. */
async function shapefileSources(file: string): Promise<[string | Readable, string | Readable, () => void]> {
  if (!/\.zip$/i.test(file)) {
    const base = file.replace(/\.(shp|dbf)$/i, '');
    return [`${base}.shp`, `${base}.dbf`, () => undefined];
  }
  const members = await zipMembers(file);
  const find = (ext: string) => {
    const m = members.find((x) => x.name.toLowerCase().endsWith(ext));
    if (!m) throw Object.assign(new Error(`${path.basename(file)} holds no ${ext} file`), { code: 'INVALID_ARGUMENT' });
    return m;
  };
  const shp = await zipMemberStream(file, find('.shp'));
  const dbf = await zipMemberStream(file, find('.dbf'));
  return [shp, dbf, () => { shp.destroy(); dbf.destroy(); }];
}

export async function* readTigerAddressFeatures(_input: ByteSource, options: ReadOptions = {}): AsyncGenerator<ReferenceRecord> {
  if (!options.path) throw Object.assign(new Error('tiger-addrfeat reads a .shp (with its .dbf) or the county .zip by path'), { code: 'INVALID_ARGUMENT' });
  const [shp, dbf, close] = await shapefileSources(options.path);
  const streets = new Map<string, StreetParts | null>();
  const streetOf = (fullName: string): StreetParts | null => {
    let parts = streets.get(fullName);
    if (parts === undefined) {
      if (streets.size >= CACHE_LIMIT) streets.clear();
      const probe = addressPointOf({ number: '100', street: fullName, postalCode: '10001', country: 'US' });
      parts = 'rejected' in probe ? null : probe.street;
      streets.set(fullName, parts);
    }
    return parts;
  };
  try {
    // (TIGER/Line has written its .dbf in UTF-8 since 2015, as its .cpg says.)
    const source = await shapefile.open(shp, dbf, { encoding: 'utf-8' });
    let number = 0;
    for (;;) {
      const { done, value } = await source.read();
      if (done) break;
      number++;
      const p = (value.properties ?? {}) as Record<string, unknown>;
      const fullName = text(p.FULLNAME);
      const street = fullName ? streetOf(fullName) : null;
      if (!street) {
        yield { kind: 'rejected', record: number, reason: fullName ? `no street in FULLNAME "${fullName}"` : 'FULLNAME empty' };
        continue;
      }
      const line = value.geometry?.type === 'LineString' ? value.geometry.coordinates
        : value.geometry?.type === 'MultiLineString' ? value.geometry.coordinates.flat() : [];
      const first = line[0];
      const last = line[line.length - 1];
      const from = first ? { lat: first[1], lon: first[0] } : null;
      const to = last ? { lat: last[1], lon: last[0] } : null;
      const sides: Side[] = [
        { zip: p.ZIPL, from: p.LFROMHN, to: p.LTOHN, parity: p.PARITYL },
        { zip: p.ZIPR, from: p.RFROMHN, to: p.RTOHN, parity: p.PARITYR },
      ];
      let held = 0;
      for (const side of sides) {
        const zip = text(side.zip);
        const fromNumber = text(side.from);
        const toNumber = text(side.to);
        if (!/^\d{5}$/.test(zip) || !fromNumber || !toNumber) continue;
        held++;
        yield { kind: 'segment', segment: { postalCode: zip, street, fromNumber, toNumber, parity: parityOf(text(side.parity)), from, to, source: 'tiger' } };
      }
      if (!held) yield { kind: 'rejected', record: number, reason: 'no side with a ZIP and a number range' };
    }
  } finally {
    close();
  }
}
