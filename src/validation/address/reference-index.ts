/**
 * The delivery-point reference held in memory: address points (RRAD, OpenAddresses, NAR) and street ranges with
 * ZIP+4 add-ons (USPS AIS ZIP+4). Lookups are map reads, well under a microsecond each.
 *
 * DPV codes follow USPS semantics against what is loaded:
 *   Y  delivery point confirmed (and the unit, if the building has units or the input gave one that is known)
 *   S  the primary number is confirmed, the unit given is not
 *   D  the primary number is confirmed, the building needs a unit and none was given
 *   N  not found where the data covers it
 *   "" no data covers it
 * Coverage: USPS street ranges cover the whole ZIP (the product lists every delivery range of the ZIP); address
 * points only cover the streets they name (an address file is rarely complete for a ZIP), so a street absent from
 * point data answers "" and a number absent from a covered street answers N. A sample of points (the embedded RRAD,
 * a few random addresses of a street) covers no street: a number absent from a street that only sampled points name
 * answers "" too (`numberNotInSample`), confirmed by nothing and denied by nothing.
 */
import { CityNameSlips, cityKey, oneTypingSlipApart } from './postal-index.js';
import { pointsAnswer, rangesAnswer, segmentAnswer } from './reference-numbers.js';
import {
  type AddressPointRecord, type CityAlias, delivers, numberNotFound, type ReferenceAnswer, type ReferenceQuery, type StreetParts,
  type StreetRangeRecord, type StreetSegmentRecord,
} from './reference-types.js';
import { DIRECTIONAL_WORDS, partsOfKey, routeOf, slipInsideLongWord, slipsMended, streetKey, writtenAlikeKey } from './street-writings.js';
import { DirectionalTable } from './tables.js';
import {
  addPointTo, addRangeTo, addSegmentTo, emptyZipStreets, entryOf, type NewStreetName, type ZipStreets,
} from './zip-streets.js';

const NO_POSTAL_CODES: ReadonlySet<string> = new Set();

const NO_ALIASES: readonly CityAlias[] = [];
const NO_NAMES: readonly string[] = [];
/** The longest list of postal codes coversAny reads through each time. */
const SHORT_LIST = 16;

/**
 * Street names without figures, of four letters or more (a five-letter name typed may be a four-letter one with a
 * letter added), by first letter and length: what a slip keeps, or moves by one.
 */
export function slipIndexOf(names: Iterable<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const name of names) {
    if (name.length >= 4 && !/\d/.test(name)) entryOf(index, `${name[0]}${name.length}`, () => [] as string[]).push(name);
  }
  return index;
}

/** Two parts of a street agree when they are the same or either is not given. */
function agree(a: string | null, b: string | null): boolean {
  return a === null || b === null || a === b;
}

/**
 * Where the streets are kept: per postal code (ZipStreets), and the look-ups across postal codes. In memory (filled by
 * addPoint / addRange) or the disk index (reference-index-file.ts), the same answers either way.
 */
export interface StreetTables {
  zip(postalCode: string): ZipStreets | undefined;
  /** Every postal code with streets, in no promised order. */
  postalCodes(): Iterable<string>;
  /** The postal codes some points or ranges name. */
  covers(postalCode: string): boolean;
  readonly coveredCount: number;
  zipsWithStreetName(name: string): ReadonlySet<string> | undefined;
  zipsWithAlikeKey(key: string): ReadonlySet<string> | undefined;
  zipsWithRoute(key: string): ReadonlySet<string> | undefined;
  /** Street names by slipIndexOf's bucket (first letter and length). */
  slipCandidates(bucket: string): readonly string[];
  readonly counts: { points: number; ranges: number };
  /** The autocomplete's street suggestions, stored sorted (the disk index); absent: built from the streets. */
  readonly suggestions?: StoredSuggestions;
}

/**
 * A street's suggestion as the disk index keeps it: its search key and what autocomplete.ts cannot make again from the
 * postal code and the street (its weight; its numeric USPS street and high-rise ranges, `low-high-parity` joined by
 * spaces, or null).
 */
