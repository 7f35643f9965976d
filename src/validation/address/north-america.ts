/**
 * The answer for a US or Canadian address: the parsed components checked against each other (ZIP, city and state
 * through PostalIndex; Canadian postal-code letter rules and first letter per province), then against the reference
 * data for DPV and ZIP+4, and written out the postal way (USPS Pub 28; Canada Post addressing guide).
 */
import type { AddressComponents, AddressResult, AddressStatus, Dpv } from '../types.js';
import { AddressFootnotes as F } from './footnotes.js';
import type { DeliveryKind, ParsedAddress, Secondary } from './parser.js';
import { type CityEntry, type PostalIndex, type ZipPlace, cityKey, citySpellingKey, lettersOf, oneTypingSlipApart } from './postal-index.js';
import { delivers, numberNotFound, type ReferenceAnswer, type ReferenceIndex, type StreetParts } from './reference-index.js';
import {
  CanadianProvinces, DirectionalTable, MilitaryPostOffices, MilitaryStates, RegionByName, UnitDesignatorTable, UspsTerritories, stateOfUnlistedZip,
} from './tables.js';

/** Canada Post: D F I O Q U never appear; W and Z never start a postal code (A1A 1A1). */
const CANADIAN_POSTAL_CODE = /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d$/;
const FIVE_DIGITS = /^\d{5}$/;
/**
 * The most ZIPs a delivery-point search without a ZIP walks (a set lookup each, before any query): more than the
 * largest county (Los Angeles, about 510 in GeoNames) with its cities' other ZIPs.
 */
const MAX_CANDIDATE_ZIPS = 2_000;

interface LastLine {
  city: string | null;
  state: string | null;
  zip: string | null;
  corrected: boolean;
  invalid: boolean;
  /** ZIPs the reference data may choose between when the input leaves it open (may be shared: never modified). */
  candidateZips: readonly string[];
  /**
   * With candidateZips, the ZIPs the loaded address files place in this city (by city key) of `state`: worked out only
   * if the ZIP given does not hold the delivery point (most answers never need them).
   */
  localCandidatesOf: string | null;
  /**
   * For a misspelt city one slip from several names, the name each candidate ZIP is of (null where two names share
   * it): the ZIP the reference data finds corrects the city.
   */
  nearCityOfZip?: ReadonlyMap<string, string | null>;
  /** The footnote saying what the last line lacks, which a ZIP the reference data finds replaces. */
  missing: string;
}

/** The non-empty parts joined by `separator` (what `[…].filter(Boolean).join(' ')` does, without the arrays). */
function words(separator: string, ...parts: (string | null | undefined)[]): string {
  let out = '';
  for (const part of parts) if (part) out = out ? out + separator + part : part;
  return out;
}

/**
 * A ZIP that is one slip away from one of the city's ZIPs (or a one-ZIP town's) is corrected to it. A ZIP slip keeps
 * its length: a digit changed, or two neighbours swapped.
 */
function correctZip(p: ParsedAddress, cityEntry: CityEntry | undefined, out: LastLine, notes: string[]): boolean {
  if (!cityEntry || !p.postalCode) return false;
  let near: string | null = null;
  let nearCount = 0;
  for (const z of cityEntry.zips) {
    if (z.length === p.postalCode.length && oneTypingSlipApart(z, p.postalCode)) {
      near = z;
      nearCount++;
    }
  }
  const choice = cityEntry.zips.length === 1 ? cityEntry.zips[0] : nearCount === 1 ? near : null;
  if (!choice) return false;
  notes.push(F.zipCorrected(p.postalCode, choice));
  out.zip = choice;
  out.corrected = true;
  return true;
}

/** The place of the ZIP that fits the given state and city best. */
function bestPlace(
  places: readonly ZipPlace[],
  p: ParsedAddress,
  postal: PostalIndex,
  inputCityKey: string,
): { place: ZipPlace; stateOk: boolean; cityOk: boolean } {
  let stateMatch: ZipPlace | undefined;
  let cityMatch: ZipPlace | undefined;
  for (const z of places) {
    const stateFits = !p.state || z.state === p.state;
    const cityFits = !p.city || postal.isAcceptableCityKey(z, inputCityKey);
    if (stateFits && cityFits) return { place: z, stateOk: true, cityOk: true };
    if (stateFits) stateMatch ??= z;
    if (cityFits) cityMatch ??= z;
  }
  return { place: stateMatch ?? cityMatch ?? places[0], stateOk: stateMatch !== undefined, cityOk: cityMatch !== undefined };
}

/** Words that tell a street's or a note's words read into the city, not a place's name. */
const NOT_IN_PLACE_NAMES = /\d|#/;

/**
 * True when the typed city is a name the embedded data and the loaded files know nowhere in the state, and no slip of
 * a name they know: neither a place of the state nor one typing slip from one (`SPRNGFIELD`), nor from the ZIP's own
 * place in two (`SPRINGFEILDD`), nor its abbreviation (`SPRNGFLD`), nor ending in its name (`TROON CIRCLE AUSTELL`:
 * street words read into it; CLEVELAND HEIGHTS is a name of its own), nor a place the loaded files put anywhere; and no
 * loaded data names the ZIP's places (then it decides).
 */
