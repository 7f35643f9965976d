/**
 * Whether words name a place: a city of the state (GeoNames through PostalIndex, or the loaded address files), a name
 * of the ZIP (or one typing slip from it), a county written before the state, a city written twice.
 */
import { cityKey, lettersOf, type PostalIndex, type ZipPlace } from '../postal-index.js';
import { DirectionalTable } from '../tables.js';
import { joinWords, type Token } from '../tokenize.js';
import type { LocalPlaceNames } from './types.js';
import { groupStartBefore, MAX_CITY_WORDS } from './word-classes.js';

export function knownCityZips(postal: PostalIndex, state: string | null, key: string, local?: LocalPlaceNames, province = false): number {
  let n = 0;
  // (A Canadian province's places: the FSAs whose names start with them; `province` says the state is one.)
  if (state) n = postal.cityByKey(state, key)?.zips.length ?? (province ? postal.fsasNamedFirst(state, key) : 0);
  else for (const c of postal.citiesByKey(key)) n += c.zips.length;
  // A place the gazetteer does not list, but the loaded address files do (`… DR WEST WINDSOR VT`, `… LYNDON KY`).
  if (n === 0 && local) {
    for (const code of local.postalCodesOfLocalCity(key)) if (!state || stateOfPostalCode(postal, code) === state) n++;
  }
  return n;
}

/** ZIPs that make a place a big city, whose name is read as the city before a state's (WASHINGTON: DC has 271). */
export const BIG_CITY_ZIPS = 10;

/** A city of the state in the gazetteer, or in the loaded address files. */
function isKnownCity(postal: PostalIndex, state: string, name: string, local: LocalPlaceNames | undefined): boolean {
  return knownCityZips(postal, state, cityKey(name), local) > 0;
}

/** Whether the last one to four words before `at` (none before `from`) are a known city of the state. */
export function knownCityBefore(
  toks: readonly Token[], from: number, at: number, state: string, postal: PostalIndex, local: LocalPlaceNames | undefined,
): boolean {
  for (let c = 1; c <= 4 && at - c >= from; c++) if (isKnownCity(postal, state, joinWords(toks, at - c, at), local)) return true;
  return false;
}

/**
 * Where the city starts when toks[at, end), which the split search found no name of the ZIP, is no known city of the
 * state either (that the ZIP would correct as a whole) but its last words are a name of the ZIP; `at` when not. A
 * directional before the town (`E HAZEL CREST`) belongs to a misnamed town, not to a note.
 */
export function cityAfterNote(
  toks: readonly Token[], at: number, end: number, places: readonly ZipPlace[], postalCode: string, state: string | null,
  postal: PostalIndex, local: LocalPlaceNames | undefined,
): number {
  if (state && postal.city(state, joinWords(toks, at, end))) return at;
  // The ZIP's own name misspelt in its first word (`WETS PALM BEACH`, `SOUT DEERFIELD`): no note before another place.
  if (acceptableForSomeZip(postal, places, cityKey(joinWords(toks, at, end)), postalCode, local, toks, at, end)) return at;
  for (let k = at + 1; k < end; k++) {
    if (k === at + 1 && DirectionalTable.has(toks[at].w)) continue;
    if (acceptableForSomeZip(postal, places, cityKey(joinWords(toks, k, end)), postalCode, local)) return k;
  }
  return at;
}

export function stateOfPostalCode(postal: PostalIndex, code: string): string | undefined {
  return /^\d{5}$/.test(code) ? postal.zip(code)?.[0]?.state : postal.fsa(code.slice(0, 3))?.province;
}

export function acceptableForSomeZip(
  postal: PostalIndex, places: readonly ZipPlace[] | undefined, key: string, postalCode: string | null, local?: LocalPlaceNames,
  toks?: readonly Token[], from = 0, to = 0,
): boolean {
  if (postalCode && local?.isLocalCityOf(postalCode, key)) return true;
  if (!places) return false;
  for (const z of places) if (postal.isAcceptableCityKey(z, key)) return true;
  // The ZIP's own city with a letter dropped, doubled or mistyped inside it (`NORTH LITTE ROCK`): the engine corrects
  // the spelling, the parser only needs to know where the city starts. An edit at either end is no slip: a letter
  // before the name (`E HAZEL CREST`) may be the street's post-directional. The letters as typed too: a slip inside
  // a word the key abbreviates (`WETS PALM BEACH`, `SOUT DEERFIELD`) changes the key more.
  if (key.length >= 6) for (const z of places) if (oneInnerSlip(key, z.cityKey ?? '')) return true;
  if (!toks || key.length < 6) return false;
  // (Only where the words typed are about as long as the name, and a slip keeps its first and last letters: joining and
  // stripping them costs more than the tests.)
  const first = toks[from].w[0];
  const lastWord = toks[to - 1].w;
  const last = lastWord[lastWord.length - 1];
  let typedLength = -1;
  let letters: string | undefined;
  for (const z of places) {
    if (z.city[0] !== first || z.city[z.city.length - 1] !== last) continue;
    const name = placeLetters(z);
    if (typedLength < 0) {
      typedLength = 0;
      for (let k = from; k < to; k++) typedLength += toks[k].w.length;
    }
    if (typedLength < name.length - 1 || typedLength > name.length + 3) continue;
    letters ??= lettersOf(joinWords(toks, from, to));
    if (oneInnerSlip(letters, name)) return true;
  }
  return false;
}

