/**
 * The delivery lines that are no house number and street name: PO boxes (Pub 28 section 28), rural routes and highway
 * contracts (sections 24, 25), highways and state routes (`US HWY 101`, `VT ROUTE 113`), lettered county roads, and
 * mileposts standing for a house number.
 */
import { wordOneSlipFrom } from '../postal-index.js';
import {
  byFirstWord, DirectionalTable, HighwayPrefixTable, LongStateNames, PoBoxPrefixes, RuralRoutePrefixes, StateRoutesByFirstWord,
  StreetSuffixTable,
} from '../tables.js';
import type { Token } from '../tokenize.js';
import { directionalOf, HAS_DIGIT, matchSequence, NONE, NUMBER_WORDS } from './word-classes.js';

export const HIGHWAYS_BY_FIRST_WORD = byFirstWord(HighwayPrefixTable);
export const RURAL_ROUTES_BY_FIRST_WORD = byFirstWord(RuralRoutePrefixes);
export const PO_BOXES_BY_FIRST_WORD = byFirstWord(PoBoxPrefixes.map((words) => [words] as const));
/** Last words of highway names (HWY, ROUTE, ROAD …): a number after one is a route number, not a house number. */
export const HIGHWAY_LAST_WORDS = new Set(HighwayPrefixTable.map(([words]) => words[words.length - 1]));

/**
 * A letter and a number ending the line name a lettered road (`4715 F 41`: Michigan's county road F-41, lettered A to
 * H); `I 95` is the interstate.
 */
export function letteredRoad(toks: readonly Token[], at: number, end: number, country: 'US' | 'CA' | null): boolean {
  return at + 2 === end && /^[A-HJ-Z]$/.test(toks[at].w) && !directionalOf(toks[at].w, country) && /^\d+$/.test(toks[at + 1].w);
}

/** Highway or route at `at`: the standard spelling and how many words it used, or null. */
export function matchHighway(
  toks: readonly Token[],
  at: number,
  end: number,
  afterName = false,
  stateName = false,
): { name: string; length: number; typed?: string } | null {
  // `6460 VERMONT 113`, `VT ROUTE 113`: a state's route, read right after the house number only (stateName); also with
  // the state's name misspelt (`6460 VEROMNT 113`), which the answer says it mended.
  if (stateName) {
    const route = stateRouteAt(toks, at, end) ?? misspeltStateRouteAt(toks, at, end);
    if (route) return route;
  }
  for (const [words, standard] of HIGHWAYS_BY_FIRST_WORD.get(toks[at]?.w) ?? NONE) {
    if (!matchSequence(toks, at, end, words)) continue;
    let k = at + words.length;
    // `HIGHWAY NO 33`, `ROUTE # A`; after a name (`DIXIE HWY # 312`) the `#` starts a unit instead.
    const numberWord = NUMBER_WORDS.has(toks[k]?.w) || (toks[k]?.w === '#' && !afterName);
    if (k < end && !toks[k].sep && numberWord) k++;
    if (k >= end) continue;
    const id = toks[k].w;
    const shortPrefix = words.length === 1 && words[0].length <= 2;
    // A route number may start with a letter (`HIGHWAY A1A`, `STATE ROAD K10`), not after a name (`DIXIE HWY B12`: a unit).
    const idOk = HAS_DIGIT.test(id)
      ? (afterName ? /^[0-9]+[A-Z]?$/ : /^[A-Z]?[0-9]+[A-Z]?$/).test(id)
      : !shortPrefix && /^[A-Z]{1,2}$/.test(id) && !StreetSuffixTable.has(id) && !DirectionalTable.has(id);
    if (!idOk) continue;
    return { name: `${standard} ${id}`, length: k + 1 - at };
  }
  return null;
}

/** A state's route and its number (1 to 3 figures, a letter after) at toks[at] (StateRoutesByFirstWord), or null. */
export function stateRouteAt(toks: readonly Token[], at: number, end: number): { name: string; length: number } | null {
  for (const [words, standard] of StateRoutesByFirstWord.get(toks[at]?.w) ?? NONE) {
    const k = at + words.length;
    if (k < end && !toks[k].sep && STATE_ROUTE_NUMBER.test(toks[k].w) && matchSequence(toks, at, end, words)) {
      return { name: `${standard} ${toks[k].w}`, length: words.length + 1 };
    }
  }
  return null;
}

