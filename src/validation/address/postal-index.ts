/**
 * ZIP codes (US) and forward sortation areas (Canada) with their places: the data that lets the engine check a ZIP,
 * city and state against each other. Built from text passed in (the shipped GeoNames extracts, see README), so tests
 * can hand it a few lines.
 */
import { StreetSuffixTable } from './tables.js';

export interface ZipPlace {
  zip: string;
  state: string;
  city: string;
  county: string;
  /** Latitude and longitude of the ZIP's centre (GeoNames, two decimals), when known. */
  lat?: number;
  lon?: number;
  /** cityKey(city), computed once. */
  cityKey?: string;
}

export interface CityEntry {
  /** The spelling shown in answers (GeoNames place name, upper case). */
  name: string;
  /** cityKey of the name (a nickname finds the entry under another key). */
  key: string;
  state: string;
  zips: string[];
  counties: Set<string>;
}

/**
 * Names of cities that are no gazetteer name of them but that people write on envelopes and forms, each with its state
 * (a real place of that name in the state comes first: addNickname).
 */
const CITY_NICKNAMES: readonly (readonly [string, string, string])[] = [
  ['NYC', 'NY', 'NEW YORK'], ['NEW YORK CITY', 'NY', 'NEW YORK'], ['NY', 'NY', 'NEW YORK'], ['BKLYN', 'NY', 'BROOKLYN'],
  ['LA', 'CA', 'LOS ANGELES'], ['SF', 'CA', 'SAN FRANCISCO'], ['SAN FRAN', 'CA', 'SAN FRANCISCO'], ['S SAN FRAN', 'CA', 'SOUTH SAN FRANCISCO'],
  ['PHILA', 'PA', 'PHILADELPHIA'], ['PHILLY', 'PA', 'PHILADELPHIA'], ['PGH', 'PA', 'PITTSBURGH'], ['VEGAS', 'NV', 'LAS VEGAS'], ['INDY', 'IN', 'INDIANAPOLIS'], ['WASH', 'DC', 'WASHINGTON'],
  ['NOLA', 'LA', 'NEW ORLEANS'], ['SLC', 'UT', 'SALT LAKE CITY'], ['OKC', 'OK', 'OKLAHOMA CITY'], ['ATL', 'GA', 'ATLANTA'],
  ['JAX', 'FL', 'JACKSONVILLE'], ['ST PETE', 'FL', 'SAINT PETERSBURG'], ['ABQ', 'NM', 'ALBUQUERQUE'], ['MPLS', 'MN', 'MINNEAPOLIS'],
  ['STL', 'MO', 'SAINT LOUIS'], ['KC', 'MO', 'KANSAS CITY'], ['KC', 'KS', 'KANSAS CITY'], ['CINCY', 'OH', 'CINCINNATI'],
  ['CINTI', 'OH', 'CINCINNATI'], ['BALTO', 'MD', 'BALTIMORE'], ['PHX', 'AZ', 'PHOENIX'],
];

/** A county's name without what GeoNames writes after it: `(CITY)`, PARISH, BOROUGH, MUNICIPALITY, CENSUS AREA. */
function countyNameAlone(county: string): string {
  return county.replace(/\s*\(.*$/, '').replace(/\s+(?:COUNTY|PARISH|CITY AND BOROUGH|BOROUGH|MUNICIPALITY|CENSUS AREA)$/, '');
}

const NO_PROVINCES: ReadonlyMap<string, number> = new Map();

export interface FsaPlace {
  fsa: string;
  province: string;
  place: string;
}

export const CITY_WORD_ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['SAINT', 'ST'], ['SAINTE', 'STE'], ['FORT', 'FT'], ['MOUNT', 'MT'], ['MOUNTAIN', 'MTN'], ['NORTH', 'N'], ['SOUTH', 'S'], ['SO', 'S'],
  ['EAST', 'E'], ['WEST', 'W'], ['HEIGHTS', 'HTS'], ['SPRINGS', 'SPGS'], ['POINT', 'PT'], ['PORT', 'PT'],
  ['CENTER', 'CTR'], ['JUNCTION', 'JCT'], ['VILLAGE', 'VLG'], ['TOWNSHIP', 'TWP'], ['ISLAND', 'IS'], ['BEACH', 'BCH'],
  ['LAKE', 'LK'], ['CITY', 'CITY'], ['TW', 'TWP'], ['VALLEY', 'VLY'], ['VY', 'VLY'], ['CREEK', 'CRK'],
  // As New England writes its towns (`NO ANDOVER`, `SO PORTLAND`), and the short forms of USPS's abbreviated city names.
  ['NO', 'N'], ['FALLS', 'FLS'], ['CTY', 'CITY'], ['HARBOR', 'HBR'], ['SPRING', 'SPG'], ['GROVE', 'GRV'], ['HILLS', 'HLS'],
  ['MILLS', 'MLS'], ['LANDING', 'LNDG'], ['STATION', 'STA'], ['GARDENS', 'GDNS'], ['CROSSING', 'XING'], ['BRIDGE', 'BRG'],
  ['RAPIDS', 'RPDS'], ['PLAINS', 'PLNS'], ['SHORES', 'SHRS'],
]);

