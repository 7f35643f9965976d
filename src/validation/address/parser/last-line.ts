/**
 * The last line read from the right: postal codes typed wrong or in another field, states misspelt or written as
 * words, the last line written twice.
 */
import { cityKey, oneTypingSlipApart, type PostalIndex } from '../postal-index.js';
import {
  LONGEST_REGION_NAME_WORDS, NorthAmericanCountryNames, RegionByName, StateAbbreviationsThatAreWords, UnitDesignatorTable, UsStateNames,
} from '../tables.js';
import { joinWords, makeToken, type Token } from '../tokenize.js';
import { acceptableForSomeZip, knownCityBefore } from './place-names.js';
import type { LocalPlaceNames } from './types.js';
import { CA_POSTAL, MAX_CITY_WORDS, US_ZIP } from './word-classes.js';

/** Figures where a ZIP goes that are no ZIP: a digit dropped or doubled, two ZIPs run together. */
export const MALFORMED_ZIP = /^(\d{3,4}|\d{6,10})$|^\d{3,6}-\d{3,5}$/;
/**
 * Two to four letters and figures, both present: half a Canadian postal code, maybe mistyped or cut short (`2TX`,
 * `M5`V, `2N`).
 */
export const MALFORMED_POSTAL_HALF = /^(?=.*\d)(?=.*[A-Z])[A-Z0-9]{2,4}$/;
/**
 * Four to seven letters and figures, both present, at least two figures: a Canadian postal code, maybe mistyped or cut
 * short (`M5V2TX`, `M5H2N`).
 */
export const MALFORMED_POSTAL_CODE = /^(?=(?:.*\d){2})(?=.*[A-Z])[A-Z0-9]{4,7}$/;
/** Country names that may stand before a postal code (two-letter codes would be states there). */
export const COUNTRY_NAMES_BEFORE_POSTAL_CODE = NorthAmericanCountryNames.filter(([words]) => words.join('').length > 2);

/**
 * A state abbreviation that is also a word (`WASH`, `IND`): the state where the ZIP is of that state, or without a ZIP
 * after a known city of it (`SEATTLE, WASH`); else undefined (`123 DESERT WASH 85001` is a street).
 */
export function stateWrittenAsWord(
  phrase: string, postalCode: string | null, toks: readonly Token[], at: number, postal: PostalIndex,
): { code: string; country: 'US' } | undefined {
  const code = StateAbbreviationsThatAreWords.get(phrase);
  if (!code) return undefined;
  const fits = postalCode
    ? postal.zip(postalCode)?.some((place) => place.state === code) ?? false
    : [1, 2, 3, 4].some((c) => at - c >= 0 && postal.city(code, joinWords(toks, at - c, at)) !== undefined);
  return fits ? { code, country: 'US' } : undefined;
}

/**
 * A postal code in a comma group of its own before the city (`6007 APPLEGATE LN, 40219, LOUISVILLE, KY`, `100 QUEEN ST
 * W, M5H 2N2, TORONTO, ON`: a form's fields in another order), when it is one of the state's: taken out of the tokens,
 * with the new end; else null.
 */
export function postalCodeInOwnGroup(
  toks: Token[], end: number, state: string, postal: PostalIndex,
): { postalCode: string; plus4: string | null; country: 'US' | 'CA'; end: number } | null {
  const country = RegionByName.get(state)?.country;
  if (!country) return null;
  // (The city's field may be empty: `388 E MAIN ST, 05753, , VT`, the state after an empty field.)
  for (let g = end < toks.length && toks[end].blank ? end : end - 1; g >= 2; g--) {
    if (!toks[g].sep) continue;
    const k = postalCodeBefore(toks, g, country);
    if (k < 1 || !toks[k].sep) continue;
    let postalCode: string;
    let plus4: string | null = null;
    if (country === 'US') {
      const zip = US_ZIP.exec(toks[k].w)!;
      if (!postal.zip(zip[1])?.some((place) => place.state === state)) continue;
      postalCode = zip[1];
      plus4 = zip[2] ?? null;
    } else {
      const [, fsa, ldu] = CA_POSTAL.exec(joinWords(toks, k, g).replace(/ /g, ''))!;
      if (postal.fsa(fsa)?.province !== state) continue;
      postalCode = `${fsa} ${ldu}`;
    }
    toks.splice(k, g - k);
    return { postalCode, plus4, country, end: end - (g - k) };
  }
  return null;
}

/**
 * A ZIP of the state written after the street and before its own city, with no comma (`6007 APPLEGATE LN 40219
 * LOUISVILLE KY`): five figures, not after a unit word or a #, followed up to the state by a name of that ZIP. Taken out
 * of the tokens, with the new end; else null.
 */
