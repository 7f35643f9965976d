/**
 * One postal code's part of the reference: its streets' points, USPS ranges and TIGER segments, and the ways its
 * street names are found. The same structure is filled point by point in memory (ReferenceIndex.addPoint) and decoded
 * from one compressed blob of the disk index (reference-index-file.ts), so every look-up reads the same maps whichever
 * way the data came.
 *
 * The blob is JSON deflated: street keys once, then per street its numbers in insertion order (a canonical number as
 * its difference from the numeric one before it, which turns a run of house numbers into a run of small equal figures
 * that deflate keeps in a few bits), and units, add-ons, sources and coordinates only where a point has them.
 */
import zlib from 'node:zlib';
import { normalizeUnit, type PointEntry } from './reference-numbers.js';
import type { AddressPointRecord, LocationPrecision, StreetRangeRecord, StreetSegmentRecord } from './reference-types.js';
import { routeOf, streetKey, writtenAlikeKey } from './street-writings.js';

export interface ZipStreets {
  /** street key -> house number -> its units and add-ons. */
  readonly points: Map<string, Map<string, PointEntry>>;
  /** The street keys that only sampled points name. */
  readonly sampled: Set<string>;
  readonly ranges: Map<string, StreetRangeRecord[]>;
  /** TIGER sides of the street (evidence of a number range, never of a house). */
  readonly segments: Map<string, StreetSegmentRecord[]>;
  /** street name -> street keys, for a street given with a wrong or missing suffix. */
  readonly streetsByName: Map<string, Set<string>>;
  /** A name's writtenAlikeKey (where it is not the name) or `#` and its route number -> the names of the data written so. */
  readonly otherWritings: Map<string, Set<string>>;
}

/** What a new street name adds to the indexes across postal codes (ReferenceIndex, or the disk index's tables). */
export interface NewStreetName {
  name: string;
  /** writtenAlikeKey(name) where it is not the name. */
  alike: string | null;
  /** routeOf(name)?.key. */
  route: string | null;
}

export function emptyZipStreets(): ZipStreets {
  return { points: new Map(), sampled: new Set(), ranges: new Map(), segments: new Map(), streetsByName: new Map(), otherWritings: new Map() };
}

/** The value under `key`, created by `make` the first time. */
export function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V, onCreate?: () => void): V {
  let value = map.get(key);
  if (value === undefined) {
    map.set(key, (value = make()));
    onCreate?.();
  }
  return value;
}

/** A street's key and name remembered in the postal code; what it adds across postal codes, when the name is new here. */
function rememberStreet(zip: ZipStreets, key: string, name: string | null): NewStreetName | null {
  const isNewName = !zip.streetsByName.has(name ?? '');
  entryOf(zip.streetsByName, name ?? '', () => new Set<string>()).add(key);
  if (!isNewName) return null;
  if (!name) return { name: '', alike: null, route: null };
  const alike = writtenAlikeKey(name);
  const route = routeOf(name);
  if (alike !== name) entryOf(zip.otherWritings, alike, () => new Set<string>()).add(name);
  if (route) entryOf(zip.otherWritings, route.key, () => new Set<string>()).add(name);
  return { name, alike: alike !== name ? alike : null, route: route?.key ?? null };
}

/** What adding a point or range did: a new number (for the count) and a new street name of the postal code. */
export interface Added { newNumber: boolean; newName: NewStreetName | null }

