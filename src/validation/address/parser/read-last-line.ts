/**
 * The last line read from the right: the country named at the end, the postal code (typed wrong too: split, without
 * its leading zero, with O for 0), the state or province (by name or code, misspelt, written twice), and what stands
 * after them (a unit, a firm's name). What is left before `end` is the delivery line and the city.
 */
import { cityKey, type PostalIndex, type ZipPlace } from '../postal-index.js';
import {
  DirectionalTable, LONGEST_REGION_NAME_WORDS, NorthAmericanCountryNames, RegionByName, StreetSuffixTable, UnitDesignatorTable,
} from '../tables.js';
import { joinWords, type Token } from '../tokenize.js';
import {
  COUNTRY_NAMES_BEFORE_POSTAL_CODE, dropRepeatedLastLine, MALFORMED_POSTAL_CODE, MALFORMED_POSTAL_HALF, MALFORMED_ZIP,
  misspeltStateAfterCity, misspeltStateBefore, postalCodeInOwnGroup, stateBeforePostalCode, stateWrittenAsWord, zipBeforeItsCity,
  zipLostItsZero, zipWithLetterO,
} from './last-line.js';
import { BIG_CITY_ZIPS, knownCityBefore } from './place-names.js';
import { unitAfterPostalCode } from './secondary-units.js';
import { HIGHWAY_LAST_WORDS } from './special-forms.js';
import type { ParseOptions } from './types.js';
import { CA_POSTAL, groupStartBefore, HAS_DIGIT, isFloorNumber, isStreetWord, matchSequence, US_ZIP } from './word-classes.js';

/** The last line as read so far, and where the text not yet read ends. */
export interface LastLineRead {
  /** The text not yet read is `toks[0, end)`. */
  end: number;
  country: 'US' | 'CA' | null;
  postalCode: string | null;
  plus4: string | null;
  state: string | null;
  /** A state's name misspelt, as typed. */
  stateTyped: string | null;
  /** Two letters in the state's place that are no state's code (ParsedAddress.notAState). */
  notAState?: string;
  /** A postal code typed with the letter O for 0, as typed. */
  postalCodeTyped: string | null;
  /** Words after the ZIP code (a firm or note written last), set aside. */
  trailing: string | null;
  /** A unit written after the postal code, for the delivery line. */
  unitAfter: ReturnType<typeof unitAfterPostalCode>;
  /** The ZIP's places (a US ZIP the embedded data knows). */
  zipPlaces: readonly ZipPlace[] | undefined;
}

/** Reads the last line off the end of `toks` (tokens may be taken out where a state was written twice). */
export function readLastLine(toks: Token[], postal: PostalIndex, options: ParseOptions): LastLineRead {
  const r: LastLineRead = {
    end: toks.length, country: options.countryHint ?? null, postalCode: null, plus4: null, state: null, stateTyped: null,
    postalCodeTyped: null, trailing: null, unitAfter: null, zipPlaces: undefined,
  };
  takeCountryNamed(toks, r);
  takeCanadaCode(toks, r);
  // The last line written twice (`…, NASHVILLE, TN 37203, NASHVILLE, TN 37203`: a whole address in the street field,
  // then the city, state and ZIP fields again): once.
  r.end = dropRepeatedLastLine(toks, r.end);
  stateBeforePostalCode(toks, r.end, postal);
  // A unit written after the postal code (`… BOSTON MA 02108 APT 4`, `…, MA 02108, # 4`, `… M5V 2T6 UNIT 12`): the
  // delivery line's, as if written on it.
  r.unitAfter = unitAfterPostalCode(toks, r.end);
  if (r.unitAfter) r.end = r.unitAfter.from;
  takeTrailingWords(toks, r);
  r.postalCodeTyped = zipWithLetterO(toks, r.end);
  takePostalCode(toks, r, postal, options);
  if (r.postalCode) takeCountryBeforePostalCode(toks, r);
  takeState(toks, r, postal, options);
  takeMisspeltState(toks, r, postal, options);
  // A postal code in a comma group of its own before the city (a form's fields in another order), or with no comma
  // before the city it names (`6007 APPLEGATE LN 40219 LOUISVILLE KY`, as European addresses put it).
  if (!r.postalCode && r.state) {
    const moved = postalCodeInOwnGroup(toks, r.end, r.state, postal) ?? zipBeforeItsCity(toks, r.end, r.state, postal, options.places);
    if (moved) ({ postalCode: r.postalCode, plus4: r.plus4, country: r.country, end: r.end } = moved);
  }
  r.zipPlaces = r.postalCode && r.country === 'US' ? postal.zip(r.postalCode) : undefined;
  takeStateBeforeCity(toks, r, postal);
  takeMistypedStateCode(toks, r);
  return r;
}

/** The country named at the end, possibly written twice (`UNITED STATES US`). */
function takeCountryNamed(toks: readonly Token[], r: LastLineRead): void {
  let { end, country } = r;
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
  r.end = end;
  r.country = country;
}

/**
 * Canada's ISO code after a Canadian postal code or a province's code in its own comma group (`…, ON M5H 2N2 CA`,
 * `…, ON, CA`): the country, not California (`…, ONTARIO, CA` is Ontario, California).
 */
