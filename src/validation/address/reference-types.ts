/**
 * What the delivery-point reference holds and answers: address points and street ranges as loaded, a look-up and its
 * answer (DPV, ZIP+4, the street as the data spells it). The codes are described in reference-index.ts.
 */
import type { Dpv } from '../types.js';

/** Where a point or a number is: from the point's own coordinates, along a street segment, or the postal code's centre. */
export type LocationPrecision = 'rooftop' | 'parcel' | 'interpolated' | 'postal_code';
export interface PointLocation { lat: number; lon: number; precision: LocationPrecision }
/** Source ids kept per point/range: 'usps', 'nad', 'openaddresses', 'nar', 'rrad', 'tiger' (a sample import keeps its id). */
export type ReferenceSource = string;

export interface StreetParts {
  predirection: string | null;
  name: string | null;
  suffix: string | null;
  postdirection: string | null;
}

export interface AddressPointRecord {
  /** ZIP5 (US) or `A1A 1A1` (Canada). */
  postalCode: string;
  street: StreetParts;
  primaryNumber: string;
  /** Secondary number of the unit (designator dropped: `APT 4B` and `# 4B` are the same unit). */
  unit: string | null;
  plus4: string | null;
  /** The place name the address file gives the point (not a USPS mailing name), when it gives one. */
  city?: string | null;
  /**
   * The point is one of a sample of addresses (the embedded RRAD), not of a file that lists every address of its
   * streets: its street is not covered by it, and another number of the street is not denied.
   */
  sample?: boolean;
  /** The point's coordinates (rooftop, or parcel where NAD's Placement says a parcel centroid), when the file gives them. */
  location?: PointLocation | null;
  /** The files that hold this point (merged: one point, several sources). */
  sources?: readonly ReferenceSource[];
}

/** A TIGER/Line ADDRFEAT side of a street segment: potential house numbers, not delivery points. */
export interface StreetSegmentRecord {
  postalCode: string;            // ZIPL or ZIPR of that side
  street: StreetParts;           // FULLNAME parsed into Pub 28 parts
  fromNumber: string;            // LFROMHN / RFROMHN (as written; may be > toNumber)
  toNumber: string;              // LTOHN / RTOHN
  parity: 'O' | 'E' | 'B';       // PARITYL / PARITYR (M = mixed -> 'B')
  /** Segment ends (first and last vertex of the .shp line), for interpolating a number's position; null without geometry. */
  from: { lat: number; lon: number } | null;
  to: { lat: number; lon: number } | null;
  source: ReferenceSource;       // 'tiger'
}

export interface StreetRangeRecord {
  zip: string;
  /** USPS record type: S street, H high-rise, F firm, P PO Box, R rural route, G general delivery. */
  recordType: string;
  street: StreetParts;
  primaryLow: string;
  primaryHigh: string;
  /** O odd, E even, B both. */
  primaryParity: string;
  secondaryDesignator: string | null;
  secondaryLow: string | null;
  secondaryHigh: string | null;
  secondaryParity: string | null;
  plus4Low: string | null;
  plus4High: string | null;
}

export interface ReferenceQuery {
  postalCode: string;
  street: StreetParts;
  primaryNumber: string | null;
  secondaryNumber: string | null;
}

export interface ReferenceAnswer {
  dpv: Dpv;
  zip4: string | null;
  /** The street as the data spells it, when it differs from the query (suffix or directional corrected). */
  correctedStreet: StreetParts | null;
  /** Several streets of the ZIP fit the query equally. */
  ambiguous: boolean;
  /** The designator the data writes the confirmed unit with (`STE`, from a USPS ZIP+4 record), where it gives one. */
  unitDesignator?: string | null;
  /**
   * True when `correctedStreet` only spells out a street type or directional inside the name as the data does
   * (`7TH ST RD` is `7TH STREET RD`): standardization, not a correction.
   */
  respelled?: boolean;
  /**
   * The street is named only by sampled points (AddressPointRecord.sample), none of them this number: `dpv` is "",
   * where a street that a whole address file covers would answer N.
   */
  numberNotInSample?: boolean;
  /** What confirmed the address (plain vocabulary of the answer's `evidence`). */
  evidence?: 'delivery_point' | 'address_point' | 'street_range' | 'street' | 'none';
  sources?: readonly ReferenceSource[];
  location?: PointLocation | null;
}

/** A name USPS lists for a ZIP but does not accept in a last line, and the ZIP's name to write instead. */
export interface CityAlias {
  zip: string;
  state: string;
  preferred: string;
}

/** The number was looked for on a street of the data and is not there (N), or not among its sampled points. */
export function numberNotFound(answer: ReferenceAnswer): boolean {
  return answer.dpv === 'N' || answer.numberNotInSample === true;
}

/** A delivery point of the data: confirmed, its unit unconfirmed, or its unit missing. */
export function delivers(answer: ReferenceAnswer): boolean {
  return answer.dpv === 'Y' || answer.dpv === 'S' || answer.dpv === 'D';
}
