/**
 * The delivery line read from the left: house number, directional, name, street type, post-directional, unit (Pub 28
 * section 23), with the special forms, corners of two streets, building names and notes run on from the street.
 */
import { streetTypesOneSlipFrom } from '../postal-index.js';
import { readInstallation, siteAndCompartment } from '../regional-forms.js';
import {
  BuildingWords, CanadianStreetTypeBefore, EstateNameEnds, IntersectionLeads, NumberWords, OrdinalStreetNames, RouteModifiers,
  RURAL_ROUTE_ONLY_WITH_BOX, SpanishStreetTypes, UnitDesignatorTable,
} from '../tables.js';
import { joinWords, makeToken, PRIMARY_NUMBER, type Token } from '../tokenize.js';
import { readSecondaries, secondaryStart } from './secondary-units.js';
import { HIGHWAY_LAST_WORDS, letteredRoad, matchHighway, matchPoBox, ROUTE_WORDS, RURAL_ROUTES_BY_FIRST_WORD } from './special-forms.js';
import { type DeliveryLine, emptyLine, NO_SECONDARIES, type Secondary } from './types.js';
import {
  COMMON_STREET_TYPES, directionalOf, FRACTION, matchSequence, NONE, opposedDirections, ORDINAL_NUMBER, suffixOf,
} from './word-classes.js';

/** Particles inside names (`P DE LEON`, `J VAN DYKE`): an initial before one is part of the name. */
const NAME_PARTICLES: ReadonlySet<string> = new Set(['DE', 'DEL', 'DELA', 'DI', 'DU', 'LA', 'LE', 'LAS', 'LOS', 'VAN', 'VON', 'DER']);
/** Street types that name a numbered road when a number follows them alone (`ROAD 97`), each as the name writes it. */
const NUMBERED_ROAD_WORDS: ReadonlyMap<string, string> = new Map([['ROAD', 'ROAD'], ['RD', 'ROAD'], ['AVENUE', 'AVENUE'], ['AVE', 'AVENUE']]);

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

/**
 * How well a street line reads: `base` 2 when it ends as a street should, less for each word left over. Words after
 * a designated unit (`STE 110 BURNS PROF BLG`) are notes and cost little; elsewhere they break the line.
 */
export function lineQuality(line: DeliveryLine, base: number): number {
  const afterUnit = line.secondaryNumber !== null && line.secondaryDesignator !== '#' && base === 2;
  // (A PO Box left over after the unit is no note: it is the delivery line nearer the city, `… APT B, PO BOX 456`.)
  const left = line.leftover.length;
  const cheap = afterUnit && (left === 0 || left > 5 || matchPoBox(line.leftover.map((w) => makeToken(w, false)), 0, left) !== left - 1);
  return base - (cheap ? 0.3 : 1) * left - (line.primaryNumber ? 0 : 1) - (impossibleName(line.name, line.suffix) ? 2 : 0);
}

/**
 * A street name no street has: a sign alone (`37 #`, `4 &`) or a unit designator that takes a number (`5 SUITE 704`);
 * a designator's word with a street type after it names a street (`300 E KEY ST`, `12 PIER AVE`).
 */
function impossibleName(name: string | null, suffix: string | null): boolean {
  return name !== null && (!/[A-Z0-9]/.test(name) || (suffix === null && UnitDesignatorTable.get(name)?.requiresNumber === true));
}

/** The street words of a parsed line as Pub 28 writes them (`N MAIN ST`, `RUE SAINT-DENIS`). */
export function streetWords(l: DeliveryLine): string {
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
  if (at >= end) return emptyLine();
  const special = poBoxLine(toks, at, end, country) ?? ruralRouteLine(toks, at, end, country) ?? generalDeliveryLine(toks, at, end, country) ??
    unitsOnlyLine(toks, at, end);
  if (special) return special;
  const line = emptyLine();
  let i = primaryNumberRead(toks, at, end, country, line);
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
  return highwayLine(toks, at, i, end, country, line, placeAfter) ?? streetLine(toks, at, i, end, country, line, placeAfter, unitAfterNumber);
}

/** PO Box (Pub 28 section 28): `PO BOX 63`, the box number is the primary number; else null. */
function poBoxLine(toks: readonly Token[], i: number, end: number, country: 'US' | 'CA' | null): DeliveryLine | null {
  const boxId = matchPoBox(toks, i, end);
  if (boxId >= 0) {
    const line = emptyLine();
    line.kind = 'po_box';
    line.name = 'PO BOX';
    line.primaryNumber = toks[boxId].w;
    readSecondaries(toks, readInstallation(toks, boxId + 1, end, country, line), end, line);
    line.quality = 2 - line.leftover.length;
    return line;
  }
  return null;
}

/**
 * Rural route and highway contract (Pub 28 sections 24, 25): `RR 2 BOX 152`; a Canada Post rural address with its
 * site and compartment before the route or after it (`SITE 6 COMP 10 RR 8`); else null.
 */
