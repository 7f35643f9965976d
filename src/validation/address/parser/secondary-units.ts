/**
 * Secondary units (Pub 28 section 213 and appendix C2): where they start on the line, how they are read, which one
 * Pub 28 keeps (the innermost), units written before the street or after the ZIP, and designators misspelt or numbered
 * in words.
 */
import { wordOneSlipFrom } from '../postal-index.js';
import {
  BuildingWords, CardinalTens, CardinalUnderTwenty, DirectionalTable, OrdinalWords, PrivateUnitWords, RegionByName, StreetSuffixTable,
  TwoWordMailStops, UnitDesignatorTable,
} from '../tables.js';
import { joinWords, letterAndNumberUnit, makeToken, type Token } from '../tokenize.js';
import { postalCodeBefore } from './last-line.js';
import { HIGHWAY_LAST_WORDS, HIGHWAYS_BY_FIRST_WORD } from './special-forms.js';
import type { DeliveryLine, Secondary } from './types.js';
import {
  attentionGroupBefore, CA_POSTAL, directionalOf, isFloorNumber, isStreetWord, LONE_LETTER_UNIT, NUMBER_WORDS, ORDINAL_NUMBER,
  RECIPIENT_MARKERS, suffixOf, US_ZIP,
} from './word-classes.js';

/** Unit designators that take a number, by each way of writing them, for a misspelt one. */
const NUMBERED_DESIGNATORS: ReadonlyMap<string, string> = new Map(
  [...UnitDesignatorTable].filter(([, d]) => d.requiresNumber).map(([w, d]) => [w, d.abbreviation]),
);

/**
 * A unit designator misspelt by one slip between a street type or directional and the unit's number (`MAIN STREET APPT
 * 5`, `SUTIE 500`, `APARTMNET 5`): written as the designator, in place.
 */
export function respellUnitDesignators(toks: Token[]): void {
  for (let k = 2; k + 1 < toks.length; k++) {
    const next = toks[k + 1];
    if (!next.digit || !next.unitId || toks[k].digit || next.sep) continue;
    const prev = toks[k - 1].w;
    if (!StreetSuffixTable.has(prev) && !DirectionalTable.has(prev)) continue;
    const w = toks[k].w;
    if (UnitDesignatorTable.has(w) || StreetSuffixTable.has(w) || DirectionalTable.has(w) || RegionByName.has(w)) continue;
    const designator = wordOneSlipFrom(w, NUMBERED_DESIGNATORS);
    if (designator) toks[k] = makeToken(designator, toks[k].sep);
  }
}

/** A number under a hundred written in words at toks[at] (`FOUR`, `TWENTY ONE`): its value and words, or null. */
function wordsUnderHundred(toks: readonly Token[], at: number): [value: number, words: number] | null {
  const unit = CardinalUnderTwenty.get(toks[at]?.w ?? '');
  if (unit !== undefined) return [unit, 1];
  const tens = CardinalTens.get(toks[at]?.w ?? '');
  if (tens === undefined) return null;
  const next = toks[at + 1];
  const ones = next && !next.sep ? CardinalUnderTwenty.get(next.w) : undefined;
  return ones !== undefined && ones < 10 ? [tens + ones, 2] : [tens, 1];
}

/** A number under a thousand written in words at toks[at] (`TWO HUNDRED FIVE`): its value and words, or null. */
function numberInWords(toks: readonly Token[], at: number): [value: number, words: number] | null {
  const head = wordsUnderHundred(toks, at);
  if (!head) return null;
  const hundred = toks[at + head[1]];
  if (!hundred || hundred.sep || hundred.w !== 'HUNDRED' || head[0] >= 10) return head;
  const rest = toks[at + head[1] + 1]?.sep ? null : wordsUnderHundred(toks, at + head[1] + 1);
  return rest ? [head[0] * 100 + rest[0], head[1] + 1 + rest[1]] : [head[0] * 100, head[1] + 1];
}

