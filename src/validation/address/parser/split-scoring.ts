/**
 * Where the delivery line starts and where the city begins: every start (house number, box, route) and every split
 * scored, by how cleanly the line ends, whether the rest is a known place of the state or ZIP, commas, and streets the
 * loaded data holds; searched best bound first.
 */
import { cityKey, cityWordKey, type PostalIndex, type ZipPlace } from '../postal-index.js';
import { siteAndCompartment } from '../regional-forms.js';
import {
  BuildingWords, CanadianInstallationTypes, CanadianProvinces, CanadianStreetTypeBefore, DirectionalTable, MilitaryStates, NumberWords,
  OrdinalStreetNames, PrivateUnitWords, RouteModifiers, RURAL_ROUTE_ONLY_WITH_BOX, SpanishStreetTypes, StreetSuffixTable,
  UnitDesignatorTable,
} from '../tables.js';
import { joinWords, type Token } from '../tokenize.js';
import { lineQuality, parseDeliveryLine } from './delivery-line.js';
import { acceptableForSomeZip, knownCityZips, stateOfPostalCode } from './place-names.js';
import { secondaryStart } from './secondary-units.js';
import { HIGHWAY_LAST_WORDS, matchHighway, matchPoBox, matchRuralRoute, PO_BOXES_BY_FIRST_WORD, stateRouteAt } from './special-forms.js';
import { type DeliveryLine, emptyLine, type LocalPlaceNames } from './types.js';
import {
  ATTENTION_MARKERS, commaWithin, COMMON_STREET_TYPES, directionalOf, FIRM_WORDS, isFloorNumber, isStreetWord, LONE_LETTER_UNIT,
  MAX_CITY_WORDS, NUMBER_WORDS, opposedDirections, RECIPIENT_MARKERS, suffixOf,
} from './word-classes.js';

/** True when a whole street line (house number, name) of the text ends right at `end`. */
export function streetEndsAt(toks: readonly Token[], starts: readonly number[], end: number, country: 'US' | 'CA' | null): boolean {
  for (const s of starts) {
    if (s >= end) break;
    const l = parseDeliveryLine(toks, s, end, country);
    if (l.kind === 'street' && l.primaryNumber && l.name && l.quality >= 1 && l.leftover.length === 0) return true;
  }
  return false;
}

/**
 * Where a delivery line may start: each house number, PO Box, rural route or GENERAL DELIVERY (up to four). Words
 * before the chosen start are a recipient, firm or building name; an earlier complete street followed by another
 * (`ONE MIDTOWN PLAZA 1360 PEACHTREE ST`) yields to the later one by score.
 */
export function deliveryStarts(toks: readonly Token[], end: number): number[] {
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

/** Road types named in segments by direction (`GRAVENSTEIN HWY N`, `GRAVENSTEIN HWY S`). */
const SEGMENTED_ROAD_TYPES: ReadonlySet<string> = new Set(['HWY', 'FWY', 'EXPY', 'TPKE', 'BYP', 'PIKE']);

/** What a split without a city loses where a state or postal code says one is expected. */
const CITY_MISSING = 6;

/** What a street of the loaded data counts for, against the city and separator evidence of a split. */
const KNOWN_STREET_BONUS = 10;

/** The delivery line and city the parser settled on: where the line starts, where the city starts, the line read. */
export interface BestSplit {
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
export function bestSplit(
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
          // A cardinal directional alone after the street's comma opens the town typed (`PINE AVE, N. MIAMI`: North
          // Miami, which GeoNames, one place per ZIP, does not list): a town is named North, South, East or West of its
          // neighbour, and a street's post-directional is written before the comma. Known only by its neighbour's name,
          // it is believed a little less than a known one; the last line says it is unchecked. Not after a highway or a
          // route number, whose segments carry the direction (`GRAVENSTEIN HWY, N SEBASTOPOL`, `HWY. 31, W. WHITE
          // HOUSE`: US 31W), nor a quadrant (`BOLTON ROAD, NW ATLANTA`), which names no town: the corpus labels those
          // the street's.
          const opensCommaGroup = toks[p].sep && p - 1 >= start && !toks[p - 1].sep && directionalOf(first, country)!.length === 1 &&
            !toks[p - 1].digit && !SEGMENTED_ROAD_TYPES.has(suffixOf(toks[p - 1].w, country) ?? '');
          if (restZips > 0 && opensCommaGroup && !opposed) {
            knownZips = restZips;
            score -= 1;
          } else if (restZips > 0 && !opposed && (suffixOf(toks[p - 1].w, country) || halfOfPair)) score -= 12.5;
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
