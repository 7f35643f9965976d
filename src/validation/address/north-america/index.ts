/**
 * The answer for a US or Canadian address: the parsed components checked against each other (ZIP, city and state
 * through PostalIndex; Canadian postal-code letter rules and first letter per province), then against the reference
 * data for DPV and ZIP+4, and written out the postal way (USPS Pub 28; Canada Post addressing guide).
 */
import type { AddressComponents, AddressResult, AddressStatus, DeliveryType, Dpv } from '../../types.js';
import { AddressFootnotes as F } from '../footnotes.js';
import type { ParsedAddress } from '../parser/index.js';
import { lineWithoutNumber, villageSetAside } from '../parser/territory-forms.js';
import type { PostalIndex } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { MilitaryStates, UnitDesignatorTable } from '../tables.js';
import { reconcileCanadianLastLine } from './canadian-last-line.js';
import { evidenceOfAnswer } from './evidence.js';
import { type Check, checkAgainstReference, NO_EVIDENCE, type ReferenceEvidence } from './reference-check.js';
import { endsWithLastLine, NOT_STREETS, reconcileUsLastLine } from './us-last-line.js';
import { countyOf, deliveryLineText, secondaryText, streetPartsOf, words } from './written-form.js';

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

export type { DeliveryType } from '../../types.js';

/** Delivery lines that are no delivery point without a number: a street or highway, a PO Box. */
const NEEDS_NUMBER: ReadonlySet<ParsedAddress['kind']> = new Set(['street', 'highway', 'po_box']);

const DELIVERY_TYPE_BY_KIND: Partial<Record<ParsedAddress['kind'], DeliveryType>> = {
  street: 'street', highway: 'street', po_box: 'po_box', rural_route: 'rural_route', highway_contract: 'highway_contract',
  military: 'military', general_delivery: 'general_delivery',
};

/**
 * The answer for a parsed US or Canadian address, in steps: the delivery line's faults and the parts set aside said,
 * the last line checked (reconcileUsLastLine, reconcileCanadianLastLine), the corrections made while parsing said,
 * the delivery point looked for in the reference data (reference-check.ts), then the status, the DPV footnote and the
 * written form.
 */
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
  const line = deliveryLineFaults(p, notes);
  const otherAddress = setAsideSaid(p, notes);
  const last = canada ? reconcileCanadianLastLine(p, postal, reference, notes) : reconcileUsLastLine(p, postal, reference, notes);
  const street = streetPartsOf(p);
  const corrected = parsingCorrectionsSaid(p, notes) || last.corrected;
  // What no reference data can mend: no (readable) delivery line, a corner, a street or box without its number, box 0.
  const lineInvalid = p.nonLatin || !line.hasDeliveryLine || p.kind === 'intersection' ||
    (!p.primaryNumber && NEEDS_NUMBER.has(p.kind) && !line.condominium) || line.boxZero || line.militaryElsewhere;
  // Two letters in the state's place that no state has (`…, SPRINGFIELD, ZZ 99999`): said, and no address.
  if (p.notAState) notes.push(F.notAState(p.notAState));
  const check: Check = {
    p, canada, notes, last, street, lineInvalid, corrected, invalid: last.invalid || lineInvalid || p.notAState !== undefined, zipUndetermined: null,
  };
  const found = reference && line.hasDeliveryLine && !p.nonLatin ? checkAgainstReference(check, postal, reference) : NO_EVIDENCE;
  if (last.invalid && !check.invalid) {
    // resolved by the reference data above
  } else if (last.invalid && notes.every((n) => !n.startsWith('C#'))) {
    notes.push(F.zipCityStateDisagree);
  }
  // Pub 28 writes the last line without punctuation but the hyphen (COEUR D ALENE, as GeoNames' Coeur d'Alene; the
  // typed O'FALLON reads O FALLON already); Canada Post keeps the apostrophe (L'ASSOMPTION).
  if (!canada && last.city?.includes("'")) last.city = last.city.replace(/'+/g, ' ').replace(/\s+/g, ' ').trim();
  const status = statusOf(check, found.dpv, otherAddress);
  deliveryPointSaid(check, found, status, line.hasDeliveryLine, reference);
  return writtenAnswer(check, postal, status, found, line.hasDeliveryLine);
}

/** What the delivery line itself lacks or holds wrongly, before any data is asked. */
interface DeliveryLineFaults {
  hasDeliveryLine: boolean;
  /** A Puerto Rico condominium or residencial standing for the street, or a village: no number needed. */
  condominium: boolean;
  boxZero: boolean;
  militaryElsewhere: boolean;
}

/** The delivery line's faults, each said: none, a corner, a street or box without its number, box 0, a military box elsewhere. */
function deliveryLineFaults(p: ParsedAddress, notes: string[]): DeliveryLineFaults {
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
  return { hasDeliveryLine, condominium, boxZero, militaryElsewhere };
}

/**
 * What the parser set aside, said (a recipient, another line, words left over, a county, a building, units Pub 28
 * keeps off the line, a unit's word without its number); true when the line set aside is a whole other address.
 */
function setAsideSaid(p: ParsedAddress, notes: string[]): boolean {
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
  return otherAddress;
}

/** The corrections the parser made, said (a state or postal code mistyped, a state's route misspelt); true if any. */
function parsingCorrectionsSaid(p: ParsedAddress, notes: string[]): boolean {
  let corrected = false;
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
  return corrected;
}

/**
 * The status from the checks and the DPV code (a second address set aside makes an answer ambiguous). A correction is
 * `corrected` only where the reference data confirms the address it gives (dpv Y); unconfirmed, it is `plausible`,
 * its changes said in its footnotes (A#, B#, M#), which next_action asks the person to confirm.
 */
function statusOf({ notes, corrected, invalid, zipUndetermined }: Check, dpv: Dpv, otherAddress: boolean): AddressStatus {
  let status: AddressStatus;
  if (invalid) status = 'invalid';
  else if (dpv === 'Y') status = corrected ? 'corrected' : 'verified';
  else if (dpv === 'S' || dpv === 'D') status = 'partial';
  else if (dpv === 'N') status = notes.includes(F.ambiguousStreet) ? 'ambiguous' : 'invalid';
  else if (notes.includes(F.ambiguousStreet) || zipUndetermined) status = 'ambiguous';
  else status = 'plausible';
  return otherAddress && status !== 'invalid' ? 'ambiguous' : status;
}

/** The DPV footnote: confirmed, the unit unconfirmed or missing, not found, or what data covers the address or not. */
function deliveryPointSaid(
  { p, notes, last, invalid, zipUndetermined }: Check, { dpv, notInSample }: ReferenceEvidence, status: AddressStatus, hasDeliveryLine: boolean,
  reference: ReferenceIndex | undefined,
): void {
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
}

/** The answer written out: the standardized text (Pub 28 or Canada Post) and the components. */
function writtenAnswer(
  { p, canada, notes, last, street, invalid }: Check, postal: PostalIndex, status: AddressStatus, found: ReferenceEvidence,
  hasDeliveryLine: boolean,
): AddressResult {
  const { dpv, zip4 } = found;
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
  const { evidence, sources, location } = evidenceOfAnswer(found, status, last.zip, canada, postal);
  return { status, standardized, dpv, zip4, country: components.country, components, footnotes: notes, evidence, sources, location };
}
