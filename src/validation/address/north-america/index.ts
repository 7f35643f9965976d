/**
 * The answer for a US or Canadian address: the parsed components checked against each other (ZIP, city and state
 * through PostalIndex; Canadian postal-code letter rules and first letter per province), then against the reference
 * data for DPV and ZIP+4, and written out the postal way (USPS Pub 28; Canada Post addressing guide).
 */
import type { AddressComponents, AddressResult, AddressStatus, Dpv } from '../../types.js';
import { AddressFootnotes as F } from '../footnotes.js';
import { reconcileCanadianLastLine } from './canadian-last-line.js';
import { cityOfZip } from './city-names.js';
import {
  letterUnitReading, lookupAt, NO_READINGS, NUMBER_RANGE, searchZips, unitAndNumberReadings, unitReadAs,
} from './delivery-point.js';
import { endsWithLastLine, NOT_STREETS, reconcileUsLastLine } from './us-last-line.js';
import { countyOf, deliveryLineText, secondaryText, streetPartsOf, streetText, words } from './written-form.js';
import { zipOfStreet } from './zip-by-street.js';
import { FIVE_DIGITS, zipOfState } from './zip-candidates.js';
import type { ParsedAddress } from '../parser/index.js';
import { lineWithoutNumber, villageSetAside } from '../parser/territory-forms.js';
import { cityKey, type PostalIndex } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { delivers, numberNotFound } from '../reference-types.js';
import { MilitaryStates, UnitDesignatorTable } from '../tables.js';

export { zipOfState, localZipsOfCity } from './zip-candidates.js';

/** Beyond docs/api.md#vocabularies (additive): the secondary units Pub 28 keeps off the delivery line (`BLDG A`, `FL 3`). */
export interface NorthAmericanComponents extends AddressComponents {
  extra_secondaries: string[];
  /** Puerto Rico's urbanization name (`LAS GLADIOLAS`), written `URB LAS GLADIOLAS` above the delivery line. */
  urbanization: string | null;
  /**
   * What the delivery line is: `street` (highways included), `po_box`, `rural_route`, `highway_contract`, `military`
   * (PSC/CMR/UNIT boxes, ships) or `general_delivery`; null when there is none. Couriers that do not deliver to PO
   * boxes or APO/FPO can filter on it.
   */
  delivery_type: DeliveryType | null;
  /** US: the county of the ZIP code's place (GeoNames), upper case; null in Canada or without a known ZIP. */
  county: string | null;
  /** Canada: the delivery installation of a box, route or general delivery (`STN MAIN`, `SUCC CENTRE-VILLE`). */
  delivery_installation: string | null;
}

export type DeliveryType = 'street' | 'po_box' | 'rural_route' | 'highway_contract' | 'military' | 'general_delivery';

/** Delivery lines that are no delivery point without a number: a street or highway, a PO Box. */
const NEEDS_NUMBER: ReadonlySet<ParsedAddress['kind']> = new Set(['street', 'highway', 'po_box']);

const DELIVERY_TYPE_BY_KIND: Partial<Record<ParsedAddress['kind'], DeliveryType>> = {
  street: 'street', highway: 'street', po_box: 'po_box', rural_route: 'rural_route', highway_contract: 'highway_contract',
  military: 'military', general_delivery: 'general_delivery',
};