export function addPointTo(zip: ZipStreets, p: AddressPointRecord): Added {
  const key = streetKey(p.street);
  let newName: NewStreetName | null = null;
  const numbers = entryOf(zip.points, key, () => new Map<string, PointEntry>(), () => (newName = rememberStreet(zip, key, p.street.name)));
  // (A street new to the index, named by a sampled point, is sampled until a point of a whole file names it.)
  if (!p.sample) zip.sampled.delete(key);
  else if (numbers.size === 0) zip.sampled.add(key);
  let newNumber = false;
  const entry = entryOf(
    numbers, p.primaryNumber, () => ({ units: new Set<string>(), plus4: null, unitPlus4: new Map<string, string>() }) as PointEntry,
    () => (newNumber = true),
  );
  if (p.sources?.length) {
    const sources = (entry.sources ??= []) as string[];
    for (const s of p.sources) if (!sources.includes(s)) sources.push(s);
  }
  if (p.location && !entry.location) entry.location = p.location;
  if (p.unit) {
    const unit = normalizeUnit(p.unit);
    entry.units.add(unit);
    if (p.plus4) entry.unitPlus4.set(unit, p.plus4);
  } else if (p.plus4) {
    entry.plus4 = p.plus4;
  }
  return { newNumber, newName };
}

export function addRangeTo(zip: ZipStreets, r: StreetRangeRecord): NewStreetName | null {
  const key = streetKey(r.street);
  let newName: NewStreetName | null = null;
  entryOf(zip.ranges, key, () => [] as StreetRangeRecord[], () => (newName = rememberStreet(zip, key, r.street.name))).push(r);
  return newName;
}

/** A TIGER side: kept beside the street's points and ranges; it names no street for the look-up's other steps. */
export function addSegmentTo(zip: ZipStreets, s: StreetSegmentRecord): void {
  entryOf(zip.segments, streetKey(s.street), () => [] as StreetSegmentRecord[]).push(s);
}

// ---- The blob ----

const PRECISIONS: readonly LocationPrecision[] = ['rooftop', 'parcel', 'interpolated', 'postal_code'];
const CANONICAL = /^[1-9]\d{0,8}$/;
/** Degrees kept to 1e-7 (about 1 cm, finer than any source's): the coordinates as integers. */
const MICRO = 1e7;

/**
 * Coordinates as the index keeps them, to 1e-7 degree: what a record's coordinates are rounded to before either index
 * takes them, so that the disk index gives back exactly the in-memory one's.
 */
export function indexDegrees(degrees: number): number {
  return Math.round(degrees * MICRO) / MICRO;
}

type Sparse<T> = Record<number, T>;
/** One street's points: key index, sampled, numbers, then what only some numbers have (0 where none has it). */
type EncodedStreet = [
  key: number, sampled: 0 | 1, numbers: (number | string)[], plus4: Sparse<string> | 0, units: Sparse<string[]> | 0,
  unitPlus4: Sparse<[string, string][]> | 0, sources: Sparse<string[]> | 0, locations: Sparse<[number, number, number]> | 0,
];
type EncodedRange = [key: number, ...fields: (string | null)[]];
type EncodedSegment = [key: number, from: string, to: string, parity: string, source: string, ends: number[] | 0];
interface EncodedZip {
  /** Street keys, in the order the structure first met them. */
  k: string[];
  p: EncodedStreet[];
  r: EncodedRange[];
  g: EncodedSegment[];
  /** streetsByName and otherWritings in their insertion order: [name, key indexes] and [writing, names]. */
  n: [string, number[]][];
  w: [string, string[]][];
}

const RANGE_FIELDS = ['recordType', 'primaryLow', 'primaryHigh', 'primaryParity', 'secondaryDesignator', 'secondaryLow', 'secondaryHigh',
  'secondaryParity', 'plus4Low', 'plus4High'] as const;

function partsOf(key: string) {
  const [predirection, name, suffix, postdirection] = key.split('|');
  return { predirection: predirection || null, name: name || null, suffix: suffix || null, postdirection: postdirection || null };
}

