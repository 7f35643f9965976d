/**
 * Address-point CSV files: OpenAddresses (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH) and
 * Statistics Canada's National Address Register (mailing fields preferred: CIVIC_NO, MAIL_STREET_NAME/TYPE/DIR,
 * APT_NO_LABEL, MAIL_POSTAL_CODE; the official fields when the mailing ones are empty). Read as a stream by
 * csv-lines.ts (one row in memory at a time, each with where it ends in the file), points built by point-builder.ts.
 * Coordinates: OpenAddresses' LON/LAT (WGS 84) are kept as `parcel` (OpenAddresses does not say where on the property
 * its points stand, so they are not claimed to be on the building); the NAR's BG_X/BG_Y are the building's point in
 * Statistics Canada Lambert (EPSG:3347), turned into degrees (`rooftop`).
 */
import { columnReader, csvRows, type CsvColumns } from './csv-lines.js';
import { PointBuilder, coordinates } from './point-builder.js';
import type { ByteSource, ReadOptions, ReferenceRecord } from './records.js';
import type { PointLocation } from '../reference-types.js';
import { CanadianStreetTypeBefore } from '../tables.js';

type Get = (fields: string[], name: string) => string;

/** The rows of a CSV file with a reader of their columns by name. */
async function* csvFile(input: ByteSource, options: ReadOptions): AsyncGenerator<{ fields: string[]; number: number; end: number; get: Get }> {
  let get: Get = () => '';
  for await (const row of csvRows(input, options.from, (columns: CsvColumns) => { get = columnReader(columns); })) yield { ...row, get };
}

export async function* readOpenAddresses(input: ByteSource, options: ReadOptions = {}, country: 'US' | 'CA' = 'US'): AsyncGenerator<ReferenceRecord> {
  const builder = new PointBuilder(country);
  for await (const { fields, number, end, get } of csvFile(input, options)) {
    const houseNumber = get(fields, 'NUMBER');
    const street = get(fields, 'STREET');
    if (!houseNumber || !street) {
      yield { kind: 'rejected', record: number, reason: 'NUMBER or STREET empty', end };
      continue;
    }
    const at = coordinates(get(fields, 'LAT'), get(fields, 'LON'));
    const point = builder.point({ number: houseNumber, street, unit: get(fields, 'UNIT') || undefined, postalCode: get(fields, 'POSTCODE'), city: get(fields, 'CITY') },
      at && { ...at, precision: 'parcel' });
    yield 'rejected' in point ? { kind: 'rejected', record: number, reason: point.rejected, end } : { kind: 'point', point, end };
  }
}

/**
 * Statistics Canada Lambert (EPSG:3347: NAD83, Lambert conformal conic, standard parallels 49° and 77°, origin 63.390675°N
 * 91.866667°W at 6,200,000 m E 3,000,000 m N) to degrees, by Snyder's inverse (USGS Professional Paper 1395, 15-10).
 */
const LAMBERT = (() => {
  const a = 6378137;
  const f = 1 / 298.257222101;
  const e = Math.sqrt(2 * f - f * f);
  const rad = Math.PI / 180;
  const m = (phi: number) => Math.cos(phi) / Math.sqrt(1 - e * e * Math.sin(phi) ** 2);
  const t = (phi: number) => Math.tan(Math.PI / 4 - phi / 2) / ((1 - e * Math.sin(phi)) / (1 + e * Math.sin(phi))) ** (e / 2);
  const [phi1, phi2, phi0] = [49 * rad, 77 * rad, 63.390675 * rad];
  const n = (Math.log(m(phi1)) - Math.log(m(phi2))) / (Math.log(t(phi1)) - Math.log(t(phi2)));
  const F = m(phi1) / (n * t(phi1) ** n);
  const rho0 = a * F * t(phi0) ** n;
  return { a, e, n, F, rho0, lon0: -91.86666666666666, x0: 6200000, y0: 3000000, rad };
})();

export function statCanLambertToDegrees(x: number, y: number): { lat: number; lon: number } {
  const { a, e, n, F, rho0, lon0, x0, y0, rad } = LAMBERT;
  const dx = x - x0;
  const dy = rho0 - (y - y0);
  const rho = Math.sign(n) * Math.sqrt(dx * dx + dy * dy);
  const t = (rho / (a * F)) ** (1 / n);
  let phi = Math.PI / 2 - 2 * Math.atan(t);
  for (let i = 0; i < 8; i++) phi = Math.PI / 2 - 2 * Math.atan(t * ((1 - e * Math.sin(phi)) / (1 + e * Math.sin(phi))) ** (e / 2));
  return { lat: phi / rad, lon: Math.atan2(dx, dy) / n / rad + lon0 };
}

/** The NAR's building point, when the row gives one inside Canada. */
function narLocation(xText: string, yText: string): PointLocation | null {
  const x = Number(xText);
  const y = Number(yText);
  if (!xText || !yText || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  const { lat, lon } = statCanLambertToDegrees(x, y);
  return lat > 41 && lat < 84 && lon > -142 && lon < -52 ? { lat, lon, precision: 'rooftop' } : null;
}

export async function* readNationalAddressRegister(input: ByteSource, options: ReadOptions = {}): AsyncGenerator<ReferenceRecord> {
  const builder = new PointBuilder('CA');
  for await (const { fields, number, end, get } of csvFile(input, options)) {
    const mail = get(fields, 'MAIL_STREET_NAME');
    const name = mail || get(fields, 'OFFICIAL_STREET_NAME');
    const type = get(fields, mail ? 'MAIL_STREET_TYPE' : 'OFFICIAL_STREET_TYPE');
    const dir = get(fields, mail ? 'MAIL_STREET_DIR' : 'OFFICIAL_STREET_DIR');
    const civic = `${get(fields, 'CIVIC_NO')}${get(fields, 'CIVIC_NO_SUFFIX')}`.trim();
    if (!civic || !name) {
      yield { kind: 'rejected', record: number, reason: 'no civic number or street name', end };
      continue;
    }
    // Canada Post writes French street types before the name (RUE SAINT-DENIS), English ones after (MAIN ST).
    const before = type && CanadianStreetTypeBefore.has(type.toUpperCase()) && get(fields, 'MAIL_PROV_ABVN') === 'QC';
    const street = [before ? type : '', name, before ? '' : type, dir].filter(Boolean).join(' ');
    const point = builder.point({
      number: civic, street, unit: get(fields, 'APT_NO_LABEL') || undefined, postalCode: get(fields, 'MAIL_POSTAL_CODE'),
      city: get(fields, 'MAIL_MUN_NAME') || get(fields, 'CSD_ENG_NAME'),
    }, narLocation(get(fields, 'BG_X'), get(fields, 'BG_Y')));
    yield 'rejected' in point ? { kind: 'rejected', record: number, reason: point.rejected, end } : { kind: 'point', point, end };
  }
}