function unknownCityName(p: ParsedAddress, place: ZipPlace, postal: PostalIndex, reference: ReferenceIndex | undefined, key: string): boolean {
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
function typingSlipsApart(a: string, b: string): number {
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
function cityOfZip(postal: PostalIndex, reference: ReferenceIndex, zip: string): string | undefined {
  return postal.zip(zip)?.[0]?.city ?? reference.localCityNamesOf(zip)[0];
}

/** `203-1267`: a unit (figures, maybe a letter) before a house number. */
const UNIT_DASH_NUMBER = /^(\d+[A-Z]?|[A-Z])-(\d+[A-Z]?)$/;
const NUMBER_RANGE = /^(\d+)-(\d+)$/;
const NUMBER_THEN_LETTER = /^(\d+)-?([A-Z])$/;

/**
 * The readings of a house number that may hold its unit, as [unit, number]: before it (`203-1267`, as Canada Post writes
 * it), after it (`1267-203`), or as a letter after it (`600B`, `600-B`).
 */
function unitAndNumberReadings(written: string): readonly (readonly [unit: string, number: string])[] {
  const dashed = UNIT_DASH_NUMBER.exec(written);
  if (dashed) return /^\d+$/.test(dashed[1]) ? [[dashed[1], dashed[2]], [dashed[2], dashed[1]]] : [[dashed[1], dashed[2]]];
  const after = NUMBER_THEN_LETTER.exec(written);
  return after ? [[after[2], after[1]]] : [];
}
const NO_READINGS: readonly (readonly [string, string])[] = [];
const TRAILING_UNIT_LETTER = /^(.+) ([A-Z])$/;

/** True when the ZIP is one of the state's: by its GeoNames places, or by its USPS prefix range when GeoNames lacks it. */
export function zipOfState(postal: PostalIndex, zip: string, state: string): boolean {
  return postal.zip(zip)?.some((place) => place.state === state) ?? stateOfUnlistedZip(zip) === state;
}

/** True when the text ends with a last line: a state or province (code or name) and its postal code. */
function endsWithLastLine(text: string): boolean {
  const m = /(?:^| )([A-Z][A-Z ]*?) (\d{5}(?:-?\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)$/.exec(text);
  if (!m) return false;
  const words = m[1].split(' ');
  for (let k = 1; k <= Math.min(3, words.length); k++) if (RegionByName.has(words.slice(-k).join(' '))) return true;
  return false;
}

/** The ZIPs of the state whose points the loaded address files place in the city (by city key). */
export function localZipsOfCity(reference: ReferenceIndex | undefined, postal: PostalIndex, state: string, key: string): string[] {
  return reference ? [...reference.postalCodesOfLocalCity(key)].filter((z) => zipOfState(postal, z, state)) : [];
}

/**
 * Where a street of the city may be when its ZIP is missing or wrong: the city's ZIPs, for a city of several ZIPs those
 * of the places around it that take its name (`NASHVILLE` for Hermitage's 37076), and those its loaded address files
 * place in it (`PANAMA CITY BEACH` for 32408, which GeoNames names PANAMA CITY). (A one-ZIP town's neighbours are other
 * towns.)
 */
function zipsOfCity(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, city: CityEntry | undefined): readonly string[] {
  if (!p.city || !p.state) return [];
  const local = localZipsOfCity(reference, postal, p.state, cityKey(p.city));
  if (!city) return local;
  return withLocalZips(city.zips.length > 1 ? postal.zipsAround(city) : city.zips, local);
}

/** The ZIPs, and those the loaded address files place in the city, each once. */
function withLocalZips(zips: readonly string[], local: readonly string[]): readonly string[] {
  return local.length ? [...new Set([...zips, ...local])] : zips;
}

/**
 * The state's ZIPs where the loaded address files hold the street (`8 WATKINS RD, VT`), for an address without a city;
 * where none does, those with a street the name may mean (`8 WATKNIS RD, VT`: zipsWithStreetNear).
 */
function zipsOfStateWithStreet(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined): string[] {
  const state = p.state;
  if (!state || !reference || !p.name) return [];
  const named = [...(reference.zipsWithStreetName(p.name) ?? [])].filter((z) => zipOfState(postal, z, state));
  return named.length ? named : [...reference.zipsWithStreetNear({ ...streetPartsOf(p), name: p.name })].filter((z) => zipOfState(postal, z, state));
}

/** True when the name is one of the ZIP's places' (or one the loaded address files give the ZIP's points). */
function nameOfZip(name: string, zip: string, places: readonly ZipPlace[], postal: PostalIndex, reference: ReferenceIndex | undefined): boolean {
  return places.some((z) => postal.isAcceptableCity(z, name)) || !!reference?.acceptsCity(zip, name);
}

/**
 * Words written before the city that are no part of it (`… # 203 - LEAVE AT DOOR, NASHVILLE TN 37203`): where the
 * typed city is no name of the ZIP but its last words are, those are the city and the rest is dropped (`R#`).
 */
function cityAtEnd(p: ParsedAddress, places: readonly ZipPlace[], postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[]): void {
  const words = p.city?.split(' ') ?? [];
  // A real place of the state (`EAST ORANGE` with a Newark ZIP) is a wrong town, which the ZIP corrects as a whole.
  if (words.length < 2 || nameOfZip(p.city!, p.postalCode!, places, postal, reference) || (p.state && postal.city(p.state, p.city!))) return;
  // The ZIP's own place misspelt in its first word (`WETS PALM BEACH`, `SOUT DEERFIELD`): the whole is the city, to
  // be corrected, not a note before the neighbour its last words name (PALM BEACH, DEERFIELD).
  const typed = lettersOf(p.city!);
  if (typed.length >= 6 && places.some((z) => typingSlipsApart(typed, lettersOf(z.city)) <= 1)) return;
  for (let k = 1; k < words.length; k++) {
    const tail = words.slice(k).join(' ');
    // A directional before the town (`E HAZEL CREST`) is part of a misnamed town, not a note.
    if (!nameOfZip(tail, p.postalCode!, places, postal, reference) || (k === 1 && DirectionalTable.has(words[0]))) continue;
    notes.push(F.extraDropped(words.slice(0, k).join(' ')));
    p.city = tail;
    return;
  }
}

/**
 * The states that have a city of that name: GeoNames' places, and the places the loaded address files know by it
 * (`SAINT MATTHEWS`: GeoNames has one, in SC; the files put another in KY).
 */
function statesOfCity(key: string, postal: PostalIndex, reference: ReferenceIndex | undefined): string[] {
  const states = new Set(postal.citiesByKey(key).map((c) => c.state));
  for (const zip of reference?.postalCodesOfLocalCity(key) ?? []) {
    const state = postal.zip(zip)?.[0]?.state ?? stateOfUnlistedZip(zip);
    if (state) states.add(state);
  }
  return [...states].sort();
}

const NOT_ALONE = { states: [] as string[], corrected: false, near: [] as string[] };

/**
 * A city typed with neither state nor ZIP. A city that only one state has decides the state (`… , SCHENECTADY`), as a
 * ZIP would, when the delivery line reads as a US one (`10 RUE DE LA PAIX, NICE` is no address in Nice, CA). A city no
 * state has, one typing slip from one name of GeoNames or of the address files (`… , LOUISVILE`), is that name first.
 * A name several states share (`SPRINGFIELD`) decides nothing here; the reference data may still find the street in
 * one of them (reconcileUsLastLine's candidate ZIPs), as it may for a name one slip from several (`CROTFON`: CROFTON
 * and CROTON). Returns the states that have the city, whether it was corrected, and the names it is one slip from when
 * they are several.
 */
function placeCityAlone(
  p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[],
): { states: string[]; corrected: boolean; near: string[] } {
  // A line that reads as a US street: it ends as one, or it is a house number and a name that the loaded data holds as a
  // street (`90 VIA VERDE`, `570 BROADWAY`; not `10 VIA ROMA, MILANO`).
  const usLine = p.quality >= 2 ||
    (p.kind === 'street' && p.primaryNumber !== null && p.name !== null && (reference?.zipsWithStreetName(p.name)?.size ?? 0) > 0);
  let states = statesOfCity(cityKey(p.city!), postal, reference);
  let corrected = false;
  let near: string[] = [];
  if (!states.length && usLine) {
    // Names of one key are one place written two ways (FOREST HILL, FORESTHILL).
    const byKey = new Map<string, string>();
    for (const name of [...postal.cityNamesOneSlipFrom(p.city!), ...(reference?.localCityNamesOneSlipFrom(p.city!) ?? [])]) {
      if (!byKey.has(cityKey(name))) byKey.set(cityKey(name), name);
    }
    near = [...byKey.values()];
    if (near.length === 1) {
      notes.push(F.cityCorrected(p.city!, near[0]));
      p.city = near[0];
      corrected = true;
      states = statesOfCity(cityKey(near[0]), postal, reference);
      near = [];
    }
  }
  if (states.length === 1 && usLine) notes.push(F.stateAddedFromCity((p.state = states[0]), p.city!));
  return { states, corrected, near };
}

/** Records that the ZIP is of the name; null where another name has it too. */
function claim(map: Map<string, string | null>, zip: string, name: string): void {
  map.set(zip, map.has(zip) && map.get(zip) !== name ? null : name);
}

/**
 * The names' ZIPs (added to `zips`), each with the name it is of: a ZIP of a name's own (GeoNames' or the address
 * files') before one of the places around it (FORESTHILL's 95631 is FORESTHILL's, though FOREST HILL's county holds it
 * too); null where two names have it alike.
 */
function nearCitiesByZip(names: readonly string[], postal: PostalIndex, reference: ReferenceIndex, zips: Set<string>): Map<string, string | null> {
  const own = new Map<string, string | null>();
  const around = new Map<string, string | null>();
  for (const name of names) {
    const key = cityKey(name);
    for (const zip of reference.postalCodesOfLocalCity(key)) claim(own, zip, name);
    for (const city of postal.citiesByKey(key)) {
      for (const zip of city.zips) claim(own, zip, name);
      for (const zip of postal.zipsAround(city)) claim(around, zip, name);
    }
  }
  for (const [zip, name] of around) if (!own.has(zip)) own.set(zip, name);
  for (const zip of own.keys()) zips.add(zip);
  return own;
}

/** The ZIPs where a street of a city typed without state may be: its own, those around it, those the files place in it. */
function zipsOfCityAnywhere(key: string, postal: PostalIndex, reference: ReferenceIndex): Set<string> {
  const zips = new Set(reference.postalCodesOfLocalCity(key));
  for (const city of postal.citiesByKey(key)) for (const zip of [...city.zips, ...postal.zipsAround(city)]) zips.add(zip);
  return zips;
}

/** The city of the state named after a directional word (`EAST PORTLAND`, `N SAN JOSE`: PORTLAND, SAN JOSE). */
function cityOfDirectionalPart(city: string, state: string, postal: PostalIndex): CityEntry | undefined {
  const m = /^(\S+)\s+(.+)$/.exec(city);
  return m && DirectionalTable.has(m[1]) ? postal.city(state, m[2]) : undefined;
}

/**
 * The city as its gazetteer place writes it where the place was typed another way (`ST. LOUIS`, `FT WORTH`, `MC ALLEN`,
 * `S SAN FRANCISCO`: SAINT LOUIS, FORT WORTH, MCALLEN, SOUTH SAN FRANCISCO, as USPS writes the last line) or by a name
 * people give it (`NYC`, found under the nickname's key): standardization, not correction. Else the city as typed.
 */
function cityAsItsPlaceWritesIt(entry: CityEntry | undefined, typed: string | null, typedKey: string): string | null {
  if (!entry || typed === null || entry.name === typed) return typed;
  return entry.key !== typedKey || citySpellingKey(entry.name) === citySpellingKey(typed) ? entry.name : typed;
}

/** Deliveries that address points (which name streets) never hold. */
const NOT_STREETS: ReadonlySet<DeliveryKind> = new Set(['po_box', 'rural_route', 'highway_contract', 'general_delivery']);

function reconcileUsLastLine(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[]): LastLine {
  const places = p.postalCode ? postal.zip(p.postalCode) : undefined;
  if (places && p.city) cityAtEnd(p, places, postal, reference, notes);
  const { states: cityStates, corrected, near: nearCities } = !p.postalCode && !p.state && p.city ? placeCityAlone(p, postal, reference, notes) : NOT_ALONE;
  const out: LastLine = {
    city: p.city, state: p.state, zip: p.postalCode, corrected, invalid: false, candidateZips: [], localCandidatesOf: null,
    missing: F.lastLineMissing,
  };
  const inputCityKey = p.city ? cityKey(p.city) : '';
  const cityEntry = p.city && p.state ? postal.cityByKey(p.state, inputCityKey) : undefined;
  out.city = cityAsItsPlaceWritesIt(cityEntry, p.city, inputCityKey);
  if (places) {
    const fit = bestPlace(places, p, postal, inputCityKey);
    const stateOk = fit.stateOk;
    const place = fit.place;
    // GeoNames lists military ZIPs as APO or FPO, never DPO, and not always rightly: without loaded City-State data
    // naming the ZIP, any of the three offices is taken as typed (`UNIT 2050 BOX 4190, DPO AP 96278`).
    const officeUnchecked = !fit.cityOk && !!p.city && MilitaryPostOffices.has(p.city) && MilitaryStates.has(place.state)
      && !reference?.cityNamesOf(p.postalCode!).length;
    if (officeUnchecked) notes.push(F.militaryOfficeNotChecked(p.city!, p.postalCode!));
    const cityOk = fit.cityOk || officeUnchecked || (!!p.city && !!reference?.acceptsCity(p.postalCode!, p.city));
    if (stateOk && cityOk) {
      if (!p.city) notes.push(F.cityAdded((out.city = place.city)));
      // The ZIP's place written another way takes its own spelling (cityAsItsPlaceWritesIt).
      else out.city = cityAsItsPlaceWritesIt(postal.cityByKey(place.state, inputCityKey), p.city, inputCityKey);
      if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
      // The street may be in another ZIP of the same city, GeoNames' or one the loaded address files place in it (not
      // the places' around: the ZIP given fits the city): the reference data can tell.
      if (cityEntry) out.candidateZips = cityEntry.zips;
      if (p.city && p.state) out.localCandidatesOf = inputCityKey;
      return out;
    }
    if (!stateOk && cityOk) {
      // ZIP and city agree: they decide the state.
      notes.push(F.stateCorrected(p.state!, place.state));
      out.state = place.state;
      out.corrected = true;
      return out;
    }
    if (stateOk && !cityOk) {
      if (cityEntry) {
        // A real city of the state with another ZIP: a slipped digit is corrected, otherwise the reference decides.
        if (correctZip(p, cityEntry, out, notes)) return out;
        out.candidateZips = zipsOfCity(p, postal, reference, cityEntry);
        out.invalid = true;
        return out;
      }
      // A name USPS lists for the ZIP but does not accept in a last line (City-State data): the name to write instead.
      const alias = reference?.aliasesOf(inputCityKey).find((a) => a.zip === p.postalCode);
      if (alias) {
        notes.push(F.cityNotMailingName(p.city!, (out.city = alias.preferred)));
        out.corrected = true;
        if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
        return out;
      }
      // A name nothing knows (GeoNames keeps one place per ZIP: TAMARAC, SHAKER HEIGHTS and HOLLYWOOD, names USPS
      // accepts, are none of its places) and no slip of one: kept, and said to be unchecked, where no loaded data names
      // the ZIP's places.
      if (unknownCityName(p, place, postal, reference, inputCityKey)) {
        notes.push(F.cityNotChecked(p.city!, p.postalCode!, place.city));
        if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
        return out;
      }
      // The city is not a place of the state: ZIP and state decide it (the ZIP alone, when no state was given).
      notes.push(F.cityCorrected(p.city!, place.city));
      out.city = place.city;
      out.corrected = true;
      if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
      return out;
    }
    if (correctZip(p, cityEntry, out, notes)) return out;
    out.candidateZips = zipsOfCity(p, postal, reference, cityEntry);
    out.invalid = true;
    return out;
  }

  // A ZIP the embedded data does not list, of a territory (Puerto Rico, Guam, …) or of military mail: its state is
  // known from the ZIP range, its city only from reference data the operator loads.
  const unlistedState = p.postalCode && FIVE_DIGITS.test(p.postalCode) ? stateOfUnlistedZip(p.postalCode) : undefined;
  if (unlistedState) {
    if (p.state && p.state !== unlistedState) {
      if (correctZip(p, cityEntry, out, notes)) return out;
      notes.push(F.zipOfOtherState(p.postalCode!, unlistedState));
      out.invalid = true;
      return out;
    }
    if (!p.state) notes.push(F.stateAdded((out.state = unlistedState)));
    if (!p.city) {
      notes.push(F.lastLineMissing);
      out.invalid = true;
    } else if (!UspsTerritories.has(unlistedState) && !MilitaryPostOffices.has(p.city)) {
      // Overseas military mail goes to APO, FPO or DPO (Pub 28 section 225.1).
      notes.push(F.cityUnknown(p.city, unlistedState));
      out.invalid = true;
    } else if (!reference?.acceptsCity(p.postalCode!, p.city)) {
      // Loaded City-State data that names the ZIP decides its city; without it the city cannot be checked.
      const named = reference?.cityNamesOf(p.postalCode!) ?? [];
      if (named.length === 1) {
        notes.push(F.cityCorrected(p.city, (out.city = named[0])));
        out.corrected = true;
      } else if (named.length > 1) {
        notes.push(F.zipCityStateDisagree);
        out.invalid = true;
      } else {
        notes.push(F.zipNotListed(p.postalCode!, unlistedState));
      }
    }
    return out;
  }

  if (p.postalCode) {
    if (correctZip(p, cityEntry, out, notes)) return out;
    notes.push(FIVE_DIGITS.test(p.postalCode) ? F.zipUnknown(p.postalCode) : F.zipMalformed(p.plus4 ? `${p.postalCode}-${p.plus4}` : p.postalCode));
    // Without a city, the state's ZIPs where the data holds the street (`270 CHRISSYS CT, VT 05434`).
    out.candidateZips = p.city ? zipsOfCity(p, postal, reference, cityEntry) : zipsOfStateWithStreet(p, postal, reference);
    out.invalid = true;
    return out;
  }

  // No ZIP: the city and state must name a place; a single-ZIP city gives its ZIP.
  if (!p.city || !p.state) {
    if (cityStates.length > 1) out.missing = F.cityOfSeveralStates(p.city!, cityStates);
    notes.push(out.missing);
    out.invalid = true;
    // The state alone (`8 WATKINS RD, VT`): the reference data may hold the street in one ZIP of the state.
    if (p.state) out.candidateZips = zipsOfStateWithStreet(p, postal, reference);
    // A city of several states, without one (`6007 APPLEGATE LN, LOUISVILLE`): the reference data may hold the street
    // in one ZIP of one of them, which then decides the state.
    // (Its ZIPs, those of the places around that take its name, and those its address files place in it.)
    if (p.city && !p.state && reference && p.name) {
      const zips = zipsOfCityAnywhere(inputCityKey, postal, reference);
      // A misspelt city one slip from several names: the ZIPs of each, the one found deciding the name.
      if (nearCities.length > 1) out.nearCityOfZip = nearCitiesByZip(nearCities, postal, reference, zips);
      out.candidateZips = [...zips];
    }
    return out;
  }
  if (!cityEntry && !postal.hasState(p.state) && UspsTerritories.has(p.state)) {
    notes.push(F.territoryNotCovered(p.state));
    return out;
  }
  // The ZIPs of the state whose points the loaded address files place in this city (JEFFERSONTOWN, which GeoNames does
  // not list; MEXICO BEACH, which it lists under one ZIP of its two).
  const local = localZipsOfCity(reference, postal, p.state, inputCityKey);
  if (!cityEntry && local.length) {
    if (local.length === 1) notes.push(F.zipAdded((out.zip = local[0])));
    else out.candidateZips = local;
    return out;
  }
  // A city misspelt by one slip (`LOUSVILLE`) is the one city of the state it is that close to.
  const near = cityEntry ? undefined : postal.cityOneSlipFrom(p.state, inputCityKey, p.city);
  if (near) {
    notes.push(F.cityCorrected(p.city, (out.city = near.name)));
    out.corrected = true;
  }
  if (!cityEntry && !near && reference) {
    const state = p.state;
    /** The city written as `city` (said by `note`), and the ZIP added, or the ZIPs to look in. */
    const placed = (note: string, city: string, zips: string[]) => {
      notes.push(note);
      out.city = city;
      out.corrected = true;
      if (zips.length === 1) notes.push(F.zipAdded((out.zip = zips[0])));
      else out.candidateZips = zips;
      return out;
    };
    // Else the one place of the state that the loaded data names (City-State names, the address files' places) and
    // that close: `BORDMAN, OH` is BOARDMAN, which USPS names for 44512.
    const zipsOf = (name: string) => localZipsOfCity(reference, postal, state, cityKey(name));
    const loadedNear = reference.localCityNamesOneSlipFrom(p.city).filter((name) => zipsOf(name).length > 0);
    if (loadedNear.length === 1) return placed(F.cityCorrected(p.city, loadedNear[0]), loadedNear[0], zipsOf(loadedNear[0]));
    // Else a name USPS lists for ZIPs of the state but does not accept in a last line: the name they are written with.
    const aliases = reference.aliasesOf(inputCityKey).filter((a) => a.state === state);
    const preferred = [...new Set(aliases.map((a) => a.preferred))];
    if (preferred.length === 1) {
      return placed(F.cityNotMailingName(p.city, preferred[0]), preferred[0], [...new Set(aliases.map((a) => a.zip))]);
    }
  }
  // A part of a city named by a directional (`EAST PORTLAND`) that is no town of its own: the city it is part of.
  const part = cityEntry || near ? undefined : cityOfDirectionalPart(p.city, p.state, postal);
  if (part) {
    notes.push(F.cityCorrected(p.city, (out.city = part.name)));
    out.corrected = true;
  }
  const city = cityEntry ?? near ?? part;
  if (!city) {
    notes.push(F.cityUnknown(p.city, p.state));
    // (Without City-State data, the place may be real: GeoNames names one place per ZIP, `BOARDMAN, OH` is none.)
    if (!reference?.hasCityNames()) notes.push(F.cityMaybeUnlisted);
    out.invalid = true;
    return out;
  }
  if (city.zips.length === 1) {
    out.zip = city.zips[0];
    notes.push(F.zipAdded(out.zip));
    // The reference may find the street in a ZIP its address files place in the town too.
    if (local.length) out.candidateZips = local;
  } else {
    // A city of several ZIPs lends its name to the ZIPs of its county's other places (`NASHVILLE` for Hermitage's
    // 37076): the reference may find the street in one of them. (A one-ZIP town keeps its ZIP: its neighbours are
    // other towns.)
    out.candidateZips = withLocalZips(postal.zipsAround(city), local);
  }
  return out;
}

function reconcileCanadianLastLine(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[]): LastLine {
  const out: LastLine = {
    city: p.city, state: p.state, zip: p.postalCode, corrected: false, invalid: false, candidateZips: [], localCandidatesOf: null,
    missing: F.lastLineMissing,
  };
  if (!p.postalCode) {
    // A city that the FSA names place in one province only gives its province (`… , TORONTO`).
    const provinces = !p.state && p.city ? postal.provincesNamingPlace(p.city) : undefined;
    if (provinces?.size === 1) notes.push(F.provinceAddedFromCity((out.state = [...provinces.keys()][0]), p.city!));
    notes.push(F.postalCodeMissing);
    out.invalid = true;
    return out;
  }
  if (!CANADIAN_POSTAL_CODE.test(p.postalCode)) {
    notes.push(F.postalCodeMalformed(p.postalCode));
    out.invalid = true;
    return out;
  }
  const fsa = postal.fsa(p.postalCode.slice(0, 3));
  if (!fsa) {
    notes.push(F.postalCodeUnknown(p.postalCode.slice(0, 3)));
    out.invalid = true;
    return out;
  }
  const firstLetterFits = (code: string) => CanadianProvinces.get(code)?.postalFirstLetters.includes(p.postalCode![0]) ?? false;
  if (!p.state) {
    notes.push(F.provinceAdded((out.state = fsa.province)));
  } else if (!firstLetterFits(p.state) || (fsa.province !== p.state && !firstLetterFits(fsa.province))) {
    // The postal code decides, unless the city sides with the province (`TORONTO, ON H3B 4W5`: H3B is Montreal's), and
    // then nothing does.
    const cityProvinces = p.city ? postal.provincesNamingPlace(p.city) : undefined;
    if (cityProvinces?.has(p.state) && !cityProvinces.has(fsa.province)) {
      notes.push(F.postalCodeOfOtherSubdivision(p.postalCode, fsa.province, p.state));
      out.invalid = true;
      return out;
    }
    notes.push(F.provinceCorrected(p.state, fsa.province));
    out.state = fsa.province;
    out.corrected = true;
  }
  // The FSA's name is a region, not a municipality: only address files that place the postal code (the NAR's Canada
  // Post municipality) can check the city, and add it when it is missing.
  const named = reference?.localCityNamesOf(p.postalCode) ?? [];
  if (!p.city) {
    if (named.length === 1) {
      notes.push(F.cityAddedFromReference((out.city = named[0])));
    } else {
      notes.push(F.lastLineMissing);
      out.invalid = true;
    }
  } else if (named.length && !reference!.acceptsCity(p.postalCode, p.city)) {
    if (named.length === 1) {
      notes.push(F.cityCorrected(p.city, (out.city = named[0])));
      out.corrected = true;
    } else {
      notes.push(F.zipCityStateDisagree);
      out.invalid = true;
    }
  } else {
    out.city = cityAsFsaNameWritesIt(fsa.place, fsa.province, p.city);
  }
  return out;
}

/**
 * Names people write for a municipality that Canada Post names otherwise (the FSA names say `QUEBEC CITY EAST`; the
 * city is QUÉBEC, written without the accent as the rest of the answer), by city key: [province, Canada Post's name].
 */
const CANADIAN_CITY_FORMS: ReadonlyMap<string, readonly [string, string]> = new Map(
  ['QUEBEC CITY', 'VILLE DE QUEBEC', 'CITY OF QUEBEC'].map((form) => [cityKey(form), ['QC', 'QUEBEC'] as const]),
);

/**
 * The city as the FSA's name writes the same name (`ST JOHNS` -> ST. JOHN'S of `ST. JOHN'S NORTH`, `ST JOHN` -> SAINT
 * JOHN of `SAINT JOHN CENTRAL`): Canada Post keeps the punctuation of a proper name. Accents are left out, as in the rest
 * of the answer; a name the FSA's does not start with (nor its bracketed part) stays as typed.
 */
function cityAsFsaNameWritesIt(fsaPlace: string, province: string, city: string): string {
  const key = cityKey(city);
  const municipality = CANADIAN_CITY_FORMS.get(key);
  if (municipality?.[0] === province) return municipality[1];
  for (const part of [fsaPlace, ...(fsaPlace.match(/\(([^)]*)\)/g) ?? []).map((b) => b.slice(1, -1))]) {
    const words = part.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().split(' ');
    for (let k = 1; k <= words.length; k++) {
      const prefix = words.slice(0, k).join(' ');
      const prefixKey = cityKey(prefix);
      if (prefixKey === key) return prefix;
      if (prefixKey.length >= key.length) break;
    }
  }
  return city;
}

/** Beyond CONTRACT §3 (additive): the secondary units Pub 28 keeps off the delivery line (`BLDG A`, `FL 3`). */
export interface NorthAmericanComponents extends AddressComponents {
  extra_secondaries: string[];
  /** Puerto Rico's urbanization name (`LAS GLADIOLAS`), written `URB LAS GLADIOLAS` above the delivery line. */
  urbanization: string | null;
  /**
   * What the delivery line is: `street` (highways included), `po_box`, `rural_route`, `highway_contract`, `military`
   * (PSC/CMR/UNIT boxes, ships) or `general_delivery`; null when there is none. Couriers that do not deliver to PO
   * boxes or APO/FPO can filter on it.
   */
  delivery_type: DeliveryType | null;
  /** US: the county of the ZIP code's place (GeoNames), upper case; null in Canada or without a known ZIP. */
  county: string | null;
  /** Canada: the delivery installation of a box, route or general delivery (`STN MAIN`, `SUCC CENTRE-VILLE`). */
  delivery_installation: string | null;
}

export type DeliveryType = 'street' | 'po_box' | 'rural_route' | 'highway_contract' | 'military' | 'general_delivery';

/** Delivery lines that are no delivery point without a number: a street or highway, a PO Box. */
const NEEDS_NUMBER: ReadonlySet<ParsedAddress['kind']> = new Set(['street', 'highway', 'po_box']);
const CONDOMINIUM = /^(?:COND|CONDOMINIO|CONDOMINIUM) /;

const DELIVERY_TYPE_BY_KIND: Partial<Record<ParsedAddress['kind'], DeliveryType>> = {
  street: 'street', highway: 'street', po_box: 'po_box', rural_route: 'rural_route', highway_contract: 'highway_contract',
  military: 'military', general_delivery: 'general_delivery',
};

/** The county of the ZIP's place named like the city (a ZIP can straddle counties: the first place otherwise). */
function countyOf(postal: PostalIndex, zip: string | null, city: string | null): string | null {
  const places = zip ? postal.zip(zip) : undefined;
  if (!places) return null;
  let place = places[0];
  if (places.length > 1 && city) {
    const key = cityKey(city);
    place = places.find((z) => z.cityKey === key) ?? place;
  }
  return place.county || null;
}

function secondaryText(s: Secondary): string {
  return words(' ', s.designator, s.number);
}

function streetPartsOf(p: ParsedAddress): StreetParts {
  return { predirection: p.predirection, name: p.name, suffix: p.suffix, postdirection: p.postdirection };
}

function streetText(s: StreetParts, suffixBeforeName: boolean): string {
  const parts = suffixBeforeName ? [s.predirection, s.suffix, s.name, s.postdirection] : [s.predirection, s.name, s.suffix, s.postdirection];
  return words(' ', ...parts);
}

/** Pub 28 delivery line (unit at the end) or Canada Post's (unit before the civic number: `104-2701 23RD AVE NW`). */
function deliveryLineText(p: ParsedAddress, street: StreetParts, canada: boolean): string {
  const name = streetText(street, p.suffixBeforeName);
  const unit = p.secondaryDesignator ? words(' ', p.secondaryDesignator, p.secondaryNumber) : '';
  if (p.kind === 'po_box' || p.kind === 'rural_route' || p.kind === 'highway_contract' || p.kind === 'military') {
    return words(' ', name, p.primaryNumber, unit, p.installation);
  }
  if (p.kind === 'general_delivery') return words(' ', name, p.installation);
  if (canada && p.primaryNumber && p.secondaryNumber) {
    return `${p.secondaryNumber}-${p.primaryNumber} ${name}`.trim();
  }
  // A kilometre or mile marker written after its road stays there (`CARR 2 KM 15.5`).
  if (p.milepost?.afterStreet) return words(' ', name, p.primaryNumber, unit);
  return words(' ', p.primaryNumber, name, unit);
}

/** The last line's candidate ZIPs, with those the address files place in its city when it names them (see LastLine). */
function candidatesOf(last: LastLine, postal: PostalIndex, reference: ReferenceIndex): readonly string[] {
  return last.localCandidatesOf && last.state
    ? withLocalZips(last.candidateZips, localZipsOfCity(reference, postal, last.state, last.localCandidatesOf))
    : last.candidateZips;
}

/**
 * A street typed without its type, then a unit letter (`74 SPRINGFIELD B`: data SPRINGFIELD ST, unit B): the answer
 * with the letter as the unit, where the data holds that unit (`Y`); else null.
 */
function letterUnitReading(
  reference: ReferenceIndex, postalCode: string, street: StreetParts, p: ParsedAddress,
): { answer: ReferenceAnswer; letter: string } | null {
  const m = p.secondaryNumber || street.suffix ? null : TRAILING_UNIT_LETTER.exec(street.name ?? '');
  if (!m || DirectionalTable.has(m[2])) return null;
  const named = { ...street, name: m[1] };
  const asUnit = reference.lookup({ postalCode, street: named, primaryNumber: p.primaryNumber, secondaryNumber: m[2] });
  return asUnit.dpv === 'Y' ? { answer: { ...asUnit, correctedStreet: asUnit.correctedStreet ?? named, respelled: false }, letter: m[2] } : null;
}

/**
 * The unit the reference data confirmed where it was typed as part of something else (a letter after the street, a
 * number before or on the house number): written `#`.
 */
function unitReadAs(p: ParsedAddress, unit: string): void {
  p.secondaryDesignator = '#';
  p.secondaryNumber = unit;
}

/** A ZIP where the street and number are a delivery point, its answer, and the unit letter read (letterUnitReading). */
type Found = [zip: string, answer: ReferenceAnswer, letter: string | null];

/**
 * Where the street and number are delivery points when the ZIP given (if any) does not hold them: first among the ZIPs
 * of the city where the data has a street of that name; where none delivers, among those with a street the name may
 * mean (misspelt, written another way, its type word in it: zipsWithStreetNear) when `nearToo`, asked only where some
 * ZIP of the city has reference data at all (most addresses without a street of the data). Each ZIP's own look-up
 * decides.
 */
function searchZips(
  reference: ReferenceIndex, postal: PostalIndex, last: LastLine, street: StreetParts, p: ParsedAddress, zip: string | null, nearToo: boolean,
): Found[] {
  if (street.name === null) return [];
  // (Plain loops, no closures: this runs for most addresses, and the build names every closure it creates.)
  let all: readonly string[] | undefined;
  let asked: string[] = [];
  const named = reference.zipsWithStreetName(street.name);
  if (named) {
    all = candidatesOf(last, postal, reference);
    asked = zipsIn(all, named, zip);
    const found = deliveringIn(reference, asked, street, p);
    if (found.length > 0) return found;
  }
  const covered = nearToo && (reference.coversAny(last.candidateZips) ||
    (last.localCandidatesOf !== null && reference.postalCodesOfLocalCity(last.localCandidatesOf).size > 0));
  if (!covered) return [];
  const near = reference.zipsWithStreetNear({ ...street, name: street.name });
  if (near.size === 0) return [];
  for (const z of asked) near.delete(z);
  return deliveringIn(reference, zipsIn(all ?? candidatesOf(last, postal, reference), near, zip), street, p);
}

/** The ZIPs where the street and number are a delivery point, as typed or with a unit letter read (letterUnitReading). */
function deliveringIn(reference: ReferenceIndex, zips: readonly string[], street: StreetParts, p: ParsedAddress): Found[] {
  const found: Found[] = [];
  for (const z of zips) {
    const a = lookupAt(reference, z, street, p);
    if (delivers(a)) {
      found.push([z, a, null]);
      continue;
    }
    const asUnit = p.country === 'CA' ? null : letterUnitReading(reference, z, street, p);
    if (asUnit) found.push([z, asUnit.answer, asUnit.letter]);
  }
  return found;
}

/** The candidate ZIPs in `zips` but `given`, none when there are too many to walk. */
function zipsIn(candidates: readonly string[], zips: ReadonlySet<string>, given: string | null): string[] {
  const found: string[] = [];
  if (candidates.length > MAX_CANDIDATE_ZIPS) return found;
  for (const z of candidates) if (z !== given && zips.has(z)) found.push(z);
  return found;
}

/** The delivery point of the parsed address in the reference data, under the postal code given. */
function lookupAt(reference: ReferenceIndex, postalCode: string, street: StreetParts, p: ParsedAddress): ReferenceAnswer {
  return reference.lookup({ postalCode, street, primaryNumber: p.primaryNumber, secondaryNumber: p.secondaryNumber });
}

export function validateNorthAmerican(
  p: ParsedAddress,
  postal: PostalIndex,
  reference: ReferenceIndex | undefined,
  inputWasCut: boolean,
): AddressResult {
  const canada = p.country === 'CA';
  const notes: string[] = [];
  if (inputWasCut) notes.push(F.tooLong);
  if (p.nonLatin) notes.push(F.nonLatin);
  const hasDeliveryLine = p.kind !== 'none' && p.name !== null;
  // A Puerto Rico condominium not on a numbered street: its name stands for the street, with no house number (Pub 28,
  // Puerto Rico addresses), written COND (`CONDOMINIO EL MONTE NORTE APT 5B` -> COND EL MONTE NORTE APT 5B).
  const condominium = !p.primaryNumber && p.kind === 'street' && p.state === 'PR' && p.name !== null && CONDOMINIUM.test(p.name);
  if (condominium) p.name = p.name!.replace(CONDOMINIUM, 'COND ');
  // Box numbers start at 1 (a street may have a house number 0; a post office has no box 0).
  const boxZero = p.kind === 'po_box' && p.primaryNumber !== null && /^0+$/.test(p.primaryNumber);
  // `UNIT 5 BOX 42` (military, Pub 28 section 225) delivers only through an APO, FPO or DPO: state AA, AE or AP.
  const militaryElsewhere = p.kind === 'military' && p.state !== null && !MilitaryStates.has(p.state);
  if (!hasDeliveryLine) {
    notes.push(p.postalCode && !p.city && !p.state ? F.onlyPostalCode : F.noDeliveryLine);
  } else if (p.kind === 'intersection') {
    notes.push(F.intersection);
  } else if (!p.primaryNumber && NEEDS_NUMBER.has(p.kind) && !condominium) {
    notes.push(F.noPrimaryNumber);
  } else if (boxZero) {
    notes.push(F.poBoxNumberZero);
  } else if (militaryElsewhere) {
    notes.push(F.militaryLineElsewhere);
  }
  // Two whole addresses, each with its last line (`6007 APPLEGATE LN, LOUISVILLE, KY 40219; 1745 T ST SE, …`): the one
  // nearer the end is checked, and the answer is ambiguous (Pub 28's line above the city is for one address's lines).
  // (The same address typed twice, its number and ZIP again, is no second one: a pasted field repeated.)
  const sameAgain = p.recipient !== null && p.primaryNumber !== null && p.postalCode !== null &&
    p.recipient.startsWith(`${p.primaryNumber} `) && p.recipient.endsWith(` ${p.postalCode.slice(0, 5)}`);
  const otherAddress = p.recipient !== null && p.otherLine !== null && !sameAgain && endsWithLastLine(p.recipient);
  if (p.recipient) notes.push(otherAddress ? F.otherAddressSetAside(p.recipient) : p.otherLine ? F.otherLineSetAside(p.recipient) : F.recipientDropped(p.recipient));
  if (p.leftover.length) notes.push(F.extraDropped(p.leftover.join(' ')));
  if (p.trailing) notes.push(F.extraDropped(p.trailing));
  if (p.county) notes.push(F.countyDropped(p.county));
  if (p.attention) notes.push(F.attentionDropped(p.attention));
  if (p.building) notes.push(F.buildingDropped(p.building));
  if (p.extraSecondaries.length) notes.push(F.extraSecondary(p.extraSecondaries.map(secondaryText).join(' ')));
  // `123 MAIN ST APT`: a designator that needs a number says nothing without it (Pub 28 section 213); it is dropped.
  if (p.secondaryDesignator && !p.secondaryNumber && UnitDesignatorTable.get(p.secondaryDesignator)?.requiresNumber) {
    notes.push(F.unitNumberMissing(p.secondaryDesignator));
    p.secondaryDesignator = null;
  }

  const last = canada ? reconcileCanadianLastLine(p, postal, reference, notes) : reconcileUsLastLine(p, postal, reference, notes);
  let street = streetPartsOf(p);
  let status: AddressStatus;
  let dpv: Dpv = '';
  let zip4: string | null = null;
  // The number is not among the sampled points of a street only a sample names (dpv "": neither confirmed nor denied).
  let notInSample = false;
  let corrected = last.corrected;
  if (p.stateTyped && p.state) {
    notes.unshift(F.stateCorrected(p.stateTyped, p.state));
    corrected = true;
  }
  if (p.postalCodeTyped && p.postalCode) {
    notes.unshift(F.zipCorrected(p.postalCodeTyped, p.postalCode));
    corrected = true;
  }
  // A state's route with the state's name misspelt (`6460 VEROMNT 113`): read as VT ROUTE 113, and said so.
  if (p.nameTyped && p.name) {
    notes.push(F.streetCorrected(p.nameTyped, p.name));
    corrected = true;
  }
  // What no reference data can mend: no (readable) delivery line, a corner, a street or box without its number, box 0.
  const lineInvalid = p.nonLatin || !hasDeliveryLine || p.kind === 'intersection' || (!p.primaryNumber && NEEDS_NUMBER.has(p.kind) && !condominium) ||
    boxZero || militaryElsewhere;
  let invalid = last.invalid || lineInvalid;

  // Delivery-point lookup: the given ZIP, or the one ZIP among the candidates where the street and number exist.
  if (reference && hasDeliveryLine && !p.nonLatin) {
    let zip = last.zip;
    let answer = zip && !last.invalid ? lookupAt(reference, zip, street, p) : null;
    // The ZIP was changed to the city's, but the delivery point is in the data under the ZIP as given (`… MEXICO BEACH
    // FL 32456`: a town whose GeoNames place has another ZIP): the given ZIP stands, and the city as written with it
    // where the loaded address files place the ZIP's points there; else the ZIP's own city (`150 CARTER ST, GROTON, CT
    // 06040`: GROTON's 06340 is one slip away, but the point is in 06040, MANCHESTER).
    const given = p.postalCode;
    if (given && zip !== given && FIVE_DIGITS.test(given) && !(answer && delivers(answer))) {
      const atGiven = lookupAt(reference, given, street, p);
      if (delivers(atGiven)) {
        // The ZIP correction was the only one made (reconcileUsLastLine returns right after correctZip): undone.
        const changed = notes.indexOf(F.zipCorrected(given, zip ?? ''));
        if (changed >= 0) notes.splice(changed, 1);
        zip = last.zip = given;
        answer = atGiven;
        const zipCity = cityOfZip(postal, reference, given);
        if (!p.city || reference.acceptsCity(given, p.city) || !zipCity) {
          last.city = p.city;
          corrected = false;
        } else {
          notes.push(F.cityCorrected(p.city, (last.city = zipCity)));
          corrected = true;
        }
      }
    }
    // (A street the name may mean is looked for where no ZIP was given, or the one given is no ZIP of the city: a slip
    // in the street and a good ZIP are mended in that ZIP alone.)
    const found = !answer || answer.dpv === '' || numberNotFound(answer)
      ? searchZips(reference, postal, last, street, p, zip, !given || last.invalid) : [];
    if (found.length === 1) {
      const [z, a, letter] = found[0];
      if (letter) {
        unitReadAs(p, letter);
      }
      const added = zip ? notes.indexOf(F.zipAdded(zip)) : -1;
      if (added >= 0) notes[added] = F.zipAdded(z); // the ZIP was ours (a one-ZIP town's), not the input's
      else if (zip && z !== zip) {
        // The fault found in the ZIP typed (`402199`: no ZIP code) is answered by the correction.
        const typed = p.plus4 ? `${zip}-${p.plus4}` : zip;
        for (const fault of [F.zipUnknown(zip), F.zipMalformed(typed)]) if (notes.includes(fault)) notes.splice(notes.indexOf(fault), 1);
        notes.push(F.zipCorrected(zip, z));
      }
      else if (!zip) notes.push(F.zipAdded(z));
      corrected = corrected || (zip !== null && added < 0);
      invalid = lineInvalid;
      zip = z;
      answer = a;
      last.zip = z;
      if (!last.state) {
        // Found from the city alone: the ZIP's state.
        const state = postal.zip(z)?.[0]?.state;
        const missing = notes.indexOf(last.missing);
        if (state && missing >= 0) notes.splice(missing, 1, F.stateAdded((last.state = state)));
      }
      const nearCity = last.nearCityOfZip?.get(z);
      if (nearCity && last.city) {
        // A misspelt city, one slip from several names: the ZIP found tells which.
        notes.push(F.cityCorrected(last.city, nearCity));
        last.city = nearCity;
        corrected = true;
      } else if (last.nearCityOfZip) {
        // The ZIP is of none of them, or of two: the city typed is no name of it.
        invalid = true;
      }
      // The city as the ZIP's place spells it (FORESTHILL for 95631, where FOREST HILL of another state was the name).
      const spelt = last.city ? postal.zip(z)?.find((place) => cityKey(place.city) === cityKey(last.city!))?.city : undefined;
      if (spelt && spelt !== last.city) {
        // A correction made before the ZIP was known names the city as the ZIP spells it too.
        const said = notes.findIndex((n) => n.startsWith('B#: city corrected from ') && n.endsWith(` to ${last.city}`));
        if (said >= 0) notes[said] = `${notes[said].slice(0, -last.city!.length)}${spelt}`;
        last.city = spelt;
      }
      if (!last.city) {
        // Found from the state alone: the ZIP's city.
        const city = cityOfZip(postal, reference, z);
        const missing = notes.indexOf(last.missing);
        if (city && missing >= 0) notes.splice(missing, 1, F.cityAdded((last.city = city)));
      }
    }
    // The city is another place of the state, whose ZIPs do not hold the street, but the delivery point is in the data
    // under the ZIP as given (`1267 MARTIN ST # 203, MEMPHIS, TN 37203`): ZIP and street decide, the city is the ZIP's.
    if (last.invalid && !answer && !canada && given && FIVE_DIGITS.test(given) && p.city && (!p.state || zipOfState(postal, given, p.state))) {
      const atGiven = lookupAt(reference, given, street, p);
      const city = cityOfZip(postal, reference, given);
      if (city && delivers(atGiven)) {
        notes.push(F.cityCorrected(p.city, city));
        last.city = city;
        zip = last.zip = given;
        answer = atGiven;
        corrected = true;
        invalid = lineInvalid;
      }
    }
    // A US number written as Canada Post writes a unit before the civic number (`203-1267 MARTIN ST`), with the unit
    // after it (`1267-203`), or with the unit's letter after it (`600B W 19TH AVE`, `600-B`): where the data holds no
    // such number but holds the building and its unit, that is the reading (Queens' `123-45` stays as found).
    const unitCivic = !canada && answer && numberNotFound(answer) && !p.secondaryNumber && zip ? unitAndNumberReadings(p.primaryNumber ?? '') : NO_READINGS;
    for (const [unit, number] of unitCivic) {
      const asUnit = reference.lookup({ postalCode: zip!, street, primaryNumber: number, secondaryNumber: unit });
      if (asUnit.dpv !== 'Y') continue;
      notes.push(F.unitInNumber(p.primaryNumber!, unit, number));
      p.primaryNumber = number;
      unitReadAs(p, unit);
      answer = asUnit;
      corrected = true;
      break;
    }
    // A range of house numbers (`100-110 MAIN ST`, a building on several lots): its first number, else its last, where
    // the data holds it and not the range (Queens' `123-45` counts down, so it is no range).
    const range = !canada && answer && numberNotFound(answer) && zip ? NUMBER_RANGE.exec(p.primaryNumber ?? '') : null;
    for (const number of range && Number(range[2]) > Number(range[1]) ? [range[1], range[2]] : []) {
      const end = reference.lookup({ postalCode: zip!, street, primaryNumber: number, secondaryNumber: p.secondaryNumber });
      if (!delivers(end)) continue;
      notes.push(F.numberOfRange(p.primaryNumber!, number));
      p.primaryNumber = number;
      answer = end;
      corrected = true;
      break;
    }
    // A street typed without its type, then a unit letter (`74 SPRINGFIELD B`): the letter is the unit where the data
    // holds only that reading.
    const asUnit = !canada && zip && (!answer || !delivers(answer)) ? letterUnitReading(reference, zip, street, p) : null;
    if (asUnit) {
      unitReadAs(p, asUnit.letter);
      answer = asUnit.answer;
    }
    // A letter after the street read as its post-directional, which the data's street does not have, where the building
    // needs a unit (`16031 W 63RD LN E`): the letter is the unit where the data holds it, and the street was right.
    const postLetter = street.postdirection;
    const fixed = answer?.correctedStreet;
    if (answer?.dpv === 'D' && zip && fixed && !fixed.postdirection && postLetter && /^[NSEW]$/.test(postLetter) && !p.secondaryNumber) {
      const withUnit = reference.lookup({ postalCode: zip, street: fixed, primaryNumber: p.primaryNumber, secondaryNumber: postLetter });
      if (withUnit.dpv === 'Y') {
        unitReadAs(p, postLetter);
        answer = { ...withUnit, correctedStreet: fixed, respelled: true };
      }
    }
    if (answer) {
      dpv = answer.dpv;
      zip4 = answer.zip4;
      notInSample = answer.numberNotInSample === true;
      if (answer.correctedStreet && answer.respelled) {
        // Only a street type inside the name written as the data writes it: standardized (N#), not corrected.
        street = answer.correctedStreet;
      } else if (answer.correctedStreet) {
        notes.push(F.streetCorrected(streetText(street, p.suffixBeforeName), streetText(answer.correctedStreet, p.suffixBeforeName)));
        street = answer.correctedStreet;
        corrected = true;
      }
      if (answer.ambiguous) notes.push(F.ambiguousStreet);
      // The unit as the ZIP+4 record writes it (`APT 5` or `# 5` where USPS has STE 5), as CASS output does.
      const designator = answer.dpv === 'Y' && p.secondaryNumber ? answer.unitDesignator : null;
      if (designator && designator !== p.secondaryDesignator) {
        notes.push(F.unitDesignatorOfData(p.secondaryDesignator ?? '#', designator));
        p.secondaryDesignator = designator;
      }
    }
  }
  if (last.invalid && !invalid) {
    // resolved by the reference data above
  } else if (last.invalid && notes.every((n) => !n.startsWith('C#'))) {
    notes.push(F.zipCityStateDisagree);
  }

  // Pub 28 writes the last line without punctuation but the hyphen (COEUR D ALENE, as GeoNames' Coeur d'Alene; the
  // typed O'FALLON reads O FALLON already); Canada Post keeps the apostrophe (L'ASSOMPTION).
  if (!canada && last.city?.includes("'")) last.city = last.city.replace(/'+/g, ' ').replace(/\s+/g, ' ').trim();
  if (invalid) status = 'invalid';
  else if (dpv === 'Y') status = corrected ? 'corrected' : 'verified';
  else if (dpv === 'S' || dpv === 'D') status = 'partial';
  else if (dpv === 'N') status = notes.includes(F.ambiguousStreet) ? 'ambiguous' : 'invalid';
  else if (notes.includes(F.ambiguousStreet)) status = 'ambiguous';
  else status = corrected ? 'corrected' : 'plausible';
  if (otherAddress && status !== 'invalid') status = 'ambiguous';

  if (dpv === 'Y') notes.push(F.deliveryPointConfirmed);
  else if (dpv === 'S') notes.push(F.secondaryUnconfirmed);
  else if (dpv === 'D') notes.push(F.secondaryMissing);
  // (A line without its house number was faulted for that already: no number is a delivery point.)
  else if (dpv === 'N' && status !== 'ambiguous' && !notes.includes(F.noPrimaryNumber)) notes.push(F.notFound);
  else if (dpv === '' && hasDeliveryLine && !invalid) {
    // Address points (RRAD, OpenAddresses, NAR) cover the streets they name; ZIP+4 ranges cover a whole ZIP (then `N`).
    if (!last.zip) {
      // A city of several ZIPs, none given, and no reference data that places the street in one of them.
      const covered = reference?.coversAny(last.candidateZips);
      notes.push(F.zipMissing, !covered ? F.noReferenceDataForCity : NOT_STREETS.has(p.kind) ? F.boxNotInCityZips : F.streetNotInCityZips);
    } else if (notInSample) {
      notes.push(F.numberNotInSample);
    } else {
      notes.push(!reference?.covers(last.zip) ? F.noReferenceData : NOT_STREETS.has(p.kind) ? F.boxNotCovered : F.streetNotCovered);
    }
  }

  const delivery = hasDeliveryLine ? deliveryLineText(p, street, canada) : '';
  const plus4 = zip4 ? zip4.slice(6) : p.plus4;
  // A typed add-on the data's differs from (with the ZIP as typed): said, not a correction of the address.
  if (zip4 && p.plus4 && p.plus4 !== plus4 && p.postalCode === last.zip) notes.push(F.plus4Replaced(p.plus4, plus4!));
  const postalText = last.zip ? (canada ? last.zip : zip4 ?? last.zip) : '';
  const lastLine = canada
    ? words(' ', last.city, words('  ', last.state, postalText))
    : words(' ', last.city, last.state, postalText);
  const standardized = words(' ', p.urbanization ? `URB ${p.urbanization}` : null, delivery, lastLine) || null;
  if (standardized && hasDeliveryLine && !invalid) notes.push(canada ? F.standardizedCanada : F.standardized);

  const components: NorthAmericanComponents = {
    primary_number: p.primaryNumber,
    street_predirection: street.predirection,
    street_name: street.name,
    street_suffix: street.suffix,
    street_postdirection: street.postdirection,
    secondary_designator: p.secondaryDesignator,
    secondary_number: p.secondaryNumber,
    city: last.city ? last.city.toUpperCase() : null,
    state: last.state,
    postal_code: last.zip,
    plus4: canada ? null : plus4,
    country: canada ? 'CA' : 'US',
    extra_secondaries: p.extraSecondaries.map(secondaryText),
    urbanization: p.urbanization,
    delivery_type: hasDeliveryLine ? DELIVERY_TYPE_BY_KIND[p.kind] ?? null : null,
    county: canada ? null : countyOf(postal, last.zip, last.city),
    delivery_installation: p.installation,
  };
  return { status, standardized, dpv, zip4, country: components.country, components, footnotes: notes };
}