export interface StoredStreet {
  country: string; key: string; zip: string; streetKey: string; weight: number; ranges: string | null;
}

/** Street suggestions kept sorted outside the heap: each whose key starts with the prefix, in key order, until `visit` says stop. */
export interface StoredSuggestions {
  streetsStartingWith(country: string, prefix: string, visit: (street: StoredStreet) => boolean): void;
}

/** The streets held in memory, filled point by point. */
class MemoryStreetTables implements StreetTables {
  readonly zips = new Map<string, ZipStreets>();
  private readonly coveredCodes = new Set<string>();
  /** street name -> postal codes that have a street of that name. */
  private readonly postalCodesByStreetName = new Map<string, Set<string>>();
  /** A street name's writtenAlikeKey (where it is not the name) -> postal codes that have a street of that name. */
  private readonly postalCodesByAlikeKey = new Map<string, Set<string>>();
  /** A route's key (routeOf) -> postal codes that have a route of that number. */
  private readonly postalCodesByRoute = new Map<string, Set<string>>();
  /** Every street name by first letter and length, for a misspelt one typed without its ZIP (built on first use). */
  private streetNameSlips: Map<string, string[]> | undefined;
  readonly counts = { points: 0, ranges: 0 };
  /** Called when data for a new postal code is added (coversAny's memory is then stale). */
  onNewCode: () => void = () => {};

  zip(postalCode: string): ZipStreets | undefined { return this.zips.get(postalCode); }
  postalCodes(): Iterable<string> { return this.zips.keys(); }
  covers(postalCode: string): boolean { return this.coveredCodes.has(postalCode); }
  get coveredCount(): number { return this.coveredCodes.size; }
  zipsWithStreetName(name: string) { return this.postalCodesByStreetName.get(name); }
  zipsWithAlikeKey(key: string) { return this.postalCodesByAlikeKey.get(key); }
  zipsWithRoute(key: string) { return this.postalCodesByRoute.get(key); }
  slipCandidates(bucket: string): readonly string[] {
    this.streetNameSlips ??= slipIndexOf(this.postalCodesByStreetName.keys());
    return this.streetNameSlips.get(bucket) ?? NO_NAMES;
  }

  zipFor(postalCode: string, covered: boolean): ZipStreets {
    const zip = entryOf(this.zips, postalCode, emptyZipStreets);
    if (covered && !this.coveredCodes.has(postalCode)) {
      this.coveredCodes.add(postalCode);
      this.onNewCode();
    }
    return zip;
  }

  remember(postalCode: string, added: NewStreetName | null): void {
    if (!added) return;
    entryOf(this.postalCodesByStreetName, added.name, () => new Set<string>(), () => (this.streetNameSlips = undefined)).add(postalCode);
    if (added.alike) entryOf(this.postalCodesByAlikeKey, added.alike, () => new Set<string>()).add(postalCode);
    if (added.route) entryOf(this.postalCodesByRoute, added.route, () => new Set<string>()).add(postalCode);
  }
}

export class ReferenceIndex {
  private readonly memory: MemoryStreetTables | null;
  private readonly tables: StreetTables;
  private coverageOfLists = new WeakMap<readonly string[], boolean>();
  /** ZIP -> city key -> name: the mailing names USPS accepts for the ZIP (City-State product). */
  private readonly cityNames = new Map<string, Map<string, string>>();
  /** City key -> the ZIPs whose City-State data lists the name without accepting it in a last line. */
  private readonly cityAliases = new Map<string, CityAlias[]>();
  /**
   * Postal code -> city key -> name: the place names the loaded address files give its points (JEFFERSONTOWN for
   * 40299, where GeoNames lists only LOUISVILLE), and the reverse, city key -> postal codes.
   */
  private readonly localCityNames = new Map<string, Map<string, string>>();
  private readonly postalCodesByLocalCity = new Map<string, Set<string>>();
  /**
   * Those place names and the City-State names by their spelling, for a misspelt one (built on first use, dropped when
   * names are added).
   */
  private localCitySlips: CityNameSlips | undefined;

