/**
 * US and Canadian address parser: messy one-line (or multi-line) text -> the components of CONTRACT §3.
 *
 * The last line is read from the right (country, postal code, state or province), the delivery line from the left
 * (number, directional, name, suffix, unit). Where the street ends and the city begins is decided by scoring every
 * split: how cleanly the delivery line ends (Pub 28 suffix, unit, highway number), whether the rest is a known city of
 * the state (GeoNames, through PostalIndex), and whether a comma stands there.
 */
import { type PostalIndex, type ZipPlace, cityKey, cityWordKey, lettersOf, oneTypingSlipApart, streetTypesOneSlipFrom, wordOneSlipFrom } from './postal-index.js';
import { houseNumberAfterSpanishStreet, readFrenchWords, readInstallation, readSpanishUnitWords, shipNameStart, siteAndCompartment, takeUrbanization } from './regional-forms.js';
import { PRIMARY_NUMBER, type Token, UNIT_ID, hasNonLatinLetters, joinWords, letterAndNumberUnit, makeToken, tokenizeAddress } from './tokenize.js';
import {
  CanadianProvinces,
  CanadianStreetTypeAfter,
  CanadianStreetTypeBefore,
  DirectionalTable,
  FrenchDirectionalTable,
  HighwayPrefixTable,
  LONGEST_REGION_NAME_WORDS,
  NumberWords,
  CardinalUnderTwenty,
  CardinalTens,
  NorthAmericanCountryNames,
  BuildingWords,
  EstateNameEnds,
  IntersectionLeads,
  OrdinalStreetNames,
  RURAL_ROUTE_ONLY_WITH_BOX,
  RouteModifiers,
  PrivateUnitWords,
  OrdinalWords,
  MilitaryPostOffices,
  MilitaryStates,
  PoBoxPrefixes,
  RegionByName,
  StateRoutesByFirstWord,
  LongStateNames,
  SpanishStreetTypes,
  StateAbbreviationsThatAreWords,
  CanadianInstallationTypes,
  RuralRoutePrefixes,
  StreetSuffixTable,
  TwoWordMailStops,
  UnitDesignatorTable,
  byFirstWord,
  UsStateNames,
} from './tables.js';

export type DeliveryKind =
  | 'street' | 'highway' | 'intersection' | 'po_box' | 'rural_route' | 'highway_contract' | 'military' | 'general_delivery' | 'none';

export interface DeliveryLine {
  kind: DeliveryKind;
  primaryNumber: string | null;
  predirection: string | null;
  name: string | null;
  suffix: string | null;
  /** Canadian French street types stand before the name (RUE SAINT-DENIS). */
  suffixBeforeName: boolean;
  postdirection: string | null;
  secondaryDesignator: string | null;
  secondaryNumber: string | null;
  /**
   * Further secondary units (BLDG 300 and FL 3 beside STE 120), outermost first: Pub 28 keeps only the innermost on
   * the delivery line (secondaryDesignator, secondaryNumber); the others are kept here.
   */
  extraSecondaries: Secondary[];
  /** Words that fit no part (notes), dropped from the answer. */
  leftover: string[];
  /** A building name written between the street and the unit (`TOWER PLACE`), dropped from the answer. */
  building: string | null;
  /** An attention line written after the delivery line (`ATTN MR JOHN POOLE`), dropped from the answer. */
  attention: string | null;
  /** Canada Post delivery installation after a box, route or general delivery (`STN MAIN`, `SUCC CENTRE-VILLE`). */
  installation: string | null;
  /** 2: ends as a street should (suffix, unit, route number, box); 1: a bare name; lower with leftovers. */
  quality: number;
  /** The street as typed when a misspelt state's name was read as that state's route (`VEROMNT 113`), else null. */
  nameTyped: string | null;
}

export interface ParsedAddress extends DeliveryLine {
  country: 'US' | 'CA' | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  plus4: string | null;
  /** Text before the delivery line (recipient, firm or building name), dropped. */
  recipient: string | null;
  /** Words after the ZIP code (a firm or note written last), dropped. */
  trailing: string | null;
  /** The ZIP as typed when it was read otherwise (`4O219`, the letter O for a zero), else null. */
  postalCodeTyped: string | null;
  /** The state as typed when it was a misspelt name read as the ZIP's state (`CALIFRONIA`), else null. */
  stateTyped: string | null;
  /** The county written before the state (`JEFFERSON COUNTY`, `…, JEFFERSON, KY`), dropped; else null. */
  county: string | null;
  /**
   * A complete delivery line written before the one used (`3523 WILLIAMS ST, POB 477`): Pub 28 delivers to the line
   * just above the city, so the earlier one is kept apart (it is part of `recipient`).
   */
  otherLine: DeliveryLine | null;
  /** Puerto Rico's urbanization (`LAS GLADIOLAS` of `URB LAS GLADIOLAS`): the development the street is in. */
  urbanization: string | null;
  nonLatin: boolean;
  tokenCount: number;
  /**
   * A milepost or kilometre marker that locates an address on a road with no house number (`MILE 15.5 STERLING HWY`,
   * Puerto Rico's `CARR 2 KM 15.5`): it stands as the primary number; `afterStreet` when it was written after the road.
   */
  milepost?: { text: string; afterStreet: boolean } | null;
}

const US_ZIP = /^(\d{5})(?:-?(\d{4}))?$/;
const CA_POSTAL = /^([A-Z]\d[A-Z])-?(\d[A-Z]\d)$/;
const FRACTION = /^\d\/\d{1,2}$/;
const ORDINAL_NUMBER = /^(\d+)(ST|ND|RD|TH)$/;
const HAS_DIGIT = /\d/;
/** Figures where a ZIP goes that are no ZIP: a digit dropped or doubled, two ZIPs run together. */
const MALFORMED_ZIP = /^(\d{3,4}|\d{6,10})$|^\d{3,6}-\d{3,5}$/;
/**
 * Two to four letters and figures, both present: half a Canadian postal code, maybe mistyped or cut short (`2TX`,
 * `M5`V, `2N`).
 */
const MALFORMED_POSTAL_HALF = /^(?=.*\d)(?=.*[A-Z])[A-Z0-9]{2,4}$/;
/**
 * Four to seven letters and figures, both present, at least two figures: a Canadian postal code, maybe mistyped or cut
 * short (`M5V2TX`, `M5H2N`).
 */
const MALFORMED_POSTAL_CODE = /^(?=(?:.*\d){2})(?=.*[A-Z])[A-Z0-9]{4,7}$/;

/** Unit designators that take a number, by each way of writing them, for a misspelt one. */
const NUMBERED_DESIGNATORS: ReadonlyMap<string, string> = new Map(
  [...UnitDesignatorTable].filter(([, d]) => d.requiresNumber).map(([w, d]) => [w, d.abbreviation]),
);

/**
 * A unit designator misspelt by one slip between a street type or directional and the unit's number (`MAIN STREET APPT
 * 5`, `SUTIE 500`, `APARTMNET 5`): written as the designator, in place.
 */