/**
 * A unit's number written in words after its designator (`APT FOUR`, `SUITE TWO HUNDRED`, `# ONE`): in figures, as
 * Pub 28 writes secondary numbers (the words were a note, the unit lost).
 */
export function unitNumberWordsInFigures(toks: Token[]): void {
  for (let k = 0; k + 1 < toks.length; k++) {
    if (toks[k + 1].sep || (toks[k].w !== '#' && !NUMBERED_DESIGNATORS.has(toks[k].w))) continue;
    const number = numberInWords(toks, k + 1);
    if (number) toks.splice(k + 1, number[1], makeToken(String(number[0]), false));
  }
}

/**
 * How deep a unit lies: a building holds floors, a floor holds suites and rooms; a private mailbox, a department or
 * a mail stop is outermost (it names who inside the firm, not where).
 */
export function unitDepth(designator: string): number {
  // A bare `#` after a designated unit (`SUITE 1515 ACCT # 4398032`) is a note rather than a deeper unit.
  return OUTER_UNITS.has(designator) ? 0 : designator === 'BLDG' ? 1 : designator === 'FL' ? 2 : designator === '#' ? 2.9 : 3;
}

const OUTER_UNITS: ReadonlySet<string> = new Set(['PMB', 'DEPT', 'MSC', 'MS', 'FILE', 'BIN', 'REF', 'SCB', 'MAILBOX', 'LOCKBOX', 'DRAWER', ...TwoWordMailStops]);

/** The two-word mail stop at k with its number after it (`MAIL CODE 5021`), or undefined. */
function mailStopAt(toks: readonly Token[], k: number, end: number): string | undefined {
  if (k + 2 >= end || !toks[k + 2].unitId || !toks[k + 2].digit) return undefined;
  const words = `${toks[k].w} ${toks[k + 1].w}`;
  return TwoWordMailStops.has(words) ? words : undefined;
}

/** Pub 28 keeps the innermost unit on the line (STE 120 inside BLDG 100), whatever order it was written in. */
export function keepInnermost(line: DeliveryLine, found: readonly Secondary[]): void {
  if (found.length === 0) return;
  let last = found[found.length - 1];
  // (Of two as deep, the one with a number: `APT 4 REAR` is apartment 4, at the rear.)
  for (const f of found) {
    const deeper = unitDepth(f.designator) - unitDepth(last.designator);
    if (deeper > 0 || (deeper === 0 && last.number === null && f.number !== null)) last = f;
  }
  line.secondaryDesignator = last.designator;
  line.secondaryNumber = last.number;
  line.extraSecondaries = found.filter((f) => f !== last).sort((a, b) => unitDepth(a.designator) - unitDepth(b.designator));
}

/** A designator that takes a number at toks[at], and its number after it (`STE A8`), before `end`. */
function designatedUnitAt(toks: readonly Token[], at: number, end: number): boolean {
  return at + 1 < end && UnitDesignatorTable.get(toks[at].w)?.requiresNumber === true && toks[at + 1].unitId;
}