  /** In memory (no argument), or over the streets of a disk index (whose place names are then added by its opener). */
  constructor(tables?: StreetTables) {
    this.memory = tables ? null : new MemoryStreetTables();
    if (this.memory) this.memory.onNewCode = () => (this.coverageOfLists = new WeakMap());
    this.tables = tables ?? this.memory!;
  }

  get size(): { points: number; ranges: number; postalCodes: number } {
    return { ...this.tables.counts, postalCodes: this.tables.coveredCount };
  }

  private filled(): MemoryStreetTables {
    if (!this.memory) throw new Error('a reference index opened from disk is read-only');
    return this.memory;
  }

  addPoint(p: AddressPointRecord): void {
    const memory = this.filled();
    const added = addPointTo(memory.zipFor(p.postalCode, true), p);
    memory.remember(p.postalCode, added.newName);
    if (added.newNumber) memory.counts.points++;
    if (p.city) this.addLocalCityName(p.postalCode, p.city);
  }

  addRange(r: StreetRangeRecord): void {
    const memory = this.filled();
    memory.remember(r.zip, addRangeTo(memory.zipFor(r.zip, true), r));
    memory.counts.ranges++;
  }

  /** A TIGER side of a street: where the points and ranges leave a number unconfirmed, it may say the street holds it. */
  addSegment(s: StreetSegmentRecord): void {
    addSegmentTo(this.filled().zipFor(s.postalCode, false), s);
  }

  /**
   * A name USPS lists for the ZIP but does not accept in a last line (City-State product, mailing name indicator N:
   * a neighbourhood, a building, an old name), with the ZIP's state and the name to write instead.
   */
  addCityAlias(zip: string, city: string, state: string, preferred: string): void {
    entryOf(this.cityAliases, cityKey(city), () => [] as CityAlias[]).push({ zip, state, preferred });
  }

  /** True once any USPS City-State names are loaded (the product is national: a whole file names every state's). */
  hasCityNames(): boolean {
    return this.cityNames.size > 0;
  }

  /** The ZIPs whose City-State data lists the name (by city key) as one not to write, and what to write instead. */
  aliasesOf(key: string): readonly CityAlias[] {
    return this.cityAliases.get(key) ?? NO_ALIASES;
  }

  /** A city name USPS accepts for the ZIP (City-State product, mailing names only). */
  addCityName(zip: string, city: string): void {
    const key = cityKey(city);
    entryOf(this.cityNames, zip, () => new Map<string, string>()).set(key, city);
    // A place typed without its ZIP is found by its USPS names too (BOARDMAN, OH: 44512, which GeoNames names
    // YOUNGSTOWN only).
    entryOf(this.postalCodesByLocalCity, key, () => new Set<string>()).add(zip);
    this.localCitySlips = undefined;
  }

  /** A place name an address file gives a point of the postal code (the disk index's opener adds its own this way). */
  addLocalCityName(postalCode: string, city: string): void {
    const key = cityKey(city);
    const names = entryOf(this.localCityNames, postalCode, () => new Map<string, string>());
    if (names.has(key)) return;
    names.set(key, city);
    entryOf(this.postalCodesByLocalCity, key, () => new Set<string>()).add(postalCode);
    this.localCitySlips = undefined;
  }

  /**
   * The place names of the loaded data (the address files' places, USPS City-State names) one typing slip from the
   * name typed (at most two).
   */
  localCityNamesOneSlipFrom(typed: string): string[] {
    this.localCitySlips ??= new CityNameSlips(function* (...byPostalCode: Map<string, Map<string, string>>[]) {
      const seen = new Set<string>(); // a place of many postal codes, once
      for (const names of byPostalCode.flatMap((m) => [...m.values()])) {
        for (const [key, name] of names) {
          if (seen.has(key)) continue;
          seen.add(key);
          yield [key, name] as const;
        }
      }
    }(this.localCityNames, this.cityNames));
    return this.localCitySlips.namesOneSlipFrom(typed);
  }