export function zipBeforeItsCity(
  toks: Token[], end: number, state: string, postal: PostalIndex, local: LocalPlaceNames | undefined,
): { postalCode: string; plus4: null; country: 'US'; end: number } | null {
  if (RegionByName.get(state)?.country !== 'US') return null;
  for (let k = end - 2; k >= 2 && end - k - 1 <= MAX_CITY_WORDS; k--) {
    if (toks[k].sep || !/^\d{5}$/.test(toks[k].w)) continue;
    const before = toks[k - 1].w;
    if (before === '#' || UnitDesignatorTable.has(before)) return null;
    const places = postal.zip(toks[k].w)?.filter((place) => place.state === state);
    if (!places?.length || !acceptableForSomeZip(postal, places, cityKey(joinWords(toks, k + 1, end)), toks[k].w, local)) return null;
    const postalCode = toks[k].w;
    toks.splice(k, 1);
    return { postalCode, plus4: null, country: 'US', end: end - 1 };
  }
  return null;
}

/** Where a postal code of the country that ends just before `at` starts (`40219`; `M5H 2N2` or `M5H2N2`); -1 if none. */
export function postalCodeBefore(toks: readonly Token[], at: number, country: 'US' | 'CA'): number {
  if (at < 1) return -1;
  if (country === 'US') return US_ZIP.test(toks[at - 1].w) ? at - 1 : -1;
  if (CA_POSTAL.test(toks[at - 1].w)) return at - 1;
  return at >= 2 && CA_POSTAL.test(toks[at - 2].w + toks[at - 1].w) ? at - 2 : -1;
}

/**
 * The state written after its own postal code (`LOUISVILLE, 40219 KY`, `TORONTO, M5H 2N2 ON`: a form's state and postal
 * code fields the other way round) is put back before it, as the post writes them. Only where the code is the state's.
 */
export function stateBeforePostalCode(toks: Token[], end: number, postal: PostalIndex): void {
  for (let n = 1; n <= LONGEST_REGION_NAME_WORDS && end - n >= 2; n++) {
    if (!toks[end - n - 1].digit) continue;
    const region = RegionByName.get(joinWords(toks, end - n, end));
    if (!region) continue;
    const codeAt = postalCodeBefore(toks, end - n, region.country);
    if (codeAt < 1 || toks[end - n].sep) return;
    const code = joinWords(toks, codeAt, end - n);
    const ofState = region.country === 'US'
      ? postal.zip(code.slice(0, 5))?.some((place) => place.state === region.code)
      : postal.fsa(code.replace(/[ -]/g, '').slice(0, 3))?.province === region.code;
    if (!ofState) return;
    const state = toks.splice(end - n, n);
    state[0] = { ...state[0], sep: toks[codeAt].sep };
    toks[codeAt] = { ...toks[codeAt], sep: false };
    toks.splice(codeAt, 0, ...state);
    return;
  }
}

/** The longest last line looked for twice: city (up to five words), state (up to three) and postal code (two). */
const LONGEST_LAST_LINE_WORDS = 10;

/**
 * Where the text ends with a last line written twice over, a comma before the second copy, the end of the first copy,
 * or with the state again after the postal code (`…, KY 40219, KY`), the end before it; else `end`. A US copy is known by its ZIP: the same five digits after a state, a comma, then words alone up to the
 * ZIP again (`…, TN 37203, NASHVILLE, TENNESSEE, 37203-1234`), or the ZIP alone again (`MA 02108 02108`); a Canadian
 * one must repeat word for word.
 */
export function dropRepeatedLastLine(toks: readonly Token[], end: number): number {
  // The state again after the postal code, in a comma group of its own (`…, KY 40219, KY`, `…, ON M5H 2N2, ON`: a city
  // field that held the whole last line, then the state field).
  for (let n = 1; n <= LONGEST_REGION_NAME_WORDS && end - n >= 3; n++) {
    if (!toks[end - n].sep || !toks[end - n - 1].digit) continue;
    const region = RegionByName.get(joinWords(toks, end - n, end));
    if (!region) break;
    const codeAt = postalCodeBefore(toks, end - n, region.country);
    if (codeAt < 0) break;
    for (let m = 1; m <= LONGEST_REGION_NAME_WORDS && codeAt - m >= 1; m++) {
      if (RegionByName.get(joinWords(toks, codeAt - m, codeAt))?.code === region.code) return end - n;
    }
    break;
  }
  const zip = end > 0 ? US_ZIP.exec(toks[end - 1].w) : null;
  if (zip) {
    for (let j = end - 2; j >= Math.max(1, end - 1 - LONGEST_LAST_LINE_WORDS); j--) {
      if (!toks[j].digit) continue;
      // The ZIP written twice in a row (`MA 02108 02108`) needs no comma between.
      if (!toks[j].w.startsWith(zip[1]) || US_ZIP.exec(toks[j].w)?.[1] !== zip[1] || !(toks[j + 1].sep || j === end - 2)) return end;
      for (let n = 1; n <= 3 && j - n >= 0; n++) if (RegionByName.get(joinWords(toks, j - n, j))?.country === 'US') return j + 1;
      return end;
    }
    return end;
  }
  const last = end > 0 ? toks[end - 1].w : '';
  if (!CA_POSTAL.test(last) && !/^\d[A-Z]\d$/.test(last)) return end;
  for (let k = Math.min(LONGEST_LAST_LINE_WORDS, Math.floor(end / 2)); k >= 2; k--) {
    if (!toks[end - k].sep) continue;
    let same = true;
    for (let i = 0; i < k && same; i++) same = toks[end - 2 * k + i].w === toks[end - k + i].w;
    if (same) return end - k;
  }
  return end;
}