function ruralRouteLine(toks: readonly Token[], at: number, end: number, country: 'US' | 'CA' | null): DeliveryLine | null {
  const siteBefore = country === 'CA' ? siteAndCompartment(toks, at, end) : null;
  const i = siteBefore ? siteBefore.next : at;
  for (const [words, route] of RURAL_ROUTES_BY_FIRST_WORD.get(toks[i].w) ?? NONE) {
    if (!matchSequence(toks, i, end, words)) continue;
    let k = i + words.length;
    if (k < end && toks[k].w === '#') k++;
    // `ROUTE BOX # 100`: a rural route box written without the route number.
    const numberless = route === 'RR' && k < end && toks[k].w === 'BOX';
    if (!numberless && (k >= end || !/^\d{1,4}[A-Z]{0,2}$/.test(toks[k].w))) continue;
    const routeNumber = numberless ? null : toks[k++].w;
    if (RURAL_ROUTE_ONLY_WITH_BOX.has(words[0]) && toks[k]?.w !== 'BOX' && toks[k]?.w !== 'BX') continue;
    const line = emptyLine();
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
  return null;
}

/** General delivery (Pub 28 section 26; Canada Post `GD STN MAIN`); else null. */
function generalDeliveryLine(toks: readonly Token[], i: number, end: number, country: 'US' | 'CA' | null): DeliveryLine | null {
  const generalDelivery = matchSequence(toks, i, end, ['GENERAL', 'DELIVERY']) ? 2 : country === 'CA' && toks[i].w === 'GD' ? 1 : 0;
  if (generalDelivery) {
    const line = emptyLine();
    line.kind = 'general_delivery';
    line.name = 'GENERAL DELIVERY';
    for (let k = readInstallation(toks, i + generalDelivery, end, country, line); k < end; k++) line.leftover.push(toks[k].w);
    line.quality = 2 - line.leftover.length;
    return line;
  }
  return null;
}

/** Only secondary units (`BLDG 15, SUITE 100`): no street; else null. */
function unitsOnlyLine(toks: readonly Token[], i: number, end: number): DeliveryLine | null {
  if (UnitDesignatorTable.get(toks[i].w)?.requiresNumber && i + 1 < end && (toks[i + 1].unitId || toks[i + 1].w === '#')) {
    const line = emptyLine();
    readSecondaries(toks, i, end, line);
    line.quality = -1 - line.leftover.length;
    return line;
  }
  return null;
}

/**
 * The house number at `i`, into `line.primaryNumber`: written as a word (`ONE S WACKER DR`, in figures as Pub 28
 * section 232 writes it), with a Canadian unit before it (`104-2701`), a fraction (`123 1/2`) or a letter (`214 B`).
 * Returns where the words after it start.
 */
function primaryNumberRead(toks: readonly Token[], i: number, end: number, country: 'US' | 'CA' | null, line: DeliveryLine): number {
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
  return i;
}

/**
 * Highways and routes (US HWY 278, STATE ROUTE 690, COUNTY ROAD 5), possibly after a directional or a name word, the
 * route's modifiers, type, name words, note and directional after it; else null.
 */
function highwayLine(
  toks: readonly Token[], at: number, i: number, end: number, country: 'US' | 'CA' | null, line: DeliveryLine, placeAfter: boolean,
): DeliveryLine | null {
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
    // writes it) is the road's suffix; but a highway word there repeats the route's own (`US 101 HWY`, `SR 318 HWY`,
    // `STATE HWY 9 HWY`: US HIGHWAY 101, STATE ROUTE 318, STATE HIGHWAY 9), and one is enough.
    const typeAfter = after < end ? suffixOf(toks[after].w, country) : undefined;
    const afterType = toks[after + 1]?.w;
    if (typeAfter && (after + 1 === end || directionalOf(afterType, country) || afterType === '#' || UnitDesignatorTable.has(afterType))) {
      if (typeAfter !== 'HWY') line.suffix = typeAfter;
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
  return null;
}

/**
 * A street: its name between the pre-directional and the type and post-directional (Pub 28 section 23), a building's
 * name or a note after it, the units; a building's name alone where there is no number.
 */
function streetLine(
  toks: readonly Token[], at: number, i: number, end: number, country: 'US' | 'CA' | null, line: DeliveryLine, placeAfter: boolean,
  unitAfterNumber: Secondary | null,
): DeliveryLine {
  const unitAt = secondaryStart(toks, i, end, country);
  // A building's name with no house number (`FIRST UNION TOWER STE 1400`): no street (not FIRST UNION as 1ST UN);
  // the name is set aside, the unit kept. (Not a name ending in a word that is also a street type: PLAZA, CENTER.)
  if (!line.primaryNumber && i === at && unitAt - i >= 2 && BuildingWords.has(toks[unitAt - 1].w) && !suffixOf(toks[unitAt - 1].w, country)) {
    line.building = joinWords(toks, i, unitAt);
    readSecondaries(toks, unitAt, end, line);
    line.quality = -line.leftover.length;
    return line;
  }
  const name = i;
  let [nameEnd, noteBeforePlace] = buildingStart(toks, i, unitAt, end, country, line, placeAfter);
  // A connector left dangling before the unit joins nothing (`523W 6TH ST & 330`: the suite).
  while (nameEnd - name >= 2 && nameEnd === unitAt && unitAt < end && (toks[nameEnd - 1].w === '&' || toks[nameEnd - 1].w === 'AND')) nameEnd--;

  // Suffix, post-directional and pre-directional, keeping at least one word for the name (Pub 28 section 233:
  // `N ST` is a street named N; `AVENUE H` a street named AVENUE H).
  const { s, e, predir, suffix, postdir, suffixBefore } = typeAndDirectionals(toks, name, nameEnd, country);
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

/** The street's words from `s` to `e` read: its type and directionals taken off the name's ends, and where the name is. */
interface StreetWordsRead {
  s: number;
  e: number;
  predir: string | undefined;
  suffix: string | undefined;
  postdir: string | undefined;
  /** A Canadian street type written before the name (`RUE`, `BOUL`). */
  suffixBefore: boolean;
}

/**
 * The type, post-directional and pre-directional of the street written in toks[s, e), keeping at least one word for
 * the name (Pub 28 section 233: `N ST` is a street named N; `AVENUE H` a street named AVENUE H); Canada's types
 * written before the name.
 */
function typeAndDirectionals(toks: readonly Token[], s: number, e: number, country: 'US' | 'CA' | null): StreetWordsRead {
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
  return { s, e, predir, suffix, postdir, suffixBefore };
}