export function encodeZipStreets(zip: ZipStreets): Buffer {
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const indexOf = (key: string) => entryOf(keyIndex, key, () => keys.push(key) - 1);
  const out: EncodedZip = { k: keys, p: [], r: [], g: [], n: [], w: [] };
  for (const [key, numbers] of zip.points) {
    const street: EncodedStreet = [indexOf(key), zip.sampled.has(key) ? 1 : 0, [], 0, 0, 0, 0, 0];
    let previous = 0;
    let i = 0;
    for (const [number, entry] of numbers) {
      if (CANONICAL.test(number)) {
        const n = Number(number);
        street[2].push(n - previous);
        previous = n;
      } else {
        street[2].push(number);
      }
      if (entry.plus4) ((street[3] ||= {}))[i] = entry.plus4;
      if (entry.units.size) ((street[4] ||= {}))[i] = [...entry.units];
      if (entry.unitPlus4.size) ((street[5] ||= {}))[i] = [...entry.unitPlus4];
      if (entry.sources?.length) ((street[6] ||= {}))[i] = [...entry.sources];
      const at = entry.location;
      if (at) ((street[7] ||= {}))[i] = [Math.round(at.lat * MICRO), Math.round(at.lon * MICRO), PRECISIONS.indexOf(at.precision)];
      i++;
    }
    out.p.push(street);
  }
  for (const [key, list] of zip.ranges) {
    for (const r of list) out.r.push([indexOf(key), ...RANGE_FIELDS.map((f) => r[f])]);
  }
  for (const [key, list] of zip.segments) {
    for (const s of list) {
      const ends = s.from && s.to ? [s.from.lat, s.from.lon, s.to.lat, s.to.lon].map((d) => Math.round(d * MICRO)) : 0;
      out.g.push([indexOf(key), s.fromNumber, s.toNumber, s.parity, s.source, ends]);
    }
  }
  for (const [name, set] of zip.streetsByName) out.n.push([name, [...set].map(indexOf)]);
  for (const [writing, names] of zip.otherWritings) out.w.push([writing, [...names]]);
  return zlib.deflateRawSync(JSON.stringify(out));
}

export function decodeZipStreets(postalCode: string, blob: Uint8Array): ZipStreets {
  const e = JSON.parse(zlib.inflateRawSync(blob).toString('utf8')) as EncodedZip;
  const zip = emptyZipStreets();
  for (const [k, sampled, numbers, plus4, units, unitPlus4, sources, locations] of e.p) {
    const key = e.k[k];
    const map = new Map<string, PointEntry>();
    let previous = 0;
    numbers.forEach((n, i) => {
      let number: string;
      if (typeof n === 'number') number = String((previous += n));
      else number = n;
      const entry: PointEntry = {
        units: new Set(units ? units[i] ?? [] : []),
        plus4: (plus4 && plus4[i]) || null,
        unitPlus4: new Map(unitPlus4 ? unitPlus4[i] ?? [] : []),
      };
      if (sources && sources[i]) entry.sources = sources[i];
      const at = locations ? locations[i] : undefined;
      if (at) entry.location = { lat: at[0] / MICRO, lon: at[1] / MICRO, precision: PRECISIONS[at[2]] };
      map.set(number, entry);
    });
    zip.points.set(key, map);
    if (sampled) zip.sampled.add(key);
  }
  for (const [k, ...fields] of e.r) {
    const r = { zip: postalCode, street: partsOf(e.k[k]) } as StreetRangeRecord;
    RANGE_FIELDS.forEach((f, i) => ((r as unknown as Record<string, string | null>)[f] = fields[i]));
    entryOf(zip.ranges, e.k[k], () => [] as StreetRangeRecord[]).push(r);
  }
  for (const [k, fromNumber, toNumber, parity, source, ends] of e.g) {
    const d = ends ? ends.map((v) => v / MICRO) : null;
    entryOf(zip.segments, e.k[k], () => [] as StreetSegmentRecord[]).push({
      postalCode, street: partsOf(e.k[k]), fromNumber, toNumber, parity: parity as StreetSegmentRecord['parity'], source,
      from: d ? { lat: d[0], lon: d[1] } : null, to: d ? { lat: d[2], lon: d[3] } : null,
    });
  }
  for (const [name, ks] of e.n) zip.streetsByName.set(name, new Set(ks.map((k) => e.k[k])));
  for (const [writing, names] of e.w) zip.otherWritings.set(writing, new Set(names));
  return zip;
}
