/**
 * Whether a city typed is a place's name: one of the ZIP's (GeoNames, or the loaded address files), one typing slip or
 * an abbreviation from it, a name garbled past correcting, or a name the data does not know (kept, said unchecked).
 */
import type { ParsedAddress } from '../parser/index.js';
import { type CityEntry, cityKey, citySpellingKey, lettersOf, type PostalIndex, type ZipPlace } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { DirectionalTable, stateOfUnlistedZip, TownDirectionalWords } from '../tables.js';
import { localZipsOfCity } from './zip-candidates.js';

/** Words that tell a street's or a note's words read into the city, not a place's name. */
const NOT_IN_PLACE_NAMES = /\d|#/;

/**
 * True when the typed city is a name the embedded data and the loaded files know nowhere in the state, and no slip of
 * a name they know: neither a place of the state nor one typing slip from one (`SPRNGFIELD`), nor from the ZIP's own
 * place in two (`SPRINGFEILDD`), nor its abbreviation (`SPRNGFLD`), nor ending in its name (`TROON CIRCLE AUSTELL`:
 * street words read into it; CLEVELAND HEIGHTS is a name of its own), nor a place the loaded files put anywhere; and no
 * loaded data names the ZIP's places (then it decides).
 */
export function unknownCityName(p: ParsedAddress, place: ZipPlace, postal: PostalIndex, reference: ReferenceIndex | undefined, key: string): boolean {
  const state = p.state ?? place.state;
  const zipKey = place.cityKey ?? cityKey(place.city);
  if (key.length < 4 || NOT_IN_PLACE_NAMES.test(p.city!) || key.endsWith(zipKey) || abbreviationOf(key, zipKey)) return false;
  // (The letters as typed too: a slip inside a word the key abbreviates, `FORRT MILL`, `SAITN PAUL`, changes it more.)
  const typed = lettersOf(p.city!);
  const zipCity = lettersOf(place.city);
  if (typingSlipsApart(key, zipKey) <= 2 || typingSlipsApart(typed, zipCity) <= 2 || garbledFrom(typed, zipCity)) return false;
  if (reference && (reference.localCityNamesOf(p.postalCode!).length || reference.cityNamesOf(p.postalCode!).length)) return false;
  // The slower look-ups last: a place the loaded files put in the state, a place of the state one slip away.
  return !localZipsOfCity(reference, postal, state, key).length && !postal.cityOneSlipFrom(state, key, p.city!);
}

/**
 * Typed with several slips (`CHARLTEON` for CHARLESTON): the same first letter, about the same length, and half the
 * letter pairs in common (Dice's coefficient); a name with words more or fewer (CLEVELAND HEIGHTS) is not.
 */
function garbledFrom(typed: string, name: string): boolean {
  if (typed[0] !== name[0] || Math.abs(typed.length - name.length) > 3) return false;
  const pairs = new Map<string, number>();
  for (let i = 1; i < name.length; i++) pairs.set(name.slice(i - 1, i + 1), (pairs.get(name.slice(i - 1, i + 1)) ?? 0) + 1);
  let shared = 0;
  for (let i = 1; i < typed.length; i++) {
    const pair = typed.slice(i - 1, i + 1);
    const left = pairs.get(pair) ?? 0;
    if (left > 0) {
      shared++;
      pairs.set(pair, left - 1);
    }
  }
  return (2 * shared) / (typed.length - 1 + name.length - 1) >= 0.5;
}

/** `SPRNGFLD` of SPRINGFIELD: the same first letter, then letters of the name in its order, some left out. */
function abbreviationOf(short: string, name: string): boolean {
  if (short[0] !== name[0] || short.length >= name.length) return false;
  let j = 1;
  for (let i = 1; i < short.length; i++) {
    while (j < name.length && name[j] !== short[i]) j++;
    if (j++ >= name.length) return false;
  }
  return true;
}

