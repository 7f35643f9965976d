/**
 * Address autocomplete (GET /v1/address/autocomplete): what a person has typed so far -> the delivery points, streets
 * and places of the loaded data whose written form starts so, best first. Pure: built from the postal index (GeoNames
 * ZIPs and FSAs) and the reference index (RRAD, OpenAddresses, NAR points; USPS ranges) passed in.
 *
 * The index is a sorted array of search keys per country and kind, searched by binary search for the first key at or
 * after the typed prefix: the keys that start with a prefix are one run of the array, found in O(log n) and read in
 * order. One string per key and no per-character nodes (a trie holds one object per character, several times the
 * memory for millions of addresses); a full-text library (MiniSearch, FlexSearch) matches words anywhere and scores
 * them by frequency, where a form's type-ahead wants the line in the order it is written. See README.md, Autocomplete.
 *
 * Keys and queries are written in one search form: upper case, accents and punctuation gone, and each word in its
 * standard abbreviation (Pub 28 C1 street types, directionals, the city words USPS abbreviates): `6007 Applegate Lane,
 * Louisville` and `6007 APPLEGATE LN LOUISVILLE` search alike. The last word typed may be unfinished (`Applegate La`):
 * it is a prefix of the key's word, or the beginning of a long form whose abbreviation is the key's word.
 */
import { CITY_WORD_ABBREVIATIONS, type PostalIndex } from './postal-index.js';
import type { ReferenceIndex, StoredStreet } from './reference-index.js';
import { inRange } from './reference-numbers.js';
import type { StreetParts, StreetRangeRecord } from './reference-types.js';
import { partsOfKey } from './street-writings.js';
import { CanadianStreetTypeBefore, DirectionalTable, StreetSuffixTable, stateOfUnlistedZip } from './tables.js';

/** `address`: a delivery point (an address file's point, or a number inside a USPS range); `street`: a street of a postal code; `place`: a city, or a ZIP's place. */
export type SuggestionKind = 'address' | 'street' | 'place';
export type SuggestionCountry = 'US' | 'CA';

/**
 * One suggestion: `text` one line as a form shows it (`6007 APPLEGATE LN, LOUISVILLE, KY 40219`); `street` the delivery
 * line, or the street alone (null for a place); `state` a state or province code; `zip` a ZIP or Canadian postal code
 * (null for a city of several ZIPs, or a Canadian FSA).
 */
export interface AddressSuggestion {
  text: string; street: string | null; city: string | null; state: string | null; zip: string | null;
  country: SuggestionCountry; kind: SuggestionKind;
}

export interface SuggestOptions {
  /** ISO 3166-1 alpha-2: only this country's suggestions (none for a country without data). */
  country?: string;
  limit: number;
}

export interface Entry extends AddressSuggestion {
  /** The search form of the suggestion's words, in the order a form's lines are written. */
  key: string;
  /** Larger first among equals: a city's ZIP count, a street's known numbers. */
  weight: number;
  /** Words in the key (set by sortByKey), for ranking by the words a key adds to those typed. */
  words?: number;
  /** A street's numeric USPS street and high-rise ranges, for a number typed before it. */
  ranges?: readonly NumberRange[];
  /** A city's ZIPs, for its name typed with the start of one (`Louisville KY 402`). */
  zips?: readonly string[];
}

type NumberRange = Pick<StreetRangeRecord, 'primaryLow' | 'primaryHigh' | 'primaryParity'>;

/** How many keys of one run are read for one prefix: a run of thousands (`1`) is cut, its first ones ranked. */
const SCAN_PER_PREFIX = 100;
/** Long forms of a word being typed, each searched as its abbreviation (`LA` -> LANE, LAKE, LANDING: LN, LK, LNDG). */
const MAX_EXPANSIONS = 8;
const NUMBER = /^\d+[A-Z]?$|^\d+-\d+[A-Z]?$/;

/** Every word's standard abbreviation: street types, then directionals, then city words. */
const ABBREVIATION: ReadonlyMap<string, string> = new Map([...CITY_WORD_ABBREVIATIONS, ...DirectionalTable, ...StreetSuffixTable]);
/**
 * Each beginning (two letters or more) of a long form (three letters or more, not its abbreviation) -> the
 * abbreviations it may become, at most MAX_EXPANSIONS: an unfinished word's look-up is one map read.
 */
const ABBREVIATIONS_BY_BEGINNING: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [word, short] of ABBREVIATION) {
    if (word === short || word.length <= 2) continue;
    for (let end = 2; end <= word.length; end++) {
      const beginning = word.slice(0, end);
      if (short.startsWith(beginning)) continue;
      const list = map.get(beginning) ?? map.set(beginning, []).get(beginning)!;
      if (!list.includes(short) && list.length < MAX_EXPANSIONS) list.push(short);
    }
  }
  return map;
})();

