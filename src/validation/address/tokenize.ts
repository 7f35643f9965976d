/**
 * One-line or multi-line address text -> upper-case word tokens, the way Pub 28 wants them (section 212: no
 * punctuation except the hyphen in numbers, the slash of fractions and a decimal point, `39.2 RD`). A token remembers whether a separator
 * (comma, new line, tab, semicolon) came before it: separators are strong hints of where the city starts.
 */

import { DirectionalTable, FiftyStateWords, RegionByName, StreetSuffixTable, UnitDesignatorTable } from './tables.js';

export interface Token {
  /** Upper-case word without punctuation (hyphens, fraction slashes and decimal points kept). */
  w: string;
  /** A comma, new line or semicolon stood before this token. */
  sep: boolean;
  /** Shape of the word, found once here because the parser asks many times: has a digit, */
  digit: boolean;
  /** could be a unit number (`4B`, `C-2`, `A`), */
  unitId: boolean;
  /** could be a house number (`123`, `123A`, `123-45`, `N123W456`). */
  number: boolean;
  /** An empty field stood before this token (`…, , VT 05753`: two separators with nothing between). */
  blank: boolean;
}

export const UNIT_ID = /^(?=.*\d)[A-Z0-9]{1,16}(-[A-Z0-9]{1,8})?$|^[A-Z]{1,2}$|^[A-Z]-[A-Z0-9]$/;
/** A house number's forms; also a milepost standing as one (`MILE 15.5`, `KM 2.3`: a token only the parser makes). */
export const PRIMARY_NUMBER = /^(\d+[A-Z]?|\d+-\d+[A-Z]?|\d+[A-Z]?-[A-Z0-9]{1,6}|[NSEW]\d+[NSEW]\d+[A-Z]?|[A-Z]\d{1,6}|(?:MILE|KM) \d{1,4}(?:\.\d{1,3})?)$/;
const DIGIT = /\d/;

export function makeToken(w: string, sep: boolean, digit = DIGIT.test(w), blank = false): Token {
  return { w, sep, digit, unitId: UNIT_ID.test(w), number: digit && PRIMARY_NUMBER.test(w), blank };
}

/** A unit written as a letter and a number after `#` (`# R 16`, Berkeley's rear units): unit R16; else null. */
export function letterAndNumberUnit(letter: string | undefined, number: string | undefined): string | null {
  return letter !== undefined && number !== undefined && /^[A-Z]$/.test(letter) && /^\d+$/.test(number) ? letter + number : null;
}

/** Input longer than this is cut: nothing postal is that long, and parse time must stay bounded. */
export const MAX_INPUT_CHARS = 400;
export const MAX_TOKENS = 40;

/** Highway words written with a hyphen before the route number (I-95, US-1, SR-690). */
export const HYPHENATED_ROUTE = /^(I|IH|US|SR|CR|FM|SH|HWY|RT|RTE|ROUTE|HIGHWAY)-([A-Z0-9]+)$/;

/**
 * A state route written with its state's code and a hyphen (`TN-100`, `CA-1`, as maps write it): the code, ROUTE and
 * its number. Not the codes that are also street, unit or directional words (`CT-5`, `FL-2`, `NE-3`).
 */
function hyphenatedStateRoute(word: string): string[] | null {
  const m = STATE_DASH_NUMBER.exec(word);
  return m && FiftyStateWords.has(m[1]) && !StreetSuffixTable.has(m[1]) && !UnitDesignatorTable.has(m[1]) && !DirectionalTable.has(m[1])
    ? [m[1], 'ROUTE', m[2]]
    : null;
}

const STATE_DASH_NUMBER = /^([A-Z]{2})-(\d{1,4}[A-Z]?)$/;

/** Rural route written without a space (RR2, HC1). */
const GLUED_RURAL_ROUTE = /^(RR|HC|HCR|RFD)(\d{1,3})$/;

/** PO box written without a space before its number (POBOX123, POB123, BOX123). */
const GLUED_PO_BOX = /^(POBOX|POB|BOX)(\d{1,8})$/;

/** A unit designator joined to its number by a hyphen (`BLD-A`, `STE-200`): designator and number. */
function hyphenatedUnit(word: string): [string, string, string] | null {
  const dash = word.indexOf('-');
  if (dash < 2 || !UnitDesignatorTable.get(word.slice(0, dash))?.requiresNumber) return null;
  const id = word.slice(dash + 1);
  return /^[A-Z0-9]{1,8}(?:-[A-Z0-9]{1,4})?$/.test(id) ? [word, word.slice(0, dash), id] : null;
}

