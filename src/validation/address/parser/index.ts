/**
 * US and Canadian address parser: messy one-line (or multi-line) text -> the components of docs/api.md#vocabularies.
 *
 * The last line is read from the right (country, postal code, state or province), the delivery line from the left
 * (number, directional, name, suffix, unit). Where the street ends and the city begins is decided by scoring every
 * split: how cleanly the delivery line ends (Pub 28 suffix, unit, highway number), whether the rest is a known city of
 * the state (GeoNames, through PostalIndex), and whether a comma stands there.
 */
import { cityKey, type PostalIndex } from '../postal-index.js';
import { readFrenchWords, readSpanishUnitWords, shipNameStart, takeUrbanization } from '../regional-forms.js';
import { DirectionalTable, MilitaryPostOffices, RegionByName } from '../tables.js';
import { hasNonLatinLetters, joinWords, type Token, tokenizeAddress } from '../tokenize.js';
import { parseDeliveryLine, streetWords } from './delivery-line.js';
import { acceptableForSomeZip, cityAfterNote, countyBeforeState, dropRepeatedCity } from './place-names.js';
import { type LastLineRead, readLastLine } from './read-last-line.js';
import { HOME_UNITS, keepInnermost, respellUnitDesignators, unitNumberWordsInFigures, unitsBefore } from './secondary-units.js';
import { takeMilepost } from './special-forms.js';
import { type BestSplit, bestSplit, deliveryStarts, streetEndsAt } from './split-scoring.js';
import { houseNumberAfterStreet, plotNumber, puertoRicoHouseNumbers, puertoRicoStreetWords, takeAreaName, territoryOfTokens } from './territory-forms.js';
import { type DeliveryLine, emptyLine, type ParsedAddress, type ParseOptions } from './types.js';
import { COMMON_STREET_TYPES, FIRM_WORDS, OPEN_ROAD_TYPES } from './word-classes.js';

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
  const hint = options.countryHint ?? null;
  const nonLatin = hasNonLatinLetters(input);
  const territory = hint === 'CA' ? null : territoryOfTokens(toks, options.territory);
  const urbanization = hint === 'CA' ? null : takeUrbanization(toks) ?? (territory === 'PR' ? takeAreaName(toks) : null);
  if (territory === 'PR') puertoRicoHouseNumbers(toks);
  if (hint !== 'CA') houseNumberAfterStreet(toks, territory);
  if (territory === 'PR') puertoRicoStreetWords(toks);
  if (territory === 'VI') plotNumber(toks);

  const lastLine = readLastLine(toks, postal, options);
  const { country, state, postalCode, zipPlaces } = lastLine;
  let end = lastLine.end;
  // A mistyped state (readLastLine) names no place: the ZIP's state stands in for it.
  // (A Canadian postal code without its province: the FSA's province, for its places' names.)
  const fsaProvince = !state && postalCode && country === 'CA' ? postal.fsa(postalCode.slice(0, 3))?.province : undefined;
  const cityState = (state && RegionByName.has(state) ? state : null) ?? zipPlaces?.[0]?.state ?? fsaProvince ?? null;
  const county = cityState ? countyBeforeState(toks, end, cityState, zipPlaces, postal, options.places) : null;
  if (county) end = county.end;
  end = dropRepeatedCity(toks, end, postal, cityState);
  const frenchBox = country === 'CA' && readFrenchWords(toks, end);
  const starts = deliveryStarts(toks, end);
  const best = bestSplit(toks, end, starts, state, postalCode, cityState, zipPlaces, postal, country, options.places);
  const before = unitsJoined(toks, best, starts, lastLine.unitAfter, country);
  if (best.start >= end) best.line = emptyLine();
  placeOrFirmSetAside(toks, best, end, lastLine, postal, options);
  if (frenchBox && best.line.kind === 'po_box') best.line.name = 'CP';
  shipRead(toks, best, end);
  const { otherLine, recipientEnd } = otherLineBefore(toks, best, starts, before, country);
  cityAfterWordsOfLine(toks, best, end, lastLine, postal, options);
  const parsed = parsedAddress(toks, best, end, lastLine, { otherLine, recipientEnd, milepost, urbanization, county, nonLatin });
  if (lastLine.notAState) parsed.notAState = lastLine.notAState;
  return parsed;
}

