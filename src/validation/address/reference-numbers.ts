/**
 * What the loaded data says of one house number (and unit) on one street of a postal code: the DPV code and ZIP+4 its
 * address points or USPS street ranges give.
 */
import type { PointLocation, ReferenceAnswer, ReferenceQuery, ReferenceSource, StreetRangeRecord, StreetSegmentRecord } from './reference-types.js';

/** One house number of a street: its units and add-ons, the files that hold it and where it is, where known. */
export interface PointEntry {
  units: Set<string>;
  plus4: string | null;
  unitPlus4: Map<string, string>;
  sources?: readonly ReferenceSource[];
  location?: PointLocation | null;
}

/** USPS data confirms a delivery point; the address files (NAD, OpenAddresses, NAR, RRAD) an address point. */
function pointEvidence(entry: PointEntry): { evidence: 'delivery_point' | 'address_point'; sources: readonly ReferenceSource[]; location: PointLocation | null } {
  const sources = entry.sources ?? [];
  return { evidence: sources.includes('usps') ? 'delivery_point' : 'address_point', sources, location: entry.location ?? null };
}
const USPS_RANGE = { evidence: 'delivery_point', sources: ['usps'], location: null } as const;
const STREET_ONLY = { evidence: 'street' } as const;

/** Leading number of a house or unit number (`123A` -> 123), for range tests. */
function numericPart(value: string): number {
  const m = /^\d+/.exec(value);
  return m ? Number(m[0]) : NaN;
}

/** A house or unit number inside a range of the data, of its parity (O odd, E even, B both). */
export function inRange(value: string, low: string, high: string, parity: string | null): boolean {
  if (value === low || value === high) return true;
  const v = numericPart(value);
  const lo = numericPart(low);
  const hi = numericPart(high);
  if (Number.isNaN(v) || Number.isNaN(lo) || Number.isNaN(hi) || String(v) !== value.replace(/^0+(?=\d)/, '')) return false;
  if (v < lo || v > hi) return false;
  if (parity === 'O') return v % 2 === 1;
  if (parity === 'E') return v % 2 === 0;
  return true;
}

/** A unit as units are compared: upper case, no hyphen or space inside (`3-B`, `3 B` and `3B` are one), no leading zeros. */
export function normalizeUnit(unit: string): string {
  return unit.toUpperCase().replace(/[\s-]+/g, '').replace(/^0+(?=\w)/, '');
}

/**
 * What a street's address points say of the query's number and unit; `sampled` when only sampled points name the
 * street (a number they lack is neither confirmed nor denied).
 */
export function pointsAnswer(q: ReferenceQuery, numbers: ReadonlyMap<string, PointEntry>, sampled: boolean): ReferenceAnswer {
  const entry = q.primaryNumber ? numbers.get(q.primaryNumber.replace(/\s+/g, ' ')) : undefined;
  if (!entry) {
    return sampled
      ? { dpv: '', zip4: null, correctedStreet: null, ambiguous: false, numberNotInSample: true, ...STREET_ONLY }
      : { dpv: 'N', zip4: null, correctedStreet: null, ambiguous: false, ...STREET_ONLY };
  }
  const found = pointEvidence(entry);
  const zip4 = (plus4: string | null | undefined) => (plus4 ? `${q.postalCode}-${plus4}` : null);
  if (q.secondaryNumber) {
    const unit = normalizeUnit(q.secondaryNumber);
    if (entry.units.has(unit)) return { dpv: 'Y', zip4: zip4(entry.unitPlus4.get(unit) ?? entry.plus4), correctedStreet: null, ambiguous: false, ...found };
    return { dpv: 'S', zip4: zip4(entry.plus4), correctedStreet: null, ambiguous: false, ...found };
  }
  if (entry.units.size > 0 && !numbers.has('')) {
    return { dpv: 'D', zip4: zip4(entry.plus4), correctedStreet: null, ambiguous: false, ...found };
  }
  return { dpv: 'Y', zip4: zip4(entry.plus4), correctedStreet: null, ambiguous: false, ...found };
}

/** What a street's USPS ranges say of the query's number and unit. */
export function rangesAnswer(q: ReferenceQuery, list: readonly StreetRangeRecord[]): ReferenceAnswer {
  const number = q.primaryNumber ?? '';
  const matching = list.filter((r) => inRange(number, r.primaryLow, r.primaryHigh, r.primaryParity));
  if (matching.length === 0) return { dpv: 'N', zip4: null, correctedStreet: null, ambiguous: false, ...STREET_ONLY };
  // USPS gives one add-on per record; a record spanning several add-ons does not determine the ZIP+4.
  const zip4 = (r: StreetRangeRecord | undefined) =>
    r?.plus4Low && (r.plus4High === null || r.plus4High === r.plus4Low) ? `${q.postalCode}-${r.plus4Low}` : null;
  const base = matching.find((r) => !r.secondaryLow && !r.secondaryHigh);
  const withUnits = matching.filter((r) => r.secondaryLow || r.secondaryHigh);
  if (q.secondaryNumber) {
    const unit = normalizeUnit(q.secondaryNumber);
    const hit = withUnits.find((r) => inRange(unit, normalizeUnit(r.secondaryLow ?? ''), normalizeUnit(r.secondaryHigh ?? r.secondaryLow ?? ''), r.secondaryParity));
    if (hit) return { dpv: 'Y', zip4: zip4(hit), correctedStreet: null, ambiguous: false, unitDesignator: hit.secondaryDesignator, ...USPS_RANGE };
    return { dpv: 'S', zip4: zip4(base), correctedStreet: null, ambiguous: false, ...USPS_RANGE };
  }
  if (!base && withUnits.length > 0) return { dpv: 'D', zip4: null, correctedStreet: null, ambiguous: false, ...USPS_RANGE };
  return { dpv: 'Y', zip4: zip4(base), correctedStreet: null, ambiguous: false, ...USPS_RANGE };
}

/**
 * A TIGER side of the street holding the number (a potential range of its parity): evidence the street has that
 * number range, never that a house exists, and where along the segment the number falls (the segment's ends given).
 */
export function segmentAnswer(number: string | null, segments: readonly StreetSegmentRecord[]):
  { evidence: 'street_range'; sources: readonly ReferenceSource[]; location: PointLocation | null } | null {
  if (!number) return null;
  for (const s of segments) {
    const from = numericPart(s.fromNumber);
    const to = numericPart(s.toNumber);
    const [low, high] = from <= to ? [s.fromNumber, s.toNumber] : [s.toNumber, s.fromNumber];
    if (!inRange(number, low, high, s.parity)) continue;
    let location: PointLocation | null = null;
    if (s.from && s.to) {
      // Linear along the segment from its first vertex to its last (the side's numbers run from FROMHN to TOHN).
      const t = to === from ? 0.5 : (numericPart(number) - from) / (to - from);
      location = { lat: s.from.lat + t * (s.to.lat - s.from.lat), lon: s.from.lon + t * (s.to.lon - s.from.lon), precision: 'interpolated' };
    }
    return { evidence: 'street_range', sources: [s.source], location };
  }
  return null;
}
