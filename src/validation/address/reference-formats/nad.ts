/**
 * The US National Address Database (USDOT; public domain), its text/CSV release: one address point a row, columns
 * found by their header names (the release's column order has changed between versions):
 *   number      AddNum_Pre + Add_Number + AddNum_Suf (`N123`, `123A`, `123 1/2`)
 *   street      St_PreMod St_PreDir St_PreTyp St_PreSep St_Name St_PosTyp St_PosDir St_PosMod, spelled out as NENA
 *               writes them (`North`, `Avenue`) and read by the same parser as input, which writes Pub 28's forms
 *               (`N`, `AVE`): the file's `Avenue B` meets a user's `Ave B`
 *   unit        Unit, else Room, Seat, Building (Floor alone is no delivery unit), else SubAddress
 *   ZIP         Zip_Code (+ Plus_4 where given); place Post_City
 *   location    Longitude/Latitude (WGS 84 degrees) with Placement's precision, placementPrecision() below.
 * Rows without a number, a street name or a 5-digit ZIP are rejected with the reason.
 */
import { columnReader, csvRows, type CsvColumns } from './csv-lines.js';
import { PointBuilder, coordinates } from './point-builder.js';
import type { ByteSource, ReadOptions, ReferenceRecord } from './records.js';
import type { LocationPrecision } from '../reference-types.js';

const STREET_COLUMNS = ['ST_PREMOD', 'ST_PREDIR', 'ST_PRETYP', 'ST_PRESEP', 'ST_NAME', 'ST_POSTYP', 'ST_POSDIR', 'ST_POSMOD'];
const UNIT_COLUMNS = ['UNIT', 'ROOM', 'SEAT', 'BUILDING', 'SUBADDRESS'];
const REQUIRED_COLUMNS = ['ADD_NUMBER', 'ST_NAME', 'ZIP_CODE'];

/**
 * The NAD's Placement (the NENA placement method) as the precision of the point's coordinates:
 *   `Structure - Rooftop`, `Structure - Entrance`, any `Structure…`, `Rooftop`, `Entrance`, `Building`  -> rooftop
 *   `Parcel - Centroid`, `Parcel - Other`, any `Parcel…`, `Site`, `Property Access`                     -> parcel
 *   `Geocoding`, `Linear Geocode`, `Unknown`, `Other`, empty                                         -> no location
 * A point placed by geocoding stands on the street line, not on the property, and one of unknown placement is not
 * claimed to stand anywhere in particular (the schema does not say an unknown placement is a rooftop): their
 * coordinates are not kept, the point itself is.
 */
export function placementPrecision(placement: string): Extract<LocationPrecision, 'rooftop' | 'parcel'> | null {
  const p = placement.toLowerCase();
  if (/structure|rooftop|entrance|building/.test(p)) return 'rooftop';
  if (/parcel|site|property access/.test(p)) return 'parcel';
  return null;
}

/** `123`, `N` `123`, `123` `A`, `123` `1/2` as one house number, written the way input writes it. */
function houseNumber(prefix: string, number: string, suffix: string): string {
  const n = number.replace(/\.0+$/, '');
  const after = !suffix ? '' : /^\d+\/\d+$/.test(suffix) ? ` ${suffix}` : suffix;
  return `${prefix}${n}${after}`;
}

export async function* readNationalAddressDatabase(input: ByteSource, options: ReadOptions = {}): AsyncGenerator<ReferenceRecord> {
  let get: (fields: string[], name: string) => string = () => '';
  let missing: string[] = [];
  const onHeader = (columns: CsvColumns) => {
    get = columnReader(columns);
    missing = REQUIRED_COLUMNS.filter((c) => !columns.has(c));
  };
  const builder = new PointBuilder('US');
  for await (const { fields, number, end } of csvRows(input, options.from, onHeader)) {
    if (missing.length) throw Object.assign(new Error(`not a NAD file: no ${missing.join(', ')} column in its header`), { code: 'INVALID_ARGUMENT' });
    const streetParts: string[] = [];
    for (const c of STREET_COLUMNS) {
      const v = get(fields, c);
      if (v) streetParts.push(v);
    }
    const numberText = get(fields, 'ADD_NUMBER');
    if (!numberText || !get(fields, 'ST_NAME')) {
      yield { kind: 'rejected', record: number, reason: 'Add_Number or St_Name empty', end };
      continue;
    }
    let unit = '';
    for (const c of UNIT_COLUMNS) if ((unit = get(fields, c))) break;
    const zip = get(fields, 'ZIP_CODE');
    const plus4 = get(fields, 'PLUS_4');
    const at = coordinates(get(fields, 'LATITUDE'), get(fields, 'LONGITUDE'));
    const precision = at && placementPrecision(get(fields, 'PLACEMENT'));
    const point = builder.point({
      number: houseNumber(get(fields, 'ADDNUM_PRE'), numberText, get(fields, 'ADDNUM_SUF')),
      street: streetParts.join(' '),
      unit: unit || undefined,
      postalCode: plus4 && /^\d{5}$/.test(zip) ? `${zip}-${plus4}` : zip,
      city: get(fields, 'POST_CITY') || undefined,
    }, at && precision ? { ...at, precision } : null);
    yield 'rejected' in point ? { kind: 'rejected', record: number, reason: point.rejected, end } : { kind: 'point', point, end };
  }
}