/** Text as search words: upper case, accents and punctuation gone (a hyphen inside a word stays: `123-45`). */
function wordsOf(text: string): string[] {
  const ascii = NOT_ASCII.test(text) ? text.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : text;
  const words = ascii.toUpperCase().split(NOT_WORD);
  let kept = 0;
  for (const word of words) {
    const w = word.charCodeAt(0) === 45 || word.charCodeAt(word.length - 1) === 45 ? word.replace(/^-+|-+$/g, '') : word;
    if (w) words[kept++] = w;
  }
  words.length = kept;
  return words;
}
const NOT_ASCII = /[^\x00-\x7f]/;
const NOT_WORD = /[^A-Z0-9-]+/;

const searchWord = (word: string): string => ABBREVIATION.get(word) ?? word;
const searchForm = (text: string): string => wordsOf(text).map(searchWord).join(' ');

const join = (...parts: (string | null | undefined)[]): string => parts.filter(Boolean).join(' ');

function streetText(street: StreetParts, country: SuggestionCountry): string {
  // Canada Post writes French types before the name (RUE SAINT-DENIS, AV DU PARC); an English one (AVE) after it.
  if (country === 'CA' && street.suffix && CanadianStreetTypeBefore.get(street.suffix) === street.suffix) {
    return join(street.predirection, street.suffix, street.name, street.postdirection);
  }
  return join(street.predirection, street.name, street.suffix, street.postdirection);
}

function lineOf(street: string | null, city: string | null, state: string | null, zip: string | null): string {
  return [street, city, join(state, zip)].filter(Boolean).join(', ');
}