/** One upper-case word's key: its USPS abbreviation, and `-BOROUGH` as USPS writes it (FOXBOROUGH is FOXBORO). */
function wordKey(word: string): string {
  const abbreviated = CITY_WORD_ABBREVIATIONS.get(word);
  if (abbreviated) return abbreviated;
  return word.length > 7 && word.endsWith('BOROUGH') ? word.slice(0, -3) : word;
}

/**
 * A spelling-independent key for a city name: words abbreviated the way USPS city names are (SAINT -> ST, FORT -> FT,
 * FOXBOROUGH -> FOXBORO), then letters and digits only, so that "St. Louis", "SAINT LOUIS" and "DesPlaines"/"DES
 * PLAINES" meet.
 */
export function cityKey(name: string): string {
  return keyOfWords(name, wordKey);
}

function keyOfWords(name: string, keyOfWord: (word: string) => string): string {
  let key = '';
  for (const word of name.toUpperCase().split(/[^A-Z0-9]+/)) {
    if (word) key += keyOfWord(word);
  }
  return key;
}

/** cityKey of one upper-case word; the key of a name is the concatenation of the keys of its words. */
/**
 * cityKey without the -BOROUGH rule: names that differ only in how their words are abbreviated or punctuated (ST. LOUIS
 * and SAINT LOUIS, MC ALLEN and MCALLEN), not in which name they are (FOXBOROUGH and FOXBORO are two USPS names).
 */
export function citySpellingKey(name: string): string {
  return keyOfWords(name, abbreviatedWord);
}

const abbreviatedWord = (word: string): string => CITY_WORD_ABBREVIATIONS.get(word) ?? word;

export function cityWordKey(word: string): string {
  return /^[A-Z0-9]+$/.test(word) ? wordKey(word) : cityKey(word);
}

/**
 * City names found by a misspelling of one typing slip. Each name is kept under its key and under its letters
 * (`GRASS VALELY` is one slip from the letters GRASSVALLEY, not from the key GRASSVLY), by first letter and length: a
 * slip keeps the first letter (as cityOneSlipFrom asks) and moves the length by one at most, so a look-up reads a few
 * short lists instead of every name (about 30 µs over the 30,000 US cities: `npm run -s bench:address`).
 */
export class CityNameSlips {
  private readonly byStart = new Map<string, [form: string, name: string][]>();

  constructor(names: Iterable<readonly [key: string, name: string]>) {
    for (const [key, name] of names) {
      for (const form of new Set([key, lettersOf(name)])) {
        const bucket = `${form[0]}${form.length}`;
        const list = this.byStart.get(bucket);
        if (list) list.push([form, name]);
        else this.byStart.set(bucket, [[form, name]]);
      }
    }
  }

  /** The names one slip from the typed name (six letters or more), at most two: two say it is ambiguous. */
  namesOneSlipFrom(typed: string): string[] {
    const found: string[] = [];
    const forms = [cityKey(typed), lettersOf(typed)];
    for (let f = 0; f < forms.length; f++) {
      const form = forms[f];
      if (form.length < 6 || (f > 0 && form === forms[0])) continue;
      for (let length = form.length - 1; length <= form.length + 1; length++) {
        for (const [candidate, name] of this.byStart.get(`${form[0]}${length}`) ?? []) {
          if (found.includes(name) || !oneTypingSlipApart(form, candidate)) continue;
          found.push(name);
          if (found.length === 2) return found;
        }
      }
    }
    return found;
  }
}