/** The full names of each US state (`CALIFORNIA`), for a misspelt one. */
const STATE_NAMES_BY_CODE: ReadonlyMap<string, string> = new Map([...UsStateNames].map(([code, name]) => [code, name.replace(/ /g, '')]));

/** The last one, two and three words before `end` run together (`YROK`, `NEWYROK`), while they hold no figures. */
function wordsRunTogetherBefore(toks: readonly Token[], end: number): string[] {
  const runs: string[] = [];
  for (let n = 1, letters = ''; n <= 3 && end - n >= 1 && !toks[end - n].digit; n++) runs.push((letters = toks[end - n].w + letters));
  return runs;
}

/**
 * The last one to three words before `end` as the name of the ZIP's state misspelt by one typing slip (`CALIFRONIA`,
 * `PENSYLVANIA`, `NEW YROK`; names of six letters or more): the code and how many words; else null.
 */
export function misspeltStateBefore(toks: readonly Token[], end: number, zipState: string | undefined): { code: string; words: number } | null {
  const name = zipState ? STATE_NAMES_BY_CODE.get(zipState) : undefined;
  if (!name || name.length < 6) return null;
  const n = wordsRunTogetherBefore(toks, end).findIndex((run) => oneTypingSlipApart(run, name));
  return n >= 0 ? { code: zipState!, words: n + 1 } : null;
}

/** The states' full names of six letters or more (`CALIFORNIA`, `NEWYORK`) by first letter: code and name. */
const STATE_NAMES_BY_FIRST_LETTER: ReadonlyMap<string, readonly (readonly [string, string])[]> = (() => {
  const byLetter = new Map<string, [string, string][]>();
  for (const [code, name] of STATE_NAMES_BY_CODE) {
    if (name.length < 6) continue;
    const list = byLetter.get(name[0]);
    if (list) list.push([code, name]);
    else byLetter.set(name[0], [[code, name]]);
  }
  return byLetter;
})();

/** misspeltStateBefore without a ZIP: the one state whose name the words are one slip from, a known city of it before. */
export function misspeltStateAfterCity(
  toks: readonly Token[], end: number, postal: PostalIndex, local: LocalPlaceNames | undefined,
): { code: string; words: number } | null {
  const runs = wordsRunTogetherBefore(toks, end);
  let found: { code: string; words: number } | null = null;
  for (let n = 0; n < runs.length; n++) {
    for (const [code, name] of STATE_NAMES_BY_FIRST_LETTER.get(runs[n][0]) ?? []) {
      if (!oneTypingSlipApart(runs[n], name)) continue;
      if (found && found.code !== code) return null;
      found ??= { code, words: n + 1 };
    }
  }
  return found && knownCityBefore(toks, 0, end - found.words, found.code, postal, local) ? found : null;
}

/** A ZIP typed with the letter O for a zero after a state (`KY 4O219`): made that ZIP; returns it as typed, else null. */
export function zipWithLetterO(toks: Token[], end: number): string | null {
  if (end < 2 || !toks[end - 1].digit || !LETTER_O_ZIP.test(toks[end - 1].w) || RegionByName.get(toks[end - 2].w)?.country !== 'US') return null;
  const typed = toks[end - 1].w;
  toks[end - 1] = makeToken(typed.replace(/O/g, '0'), toks[end - 1].sep);
  return typed;
}

/**
 * A ZIP that lost its leading zero in a spreadsheet, with no state before it (`150 CARTER ST, MANCHESTER 6040`): four
 * figures after a name of the ZIP they make with the zero (a name of it exactly: four figures after a city are many
 * countries' postal codes, `AUCKLAND 1010`). The ZIP, else null.
 */
export function zipLostItsZero(toks: readonly Token[], end: number, postal: PostalIndex, local: LocalPlaceNames | undefined): [string, string] | null {
  if (end < 4 || !/^[1-9]\d{3}$/.test(toks[end - 1].w) || RegionByName.has(toks[end - 2].w)) return null;
  const zip = `0${toks[end - 1].w}`;
  const places = postal.zip(zip);
  if (!places) return null;
  for (let k = 1; k <= MAX_CITY_WORDS && end - 1 - k >= 2; k++) {
    if (acceptableForSomeZip(postal, places, cityKey(joinWords(toks, end - 1 - k, end - 1)), zip, local)) return ['', zip];
  }
  return null;
}

/** Five figures (and four), some of them the letter O, with two figures at least. */
const LETTER_O_ZIP = /^(?=(?:.*\d){2})(?=.*O)[\dO]{5}(?:-?[\dO]{4})?$/;
