/**
 * A US or Canadian address checked against the loaded reference data: the delivery point looked for under the ZIP
 * given, or the one ZIP among the candidates where the street and number are; then the ZIP, city and state mended by
 * what the data holds, the house number read again where the data holds another reading of it (a unit in it, a range,
 * a unit letter), and the street as the data spells it. Each step says what it changed.
 */
import type { Dpv } from '../../types.js';
import { AddressFootnotes as F } from '../footnotes.js';
import type { ParsedAddress } from '../parser/index.js';
import { cityKey, type PostalIndex } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { delivers, numberNotFound, type ReferenceAnswer, type StreetParts } from '../reference-types.js';
import type { LastLine } from './checked-last-line.js';
import { cityOfZip } from './city-names.js';
import {
  type Found, letterUnitReading, lookupAt, NO_READINGS, NUMBER_RANGE, searchZips, unitAndNumberReadings, unitReadAs,
} from './delivery-point.js';
import { streetText } from './written-form.js';
import { zipOfStreet } from './zip-by-street.js';
import { FIVE_DIGITS, zipOfState } from './zip-candidates.js';

/** An address being checked: the parse, the last line as checked, and what the checks have found so far. */
export interface Check {
  readonly p: ParsedAddress;
  readonly canada: boolean;
  readonly notes: string[];
  readonly last: LastLine;
  street: StreetParts;
  /** What no reference data can mend: no (readable) delivery line, a corner, a street or box without its number, box 0. */
  readonly lineInvalid: boolean;
  corrected: boolean;
  invalid: boolean;
  /** The footnote saying a ZIP that is none of the city's could not be told from the street (zipOfStreet). */
  zipUndetermined: string | null;
}

/** What the reference data said of the delivery point. */
export interface ReferenceEvidence {
  dpv: Dpv;
  zip4: string | null;
  /** The number is not among the sampled points of a street only a sample names (dpv "": neither confirmed nor denied). */
  notInSample: boolean;
  /** What the index says confirmed it, the sources behind it and where it is, where the index gives them. */
  evidence?: ReferenceAnswer['evidence'];
  sources?: ReferenceAnswer['sources'];
  location?: ReferenceAnswer['location'];
}

export const NO_EVIDENCE: ReferenceEvidence = { dpv: '', zip4: null, notInSample: false };

/** The ZIP the search stands on, the ZIP given, and the data's answer there. */
interface Search {
  readonly given: string | null;
  zip: string | null;
  answer: ReferenceAnswer | null;
}

/** Delivery-point lookup: the given ZIP, or the one ZIP among the candidates where the street and number exist. */
export function checkAgainstReference(c: Check, postal: PostalIndex, reference: ReferenceIndex): ReferenceEvidence {
  const { p, last } = c;
  const zip = last.zip;
  const s: Search = { given: p.postalCode, zip, answer: zip && !last.invalid ? lookupAt(reference, zip, c.street, p) : null };
  givenZipHoldsPoint(c, s, postal, reference);
  keptZipDecidesCity(c, s, postal, reference);
  const found = zipsHoldingPoint(c, s, postal, reference);
  if (found.length === 1) foundZipTaken(c, s, found[0], postal, reference);
  givenZipOverOtherPlace(c, s, postal, reference);
  numberReadAgain(c, s, reference);
  return s.answer ? answerTaken(c, s.answer) : NO_EVIDENCE;
}

/**
 * The ZIP was changed to the city's, but the delivery point is in the data under the ZIP as given (`… MEXICO BEACH
 * FL 32456`: a town whose GeoNames place has another ZIP): the given ZIP stands, and the city as written with it
 * where the loaded address files place the ZIP's points there; else the ZIP's own city (`150 CARTER ST, GROTON, CT
 * 06040`: GROTON's 06340 is one slip away, but the point is in 06040, MANCHESTER).
 */