/**
 * The city keys of each run of one to four words of each part of an FSA's name (`DOWNSVIEW EAST`, `CFB TORONTO`), and
 * of the runs each part starts with (`ST. ANDREWS`, not `ANDREWS`). Accents go, as in the text read (SAINT-JEROME).
 */
function runsOfFsaName(place: string): { runs: Set<string>; starts: Set<string> } {
  const runs = new Set<string>();
  const starts = new Set<string>();
  for (const part of place.normalize('NFD').replace(/[\u0300-\u036f]/g, '').split(/[()/,]/)) {
    const words = part.trim().split(/[\s-]+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 1; j <= Math.min(words.length, i + 4); j++) {
        const key = cityKey(words.slice(i, j).join(' '));
        runs.add(key);
        if (i === 0) starts.add(key);
      }
    }
  }
  return { runs, starts };
}

/** The letters of a name, upper case, nothing else (`GRASS VALLEY` -> GRASSVALLEY). */
export function lettersOf(name: string): string {
  return NOT_UPPER_CASE_LETTER.test(name) ? name.toUpperCase().replace(/[^A-Z]/g, '') : name;
}
const NOT_UPPER_CASE_LETTER = /[^A-Z]/;

/**
 * The abbreviations of the words of `words` that `word` is one typing slip from (the same first letter: a slip keeps
 * it; `word` itself no such word, and `minLength` letters or more), each once.
 */
export function wordsOneSlipFrom(word: string, words: ReadonlyMap<string, string>, minLength = 4): string[] {
  if (word.length < minLength || words.has(word)) return [];
  const found: string[] = [];
  for (const [w, abbreviation] of wordsByInitial(words).get(word[0]) ?? []) {
    if (!found.includes(abbreviation) && oneTypingSlipApart(word, w)) found.push(abbreviation);
  }
  return found;
}

/** The one abbreviation wordsOneSlipFrom finds; undefined when none, or words of two abbreviations, are. */
export function wordOneSlipFrom(word: string, words: ReadonlyMap<string, string>): string | undefined {
  const found = wordsOneSlipFrom(word, words);
  return found.length === 1 ? found[0] : undefined;
}

/** The street types whose written forms of three letters or more a word is one typing slip from. */
export function streetTypesOneSlipFrom(word: string): string[] {
  return /[^A-Z]/.test(word) ? [] : wordsOneSlipFrom(word, STREET_TYPE_FORMS, 3);
}

/** The written forms of street types (letters only, three or more) and their Pub 28 abbreviation. */
const STREET_TYPE_FORMS: ReadonlyMap<string, string> = new Map([...StreetSuffixTable].filter(([form]) => form.length >= 3 && /^[A-Z]+$/.test(form)));

/** Each word list's words by first letter, grouped on first use (the lists are module constants). */
const byInitialOfList = new WeakMap<ReadonlyMap<string, string>, Map<string, [string, string][]>>();
function wordsByInitial(words: ReadonlyMap<string, string>): Map<string, [string, string][]> {
  let byInitial = byInitialOfList.get(words);
  if (!byInitial) {
    byInitial = new Map();
    for (const [w, abbreviation] of words) {
      const list = byInitial.get(w[0]) ?? [];
      list.push([w, abbreviation]);
      byInitial.set(w[0], list);
    }
    byInitialOfList.set(words, byInitial);
  }
  return byInitial;
}

/** One typing slip apart: a letter inserted, dropped or changed, or two neighbours swapped. */
export function oneTypingSlipApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length) {
    if (sameFrom(a, i + 1, b, i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && sameFrom(a, i + 2, b, i + 2);
  }
  return a.length > b.length ? sameFrom(a, i + 1, b, i) : sameFrom(a, i, b, i + 1);
}

/** a from index i equals b from index j (what `a.slice(i) === b.slice(j)` says, without the copies). */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  while (i < a.length) if (a.charCodeAt(i++) !== b.charCodeAt(j++)) return false;
  return true;
}

/**
 * How near another place of the county must be to be an accepted name for a ZIP. Measured on the RRAD addresses
 * (`npm run -s bench:address`): 10 km keeps 97.7% of them verified with place names held out (the whole county:
 * 97.9%, none: 97.0%, measured by changing this rule), while a wrong town of the state is confirmed for 3.4% of them.
 */
const ACCEPTABLE_PLACE_KM = 10;