/** The secondary units at [at, end): Pub 28 C2 designators, `#`, floors written as ordinals, a bare number. */
export function readSecondaries(toks: readonly Token[], at: number, end: number, line: DeliveryLine, textEnds = false): void {
  const found: Secondary[] = [];
  let k = at;
  while (k < end) {
    const w = toks[k].w;
    const designator = UnitDesignatorTable.get(w);
    const ordinal = ORDINAL_NUMBER.exec(w)?.[1] ?? OrdinalWords.get(w) ?? (/^\d{1,3}$/.test(w) ? w : undefined);
    if ((w === '#' || designator?.requiresNumber) && designatedUnitAt(toks, k + 1, end)) {
      // `#APT 3`, `APT STE A8`, `APT APT B` (a form's label before the unit as typed): the unit's own designator says
      // what it is.
      k += 1;
    } else if (w === '#' || (NUMBER_WORDS.has(w) && k + 2 === end && toks[k + 1].digit && toks[k + 1].unitId)) {
      // `#` (Pub 28 section 214), and `NO 5` at the end of the line, which is the same.
      const id = toks[k + 1]?.w;
      // `# R 16` ending the line is unit R16.
      const letterAndNumber = k + 3 === end ? letterAndNumberUnit(id, toks[k + 2].w) : null;
      if (letterAndNumber) {
        found.push({ designator: '#', number: letterAndNumber });
        k += 3;
      } else if (k + 1 < end && toks[k + 1].unitId) {
        found.push({ designator: '#', number: id });
        k += 2;
      } else {
        line.leftover.push(w);
        k += 1;
      }
    } else if (ordinal && k + 1 < end && UnitDesignatorTable.get(toks[k + 1].w)?.abbreviation === 'FL') {
      found.push({ designator: 'FL', number: ordinal });
      k += 2;
    } else if (designator?.requiresNumber && k + 2 < end && ORDINAL_NUMBER.test(toks[k + 1].w) && UnitDesignatorTable.get(toks[k + 2].w)?.abbreviation === 'FL') {
      // `APT 2ND FLOOR`: a floor, the form's label before it.
      k += 1;
    } else if (designator) {
      let next = k + 1;
      // `APT # 5`, `APARTMENT NO 5`, `APT NO B`.
      if (next < end && (toks[next].w === '#' || (NUMBER_WORDS.has(toks[next].w) && next + 1 < end && toks[next + 1].unitId))) next++;
      // A penthouse takes no number in Pub 28, but buildings number theirs (`PH 2`, `PH A`).
      const numbered = designator.requiresNumber || (designator.abbreviation === 'PH' && next === end - 1 && toks[next].w.length <= 3);
      if (numbered && next < end && toks[next].unitId) {
        let number = toks[next].w;
        k = next + 1;
        // `APT 13 C` at the end of the line is unit 13C.
        if (k === end - 1 && /^[A-Z]$/.test(toks[k].w) && /^\d+$/.test(number)) number += toks[k++].w;
        found.push({ designator: designator.abbreviation, number });
      } else {
        found.push({ designator: designator.abbreviation, number: null });
        k = next;
        if (k < end && toks[k].w === 'LEVEL') k++;
      }
    } else if (w === 'ST' && (k === at || found.length > 0) && k + 1 < end && toks[k + 1].digit && toks[k + 1].unitId) {
      // Only a suite can stand where a unit starts or after another unit (see secondaryStart).
      found.push({ designator: 'STE', number: toks[k + 1].w });
      k += 2;
    } else if (found.length === 0 && k === at && toks[k].unitId && (toks[k].digit || (k === end - 1 && w.length <= 2 && w !== 'NO' && !RECIPIENT_MARKERS.has(w)))) {
      // Pub 28 section 214: a unit number with no designator is written after `#`; a letter after it is part of it
      // (`106 D` is 106D).
      const letter = k === end - 2 && toks[k].digit && /^[A-Z]$/.test(toks[k + 1].w) && !DirectionalTable.has(toks[k + 1].w);
      found.push({ designator: '#', number: letter ? w + toks[k + 1].w : w });
      k += letter ? 2 : 1;
    } else if (mailStopAt(toks, k, end)) {
      found.push({ designator: mailStopAt(toks, k, end)!, number: toks[k + 2].w });
      k += 3;
    } else if (PrivateUnitWords.has(w) && k + 1 < end && (toks[k + 1].unitId || toks[k + 1].w === '#')) {
      // Mail stops after the street or box (`MSC 24`, `FILE 73484`, `MAILBOX 2825`).
      const id = toks[k + 1].w === '#' ? k + 2 : k + 1;
      if (id < end && toks[id].unitId) found.push({ designator: PrivateUnitWords.get(w)!, number: toks[id].w });
      k = id + 1;
    } else if (RECIPIENT_MARKERS.has(w)) {
      // `STE D ATTN MR JOHN POOLE`: the attention line ends the delivery line; it is not an address part.
      line.attention = joinWords(toks, k, end);
      break;
    } else {
      line.leftover.push(w);
      k += 1;
    }
  }
  if (found.length === 0) return;
  // `# 23 SE`, `4 N` ending the whole text: the directional belongs to the unit number (before a city it would
  // start the city: `# 4H NORTH BAY VILLAGE`).
  const lastFound = found[found.length - 1];
  if (textEnds && lastFound.number && line.leftover.length === 1 && DirectionalTable.has(line.leftover[0]) && toks[end - 1].w === line.leftover[0]) {
    lastFound.number += ` ${line.leftover.pop()}`;
  }
  keepInnermost(line, found);
}