/**
 * Units written before the street or box (`STE 201, 4401 N MESA`, `MSC 410833 PO BOX 415000`, `DEPT 528 4TH FLOOR
 * 300 E RANDOLPH ST`) joined with those after it and after the postal code; the innermost of all is the line's.
 * Returns the units before the line and where they start.
 */
function unitsJoined(
  toks: Token[], best: BestSplit, starts: readonly number[], unitAfter: LastLineRead['unitAfter'], country: 'US' | 'CA' | null,
): ReturnType<typeof unitsBefore> {
  const start = best.start;
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
  return before;
}

/**
 * Several words without house number, suffix or route (`MUNICIPAL AIRPORT`, `JMB INSURANCE`) name a place or a firm,
 * not a street, and so does a lone letter; one word (`MAIN, ASHLAND NH`) stays a street (corners are intersections).
 * Such a line is set aside (the recipient's), a building's name kept apart from its unit.
 */
function placeOrFirmSetAside(
  toks: readonly Token[], best: BestSplit, end: number, { postalCode, state, zipPlaces }: LastLineRead, postal: PostalIndex, options: ParseOptions,
): void {
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
}

/**
 * Mail to a ship goes to the ship's name (Pub 28 section 225): `USCGC HAMILTON, FPO AP 96667`, and with its hull
 * number, which is no house number (`USS NIMITZ CVN 68, FPO AP 96620`).
 */
function shipRead(toks: readonly Token[], best: BestSplit, end: number): void {
  const hullNumberRead = best.line.kind === 'street' && best.line.name === null && best.line.secondaryDesignator === null;
  if ((best.line.kind === 'none' || hullNumberRead) && best.at < end && MilitaryPostOffices.has(joinWords(toks, best.at, end))) {
    const ship = shipNameStart(toks, best.at);
    if (ship >= 0) {
      best.line = { ...emptyLine(), kind: 'military', name: joinWords(toks, ship, best.at), quality: 2 };
      best.start = ship;
    }
  }
}

/**
 * A whole delivery line before the one chosen (`6007 APPLEGATE LN, … ; 1745 T ST SE, …`): the other line, set aside
 * with the recipient; or, where it is a street and the chosen line names a place on it, the street, the place its
 * building. And where the recipient's words end.
 */
function otherLineBefore(
  toks: Token[], best: BestSplit, starts: readonly number[], before: ReturnType<typeof unitsBefore>, country: 'US' | 'CA' | null,
): { otherLine: DeliveryLine | null; recipientEnd: number } {
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
  return { otherLine, recipientEnd };
}

/** Words between the line and the city, or after the line where the city's field is empty, or a directional that is the city. */
function cityAfterWordsOfLine(
  toks: readonly Token[], best: BestSplit, end: number, { postalCode, state, zipPlaces }: LastLineRead, postal: PostalIndex, options: ParseOptions,
): void {
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
}

/** What was read besides the delivery line and the last line, for the parsed answer. */
interface AroundTheLine {
  otherLine: DeliveryLine | null;
  recipientEnd: number;
  milepost: ReturnType<typeof takeMilepost>;
  urbanization: string | null;
  county: ReturnType<typeof countyBeforeState>;
  nonLatin: boolean;
}

/** The parsed address: the delivery line chosen, the city between it and the last line, and what was set aside. */
function parsedAddress(
  toks: readonly Token[], best: BestSplit, end: number, { country, state, postalCode, plus4, trailing, postalCodeTyped, stateTyped }: LastLineRead,
  { otherLine, recipientEnd, milepost, urbanization, county, nonLatin }: AroundTheLine,
): ParsedAddress {
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
