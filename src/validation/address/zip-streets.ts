/**
 * One postal code's part of the reference: its streets' points, USPS ranges and TIGER segments, and the ways its
 * street names are found. The same structure is filled point by point in memory (ReferenceIndex.addPoint) and decoded
 * from one compressed blob of the disk index (reference-index-file.ts), so every look-up reads the same maps whichever
 * way the data came.
 *
 * The blob is bytes (encodeZipStreets): street keys once, then per street its numbers in insertion order (a canonical
 * number as its difference from the numeric one before it, which turns a run of house numbers into a run of small
 * equal figures), and units, add-ons, sources and coordinates only where a point has them; deflated when smaller.
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

const RANGE_FIELDS = ['recordType', 'primaryLow', 'primaryHigh', 'primaryParity', 'secondaryDesignator', 'secondaryLow', 'secondaryHigh',
  'secondaryParity', 'plus4Low', 'plus4High'] as const;

function partsOf(key: string) {
  const [predirection, name, suffix, postdirection] = key.split('|');
  return { predirection: predirection || null, name: name || null, suffix: suffix || null, postdirection: postdirection || null };
}

/** Bytes written as varints (LEB128, by arithmetic: values up to 2^53) and length-prefixed UTF-8 strings. */
class ByteWriter {
  private buffer = Buffer.allocUnsafe(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }

