/**
 * US and Canadian address parser: messy one-line (or multi-line) text -> the components of docs/api.md#vocabularies.
 *
 * The last line is read from the right (country, postal code, state or province), the delivery line from the left
 * (number, directional, name, suffix, unit). Where the street ends and the city begins is decided by scoring every
 * split: how cleanly the delivery line ends (Pub 28 suffix, unit, highway number), whether the rest is a known city of
 * the state (GeoNames, through PostalIndex), and whether a comma stands there.
 */
import { parseDeliveryLine, streetWords } from './delivery-line.js';
import {
  COUNTRY_NAMES_BEFORE_POSTAL_CODE, dropRepeatedLastLine, MALFORMED_POSTAL_CODE, MALFORMED_POSTAL_HALF, MALFORMED_ZIP,
  misspeltStateAfterCity, misspeltStateBefore, postalCodeInOwnGroup, stateBeforePostalCode, stateWrittenAsWord, zipBeforeItsCity,
  zipLostItsZero, zipWithLetterO,
} from './last-line.js';
import {
  acceptableForSomeZip, BIG_CITY_ZIPS, cityAfterNote, countyBeforeState, dropRepeatedCity, knownCityBefore,
} from './place-names.js';
import {
  HOME_UNITS, keepInnermost, respellUnitDesignators, unitAfterPostalCode, unitNumberWordsInFigures, unitsBefore,
} from './secondary-units.js';
import { HIGHWAY_LAST_WORDS, takeMilepost } from './special-forms.js';
import { bestSplit, deliveryStarts, streetEndsAt } from './split-scoring.js';
import { type DeliveryLine, emptyLine, type ParsedAddress, type ParseOptions } from './types.js';
import {
  CA_POSTAL, COMMON_STREET_TYPES, FIRM_WORDS, groupStartBefore, HAS_DIGIT, isFloorNumber, isStreetWord, matchSequence, OPEN_ROAD_TYPES,
  US_ZIP,
} from './word-classes.js';
import { cityKey, type PostalIndex } from '../postal-index.js';
import { readFrenchWords, readSpanishUnitWords, shipNameStart, takeUrbanization } from '../regional-forms.js';
import {
  DirectionalTable, LONGEST_REGION_NAME_WORDS, MilitaryPostOffices, NorthAmericanCountryNames, RegionByName, StreetSuffixTable,
  UnitDesignatorTable,
} from '../tables.js';
import { hasNonLatinLetters, joinWords, tokenizeAddress } from '../tokenize.js';
import { houseNumberAfterStreet, plotNumber, puertoRicoStreetWords, takeAreaName, territoryOfTokens } from './territory-forms.js';

export { parseDeliveryLine } from './delivery-line.js';
export { unitDepth } from './secondary-units.js';
export type { DeliveryKind, DeliveryLine, ParsedAddress, Secondary, ParseOptions, LocalPlaceNames } from './types.js';

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
  const territory = country === 'CA' ? null : territoryOfTokens(toks, options.territory);
  const urbanization = country === 'CA' ? null : takeUrbanization(toks) ?? (territory === 'PR' ? takeAreaName(toks) : null);
  if (country !== 'CA') houseNumberAfterStreet(toks, territory);
  if (territory === 'PR') puertoRicoStreetWords(toks);
  if (territory === 'VI') plotNumber(toks);
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