  /**
   * A city name accepted for the postal code: a USPS mailing name where City-State data names the ZIP (USPS decides
   * there), else a place name the loaded address files give its points.
   */
  acceptsCity(postalCode: string, city: string): boolean {
    const key = cityKey(city);
    const usps = this.cityNames.get(postalCode);
    return usps ? usps.has(key) : this.localCityNames.get(postalCode)?.has(key) ?? false;
  }

  /** True when the data has a street of that name in the postal code (any street, for a null name). */
  hasStreet(postalCode: string, name: string | null): boolean {
    const names = this.tables.zip(postalCode)?.streetsByName;
    return name === null ? names !== undefined && names.size > 0 : names?.has(name) ?? false;
  }

  /** True when the data has a street of that name and type (null: none) in the postal code. */
  hasStreetOfType(postalCode: string, name: string, suffix: string | null): boolean {
    // A key is `PRE|NAME|SUFFIX|POST` (streetKey): the suffix is what follows the name.
    const middle = `|${name}|${suffix ?? ''}|`;
    for (const key of this.tables.zip(postalCode)?.streetsByName.get(name) ?? []) if (key.includes(middle)) return true;
    return false;
  }

  /** True when the loaded address files place some point of the postal code in the city (by cityKey). */
  isLocalCityOf(postalCode: string, key: string): boolean {
    return this.localCityNames.get(postalCode)?.has(key) ?? false;
  }

  /** The places the loaded address files give the postal code's points (empty when none). */
  localCityNamesOf(postalCode: string): string[] {
    return [...(this.localCityNames.get(postalCode)?.values() ?? [])];
  }

  /**
   * The postal codes whose points the loaded address files place in this city, or whose USPS City-State names include
   * it (by city key), for finding an address typed without its ZIP in a place the embedded postal data does not list.
   * Empty when none.
   */
  postalCodesOfLocalCity(key: string): ReadonlySet<string> {
    return this.postalCodesByLocalCity.get(key) ?? NO_POSTAL_CODES;
  }

  /** The city names loaded for the ZIP (empty when no City-State data names it). */
  cityNamesOf(zip: string): string[] {
    return [...(this.cityNames.get(zip)?.values() ?? [])];
  }

  /** The postal codes with a street of this name, if any. */
  zipsWithStreetName(name: string): ReadonlySet<string> | undefined {
    return this.tables.zipsWithStreetName(name);
  }

  /**
   * The postal codes with a street the name may mean when none has it as typed: one written alike (writtenAlikeKey:
   * `ST JOHN` for SAINT JOHN), the name with its type word in it (`RISING HILL` typed RISING HL), without a last lone
   * letter (a unit) or a misspelt type or directional read into it, the type word alone after a directional, or one
   * typing slip off inside a long word (`APLEGATE`), for the address typed without its ZIP. Each postal code's own
   * look-up then decides.
   */
  zipsWithStreetNear(street: StreetParts & { name: string }): Set<string> {
    const { name, suffix } = street;
    const zips = new Set<string>();
    // Also its last lone letter a unit (`DOWNEY A`), and a directional read as the name the data's directional before a
    // name that is a type word (`EAST MSN` for E MISSION).
    const writings = [name, ...(suffix ? [`${name} ${suffix}`] : []), ...(/ [A-Z]$/.test(name) ? [name.slice(0, -2)] : [])];
    if (suffix && DirectionalTable.has(name)) writings.push(suffix);
    // A street type or directional one slip off read into the name (`APPLEGATE LNAE`, `WSET CROCUS`): the name without it.
    // (Also before a last lone letter: `DOWNEY DRVE A`.)
    for (const mended of slipsMended(street)) writings.push(mended.name!);
    if (/ [A-Z]$/.test(name)) for (const mended of slipsMended({ ...street, name: name.slice(0, -2) })) writings.push(mended.name!);
    for (const written of writings) {
      const key = writtenAlikeKey(written);
      for (const z of this.tables.zipsWithStreetName(key) ?? []) zips.add(z);
      for (const z of this.tables.zipsWithAlikeKey(key) ?? []) zips.add(z);
    }
    // A route written as another kind of route of its number (`HWY 98` for US HIGHWAY 98).
    const route = routeOf(name, true);
    for (const z of (route && this.tables.zipsWithRoute(route.key)) || []) zips.add(z);
    if (name.length >= 4 && !/\d/.test(name)) {
      for (let length = name.length - 1; length <= name.length + 1; length++) {
        for (const candidate of this.tables.slipCandidates(`${name[0]}${length}`)) {
          if (!oneTypingSlipApart(name, candidate) || !slipInsideLongWord(name, candidate)) continue;
          for (const z of this.tables.zipsWithStreetName(candidate) ?? []) zips.add(z);
        }
      }
    }
    return zips;
  }