/** Equirectangular distance: exact enough at ten kilometres. */
function kilometresBetween(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const x = (lon2 - lon1) * rad * Math.cos(((lat1 + lat2) / 2) * rad);
  const y = (lat2 - lat1) * rad;
  return 6371 * Math.hypot(x, y);
}

export class PostalIndex {
  private readonly placesByZip = new Map<string, ZipPlace[]>();
  private readonly citiesByState = new Map<string, Map<string, CityEntry>>();
  private readonly statesByCityKey = new Map<string, CityEntry[]>();
  private readonly fsaPlaces = new Map<string, FsaPlace>();
  /** The cities' names by their spelling, for a misspelt one (built on first use). */
  private citySlips: CityNameSlips | undefined;
  /** Place names within FSA names, by city key (built on first use). */
  private fsaPlaceNames: Map<string, Map<string, number>> | undefined;
  private fsaPlaceNameStarts: Map<string, number> | undefined;
  /** `STATE|COUNTY` -> its ZIPs. */
  private readonly zipsByCounty = new Map<string, string[]>();
  /** `STATE|` and the cityKey of a county's name, whole and alone (countyNameAlone) -> the county as GeoNames writes it. */
  private readonly countiesByKey = new Map<string, string>();

  /** `usZipTsv`: ZIP, state, place, county, and optionally latitude and longitude per line; `caFsaTsv`: FSA, province, place. */
  static fromText(usZipTsv: string, caFsaTsv: string): PostalIndex {
    const index = new PostalIndex();
    for (const line of usZipTsv.split('\n')) {
      const [zip, state, city, county = '', lat, lon] = line.split('\t');
      if (!zip || !state || !city) continue;
      const place: ZipPlace = { zip, state, city, county };
      if (lat && lon) {
        place.lat = Number(lat);
        place.lon = Number(lon);
      }
      index.addZip(place);
    }
    for (const line of caFsaTsv.split('\n')) {
      const [fsa, province, place = ''] = line.split('\t');
      if (fsa && province) index.fsaPlaces.set(fsa, { fsa, province, place });
    }
    for (const [nickname, state, city] of CITY_NICKNAMES) index.addNickname(nickname, state, city);
    return index;
  }

  /**
   * Another name people type for a city (`NYC`), found as the city itself: the same entry under a second key, so that
   * the answer writes the city's own name.
   */
  addNickname(nickname: string, state: string, city: string): void {
    const entry = this.city(state, city);
    const key = cityKey(nickname);
    if (!entry || this.citiesByState.get(state)!.has(key)) return;
    this.citiesByState.get(state)!.set(key, entry);
    this.citiesByStateInitial.delete(state);
    const all = this.statesByCityKey.get(key);
    if (all) all.push(entry);
    else this.statesByCityKey.set(key, [entry]);
  }

  addZip(place: ZipPlace): void {
    place.cityKey = cityKey(place.city);
    const list = this.placesByZip.get(place.zip);
    if (list) list.push(place);
    else this.placesByZip.set(place.zip, [place]);
    let cities = this.citiesByState.get(place.state);
    if (!cities) this.citiesByState.set(place.state, (cities = new Map()));
    this.citiesByStateInitial.delete(place.state);
    const key = cityKey(place.city);
    let entry = cities.get(key);
    if (!entry) {
      entry = { name: place.city, key, state: place.state, zips: [], counties: new Set() };
      cities.set(key, entry);
      const all = this.statesByCityKey.get(key);
      if (all) all.push(entry);
      else this.statesByCityKey.set(key, [entry]);
    }
    entry.zips.push(place.zip);
    if (place.county) {
      entry.counties.add(place.county);
      const countyKey = `${place.state}|${place.county}`;
      const zips = this.zipsByCounty.get(countyKey);
      if (zips) zips.push(place.zip);
      else {
        this.zipsByCounty.set(countyKey, [place.zip]);
        for (const name of [place.county, countyNameAlone(place.county)]) this.countiesByKey.set(`${place.state}|${cityKey(name)}`, place.county);
      }
    }
  }

  /**
   * The county of the state written so (`ST LOUIS` for ST. LOUIS, `EAST BATON ROUGE` for EAST BATON ROUGE PARISH), as
   * GeoNames writes it; else undefined.
   */
  county(state: string, name: string): string | undefined {
    return this.countiesByKey.get(`${state}|${cityKey(name)}`);
  }

