/**
 * The ways one street name is written, as the delivery-point reference compares them: street types, directionals and
 * ordinals written out or abbreviated (writtenAlikeKey), the kinds of numbered route (routeOf), and the typing slips
 * of a street's type, directional or name (slipsMended, slipInsideLongWord). Also the key a street is held under.
 */
import { streetTypesOneSlipFrom, wordsOneSlipFrom } from './postal-index.js';
import type { StreetParts } from './reference-types.js';
import { DirectionalTable, FiftyStateWords, OrdinalStreetNames, StreetSuffixTable } from './tables.js';

/** Directionals written out (four letters or more), with their Pub 28 abbreviation. */
const LONG_DIRECTIONALS: ReadonlyMap<string, string> = new Map([...DirectionalTable].filter(([w]) => w.length >= 4));
/** Each directional's abbreviation -> the word (S -> SOUTH, NE -> NORTHEAST). */
export const DIRECTIONAL_WORDS: ReadonlyMap<string, string> = new Map([...LONG_DIRECTIONALS].filter(([w]) => !w.includes('-')).map(([w, short]) => [short, w]));

/** Words of street names written two ways that are not Pub 28 street types (MOUNT and FORT are: MT, FT). */
const NAME_WORDS_SHORT: ReadonlyMap<string, string> = new Map([['SAINT', 'ST'], ['JUNIOR', 'JR']]);

/** Martin Luther King Jr, as the streets named after him are written (`MLK`, `M L KING JR`, `DR MARTIN LUTHER KING`). */
const MLK = /(?<![A-Z0-9])(?:DR )?(?:(?:MARTIN LUTHER|M L|ML) KING|M L K|MLK)(?: JR)?(?![A-Z0-9])/;

const BARE_STREET_NUMBER = /^[1-9]\d{0,2}$/;

/** 1 -> 1ST, 12 -> 12TH, 22 -> 22ND, 103 -> 103RD. */
function ordinalOf(figures: string): string {
  const n = Number(figures);
  const ending = n % 100 >= 11 && n % 100 <= 13 ? 'TH' : (['TH', 'ST', 'ND', 'RD'][n % 10] ?? 'TH');
  return figures + ending;
}

/**
 * A street name as it is compared with the names of the data: each street-type or directional word in its Pub 28
 * abbreviation, each ordinal in figures, SAINT and JUNIOR shortened, Martin Luther King Jr as MLK (`7TH STREET`,
 * `7TH ST` and `SEVENTH STREET` meet, `GAZEBO EAST` and `GAZEBO E`, `SAINT JOHN` and `ST JOHN`,
 * `MARTIN LUTHER KING JUNIOR` and `MLK`). The name itself when none of that applies.
 */
export function writtenAlikeKey(name: string): string {
  const words = name.split(' ');
  let any = false;
  // A numbered street typed without its ordinal ending (`S 17 ST`, `7 STREET RD`) is the data's ordinal (17TH, 7TH).
  if (BARE_STREET_NUMBER.test(words[0])) {
    words[0] = ordinalOf(words[0]);
    any = true;
  }
  for (let i = 0; i < words.length; i++) {
    const short = StreetSuffixTable.get(words[i]) ?? DirectionalTable.get(words[i]) ?? OrdinalStreetNames.get(words[i]) ?? NAME_WORDS_SHORT.get(words[i]);
    if (short && short !== words[i]) {
      words[i] = short;
      any = true;
    }
  }
  const key = any ? words.join(' ') : name;
  return key.includes('K') ? key.replace(MLK, 'MLK') : key;
}

/**
 * The kinds of numbered route people write for one another: a route typed as HIGHWAY or ROUTE (or its number alone,
 * `S A1A`) is the US, state or plain highway of that number the data holds; a US highway is not a state route. A
 * county's numbered road is written ROAD or COUNTY ROAD (`ROAD 97`, Yolo County's COUNTY ROAD 97), never a highway.
 */
type RouteKind = 'any' | 'US' | 'STATE' | 'COUNTY';
const ROUTE_KINDS: ReadonlyMap<string, RouteKind> = new Map([
  ['HIGHWAY', 'any'], ['ROUTE', 'any'], ['US HIGHWAY', 'US'], ['STATE ROUTE', 'STATE'], ['STATE HIGHWAY', 'STATE'], ['STATE ROAD', 'STATE'],
  ['COUNTY ROAD', 'COUNTY'], ['ROAD', 'COUNTY'],
]);
const ROUTE_NAME = /^(HIGHWAY|ROUTE|US HIGHWAY|STATE ROUTE|STATE HIGHWAY|STATE ROAD|COUNTY ROAD|ROAD) (\S.*)$/;
/** A state's code or name before ROUTE or HIGHWAY, as the USPS files write some states' routes (`VT ROUTE 113`). */
const OWNED_ROUTE_NAME = /^([A-Z]+(?: [A-Z]+)?) (?:ROUTE|HIGHWAY) (\S+)$/;
/** A route number written alone as a street name: letters and figures (`A1A`, `M28`), not an ordinal (`5TH`). */
const BARE_ROUTE_NUMBER = /^(?=[A-Z]*\d)(?![0-9]+(?:ST|ND|RD|TH)$)[A-Z0-9]+$/;