  /**
   * Every street of the data once per postal code: its parts, the house numbers its points hold, and its USPS ranges
   * (for the autocomplete index, autocomplete.ts).
   */
  *streets(): Generator<{ postalCode: string; street: StreetParts; numbers: readonly string[]; ranges: readonly StreetRangeRecord[] }> {
    for (const postalCode of this.tables.postalCodes()) {
      const zip = this.tables.zip(postalCode)!;
      const pointStreets = zip.points;
      const rangeStreets = zip.ranges;
      if (pointStreets.size === 0 && rangeStreets.size === 0) continue;
      for (const key of new Set([...pointStreets?.keys() ?? [], ...rangeStreets?.keys() ?? []])) {
        yield { postalCode, street: partsOfKey(key), numbers: [...pointStreets?.get(key)?.keys() ?? []], ranges: rangeStreets?.get(key) ?? [] };
      }
    }
  }

  /** The autocomplete's stored street suggestions, where the index keeps them (the disk index). */
  storedSuggestions(): StoredSuggestions | undefined {
    return this.tables.suggestions;
  }

  /** True when the street (by key) of the postal code has an address point of that house number. */
  hasPointNumber(postalCode: string, key: string, number: string): boolean {
    return this.tables.zip(postalCode)?.points.get(key)?.has(number) ?? false;
  }

  /** True when some data names this postal code. */
  covers(postalCode: string): boolean {
    return this.tables.covers(postalCode);
  }

  /**
   * True when some data names one of these postal codes. Remembered per long list (the ZIPs around a city: lists the
   * postal index keeps), until data for a new postal code is added.
   */
  coversAny(postalCodes: readonly string[]): boolean {
    // A short list is read through (cheaper than remembering it); a long one, a county's, is remembered.
    const remember = postalCodes.length > SHORT_LIST;
    let known = remember ? this.coverageOfLists.get(postalCodes) : undefined;
    if (known === undefined) {
      known = false;
      for (let i = 0; i < postalCodes.length && !known; i++) known = this.tables.covers(postalCodes[i]);
      if (remember) this.coverageOfLists.set(postalCodes, known);
    }
    return known;
  }

  /** The streets of the postal code that fit the query: the exact one, else those of the same name whose given parts agree. */
  private streetCandidates(postalCode: string, street: StreetParts): string[] {
    const exact = streetKey(street);
    const zip = this.tables.zip(postalCode);
    if (zip?.points.has(exact) || zip?.ranges.has(exact)) return [exact];
    const keys = zip?.streetsByName.get(street.name ?? '');
    if (!keys) return [];
    const fitting = this.sameNameAnyType(postalCode, street).filter((k) => agree(street.suffix, partsOfKey(k).suffix));
    // A wrong suffix (MAIN AVE for MAIN ST) is corrected when the name is unique in the ZIP.
    return fitting.length > 0 ? fitting : keys.size === 1 ? [...keys] : [];
  }

  /**
   * The street names of the postal code one typing slip from the one asked for (`APLEGATE` for APPLEGATE, `GREN` for
   * GREEN: a letter dropped, added, changed or two swapped, inside a word of four letters or more, never the first
   * letter nor a figure).
   */
  private misspeltStreetNames(postalCode: string, name: string | null): string[] {
    if (!name || name.length < 4 || /\d/.test(name)) return [];
    const found: string[] = [];
    for (const candidate of this.tables.zip(postalCode)?.streetsByName.keys() ?? []) {
      if (candidate[0] !== name[0] || /\d/.test(candidate) || !oneTypingSlipApart(name, candidate) || !slipInsideLongWord(name, candidate)) continue;
      found.push(candidate);
    }
    return found;
  }