/** Where the secondary part of a street line starts, or `end`. */
export function secondaryStart(toks: readonly Token[], nameStart: number, end: number, country: 'US' | 'CA' | null): number {
  for (let k = nameStart + 1; k < end; k++) {
    const w = toks[k].w;
    if ((w === '#' && toks[k - 1].w !== 'CODE') || RECIPIENT_MARKERS.has(w)) return k;
    if (NUMBER_WORDS.has(w) && k + 2 === end && toks[k + 1].digit && toks[k + 1].unitId) return k;
    if ((PrivateUnitWords.has(w) && k + 1 < end && toks[k + 1].unitId && toks[k + 1].digit) || mailStopAt(toks, k, end)) return k;
    const next = toks[k + 1]?.w;
    const prev = toks[k - 1].w;
    // `BONHOMME AVE ST 1400`, `BOUNDARY TER, ST 2`: ST after a complete street and before a number is the suite. A
    // street type alone after a directional is no complete street but the name (`E UNION ST 14`: Union Street, unit 14).
    if (w === 'ST' && k - 1 > nameStart && k + 1 < end && toks[k + 1].digit && toks[k + 1].unitId &&
      ((suffixOf(prev, country) && !(k - 2 === nameStart && directionalOf(toks[nameStart].w, country))) || directionalOf(prev, country))) {
      return k;
    }
    const designator = UnitDesignatorTable.get(w);
    if (designator) {
      // (Right after the number and a directional, with a street type after it, the word is the street's name: `300 E
      // KEY ST 7`, `12 W PIER AVE`; a unit there would leave the street without one.)
      const nameFirst = k - 1 === nameStart && directionalOf(toks[nameStart].w, country) !== undefined && k + 1 < end && StreetSuffixTable.has(next);
      const nextIsSuffix = k + 1 < end && suffixOf(next, country) !== undefined && !toks[k + 1].unitId;
      if (nextIsSuffix || nameFirst) continue;
      if (designator.requiresNumber) {
        if (k + 1 < end && (next === '#' || toks[k + 1].unitId || (NUMBER_WORDS.has(next) && toks[k + 2]?.unitId))) return k;
        // `APT STE A8`, `APT APT B`: a form's label before the unit as typed.
        if (designatedUnitAt(toks, k + 1, end)) return k;
        // `DORCHESTER PL NE UNIT`: the designator alone at the end still marks a unit.
        if (k + 1 === end && k - 1 > nameStart && (suffixOf(toks[k - 1].w, country) || directionalOf(toks[k - 1].w, country))) return k;
      } else if (k + 1 === end || next === 'LEVEL' || next === '#' || (designator.abbreviation === 'PH' && k + 2 === end && toks[k + 1].unitId && next.length <= 3)) {
        return k;
      } else if (k - 1 > nameStart && (suffixOf(prev, country) || directionalOf(prev, country)) && designatedUnitAt(toks, k + 1, end)) {
        // `APPLEGATE LN REAR APT 4`: a unit without a number before a numbered one, after a complete street.
        return k;
      }
    }
    if ((ORDINAL_NUMBER.test(w) || OrdinalWords.has(w) || /^\d{1,3}$/.test(w)) && k + 1 < end && UnitDesignatorTable.get(next)?.abbreviation === 'FL') {
      return k;
    }
    // An identifier after a comma and before a designated unit (`PEACHTREE DUNWOODY, B-17, STE 200`) is a unit too.
    if (toks[k].sep && toks[k].digit && toks[k].unitId && !toks[k].number && k + 1 < end && UnitDesignatorTable.get(next)?.requiresNumber) return k;
    // A bare unit number right after the suffix or post-directional (`DR 136`, `RD, 106 D`).
    const lastOrBeforeUnit = k === end - 1 || next === '#' || UnitDesignatorTable.has(next) || (k === end - 2 && (DirectionalTable.has(next) || /^[A-Z]$/.test(next)));
    if (toks[k].digit && toks[k].unitId && k - 1 > nameStart && lastOrBeforeUnit && (suffixOf(prev, country) || directionalOf(prev, country))) {
      return k;
    }
    // A last single letter after the suffix (`SUMMIT CT B`) is a unit.
    const nameWordsBefore = k - 1 - nameStart - (directionalOf(toks[nameStart].w, country) ? 1 : 0);
    const shortWord = w.length === 1 || (w.length === 2 && w !== 'NO' && !RECIPIENT_MARKERS.has(w) && !isStreetWord(w) && !RegionByName.has(w) && !HIGHWAYS_BY_FIRST_WORD.has(w));
    // … also after the post-directional of a street with a suffix (`10TH AVE SW A`).
    const streetEndsBefore = suffixOf(prev, country) || (directionalOf(prev, country) && k - 2 > nameStart && suffixOf(toks[k - 2].w, country));
    if (k === end - 1 && nameWordsBefore > 0 && shortWord && /^[A-Z]{1,2}$/.test(w) && streetEndsBefore &&
      // … but not the letter of a lettered county road (`COUNTY ROAD A`); `QUACCO ROAD A` is a unit.
      !suffixOf(w, country) && !directionalOf(w, country) && !(HIGHWAY_LAST_WORDS.has(prev) && HIGHWAYS_BY_FIRST_WORD.has(toks[k - 2].w))) {
      return k;
    }
    // A last word that is a plain number after a name (`1020 W BRYN MAWR 211`) is a unit too (not a gate code's).
    const lastOrBeforeDirectional = k === end - 1 || (k === end - 2 && DirectionalTable.has(next));
    if (lastOrBeforeDirectional && !directionalOf(prev, country) && toks[k].unitId && toks[k].digit && !ORDINAL_NUMBER.test(w) && prev !== 'CODE' && !(prev === '#' && toks[k - 2]?.w === 'CODE')) {
      return k;
    }
  }
  return end;
}