/** A route's kind and the key of the routes it may be written as (`#98`; `#COUNTY 97` for a county's roads). */
export function routeOf(name: string, bare = false): { kind: RouteKind; key: string } | null {
  const m = ROUTE_NAME.exec(name);
  if (m) {
    const kind = ROUTE_KINDS.get(m[1])!;
    return { kind, key: kind === 'COUNTY' ? `#COUNTY ${m[2]}` : `#${m[2]}` };
  }
  const owned = OWNED_ROUTE_NAME.exec(name);
  if (owned && FiftyStateWords.has(owned[1])) return { kind: 'STATE', key: `#${owned[2]}` };
  return bare && BARE_ROUTE_NUMBER.test(name) ? { kind: 'any', key: `#${name}` } : null;
}

export function streetKey(s: StreetParts): string {
  return `${s.predirection ?? ''}|${s.name ?? ''}|${s.suffix ?? ''}|${s.postdirection ?? ''}`;
}

export function partsOfKey(key: string): StreetParts {
  const [predirection, name, suffix, postdirection] = key.split('|');
  return { predirection: predirection || null, name: name || null, suffix: suffix || null, postdirection: postdirection || null };
}

/**
 * The names differ in one word of four letters or more (`APLEGATE LN`), not in a lone letter (`CALLE A`, `CALLE B`),
 * or by a space between two words of two letters or more (`PEN STOCK` for PENSTOCK, `MCDONALD` for MC DONALD).
 */
export function slipInsideLongWord(a: string, b: string): boolean {
  const wa = a.split(' ');
  const wb = b.split(' ');
  if (Math.abs(wa.length - wb.length) === 1) {
    const [split, joined] = wa.length > wb.length ? [wa, wb] : [wb, wa];
    const at = split.findIndex((w, i) => w !== joined[i]);
    return at >= 0 && split[at].length >= 2 && split[at + 1].length >= 2 && split[at] + split[at + 1] === joined[at];
  }
  if (wa.length !== wb.length) return false;
  const differing = wa.findIndex((w, i) => w !== wb[i]);
  return differing >= 0 && Math.min(wa[differing].length, wb[differing].length) >= 4;
}

/**
 * The street read with a street type or directional misspelt by one slip that was taken into the name (`MARTIN STRET`:
 * MARTIN ST; `WSET 19TH AVE`: W 19TH AVE), or with its type glued to the name (`APPLEGATELN`), each reading; none
 * when the name has no such word.
 */
export function slipsMended(street: StreetParts): StreetParts[] {
  const words = street.name?.split(' ') ?? [];
  return [...typeGlued(street, words), ...typeOrDirectionalSlips(street, words)];
}

/**
 * The street read with its type glued to the name's last word, the space left out (`APPLEGATELN`, `APPLEGATELANE`:
 * APPLEGATE LN; a lettered street's `QSTREET`: Q ST), each split at which a type ends the word; none when the street
 * has a type. The data decides which, if any, is the street.
 */
function typeGlued(street: StreetParts, words: readonly string[]): StreetParts[] {
  const last = words[words.length - 1];
  if (street.suffix !== null || !last || last.length < 4) return [];
  const readings: StreetParts[] = [];
  for (let i = 1; i <= last.length - 2; i++) {
    const type = StreetSuffixTable.get(last.slice(i));
    if (type) readings.push({ ...street, name: [...words.slice(0, -1), last.slice(0, i)].join(' '), suffix: type });
  }
  return readings;
}

function typeOrDirectionalSlips(street: StreetParts, words: readonly string[]): StreetParts[] {
  // A directional that names the street before its type misspelt (`451 EAST SRTEET`, `612 E SRTEET`): East Street, E
  // Street.
  if (words.length === 1 && street.predirection && street.suffix === null) {
    const readings: StreetParts[] = [];
    for (const type of streetTypesOneSlipFrom(words[0])) {
      for (const name of new Set([street.predirection, DIRECTIONAL_WORDS.get(street.predirection) ?? street.predirection])) {
        readings.push({ ...street, predirection: null, name, suffix: type });
      }
    }
    return readings;
  }
  if (words.length < 2) return [];
  const readings: StreetParts[] = [];
  // Each type the last word is one slip from (`CORT`: COURT, and CORS of CORNERS; `LNE`, `ROD`, `WAAY`): the data
  // decides which, if any, is the street.
  if (street.suffix === null) {
    for (const type of streetTypesOneSlipFrom(words[words.length - 1])) readings.push({ ...street, name: words.slice(0, -1).join(' '), suffix: type });
  }
  // Each directional the first word is one slip from (`NORTHEWST`: NORTHWEST, and NORTHEAST).
  if (street.predirection === null) {
    for (const directional of wordsOneSlipFrom(words[0], LONG_DIRECTIONALS)) readings.push({ ...street, predirection: directional, name: words.slice(1).join(' ') });
  }
  return readings;
}
