/**
 * National-like synthetic address points for the reference index's tests and bench:reference: real ZIPs and their
 * cities (the shipped GeoNames extract), streets of common names and Pub 28 types, runs of house numbers of one
 * parity, units on some buildings, ZIP+4 on some points, coordinates near the ZIP's centre. Deterministic for a seed.
 */
import fs from 'node:fs';
import { SHIPPED_DATA_DIR } from '../../src/validation/address/index.js';

const NAMES = ['MAIN', 'OAK', 'PINE', 'MAPLE', 'CEDAR', 'ELM', 'WASHINGTON', 'LAKE', 'HILL', 'PARK', 'WALNUT', 'SPRING', 'NORTH',
  'RIDGE', 'CHURCH', 'WILLOW', 'MILL', 'SUNSET', 'JACKSON', 'FRANKLIN', 'HIGHLAND', 'LINCOLN', 'MADISON', 'JEFFERSON', 'CHESTNUT',
  'MEADOW', 'FOREST', 'RIVER', 'VALLEY', 'CHERRY', 'ADAMS', 'HICKORY', 'SPRUCE', 'BIRCH', 'DOGWOOD', 'MAGNOLIA', 'APPLEGATE',
  'BUCKINGHAM', 'CAMBRIDGE', 'WINDSOR', 'HAMPTON', 'PRESTON', 'GREENWOOD', 'FAIRVIEW', 'BROOKSIDE', 'COUNTRY CLUB', 'MILLER', 'SMITH'];
const SUFFIXES = ['ST', 'AVE', 'DR', 'RD', 'LN', 'CT', 'BLVD', 'WAY', 'PL', 'CIR'];
const PREDIRECTIONS = [null, null, null, null, 'N', 'S', 'E', 'W'];

export interface SyntheticPoint {
  zip: string; city: string; state: string;
  predirection: string | null; name: string; suffix: string;
  number: string; unit: string | null; plus4: string | null; lat: number; lon: number;
}

/** A small fast PRNG (mulberry32): the same data for the same seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shippedZips(): { zip: string; state: string; city: string; lat: number; lon: number }[] {
  const text = fs.readFileSync(new URL('us-zip-codes.tsv', SHIPPED_DATA_DIR), 'utf8');
  return text.split('\n').filter(Boolean).map((line) => {
    const [zip, state, city, , lat, lon] = line.split('\t');
    return { zip, state, city, lat: Number(lat), lon: Number(lon) };
  });
}

/**
 * `points` points over `zipCount` ZIPs (spread over the country), street by street: each street a run of numbers of
 * one parity from a random start, a tenth of buildings with units, a third of points with a ZIP+4.
 */
export function* syntheticPoints(points: number, options: { zipCount?: number; seed?: number } = {}): Generator<SyntheticPoint> {
  const rand = random(options.seed ?? 50);
  const all = shippedZips();
  const zipCount = Math.min(all.length, options.zipCount ?? all.length);
  const step = all.length / zipCount;
  const perZip = Math.ceil(points / zipCount);
  let made = 0;
  for (let z = 0; z < zipCount && made < points; z++) {
    const place = all[Math.floor(z * step)];
    const used = new Set<string>();
    let inZip = 0;
    while (inZip < perZip && made < points) {
      const predirection = PREDIRECTIONS[Math.floor(rand() * PREDIRECTIONS.length)];
      const name = NAMES[Math.floor(rand() * NAMES.length)];
      const suffix = SUFFIXES[Math.floor(rand() * SUFFIXES.length)];
      const key = `${predirection}|${name}|${suffix}`;
      if (used.has(key)) continue;
      used.add(key);
      const run = 20 + Math.floor(rand() * 180);
      let number = 100 + 2 * Math.floor(rand() * 4000) + (rand() < 0.5 ? 1 : 0);
      for (let i = 0; i < run && inZip < perZip && made < points; i++, number += 2) {
        const units = rand() < 0.1 ? 1 + Math.floor(rand() * 8) : 0;
        const plus4 = rand() < 0.33 ? String(1000 + Math.floor(rand() * 9000)) : null;
        const lat = place.lat + (rand() - 0.5) * 0.05;
        const lon = place.lon + (rand() - 0.5) * 0.05;
        const base = { zip: place.zip, city: place.city, state: place.state, predirection, name, suffix, number: String(number), plus4, lat, lon };
        if (units === 0) {
          yield { ...base, unit: null };
          made++;
          inZip++;
        } else {
          for (let u = 1; u <= units && made < points; u++, made++, inZip++) yield { ...base, unit: String(u) };
        }
      }
    }
  }
}

const csvField = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export const OPENADDRESSES_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';

/** The point as a line of an OpenAddresses CSV file. */
export function openAddressesLine(p: SyntheticPoint): string {
  const street = [p.predirection, p.name, p.suffix].filter(Boolean).join(' ');
  const postcode = p.plus4 ? `${p.zip}-${p.plus4}` : p.zip;
  return [p.lon.toFixed(6), p.lat.toFixed(6), p.number, street, p.unit ? `APT ${p.unit}` : '', p.city, '', p.state, postcode, '', '']
    .map(csvField).join(',');
}

const POINT_COLUMNS = ['postal_code', 'street_key', 'primary_number', 'unit', 'predirection', 'street_name', 'suffix', 'postdirection', 'plus4',
  'source', 'city', 'lat', 'lon', 'precision', 'sources'];

/** Rows into a table, a hundred per INSERT. */
export async function insertRows(db: { run(sql: string, params: unknown[]): Promise<unknown> }, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const values = chunk.map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
    await db.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`, chunk.flat());
  }
}

/** The points straight into reference_points (as an OpenAddresses import of them stores them) and the import logged. */
export async function insertSyntheticPoints(db: { run(sql: string, params: unknown[]): Promise<unknown> }, points: readonly SyntheticPoint[]): Promise<void> {
  await insertRows(db, 'reference_points', POINT_COLUMNS, points.map((p) => [p.zip, `${p.predirection ?? ''}|${p.name}|${p.suffix}|`, p.number,
    p.unit ?? '', p.predirection, p.name, p.suffix, null, p.plus4, 'openaddresses', p.city, p.lat, p.lon, 'rooftop', 'openaddresses']));
  await db.run(`INSERT INTO reference_imports (format, file, records_read, records_loaded, records_rejected, records_deleted, created_at)
    VALUES ('openaddresses', 'synthetic.csv', $1, $1, 0, 0, $2)`, [points.length, Date.now()]);
}

/** The point as a person types it (with its unit). */
export function typedLine(p: SyntheticPoint, number = p.number): string {
  return `${number} ${[p.predirection, p.name, p.suffix].filter(Boolean).join(' ')}${p.unit ? ` Apt ${p.unit}` : ''}, ${p.city}, ${p.state} ${p.zip}`;
}