/** The letters of a ZIP place's name (lettersOf), worked out once per place. */
const lettersOfPlace = new WeakMap<ZipPlace, string>();
function placeLetters(place: ZipPlace): string {
  let letters = lettersOfPlace.get(place);
  if (letters === undefined) lettersOfPlace.set(place, (letters = lettersOf(place.city)));
  return letters;
}

/**
 * One letter inserted, dropped or changed, neither among the first two nor last, or two neighbours swapped, neither the
 * first nor the last (keys of at least six letters).
 */
function oneInnerSlip(a: string, b: string): boolean {
  if (b.length < 6 || Math.abs(a.length - b.length) > 1 || a === b || a[0] !== b[0] || a[a.length - 1] !== b[b.length - 1]) return false;
  let i = 0;
  while (a[i] === b[i]) i++;
  // (`NROTH MONMOUTH`, `WETS PALM BEACH`: a swap adds no letter, so it cannot be a directional's before the name.)
  if (a.length === b.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2)) return true;
  // Not within the first two letters either: `W WHITE HOUSE` is a post-directional before WHITE HOUSE.
  if (i < 2) return false;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

const COUNTY_WORDS: ReadonlySet<string> = new Set(['COUNTY', 'CNTY', 'CO', 'PARISH', 'BOROUGH']);
const LONGEST_COUNTY_NAME_WORDS = 4;

/**
 * A county written between the city and the state (`LOUISVILLE JEFFERSON COUNTY, KY`, `LOUISVILLE, JEFFERSON, KY
 * 40219`: a CRM's county column run into the address): a county of the state followed by COUNTY, PARISH or BOROUGH,
 * or alone in a comma group of its own after a city of the state, the county of the ZIP or of that city. Taken out of
 * the tokens, with the new end; else null.
 */
export function countyBeforeState(
  toks: Token[], end: number, state: string, zipPlaces: readonly ZipPlace[] | undefined, postal: PostalIndex, places: LocalPlaceNames | undefined,
): { end: number; text: string } | null {
  // Alone, a county needs a comma group before it besides the street's: the city's.
  const withWord = COUNTY_WORDS.has(toks[end - 1]?.w ?? '');
  let groups = 0;
  for (let i = 1; i < end && groups < 2; i++) if (toks[i].sep) groups++;
  if (!withWord && groups < 2) return null;
  for (let k = Math.min(LONGEST_COUNTY_NAME_WORDS + 1, end - 3); k >= 1; k--) {
    const at = end - k;
    if (withWord ? k < 2 : !toks[at].sep) continue;
    const county = postal.county(state, joinWords(toks, at, withWord ? end - 1 : end));
    if (!county) continue;
    if (!withWord) {
      // Alone, after a city of the state in a group of its own, and the county of the ZIP or of that city: no city's
      // own name then (`100 MAIN ST, JEFFERSON, KY` is in Jefferson).
      const g = groupStartBefore(toks, at);
      const cityBefore = joinWords(toks, g, at);
      const ofZip = zipPlaces ? zipPlaces.some((p) => p.county === county) : postal.city(state, cityBefore)?.counties.has(county);
      if (!toks[g].sep || !ofZip || knownCityZips(postal, state, cityKey(cityBefore), places) === 0) continue;
    }
    const text = joinWords(toks, at, end);
    const sep = toks[at].sep || toks[end]?.sep;
    toks.splice(at, k);
    if (toks[at]) toks[at] = { ...toks[at], sep };
    return { end: at, text };
  }
  return null;
}

/**
 * A city written twice before the state or ZIP (`123 MAIN ST SPRINGFIELD, SPRINGFIELD, IL`: a form's address line that
 * already held the city): the first copy is dropped, when the city is known once and not twice (`WALLA WALLA`).
 * Returns the new end of the words before the state.
 */
export function dropRepeatedCity(toks: Token[], end: number, postal: PostalIndex, state: string | null): number {
  for (let k = Math.min(MAX_CITY_WORDS, Math.floor(end / 2) - 1); k >= 1; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) same = toks[end - 2 * k + i].w === toks[end - k + i].w;
    if (!same) continue;
    const once = cityKey(joinWords(toks, end - k, end));
    if (knownCityZips(postal, state, once) === 0 || knownCityZips(postal, state, once + once) > 0) continue;
    const sep = toks[end - 2 * k].sep || toks[end - k].sep;
    toks.splice(end - 2 * k, k);
    toks[end - 2 * k] = { ...toks[end - 2 * k], sep };
    return end - k;
  }
  return end;
}