function givenZipHoldsPoint(c: Check, s: Search, postal: PostalIndex, reference: ReferenceIndex): void {
  const { p, notes, last } = c;
  const { given, zip, answer } = s;
  if (!given || zip === given || !FIVE_DIGITS.test(given) || (answer && delivers(answer))) return;
  const atGiven = lookupAt(reference, given, c.street, p);
  if (!delivers(atGiven)) return;
  // The ZIP correction was the only one made (reconcileUsLastLine returns right after correctZip): undone.
  const changed = notes.indexOf(F.zipCorrected(given, zip ?? ''));
  if (changed >= 0) notes.splice(changed, 1);
  s.zip = last.zip = given;
  s.answer = atGiven;
  const zipCity = cityOfZip(postal, reference, given);
  if (!p.city || reference.acceptsCity(given, p.city) || !zipCity) {
    last.city = p.city;
    c.corrected = false;
  } else {
    notes.push(F.cityCorrected(p.city, (last.city = zipCity)));
    c.corrected = true;
  }
}

/**
 * A ZIP kept against the city typed (LastLine.zipKept) whose delivery point the data holds: ZIP and street decide,
 * the city is the ZIP's where the loaded address files do not place the ZIP's points in the city typed.
 */
function keptZipDecidesCity(c: Check, { answer }: Search, postal: PostalIndex, reference: ReferenceIndex): void {
  const { p, notes, last } = c;
  if (!(last.zipKept && answer && delivers(answer) && p.city && !reference.acceptsCity(last.zip!, p.city))) return;
  const city = cityOfZip(postal, reference, last.zip!);
  if (city) {
    notes.splice(notes.indexOf(last.zipKept), 1, F.cityCorrected(p.city, (last.city = city)));
    c.corrected = true;
  }
}

/**
 * The ZIPs holding the delivery point where the ZIP's own answer does not confirm it. (A street the name may mean is
 * looked for where no ZIP was given, or the one given is no ZIP of the city: a slip in the street and a good ZIP are
 * mended in that ZIP alone.) A ZIP none of the city's that holds no delivery point of the street: the street decides
 * (zipOfStreet), or nothing does, and the ZIP is left out.
 */
function zipsHoldingPoint(c: Check, s: Search, postal: PostalIndex, reference: ReferenceIndex): Found[] {
  const { p, notes, last } = c;
  const { given, zip, answer } = s;
  let found = !answer || answer.dpv === '' || numberNotFound(answer)
    ? searchZips(reference, postal, last, c.street, p, zip, !given || last.invalid) : [];
  if (found.length !== 1 && last.invalid && !c.lineInvalid && !c.canada && zip && zip === given && !delivers(lookupAt(reference, zip, c.street, p))) {
    const settled = zipOfStreet(reference, postal, last, c.street, p, found);
    if (typeof settled === 'string') {
      notes.push((c.zipUndetermined = settled));
      s.zip = last.zip = null;
      c.invalid = c.lineInvalid;
    } else if (settled) {
      found = [settled];
    }
  }
  return found;
}