  /**
   * The city's ZIPs, then the other ZIPs of its counties: where a street of the city may be when no ZIP is given (the
   * names of a county's places are accepted for one another, see isAcceptableCityKey; `NASHVILLE` for Hermitage's).
   */
  zipsAround(city: CityEntry): readonly string[] {
    let around = this.zipsAroundCity.get(city);
    if (!around) {
      const zips = new Set(city.zips);
      for (const county of city.counties) for (const zip of this.zipsByCounty.get(`${city.state}|${county}`) ?? []) zips.add(zip);
      this.zipsAroundCity.set(city, (around = [...zips]));
    }
    return around;
  }

  /** zipsAround, worked out once per city (the index does not change once built). */
  private readonly zipsAroundCity = new WeakMap<CityEntry, readonly string[]>();

  zip(zip5: string): ZipPlace[] | undefined {
    return this.placesByZip.get(zip5);
  }

  city(state: string, name: string): CityEntry | undefined {
    return this.cityByKey(state, cityKey(name));
  }

  cityByKey(state: string, key: string): CityEntry | undefined {
    return this.citiesByState.get(state)?.get(key);
  }

  /** Cities of that name in any state (for input without a state). */
  citiesNamed(name: string): CityEntry[] {
    return this.citiesByKey(cityKey(name));
  }

  citiesByKey(key: string): CityEntry[] {
    return this.statesByCityKey.get(key) ?? [];
  }

  /**
   * The city of the state one typing slip from the key (`LOUSVILLE`), when exactly one is; keys of six letters or more.
   * Else, with the name as typed, the one whose name's letters are one slip from its letters: a slip inside a word the
   * key abbreviates (`WETS PALM BEACH`: key WETSPALMBCH, two from WPALMBCH) changes the key more.
   */
  cityOneSlipFrom(state: string, key: string, typed?: string): CityEntry | undefined {
    if (key.length < 6) return undefined;
    let found: CityEntry | undefined;
    for (const [candidate, entry] of this.citiesOfStateByInitial(state, key[0])) {
      if (!oneTypingSlipApart(key, candidate)) continue;
      if (found) return undefined;
      found = entry;
    }
    if (found || typed === undefined) return found;
    const letters = lettersOf(typed);
    if (letters.length < 6) return undefined;
    for (const [, entry, nameLetters] of this.citiesOfStateByInitial(state, key[0])) {
      if (!oneTypingSlipApart(letters, nameLetters)) continue;
      if (found) return undefined;
      found = entry;
    }
    return found;
  }

  /** The cities of the state whose keys start with the letter, grouped on first use (a slip keeps the first letter). */
  private citiesOfStateByInitial(state: string, initial: string): readonly (readonly [key: string, entry: CityEntry, letters: string])[] {
    let byInitial = this.citiesByStateInitial.get(state);
    if (!byInitial) {
      byInitial = new Map();
      for (const [candidate, entry] of this.citiesByState.get(state) ?? []) {
        let list = byInitial.get(candidate[0]);
        if (!list) byInitial.set(candidate[0], (list = []));
        list.push([candidate, entry, lettersOf(entry.name)]);
      }
      this.citiesByStateInitial.set(state, byInitial);
    }
    return byInitial.get(initial) ?? [];
  }

  private readonly citiesByStateInitial = new Map<string, Map<string, [string, CityEntry, string][]>>();

  /**
   * The city names, in any state, one typing slip from the name typed (`LOUISVILE`: LOUISVILLE, a city of several
   * states); at most two (two say it is ambiguous).
   */
  cityNamesOneSlipFrom(typed: string): string[] {
    return this.citySlipsIndex().namesOneSlipFrom(typed);
  }

  private citySlipsIndex(): CityNameSlips {
    this.citySlips ??= new CityNameSlips(function* (entries: Map<string, CityEntry[]>) {
      for (const [key, list] of entries) yield [key, list[0].name] as const;
    }(this.statesByCityKey));
    return this.citySlips;
  }

  /**
   * Builds now the indexes otherwise built on first use (misspelt city names, place names within FSA names: about 100
   * ms together), so that an engine that serves requests never makes one of them wait for it.
   */
  prepareLookups(): void {
    this.citySlipsIndex();
    this.fsaPlaceNamesIndex();
  }

  hasState(state: string): boolean {
    return this.citiesByState.has(state);
  }