  /**
   * The street names of the postal code written like `written` (writtenAlikeKey), itself included when the data has it,
   * and, for a route, the routes of its number that it may name (routeOf).
   */
  private namesWrittenAlike(postalCode: string, written: string): Set<string> {
    const found = new Set<string>();
    const zip = this.tables.zip(postalCode);
    const writings = zip?.otherWritings;
    const key = writtenAlikeKey(written);
    if (zip?.streetsByName.has(key)) found.add(key);
    for (const name of writings?.get(key) ?? []) found.add(name);
    const route = routeOf(written, true);
    if (route) {
      for (const name of writings?.get(route.key) ?? []) {
        const kind = routeOf(name)!.kind;
        if (kind === route.kind || kind === 'any' || route.kind === 'any') found.add(name);
      }
    }
    return found;
  }

  /**
   * The street name of the postal code that differs from the one asked for only in how it is written (`MEETING PL`
   * for MEETING PLACE, `NARROW LN` for NARROW LANE, `SAINT JOHN` for ST JOHN, `MARTIN LUTHER KING JR` for MLK,
   * `US HIGHWAY 98` for HIGHWAY 98), when exactly one does.
   */
  private respelledStreetName(postalCode: string, name: string | null): string | null {
    if (!name) return null;
    const found = this.namesWrittenAlike(postalCode, name);
    found.delete(name);
    return found.size === 1 ? found.values().next().value! : null;
  }

  /**
   * The street name of the postal code that is the name asked for with its street type as the last word of the name
   * (`RISING HILL` for RISING HL: the street's own type, DR, left out), or the type word alone for a null name
   * (`MISSION` for MSN), when exactly one is.
   */
  private nameEndingInType(postalCode: string, name: string | null, suffix: string): string | null {
    const found = this.namesWrittenAlike(postalCode, name ? `${name} ${suffix}` : suffix);
    return found.size === 1 ? found.values().next().value! : null;
  }

  lookup(q: ReferenceQuery): ReferenceAnswer {
    const found = this.find(q);
    // Another street than the one typed (a directional or type added or changed) that a sample names without this
    // number is not made the street: the one typed may be a street the sample missed (`MAIN ST` beside N MAIN ST).
    const answer: ReferenceAnswer = found.numberNotInSample && found.correctedStreet
      ? { dpv: '', zip4: null, correctedStreet: null, ambiguous: false, evidence: 'street' }
      : found.evidence ? found : { ...found, evidence: 'none' };
    return answer.dpv === '' && !answer.ambiguous ? this.withStreetRange(q, answer) : answer;
  }

  /**
   * Where nothing confirmed the number, a TIGER side of the street (as typed, or as the data spells it) that holds it:
   * evidence `street_range`, the number's place along the segment; the DPV stays "" (a range is no house).
   */
  private withStreetRange(q: ReferenceQuery, answer: ReferenceAnswer): ReferenceAnswer {
    const segments = this.tables.zip(q.postalCode)?.segments;
    if (!segments || segments.size === 0) return answer;
    const list = segments.get(streetKey(answer.correctedStreet ?? q.street));
    if (!list) return answer;
    const range = segmentAnswer(q.primaryNumber, list);
    return range ? { ...answer, ...range } : answer.evidence === 'none' ? { ...answer, evidence: 'street' } : answer;
  }