export function validateNorthAmerican(
  p: ParsedAddress,
  postal: PostalIndex,
  reference: ReferenceIndex | undefined,
  inputWasCut: boolean,
): AddressResult {
  const canada = p.country === 'CA';
  const notes: string[] = [];
  if (inputWasCut) notes.push(F.tooLong);
  if (p.nonLatin) notes.push(F.nonLatin);
  // A village named alone in Guam, the Marianas, American Samoa or the Virgin Islands is the line, not a recipient.
  villageSetAside(p);
  const hasDeliveryLine = p.kind !== 'none' && p.name !== null;
  // A line that stands without a house number in a territory (territory-forms.ts): a Puerto Rico condominium or
  // residencial, whose name stands for the street (Pub 28 section 29: `CONDOMINIO EL MONTE NORTE APT 5B` -> COND EL
  // MONTE NORTE APT 5B), or a village or estate elsewhere, kept and said unchecked.
  const withoutNumber = lineWithoutNumber(p);
  const condominium = withoutNumber !== null;
  if (withoutNumber) p.name = withoutNumber.name;
  if (withoutNumber?.village) notes.push(F.villageLine(withoutNumber.village, p.name!));
  // Box numbers start at 1 (a street may have a house number 0; a post office has no box 0).
  const boxZero = p.kind === 'po_box' && p.primaryNumber !== null && /^0+$/.test(p.primaryNumber);
  // `UNIT 5 BOX 42` (military, Pub 28 section 225) delivers only through an APO, FPO or DPO: state AA, AE or AP.
  const militaryElsewhere = p.kind === 'military' && p.state !== null && !MilitaryStates.has(p.state);
  if (!hasDeliveryLine) {
    notes.push(p.postalCode && !p.city && !p.state ? F.onlyPostalCode : F.noDeliveryLine);
  } else if (p.kind === 'intersection') {
    notes.push(F.intersection);
  } else if (!p.primaryNumber && NEEDS_NUMBER.has(p.kind) && !condominium) {
    notes.push(F.noPrimaryNumber);
  } else if (boxZero) {
    notes.push(F.poBoxNumberZero);
  } else if (militaryElsewhere) {
    notes.push(F.militaryLineElsewhere);
  }
  // Two whole addresses, each with its last line (`6007 APPLEGATE LN, LOUISVILLE, KY 40219; 1745 T ST SE, …`): the one
  // nearer the end is checked, and the answer is ambiguous (Pub 28's line above the city is for one address's lines).
  // (The same address typed twice, its number and ZIP again, is no second one: a pasted field repeated.)
  const sameAgain = p.recipient !== null && p.primaryNumber !== null && p.postalCode !== null &&
    p.recipient.startsWith(`${p.primaryNumber} `) && p.recipient.endsWith(` ${p.postalCode.slice(0, 5)}`);
  const otherAddress = p.recipient !== null && p.otherLine !== null && !sameAgain && endsWithLastLine(p.recipient);
  if (p.recipient) notes.push(otherAddress ? F.otherAddressSetAside(p.recipient) : p.otherLine ? F.otherLineSetAside(p.recipient) : F.recipientDropped(p.recipient));
  if (p.leftover.length) notes.push(F.extraDropped(p.leftover.join(' ')));
  if (p.trailing) notes.push(F.extraDropped(p.trailing));
  if (p.county) notes.push(F.countyDropped(p.county));
  if (p.attention) notes.push(F.attentionDropped(p.attention));
  if (p.building) notes.push(F.buildingDropped(p.building));
  if (p.extraSecondaries.length) notes.push(F.extraSecondary(p.extraSecondaries.map(secondaryText).join(' ')));
  // `123 MAIN ST APT`: a designator that needs a number says nothing without it (Pub 28 section 213); it is dropped.
  if (p.secondaryDesignator && !p.secondaryNumber && UnitDesignatorTable.get(p.secondaryDesignator)?.requiresNumber) {
    notes.push(F.unitNumberMissing(p.secondaryDesignator));
    p.secondaryDesignator = null;
  }

  const last = canada ? reconcileCanadianLastLine(p, postal, reference, notes) : reconcileUsLastLine(p, postal, reference, notes);
  let street = streetPartsOf(p);
  let status: AddressStatus;
  let dpv: Dpv = '';
  let zip4: string | null = null;
  // The number is not among the sampled points of a street only a sample names (dpv "": neither confirmed nor denied).
  let notInSample = false;
  // The footnote saying a ZIP that is none of the city's could not be told from the street (zipOfStreet).
  let zipUndetermined: string | null = null;
  let corrected = last.corrected;
  if (p.stateTyped && p.state) {
    notes.unshift(F.stateCorrected(p.stateTyped, p.state));
    corrected = true;
  }
  if (p.postalCodeTyped && p.postalCode) {
    notes.unshift(F.zipCorrected(p.postalCodeTyped, p.postalCode));
    corrected = true;
  }
  // A state's route with the state's name misspelt (`6460 VEROMNT 113`): read as VT ROUTE 113, and said so.
  if (p.nameTyped && p.name) {
    notes.push(F.streetCorrected(p.nameTyped, p.name));
    corrected = true;
  }
  // What no reference data can mend: no (readable) delivery line, a corner, a street or box without its number, box 0.
  const lineInvalid = p.nonLatin || !hasDeliveryLine || p.kind === 'intersection' || (!p.primaryNumber && NEEDS_NUMBER.has(p.kind) && !condominium) ||
    boxZero || militaryElsewhere;
  let invalid = last.invalid || lineInvalid;

  // Delivery-point lookup: the given ZIP, or the one ZIP among the candidates where the street and number exist.
  if (reference && hasDeliveryLine && !p.nonLatin) {
    let zip = last.zip;
    let answer = zip && !last.invalid ? lookupAt(reference, zip, street, p) : null;
    // The ZIP was changed to the city's, but the delivery point is in the data under the ZIP as given (`… MEXICO BEACH
    // FL 32456`: a town whose GeoNames place has another ZIP): the given ZIP stands, and the city as written with it
    // where the loaded address files place the ZIP's points there; else the ZIP's own city (`150 CARTER ST, GROTON, CT
    // 06040`: GROTON's 06340 is one slip away, but the point is in 06040, MANCHESTER).
    const given = p.postalCode;
    if (given && zip !== given && FIVE_DIGITS.test(given) && !(answer && delivers(answer))) {
      const atGiven = lookupAt(reference, given, street, p);
      if (delivers(atGiven)) {
        // The ZIP correction was the only one made (reconcileUsLastLine returns right after correctZip): undone.
        const changed = notes.indexOf(F.zipCorrected(given, zip ?? ''));
        if (changed >= 0) notes.splice(changed, 1);
        zip = last.zip = given;
        answer = atGiven;
        const zipCity = cityOfZip(postal, reference, given);
        if (!p.city || reference.acceptsCity(given, p.city) || !zipCity) {
          last.city = p.city;
          corrected = false;
        } else {
          notes.push(F.cityCorrected(p.city, (last.city = zipCity)));
          corrected = true;
        }
      }
    }
    // A ZIP kept against the city typed (LastLine.zipKept) whose delivery point the data holds: ZIP and street decide,
    // the city is the ZIP's where the loaded address files do not place the ZIP's points in the city typed.
    if (last.zipKept && answer && delivers(answer) && p.city && !reference.acceptsCity(last.zip!, p.city)) {
      const city = cityOfZip(postal, reference, last.zip!);
      if (city) {
        notes.splice(notes.indexOf(last.zipKept), 1, F.cityCorrected(p.city, (last.city = city)));
        corrected = true;
      }
    }
    // (A street the name may mean is looked for where no ZIP was given, or the one given is no ZIP of the city: a slip
    // in the street and a good ZIP are mended in that ZIP alone.)
    let found = !answer || answer.dpv === '' || numberNotFound(answer)
      ? searchZips(reference, postal, last, street, p, zip, !given || last.invalid) : [];
    // A ZIP none of the city's that holds no delivery point of the street: the street decides, or nothing does.
    if (found.length !== 1 && last.invalid && !lineInvalid && !canada && zip && zip === given && !delivers(lookupAt(reference, zip, street, p))) {
      const settled = zipOfStreet(reference, postal, last, street, p, found);
      if (typeof settled === 'string') {
        notes.push((zipUndetermined = settled));
        zip = last.zip = null;
        invalid = lineInvalid;
      } else if (settled) {
        found = [settled];
      }
    }
    if (found.length === 1) {
      const [z, a, letter] = found[0];
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
      corrected = corrected || (zip !== null && added < 0);
      invalid = lineInvalid;
      zip = z;
      answer = a;
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
        corrected = true;
      } else if (last.nearCityOfZip) {
        // The ZIP is of none of them, or of two: the city typed is no name of it.
        invalid = true;
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
    // The city is another place of the state, whose ZIPs do not hold the street, but the delivery point is in the data
    // under the ZIP as given (`1267 MARTIN ST # 203, MEMPHIS, TN 37203`): ZIP and street decide, the city is the ZIP's.
    if (last.invalid && !answer && !canada && given && FIVE_DIGITS.test(given) && p.city && (!p.state || zipOfState(postal, given, p.state))) {
      const atGiven = lookupAt(reference, given, street, p);
      const city = cityOfZip(postal, reference, given);
      if (city && delivers(atGiven)) {
        notes.push(F.cityCorrected(p.city, city));
        last.city = city;
        zip = last.zip = given;
        answer = atGiven;
        corrected = true;
        invalid = lineInvalid;
      }
    }
    // A US number written as Canada Post writes a unit before the civic number (`203-1267 MARTIN ST`), with the unit
    // after it (`1267-203`), or with the unit's letter after it (`600B W 19TH AVE`, `600-B`): where the data holds no
    // such number but holds the building and its unit, that is the reading (Queens' `123-45` stays as found).
    const unitCivic = !canada && answer && numberNotFound(answer) && !p.secondaryNumber && zip ? unitAndNumberReadings(p.primaryNumber ?? '') : NO_READINGS;
    for (const [unit, number] of unitCivic) {
      const asUnit = reference.lookup({ postalCode: zip!, street, primaryNumber: number, secondaryNumber: unit });
      if (asUnit.dpv !== 'Y') continue;
      notes.push(F.unitInNumber(p.primaryNumber!, unit, number));
      p.primaryNumber = number;
      unitReadAs(p, unit);
      answer = asUnit;
      corrected = true;
      break;
    }
    // A range of house numbers (`100-110 MAIN ST`, a building on several lots): its first number, else its last, where
    // the data holds it and not the range (Queens' `123-45` counts down, so it is no range).
    const range = !canada && answer && numberNotFound(answer) && zip ? NUMBER_RANGE.exec(p.primaryNumber ?? '') : null;
    for (const number of range && Number(range[2]) > Number(range[1]) ? [range[1], range[2]] : []) {
      const end = reference.lookup({ postalCode: zip!, street, primaryNumber: number, secondaryNumber: p.secondaryNumber });
      if (!delivers(end)) continue;
      notes.push(F.numberOfRange(p.primaryNumber!, number));
      p.primaryNumber = number;
      answer = end;
      corrected = true;
      break;
    }
    // A street typed without its type, then a unit letter (`74 SPRINGFIELD B`): the letter is the unit where the data
    // holds only that reading.
    const asUnit = !canada && zip && (!answer || !delivers(answer)) ? letterUnitReading(reference, zip, street, p) : null;
    if (asUnit) {
      unitReadAs(p, asUnit.letter);
      answer = asUnit.answer;
    }
    // A letter after the street read as its post-directional, which the data's street does not have, where the building
    // needs a unit (`16031 W 63RD LN E`): the letter is the unit where the data holds it, and the street was right.
    const postLetter = street.postdirection;
    const fixed = answer?.correctedStreet;
    if (answer?.dpv === 'D' && zip && fixed && !fixed.postdirection && postLetter && /^[NSEW]$/.test(postLetter) && !p.secondaryNumber) {
      const withUnit = reference.lookup({ postalCode: zip, street: fixed, primaryNumber: p.primaryNumber, secondaryNumber: postLetter });
      if (withUnit.dpv === 'Y') {
        unitReadAs(p, postLetter);
        answer = { ...withUnit, correctedStreet: fixed, respelled: true };
      }
    }
    if (answer) {
      dpv = answer.dpv;
      zip4 = answer.zip4;
      notInSample = answer.numberNotInSample === true;
      if (answer.correctedStreet && answer.respelled) {
        // Only a street type inside the name written as the data writes it: standardized (N#), not corrected.
        street = answer.correctedStreet;
      } else if (answer.correctedStreet) {
        notes.push(F.streetCorrected(streetText(street, p.suffixBeforeName), streetText(answer.correctedStreet, p.suffixBeforeName)));
        street = answer.correctedStreet;
        corrected = true;
      }
      if (answer.ambiguous) notes.push(F.ambiguousStreet);
      // The unit as the ZIP+4 record writes it (`APT 5` or `# 5` where USPS has STE 5), as CASS output does.
      const designator = answer.dpv === 'Y' && p.secondaryNumber ? answer.unitDesignator : null;
      if (designator && designator !== p.secondaryDesignator) {
        notes.push(F.unitDesignatorOfData(p.secondaryDesignator ?? '#', designator));
        p.secondaryDesignator = designator;
      }
    }
  }
  if (last.invalid && !invalid) {
    // resolved by the reference data above
  } else if (last.invalid && notes.every((n) => !n.startsWith('C#'))) {
    notes.push(F.zipCityStateDisagree);
  }

  // Pub 28 writes the last line without punctuation but the hyphen (COEUR D ALENE, as GeoNames' Coeur d'Alene; the
  // typed O'FALLON reads O FALLON already); Canada Post keeps the apostrophe (L'ASSOMPTION).
  if (!canada && last.city?.includes("'")) last.city = last.city.replace(/'+/g, ' ').replace(/\s+/g, ' ').trim();
  if (invalid) status = 'invalid';
  else if (dpv === 'Y') status = corrected ? 'corrected' : 'verified';
  else if (dpv === 'S' || dpv === 'D') status = 'partial';
  else if (dpv === 'N') status = notes.includes(F.ambiguousStreet) ? 'ambiguous' : 'invalid';
  else if (notes.includes(F.ambiguousStreet) || zipUndetermined) status = 'ambiguous';
  else status = corrected ? 'corrected' : 'plausible';
  if (otherAddress && status !== 'invalid') status = 'ambiguous';

  if (dpv === 'Y') notes.push(F.deliveryPointConfirmed);
  else if (dpv === 'S') notes.push(F.secondaryUnconfirmed);
  else if (dpv === 'D') notes.push(F.secondaryMissing);
  // (A line without its house number was faulted for that already: no number is a delivery point.)
  else if (dpv === 'N' && status !== 'ambiguous' && !notes.includes(F.noPrimaryNumber)) notes.push(F.notFound);
  else if (dpv === '' && hasDeliveryLine && !invalid && !zipUndetermined) {
    // Address points (RRAD, OpenAddresses, NAR) cover the streets they name; ZIP+4 ranges cover a whole ZIP (then `N`).
    if (!last.zip) {
      // A city of several ZIPs, none given, and no reference data that places the street in one of them.
      const covered = reference?.coversAny(last.candidateZips);
      notes.push(F.zipMissing, !covered ? F.noReferenceDataForCity : NOT_STREETS.has(p.kind) ? F.boxNotInCityZips : F.streetNotInCityZips);
    } else if (notInSample) {
      notes.push(F.numberNotInSample);
    } else {
      notes.push(!reference?.covers(last.zip) ? F.noReferenceData : NOT_STREETS.has(p.kind) ? F.boxNotCovered : F.streetNotCovered);
    }
  }

  const delivery = hasDeliveryLine ? deliveryLineText(p, street, canada) : '';
  const plus4 = zip4 ? zip4.slice(6) : p.plus4;
  // A typed add-on the data's differs from (with the ZIP as typed): said, not a correction of the address.
  if (zip4 && p.plus4 && p.plus4 !== plus4 && p.postalCode === last.zip) notes.push(F.plus4Replaced(p.plus4, plus4!));
  const postalText = last.zip ? (canada ? last.zip : zip4 ?? last.zip) : '';
  const lastLine = canada
    ? words(' ', last.city, words('  ', last.state, postalText))
    : words(' ', last.city, last.state, postalText);
  const standardized = words(' ', p.urbanization ? `URB ${p.urbanization}` : null, delivery, lastLine) || null;
  if (standardized && hasDeliveryLine && !invalid) notes.push(canada ? F.standardizedCanada : F.standardized);

  const components: NorthAmericanComponents = {
    primary_number: p.primaryNumber,
    street_predirection: street.predirection,
    street_name: street.name,
    street_suffix: street.suffix,
    street_postdirection: street.postdirection,
    secondary_designator: p.secondaryDesignator,
    secondary_number: p.secondaryNumber,
    city: last.city ? last.city.toUpperCase() : null,
    state: last.state,
    postal_code: last.zip,
    plus4: canada ? null : plus4,
    country: canada ? 'CA' : 'US',
    extra_secondaries: p.extraSecondaries.map(secondaryText),
    urbanization: p.urbanization,
    delivery_type: hasDeliveryLine ? DELIVERY_TYPE_BY_KIND[p.kind] ?? null : null,
    county: canada ? null : countyOf(postal, last.zip, last.city),
    delivery_installation: p.installation,
  };
  return { status, standardized, dpv, zip4, country: components.country, components, footnotes: notes };
}