function respellUnitDesignators(toks: Token[]): void {
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
function unitNumberWordsInFigures(toks: Token[]): void {
  for (let k = 0; k + 1 < toks.length; k++) {
    if (toks[k + 1].sep || (toks[k].w !== '#' && !NUMBERED_DESIGNATORS.has(toks[k].w))) continue;
    const number = numberInWords(toks, k + 1);
    if (number) toks.splice(k + 1, number[1], makeToken(String(number[0]), false));
  }
}

/** Particles inside names (`P DE LEON`, `J VAN DYKE`): an initial before one is part of the name. */
const NAME_PARTICLES: ReadonlySet<string> = new Set(['DE', 'DEL', 'DELA', 'DI', 'DU', 'LA', 'LE', 'LAS', 'LOS', 'VAN', 'VON', 'DER']);

/** Words that stand for `#` before a number (`UNIT NO 5`, `NUM 203`). */
const NUMBER_WORDS: ReadonlySet<string> = new Set(['NO', 'NUMBER', 'NUM', 'NBR']);
/** No entries: what a by-first-word table gives for most words, without a new empty array each time. */
const NONE: readonly never[] = [];
/** Street types that name a numbered road when a number follows them alone (`ROAD 97`), each as the name writes it. */
const NUMBERED_ROAD_WORDS: ReadonlyMap<string, string> = new Map([['ROAD', 'ROAD'], ['RD', 'ROAD'], ['AVENUE', 'AVENUE'], ['AVE', 'AVENUE']]);
/** Country names that may stand before a postal code (two-letter codes would be states there). */
const COUNTRY_NAMES_BEFORE_POSTAL_CODE = NorthAmericanCountryNames.filter(([words]) => words.join('').length > 2);
const HIGHWAYS_BY_FIRST_WORD = byFirstWord(HighwayPrefixTable);
const RURAL_ROUTES_BY_FIRST_WORD = byFirstWord(RuralRoutePrefixes);
const PO_BOXES_BY_FIRST_WORD = byFirstWord(PoBoxPrefixes.map((words) => [words] as const));
/** Last words of highway names (HWY, ROUTE, ROAD …): a number after one is a route number, not a house number. */
const HIGHWAY_LAST_WORDS = new Set(HighwayPrefixTable.map(([words]) => words[words.length - 1]));
/** A city has at most this many words (TERRITOIRES DU NORD OUEST, LAKE IN THE HILLS). */
const MAX_CITY_WORDS = 5;

function matchSequence(toks: readonly Token[], at: number, end: number, words: readonly string[]): boolean {
  if (at + words.length > end) return false;
  for (let k = 0; k < words.length; k++) if (toks[at + k].w !== words[k]) return false;
  return true;
}

function directionalOf(word: string, country: 'US' | 'CA' | null): string | undefined {
  return DirectionalTable.get(word) ?? (country === 'CA' ? FrenchDirectionalTable.get(word) : undefined);
}

function suffixOf(word: string, country: 'US' | 'CA' | null): string | undefined {
  return country === 'CA' ? CanadianStreetTypeAfter.get(word) : StreetSuffixTable.get(word);
}

function isStreetWord(word: string): boolean {
  return StreetSuffixTable.has(word) || DirectionalTable.has(word) || UnitDesignatorTable.has(word);
}

/**
 * A letter and a number ending the line name a lettered road (`4715 F 41`: Michigan's county road F-41, lettered A to
 * H); `I 95` is the interstate.
 */
function letteredRoad(toks: readonly Token[], at: number, end: number, country: 'US' | 'CA' | null): boolean {
  return at + 2 === end && /^[A-HJ-Z]$/.test(toks[at].w) && !directionalOf(toks[at].w, country) && /^\d+$/.test(toks[at + 1].w);
}

/** Where the comma group ending before `at` starts (0 at the text's start; -1 when `at` is 0). */
function groupStartBefore(toks: readonly Token[], at: number): number {
  let g = at - 1;
  while (g > 0 && !toks[g].sep) g--;
  return g;
}

/** True when the comma group ending before `at` starts with ATTN, C/O … */
function attentionGroupBefore(toks: readonly Token[], at: number): boolean {
  const j = groupStartBefore(toks, at);
  return j >= 0 && RECIPIENT_MARKERS.has(toks[j].w);
}

function isFloorNumber(word: string): boolean {
  return ORDINAL_NUMBER.test(word) || OrdinalWords.has(word) || /^\d{1,3}$/.test(word);
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

export interface Secondary {
  designator: string;
  number: string | null;
}

/** Pub 28 keeps the innermost unit on the line (STE 120 inside BLDG 100), whatever order it was written in. */
function keepInnermost(line: DeliveryLine, found: readonly Secondary[]): void {
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
function readSecondaries(toks: readonly Token[], at: number, end: number, line: DeliveryLine, textEnds = false): void {
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
function secondaryStart(toks: readonly Token[], nameStart: number, end: number, country: 'US' | 'CA' | null): number {
  for (let k = nameStart + 1; k < end; k++) {
    const w = toks[k].w;
    if ((w === '#' && toks[k - 1].w !== 'CODE') || RECIPIENT_MARKERS.has(w)) return k;
    if (NUMBER_WORDS.has(w) && k + 2 === end && toks[k + 1].digit && toks[k + 1].unitId) return k;
    if ((PrivateUnitWords.has(w) && k + 1 < end && toks[k + 1].unitId && toks[k + 1].digit) || mailStopAt(toks, k, end)) return k;
    const next = toks[k + 1]?.w;
    const prev = toks[k - 1].w;
    // `BONHOMME AVE ST 1400`, `BOUNDARY TER, ST 2`: ST after a complete street and before a number is the suite.
    if (w === 'ST' && k - 1 > nameStart && k + 1 < end && toks[k + 1].digit && toks[k + 1].unitId && (suffixOf(prev, country) || directionalOf(prev, country))) {
      return k;
    }
    const designator = UnitDesignatorTable.get(w);
    if (designator) {
      const nextIsSuffix = k + 1 < end && suffixOf(next, country) !== undefined && !toks[k + 1].unitId;
      if (nextIsSuffix) continue;
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

/**
 * Where a building name written after the street starts (`PEACHTREE RD NE TOWER PLACE`, `8TH ST, WEST HALL`): after
 * the first suffix (and directional) that is followed by a comma or by a building word. The name goes to
 * `line.building`; `unitAt` when there is none. Also whether only the known place after the line closed the name (a
 * note read so is believed a little less than a longer name of the place).
 */
function buildingStart(
  toks: readonly Token[], from: number, unitAt: number, end: number, country: 'US' | 'CA' | null, line: DeliveryLine, placeAfter: boolean,
): [at: number, closedByPlace: boolean] {
  for (let k = from + 1; k < unitAt - 1; k++) {
    if (!suffixOf(toks[k].w, country)) continue;
    let after = k + 1;
    // `RD, NE TOWER PLACE`: an abbreviated directional after the comma is the street's; `ST, WEST HALL` names a hall.
    if (after < unitAt - 1 && directionalOf(toks[after].w, country) && (!toks[after].sep || toks[after].w.length <= 2)) after++;
    if (after >= unitAt) return [unitAt, false];
    // A suffix right after is the street's own (`MEDICAL CENTER BLVD`, `LINDBERGH PLAZA CENTER`).
    if (suffixOf(toks[after].w, country)) continue;
    // A PO Box after the street (`6007 APPLEGATE LN, PO BOX 456`) is another delivery line, no building's name.
    if (matchPoBox(toks, after, toks.length) >= 0) return [unitAt, false];
    let namesBuilding = endsWithEstateName(toks, after, unitAt);
    for (let b = after; b < unitAt && !namesBuilding; b++) namesBuilding = BuildingWords.has(toks[b].w);
    // `STRAWBERRY HILL AVE THE FAIRFIELD`: a name starting with THE is a building; so is a name of two words or more
    // ending like a street, between a street with a name and a comma (`ASHBOURNE RD LYNNEWOOD GARDENS, ELKINS PARK`).
    if (toks[after].w === 'THE') namesBuilding = true;
    const namedStreetBefore = k - from >= 2 || (k - from === 1 && !directionalOf(toks[from].w, country));
    const commaAfter = unitAt < toks.length && toks[unitAt].sep;
    if (namedStreetBefore && commaAfter && unitAt - after >= 2 && suffixOf(toks[unitAt - 1].w, country) && !directionalOf(toks[unitAt - 1].w, country)) {
      namesBuilding = true;
    }
    // A note run on from a named street before the comma, the unit or a known place (`MAIN ST LEAVE AT BACK DOOR, …`,
    // `MAIN ST RING BELL APT 4`, `MAIN ST LEAVE AT DOOR SPRINGFIELD IL`). (A lettered street is named too: `S ST NW
    // LEAVE AT BACK DOOR`, Washington's S Street; so is a directional's word before a common type, `EAST ST`.)
    const groupEnds = groupEndsAt(toks, unitAt);
    let closedByPlace = false;
    const oneWordNamed = k - from === 1 &&
      ((toks[from].w.length === 1 && suffixOf(toks[k].w, country) === 'ST') || (toks[from].w.length > 2 && COMMON_STREET_TYPES.has(suffixOf(toks[k].w, country) ?? '')));
    if (!namesBuilding && (namedStreetBefore || oneWordNamed) && (groupEnds || (placeAfter && unitAt === end)) && unitAt - after >= 2 &&
      !toks[after].sep) {
      namesBuilding = isRunOnNote(toks, after, unitAt, country);
      closedByPlace = namesBuilding && !groupEnds;
    }
    // After a comma, words are a building unless they are a directional or another street (`55 BROADWAY`).
    const building = namesBuilding || (toks[after].sep && !toks[after].number && !directionalOf(toks[after].w, country));
    if (!building) continue;
    line.building = joinWords(toks, after, unitAt);
    return [after, closedByPlace];
  }
  return [unitAt, false];
}

/** The words from `at` on start a new group: the text ends, or a comma, a unit designator or `#` stands there. */
function groupEndsAt(toks: readonly Token[], at: number): boolean {
  return at === toks.length || toks[at].sep || UnitDesignatorTable.has(toks[at].w) || toks[at].w === '#';
}

/**
 * toks[from, to) are a delivery note run on from the street (`LEAVE AT BACK DOOR`): two words of three letters or more,
 * ending with one, and no street type, directional, figure or lone letter (a unit: `BLUE HOUSE B`, Berkeley's `R C`)
 * among them; but a figure after an access code's word (`GATE CODE 1234`, `BUZZER # 12`).
 */
function isRunOnNote(toks: readonly Token[], from: number, to: number, country: 'US' | 'CA' | null): boolean {
  let words = 0;
  let accessCode = false;
  for (let b = from; b < to; b++) {
    const w = toks[b].w;
    const codeFigure = accessCode && (toks[b].digit || w === '#');
    if (!codeFigure && (w.length < 2 || toks[b].digit || suffixOf(w, country) || directionalOf(w, country))) return false;
    if (!codeFigure && w.length >= 3) words++;
    accessCode ||= AccessCodeWords.has(w);
  }
  return (accessCode && toks[to - 1].digit) || (toks[to - 1].w.length >= 3 && words >= 2);
}

/** toks[from, to) end with an estate's or a centre's name (`… INDUSTRIAL PARK`), with at least one word before it. */
function endsWithEstateName(toks: readonly Token[], from: number, to: number): boolean {
  return to - from >= 3 && EstateNameEnds.has(`${toks[to - 2].w} ${toks[to - 1].w}`);
}

/** Highway or route at `at`: the standard spelling and how many words it used, or null. */
function matchHighway(
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
function stateRouteAt(toks: readonly Token[], at: number, end: number): { name: string; length: number } | null {
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

/**
 * How well a street line reads: `base` 2 when it ends as a street should, less for each word left over. Words after
 * a designated unit (`STE 110 BURNS PROF BLG`) are notes and cost little; elsewhere they break the line.
 */
function lineQuality(line: DeliveryLine, base: number): number {
  const afterUnit = line.secondaryNumber !== null && line.secondaryDesignator !== '#' && base === 2;
  // (A PO Box left over after the unit is no note: it is the delivery line nearer the city, `… APT B, PO BOX 456`.)
  const left = line.leftover.length;
  const cheap = afterUnit && (left === 0 || left > 5 || matchPoBox(line.leftover.map((w) => makeToken(w, false)), 0, left) !== left - 1);
  return base - (cheap ? 0.3 : 1) * left - (line.primaryNumber ? 0 : 1) - (impossibleName(line.name) ? 2 : 0);
}

/** A street name no street has: a sign alone (`37 #`, `4 &`) or a unit designator that takes a number (`5 SUITE 704`). */
function impossibleName(name: string | null): boolean {
  return name !== null && (!/[A-Z0-9]/.test(name) || UnitDesignatorTable.get(name)?.requiresNumber === true);
}

/** The extraSecondaries of a line without them, shared (lines replace the array, never push to it). */
const NO_SECONDARIES: Secondary[] = [];

function emptyLine(): DeliveryLine {
  return {
    kind: 'none', primaryNumber: null, predirection: null, name: null, suffix: null, suffixBeforeName: false,
    postdirection: null, secondaryDesignator: null, secondaryNumber: null, extraSecondaries: NO_SECONDARIES, leftover: [], attention: null, installation: null,
    building: null, quality: 0, nameTyped: null,
  };
}

function matchPoBox(toks: readonly Token[], at: number, end: number): number {
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

/** The street words of a parsed line as Pub 28 writes them (`N MAIN ST`, `RUE SAINT-DENIS`). */
function streetWords(l: DeliveryLine): string {
  const parts = [l.predirection, l.suffixBeforeName ? l.suffix : null, l.name, l.suffixBeforeName ? null : l.suffix, l.postdirection];
  let out = '';
  for (const part of parts) if (part) out = out ? `${out} ${part}` : part;
  return out;
}

/** A side of an intersection that reads as a street on its own: a route, a suffix or post-directional, a numbered street. */
function standsAsStreet(l: DeliveryLine): boolean {
  return l.leftover.length === 0 && l.building === null && l.name !== null &&
    (l.kind === 'highway' || l.suffix !== null || l.postdirection !== null || ORDINAL_NUMBER.test(l.name));
}

/** A bare name of one word, possibly after a directional (`LINCOLN`, `EAST HCKRY`). */
function oneNameWord(l: DeliveryLine): boolean {
  return l.kind === 'street' && l.leftover.length === 0 && l.primaryNumber === null && l.name !== null && !l.name.includes(' ');
}

/**
 * Two streets joined by AND, & or AT (`HWY 16 AND MINNESOTA RD NW`, `18TH AND LINCOLN`, `CORNER OF CAVE & ZERKEL STS`,
 * `US HWY 18 AND 15`): one street line naming both, `&` between them. The first must read as a street on its own
 * (or a word such as CORNER OF announce the corner), so that names like `BREAD AND BUTTER LN` stay one street.
 */
function parseIntersection(toks: readonly Token[], at: number, end: number, country: 'US' | 'CA' | null, line: DeliveryLine): boolean {
  let from = at;
  for (const words of IntersectionLeads) {
    if (matchSequence(toks, at, end, words)) {
      from = at + words.length;
      break;
    }
  }
  const announced = from > at;
  for (let j = from + 1; j < end - 1; j++) {
    const w = toks[j].w;
    if (w !== 'AND' && w !== '&' && w !== 'AT') continue;
    const first = parseDeliveryLine(toks, from, j, country, false);
    // `THE CIRCLE AT NORTH HILLS ST` is one street: a name of THE and a suffix names a place. A first side of one word
    // needs CORNER OF before it, or a numbered street or route after it (`MAIN AND 63RD`, not `BREAD AND BUTTER LN`).
    const numberedSecond = () => {
      const l = parseDeliveryLine(toks, j + 1, end, country, false);
      return l.name !== null && (l.kind === 'highway' || ORDINAL_NUMBER.test(l.name)) && l.leftover.length === 0;
    };
    const oneWordFirst = oneNameWord(first) && (announced || (w !== 'AT' && numberedSecond()));
    if (first.name === 'THE' || !(standsAsStreet(first) || oneWordFirst)) return false;
    let second: DeliveryLine;
    const routeDirection = j + 3 === end ? directionalOf(toks[j + 2].w, country) : undefined;
    if (first.kind === 'highway' && (j + 2 === end || routeDirection) && /^\d+[A-Z]?$/.test(toks[j + 1].w)) {
      // `US HWY 18 AND 15`, `RTS 1 & 24 EAST`: a second route number on the same road.
      second = { ...emptyLine(), name: toks[j + 1].w, postdirection: routeDirection ?? null };
    } else {
      second = parseDeliveryLine(toks, j + 1, end, country, false);
      const strict = w === 'AT';
      if (second.primaryNumber !== null || !(standsAsStreet(second) || (!strict && oneNameWord(second)))) return false;
    }
    line.kind = 'intersection';
    line.name = `${streetWords(first)} & ${streetWords(second)}`;
    line.secondaryDesignator = second.secondaryDesignator;
    line.secondaryNumber = second.secondaryNumber;
    line.extraSecondaries = second.extraSecondaries;
    line.quality = 2;
    return true;
  }
  return false;
}

/**
 * The delivery line in toks[at, end), every word accounted for (leftovers lower the quality); `intersections`:
 * whether two streets joined by AND may be read as a corner (not inside one side of a corner); `placeAfter`: the
 * words from `end` on are a place the data knows, which ends the line as a comma would.
 */
export function parseDeliveryLine(
  toks: readonly Token[],
  at: number,
  end: number,
  country: 'US' | 'CA' | null,
  intersections = true,
  placeAfter = false,
): DeliveryLine {
  const line = emptyLine();
  if (at >= end) return line;
  let i = at;

  // PO Box (Pub 28 section 28): `PO BOX 63`, the box number is the primary number.
  const boxId = matchPoBox(toks, i, end);
  if (boxId >= 0) {
    line.kind = 'po_box';
    line.name = 'PO BOX';
    line.primaryNumber = toks[boxId].w;
    readSecondaries(toks, readInstallation(toks, boxId + 1, end, country, line), end, line);
    line.quality = 2 - line.leftover.length;
    return line;
  }

  // Canada Post rural address: `SITE 6 COMP 10 RR 8` (site and compartment before the route, or after it).
  const siteBefore = country === 'CA' ? siteAndCompartment(toks, i, end) : null;
  if (siteBefore) i = siteBefore.next;

  // Rural route and highway contract (Pub 28 sections 24, 25): `RR 2 BOX 152`.
  for (const [words, route] of RURAL_ROUTES_BY_FIRST_WORD.get(toks[i].w) ?? NONE) {
    if (!matchSequence(toks, i, end, words)) continue;
    let k = i + words.length;
    if (k < end && toks[k].w === '#') k++;
    // `ROUTE BOX # 100`: a rural route box written without the route number.
    const numberless = route === 'RR' && k < end && toks[k].w === 'BOX';
    if (!numberless && (k >= end || !/^\d{1,4}[A-Z]{0,2}$/.test(toks[k].w))) continue;
    const routeNumber = numberless ? null : toks[k++].w;
    if (RURAL_ROUTE_ONLY_WITH_BOX.has(words[0]) && toks[k]?.w !== 'BOX' && toks[k]?.w !== 'BX') continue;
    line.kind = route === 'RR' ? 'rural_route' : route === 'HC' ? 'highway_contract' : 'military';
    line.name = routeNumber ? `${route} ${routeNumber}` : route;
    if (k < end && (toks[k].w === 'BOX' || toks[k].w === 'BX')) {
      k++;
      if (k < end && toks[k].w === '#') k++;
      if (k < end && toks[k].digit) {
        line.name += ' BOX';
        line.primaryNumber = toks[k].w;
        k++;
        // `BOX 164 A` is box 164A.
        if (k === end - 1 && /^[A-Z]$/.test(toks[k].w) && !directionalOf(toks[k].w, country)) line.primaryNumber += toks[k++].w;
      }
    }
    const siteAfter = siteBefore ?? (country === 'CA' && route === 'RR' ? siteAndCompartment(toks, k, end) : null);
    if (siteAfter) {
      line.name = `${siteAfter.text} ${line.name}`;
      if (!siteBefore) k = siteAfter.next;
    }
    readSecondaries(toks, readInstallation(toks, k, end, country, line), end, line);
    line.quality = 2 - line.leftover.length;
    return line;
  }
  if (siteBefore) i = at;

  // General delivery (Pub 28 section 26; Canada Post `GD STN MAIN`).
  const generalDelivery = matchSequence(toks, i, end, ['GENERAL', 'DELIVERY']) ? 2 : country === 'CA' && toks[i].w === 'GD' ? 1 : 0;
  if (generalDelivery) {
    line.kind = 'general_delivery';
    line.name = 'GENERAL DELIVERY';
    for (let k = readInstallation(toks, i + generalDelivery, end, country, line); k < end; k++) line.leftover.push(toks[k].w);
    line.quality = 2 - line.leftover.length;
    return line;
  }

  // Only secondary units (`BLDG 15, SUITE 100`): no street.
  if (UnitDesignatorTable.get(toks[i].w)?.requiresNumber && i + 1 < end && (toks[i + 1].unitId || toks[i + 1].w === '#')) {
    readSecondaries(toks, i, end, line);
    line.quality = -1 - line.leftover.length;
    return line;
  }

  // A house number written as a word (`ONE S WACKER DR`) is written in figures (Pub 28 section 232).
  const numberWord = NumberWords.get(toks[i].w);
  if (numberWord && end - i >= 3) {
    line.primaryNumber = numberWord;
    i++;
  }
  // Primary number, with a Canadian unit before it (`104-2701`), a fraction (`123 1/2`) or a letter (`214 B`).
  const first = toks[i].w;
  if (!numberWord && PRIMARY_NUMBER.test(first)) {
    const unitCivic = country === 'CA' ? /^([A-Z0-9]{1,6})-(\d+[A-Z]?)$/.exec(first) : null;
    if (unitCivic) {
      line.primaryNumber = unitCivic[2];
      line.secondaryDesignator = 'UNIT';
      line.secondaryNumber = unitCivic[1];
    } else if (/^[NSEW]\d+$/.test(first) && /^[NSEW]\d+$/.test(toks[i + 1]?.w ?? '') && i + 2 < end) {
      // Wisconsin grid address `W148 N9748` is one number.
      line.primaryNumber = first + toks[++i].w;
    } else {
      line.primaryNumber = first;
    }
    i++;
    if (i < end && FRACTION.test(toks[i].w)) {
      line.primaryNumber += ` ${toks[i].w}`;
      i++;
    } else if (
      i + 1 < end && /^[A-Z]$/.test(toks[i].w) && !directionalOf(toks[i].w, country) && /^\d+$/.test(first) &&
      !suffixOf(toks[i + 1].w, country) && !UnitDesignatorTable.has(toks[i + 1].w) && toks[i + 1].w !== '#' &&
      // (Nor a street type misspelt, written out: `1745 T SRTEET SE` is T Street.)
      !(toks[i + 1].w.length >= 5 && streetTypesOneSlipFrom(toks[i + 1].w).length > 0) &&
      !(/^[A-Z]$/.test(toks[i + 1].w) && !directionalOf(toks[i + 1].w, country)) && !matchHighway(toks, i, end) &&
      toks[i + 1].w !== 'AND' && toks[i + 1].w !== '&' && !(toks[i].w === 'U' && toks[i + 1].w === 'S') &&
      // `1180 P DE LEON BLVD`: an initial before a name's particle is the name's (Ponce de Leon).
      !NAME_PARTICLES.has(toks[i + 1].w) &&
      !letteredRoad(toks, i, end, country) &&
      // `1745 T SOUTHEAST,`: a lettered street with its directional, nothing more, before a comma.
      !(i + 2 === end && directionalOf(toks[i + 1].w, country) && (end === toks.length || toks[end].sep))
    ) {
      line.primaryNumber += toks[i].w;
      i++;
    }
  }
  if (line.primaryNumber && letteredRoad(toks, i, end, country)) {
    line.kind = 'street';
    line.name = `${toks[i].w} ${toks[i + 1].w}`;
    line.quality = 2;
    return line;
  }
  // `6910 # G MARY CAROLINE CIR`: a unit written between the number and the street.
  let unitAfterNumber: Secondary | null = null;
  if (line.primaryNumber && i + 2 < end && toks[i].w === '#' && toks[i + 1].unitId) {
    unitAfterNumber = { designator: '#', number: toks[i + 1].w };
    i += 2;
  }
  line.kind = 'street';
  if (i >= end) {
    line.quality = line.primaryNumber ? 0 : -1;
    return line;
  }
  if (intersections && !unitAfterNumber && parseIntersection(toks, i, end, country, line)) return line;

  // Highways and routes (US HWY 278, STATE ROUTE 690, COUNTY ROAD 5), possibly after a directional or a name word.
  for (let h = i; h < end; h++) {
    // (A unit word ends the search, but right after the number RM is Texas' ranch-to-market road, not a room.)
    if ((UnitDesignatorTable.has(toks[h].w) && h > i) || toks[h].w === '#') break;
    const highway = matchHighway(toks, h, end, h > i && !(h === i + 1 && directionalOf(toks[i].w, country)), h === i && line.primaryNumber !== null);
    if (!highway) continue;
    let after = h + highway.length;
    let nameStart = i;
    if (h > i && directionalOf(toks[i].w, country)) {
      line.predirection = directionalOf(toks[i].w, country)!;
      nameStart++;
    }
    // A route written after a complete street (`1601 ENGLEWOOD RD ROUTE 776`) is that road's other name: the street
    // is the address, the route is set aside.
    if (h - nameStart >= 2 && suffixOf(toks[h - 1].w, country)) {
      const street = parseDeliveryLine(toks, at, h, country, false);
      if (street.kind === 'street' && street.suffix && street.quality >= 2) {
        for (let k = h; k < h + highway.length; k++) street.leftover.push(toks[k].w);
        readSecondaries(toks, after, end, street);
        return street;
      }
    }
    const prefixWords = toks.slice(nameStart, h).map((t) => t.w);
    line.kind = 'highway';
    line.name = [...prefixWords, highway.name].join(' ');
    line.nameTyped = highway.typed ?? null;
    if (after < end && RouteModifiers.has(toks[after].w)) {
      line.name += ` ${RouteModifiers.get(toks[after++].w)}`;
      // `US HIGHWAY 53 BSNSS RTE N`: the business route.
      if (after < end && ROUTE_WORDS.has(toks[after].w) && (after + 1 === end || directionalOf(toks[after + 1].w, country))) {
        line.name += ' ROUTE';
        after++;
      }
    }
    // A street type right after the route number (`FM 1960 RD W`: Farm to Market 1960 Road West, as the ZIP+4 file
    // writes it) is the road's suffix.
    const typeAfter = after < end ? suffixOf(toks[after].w, country) : undefined;
    const afterType = toks[after + 1]?.w;
    if (typeAfter && (after + 1 === end || directionalOf(afterType, country) || afterType === '#' || UnitDesignatorTable.has(afterType))) {
      line.suffix = typeAfter;
      after++;
    }
    // A road named after the route (`I 49 S SERVICE RD`, `US 117 SOUTH ALT HWY`): the words up to a unit that end in
    // a street type belong to the name; not an estate's name (`RT 60 EAST ONA WEST INDUSTRIAL PARK`), set aside after
    // the route's directional.
    const unitAt = secondaryStart(toks, after, end, country);
    if (endsWithEstateName(toks, after, unitAt)) {
      if (directionalOf(toks[after].w, country)) line.postdirection = directionalOf(toks[after++].w, country)!;
      line.building = joinWords(toks, after, unitAt);
      after = unitAt;
    } else if (unitAt - after >= 2 && !toks[after].sep && (groupEndsAt(toks, unitAt) || (placeAfter && unitAt === end)) &&
      isRunOnNote(toks, after, unitAt, country)) {
      // A note after the route (`US HIGHWAY 98 LEAVE AT BACK DOOR`), before a comma, a unit or a known town.
      line.building = joinWords(toks, after, unitAt);
      after = unitAt;
    } else if (unitAt - after >= 2 && (suffixOf(toks[unitAt - 1].w, country) || HIGHWAY_LAST_WORDS.has(toks[unitAt - 1].w))) {
      line.name += ` ${joinWords(toks, after, unitAt)}`;
      after = unitAt;
    }
    if (after < end && directionalOf(toks[after].w, country)) line.postdirection = directionalOf(toks[after++].w, country)!;
    readSecondaries(toks, after, end, line);
    line.quality = lineQuality(line, 2);
    return line;
  }

  const unitAt = secondaryStart(toks, i, end, country);
  // A building's name with no house number (`FIRST UNION TOWER STE 1400`): no street (not FIRST UNION as 1ST UN);
  // the name is set aside, the unit kept. (Not a name ending in a word that is also a street type: PLAZA, CENTER.)
  if (!line.primaryNumber && i === at && unitAt - i >= 2 && BuildingWords.has(toks[unitAt - 1].w) && !suffixOf(toks[unitAt - 1].w, country)) {
    line.building = joinWords(toks, i, unitAt);
    readSecondaries(toks, unitAt, end, line);
    line.quality = -line.leftover.length;
    return line;
  }
  let s = i;
  let [e, noteBeforePlace] = buildingStart(toks, i, unitAt, end, country, line, placeAfter);
  // A connector left dangling before the unit joins nothing (`523W 6TH ST & 330`: the suite).
  while (e - s >= 2 && e === unitAt && unitAt < end && (toks[e - 1].w === '&' || toks[e - 1].w === 'AND')) e--;

  // Suffix, post-directional and pre-directional, keeping at least one word for the name (Pub 28 section 233:
  // `N ST` is a street named N; `AVENUE H` a street named AVENUE H).
  let postdir: string | undefined;
  let suffix: string | undefined;
  let predir: string | undefined;
  let suffixBefore = false;
  if (e - s >= 2) postdir = directionalOf(toks[e - 1].w, country);
  // `WEALTHY S E`: a post-directional written as two letters.
  const pairedPostdir = postdir !== undefined && e - s >= 3 && /^[EW]$/.test(toks[e - 1].w) && /^[NS]$/.test(toks[e - 2].w);
  if (pairedPostdir) {
    postdir = toks[e - 2].w + toks[e - 1].w;
    e--;
  }
  if (postdir) {
    e--;
    if (e - s >= 2) suffix = suffixOf(toks[e - 1].w, country);
    if (!suffix && e - s === 1 && suffixOf(toks[s].w, country)) {
      // `AVENUE N`: the directional is the name.
      postdir = undefined;
      e++;
    }
  } else if (e - s >= 2) {
    suffix = suffixOf(toks[e - 1].w, country);
  }
  if (suffix) e--;
  if (e - s >= 2) {
    predir = directionalOf(toks[s].w, country);
    if (predir) s++;
  }
  if (!suffix && country === 'CA' && e - s >= 2) {
    const before = CanadianStreetTypeBefore.get(toks[s].w);
    if (before) {
      suffix = before;
      suffixBefore = true;
      s++;
    }
  }
  line.predirection = predir ?? null;
  line.postdirection = postdir ?? null;
  line.suffix = suffix ?? null;
  line.suffixBeforeName = suffixBefore;
  line.name = e > s ? joinWords(toks, s, e) : null;
  // Numbered streets are written in figures (FIFTH AVE -> 5TH AVE), as in the USPS ZIP+4 file.
  if (e - s === 1 && OrdinalStreetNames.has(toks[s].w)) line.name = OrdinalStreetNames.get(toks[s].w)!;
  // `FIFTY SEVENTH ST`: a compound ordinal written as two words.
  else if (e - s === 2 && OrdinalStreetNames.has(`${toks[s].w}-${toks[s + 1].w}`)) line.name = OrdinalStreetNames.get(`${toks[s].w}-${toks[s + 1].w}`)!;
  readSecondaries(toks, unitAt, end, line, end === toks.length);
  if (unitAfterNumber && !line.secondaryDesignator) {
    line.secondaryDesignator = unitAfterNumber.designator;
    line.secondaryNumber = unitAfterNumber.number;
  }
  // Puerto Rico's streets are named after CALLE, AVENIDA … (`CALLE 1`, `CALLE A`, `AVENIDA 65 DE INFANTERIA`): the
  // number or letter after the word is the name, not a unit.
  const spanishType = country !== 'CA' && !suffix && !predir && SpanishStreetTypes.has(toks[s].w);
  const spanishStreet = spanishType && (e - s >= 2 || (e - s === 1 && s + 1 < end && toks[s + 1].unitId));
  // So is the number after ROAD or AVENUE alone, the numbered roads of California's valley counties (`ROAD 97`,
  // `AVENUE 416`), written out as their names are; a directional after it is the road's.
  const numberedRoad = country !== 'CA' && !suffix && !predir && (e - s === 1 || e - s === 2) && NUMBERED_ROAD_WORDS.has(toks[s].w) &&
    s + 1 < end && /^\d{1,4}[A-Z]?$/.test(toks[s + 1].w);
  if (numberedRoad) {
    line.name = `${NUMBERED_ROAD_WORDS.get(toks[s].w)} ${toks[s + 1].w}`;
    if (e - s === 1) {
      let k = s + 2;
      const after = directionalOf(toks[k]?.w, country);
      if (after && (k + 1 === end || secondaryStart(toks, k, end, country) === k + 1)) {
        line.postdirection = after;
        k++;
      }
      line.secondaryDesignator = line.secondaryNumber = null;
      line.extraSecondaries = NO_SECONDARIES;
      line.leftover = [];
      readSecondaries(toks, k, end, line, end === toks.length);
    }
  } else if (spanishStreet && e - s === 1) {
    line.name = `${toks[s].w} ${toks[s + 1].w}`;
    line.secondaryDesignator = line.secondaryNumber = null;
    line.extraSecondaries = NO_SECONDARIES;
    line.leftover = [];
    readSecondaries(toks, s + 2, end, line, end === toks.length);
  }
  const bodyEnd = e + (postdir ? 1 : 0) + (suffix && !suffixBefore ? 1 : 0);
  const twoDirectionals = postdir !== undefined && bodyEnd - 2 >= s && directionalOf(toks[bodyEnd - 2].w, country) !== undefined;
  // A numbered street after a directional (`SE 2ND`, Florida and Utah grids) is complete without a suffix.
  const gridStreet = predir !== undefined && !suffix && e - s === 1 && ORDINAL_NUMBER.test(toks[s].w);
  const endsWell = !twoDirectionals && (spanishStreet || numberedRoad || suffix !== undefined || postdir !== undefined || line.secondaryDesignator !== null || gridStreet);
  // A name that is only a directional (`5500 N`) is a street cut short; a street that runs both west and east
  // (`W 175TH ST E`) is none when more words follow: the second directional starts the town (EAST HAZEL CREST). (Not
  // a quadrant: Washington's E BEACH DR NW; nor the last word before a comma: a post-directional typed wrong.)
  const cutShort = !suffix && e - s === 1 && directionalOf(toks[s].w, country) !== undefined;
  const opposed = predir !== undefined && postdir?.length === 1 && end < toks.length && !toks[end].sep && opposedDirections(predir, postdir);
  line.quality = lineQuality(line, endsWell && !opposed ? 2 : cutShort || opposed ? 0 : 1) - (noteBeforePlace ? NOTE_BEFORE_PLACE : 0);
  return line;
}

/** Words after which a figure belongs to a delivery note, an access code (`GATE CODE 1234`, `BUZZER 12`). */
const AccessCodeWords: ReadonlySet<string> = new Set(['CODE', 'GATE', 'BUZZER', 'BUZZ', 'INTERCOM', 'KEYPAD', 'PIN', 'ENTRY']);

/** What a note closed only by the known place after it costs a line (`HALIFAX MID-HARBOUR …` is one FSA name). */
const NOTE_BEFORE_PLACE = 0.05;

const OPPOSITE_DIRECTION: Readonly<Record<string, string>> = { N: 'S', S: 'N', E: 'W', W: 'E' };

/** Whether two directionals point partly opposite ways (W and E, SW and E, NE and S). */
function opposedDirections(a: string, b: string): boolean {
  for (const d of a) if (b.includes(OPPOSITE_DIRECTION[d] ?? '-')) return true;
  return false;
}

function matchRuralRoute(toks: readonly Token[], at: number, end: number): (typeof RuralRoutePrefixes)[number] | undefined {
  for (const entry of RURAL_ROUTES_BY_FIRST_WORD.get(toks[at].w) ?? NONE) if (matchSequence(toks, at, end, entry[0])) return entry;
  return undefined;
}

/**
 * A state abbreviation that is also a word (`WASH`, `IND`): the state where the ZIP is of that state, or without a ZIP
 * after a known city of it (`SEATTLE, WASH`); else undefined (`123 DESERT WASH 85001` is a street).
 */
function stateWrittenAsWord(
  phrase: string, postalCode: string | null, toks: readonly Token[], at: number, postal: PostalIndex,
): { code: string; country: 'US' } | undefined {
  const code = StateAbbreviationsThatAreWords.get(phrase);
  if (!code) return undefined;
  const fits = postalCode
    ? postal.zip(postalCode)?.some((place) => place.state === code) ?? false
    : [1, 2, 3, 4].some((c) => at - c >= 0 && postal.city(code, joinWords(toks, at - c, at)) !== undefined);
  return fits ? { code, country: 'US' } : undefined;
}

function knownCityZips(postal: PostalIndex, state: string | null, key: string, local?: LocalPlaceNames, province = false): number {
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
const BIG_CITY_ZIPS = 10;

/** A city of the state in the gazetteer, or in the loaded address files. */
function isKnownCity(postal: PostalIndex, state: string, name: string, local: LocalPlaceNames | undefined): boolean {
  return knownCityZips(postal, state, cityKey(name), local) > 0;
}

/** Whether the last one to four words before `at` (none before `from`) are a known city of the state. */
function knownCityBefore(
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
function cityAfterNote(
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

function stateOfPostalCode(postal: PostalIndex, code: string): string | undefined {
  return /^\d{5}$/.test(code) ? postal.zip(code)?.[0]?.state : postal.fsa(code.slice(0, 3))?.province;
}

/** True when a comma opens one of toks[from, to). */
function commaWithin(toks: readonly Token[], from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (toks[k].sep) return true;
  return false;
}

function acceptableForSomeZip(
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

const ROUTE_WORDS: ReadonlySet<string> = new Set(['ROUTE', 'RTE', 'RT']);
const RECIPIENT_MARKERS = new Set(['C/O', 'CO', 'ATTN', 'ATTENTION', 'CARE']);
const ATTENTION_MARKERS = new Set(['ATTN', 'ATTENTION']);
/** Street types that do not occur in city names (unlike CREEK, BEACH, HILL). */
const COMMON_STREET_TYPES = new Set(['ST', 'AVE', 'RD', 'DR', 'LN', 'BLVD', 'CT', 'PL', 'WAY', 'PKWY', 'CIR', 'TER', 'HWY', 'TRL']);
/** Street types that name roads rather than places, read as streets even without a house number (`DRUM POINT RD`). */
const OPEN_ROAD_TYPES = new Set(['FWY', 'EXPY', 'PIKE', 'TPKE', 'RTE', 'ROW', 'RUN', 'BYP', 'ALY', 'BND', 'CSWY', 'HWY', 'HL', 'XING', 'LOOP']);
/** Words that end a firm or person's name, never a city (`PURI BROTHERS, INC`). */
const FIRM_WORDS = new Set(['INC', 'LLC', 'LTD', 'CORP', 'JR', 'SR', 'III', 'PC', 'LLP', 'PLLC']);

/** The most words a building name written between units and the delivery line is looked through. */
const LONGEST_BUILDING_NAME = 4;

/** The designators of a home's unit: an apartment, a unit, a lot, a trailer, a space, or the sign. */
const HOME_UNITS: ReadonlySet<string> = new Set(['APT', 'UNIT', 'LOT', 'TRLR', 'SPC', '#']);

/** True when a whole street line (house number, name) of the text ends right at `end`. */
function streetEndsAt(toks: readonly Token[], starts: readonly number[], end: number, country: 'US' | 'CA' | null): boolean {
  for (const s of starts) {
    if (s >= end) break;
    const l = parseDeliveryLine(toks, s, end, country);
    if (l.kind === 'street' && l.primaryNumber && l.name && l.quality >= 1 && l.leftover.length === 0) return true;
  }
  return false;
}

/**
 * Units written before the delivery line (unitsAt), or before a building name just before it (`14TH FLOOR L & C TOWER
 * 401 CHURCH ST`): the units, where they start, and the building name between.
 */
function unitsBefore(toks: readonly Token[], start: number): { units: Secondary[]; from: number; building?: string } {
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
function unitAfterPostalCode(toks: readonly Token[], end: number): { unit: Secondary; from: number } | null {
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

/**
 * Where a delivery line may start: each house number, PO Box, rural route or GENERAL DELIVERY (up to four). Words
 * before the chosen start are a recipient, firm or building name; an earlier complete street followed by another
 * (`ONE MIDTOWN PLAZA 1360 PEACHTREE ST`) yields to the later one by score.
 */
function deliveryStarts(toks: readonly Token[], end: number): number[] {
  // A text that starts with a route (`HWYS 51 AND 151`, `HWY 16 AND MINNESOTA RD`) starts its delivery line there.
  const starts: number[] = matchHighway(toks, 0, end) ? [0] : [];
  let recipientGroup = false;
  for (let k = 0; k < end && starts.length < 4; k++) {
    const w = toks[k].w;
    if (k === 0 || toks[k].sep) recipientGroup = RECIPIENT_MARKERS.has(w);
    // An attention line after the street (`6000 FELDWOOD RD ATTN LOCKBOX 402605`) runs to the next comma, and a box
    // or number in it is no delivery line of its own.
    else if (starts.length && ATTENTION_MARKERS.has(w)) recipientGroup = true;
    // In an attention or care-of group only a house number after a name may start the delivery line
    // (`ATTN CHARLOTTE DURAN 2905 RODEO PARK DR`); numbers right after the marker belong to it (`ATTN DEPT # 528`).
    if (recipientGroup && (!toks[k].number || k < 2 || RECIPIENT_MARKERS.has(toks[k - 1].w) || RECIPIENT_MARKERS.has(toks[k - 2].w))) continue;
    const prev = toks[k - 1]?.w;
    if (matchPoBox(toks, k, end) >= 0) {
      if ((w !== 'BOX' && w !== 'BX' && w !== 'PO') || k === 0 || toks[k].sep || !UnitDesignatorTable.has(prev ?? '')) {
        starts.push(k);
        k = matchPoBox(toks, k, end);
      }
      continue;
    }
    // A Canadian site and compartment (`SITE 6 COMP 10 RR 8`) start the line; they and their route are one line.
    const site = siteAndCompartment(toks, k, end);
    if (site) {
      starts.push(k);
      k = site.next - 1;
      const after = matchRuralRoute(toks, site.next, end);
      if (after) k = site.next + after[0].length - (toks[site.next + after[0].length]?.digit ? 0 : 1);
      continue;
    }
    const route = matchRuralRoute(toks, k, end);
    const routeNumberAt = route ? k + route[0].length + (toks[k + route[0].length]?.w === '#' ? 1 : 0) : -1;
    const routeBoxOk = route && (!RURAL_ROUTE_ONLY_WITH_BOX.has(route[0][0]) || toks[routeNumberAt + 1]?.w === 'BOX');
    if (route && (routeBoxOk && toks[routeNumberAt]?.digit || toks[k + route[0].length]?.w === 'BOX')) {
      starts.push(k);
      // The route's own `BOX 152` is not another delivery line.
      k += route[0].length;
      while (k + 1 < end && (toks[k + 1].w === 'BOX' || toks[k + 1].w === 'BX' || toks[k + 1].w === '#' || toks[k + 1].digit)) k++;
      // … nor is its site and compartment (`RR 8 SITE 6 COMP 10`).
      const siteAfter = siteAndCompartment(toks, k + 1, end);
      if (siteAfter) k = siteAfter.next - 1;
    } else if ((w === 'GENERAL' && toks[k + 1]?.w === 'DELIVERY') || (w === 'GD' && (k === 0 || toks[k].sep))) {
      starts.push(k);
    } else if (NumberWords.has(w) && end - k >= 3 && (k === 0 || toks[k].sep || !toks[k - 1].digit) &&
      !(k >= 2 && !toks[k].sep && toks[k - 2].number && DirectionalTable.has(toks[k - 1].w) && OrdinalStreetNames.has(`${w}-${toks[k + 1].w}`))) {
      // A house number written as a word, also after a firm (`ANHEUSER BUSCH ONE BUSCH PL`); the score decides. Not
      // the first word of a compound ordinal after a number and a directional (`123 W FIFTY SEVENTH ST`).
      starts.push(k);
    } else if (toks[k].number) {
      // A number after a unit word or a highway word belongs to them, not to a new delivery line.
      // So does a grid number after a directional (`6641 N 2200 W`).
      // (Not across a comma: `UNIT N5, 2443 SIERRA NEVADA RD` is a unit, then the house number.)
      const gridNumber = prev !== undefined && !toks[k].sep &&
        ((DirectionalTable.has(prev) && k >= 2 && toks[k - 2].number) || /^[NSEW]\d+$/.test(prev));
      // … except after a floor already numbered (`4TH FLOOR 300 E RANDOLPH ST`).
      const floorDone = prev !== undefined && UnitDesignatorTable.get(prev)?.abbreviation === 'FL' && k >= 2 && isFloorNumber(toks[k - 2].w);
      // (Not across a comma either: `EMPIRE STATE BUILDING, 350 5TH AVE` names a building, then the house number.)
      const afterUnitWord = prev !== undefined && !toks[k].sep &&
        (UnitDesignatorTable.has(prev) || PrivateUnitWords.has(prev) || prev === 'CODE' || prev === 'STOP') && !floorDone;
      // `NO 6007 APPLEGATE LN`: a number word that opens the text or a comma group numbers the house.
      const numberWordOpens = NUMBER_WORDS.has(prev) && (k === 1 || toks[k - 1].sep);
      const afterWord = prev === '#' ? k > 1 : (NUMBER_WORDS.has(prev) && !numberWordOpens) || afterUnitWord;
      // A number before MILE inside a line names the road (`14100 BEN C PRATT 6 MILE CYPRESS PKWY`, `8 MILE RD`).
      const milesName = k > 0 && !toks[k].sep && toks[k + 1]?.w === 'MILE' && k + 2 < end;
      // Nor one after MILE or a Spanish street word, which it numbers (`1234 MILE 5 N RD`, Texas's mile roads;
      // `100 CARRETERA 2 BO HATO TEJAS`, `A17 CALLE 1`).
      const roadsNumber = prev !== undefined && !toks[k].sep && (prev === 'MILE' || SpanishStreetTypes.has(prev));
      // Nor is the number of a state's route after the house number (`6460 VERMONT 113`, `20370 NEW YORK 9`), asked last.
      if (gridNumber || afterWord || milesName || roadsNumber || (prev !== undefined && !toks[k].sep && HIGHWAY_LAST_WORDS.has(prev)) ||
        (k >= 2 && toks[k - 2].number && stateRouteAt(toks, k - 1, end)?.length === 2) ||
        (k >= 3 && toks[k - 3].number && stateRouteAt(toks, k - 2, end)?.length === 3)) {
        continue;
      }
      starts.push(k);
    }
  }
  if (starts.length === 0) {
    // No number anywhere: the delivery line is what follows a recipient group, if any.
    let k = 0;
    while (k < end && RECIPIENT_MARKERS.has(toks[k].w)) {
      k++;
      while (k < end && !toks[k].sep) k++;
    }
    starts.push(k);
  }
  return starts;
}

/**
 * Whether toks[start, p) can read as a complete street (quality 2): it ends on a suffix, directional, unit, number or
 * route word, or holds what the line parser sets aside (an attention line, a building name, a comma, or before a
 * known place a note after a street type).
 */
function mayEndWell(toks: readonly Token[], start: number, p: number, country: 'US' | 'CA' | null, placeAfter: boolean): boolean {
  const last = toks[p - 1];
  if (suffixOf(last.w, country) || directionalOf(last.w, country) || last.digit || last.w.length === 1) return true;
  if (UnitDesignatorTable.has(last.w) || RouteModifiers.has(last.w) || (country === 'CA' && CanadianStreetTypeBefore.has(toks[start + 1]?.w ?? ''))) {
    return true;
  }
  // A delivery installation's name (`PO BOX 1234 STN MAIN`).
  if (country === 'CA' && p - 2 > start && CanadianInstallationTypes.has(toks[p - 2].w)) return true;
  for (let k = start + 1; k < p; k++) {
    const w = toks[k].w;
    if (toks[k].sep || RECIPIENT_MARKERS.has(w) || BuildingWords.has(w) || w === 'THE' || PrivateUnitWords.has(w)) return true;
    if (placeAfter && k < p - 2 && (suffixOf(w, country) || toks[k].digit)) return true;
  }
  return false;
}

function byBoundThenOrder(a: SplitCandidate, b: SplitCandidate): number {
  return b.bound - a.bound || a.order - b.order;
}

interface SplitCandidate {
  start: number;
  /** The delivery line, once parsed. */
  line?: DeliveryLine;
  /** Where the city starts (`end`: no city). */
  p: number;
  /** The score without the delivery line's part. */
  score: number;
  city: CityEvidence | null;
  /** The city is a known place, and no longer known place ends the text: it ends the line as a comma would. */
  placeAfter: boolean;
  /** The best score this split can reach. */
  bound: number;
  order: number;
}

/**
 * The city of a split is a place the data knows (of the state, or a name of the ZIP given; not merely words a
 * Canadian FSA's long name holds, `AND HIGH COUNTRY` of CENTRAL OKANAGAN AND HIGH COUNTRY).
 */
function knownPlace(city: CityEvidence | null): boolean {
  return city !== null && city.knownZips > 0;
}

interface CityEvidence {
  /** How many ZIP codes the words name as a city (0: not a known city). */
  knownZips: number;
  /** The words are a name of the ZIP given. */
  fitsZip: boolean;
  /** A common street type (ST, RD, AVE …) stands among the words. */
  holdsStreetType: boolean;
  /** The first word is a directional (a post-directional of the street, or NORTH PLATTE). */
  directionalFirst: boolean;
  streetWordFirst: boolean;
  cityExpected: boolean;
  separated: boolean;
  words: number;
}

/**
 * What the words after the delivery line add as a city. Without state or ZIP a city name is believed after a comma,
 * after a complete street, or when it is a large city (many ZIP codes: `5429 WOODLAWN CHICAGO`).
 */
function cityBonus(c: CityEvidence, lineQuality: number, afterAttention = false): number {
  // Words after an attention line are a name unless a state or ZIP follows (`… ATTN TRAVIS LINDLEY`).
  if (afterAttention && !c.cityExpected) return -12;
  // Text after a name or a firm (`C/O G THOMAS COLLINS, JR`) is no city unless a state or ZIP says so.
  if (!c.cityExpected && lineQuality < 1 && c.knownZips === 0) return -12;
  const believed = c.cityExpected || c.separated || c.knownZips >= 8 || (lineQuality >= 2 && !c.streetWordFirst);
  if (c.knownZips > 0 && believed) return 8 + 0.01 * c.words;
  if (!c.cityExpected && !c.separated) return -12;
  // An unknown city where one is expected: the longer reading (`BEAR CREEK TW`) unless it holds a street type.
  if (c.cityExpected && !c.holdsStreetType && !c.separated && !c.directionalFirst) return 0.01 * c.words;
  return -0.01 * c.words;
}

const COUNTY_WORDS: ReadonlySet<string> = new Set(['COUNTY', 'CNTY', 'CO', 'PARISH', 'BOROUGH']);
const LONGEST_COUNTY_NAME_WORDS = 4;

/**
 * A county written between the city and the state (`LOUISVILLE JEFFERSON COUNTY, KY`, `LOUISVILLE, JEFFERSON, KY
 * 40219`: a CRM's county column run into the address): a county of the state followed by COUNTY, PARISH or BOROUGH,
 * or alone in a comma group of its own after a city of the state, the county of the ZIP or of that city. Taken out of
 * the tokens, with the new end; else null.
 */
function countyBeforeState(
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
function dropRepeatedCity(toks: Token[], end: number, postal: PostalIndex, state: string | null): number {
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

/**
 * A postal code in a comma group of its own before the city (`6007 APPLEGATE LN, 40219, LOUISVILLE, KY`, `100 QUEEN ST
 * W, M5H 2N2, TORONTO, ON`: a form's fields in another order), when it is one of the state's: taken out of the tokens,
 * with the new end; else null.
 */
function postalCodeInOwnGroup(
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
function zipBeforeItsCity(
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
function postalCodeBefore(toks: readonly Token[], at: number, country: 'US' | 'CA'): number {
  if (at < 1) return -1;
  if (country === 'US') return US_ZIP.test(toks[at - 1].w) ? at - 1 : -1;
  if (CA_POSTAL.test(toks[at - 1].w)) return at - 1;
  return at >= 2 && CA_POSTAL.test(toks[at - 2].w + toks[at - 1].w) ? at - 2 : -1;
}

/**
 * The state written after its own postal code (`LOUISVILLE, 40219 KY`, `TORONTO, M5H 2N2 ON`: a form's state and postal
 * code fields the other way round) is put back before it, as the post writes them. Only where the code is the state's.
 */
function stateBeforePostalCode(toks: Token[], end: number, postal: PostalIndex): void {
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
function dropRepeatedLastLine(toks: readonly Token[], end: number): number {
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

export interface ParseOptions {
  countryHint?: 'US' | 'CA';
  /** Place names of the loaded address files, for cities the embedded gazetteer does not list. */
  places?: LocalPlaceNames;
}

/**
 * Place names that the loaded address files (RRAD, OpenAddresses, the NAR) give their postal codes, beyond the embedded
 * gazetteer's one name per ZIP: ReferenceIndex provides them.
 */
export interface LocalPlaceNames {
  /** The postal codes whose points the files place in the city (by cityKey). */
  postalCodesOfLocalCity(key: string): ReadonlySet<string>;
  /** True when the files place some point of the postal code in the city (by cityKey). */
  isLocalCityOf(postalCode: string, key: string): boolean;
  /** True when the loaded data has a street of that name in the postal code (any street, for a null name). */
  hasStreet(postalCode: string, name: string | null): boolean;
  /** The postal codes where the loaded data has a street of that name, if any. */
  zipsWithStreetName(name: string): ReadonlySet<string> | undefined;
  /** True when the loaded data has a street of that name and type (null: none) in the postal code. */
  hasStreetOfType(postalCode: string, name: string, suffix: string | null): boolean;
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
function misspeltStateBefore(toks: readonly Token[], end: number, zipState: string | undefined): { code: string; words: number } | null {
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
function misspeltStateAfterCity(
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
function zipWithLetterO(toks: Token[], end: number): string | null {
  if (end < 2 || !toks[end - 1].digit || !LETTER_O_ZIP.test(toks[end - 1].w) || RegionByName.get(toks[end - 2].w)?.country !== 'US') return null;
  const typed = toks[end - 1].w;
  toks[end - 1] = makeToken(typed.replace(/O/g, '0'), toks[end - 1].sep);
  return typed;
}

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
function takeMilepost(toks: Token[]): { text: string; afterStreet: boolean; asNumber: boolean } | null {
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

/**
 * A ZIP that lost its leading zero in a spreadsheet, with no state before it (`150 CARTER ST, MANCHESTER 6040`): four
 * figures after a name of the ZIP they make with the zero (a name of it exactly: four figures after a city are many
 * countries' postal codes, `AUCKLAND 1010`). The ZIP, else null.
 */
function zipLostItsZero(toks: readonly Token[], end: number, postal: PostalIndex, local: LocalPlaceNames | undefined): [string, string] | null {
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

/** A unit that is a letter, or two joined by a hyphen (`B`, `A-D`). */
const LONE_LETTER_UNIT = /^[A-Z](-[A-Z0-9])?$/;

/** Whether a comma stands inside toks[p, end): such words are no one city (`LEAVE AT DOOR, LOUISVILLE`). */
function cityCrossesComma(toks: readonly Token[], p: number, end: number): boolean {
  for (let k = p + 1; k < end; k++) if (toks[k].sep) return true;
  return false;
}

/** Whether the loaded data holds the line's street in the postal code (by name), else in the state (by name and type). */
function knownStreet(
  { name, suffix }: DeliveryLine, local: LocalPlaceNames, postalCode: string | null, state: string | null, postal: PostalIndex,
): boolean {
  if (name === null) return false;
  if (postalCode) return local.hasStreet(postalCode, name);
  for (const zip of local.zipsWithStreetName(name) ?? []) {
    if (stateOfPostalCode(postal, zip) === state && local.hasStreetOfType(zip, name, suffix)) return true;
  }
  return false;
}

/** What a split without a city loses where a state or postal code says one is expected. */
const CITY_MISSING = 6;

/** What a street of the loaded data counts for, against the city and separator evidence of a split. */
const KNOWN_STREET_BONUS = 10;

/** The delivery line and city the parser settled on: where the line starts, where the city starts, the line read. */
interface BestSplit {
  score: number;
  start: number;
  at: number;
  line: DeliveryLine;
  /** The city toks[at, end) is a name of the ZIP given. */
  cityFitsZip: boolean;
}

/**
 * Scores every start of the delivery line and every split between delivery line and city in toks[0, end) (the last
 * line read off already: postal code, state), and returns the best.
 */
function bestSplit(
  toks: Token[],
  end: number,
  starts: readonly number[],
  state: string | null,
  postalCode: string | null,
  cityState: string | null,
  zipPlaces: readonly ZipPlace[] | undefined,
  postal: PostalIndex,
  country: 'US' | 'CA' | null,
  local: LocalPlaceNames | undefined,
): BestSplit {
  // Score every start of the delivery line and every split between delivery line and city.
  const cityExpected = state !== null || postalCode !== null;
  const separatorAtEnd = end < toks.length && toks[end].sep && state === null;
  let best: BestSplit = { score: -Infinity, start: 0, at: end, line: emptyLine(), cityFitsZip: false };
  // City keys of the words that can be in a city (the last MAX_CITY_WORDS before the state).
  const wordKeys: string[] = new Array<string>(end);
  for (let k = Math.max(0, end - MAX_CITY_WORDS); k < end; k++) wordKeys[k] = cityWordKey(toks[k].w);
  // unitFrom[p]: a designated unit (`APT B`) stands in toks[p, end), for the city candidates.
  const unitFrom: boolean[] = new Array<boolean>(end + 1).fill(false);
  for (let k = end - 2; k >= Math.max(0, end - MAX_CITY_WORDS - 1); k--) {
    unitFrom[k] = unitFrom[k + 1] || (UnitDesignatorTable.get(toks[k].w)?.requiresNumber === true && toks[k + 1].unitId);
  }
  const endsInLetterUnit = end > 0 && LONE_LETTER_UNIT.test(toks[end - 1].w) && !DirectionalTable.has(toks[end - 1].w);
  let lastDigitAt = -1;
  for (let k = 0; k < end; k++) if (toks[k].digit) lastDigitAt = k;
  // Branch and bound: each split's city part is cheap and the delivery line adds at most 20, so the splits are tried
  // best bound first and a line is parsed only while it can still win. Ties go to the earlier start, then the
  // shorter city (the order in which the candidates were listed).
  // A delivery line whose street the loaded data holds in the ZIP is believed over one that leaves a street word for the
  // city (`7941 ALPINE VIEW CIRCLE 99507`: not ALPINE VW in the town of CIRCLE).
  // With a state and no ZIP, a street the data holds in the state (`7941 ALPINE VIEW CIRCLE, AK`: not ALPINE VW in the
  // town of CIRCLE; `8509 OLDE GATE, AL`: not OLDE in a town GATE); such a street and the state are a whole address, so
  // that reading loses nothing for the city it lacks.
  const stateOnly = local !== undefined && !postalCode && state !== null && cityState !== null;
  const streetBonus = local && (postalCode ? local.hasStreet(postalCode, null) : stateOnly) ? KNOWN_STREET_BONUS : 0;
  const noCityBonus = stateOnly ? CITY_MISSING : 0;
  const fsa = postalCode && country === 'CA' && !zipPlaces ? postalCode.slice(0, 3) : null;
  const province = cityState !== null && CanadianProvinces.has(cityState);
  const candidates: SplitCandidate[] = [];
  for (const start of starts) {
    let cityKeyFromP = '';
    for (let p = end; p >= start; p--) {
      if (p > start && end - p > MAX_CITY_WORDS) p = start;
      if (p < end) cityKeyFromP = p === start && end - start > MAX_CITY_WORDS ? cityKey(joinWords(toks, p, end)) : wordKeys[p] + cityKeyFromP;
      // A later start is preferred (the words before are a recipient), but a number that opens the text or a comma
      // group is no recipient: it is the house number of a numbered street (`20713 2700 N AVE`, `# 3, 8202 4 WINDS DR`).
      const numberOpensGroup = start >= 1 && toks[start - 1].number && !toks[start].sep && (start === 1 || toks[start - 1].sep);
      let score = numberOpensGroup ? -0.5 : 0.001 * start;
      let city: CityEvidence | null = null;
      let maxQuality = 2;
      if (p < end) {
        const first = toks[p].w;
        let knownZips = knownCityZips(postal, cityState, cityKeyFromP, local, province);
        if (knownZips === 0 && p + 1 < end && DirectionalTable.has(first) && p > start) {
          // A directional before a known city that the gazetteer does not know with it: the street's post-directional
          // when the street can take one (`GRAVENSTEIN HWY, N SEBASTOPOL`), else a place named after its neighbour
          // (`WEALTHY ST SE E GRAND RAPIDS`: East Grand Rapids), believed a little less than a known name.
          const restZips = knownCityZips(postal, cityState, cityKeyFromP.slice(wordKeys[p].length), local, province);
          // `DR S E GRAND RAPIDS`: S E after a name is one post-directional, SE.
          const halfOfPair = /^[NS]$/.test(toks[p - 1].w) && /^[EW]$/.test(first) && p - 2 > start;
          // Not one opposed to the street's pre-directional (`W 175TH ST EAST HAZEL CREST`): East Hazel Crest.
          const predirection = start + 2 < p && toks[start].number ? directionalOf(toks[start + 1].w, country) : undefined;
          const opposed = predirection !== undefined && directionalOf(first, country)!.length === 1 && opposedDirections(predirection, directionalOf(first, country)!);
          if (restZips > 0 && !opposed && (suffixOf(toks[p - 1].w, country) || halfOfPair)) score -= 12.5;
          else if (restZips > 0 && directionalOf(toks[p - 1].w, country)) {
            knownZips = restZips;
            score -= 1;
          }
        }
        // A city may start with a directional (NORTH PLATTE), not with a suffix or unit word.
        const streetWordFirst = isStreetWord(first) && !DirectionalTable.has(first);
        // (A Canadian postal code: a place its FSA's name holds, `TORONTO` of M5H's DOWNTOWN TORONTO, not `W TORONTO`;
        // unless the city would start inside a comma group after the street's: `…, VILLE DE QUEBEC` is the city.)
        const namesZip = acceptableForSomeZip(postal, zipPlaces, cityKeyFromP, postalCode, local, toks, p, end);
        const fitsZip = namesZip ||
          (fsa !== null && (toks[p].sep || !commaWithin(toks, start + 1, p)) && postal.fsaNameHolds(fsa, cityKeyFromP));
        if (fitsZip) score += 4;
        // The ZIP's own name misspelt (`WETS PALM BEACH`) is as good as a place the gazetteer lists under that spelling:
        // not a note before the name of a neighbour it holds (PALM BEACH).
        if (namesZip && knownZips === 0) knownZips = 1;
        if (toks[p].sep) score += 12;
        // A city has no figures (`SUITE 700, OVERLOOK 1` names a building).
        if (lastDigitAt >= p) score -= 20;
        // (A place's name may start with a unit word when no unit number follows: KEY LARGO, UPPER MARLBORO, or a
        // misspelt KEY WSET in a comma group of its own.)
        const placeNamedSo = (knownZips > 0 || toks[p].sep) && UnitDesignatorTable.has(first) && p + 1 < end && !toks[p + 1].unitId;
        if ((UnitDesignatorTable.has(first) && !placeNamedSo) || first === '#') score -= 20;
        // Nor with a PO Box and its number (`388 E MAIN ST, PO BOX 456, , VT`: the box is the delivery line, no city given).
        if (PO_BOXES_BY_FIRST_WORD.has(first) && matchPoBox(toks, p, end) >= 0) score -= 20;
        // Nor with a delivery installation (`STN MAIN HALIFAX`), nor with a lone letter that is no directional (`B QUEBEC`
        // after `APP`, `L CEDAR RAPIDS` after `UNIT K`): those end the delivery line.
        if (country === 'CA' && CanadianInstallationTypes.has(first)) score -= 20;
        // (A place the gazetteer writes so may: O FALLON, D LO, O BRIEN, typed without their apostrophes' glue.)
        if (first.length === 1 && /[A-Z]/.test(first) && !DirectionalTable.has(first) && knownZips === 0) score -= 10;
        // `US 17 BUSINESS SURFSIDE BEACH`: a word that modifies a route number belongs to the route.
        if (RouteModifiers.has(first) && toks[p - 1]?.digit) score -= 1;
        if (p === end - 1 && DirectionalTable.has(first)) score -= 30;
        if (p === end - 1 && FIRM_WORDS.has(first)) score -= 20;
        if (p === end - 1 && streetWordFirst) score -= 10;
        let holdsStreetType = false;
        for (let k = p; k < end && !holdsStreetType; k++) holdsStreetType = COMMON_STREET_TYPES.has(StreetSuffixTable.get(toks[k].w) ?? '');
        if (knownZips === 0) {
          // An unknown "city" that starts with a common street type or holds a unit (`AVENUE APT B` before a lone ZIP)
          // is the end of the street; so is one that ends with a lone letter (`LN NORTHWEST B, MD`, `TPKE WEST F, CT`).
          // (Not ST opening a comma group of its own before a name: a place named for a saint, `…, ST THOMAS, VI`,
          // `…, ST CROIX`, where the embedded data lists no places.)
          const saint = first === 'ST' && toks[p].sep && p + 1 < end;
          if (COMMON_STREET_TYPES.has(StreetSuffixTable.get(first) ?? '') && !saint) score -= 8;
          if (endsInLetterUnit) score -= 10;
          if (unitFrom[p]) score -= 20;
          // So is one that ends with one where no comma set it apart (`467 NORTH MOUNTAIN RANCH ROAD, AR`).
          else if (p + 1 < end && !toks[p].sep && COMMON_STREET_TYPES.has(StreetSuffixTable.get(toks[end - 1].w) ?? '')) score -= 8;
        }
        city = { knownZips, fitsZip, holdsStreetType, directionalFirst: DirectionalTable.has(first), streetWordFirst, cityExpected, separated: toks[p].sep, words: end - p };
        maxQuality = p > start && !mayEndWell(toks, start, p, country, knownPlace(city)) ? 1 : 2;
      } else {
        if (cityExpected) score -= CITY_MISSING;
        if (separatorAtEnd) score += 12;
      }
      // No delivery line at all (`Minneapolis, MN 55401`): the start of the text is a boundary like a comma.
      const noLine = start === 0 || toks[start]?.sep ? 2 : -10;
      const bound = score + (p > start ? maxQuality * 10 : noLine) + (city ? cityBonus(city, maxQuality) : 0);
      candidates.push({ start, p, score, city, bound, order: candidates.length, placeAfter: knownPlace(city) });
    }
    // A note before a known place may not take a word of a longer known place (`PARK AVE PLAZA HOTEL NEW YORK`: no
    // note HOTEL NEW before YORK): this start's candidates run from the shortest city to the longest.
    let longerKnown = false;
    for (let j = candidates.length - 1; j >= 0 && candidates[j].start === start; j--) {
      const c = candidates[j];
      if (c.p <= start) continue;
      if (longerKnown) c.placeAfter = false;
      longerKnown ||= knownPlace(c.city);
    }
  }
  candidates.sort(byBoundThenOrder);
  // `UNIT 5 BOX 42` is a military address only where the state is AA, AE or AP (`1 MAIN ST UNIT 5 BOX 42, SPRINGFIELD IL`
  // was one): elsewhere such a line loses to any other reading.
  const civilianState = state !== null && !MilitaryStates.has(state);
  let bestOrder = Infinity;
  for (const c of candidates) {
    if (c.bound < best.score || (c.bound === best.score && c.order > bestOrder)) break;
    const line = (c.line = c.p > c.start ? parseDeliveryLine(toks, c.start, c.p, country, true, c.placeAfter) : emptyLine());
    const score = splitScore(c, line, toks, 0) - (line.kind === 'military' && civilianState ? MILITARY_LINE_ELSEWHERE : 0);
    if (score > best.score || (score === best.score && c.order < bestOrder)) {
      best = { score, start: c.start, at: c.p, line, cityFitsZip: c.city?.fitsZip ?? false };
      bestOrder = c.order;
    }
  }
  // The street bonus in a second pass, only when it can change the outcome: the best split's street is not one the
  // data holds, and another split's is (its bound plus the bonus reaches the best). The same result as scoring every
  // split with the bonus, without raising every bound.
  if (streetBonus && best.line.kind !== 'none' && !knownStreet(best.line, local!, postalCode, cityState, postal)) {
    // A note after a street of the data before the city read (`570 BROADWAY LEAVE AT BACK DOOR LYNNFIELD MA`): that
    // street and city, with the bonus, unless a split with a street of the data does better (not one that puts the
    // note in the city).
    const firstBest = best;
    // (Not where the city read is the end of a longer known one: `… BACK DOOR WEST WINDSOR VT` is West Windsor.)
    let longerCity = false;
    for (let j = 1; j <= 3 && best.at - j > best.start && !longerCity; j++) {
      longerCity = knownCityZips(postal, cityState, cityKey(joinWords(toks, best.at - j, end)), local, province) > 0;
    }
    const withoutNote = best.at < end && !longerCity ? noteAfterKnownStreet(toks, best, country, local!, postalCode, cityState, postal) : best.line;
    for (const c of candidates) {
      if (c.bound + streetBonus + noCityBonus < best.score) break;
      if (c.p <= c.start || (stateOnly && cityCrossesComma(toks, c.p, end))) continue;
      const line = (c.line ??= parseDeliveryLine(toks, c.start, c.p, country, true, c.placeAfter));
      if (!knownStreet(line, local!, postalCode, cityState, postal)) continue;
      const bonus = streetBonus + (c.p === end ? noCityBonus : 0);
      const score = splitScore(c, line, toks, bonus) - (line.kind === 'military' && civilianState ? MILITARY_LINE_ELSEWHERE : 0);
      if (score > best.score || (score === best.score && c.order < bestOrder)) {
        best = { score, start: c.start, at: c.p, line, cityFitsZip: c.city?.fitsZip ?? false };
        bestOrder = c.order;
      }
    }
    if (withoutNote !== firstBest.line && best.score <= firstBest.score + streetBonus) return { ...firstBest, line: withoutNote, score: firstBest.score + streetBonus };
    if (!knownStreet(best.line, local!, postalCode, cityState, postal)) best.line = noteAfterKnownStreet(toks, best, country, local!, postalCode, cityState, postal);
  }
  return best;
}

/** The delivery line of the best split read without the words [noteAt, unitAt), a unit after them kept. */
function lineWithoutNote(toks: readonly Token[], best: BestSplit, noteAt: number, unitAt: number, country: 'US' | 'CA' | null): DeliveryLine {
  const kept = unitAt < best.at ? [...toks.slice(best.start, noteAt), ...toks.slice(unitAt, best.at)] : toks.slice(best.start, noteAt);
  return parseDeliveryLine(kept, 0, kept.length, country);
}

/**
 * A note written after the street in the same comma group (`6007 APPLEGATE LN LEAVE AT DOOR, LOUISVILLE`, `198 E 161ST ST
 * DISTRICT ATTY BRONX CTY, BRONX`): where the line read whole is no street of the data but its words up to a street type
 * (and directional) are, or, with a postal code, its first words are a street of the data without a type, that street,
 * the rest set aside as a note; else the line as read.
 */
function noteAfterKnownStreet(
  toks: readonly Token[], best: BestSplit, country: 'US' | 'CA' | null, local: LocalPlaceNames, postalCode: string | null,
  state: string | null, postal: PostalIndex,
): DeliveryLine {
  const l = best.line;
  if (l.kind !== 'street' || l.suffix !== null || !l.primaryNumber) return l;
  // The unit after the note stays the line's (`1267 MARTIN ST LEAVE AT BACK DOOR # 203`, `… BACK DOOR B`).
  let unitAt = secondaryStart(toks, best.start + 1, best.at, country);
  const last = toks[best.at - 1].w;
  if (unitAt === best.at && LONE_LETTER_UNIT.test(last) && !DirectionalTable.has(last)) unitAt--;
  // The longest street of the data first (`BAY RIDGE AVE`, not BAY RDG).
  for (let k = unitAt - 2; k >= best.start + 2; k--) {
    if (!suffixOf(toks[k].w, country)) continue;
    const e = k + 2 < unitAt && directionalOf(toks[k + 1].w, country) ? k + 2 : k + 1;
    const line = lineWithoutNote(toks, best, e, unitAt, country);
    if (line.suffix === null || line.name === null) continue;
    const known = postalCode ? local.hasStreetOfType(postalCode, line.name, line.suffix) : knownStreet(line, local, postalCode, state, postal);
    if (!known) continue;
    line.building = joinWords(toks, e, unitAt);
    return line;
  }
  // A street without a type (`570 BROADWAY LEAVE AT BACK DOOR`, `90 VIA VERDE …`): the data's street of those words, with
  // a note of two words or more after it that starts with no street word (`19 HERITAGE OAKS` is no HERITAGE and a note);
  // without the ZIP, a street of the state so named.
  for (let k = unitAt - 2; (postalCode || state) && k >= best.start + 2; k--) {
    if (isStreetWord(toks[k].w) || toks[k].digit || toks[k].sep) continue;
    const line = lineWithoutNote(toks, best, k, unitAt, country);
    if (line.kind !== 'street' || line.suffix !== null || line.name === null) continue;
    if (!(postalCode ? local.hasStreetOfType(postalCode, line.name, null) : knownStreet(line, local, null, state, postal))) continue;
    line.building = joinWords(toks, k, unitAt);
    return line;
  }
  return l;
}

const MILITARY_LINE_ELSEWHERE = 25;

/** A split's score once its delivery line is read (`knownStreet`: the bonus for a street the loaded data holds). */
function splitScore(c: SplitCandidate, line: DeliveryLine, toks: readonly Token[], knownStreet: number): number {
  const noLine = c.start === 0 || toks[c.start]?.sep ? 2 : -10;
  return c.score + (c.p > c.start ? line.quality * 10 + knownStreet : noLine) +
    (c.city ? cityBonus(c.city, line.quality, line.attention !== null) : 0);
}

/** Parses a US or Canadian address. Never throws; what cannot be read is left null. */
export function parseNorthAmericanAddress(input: string, postal: PostalIndex, options: ParseOptions = {}): ParsedAddress {
  const toks = tokenizeAddress(input);
  // (Spanish unit words first: DEPTO is one slip from DEPT, but a Spanish speaker's apartment.)
  if (options.countryHint !== 'CA') readSpanishUnitWords(toks);
  respellUnitDesignators(toks);
  unitNumberWordsInFigures(toks);
  const milepost = toks.length > 2 ? takeMilepost(toks) : null;
  let country: 'US' | 'CA' | null = options.countryHint ?? null;
  const nonLatin = hasNonLatinLetters(input);
  const urbanization = country === 'CA' ? null : takeUrbanization(toks);
  if (country !== 'CA') houseNumberAfterSpanishStreet(toks);
  let end = toks.length;

  // Trailing country, possibly written twice (`UNITED STATES US`).
  for (let found = true; found; ) {
    found = false;
    for (const [words, code] of NorthAmericanCountryNames) {
      const at = end - words.length;
      // A country alone (`USA`) is no street either.
      if (at >= 0 && matchSequence(toks, at, end, words) && (words.length > 1 || words[0].length > 2 || at >= 2)) {
        country ??= code;
        end = at;
        found = true;
        break;
      }
    }
  }

  // Canada's ISO code after a Canadian postal code or a province's code in its own comma group (`…, ON M5H 2N2 CA`,
  // `…, ON, CA`): the country, not California (`…, ONTARIO, CA` is Ontario, California).
  if (end >= 3 && toks[end - 1].w === 'CA' && country !== 'US' &&
    (CA_POSTAL.test(toks[end - 2].w) || /^\d[A-Z]\d$/.test(toks[end - 2].w) || (toks[end - 1].sep && toks[end - 2].w.length === 2 && RegionByName.get(toks[end - 2].w)?.country === 'CA'))) {
    country = 'CA';
    end--;
  }

  // The last line written twice (`…, NASHVILLE, TN 37203, NASHVILLE, TN 37203`: a whole address in the street field,
  // then the city, state and ZIP fields again): once.
  end = dropRepeatedLastLine(toks, end);
  stateBeforePostalCode(toks, end, postal);

  // A unit written after the postal code (`… BOSTON MA 02108 APT 4`, `…, MA 02108, # 4`, `… M5V 2T6 UNIT 12`): the
  // delivery line's, as if written on it.
  const unitAfter = unitAfterPostalCode(toks, end);
  if (unitAfter) end = unitAfter.from;

  // Words after the ZIP code (`… COLUMBIA MO 65202 BALLENGER PROPANE INC`): a firm or note written last, set aside.
  let trailing: string | null = null;
  for (let k = end - 2; k >= Math.max(2, end - 7) && !toks[end - 1].digit; k--) {
    if (!toks[k].digit) continue;
    if (US_ZIP.test(toks[k].w) && RegionByName.get(toks[k - 1].w)?.country === 'US' && !RegionByName.has(toks[end - 1].w)) {
      trailing = joinWords(toks, k + 1, end);
      end = k + 1;
    }
    break;
  }

  const postalCodeTyped = zipWithLetterO(toks, end);

  // Postal code.
  let postalCode: string | null = null;
  let plus4: string | null = null;
  if (end >= 1) {
    const last = toks[end - 1].w;
    const prev = end >= 2 ? toks[end - 2].w : '';
    // A ZIP that lost its leading zero in a spreadsheet (`NJ 7030`) after a state.
    // Or after a name of that ZIP, with no state (`MANCHESTER 6040`), where no other country was named.
    const zip = US_ZIP.exec(last) ?? (/^\d{4}$/.test(last) && end >= 2 && RegionByName.get(prev)?.country === 'US' ? ['', `0${last}`] : null)
      ?? (country !== 'CA' ? zipLostItsZero(toks, end, postal, options.places) : null);
    const afterHighwayWord = HIGHWAY_LAST_WORDS.has(prev);
    const afterBoxWord =
      ['BOX', '#', 'BX', 'PO', 'POB', 'POBOX', 'DRAWER'].includes(prev) ||
      (UnitDesignatorTable.get(prev)?.requiresNumber === true && !RegionByName.has(prev));
    const splitZip =
      end >= 3 && /^\d{4}$/.test(last) && /^\d{5}$/.test(prev) ? [prev + last, prev, last]
      // A ZIP typed in two pieces after a state (`KY 402 19`, `KY 40 219`).
      : end >= 3 && /^\d{1,4}$/.test(last) && /^\d{1,4}$/.test(prev) && prev.length + last.length === 5 && RegionByName.has(toks[end - 3].w)
        ? [prev + last, prev + last, null]
      : null;
    const ca = CA_POSTAL.exec(last) ?? (end >= 2 && /^[A-Z]\d[A-Z]$/.test(prev) && /^\d[A-Z]\d$/.test(last) ? [prev + last, prev, last] : null);
    if (splitZip) {
      postalCode = splitZip[1];
      plus4 = splitZip[2];
      end -= 2;
      if (country !== 'CA') country = 'US';
    } else if (zip && (!afterBoxWord || end === 1) && (end === 1 || !afterHighwayWord || /^\d{5}/.test(last))) {
      postalCode = zip[1];
      plus4 = zip[2] ?? null;
      end--;
      // A five-digit ZIP after a US state is a US address whatever the hint said (`CA 94043` with `country: "CA"`, the
      // ISO code of Canada taken for California), as a Canadian postal code is Canadian.
      if (country !== 'CA' || (/^\d{5}$/.test(zip[1]) && RegionByName.get(prev)?.country === 'US')) country = 'US';
    } else if (ca) {
      postalCode = `${ca[1]} ${ca[2]}`;
      end -= ca[0].length === 6 && prev + last === ca[0] ? 2 : 1;
      country = 'CA';
    } else if (end >= 3 && RegionByName.get(toks[end - 3].w)?.country === 'CA' && MALFORMED_POSTAL_HALF.test(prev) && MALFORMED_POSTAL_HALF.test(last)) {
      // Letters and figures in two halves after a province (`ON M5V 2TX`, `ON M5H 2N`): a mistyped Canadian postal code,
      // taken as the postal code so that the answer can say it is malformed.
      postalCode = `${prev} ${last}`;
      end -= 2;
      country = 'CA';
    } else if (end >= 2 && RegionByName.get(prev)?.country === 'CA' && MALFORMED_POSTAL_CODE.test(last)) {
      postalCode = `${last.slice(0, 3)} ${last.slice(3)}`;
      end--;
      country = 'CA';
    } else if (end >= 3 && RegionByName.get(prev)?.country === 'US' && MALFORMED_ZIP.test(last)) {
      // Figures after a state where the ZIP goes (`CA 9151-2100`, `IL 6065460610`) are a mistyped ZIP: taken as the
      // ZIP, so that the city and state are still read and the answer can say the ZIP is malformed.
      const [five, four = null] = last.split('-');
      postalCode = five;
      plus4 = four;
      end--;
      if (country !== 'CA') country = 'US';
    }
  }

  // The country written before the postal code (`TORONTO ONTARIO CANADA M5H 2N2`): set aside like one written last.
  if (postalCode) {
    for (const [words, code] of COUNTRY_NAMES_BEFORE_POSTAL_CODE) {
      const at = end - words.length;
      if (at >= 2 && matchSequence(toks, at, end, words) && (country ?? code) === code) {
        country ??= code;
        end = at;
        break;
      }
    }
  }

  // State or province, by name (longest first) or two-letter code.
  let state: string | null = null;
  for (let k = Math.min(LONGEST_REGION_NAME_WORDS, end - 1); k >= 1 && !state; k--) {
    const at = end - k;
    const words = joinWords(toks, at, end);
    const phrase = words.includes('-') ? words.replace(/-/g, ' ') : words;
    const region = RegionByName.get(phrase) ?? stateWrittenAsWord(phrase, postalCode, toks, at, postal);
    if (!region || (country && region.country !== country && !(country === 'US' && region.country === 'CA' && !postalCode))) continue;
    // `…, FL` at the very end: FLOOR would need a number, so it is Florida.
    const lastAfterComma = toks[at].sep && at === end - 1 && UnitDesignatorTable.get(phrase)?.requiresNumber === true;
    if (!postalCode && region.country === 'US' && !lastAfterComma && (!toks[at].sep || (k === 1 && isStreetWord(phrase)))) {
      // Without a postal code a state ends the address after a known city of that state, or when it cannot be part
      // of a street: `123 MAIN CT` ends in a suffix, `3719 OLD ALABAMA` is a street.
      const cityBefore = knownCityBefore(toks, 0, at, region.code, postal, options.places);
      const before = toks[at - 1]?.w ?? '';
      const streetBefore = toks.slice(0, at - 1).some((t) => StreetSuffixTable.has(t.w) || UnitDesignatorTable.has(t.w));
      // A bare code at the end counts after a street with a number (`UNITED MANAGEMENT CO` is a firm).
      const numberBefore = toks.slice(0, at).some((t) => t.digit);
      // `… STE 106 DORAL FL`: a designator that needs a number cannot end the text as a unit, so FL is Florida.
      const unitCannotEnd = UnitDesignatorTable.get(phrase)?.requiresNumber === true && !toks[at - 1].digit && !isFloorNumber(toks[at - 1].w);
      const codeAtEnd = k === 1 && phrase.length === 2 && (!isStreetWord(phrase) || unitCannotEnd) && at >= 2 && numberBefore;
      const nameAfterStreet = k >= 1 && phrase.length > 2 && streetBefore && !DirectionalTable.has(before) && !HAS_DIGIT.test(before);
      // A code in a comma group of its own after a street (`APPLEGATE LN, LOUSVILLE, KY`) is no street type (KEY) there.
      const ownGroupAfterStreet = k === 1 && toks[at].sep && at === end - 1 && (streetBefore || StreetSuffixTable.has(before)) &&
        numberBefore && !DirectionalTable.has(phrase);
      // So is one after a town's words in the group after a street's type and comma (`APPLEGATE LN, LOUSIVILLE KY`,
      // the town misspelt): the street ended at the comma.
      const g = groupStartBefore(toks, at);
      const afterTownOfStreetGroup = k === 1 && phrase.length === 2 && at === end - 1 && g > 1 && g < at && toks[g].sep &&
        StreetSuffixTable.has(toks[g - 1].w) && numberBefore && !DirectionalTable.has(phrase) && !toks.slice(g, at).some((t) => t.digit);
      if (!cityBefore && !codeAtEnd && !nameAfterStreet && !ownGroupAfterStreet && !afterTownOfStreetGroup) continue;
    }
    // A state's name that is a big city's too, alone after the street with no ZIP (`1745 T ST SE, WASHINGTON`): the
    // city, as the ZIP would tell below. (A village's name stays the state: `100 MAIN ST, OHIO` lacks its city, it is
    // not in Ohio, IL.)
    if (!postalCode && phrase.length > 2 && region.country === 'US' && toks[at].sep &&
      postal.citiesByKey(cityKey(phrase)).some((c) => c.zips.length >= BIG_CITY_ZIPS)) {
      const g = groupStartBefore(toks, at);
      if (toks[g].number && !knownCityBefore(toks, g, at, region.code, postal, options.places)) continue;
    }
    // A state's name before a ZIP of another state whose place bears that name is the city (`WASHINGTON 20018`: DC).
    if (postalCode && phrase.length > 2) {
      const place = postal.zip(postalCode)?.[0];
      if (place && place.state !== region.code && place.cityKey === cityKey(phrase)) continue;
      // So is a province's name before a postal code of another province whose FSA's place ends with it (`FORT
      // SASKATCHEWAN T8L 1A1`: Alberta).
      const fsaCode = postalCode.replace(/[ -]/g, '').slice(0, 3);
      const fsa = region.country === 'CA' ? postal.fsa(fsaCode) : undefined;
      if (fsa && fsa.province !== region.code && at > 0 && postal.fsaNameHolds(fsaCode, cityKey(joinWords(toks, at - 1, end)))) continue;
    }
    state = region.code;
    country ??= region.country;
    if (region.country === 'CA') country = 'CA';
    end = at;
    // The state written twice (`ROSWELL, GEORGIA, GA 30075`, `MEMPHIS TN, TN 38103`) when a known city of it
    // stands before (unlike `NEW YORK, NY`, where the name is the city).
    for (let j = Math.min(LONGEST_REGION_NAME_WORDS, end - 1); j >= 1; j--) {
      if (RegionByName.get(joinWords(toks, end - j, end))?.code !== state || !(toks[end - j].sep || toks[end].sep)) continue;
      const g = groupStartBefore(toks, end - j);
      if (g < end - j && postal.city(state, joinWords(toks, g, end - j))) end -= j;
      break;
    }
  }

  // A state's name misspelt by one slip before a ZIP of that state (`MOUNTAIN VIEW, CALIFRONIA 94043`).
  // Without a ZIP, a name one slip from one state's alone, after a city of that state (`LOUISVILLE, KENTUKY`).
  let stateTyped: string | null = null;
  if (!state && country !== 'CA' && (postalCode || end >= 3)) {
    const misspelt = postalCode ? misspeltStateBefore(toks, end, postal.zip(postalCode)?.[0]?.state)
      : misspeltStateAfterCity(toks, end, postal, options.places);
    if (misspelt) {
      stateTyped = joinWords(toks, end - misspelt.words, end);
      state = misspelt.code;
      country = 'US';
      end -= misspelt.words;
    }
  }

  // A postal code in a comma group of its own before the city (a form's fields in another order), or with no comma
  // before the city it names (`6007 APPLEGATE LN 40219 LOUISVILLE KY`, as European addresses put it).
  if (!postalCode && state) {
    const moved = postalCodeInOwnGroup(toks, end, state, postal) ?? zipBeforeItsCity(toks, end, state, postal, options.places);
    if (moved) ({ postalCode, plus4, country, end } = moved);
  }
  const zipPlaces = postalCode && country === 'US' ? postal.zip(postalCode) : undefined;
  const zipState = zipPlaces?.[0]?.state;
  // State written before the city (`… CA LONG BEACH 90807`): the ZIP's state followed by a known city of it.
  if (!state && postalCode && country !== 'CA') {
    for (let c = 1; zipState && c <= 4 && end - c - 1 >= 1; c++) {
      if (toks[end - c - 1].w === zipState && postal.city(zipState, joinWords(toks, end - c, end))) {
        state = zipState;
        toks.splice(end - c - 1, 1);
        end--;
        break;
      }
    }
  }
  // A mistyped state code right before the ZIP (`CHICAGO, LL 60603`): two letters that are no state, no street or
  // unit word, and share a letter in place with the ZIP's state, or stand in a comma group of their own after the
  // city's (`ANYTOWN, ZZ 12345`). It is the state field; the engine corrects it.
  if (!state && postalCode && country !== 'CA' && end >= 3) {
    const w = toks[end - 1].w;
    const ownGroup = toks[end - 1].sep && !toks[end - 2].digit;
    if (zipState && /^[A-Z]{2}$/.test(w) && !RegionByName.has(w) && !isStreetWord(w) && (w[0] === zipState[0] || w[1] === zipState[1] || ownGroup)) {
      state = w;
      end--;
    }
  }
  // A mistyped state (above) names no place: the ZIP's state stands in for it.
  // (A Canadian postal code without its province: the FSA's province, for its places' names.)
  const fsaProvince = !state && postalCode && country === 'CA' ? postal.fsa(postalCode.slice(0, 3))?.province : undefined;
  const cityState = (state && RegionByName.has(state) ? state : null) ?? zipState ?? fsaProvince ?? null;
  const county = cityState ? countyBeforeState(toks, end, cityState, zipPlaces, postal, options.places) : null;
  if (county) end = county.end;
  end = dropRepeatedCity(toks, end, postal, cityState);
  const frenchBox = country === 'CA' && readFrenchWords(toks, end);
  const starts = deliveryStarts(toks, end);
  const best = bestSplit(toks, end, starts, state, postalCode, cityState, zipPlaces, postal, country, options.places);
  const start = best.start;
  // Units written before the street or box (`STE 201, 4401 N MESA`, `MSC 410833 PO BOX 415000`, `DEPT 528 4TH FLOOR
  // 300 E RANDOLPH ST`) join those after it; the innermost of all is the line's.
  let before = unitsBefore(toks, start);
  // … but a home's unit right after a whole street before a PO Box is that street's (`100 MAIN ST APT 5, PO BOX 456`:
  // the box takes no apartment; the street, set aside, keeps it). A suite or floor before a box stays with it, as a
  // firm's lockbox is written (`1950 N STEMMONS FWY STE 5010 LOCKBOX 848104`).
  if (before.units.length && best.line.kind === 'po_box' && before.units.every((u) => HOME_UNITS.has(u.designator)) &&
    streetEndsAt(toks, starts, before.from, country)) {
    before = { units: [], from: start };
  }
  if (before.units.length || (unitAfter && best.line.kind !== 'none')) {
    const line = best.line;
    const onLine = line.secondaryDesignator ? [...line.extraSecondaries, { designator: line.secondaryDesignator, number: line.secondaryNumber }] : [];
    keepInnermost(line, [...before.units, ...onLine, ...(unitAfter && line.kind !== 'none' ? [unitAfter.unit] : [])]);
    if (before.building && !line.building) line.building = before.building;
  }
  if (start >= end) best.line = emptyLine();
  // Several words without house number, suffix or route (`MUNICIPAL AIRPORT`, `JMB INSURANCE`) name a place or a firm,
  // not a street, and so does a lone letter; one word (`MAIN, ASHLAND NH`) stays a street (corners are intersections).
  const l = best.line;
  // A name ending in TOWER or BUILDING (no Pub 28 suffix) is a building, with or without a number.
  const lastWord = l.name?.split(' ').pop() ?? '';
  const buildingName = l.kind === 'street' && !l.suffix && /^(TOWER|TOWERS|BUILDING|BLDG|OFFICES)$/.test(lastWord);
  const placeName = (l.kind === 'street' && !l.primaryNumber && !l.suffix && !l.secondaryDesignator) || buildingName;
  // Without a house number, a name ending in a suffix that names places more than streets (`UNION STATION`,
  // `WRIGLEY FIELD`, `VALLEY WEST MALL`, `MERIDEN SQUARE`) is a landmark: Pub 28 has no street to deliver to.
  const landmark = l.kind === 'street' && !l.primaryNumber && !l.secondaryDesignator && l.suffix !== null && !l.suffixBeforeName &&
    !COMMON_STREET_TYPES.has(l.suffix) && !OPEN_ROAD_TYPES.has(l.suffix);
  if (buildingName && l.secondaryDesignator) {
    // `TERMINAL TOWER STE 1100`: the unit stays, the building name goes.
    best.line = { ...l, building: l.name, name: null, kind: 'none' };
  } else if (landmark || (placeName && l.name && (/ /.test(l.name) || FIRM_WORDS.has(l.name) || l.name.length === 1))) {
    best.line = { ...emptyLine(), leftover: [] };
    // Only a last line, whose ZIP names another place (`NEW ORLEANS, 12345`, `SALT LAKE CITY, 12345`): the words are a
    // city's, not a place's or a firm's, and all of them.
    if (postalCode && !state && best.start < best.at && postal.citiesByKey(cityKey(joinWords(toks, best.start, end))).length > 0) {
      best.at = best.start;
      best.cityFitsZip = acceptableForSomeZip(postal, zipPlaces, cityKey(joinWords(toks, best.at, end)), postalCode, options.places);
    }
    best.start = best.at;
  }

  if (frenchBox && best.line.kind === 'po_box') best.line.name = 'CP';
  // Mail to a ship goes to the ship's name (Pub 28 section 225): `USCGC HAMILTON, FPO AP 96667`, and with its hull
  // number, which is no house number (`USS NIMITZ CVN 68, FPO AP 96620`).
  const hullNumberRead = best.line.kind === 'street' && best.line.name === null && best.line.secondaryDesignator === null;
  if ((best.line.kind === 'none' || hullNumberRead) && best.at < end && MilitaryPostOffices.has(joinWords(toks, best.at, end))) {
    const ship = shipNameStart(toks, best.at);
    if (ship >= 0) {
      best.line = { ...emptyLine(), kind: 'military', name: joinWords(toks, ship, best.at), quality: 2 };
      best.start = ship;
    }
  }

  let otherLine: DeliveryLine | null = null;
  // Units written before the line (`APT 4, 123 MAIN ST`) are on the line now: the recipient ends before them.
  let recipientEnd = before.units.length && best.line.kind !== 'none' ? before.from : best.start;
  if (best.line.kind !== 'none' && best.start > 0) {
    const otherEnd = before.from;
    for (const s of starts) {
      if (s >= otherEnd) break;
      const l = parseDeliveryLine(toks, s, otherEnd, country);
      if (!l.primaryNumber || !l.name || !/[A-Z]/.test(l.name) || l.quality < 1 || l.leftover.length > 0 || l.kind === 'intersection') continue;
      otherLine = l;
      // `1201 PEACHTREE ST NE 400 COLONY SQ # 1001`: a numbered name that ends like a place (square, center, no
      // suffix) after a street of a common type names the building on that street, not a second address.
      const chosen = best.line;
      const streetFirst = l.kind === 'street' && ((l.suffix !== null && COMMON_STREET_TYPES.has(l.suffix)) || l.postdirection !== null);
      const placeLater = chosen.kind === 'street' && (chosen.suffix === null || (!COMMON_STREET_TYPES.has(chosen.suffix) && !OPEN_ROAD_TYPES.has(chosen.suffix)));
      if (streetFirst && placeLater && !l.secondaryDesignator) {
        const units = [...chosen.extraSecondaries, ...(chosen.secondaryDesignator ? [{ designator: chosen.secondaryDesignator, number: chosen.secondaryNumber }] : [])];
        best.line = { ...l, building: `${chosen.primaryNumber} ${streetWords(chosen)}` };
        keepInnermost(best.line, units);
        otherLine = null;
        recipientEnd = s;
      }
      break;
    }
  }

  // Words between the line and the city that are no part of it (`… SUITE 28 REFERENCE DIVISION MIRAMAR FL 33023`):
  // where the city read is no name of the ZIP but its last words are, those are the city; the rest is left over.
  if (zipPlaces && end - best.at >= 2 && !best.cityFitsZip) {
    const at = cityAfterNote(toks, best.at, end, zipPlaces, postalCode!, state, postal, options.places);
    if (at > best.at) {
      best.line.leftover = [...best.line.leftover, ...toks.slice(best.at, at).map((t) => t.w)];
      best.at = at;
    }
  }

  // The city's field left empty (`388 E MAIN ST LEAVE AT BACK DOOR, , VT 05753`): words run on from the delivery line
  // with no comma before them, that name no place of the ZIP, are a note on the line, not the city.
  if (end < toks.length && toks[end].blank && best.start < best.at && best.at < end && !toks[best.at].sep && !best.cityFitsZip && best.line.kind !== 'none') {
    const note = joinWords(toks, best.at, end);
    best.line = { ...best.line, building: best.line.building ? `${best.line.building} ${note}` : note };
    best.at = end;
  }

  // No city left before the state, the street's directional last and written out (`100 MAIN ST NORTH VA`): where the
  // state has a place of that name (North, VA; and the ZIP's, if any), it is the city, not the street's directional.
  if (best.at >= end && end > 0 && state && best.line.postdirection && best.line.kind === 'street' && toks[end - 1].w.length > 2 &&
    DirectionalTable.has(toks[end - 1].w) && postal.city(state, toks[end - 1].w) &&
    (!postalCode || zipPlaces?.some((place) => place.cityKey === cityKey(toks[end - 1].w)))) {
    best.line = { ...best.line, postdirection: null };
    best.at = end - 1;
  }

  // Every field written out: spreading the line into a literal with further fields costs a quarter of the parse.
  const line = best.line;
  return {
    kind: line.kind, primaryNumber: line.primaryNumber, predirection: line.predirection, name: line.name, suffix: line.suffix,
    suffixBeforeName: line.suffixBeforeName, postdirection: line.postdirection, secondaryDesignator: line.secondaryDesignator,
    secondaryNumber: line.secondaryNumber, extraSecondaries: line.extraSecondaries, leftover: line.leftover,
    // A marker beside a house number is a note on the line (`12345 STERLING HWY MM 95.5`).
    building: milepost && !milepost.asNumber ? (line.building ? `${line.building} ${milepost.text}` : milepost.text) : line.building,
    attention: line.attention, installation: line.installation, quality: line.quality,
    nameTyped: line.nameTyped,
    otherLine,
    urbanization,
    country,
    city: best.at < end ? joinWords(toks, best.at, end) : null,
    state,
    postalCode,
    plus4,
    recipient: recipientEnd > 0 ? joinWords(toks, 0, recipientEnd) : null,
    trailing,
    postalCodeTyped,
    stateTyped,
    county: county?.text ?? null,
    nonLatin,
    tokenCount: toks.length,
    milepost: milepost?.asNumber && line.primaryNumber === milepost.text ? { text: milepost.text, afterStreet: milepost.afterStreet } : null,
  };
}