/**
 * A house number glued to the street's name (`6007APPLEGATE`), or joined to it by a hyphen (`6007-APPLEGATE`): number
 * and name (`4TH`, `123A`, `123-B` stay whole).
 */
const GLUED_NUMBER_NAME = /^(\d{1,6})-?([A-Z]{3,})$/;

/** A unit designator glued to its number (`APT203`, `STE12B`, `APT320-3`, `APTD10`): designator and number. */
function gluedUnit(word: string): [string, string, string] | null {
  for (const m of [GLUED_UNIT.exec(word), GLUED_UNIT_LETTER_FIRST.exec(word)]) {
    if (m && UnitDesignatorTable.get(m[1])?.requiresNumber) return [word, m[1], m[2]];
  }
  return null;
}

const GLUED_UNIT = /^([A-Z]{2,9})(\d{1,6}[A-Z]?(?:-[A-Z0-9]{1,4})?)$/;
const GLUED_UNIT_LETTER_FIRST = /^([A-Z]{2,9})([A-Z]\d{1,6}[A-Z]?)$/;

/** A street type joined to the unit after it by a hyphen (`AVE-B`, `ST-203`): type and unit. */
function hyphenatedAfterType(word: string): [string, string, string] | null {
  const m = TYPE_DASH_UNIT.exec(word);
  return m && StreetSuffixTable.has(m[1]) ? [word, m[1], m[2]] : null;
}

const TYPE_DASH_UNIT = /^([A-Z]{2,12})-(\d{1,6}[A-Z]?|[A-Z])$/;

/** A unit in brackets (`(APT 203)`, `(#4)`): kept, unlike a note. */
const BRACKETED_UNIT = /^\s*(#|[A-Z]{2,9})\s*(?:#\s*)?[A-Z0-9-]{1,8}\s*$/;

function keptInBrackets(inside: string): boolean {
  const t = inside.trim();
  if (RegionByName.has(t)) return true;
  const m = BRACKETED_UNIT.exec(t);
  return m !== null && (m[1] === '#' || UnitDesignatorTable.get(m[1])?.requiresNumber === true);
}

/**
 * The notes in brackets that tokenizeAddress drops (`(BACK ENTRANCE)`, `(REAR)`), upper case, as they were written
 * inside: for a footnote, since what is dropped is said.
 */
export function notesInBrackets(input: string): string[] {
  const notes: string[] = [];
  let s = input.slice(0, MAX_INPUT_CHARS);
  // (Without accents, as the tokenizer reads it: `(QUÉBEC)` is a province, kept.)
  if (NON_ASCII.test(s)) s = withoutAccents(s);
  for (const [, inside] of s.toUpperCase().matchAll(BRACKETS)) {
    const note = inside.replace(/\s+/g, ' ').trim();
    if (/[A-Z0-9]/.test(note) && !keptInBrackets(inside)) notes.push(note);
  }
  return notes;
}

const THOUSANDS_AT_START = /^(\s*\d{1,3}),(\d{3}) (?=[A-Z])/;
const BRACKETS = /\(([^)]*)\)?/g;
const GLUED_STATE_ZIP = /^([A-Z]{2})(\d{5}(?:-?\d{4})?)$/;

/** A state code glued to its ZIP (`IL62701`, `IL62701-1234`): state and ZIP. */
function gluedStateZip(word: string): [string, string, string] | null {
  if (word.length < 7 || word.length > 12) return null;
  const m = GLUED_STATE_ZIP.exec(word);
  return m && RegionByName.get(m[1])?.country === 'US' ? [word, m[1], m[2]] : null;
}

/** True when the text has letters of a script other than Latin (Cyrillic, Han, Arabic, …). */
export function hasNonLatinLetters(text: string): boolean {
  return NON_ASCII.test(text) && /[^\p{Script=Latin}\P{L}]/u.test(text);
}

const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Latin letters that no decomposition takes apart, as their plain letters: the rest of their word stays one word. */
const UNDECOMPOSED_LATIN: Readonly<Record<string, string>> = {
  Ø: 'O', ø: 'o', Æ: 'AE', æ: 'ae', Œ: 'OE', œ: 'oe', Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Þ: 'TH', þ: 'th', Ħ: 'H', ħ: 'h',
};
const UNDECOMPOSED_LATIN_LETTER = /[ØøÆæŒœŁłĐđÞþĦħ]/g;