/** The one ZIP holding the delivery point taken, and said: the ZIP added or corrected, the state and city it tells. */
function foundZipTaken(c: Check, s: Search, [z, a, letter]: Found, postal: PostalIndex, reference: ReferenceIndex): void {
  const { p, notes, last } = c;
  const zip = s.zip;
  if (letter) {
    unitReadAs(p, letter);
  }
  const added = zip ? notes.indexOf(F.zipAdded(zip)) : -1;
  if (added >= 0) notes[added] = F.zipAdded(z); // the ZIP was ours (a one-ZIP town's), not the input's
  else if (zip && z !== zip) {
    // A ZIP kept against the city typed: the street's points are in the city's ZIP, which corrects it.
    if (last.zipKept && notes.includes(last.zipKept)) notes.splice(notes.indexOf(last.zipKept), 1);
    // The fault found in the ZIP typed (`402199`: no ZIP code) is answered by the correction.
    const typed = p.plus4 ? `${zip}-${p.plus4}` : zip;
    for (const fault of [F.zipUnknown(zip), F.zipMalformed(typed)]) if (notes.includes(fault)) notes.splice(notes.indexOf(fault), 1);
    notes.push(F.zipCorrected(zip, z));
  }
  else if (!zip) notes.push(F.zipAdded(z));
  c.corrected = c.corrected || (zip !== null && added < 0);
  c.invalid = c.lineInvalid;
  s.zip = z;
  s.answer = a;
  last.zip = z;
  if (!last.state) {
    // Found from the city alone: the ZIP's state.
    const state = postal.zip(z)?.[0]?.state;
    const missing = notes.indexOf(last.missing);
    if (state && missing >= 0) notes.splice(missing, 1, F.stateAdded((last.state = state)));
  }
  const nearCity = last.nearCityOfZip?.get(z);
  if (nearCity && last.city) {
    // A misspelt city, one slip from several names: the ZIP found tells which.
    notes.push(F.cityCorrected(last.city, nearCity));
    last.city = nearCity;
    c.corrected = true;
  } else if (last.nearCityOfZip) {
    // The ZIP is of none of them, or of two: the city typed is no name of it.
    c.invalid = true;
  }
  // The city as the ZIP's place spells it (FORESTHILL for 95631, where FOREST HILL of another state was the name).
  const spelt = last.city ? postal.zip(z)?.find((place) => cityKey(place.city) === cityKey(last.city!))?.city : undefined;
  // (Not a city typed beside a ZIP kept for it, whose spelling is one USPS accepts: FOXBOROUGH stays FOXBOROUGH.)
  if (spelt && spelt !== last.city && !last.zipKept) {
    // A correction made before the ZIP was known names the city as the ZIP spells it too.
    const said = notes.findIndex((n) => n.startsWith('B#: city corrected from ') && n.endsWith(` to ${last.city}`));
    if (said >= 0) notes[said] = `${notes[said].slice(0, -last.city!.length)}${spelt}`;
    last.city = spelt;
  }
  if (!last.city) {
    // Found from the state alone: the ZIP's city.
    const city = cityOfZip(postal, reference, z);
    const missing = notes.indexOf(last.missing);
    if (city && missing >= 0) notes.splice(missing, 1, F.cityAdded((last.city = city)));
  }
}

/**
 * The city is another place of the state, whose ZIPs do not hold the street, but the delivery point is in the data
 * under the ZIP as given (`1267 MARTIN ST # 203, MEMPHIS, TN 37203`): ZIP and street decide, the city is the ZIP's.
 */
function givenZipOverOtherPlace(c: Check, s: Search, postal: PostalIndex, reference: ReferenceIndex): void {
  const { p, notes, last } = c;
  const { given } = s;
  if (!(last.invalid && !s.answer && !c.canada && given && FIVE_DIGITS.test(given) && p.city && (!p.state || zipOfState(postal, given, p.state)))) return;
  const atGiven = lookupAt(reference, given, c.street, p);
  const city = cityOfZip(postal, reference, given);
  if (city && delivers(atGiven)) {
    notes.push(F.cityCorrected(p.city, city));
    last.city = city;
    s.zip = last.zip = given;
    s.answer = atGiven;
    c.corrected = true;
    c.invalid = c.lineInvalid;
  }
}

