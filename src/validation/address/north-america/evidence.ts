/**
 * What confirmed a US or Canadian answer and where it is (docs/api.md#address-evidence): the reference data's own
 * word where it gives one (a delivery point, an address point, a TIGER number range, the street), else what the DPV
 * code and the postal data tell; never more than the status claims.
 */
import type { AddressEvidence, AddressLocation, AddressResult, AddressStatus } from '../../types.js';
import type { PostalIndex } from '../postal-index.js';
import type { ReferenceEvidence } from './reference-check.js';

export type EvidenceOfAnswer = Pick<AddressResult, 'evidence' | 'sources' | 'location'>;

/** The shipped ZIP and FSA tables are GeoNames extracts (src/validation/address/README.md#data). */
const POSTAL_DATA_SOURCE = 'geonames';

/**
 * Evidence, sources and location of an answer. `zip` is the postal code the answer stands by (null when it has none).
 * An invalid answer has no location: a ZIP's centre is no place for an address that is not there.
 */
export function evidenceOfAnswer(
  found: ReferenceEvidence, status: AddressStatus, zip: string | null, canada: boolean, postal: PostalIndex,
): EvidenceOfAnswer {
  const known = zip !== null && (canada ? postal.fsa(zip.slice(0, 3)) !== undefined : (postal.zip(zip)?.length ?? 0) > 0);
  const centre = known && !canada ? zipCentre(postal, zip!) : null;
  const fromData = found.sources ? [...found.sources] : [];
  const delivers = found.dpv === 'Y' || found.dpv === 'S' || found.dpv === 'D';
  if (status === 'invalid') {
    // A number the data's street does not hold (N): the street is known, the address is not.
    return found.dpv === 'N' ? { evidence: 'street', sources: fromData, location: null } : none();
  }
  if (delivers) {
    return { evidence: pointEvidence(found), sources: fromData, location: found.location ?? centre };
  }
  if (found.evidence === 'street_range') return { evidence: 'street_range', sources: fromData, location: found.location ?? centre };
  // A street only sampled points name, without this number (or one the data names, number unknown); not several streets.
  if ((found.notInSample || found.evidence === 'street') && status !== 'ambiguous') {
    return { evidence: 'street', sources: fromData, location: centre };
  }
  return known ? { evidence: 'postal_code', sources: [POSTAL_DATA_SOURCE], location: centre } : none();
}

const none = (): EvidenceOfAnswer => ({ evidence: 'none', sources: [], location: null });

/**
 * A delivery point's evidence: the index's word for it, else told from the answer (only USPS ZIP+4 ranges give the
 * add-on today; address files give points without one).
 */
function pointEvidence(found: ReferenceEvidence): AddressEvidence {
  if (found.evidence === 'delivery_point' || found.evidence === 'address_point') return found.evidence;
  return found.zip4 ? 'delivery_point' : 'address_point';
}

/** The ZIP's centre (GeoNames, two decimals: about a kilometre), from the first of its places that has one. */
function zipCentre(postal: PostalIndex, zip: string): AddressLocation | null {
  const place = postal.zip(zip.slice(0, 5))?.find((p) => p.lat !== undefined && p.lon !== undefined);
  return place ? { lat: place.lat!, lon: place.lon!, precision: 'postal_code' } : null;
}