const STATE_ROUTE_NUMBER = /^\d{1,3}[A-Z]?$/;

/** A state's long name one typing slip off, then a route number (`VEROMNT 113`): VT ROUTE 113, with the words typed. */
function misspeltStateRouteAt(toks: readonly Token[], at: number, end: number): { name: string; length: number; typed: string } | null {
  const word = toks[at]?.w;
  const number = toks[at + 1];
  if (word === undefined || word.length < 6 || at + 1 >= end || number.sep || !STATE_ROUTE_NUMBER.test(number.w)) return null;
  const code = wordOneSlipFrom(word, LongStateNames);
  return code ? { name: `${code} ROUTE ${number.w}`, length: 2, typed: `${word} ${number.w}` } : null;
}

export function matchPoBox(toks: readonly Token[], at: number, end: number): number {
  for (const [words] of PO_BOXES_BY_FIRST_WORD.get(toks[at]?.w) ?? NONE) {
    if (!matchSequence(toks, at, end, words)) continue;
    let k = at + words.length;
    if (k < end && (toks[k].w === '#' || toks[k].w === 'NO')) k++;
    if (k < end && toks[k].digit && /^[A-Z0-9-]{1,10}$/.test(toks[k].w)) return k;
    // Small post offices letter their boxes (`PO BOX A`): a lone letter ending the line.
    if (k === end - 1 && /^[A-Z]$/.test(toks[k].w)) return k;
  }
  return -1;
}

export function matchRuralRoute(toks: readonly Token[], at: number, end: number): (typeof RuralRoutePrefixes)[number] | undefined {
  for (const entry of RURAL_ROUTES_BY_FIRST_WORD.get(toks[at].w) ?? NONE) if (matchSequence(toks, at, end, entry[0])) return entry;
  return undefined;
}

export const ROUTE_WORDS: ReadonlySet<string> = new Set(['ROUTE', 'RTE', 'RT']);

/** The words of a milepost or kilometre marker, and the word the answer writes (MM and MP are mile markers). */
const MILEPOST_WORDS: ReadonlyMap<string, string> = new Map([
  ['MILE', 'MILE'], ['MILEPOST', 'MILE'], ['MM', 'MILE'], ['MP', 'MILE'], ['KM', 'KM'], ['KILOMETRO', 'KM'], ['KILOMETER', 'KM'],
  ['KILOMETRE', 'KM'],
]);
const MILEPOST_NUMBER = /^\d{1,4}(?:\.\d{1,3})?$/;

/**
 * A milepost or kilometre marker on a road (`MILE 15.5 STERLING HWY`, `STERLING HWY MM 95.5`, `CARR 2 KM 15.5`), taken
 * out of the tokens: where its comma group has no house number, a token for it takes the house number's place at the
 * group's start (the road is then read as with one); else it is kept as a note. Not a road named so (`1234 MILE 5 RD`,
 * `MILE 5 N RD`: a house number before it, or a street type or directional after its number). Null when there is none.
 */
export function takeMilepost(toks: Token[]): { text: string; afterStreet: boolean; asNumber: boolean } | null {
  for (let k = 0; k + 1 < toks.length; k++) {
    const number = toks[k + 1];
    if (!number.digit || number.sep) continue;
    const word = MILEPOST_WORDS.get(toks[k].w);
    if (!word || !MILEPOST_NUMBER.test(number.w)) continue;
    const after = toks[k + 2];
    if (after && !after.sep && (StreetSuffixTable.has(after.w) || DirectionalTable.has(after.w))) continue;
    let groupStart = k;
    while (groupStart > 0 && !toks[groupStart].sep) groupStart--;
    if (k - 1 === groupStart && toks[groupStart].number) continue;
    const text = `${word} ${number.w}`;
    const sep = toks[k].sep;
    toks.splice(k, 2);
    // (A marker that opened its comma group hands the comma on to the word after it.)
    if (sep && toks[k]) toks[k] = { ...toks[k], sep: true };
    const first = toks[groupStart];
    if (first?.number) return { text, afterStreet: true, asNumber: false };
    toks.splice(groupStart, 0, { w: text, sep: first ? first.sep : sep, digit: true, unitId: false, number: true, blank: first?.blank ?? false });
    if (first) toks[groupStart + 1] = { ...first, sep: false, blank: false };
    return { text, afterStreet: k > groupStart, asNumber: true };
  }
  return null;
}