function takeCanadaCode(toks: readonly Token[], r: LastLineRead): void {
  const { end, country } = r;
  if (end >= 3 && toks[end - 1].w === 'CA' && country !== 'US' &&
    (CA_POSTAL.test(toks[end - 2].w) || /^\d[A-Z]\d$/.test(toks[end - 2].w) || (toks[end - 1].sep && toks[end - 2].w.length === 2 && RegionByName.get(toks[end - 2].w)?.country === 'CA'))) {
    r.country = 'CA';
    r.end--;
  }
}

/** Words after the ZIP code (`… COLUMBIA MO 65202 BALLENGER PROPANE INC`): a firm or note written last, set aside. */
function takeTrailingWords(toks: readonly Token[], r: LastLineRead): void {
  const end = r.end;
  for (let k = end - 2; k >= Math.max(2, end - 7) && !toks[end - 1].digit; k--) {
    if (!toks[k].digit) continue;
    if (US_ZIP.test(toks[k].w) && RegionByName.get(toks[k - 1].w)?.country === 'US' && !RegionByName.has(toks[end - 1].w)) {
      r.trailing = joinWords(toks, k + 1, end);
      r.end = k + 1;
    }
    break;
  }
}

/**
 * The postal code: a ZIP (typed in two pieces, without its leading zero, mistyped) or a Canadian postal code (in two
 * halves, malformed), which tells the country.
 */
function takePostalCode(toks: readonly Token[], r: LastLineRead, postal: PostalIndex, options: ParseOptions): void {
  let { end, country, postalCode, plus4 } = r;
  if (end < 1) return;
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
  r.end = end;
  r.country = country;
  r.postalCode = postalCode;
  r.plus4 = plus4;
}

/** The country written before the postal code (`TORONTO ONTARIO CANADA M5H 2N2`): set aside like one written last. */
function takeCountryBeforePostalCode(toks: readonly Token[], r: LastLineRead): void {
  const { end, country } = r;
  for (const [words, code] of COUNTRY_NAMES_BEFORE_POSTAL_CODE) {
    const at = end - words.length;
    if (at >= 2 && matchSequence(toks, at, end, words) && (country ?? code) === code) {
      r.country ??= code;
      r.end = at;
      break;
    }
  }
}

/** State or province, by name (longest first) or two-letter code. */
function takeState(toks: readonly Token[], r: LastLineRead, postal: PostalIndex, options: ParseOptions): void {
  let { end, country, state } = r;
  const { postalCode } = r;
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
  r.end = end;
  r.country = country;
  r.state = state;
}

/**
 * A state's name misspelt by one slip before a ZIP of that state (`MOUNTAIN VIEW, CALIFRONIA 94043`). Without a ZIP,
 * a name one slip from one state's alone, after a city of that state (`LOUISVILLE, KENTUKY`).
 */
function takeMisspeltState(toks: readonly Token[], r: LastLineRead, postal: PostalIndex, options: ParseOptions): void {
  const { end, country, state, postalCode } = r;
  if (state || country === 'CA' || !(postalCode || end >= 3)) return;
  const misspelt = postalCode ? misspeltStateBefore(toks, end, postal.zip(postalCode)?.[0]?.state)
    : misspeltStateAfterCity(toks, end, postal, options.places);
  if (misspelt) {
    r.stateTyped = joinWords(toks, end - misspelt.words, end);
    r.state = misspelt.code;
    r.country = 'US';
    r.end -= misspelt.words;
  }
}

/** State written before the city (`… CA LONG BEACH 90807`): the ZIP's state followed by a known city of it. */
function takeStateBeforeCity(toks: Token[], r: LastLineRead, postal: PostalIndex): void {
  if (r.state || !r.postalCode || r.country === 'CA') return;
  const zipState = r.zipPlaces?.[0]?.state;
  const end = r.end;
  for (let c = 1; zipState && c <= 4 && end - c - 1 >= 1; c++) {
    if (toks[end - c - 1].w === zipState && postal.city(zipState, joinWords(toks, end - c, end))) {
      r.state = zipState;
      toks.splice(end - c - 1, 1);
      r.end--;
      break;
    }
  }
}

/**
 * A mistyped state code right before the ZIP (`CHICAGO, LL 60603`): two letters that are no state, no street or unit
 * word, and share a letter in place with the ZIP's state, or stand in a comma group of their own after the city's
 * (`ANYTOWN, ZZ 12345`). It is the state field; the engine corrects it.
 */
function takeMistypedStateCode(toks: readonly Token[], r: LastLineRead): void {
  const { end } = r;
  if (r.state || !r.postalCode || r.country === 'CA' || end < 3) return;
  const zipState = r.zipPlaces?.[0]?.state;
  const w = toks[end - 1].w;
  const ownGroup = toks[end - 1].sep && !toks[end - 2].digit;
  if (zipState && /^[A-Z]{2}$/.test(w) && !RegionByName.has(w) && !isStreetWord(w) && (w[0] === zipState[0] || w[1] === zipState[1] || ownGroup)) {
    r.state = w;
    r.end--;
  } else if (!r.zipPlaces?.length && ownGroup && /^[A-Z]{2}$/.test(w) && !RegionByName.has(w) && !isStreetWord(w)) {
    // A ZIP code no place has, after two letters in a comma group of their own (`…, SPRINGFIELD, ZZ 99999`): the
    // state's place, holding no state's code; the city is the group before it, not those two letters.
    r.notAState = w;
    r.end--;
  }
}