/** Damerau-Levenshtein distance (restricted: letters inserted, dropped, changed, neighbours swapped), capped at 3. */
export function typingSlipsApart(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  if (b.length + 1 > SLIP_ROW_LENGTH) return 3;
  // Three rolling rows of the table (the one before last for a swap), kept between calls.
  let before = SLIP_ROWS[0];
  let previous = SLIP_ROWS[1];
  let row = SLIP_ROWS[2];
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) d = Math.min(d, before[j - 2] + 1);
      row[j] = d;
      if (d < least) least = d;
    }
    if (least >= 3) return 3;
    [before, previous, row] = [previous, row, before];
  }
  return Math.min(previous[b.length], 3);
}
const SLIP_ROW_LENGTH = 64;
const SLIP_ROWS = [new Int32Array(SLIP_ROW_LENGTH), new Int32Array(SLIP_ROW_LENGTH), new Int32Array(SLIP_ROW_LENGTH)];

/** A ZIP's own city: its GeoNames place, else the place the loaded address files give it. */
export function cityOfZip(postal: PostalIndex, reference: ReferenceIndex, zip: string): string | undefined {
  return postal.zip(zip)?.[0]?.city ?? reference.localCityNamesOf(zip)[0];
}

/** True when the name is one of the ZIP's places' (or one the loaded address files give the ZIP's points). */
export function nameOfZip(name: string, zip: string, places: readonly ZipPlace[], postal: PostalIndex, reference: ReferenceIndex | undefined): boolean {
  return places.some((z) => postal.isAcceptableCity(z, name)) || !!reference?.acceptsCity(zip, name);
}

/**
 * The states that have a city of that name: GeoNames' places, and the places the loaded address files know by it
 * (`SAINT MATTHEWS`: GeoNames has one, in SC; the files put another in KY).
 */
export function statesOfCity(key: string, postal: PostalIndex, reference: ReferenceIndex | undefined): string[] {
  const states = new Set(postal.citiesByKey(key).map((c) => c.state));
  for (const zip of reference?.postalCodesOfLocalCity(key) ?? []) {
    const state = postal.zip(zip)?.[0]?.state ?? stateOfUnlistedZip(zip);
    if (state) states.add(state);
  }
  return [...states].sort();
}

/** The city of the state named after a directional word (`EAST PORTLAND`, `N SAN JOSE`: PORTLAND, SAN JOSE). */
export function cityOfDirectionalPart(city: string, state: string, postal: PostalIndex): CityEntry | undefined {
  const m = /^(\S+)\s+(.+)$/.exec(city);
  return m && DirectionalTable.has(m[1]) ? postal.city(state, m[2]) : undefined;
}

/**
 * A town named by a directional and a place of the state (`N. MIAMI`, `NO ORANGE`: North Miami, North Orange) that the
 * embedded data does not list: GeoNames names one place per ZIP (33161 is MIAMI), so such a town, often a city of its
 * own, is missing from it. Its name spelt out as USPS writes a last line (NORTH MIAMI), and the place it is named
 * after; nothing when the typed name opens with no directional or the rest is no place of the state.
 */
export function townNamedByDirectional(city: string, state: string, postal: PostalIndex): { name: string; neighbour: CityEntry } | undefined {
  const m = /^(\S+)\s+(.+)$/.exec(city);
  const spelt = m ? TownDirectionalWords.get(m[1]) : undefined;
  const neighbour = spelt ? postal.city(state, m![2]) : undefined;
  return neighbour ? { name: `${spelt} ${neighbour.name}`, neighbour } : undefined;
}

/**
 * The city as its gazetteer place writes it where the place was typed another way (`ST. LOUIS`, `FT WORTH`, `MC ALLEN`,
 * `S SAN FRANCISCO`: SAINT LOUIS, FORT WORTH, MCALLEN, SOUTH SAN FRANCISCO, as USPS writes the last line) or by a name
 * people give it (`NYC`, found under the nickname's key): standardization, not correction. Else the city as typed.
 */
export function cityAsItsPlaceWritesIt(entry: CityEntry | undefined, typed: string | null, typedKey: string): string | null {
  if (!entry || typed === null || entry.name === typed) return typed;
  return entry.key !== typedKey || citySpellingKey(entry.name) === citySpellingKey(typed) ? entry.name : typed;
}