  private find(q: ReferenceQuery): ReferenceAnswer {
    const none: ReferenceAnswer = { dpv: '', zip4: null, correctedStreet: null, ambiguous: false };
    const zip = this.tables.zip(q.postalCode);
    const hasRanges = zip !== undefined && zip.ranges.size > 0;
    if (!hasRanges && !(zip && zip.points.size > 0)) return none;
    const notFound: ReferenceAnswer = { ...none, dpv: 'N' };
    const candidates = this.streetCandidates(q.postalCode, q.street);
    if (candidates.length === 0) {
      // A wrong type where the postal code has several streets of the name (`W 71ST ST`; the data has W 71ST AVE and
      // W 71ST PL): the one where the number is a delivery point, when only one has it.
      const otherType = this.onlyOneDelivers(q, this.sameNameAnyType(q.postalCode, q.street));
      if (otherType) return otherType;
      const respelled = this.respelledStreetName(q.postalCode, q.street.name);
      const asData = respelled ? this.lookup({ ...q, street: { ...q.street, name: respelled } }) : null;
      if (asData && delivers(asData)) {
        return { ...asData, correctedStreet: asData.correctedStreet ?? { ...q.street, name: respelled }, respelled: !asData.correctedStreet };
      }
      const reread = this.rereadType(q) ?? this.misspeltTypeOrDirectional(q);
      if (reread) return reread;
      // A misspelt street name is corrected only when the corrected address is a delivery point of the data, on one
      // street alone of those it may mean (a short name has several: `GREN` may be GREEN or GRAN).
      let spelt: ReferenceAnswer | null = null;
      for (const name of this.misspeltStreetNames(q.postalCode, q.street.name)) {
        const answer = this.lookup({ ...q, street: { ...q.street, name } });
        if (!delivers(answer)) continue;
        const corrected = answer.correctedStreet ?? { ...q.street, name };
        if (spelt && streetKey(spelt.correctedStreet!) !== streetKey(corrected)) {
          spelt = null;
          break;
        }
        spelt ??= { ...answer, correctedStreet: corrected };
      }
      if (spelt) return spelt;
      return this.directionalJoinedToName(q) ?? (hasRanges ? notFound : none);
    }
    // Several streets of the name fit (`RURAL HILL` for RURAL HILL RD and RURAL HILL CT): the number decides, or nothing.
    if (candidates.length > 1) return this.onlyOneDelivers(q, candidates) ?? { ...none, dpv: hasRanges ? 'N' : '', ambiguous: true };
    const answer = this.lookupStreet(q, candidates[0]);
    if (!numberNotFound(answer) || !q.street.suffix) return answer;
    // No such number on the street found (`8522 INGALLS ST`, `96 GREEN MANOR` taken for GREEN RD, the one GREEN of the
    // ZIP), but on one other street of its name (INGALLS CIR), or on the street its words name read otherwise (GREEN
    // MANOR RD): that one.
    return this.onlyOneDelivers(q, this.sameNameAnyType(q.postalCode, q.street).filter((k) => k !== candidates[0]))
      ?? this.rereadType(q) ?? answer;
  }

  /**
   * A name beginning with a directional word typed as two words (`SOUTH VIEW AVE`, `EAST WOOD CUT OFF RD`), the
   * directional read apart: the data's SOUTHVIEW AVE, where the number is a delivery point of it; else null.
   */
  private directionalJoinedToName(q: ReferenceQuery): ReferenceAnswer | null {
    const { predirection, name } = q.street;
    const word = predirection && name ? DIRECTIONAL_WORDS.get(predirection) : undefined;
    if (!word || !this.tables.zip(q.postalCode)?.streetsByName.has(word + name)) return null;
    const street = { ...q.street, predirection: null, name: word + name };
    const answer = this.lookup({ ...q, street });
    return delivers(answer) ? { ...answer, correctedStreet: answer.correctedStreet ?? street } : null;
  }