/** The text decomposed (NFKD) without its accents: MONTRÉAL -> MONTREAL, `Ｑ` -> Q, KØBENHAVN -> KOBENHAVN. */
function withoutAccents(s: string): string {
  return s.normalize('NFKD').replace(COMBINING_MARKS, '').replace(UNDECOMPOSED_LATIN_LETTER, (c) => UNDECOMPOSED_LATIN[c]);
}
/**
 * The words of the text as typed (upper case, with their accents and apostrophes), by the forms an answer may hold
 * them in: the tokenizer's, without either (`MONTREAL` -> `MONTRÉAL`, `LEGLISE` -> `L'ÉGLISE`, `DOKA` -> `D'OKA`),
 * and without the accents only (`L'ILE` -> `L'ÎLE`, as a place name is written from the data); a hyphenated word also
 * by its parts (`RENE-LEVESQUE`, `RENE`, `LEVESQUE`). Only words typed otherwise than read are held; a word typed in two
 * ways (`Montréal` and `Montreal`) is left out, so that nothing is written that was not typed.
 */
export function wordsAsTyped(text: string): Map<string, string> {
  const typed = new Map<string, string>();
  if (!NON_ASCII.test(text) && !/['`]/.test(text)) return typed;
  const written = new Map<string, string | null>();
  const words = text.slice(0, MAX_INPUT_CHARS).normalize('NFC').toUpperCase().replace(/[\u2019`]/g, "'").split(/[^\p{L}\p{M}\p{N}'-]+/u);
  for (const word of words) {
    for (const part of word.includes('-') ? [word, ...word.split('-')] : [word]) {
      const read = withoutAccents(part);
      if (!/^[A-Z0-9'-]+$/.test(read)) continue;
      for (const key of read.includes("'") ? [read, read.replace(/'/g, '')] : [read]) {
        const seen = written.get(key);
        written.set(key, seen === undefined || seen === part ? part : null);
      }
    }
  }
  for (const [read, part] of written) if (part !== null && part !== read) typed.set(read, part);
  return typed;
}

/** Hyphens, en and em dashes, the minus sign, and their small and fullwidth forms (after NFKD). */
const DASHES = /[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]/g;
const EDGE_DASH_OR_SLASH = /^[-/]|[-/]$/;
const UNIT_DASH_CIVIC = /(^|,)\s*(?:#\s*)?(\d+[A-Z]?)\s*-\s*(?=\d)/g;
const SPACED_DASH = / +-+ +/g;
/**
 * A slash after a word, a unit or a ZIP code separates fields (`6007 APPLEGATE LN/LOUISVILLE/KY/40219/USA`,
 * `123 MAIN ST #4/SPRINGFIELD`, `74 SPRINGFIELD ST B/AGAWAM`); one between single letters (`C/O`) or figures (`1/2`)
 * is part of the word, and so is one between a number and a route (`STATE ROAD 7/US 441`: one road's two names).
 */
const SLASH_BETWEEN_FIELDS =
  /(?<=[A-Z])\/(?=[A-Z]{2})|(?<=[A-Z]{2})\/(?=[A-Z0-9])|(?<=\d)\/(?=[A-Z]{2})(?!(?:US|SR|CR|RT|RTE|HWY|HIGHWAY|ROUTE|STATE|COUNTY|FM|RM|IH)\b)/g;

export function tokenizeAddress(input: string): Token[] {
  let s = input.slice(0, MAX_INPUT_CHARS);
  // Accents go (MONTRÉAL -> MONTREAL); plain ASCII, most input, skips the Unicode work.
  // A vulgar fraction glued to the number (`123½`) is a fraction after it (`123 1/2`).
  // Dashes a word processor puts for a hyphen (`203 – 1267`: Word's en dash, a minus sign) are hyphens.
  if (NON_ASCII.test(s)) s = withoutAccents(s.replace(/([\u00bc-\u00be\u2150-\u215e])/g, ' $1')).replace(/\u2044/g, '/').replace(DASHES, '-');
  s = s.toUpperCase();
  // Each rewrite only where its character occurs (most input has no brackets, full stops, # or &).
  // Brackets hold notes (`(REAR)`, a ship's hull number), dropped; or a province or a unit, kept (`MONTREAL (QUEBEC)`,
  // `(APT 203)`).
  if (s.includes('(')) s = s.replace(BRACKETS, (_, inside: string) => (keptInBrackets(inside) ? ` ${inside} ` : ' '));
  // Initials written with full stops keep together: P.O. -> PO, U.S.A. -> USA, S.W. -> SW.
  if (s.includes('.')) s = s.replace(/\b([A-Z])\.([A-Z])(?:\.([A-Z]))?\b\.?/g, '$1$2$3');
  if (s.includes('P')) s = s.replace(/\bP\.?\s+O\.?\s+(?=BOX\b)/g, 'PO ');
  // A house number written with a thousands separator (`6,007 APPLEGATE LN`) opening the text is one number.
  const firstComma = s.indexOf(',');
  if (firstComma > 0 && firstComma <= 4) s = s.replace(THOUSANDS_AT_START, '$1$2 ');
  s = s.replace(/[\r\n\t;|]+/g, ',');
  if (s.includes('#')) s = s.replace(/#/g, ' # ');
  s = s.replace(/['’`]/g, '');
  if (s.includes('/')) s = s.replace(SLASH_BETWEEN_FIELDS, ',');
  if (s.includes('&')) s = s.replace(/&/g, ' & ');
  // A unit before the civic number at the start of a line, written with spaces or a # (`#4 - 123 MAIN ST`,
  // `4 - 123 MAIN ST`): one token, as Canada Post writes it (4-123).
  if (s.includes('-')) {
    s = s.replace(UNIT_DASH_CIVIC, '$1$2-');
    // A dash with spaces around it separates as a comma does (`6007 APPLEGATE LN - RING BELL, LOUISVILLE`).
    if (s.includes(' -')) s = s.replace(SPACED_DASH, ',');
  }
  // (A full stop between figures is a decimal point, kept: `KM 15.5`, `MILE 95.5`, as Pub 28 keeps it in `39.2 RD`.)
  s = s.replace(s.includes('.') && DECIMAL_POINT.test(s) ? OTHER_THAN_WORDS_OR_DECIMAL_POINT : OTHER_THAN_WORDS, ' ');
  // One pass over the text: a comma starts a new group (its first word carries `sep`), a space ends a word.
  const tokens: Token[] = [];
  let sep = false;
  let separators = 0;
  let from = 0;
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : COMMA;
    if (c !== COMMA && c !== SPACE) continue;
    if (i > from && pushWord(tokens, s.slice(from, i), sep, separators > 1)) {
      sep = false;
      separators = 0;
      if (tokens.length >= MAX_TOKENS) return tokens;
    }
    if (c === COMMA && tokens.length > 0) {
      sep = true;
      separators++;
    }
    from = i + 1;
  }
  return tokens;
}

const DECIMAL_POINT = /\d\.\d/;
const OTHER_THAN_WORDS = /[^A-Z0-9,#/\- &]+/g;
const OTHER_THAN_WORDS_OR_DECIMAL_POINT = /(?:[^A-Z0-9,#/\-. &]|(?<!\d)\.|\.(?!\d))+/g;
const COMMA = 44;
const SPACE = 32;

/** Appends the token(s) of one word (a hyphenated route or unit, a glued route or state and ZIP: two); false if none. */
function pushWord(tokens: Token[], word: string, sep: boolean, blank: boolean): boolean {
  if (EDGE_DASH_OR_SLASH.test(word)) {
    word = word.replace(/^[-/]+|[-/]+$/g, '');
    if (!word) return false;
  }
  // (Glued words hold figures: most words, which hold none, skip those tests.)
  const digit = DIGIT.test(word);
  const hyphen = word.includes('-');
  const stateRoute = digit && hyphen ? hyphenatedStateRoute(word) : null;
  if (stateRoute) {
    tokens.push(makeToken(stateRoute[0], sep, false, blank), makeToken(stateRoute[1], false), makeToken(stateRoute[2], false));
    return true;
  }
  const route = (hyphen ? HYPHENATED_ROUTE.exec(word) ?? hyphenatedUnit(word) ?? hyphenatedAfterType(word) : null) ??
    (digit
      ? GLUED_RURAL_ROUTE.exec(word) ?? GLUED_PO_BOX.exec(word) ?? gluedStateZip(word) ?? gluedUnit(word) ?? (tokens.length === 0 || sep ? GLUED_NUMBER_NAME.exec(word) : null)
      : null);
  if (route) tokens.push(makeToken(route[1], sep, undefined, blank), makeToken(route[2], false));
  else tokens.push(makeToken(word, sep, digit, blank));
  return true;
}

/** The words of toks[from, to) joined by single spaces. */
export function joinWords(toks: readonly Token[], from: number, to: number): string {
  let out = '';
  for (let k = from; k < to; k++) out += (k > from ? ' ' : '') + toks[k].w;
  return out;
}