  /**
   * Other names accepted for the place of a ZIP: the place names of the other ZIPs of the same county whose centre is
   * within ACCEPTABLE_PLACE_KM of the ZIP's (a whole county is too wide: MESA is no name for Glendale's 85306, both in
   * Maricopa County). GeoNames keeps one name per ZIP, so this stands in for the USPS "acceptable city names" list
   * (README: limits). Without coordinates, the county alone.
   */
  isAcceptableCity(place: ZipPlace, name: string): boolean {
    return this.isAcceptableCityKey(place, cityKey(name));
  }

  isAcceptableCityKey(place: ZipPlace, key: string): boolean {
    const entry = this.cityByKey(place.state, key);
    if (!entry) return false;
    if ((place.cityKey ?? cityKey(place.city)) === key) return true;
    if (place.county === '' || !entry.counties.has(place.county)) return false;
    if (place.lat === undefined || place.lon === undefined) return true;
    for (const zip of entry.zips) {
      for (const other of this.placesByZip.get(zip) ?? []) {
        if (other.lat === undefined || other.lon === undefined) continue;
        if (kilometresBetween(place.lat, place.lon, other.lat, other.lon) <= ACCEPTABLE_PLACE_KM) return true;
      }
    }
    return false;
  }

  fsa(code: string): FsaPlace | undefined {
    return this.fsaPlaces.get(code);
  }

  /**
   * The provinces whose forward sortation areas name a place, with how many FSAs each (`TORONTO`: ON, from EAST
   * TORONTO (THE BEACHES) and the like; `LAVAL`: QC, from LAVAL-DES-RAPIDES). FSA names are regions, so this knows the
   * larger places only; an empty map says nothing.
   */
  provincesNamingPlace(name: string): ReadonlyMap<string, number> {
    return this.fsaPlaceNamesIndex().get(cityKey(name)) ?? NO_PROVINCES;
  }

  private fsaPlaceNamesIndex(): Map<string, Map<string, number>> {
    if (!this.fsaPlaceNames) {
      this.fsaPlaceNames = new Map();
      this.fsaPlaceNameStarts = new Map();
      for (const [fsa, { province, place }] of this.fsaPlaces) {
        // Each run counted once per FSA; the FSA's own runs kept for fsaNameHolds.
        const { runs, starts } = runsOfFsaName(place);
        this.fsaRunKeys.set(fsa, runs);
        for (const key of runs) {
          let provinces = this.fsaPlaceNames.get(key);
          if (!provinces) this.fsaPlaceNames.set(key, (provinces = new Map()));
          provinces.set(province, (provinces.get(province) ?? 0) + 1);
        }
        for (const key of starts) this.fsaPlaceNameStarts.set(`${province} ${key}`, (this.fsaPlaceNameStarts.get(`${province} ${key}`) ?? 0) + 1);
      }
    }
    return this.fsaPlaceNames;
  }

  /** True when the FSA's name holds a run of words with this city key (`TORONTO`, `DOWNTOWN TORONTO` of M5H). */
  fsaNameHolds(fsa: string, key: string): boolean {
    this.fsaPlaceNamesIndex();
    return this.fsaRunKeys.get(fsa)?.has(key) ?? false;
  }

  private readonly fsaRunKeys = new Map<string, Set<string>>();

  /**
   * How many FSAs of the province have a name, or a part of one, that starts with the place of this city key
   * (`ST ANDREWS` for E5B's ST. ANDREWS; `ANDREWS`, inside it, counts nothing): the parser's Canadian cities.
   */
  fsasNamedFirst(province: string, key: string): number {
    this.fsaPlaceNamesIndex();
    return this.fsaPlaceNameStarts!.get(`${province} ${key}`) ?? 0;
  }

  /** Every ZIP's places (GeoNames), for the autocomplete index. */
  *zipPlaces(): Generator<ZipPlace> {
    for (const places of this.placesByZip.values()) yield* places;
  }

  /** Every city of every state (nicknames not repeated), for the autocomplete index. */
  *cities(): Generator<CityEntry> {
    for (const cities of this.citiesByState.values()) for (const [key, entry] of cities) if (key === entry.key) yield entry;
  }

  /** Every Canadian FSA with its province and region's name. */
  fsas(): IterableIterator<FsaPlace> {
    return this.fsaPlaces.values();
  }

  get zipCount(): number {
    return this.placesByZip.size;
  }
}