/** The most words a building name written between units and the delivery line is looked through. */
const LONGEST_BUILDING_NAME = 4;

/** The designators of a home's unit: an apartment, a unit, a lot, a trailer, a space, or the sign. */
export const HOME_UNITS: ReadonlySet<string> = new Set(['APT', 'UNIT', 'LOT', 'TRLR', 'SPC', '#']);

/**
 * Units written before the delivery line (unitsAt), or before a building name just before it (`14TH FLOOR L & C TOWER
 * 401 CHURCH ST`): the units, where they start, and the building name between.
 */
export function unitsBefore(toks: readonly Token[], start: number): { units: Secondary[]; from: number; building?: string } {
  const direct = unitsAt(toks, start);
  if (direct.units.length || start < 3 || !BuildingWords.has(toks[start - 1].w)) return direct;
  for (let b = start - 2; b >= Math.max(1, start - 1 - LONGEST_BUILDING_NAME) && !toks[b].digit; b--) {
    // (A name starts with a word: `FLOOR L & C TOWER` is no unit L before the building `& C TOWER`.)
    const found = /^[A-Z]/.test(toks[b].w) ? unitsAt(toks, b) : direct;
    if (found.units.length) return { ...found, building: joinWords(toks, b, start) };
    if (toks[b].sep) break;
  }
  return direct;
}

/** `DEPT 33629`, `LOCKBOX # 4987`, `REF NO 24385309`, `4TH FLOOR` just before `start`, outermost first, and where they
 * start. */