/** The house number read again where the data holds no such number but another reading of it. */
function numberReadAgain(c: Check, s: Search, reference: ReferenceIndex): void {
  const { p, notes, canada, street } = c;
  const { zip } = s;
  // A US number written as Canada Post writes a unit before the civic number (`203-1267 MARTIN ST`), with the unit
  // after it (`1267-203`), or with the unit's letter after it (`600B W 19TH AVE`, `600-B`): where the data holds no
  // such number but holds the building and its unit, that is the reading (Queens' `123-45` stays as found).
  const unitCivic = !canada && s.answer && numberNotFound(s.answer) && !p.secondaryNumber && zip ? unitAndNumberReadings(p.primaryNumber ?? '') : NO_READINGS;
  for (const [unit, number] of unitCivic) {
    const asUnit = reference.lookup({ postalCode: zip!, street, primaryNumber: number, secondaryNumber: unit });
    if (asUnit.dpv !== 'Y') continue;
    notes.push(F.unitInNumber(p.primaryNumber!, unit, number));
    p.primaryNumber = number;
    unitReadAs(p, unit);
    s.answer = asUnit;
    c.corrected = true;
    break;
  }
  // A range of house numbers (`100-110 MAIN ST`, a building on several lots): its first number, else its last, where
  // the data holds it and not the range (Queens' `123-45` counts down, so it is no range).
  const range = !canada && s.answer && numberNotFound(s.answer) && zip ? NUMBER_RANGE.exec(p.primaryNumber ?? '') : null;
  for (const number of range && Number(range[2]) > Number(range[1]) ? [range[1], range[2]] : []) {
    const end = reference.lookup({ postalCode: zip!, street, primaryNumber: number, secondaryNumber: p.secondaryNumber });
    if (!delivers(end)) continue;
    notes.push(F.numberOfRange(p.primaryNumber!, number));
    p.primaryNumber = number;
    s.answer = end;
    c.corrected = true;
    break;
  }
  // A street typed without its type, then a unit letter (`74 SPRINGFIELD B`): the letter is the unit where the data
  // holds only that reading.
  const asUnit = !canada && zip && (!s.answer || !delivers(s.answer)) ? letterUnitReading(reference, zip, street, p) : null;
  if (asUnit) {
    unitReadAs(p, asUnit.letter);
    s.answer = asUnit.answer;
  }
  // A letter after the street read as its post-directional, which the data's street does not have, where the building
  // needs a unit (`16031 W 63RD LN E`): the letter is the unit where the data holds it, and the street was right.
  const postLetter = street.postdirection;
  const fixed = s.answer?.correctedStreet;
  if (s.answer?.dpv === 'D' && zip && fixed && !fixed.postdirection && postLetter && /^[NSEW]$/.test(postLetter) && !p.secondaryNumber) {
    const withUnit = reference.lookup({ postalCode: zip, street: fixed, primaryNumber: p.primaryNumber, secondaryNumber: postLetter });
    if (withUnit.dpv === 'Y') {
      unitReadAs(p, postLetter);
      s.answer = { ...withUnit, correctedStreet: fixed, respelled: true };
    }
  }
}

/** The data's answer taken: its DPV code and ZIP+4, the street and unit designator as the data writes them, said. */
function answerTaken(c: Check, answer: ReferenceAnswer): ReferenceEvidence {
  const { p, notes, street } = c;
  if (answer.correctedStreet && answer.respelled) {
    // Only a street type inside the name written as the data writes it: standardized (N#), not corrected.
    c.street = answer.correctedStreet;
  } else if (answer.correctedStreet) {
    notes.push(F.streetCorrected(streetText(street, p.suffixBeforeName), streetText(answer.correctedStreet, p.suffixBeforeName)));
    c.street = answer.correctedStreet;
    c.corrected = true;
  }
  if (answer.ambiguous) notes.push(F.ambiguousStreet);
  // The unit as the ZIP+4 record writes it (`APT 5` or `# 5` where USPS has STE 5), as CASS output does.
  const designator = answer.dpv === 'Y' && p.secondaryNumber ? answer.unitDesignator : null;
  if (designator && designator !== p.secondaryDesignator) {
    notes.push(F.unitDesignatorOfData(p.secondaryDesignator ?? '#', designator));
    p.secondaryDesignator = designator;
  }
  return {
    dpv: answer.dpv, zip4: answer.zip4, notInSample: answer.numberNotInSample === true,
    evidence: answer.evidence, sources: answer.sources, location: answer.location,
  };
}
