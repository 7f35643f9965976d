/**
 * A ZIP that is none of the city's (a city of several ZIPs), where the delivery-point search found no single ZIP: the
 * street decides, or nothing does. A ZIP is corrected only to one where the reference data has the street (and the
 * number); a slip of the ZIP typed (correctZip's `slipZips`) only chooses among those. Where the data cannot tell, the
 * answer says so (`ambiguous`) instead of guessing: a slipped digit of a city's ZIP is most often another of its ZIPs.
 */
import { AddressFootnotes as F } from '../footnotes.js';
import type { ParsedAddress } from '../parser/index.js';
import type { PostalIndex } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { numberNotFound, type StreetParts } from '../reference-types.js';
import { candidatesOf, type Found, lookupAt } from './delivery-point.js';
import type { LastLine } from './checked-last-line.js';
import { MAX_CANDIDATE_ZIPS } from './zip-candidates.js';

/**
 * The ZIP the street decides, or the footnote saying why none can be chosen (then the ZIP is left out), or null where
 * the answer stays as it was (no slip and no street: the ZIP, city and state disagree).
 *
 * 1. the ZIPs of the city holding the street and number (`found`): one, or one of them a slip of the ZIP typed;
 * 2. else those holding the street alone (a number the sample lacks, or one a whole file denies): the same;
 * 3. else, where the ZIP typed is a slip of several of the city's or the street is in several, nothing decides.
 */
export function zipOfStreet(
  reference: ReferenceIndex, postal: PostalIndex, last: LastLine, street: StreetParts, p: ParsedAddress, found: readonly Found[],
): Found | string | null {
  const typed = last.zip!;
  const slips = last.slipZips ?? [];
  const city = `${last.city ?? p.city}, ${last.state ?? p.state}`;
  if (found.length > 1) return oneOf(found, slips) ?? F.zipUndeterminedStreetInSeveral(typed, city, found.map(([z]) => z));
  const onStreet = zipsHoldingStreet(reference, postal, last, street, p);
  if (onStreet.length > 0) return oneOf(onStreet, slips) ?? F.zipUndeterminedStreetInSeveral(typed, city, onStreet.map(([z]) => z));
  return slips.length > 0 ? F.zipUndeterminedSlip(typed, city, slips) : null;
}

/** The one found, or the one found that is a slip of the ZIP typed; undefined where that is not one. */
function oneOf(found: readonly Found[], slips: readonly string[]): Found | undefined {
  if (found.length === 1) return found[0];
  const slipped = found.filter(([z]) => slips.includes(z));
  return slipped.length === 1 ? slipped[0] : undefined;
}

/** The city's ZIPs whose data has the street and not the number (not found, or not in a sample). */
function zipsHoldingStreet(reference: ReferenceIndex, postal: PostalIndex, last: LastLine, street: StreetParts, p: ParsedAddress): Found[] {
  const named = street.name ? reference.zipsWithStreetName(street.name) : undefined;
  if (!named) return [];
  const candidates = candidatesOf(last, postal, reference);
  if (candidates.length > MAX_CANDIDATE_ZIPS) return [];
  const out: Found[] = [];
  for (const z of candidates) {
    if (z === last.zip || !named.has(z)) continue;
    const answer = lookupAt(reference, z, street, p);
    if (numberNotFound(answer) && !answer.ambiguous) out.push([z, answer, null]);
  }
  return out;
}