/** Lowest index whose key is at or after `prefix` (keys sorted by code unit, as `<` compares). */
function firstAtOrAfter(entries: readonly Entry[], prefix: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (entries[mid].key < prefix) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Each entry whose key starts with `prefix` (with `whole`, only where the prefix ends a word), at most SCAN_PER_PREFIX. */
function forEachStartingWith(entries: readonly Entry[], prefix: string, whole: boolean, visit: (entry: Entry) => void): void {
  let seen = 0;
  for (let i = firstAtOrAfter(entries, prefix); i < entries.length && seen < SCAN_PER_PREFIX; i++) {
    const key = entries[i].key;
    if (!key.startsWith(prefix)) break;
    if (whole && key.length !== prefix.length && key.charCodeAt(prefix.length) !== 32) continue;
    seen++;
    visit(entries[i]);
  }
}

function sortByKey(entries: Entry[]): Entry[] {
  for (const e of entries) {
    let words = 1;
    for (let i = 0; i < e.key.length; i++) if (e.key.charCodeAt(i) === 32) words++;
    e.words = words;
  }
  return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

interface PlaceArrays {
  /** Cities (US) and FSAs by their name (Canada). */
  places: Entry[];
  /** ZIPs and FSAs, their code first (`40219 LOUISVILLE KY`). */
  codes: Entry[];
}

interface KindArrays extends PlaceArrays {
  addresses: Entry[];
  streets: Entry[];
}

/** Places of the postal data, built once per postal index (the reference index changes with imports; these do not). */
const placesOfPostal = new WeakMap<PostalIndex, Record<SuggestionCountry, PlaceArrays>>();

function place(key: string, text: string, city: string | null, state: string, zip: string | null, country: SuggestionCountry, weight = 0): Entry {
  return { key, text, street: null, city, state, zip, country, kind: 'place', weight };
}

/**
 * One key per city and one per ZIP, code first; a city's own ZIPs are found from the city (`zips`), so that the
 * 41,000 ZIPs are not keyed twice. The postal data lists ZIPs and FSAs in order: their keys come nearly sorted, which
 * the sort (TimSort) takes in one pass.
 */
function placeEntries(postal: PostalIndex): Record<SuggestionCountry, PlaceArrays> {
  let built = placesOfPostal.get(postal);
  if (built) return built;
  const cityForms = new Map<string, string>();
  const formOf = (name: string) => cityForms.get(name) ?? cityForms.set(name, searchForm(name)).get(name)!;
  const cities: Entry[] = [];
  for (const city of postal.cities()) {
    const zip = city.zips.length === 1 ? city.zips[0] : null;
    const entry = place(`${formOf(city.name)} ${city.state}`, lineOf(null, city.name, city.state, zip), city.name, city.state, zip, 'US', city.zips.length);
    if (!zip) entry.zips = city.zips;
    cities.push(entry);
  }
  const zips: Entry[] = [];
  for (const p of postal.zipPlaces()) {
    zips.push(place(`${p.zip} ${formOf(p.city)} ${p.state}`, lineOf(null, p.city, p.state, p.zip), p.city, p.state, p.zip, 'US'));
  }
  const regions: Entry[] = [];
  const fsas: Entry[] = [];
  for (const { fsa, province, place: region } of postal.fsas()) {
    // An FSA's name is a region (`DOWNTOWN TORONTO`), not a mailing city: it is shown, not given as the city.
    const text = `${fsa}, ${province} (${region})`;
    regions.push(place(`${searchForm(region)} ${province} ${fsa}`, text, null, province, null, 'CA'));
    fsas.push(place(`${fsa} ${searchForm(region)} ${province}`, text, null, province, null, 'CA'));
  }
  built = { US: { places: sortByKey(cities), codes: sortByKey(zips) }, CA: { places: sortByKey(regions), codes: sortByKey(fsas) } };
  placesOfPostal.set(postal, built);
  return built;
}

const countryOfPostalCode = (code: string): SuggestionCountry | null =>
  /^\d{5}$/.test(code) ? 'US' : /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/.test(code) ? 'CA' : null;

/** What the candidates are compared by: lower first. */
interface Ranked {
  entry: AddressSuggestion;
  key: string;
  rank: number;
  extraWords: number;
  weight: number;
}

/**
 * The best candidates seen, in order, a few more than asked for (the same text may come twice: a city of one ZIP is
 * also that ZIP's place): most candidates are turned away by one comparison with the last kept.
 */
class BestCandidates {
  readonly kept: Ranked[] = [];

  constructor(private readonly room: number) {}

  offer(candidate: Ranked): void {
    const kept = this.kept;
    if (kept.length === this.room && compare(candidate, kept[kept.length - 1]) >= 0) return;
    let at = kept.length;
    while (at > 0 && compare(candidate, kept[at - 1]) < 0) at--;
    kept.splice(at, 0, candidate);
    if (kept.length > this.room) kept.pop();
  }

  /** The first `limit` of different texts. */
  best(limit: number): AddressSuggestion[] {
    const texts = new Set<string>();
    const best: AddressSuggestion[] = [];
    for (const { entry } of this.kept) {
      if (texts.has(entry.text)) continue;
      texts.add(entry.text);
      best.push(suggestionOf(entry));
      if (best.length === limit) break;
    }
    return best;
  }
}

export interface AddressAutocomplete {
  suggest(typed: string, options: SuggestOptions): AddressSuggestion[];
  /** Keys held, per kind (for logs and tests). */
  readonly size: { addresses: number; streets: number; places: number };
}

/** A street's suggestion and its delivery points', as kept in memory or stored in the disk index (reference-index-file.ts). */
export interface StreetSuggestions {
  street: Entry & { streetKey: string };
  addresses: Entry[];
}

/**
 * One street of a postal code as suggestions: the street (its city the one place the address files give the postal
 * code, else GeoNames'), and each house number its points hold. Null for a street without a name or a postal code of
 * neither country.
 */
export function streetSuggestionsOf(
  postal: PostalIndex, localCityNames: readonly string[],
  s: { postalCode: string; street: StreetParts; numbers: readonly string[]; ranges: readonly StreetRangeRecord[] },
): StreetSuggestions | null {
  const { postalCode, street, numbers, ranges } = s;
  const country = countryOfPostalCode(postalCode);
  if (!country || !street.name) return null;
  const local = localCityNames;
  const city = local.length === 1 ? local[0] : country === 'US' ? postal.zip(postalCode)?.[0]?.city ?? local[0] ?? null : local[0] ?? null;
  const state = country === 'US'
    ? postal.zip(postalCode)?.[0]?.state ?? stateOfUnlistedZip(postalCode) ?? null
    : postal.fsa(postalCode.slice(0, 3))?.province ?? null;
  const written = streetText(street, country);
  const lastLine = searchForm(join(city, state, postalCode));
  const numericRanges = ranges.filter((r) => (r.recordType === 'S' || r.recordType === 'H') && /^\d+$/.test(r.primaryLow) && /^\d+$/.test(r.primaryHigh));
  const streetEntry = {
    key: join(searchForm(written), lastLine), weight: numbers.length + numericRanges.length, kind: 'street' as const, country,
    text: lineOf(written, city, state, postalCode), street: written, city, state, zip: postalCode,
    ranges: numericRanges.length ? numericRanges : undefined, streetKey: streetKeyOf(street),
  };
  const addresses = numbers.map((number): Entry => {
    const line = `${number} ${written}`;
    return {
      key: join(searchForm(line), lastLine), weight: 0, kind: 'address', country,
      text: lineOf(line, city, state, postalCode), street: line, city, state, zip: postalCode,
    };
  });
  return { street: streetEntry, addresses };
}

/** A street's suggestion as the disk index stores it (reference-index-file.ts): the rest is made again when read. */
export function storedStreetOf(street: StreetSuggestions['street']): StoredStreet {
  const ranges = street.ranges?.map((r) => `${r.primaryLow}-${r.primaryHigh}-${r.primaryParity}`).join(' ') ?? null;
  return { country: street.country, key: street.key, zip: street.zip!, streetKey: street.streetKey, weight: street.weight, ranges };
}

/** Stored streets made into entries, remembered (a prefix typed letter by letter reads the same rows again). */
const STORED_ENTRIES_KEPT = 20_000;

/**
 * The suggestion of a stored street, as streetSuggestionsOf made it at the build: its text, city and state from the
 * postal data and the postal code's place names, its key, weight and ranges as stored. Null for a street it would not
 * suggest (none is stored).
 */
function storedStreetEntry(postal: PostalIndex, reference: ReferenceIndex, s: StoredStreet): (Entry & { streetKey: string }) | null {
  const made = streetSuggestionsOf(postal, reference.localCityNamesOf(s.zip), { postalCode: s.zip, street: partsOfKey(s.streetKey), numbers: [], ranges: [] });
  if (!made) return null;
  const ranges = s.ranges?.split(' ').map((r): NumberRange => {
    const [primaryLow, primaryHigh, primaryParity] = r.split('-');
    return { primaryLow, primaryHigh, primaryParity };
  });
  const entry = { ...made.street, key: s.key, weight: s.weight, ranges, words: s.key.split(' ').length };
  return entry;
}

const streetKeyOf = (s: StreetParts) => `${s.predirection ?? ''}|${s.name ?? ''}|${s.suffix ?? ''}|${s.postdirection ?? ''}`;

/**
 * The autocomplete of the loaded data. Building reads every point and range once (about 1 s per million points);
 * the places of the postal data are built once per postal index and shared by every reload of the reference. Over a
 * disk index (`reference.storedSuggestions()`), nothing is read at all: its streets are stored sorted in the index
 * file, and a number typed before a street is a delivery point when the street's postal code holds it.
 */
export function createAddressAutocomplete({ postal, reference }: { postal: PostalIndex; reference?: ReferenceIndex }): AddressAutocomplete {
  const places = placeEntries(postal);
  const byCountry: Record<SuggestionCountry, KindArrays> = {
    US: { ...places.US, addresses: [], streets: [] },
    CA: { ...places.CA, addresses: [], streets: [] },
  };
  const stored = reference?.storedSuggestions();

  for (const street of stored ? [] : reference?.streets() ?? []) {
    const made = streetSuggestionsOf(postal, reference!.localCityNamesOf(street.postalCode), street);
    if (!made) continue;
    const arrays = byCountry[made.street.country];
    arrays.streets.push(made.street);
    for (const a of made.addresses) arrays.addresses.push(a);
  }
  for (const arrays of Object.values(byCountry)) {
    sortByKey(arrays.addresses);
    sortByKey(arrays.streets);
  }
  const made = new Map<string, (Entry & { streetKey: string }) | null>();
  const entryOfStored = (s: StoredStreet) => {
    const id = `${s.zip}|${s.streetKey}|${s.key}`;
    let entry = made.get(id);
    if (entry === undefined) {
      if (made.size >= STORED_ENTRIES_KEPT) made.clear();
      made.set(id, (entry = storedStreetEntry(postal, reference!, s)));
    }
    return entry;
  };
  /** The streets whose key starts with the prefix: from the arrays, or the disk index's sorted table. */
  const forEachStreet = (c: SuggestionCountry, prefix: string, whole: boolean, visit: (entry: Entry) => void) => {
    if (!stored) return forEachStartingWith(byCountry[c].streets, prefix, whole, visit);
    let seen = 0;
    stored.streetsStartingWith(c, prefix, (s) => {
      if (whole && s.key.length !== prefix.length && s.key.charCodeAt(prefix.length) !== 32) return true;
      const e = entryOfStored(s);
      if (e) visit(e);
      return ++seen < SCAN_PER_PREFIX;
    });
  };
  /** True when the number is a delivery point of the street: one of its USPS ranges, or (disk index) its points. */
  const streetHolds = (e: Entry, number: string) =>
    e.ranges?.some((r) => inRange(number, r.primaryLow, r.primaryHigh, r.primaryParity))
    || (stored !== undefined && reference!.hasPointNumber(e.zip!, (e as Entry & { streetKey: string }).streetKey, number));

  return {
    size: {
      addresses: byCountry.US.addresses.length + byCountry.CA.addresses.length,
      streets: byCountry.US.streets.length + byCountry.CA.streets.length,
      places: byCountry.US.places.length + byCountry.US.codes.length + byCountry.CA.places.length + byCountry.CA.codes.length,
    },
    suggest(typed, { country, limit }) {
      const words = wordsOf(typed);
      if (words.length === 0) return [];
      const countries = (country ? [country.toUpperCase()] : ['US', 'CA']).filter((c): c is SuggestionCountry => c in byCountry);
      const finished = /[\s,]$/.test(typed);
      const prefixes = prefixesOf(words, finished);
      // A house number first (a lone five figures is a ZIP being looked for): delivery points first.
      const startsWithNumber = NUMBER.test(words[0]) && !(words.length === 1 && /^\d{5}$/.test(words[0]));
      const queryWords = words.length;

      const candidates = new BestCandidates(limit * 3);
      const offer = (rank: number) => (e: Entry) => {
        candidates.offer({ entry: e, key: e.key, rank, weight: e.weight, extraWords: e.words! - queryWords });
      };
      const [addressRank, placeRank, streetRank] = startsWithNumber ? [0, 1, 2] : [2, 0, 0];
      for (const c of countries) {
        const arrays = byCountry[c];
        for (const { prefix, whole } of prefixes) {
          forEachStartingWith(arrays.addresses, prefix, whole, offer(addressRank));
          forEachStartingWith(arrays.places, prefix, whole, offer(placeRank));
          forEachStartingWith(arrays.codes, prefix, whole, offer(placeRank));
          forEachStreet(c, prefix, whole, offer(streetRank));
        }
        // A city typed with the start of one of its ZIPs (`Louisville KY 402`): those ZIPs.
        const last = words[words.length - 1];
        if (!startsWithNumber && words.length > 1 && /^\d{1,5}$/.test(last)) {
          const city = words.slice(0, -1).map(searchWord).join(' ');
          forEachStartingWith(arrays.places, city, true, (e) => {
            if (e.key !== city) return;
            for (const zip of e.zips ?? []) {
              if (!zip.startsWith(last)) continue;
              const entry = place(`${e.key} ${zip}`, lineOf(null, e.city, e.state, zip), e.city, e.state!, zip, e.country);
              candidates.offer({ entry, key: entry.key, rank: placeRank, weight: 0, extraWords: e.words! + 1 - queryWords });
            }
          });
        }
        // A number typed before a street the USPS ranges hold (`1620 Amphitheatre`): that number on the street.
        if (startsWithNumber) {
          const number = words[0];
          for (const { prefix, whole } of prefixesOf(words.slice(1), finished)) {
            forEachStreet(c, prefix, whole, (e) => {
              if (!streetHolds(e, number)) return;
              const line = `${number} ${e.street}`;
              const entry = { ...suggestionOf(e), text: lineOf(line, e.city, e.state, e.zip), street: line, kind: 'address' as const };
              candidates.offer({ entry, key: `${number} ${e.key}`, rank: 0, weight: 0, extraWords: e.words! + 1 - queryWords });
            });
          }
        }
      }
      return candidates.best(limit);
    },
  };
}

/**
 * The prefixes to search for the words typed: the finished words in their search form, then the last one as typed
 * (a prefix of the key's word) or, where it begins a long form (`LA`: LANE, LAKE), that form's abbreviation as a word.
 */
function prefixesOf(words: readonly string[], finished: boolean): { prefix: string; whole: boolean }[] {
  if (words.length === 0) return [];
  const head = words.slice(0, -1).map(searchWord);
  const last = words[words.length - 1];
  const before = head.length ? `${head.join(' ')} ` : '';
  if (finished) return [{ prefix: before + searchWord(last), whole: true }];
  const prefixes = [{ prefix: before + last, whole: false }];
  for (const short of ABBREVIATIONS_BY_BEGINNING.get(last) ?? []) prefixes.push({ prefix: before + short, whole: true });
  return prefixes;
}

function compare(a: Ranked, b: Ranked): number {
  return a.rank - b.rank || a.extraWords - b.extraWords || b.weight - a.weight || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

function suggestionOf(e: AddressSuggestion): AddressSuggestion {
  return { text: e.text, street: e.street, city: e.city, state: e.state, zip: e.zip, country: e.country, kind: e.kind };
}
