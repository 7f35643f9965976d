/**
 * Synthetic National Address Database files for the import bench (bench/reference-import.ts) and whoever else needs
 * national-size NAD text: the points of test/support/synthetic-reference.ts (real ZIPs and cities, runs of numbers of
 * one parity, units on some buildings, ZIP+4 on some points, coordinates near the ZIP's centre) written in the NAD
 * release's columns, with its spellings (street types and directionals spelled out, `Structure - Rooftop` and
 * `Parcel - Centroid` placements). Deterministic for a seed; written as a stream (constant memory).
 *
 *     await writeSyntheticNad('/tmp/nad.txt', 1_000_000, 7);
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { syntheticPoints } from '../test/support/synthetic-reference.js';

/** The columns of the NAD text release (r-series), in its order; the importer finds them by name. */
export const NAD_COLUMNS = ['OID_', 'AddNum_Pre', 'Add_Number', 'AddNum_Suf', 'AddNo_Full', 'St_PreMod', 'St_PreDir', 'St_PreTyp', 'St_PreSep',
  'St_Name', 'St_PosTyp', 'St_PosDir', 'St_PosMod', 'StNam_Full', 'Building', 'Floor', 'Unit', 'Room', 'Seat', 'Addtl_Loc', 'SubAddress',
  'LandmkName', 'County', 'Inc_Muni', 'Post_City', 'Census_Plc', 'Uninc_Comm', 'Nbrhd_Comm', 'NatAmArea', 'NatAmSub', 'Urbnztn_PR',
  'PlaceOther', 'PlaceNmTyp', 'State', 'Zip_Code', 'Plus_4', 'UUID', 'AddAuth', 'AddrRefSys', 'Longitude', 'Latitude', 'NatGrid', 'Elevation',
  'Placement', 'AddrPoint', 'Related_ID', 'RelateType', 'ParcelSrc', 'Parcel_ID', 'AddrClass', 'Lifecycle', 'Effective', 'Expire',
  'DateUpdate', 'AnomStatus', 'LocatnDesc', 'Addr_Type', 'DeliverTyp', 'NAD_Source', 'DataSet_ID'] as const;

const TYPE_WORDS: Record<string, string> = {
  ST: 'Street', AVE: 'Avenue', DR: 'Drive', RD: 'Road', LN: 'Lane', CT: 'Court', BLVD: 'Boulevard', WAY: 'Way', PL: 'Place', CIR: 'Circle',
};
const DIRECTION_WORDS: Record<string, string> = { N: 'North', S: 'South', E: 'East', W: 'West' };
const title = (s: string) => s.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
const csv = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Writes `points` synthetic NAD rows (and the header) to `file`. */
export async function writeSyntheticNad(file: string, points: number, seed: number): Promise<void> {
  const out = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
  const at = new Map<string, number>(NAD_COLUMNS.map((c, i) => [c, i]));
  const blank = NAD_COLUMNS.map(() => '');
  let chunk = `${NAD_COLUMNS.join(',')}\n`;
  let oid = 0;
  for (const p of syntheticPoints(points, { seed, zipCount: Math.max(50, Math.min(20_000, Math.round(points / 400))) })) {
    oid++;
    const row = blank.slice();
    const set = (c: (typeof NAD_COLUMNS)[number], v: string) => { row[at.get(c)!] = v; };
    const type = TYPE_WORDS[p.suffix] ?? title(p.suffix);
    const dir = p.predirection ? DIRECTION_WORDS[p.predirection] : '';
    set('OID_', String(oid));
    set('Add_Number', p.number);
    set('AddNo_Full', p.number);
    set('St_PreDir', dir);
    set('St_Name', title(p.name));
    set('St_PosTyp', type);
    set('StNam_Full', [dir, title(p.name), type].filter(Boolean).join(' '));
    if (p.unit) set('Unit', `Apt ${p.unit}`);
    set('Inc_Muni', title(p.city));
    set('Post_City', title(p.city));
    set('State', p.state);
    set('Zip_Code', p.zip);
    if (p.plus4) set('Plus_4', p.plus4);
    set('UUID', `{${(seed * 1e9 + oid).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000}`);
    set('Longitude', p.lon.toFixed(6));
    set('Latitude', p.lat.toFixed(6));
    set('Placement', oid % 5 === 0 ? 'Parcel - Centroid' : 'Structure - Rooftop');
    set('Addr_Type', p.unit ? 'Residential' : 'Unknown');
    set('NAD_Source', 'Synthetic');
    set('DateUpdate', '2026/01/15 00:00:00+00');
    chunk += `${row.map(csv).join(',')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}