  uint(v: number): void {
    this.room(8);
    while (v >= 128) {
      this.buffer[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buffer[this.length++] = v;
  }

  /** A signed integer, zigzagged: small either side of 0 in one byte. */
  int(v: number): void {
    this.uint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  string(s: string): void {
    const bytes = Buffer.byteLength(s);
    this.uint(bytes);
    this.room(bytes);
    this.length += this.buffer.write(s, this.length);
  }

  /** A string or null: its length plus one, 0 for null. */
  nullable(s: string | null): void {
    if (s === null) this.uint(0);
    else {
      const bytes = Buffer.byteLength(s);
      this.uint(bytes + 1);
      this.room(bytes);
      this.length += this.buffer.write(s, this.length);
    }
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

class ByteReader {
  private at = 0;

  constructor(private readonly buffer: Buffer) {}

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.buffer[this.at++];
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  private text(bytes: number): string {
    const s = this.buffer.toString('utf8', this.at, this.at + bytes);
    this.at += bytes;
    return s;
  }

  string(): string {
    return this.text(this.uint());
  }

  nullable(): string | null {
    const n = this.uint();
    return n === 0 ? null : this.text(n - 1);
  }
}

/** What a house number has besides itself, one bit each (its flags byte). */
const HAS = { plus4: 1, units: 2, unitPlus4: 4, sources: 8, location: 16, text: 32 } as const;
/** The blob's first byte: its layout, and whether the rest is deflated (whichever is smaller). */
const BLOB = { raw: 1, deflated: 2 } as const;

/** A ZIP+4 add-on (four figures: a number below 10,000 in two bytes), or any other writing as a string. */
function writePlus4(w: ByteWriter, plus4: string): void {
  if (/^\d{4}$/.test(plus4)) w.uint(Number(plus4) + 1);
  else {
    w.uint(0);
    w.string(plus4);
  }
}

function readPlus4(r: ByteReader): string {
  const n = r.uint();
  return n === 0 ? r.string() : String(n - 1).padStart(4, '0');
}

/**
 * One postal code's streets as bytes: street keys once; per street its house numbers in insertion order, each a
 * flags byte and its difference from the numeric one before it (a run of house numbers is a run of `2`s), then only
 * what that number has: ZIP+4, units, units' add-ons, sources (by index into the blob's own list), coordinates (1e-7
 * degree, as the difference from the point before: neighbours are close); the USPS ranges, TIGER sides and the ways
 * names are written after. Deflated when that is smaller (the street names, the runs).
 */
export function encodeZipStreets(zip: ZipStreets): Buffer {
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const indexOf = (key: string) => entryOf(keyIndex, key, () => keys.push(key) - 1);
  const sourceIndex = new Map<string, number>();
  const sourceOf = (source: string) => entryOf(sourceIndex, source, () => sourceIndex.size);
  for (const key of zip.points.keys()) indexOf(key);
  for (const key of zip.ranges.keys()) indexOf(key);
  for (const key of zip.segments.keys()) indexOf(key);
  for (const set of zip.streetsByName.values()) for (const key of set) indexOf(key);

  const body = new ByteWriter();
  let lat = 0;
  let lon = 0;
  body.uint(zip.points.size);
  for (const [key, numbers] of zip.points) {
    body.uint(indexOf(key));
    body.uint(zip.sampled.has(key) ? 1 : 0);
    body.uint(numbers.size);
    let previous = 0;
    for (const [number, entry] of numbers) {
      const canonical = CANONICAL.test(number);
      const at = entry.location;
      const flags = (entry.plus4 ? HAS.plus4 : 0) | (entry.units.size ? HAS.units : 0) | (entry.unitPlus4.size ? HAS.unitPlus4 : 0)
        | (entry.sources?.length ? HAS.sources : 0) | (at ? HAS.location : 0) | (canonical ? 0 : HAS.text);
      body.uint(flags);
      if (canonical) {
        const n = Number(number);
        body.int(n - previous);
        previous = n;
      } else {
        body.string(number);
      }
      if (entry.plus4) writePlus4(body, entry.plus4);
      if (entry.units.size) {
        body.uint(entry.units.size);
        for (const unit of entry.units) body.string(unit);
      }
      if (entry.unitPlus4.size) {
        body.uint(entry.unitPlus4.size);
        for (const [unit, plus4] of entry.unitPlus4) {
          body.string(unit);
          writePlus4(body, plus4);
        }
      }
      if (entry.sources?.length) {
        body.uint(entry.sources.length);
        for (const source of entry.sources) body.uint(sourceOf(source));
      }
      if (at) {
        const a = Math.round(at.lat * MICRO);
        const o = Math.round(at.lon * MICRO);
        body.int(a - lat);
        body.int(o - lon);
        body.uint(PRECISIONS.indexOf(at.precision));
        lat = a;
        lon = o;
      }
    }
  }
  let ranges = 0;
  for (const list of zip.ranges.values()) ranges += list.length;
  body.uint(ranges);
  for (const [key, list] of zip.ranges) {
    for (const r of list) {
      body.uint(indexOf(key));
      for (const f of RANGE_FIELDS) body.nullable(r[f]);
    }
  }
  let segments = 0;
  for (const list of zip.segments.values()) segments += list.length;
  body.uint(segments);
  for (const [key, list] of zip.segments) {
    for (const s of list) {
      body.uint(indexOf(key));
      body.string(s.fromNumber);
      body.string(s.toNumber);
      body.string(s.parity);
      body.uint(sourceOf(s.source));
      body.uint(s.from && s.to ? 1 : 0);
      if (s.from && s.to) for (const d of [s.from.lat, s.from.lon, s.to.lat, s.to.lon]) body.int(Math.round(d * MICRO));
    }
  }
  body.uint(zip.streetsByName.size);
  for (const [name, set] of zip.streetsByName) {
    body.string(name);
    body.uint(set.size);
    for (const key of set) body.uint(indexOf(key));
  }
  body.uint(zip.otherWritings.size);
  for (const [writing, names] of zip.otherWritings) {
    body.string(writing);
    body.uint(names.size);
    for (const name of names) body.string(name);
  }

  // (The lists the body's indexes point into, first.)
  const head = new ByteWriter();
  head.uint(keys.length);
  for (const key of keys) head.string(key);
  head.uint(sourceIndex.size);
  for (const source of sourceIndex.keys()) head.string(source);
  const raw = Buffer.concat([head.bytes(), body.bytes()]);
  const deflated = zlib.deflateRawSync(raw);
  return deflated.length < raw.length
    ? Buffer.concat([Buffer.of(BLOB.deflated), deflated])
    : Buffer.concat([Buffer.of(BLOB.raw), raw]);
}

export function decodeZipStreets(postalCode: string, blob: Uint8Array): ZipStreets {
  const bytes = Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength);
  const r = new ByteReader(bytes[0] === BLOB.deflated ? zlib.inflateRawSync(bytes.subarray(1)) : bytes.subarray(1));
  const keys: string[] = [];
  for (let n = r.uint(); n > 0; n--) keys.push(r.string());
  const sources: string[] = [];
  for (let n = r.uint(); n > 0; n--) sources.push(r.string());
  const zip = emptyZipStreets();
  let lat = 0;
  let lon = 0;
  for (let streets = r.uint(); streets > 0; streets--) {
    const key = keys[r.uint()];
    const sampled = r.uint() === 1;
    const map = new Map<string, PointEntry>();
    let previous = 0;
    for (let count = r.uint(); count > 0; count--) {
      const flags = r.uint();
      let number: string;
      if (flags & HAS.text) number = r.string();
      else number = String((previous += r.int()));
      const entry: PointEntry = { units: new Set(), plus4: null, unitPlus4: new Map() };
      if (flags & HAS.plus4) entry.plus4 = readPlus4(r);
      if (flags & HAS.units) for (let n = r.uint(); n > 0; n--) entry.units.add(r.string());
      if (flags & HAS.unitPlus4) {
        for (let n = r.uint(); n > 0; n--) {
          const unit = r.string();
          entry.unitPlus4.set(unit, readPlus4(r));
        }
      }
      if (flags & HAS.sources) {
        const list: string[] = [];
        for (let n = r.uint(); n > 0; n--) list.push(sources[r.uint()]);
        entry.sources = list;
      }
      if (flags & HAS.location) {
        lat += r.int();
        lon += r.int();
        entry.location = { lat: lat / MICRO, lon: lon / MICRO, precision: PRECISIONS[r.uint()] };
      }
      map.set(number, entry);
    }
    zip.points.set(key, map);
    if (sampled) zip.sampled.add(key);
  }
  for (let n = r.uint(); n > 0; n--) {
    const key = keys[r.uint()];
    const range = { zip: postalCode, street: partsOf(key) } as StreetRangeRecord;
    for (const f of RANGE_FIELDS) (range as unknown as Record<string, string | null>)[f] = r.nullable();
    entryOf(zip.ranges, key, () => [] as StreetRangeRecord[]).push(range);
  }
  for (let n = r.uint(); n > 0; n--) {
    const key = keys[r.uint()];
    const fromNumber = r.string();
    const toNumber = r.string();
    const parity = r.string() as StreetSegmentRecord['parity'];
    const source = sources[r.uint()];
    const d = r.uint() === 1 ? [r.int(), r.int(), r.int(), r.int()].map((v) => v / MICRO) : null;
    entryOf(zip.segments, key, () => [] as StreetSegmentRecord[]).push({
      postalCode, street: partsOf(key), fromNumber, toNumber, parity, source,
      from: d ? { lat: d[0], lon: d[1] } : null, to: d ? { lat: d[2], lon: d[3] } : null,
    });
  }
  for (let n = r.uint(); n > 0; n--) {
    const name = r.string();
    const set = new Set<string>();
    for (let k = r.uint(); k > 0; k--) set.add(keys[r.uint()]);
    zip.streetsByName.set(name, set);
  }
  for (let n = r.uint(); n > 0; n--) {
    const writing = r.string();
    const names = new Set<string>();
    for (let k = r.uint(); k > 0; k--) names.add(r.string());
    zip.otherWritings.set(writing, names);
  }
  return zip;
}