function unitsAt(toks: readonly Token[], start: number): { units: Secondary[]; from: number } {
  // Several may stand there (`SUITE 200, BUILDING 17, 7000 …`).
  const found: Secondary[] = [];
  let end = start;
  if (end >= 2 && UnitDesignatorTable.get(toks[end - 1].w)?.abbreviation === 'FL' && isFloorNumber(toks[end - 2].w)) {
    found.push({ designator: 'FL', number: ORDINAL_NUMBER.exec(toks[end - 2].w)?.[1] ?? OrdinalWords.get(toks[end - 2].w) ?? toks[end - 2].w });
    end -= 2;
    // Units in an attention group before it are not the delivery line's (`ATTN DEPT # 528, 4TH FLOOR 300 …`).
    if (toks[end].sep && attentionGroupBefore(toks, end)) return { units: found, from: end };
  }
  while (end >= 2 && toks[end - 1].unitId) {
    let k = end - 2;
    if (k >= 1 && (toks[k].w === '#' || toks[k].w === 'NO')) k--;
    const word = toks[k].w;
    let designator = UnitDesignatorTable.get(word)?.requiresNumber ? UnitDesignatorTable.get(word)!.abbreviation
      : word === '#' ? '#' : PrivateUnitWords.get(word);
    if (!designator && k >= 1 && mailStopAt(toks, k - 1, end + 1)) designator = mailStopAt(toks, --k, end + 1);
    if (!designator) break;
    found.unshift({ designator, number: toks[end - 1].w });
    end = k;
    if (toks[k].sep && attentionGroupBefore(toks, k)) break;
  }
  // A unit alone in the first comma group (`203, 1267 MARTIN ST`, `B, 74 SPRINGFIELD ST`): an address's second line
  // typed first. Without its designator, Pub 28 writes it with # (section 213).
  // So is a letter alone before the house number without the comma (`B 74 SPRINGFIELD ST`, `A-D 243 NEW STATE RD`),
  // not a directional (`N 123 …` is no unit).
  if (!found.length && end === 1 && start === 1 && toks[0].unitId && toks[1].number &&
    (toks[1].sep || (LONE_LETTER_UNIT.test(toks[0].w) && !DirectionalTable.has(toks[0].w)))) {
    found.push({ designator: '#', number: toks[0].w });
    end = 0;
  }
  // … and Berkeley's rear units so (`#R 16, 2414 PARKER ST`, with the comma or without: unit R16, as at the line's end).
  const rearUnit = !found.length && end === 3 && start === 3 && toks[3].number && toks[0].w === '#'
    ? letterAndNumberUnit(toks[1].w, toks[2].w) : null;
  if (rearUnit) {
    found.push({ designator: '#', number: rearUnit });
    end = 0;
  }
  return { units: found, from: end };
}

/**
 * A unit at the very end, after a US ZIP or a Canadian postal code (`02108 APT 4`, `02108 # 4`, `M5V 2T6 UNIT 12`):
 * the unit and where it starts; null when the text does not end so.
 */
export function unitAfterPostalCode(toks: readonly Token[], end: number): { unit: Secondary; from: number } | null {
  if (end < 4 || !toks[end - 1].unitId) return null;
  let from = end - 2;
  let designator = toks[from].w === '#' ? '#' : UnitDesignatorTable.get(toks[from].w)?.requiresNumber ? UnitDesignatorTable.get(toks[from].w)!.abbreviation : null;
  // `APT # 4`: the designator before the #.
  if (designator === '#' && from >= 1 && UnitDesignatorTable.get(toks[from - 1].w)?.requiresNumber) {
    designator = UnitDesignatorTable.get(toks[--from].w)!.abbreviation;
  }
  if (!designator || from < 2) return null;
  const last = toks[from - 1].w;
  const postalCodeBefore = US_ZIP.test(last) || CA_POSTAL.test(last) || (/^\d[A-Z]\d$/.test(last) && /^[A-Z]\d[A-Z]$/.test(toks[from - 2].w));
  return postalCodeBefore ? { unit: { designator, number: toks[end - 1].w }, from } : null;
}
