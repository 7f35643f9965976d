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
import { csvRows, type CsvColumns } from './csv-lines.js';
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

/** The positions of the columns the reader takes, found once from the header (-1: the file has no such column). */
function nadColumns(columns: CsvColumns) {
  const at = (name: string) => columns.get(name) ?? -1;
  const c = {
    missing: REQUIRED_COLUMNS.filter((name) => !columns.has(name)),
    street: STREET_COLUMNS.map(at).filter((i) => i >= 0),
    unit: UNIT_COLUMNS.map(at).filter((i) => i >= 0),
    prefix: at('ADDNUM_PRE'), number: at('ADD_NUMBER'), suffix: at('ADDNUM_SUF'), name: at('ST_NAME'), zip: at('ZIP_CODE'), plus4: at('PLUS_4'),
    city: at('POST_CITY'), lat: at('LATITUDE'), lon: at('LONGITUDE'), placement: at('PLACEMENT'),
  };
  /** The positions the reader takes (csvRows cuts only these). */
  const taken = [...c.street, ...c.unit, c.prefix, c.number, c.suffix, c.name, c.zip, c.plus4, c.city, c.lat, c.lon, c.placement].filter((i) => i >= 0);
  return { ...c, taken };
}

export async function* readNationalAddressDatabase(input: ByteSource, options: ReadOptions = {}): AsyncGenerator<ReferenceRecord> {
  let c = nadColumns(new Map());
  const builder = new PointBuilder('US');
  const precisions = new Map<string, ReturnType<typeof placementPrecision>>();
  let fields: string[] = [];
  const get = (i: number) => (i < 0 ? '' : (fields[i] ?? '').trim());
  for await (const row of csvRows(input, options.from, (columns) => { c = nadColumns(columns); return c.taken; })) {
    if (c.missing.length) throw Object.assign(new Error(`not a NAD file: no ${c.missing.join(', ')} column in its header`), { code: 'INVALID_ARGUMENT' });
    ({ fields } = row);
    const { number, end } = row;
    const numberText = get(c.number);
    if (!numberText || !get(c.name)) {
      yield { kind: 'rejected', record: number, reason: 'Add_Number or St_Name empty', end };
      continue;
    }
    let street = '';
    for (const i of c.street) {
      const v = get(i);
      if (v) street = street ? `${street} ${v}` : v;
    }
    let unit = '';
    for (const i of c.unit) if ((unit = get(i))) break;
    const zip = get(c.zip);
    const plus4 = get(c.plus4);
    const at = coordinates(get(c.lat), get(c.lon));
    let precision: ReturnType<typeof placementPrecision> | undefined = null;
    if (at) {
      const placement = get(c.placement);
      precision = precisions.get(placement);
      if (precision === undefined) {
        precision = placementPrecision(placement);
        if (precisions.size < 1000) precisions.set(placement, precision);
      }
    }
    const prefix = get(c.prefix);
    const suffix = get(c.suffix);
    const point = builder.point({
      number: prefix || suffix || numberText.includes('.') ? houseNumber(prefix, numberText, suffix) : numberText,
      street,
      unit: unit || undefined,
      postalCode: plus4 && zip.length === 5 ? `${zip}-${plus4}` : zip,
      city: get(c.city) || undefined,
    }, at && precision ? { lat: at.lat, lon: at.lon, precision } : null);
    yield 'rejected' in point ? { kind: 'rejected', record: number, reason: point.rejected, end } : { kind: 'point', point, end };
  }
}
