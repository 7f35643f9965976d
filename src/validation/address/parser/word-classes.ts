/**
 * What a word or a run of tokens is to the parser (a ZIP, an ordinal, a directional, a street type, a recipient marker),
 * shared by the delivery-line and last-line readers.
 */
import {
  CanadianStreetTypeAfter, DirectionalTable, FrenchDirectionalTable, OrdinalWords, StreetSuffixTable, UnitDesignatorTable,
} from '../tables.js';
import type { Token } from '../tokenize.js';

export const US_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
export const CA_POSTAL = /^([A-Z]\d[A-Z])-?(\d[A-Z]\d)$/;
export const FRACTION = /^\d\/\d{1,2}$/;
export const ORDINAL_NUMBER = /^(\d+)(ST|ND|RD|TH)$/;
export const HAS_DIGIT = /\d/;

/** Words that stand for `#` before a number (`UNIT NO 5`, `NUM 203`). */
export const NUMBER_WORDS: ReadonlySet<string> = new Set(['NO', 'NUMBER', 'NUM', 'NBR']);
/** No entries: what a by-first-word table gives for most words, without a new empty array each time. */
export const NONE: readonly never[] = [];
/** A city has at most this many words (TERRITOIRES DU NORD OUEST, LAKE IN THE HILLS). */
export const MAX_CITY_WORDS = 5;

export function matchSequence(toks: readonly Token[], at: number, end: number, words: readonly string[]): boolean {
  if (at + words.length > end) return false;
  for (let k = 0; k < words.length; k++) if (toks[at + k].w !== words[k]) return false;
  return true;
}

export function directionalOf(word: string, country: 'US' | 'CA' | null): string | undefined {
  return DirectionalTable.get(word) ?? (country === 'CA' ? FrenchDirectionalTable.get(word) : undefined);
}

export function suffixOf(word: string, country: 'US' | 'CA' | null): string | undefined {
  return country === 'CA' ? CanadianStreetTypeAfter.get(word) : StreetSuffixTable.get(word);
}

export function isStreetWord(word: string): boolean {
  return StreetSuffixTable.has(word) || DirectionalTable.has(word) || UnitDesignatorTable.has(word);
}

/** Where the comma group ending before `at` starts (0 at the text's start; -1 when `at` is 0). */
export function groupStartBefore(toks: readonly Token[], at: number): number {
  let g = at - 1;
  while (g > 0 && !toks[g].sep) g--;
  return g;
}

/** True when the comma group ending before `at` starts with ATTN, C/O … */
export function attentionGroupBefore(toks: readonly Token[], at: number): boolean {
  const j = groupStartBefore(toks, at);
  return j >= 0 && RECIPIENT_MARKERS.has(toks[j].w);
}

export function isFloorNumber(word: string): boolean {
  return ORDINAL_NUMBER.test(word) || OrdinalWords.has(word) || /^\d{1,3}$/.test(word);
}

const OPPOSITE_DIRECTION: Readonly<Record<string, string>> = { N: 'S', S: 'N', E: 'W', W: 'E' };

/** Whether two directionals point partly opposite ways (W and E, SW and E, NE and S). */
export function opposedDirections(a: string, b: string): boolean {
  for (const d of a) if (b.includes(OPPOSITE_DIRECTION[d] ?? '-')) return true;
  return false;
}

/** True when a comma opens one of toks[from, to). */
export function commaWithin(toks: readonly Token[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (toks[k].sep) return true;
  return false;
}
export const RECIPIENT_MARKERS = new Set(['C/O', 'CO', 'ATTN', 'ATTENTION', 'CARE']);
export const ATTENTION_MARKERS = new Set(['ATTN', 'ATTENTION']);
/** Street types that do not occur in city names (unlike CREEK, BEACH, HILL). */
export const COMMON_STREET_TYPES = new Set(['ST', 'AVE', 'RD', 'DR', 'LN', 'BLVD', 'CT', 'PL', 'WAY', 'PKWY', 'CIR', 'TER', 'HWY', 'TRL']);
/** Street types that name roads rather than places, read as streets even without a house number (`DRUM POINT RD`). */
export const OPEN_ROAD_TYPES = new Set(['FWY', 'EXPY', 'PIKE', 'TPKE', 'RTE', 'ROW', 'RUN', 'BYP', 'ALY', 'BND', 'CSWY', 'HWY', 'HL', 'XING', 'LOOP']);
/** Words that end a firm or person's name, never a city (`PURI BROTHERS, INC`). */
export const FIRM_WORDS = new Set(['INC', 'LLC', 'LTD', 'CORP', 'JR', 'SR', 'III', 'PC', 'LLP', 'PLLC']);

/** A unit that is a letter, or two joined by a hyphen (`B`, `A-D`). */
export const LONE_LETTER_UNIT = /^[A-Z](-[A-Z0-9])?$/;