  /**
   * The street typed without its type, the word read as the type being part of the name (`2010 RISING HILL`, data
   * RISING HILL DR), or the name itself where a directional was read as the name (`3729 EAST MISSION`, data E MISSION
   * BLVD): the answer there when it is a delivery point, or ambiguous (RURAL HILL RD and RURAL HILL CT both hold the
   * number); else null.
   */
  private rereadType(q: ReferenceQuery): ReferenceAnswer | null {
    const { name, suffix, predirection } = q.street;
    if (!suffix || !name) return null;
    const directional = predirection === null ? DirectionalTable.get(name) : undefined;
    const readings: StreetParts[] = [];
    const longer = this.nameEndingInType(q.postalCode, name, suffix);
    if (longer) readings.push({ ...q.street, name: longer, suffix: null });
    const typeAsName = directional ? this.nameEndingInType(q.postalCode, null, suffix) : null;
    if (typeAsName) readings.push({ ...q.street, predirection: directional!, name: typeAsName, suffix: null });
    for (const street of readings) {
      const answer = this.lookup({ ...q, street });
      if (answer.ambiguous) return answer;
      if (delivers(answer)) return { ...answer, correctedStreet: answer.correctedStreet ?? street };
    }
    return null;
  }

  /**
   * The street typed with its type or directional misspelt by one slip (`MARTIN STRET`, `WSET 19TH AVE`): the type or
   * directional it is one slip from, where that address is a delivery point of the data; else null.
   */
  private misspeltTypeOrDirectional(q: ReferenceQuery): ReferenceAnswer | null {
    // The one reading that is a delivery point (a slip may mean several: `CORT`, COURT or CORNERS; `NORTHEWST`).
    // (Readings the look-up takes to the same street, its type corrected where its name is the ZIP's only one, are one.)
    let found: ReferenceAnswer | null = null;
    for (const street of slipsMended(q.street)) {
      const answer = this.lookup({ ...q, street });
      if (!delivers(answer)) continue;
      const corrected = answer.correctedStreet ?? street;
      if (found && streetKey(found.correctedStreet!) !== streetKey(corrected)) return null;
      // (A correction, even where the look-up only respelled the mended street: `EAST SRTEET` is EAST ST.)
      found ??= { ...answer, correctedStreet: corrected, respelled: false };
    }
    return found;
  }

  /** The streets of the postal code with the query's name whose directionals agree with it, whatever their type. */
  private sameNameAnyType(postalCode: string, street: StreetParts): string[] {
    const keys = this.tables.zip(postalCode)?.streetsByName.get(street.name ?? '');
    if (!keys) return [];
    return [...keys].filter((k) => {
      const p = partsOfKey(k);
      return agree(street.predirection, p.predirection) && agree(street.postdirection, p.postdirection);
    });
  }

  /** The answer on the one street among `keys` where the query's number is a delivery point, if exactly one has it. */
  private onlyOneDelivers(q: ReferenceQuery, keys: readonly string[]): ReferenceAnswer | null {
    if (!q.primaryNumber || keys.length === 0) return null;
    let found: ReferenceAnswer | null = null;
    for (const key of keys) {
      const answer = this.lookupStreet(q, key);
      if (!delivers(answer)) continue;
      if (found) return null;
      found = answer;
    }
    return found;
  }

  /** The answer on one street of the postal code (by key). */
  private lookupStreet(q: ReferenceQuery, key: string): ReferenceAnswer {
    const correctedStreet = key === streetKey(q.street) ? null : partsOfKey(key);
    if (!q.primaryNumber && !q.street.name?.startsWith('GENERAL DELIVERY')) {
      return { dpv: 'N', zip4: null, correctedStreet, ambiguous: false, evidence: 'street' };
    }
    const fromRanges = this.lookupRanges(q, key);
    const fromPoints = this.lookupPoints(q, key);
    const best = [fromRanges, fromPoints].find((a) => a?.dpv === 'Y') ?? fromRanges ?? fromPoints;
    return best ? { ...best, correctedStreet } : { dpv: 'N', zip4: null, correctedStreet, ambiguous: false, evidence: 'street' };
  }

  private lookupPoints(q: ReferenceQuery, key: string): ReferenceAnswer | null {
    const zip = this.tables.zip(q.postalCode);
    const numbers = zip?.points.get(key);
    return numbers ? pointsAnswer(q, numbers, zip!.sampled.has(key)) : null;
  }

  private lookupRanges(q: ReferenceQuery, key: string): ReferenceAnswer | null {
    const list = this.tables.zip(q.postalCode)?.ranges.get(key);
    return list ? rangesAnswer(q, list) : null;
  }
}
