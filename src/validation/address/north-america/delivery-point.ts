/**
 * The delivery point in the reference data: under the ZIP given, else in the ZIPs the last line leaves open, with the
 * other readings of a number written with its unit (`203-1267`, `600B`).
 */
import type { ParsedAddress } from '../parser/index.js';
import type { PostalIndex } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { delivers, type ReferenceAnswer, type StreetParts } from '../reference-types.js';
import { DirectionalTable } from '../tables.js';
import type { LastLine } from './checked-last-line.js';
import { localZipsOfCity, MAX_CANDIDATE_ZIPS, withLocalZips } from './zip-candidates.js';

/** `203-1267`: a unit (figures, maybe a letter) before a house number. */
const UNIT_DASH_NUMBER = /^(\d+[A-Z]?|[A-Z])-(\d+[A-Z]?)$/;
export const NUMBER_RANGE = /^(\d+)-(\d+)$/;
const NUMBER_THEN_LETTER = /^(\d+)-?([A-Z])$/;

/**
 * The readings of a house number that may hold its unit, as [unit, number]: before it (`203-1267`, as Canada Post writes
 * it), after it (`1267-203`), or as a letter after it (`600B`, `600-B`).
 */
export function unitAndNumberReadings(written: string): readonly (readonly [unit: string, number: string])[] {
  const dashed = UNIT_DASH_NUMBER.exec(written);
  if (dashed) return /^\d+$/.test(dashed[1]) ? [[dashed[1], dashed[2]], [dashed[2], dashed[1]]] : [[dashed[1], dashed[2]]];
  const after = NUMBER_THEN_LETTER.exec(written);
  return after ? [[after[2], after[1]]] : [];
}
export const NO_READINGS: readonly (readonly [string, string])[] = [];
const TRAILING_UNIT_LETTER = /^(.+) ([A-Z])$/;

/** The last line's candidate ZIPs, with those the address files place in its city when it names them (see LastLine). */
export function candidatesOf(last: LastLine, postal: PostalIndex, reference: ReferenceIndex): readonly string[] {
  return last.localCandidatesOf && last.state
    ? withLocalZips(last.candidateZips, localZipsOfCity(reference, postal, last.state, last.localCandidatesOf))
    : last.candidateZips;
}

/**
 * A street typed without its type, then a unit letter (`74 SPRINGFIELD B`: data SPRINGFIELD ST, unit B): the answer
 * with the letter as the unit, where the data holds that unit (`Y`); else null.
 */
export function letterUnitReading(
  reference: ReferenceIndex, postalCode: string, street: StreetParts, p: ParsedAddress,
): { answer: ReferenceAnswer; letter: string } | null {
  const m = p.secondaryNumber || street.suffix ? null : TRAILING_UNIT_LETTER.exec(street.name ?? '');
  if (!m || DirectionalTable.has(m[2])) return null;
  const named = { ...street, name: m[1] };
  const asUnit = reference.lookup({ postalCode, street: named, primaryNumber: p.primaryNumber, secondaryNumber: m[2] });
  return asUnit.dpv === 'Y' ? { answer: { ...asUnit, correctedStreet: asUnit.correctedStreet ?? named, respelled: false }, letter: m[2] } : null;
}

/**
 * The unit the reference data confirmed where it was typed as part of something else (a letter after the street, a
 * number before or on the house number): written `#`.
 */
export function unitReadAs(p: ParsedAddress, unit: string): void {
  p.secondaryDesignator = '#';
  p.secondaryNumber = unit;
}

/** A ZIP where the street and number are a delivery point, its answer, and the unit letter read (letterUnitReading). */
export type Found = [zip: string, answer: ReferenceAnswer, letter: string | null];

/**
 * Where the street and number are delivery points when the ZIP given (if any) does not hold them: first among the ZIPs
 * of the city where the data has a street of that name; where none delivers, among those with a street the name may
 * mean (misspelt, written another way, its type word in it: zipsWithStreetNear) when `nearToo`, asked only where some
 * ZIP of the city has reference data at all (most addresses without a street of the data). Each ZIP's own look-up
 * decides.
 */
export function searchZips(
  reference: ReferenceIndex, postal: PostalIndex, last: LastLine, street: StreetParts, p: ParsedAddress, zip: string | null, nearToo: boolean,
): Found[] {
  if (street.name === null) return [];
  // (Plain loops, no closures: this runs for most addresses, and the build names every closure it creates.)
  let all: readonly string[] | undefined;
  let asked: string[] = [];
  const named = reference.zipsWithStreetName(street.name);
  if (named) {
    all = candidatesOf(last, postal, reference);
    asked = zipsIn(all, named, zip);
    const found = deliveringIn(reference, asked, street, p);
    if (found.length > 0) return found;
  }
  const covered = nearToo && (reference.coversAny(last.candidateZips) ||
    (last.localCandidatesOf !== null && reference.postalCodesOfLocalCity(last.localCandidatesOf).size > 0));
  if (!covered) return [];
  const near = reference.zipsWithStreetNear({ ...street, name: street.name });
  if (near.size === 0) return [];
  for (const z of asked) near.delete(z);
  return deliveringIn(reference, zipsIn(all ?? candidatesOf(last, postal, reference), near, zip), street, p);
}

/** The ZIPs where the street and number are a delivery point, as typed or with a unit letter read (letterUnitReading). */
function deliveringIn(reference: ReferenceIndex, zips: readonly string[], street: StreetParts, p: ParsedAddress): Found[] {
  const found: Found[] = [];
  for (const z of zips) {
    const a = lookupAt(reference, z, street, p);
    if (delivers(a)) {
      found.push([z, a, null]);
      continue;
    }
    const asUnit = p.country === 'CA' ? null : letterUnitReading(reference, z, street, p);
    if (asUnit) found.push([z, asUnit.answer, asUnit.letter]);
  }
  return found;
}

/** The candidate ZIPs in `zips` but `given`, none when there are too many to walk. */
function zipsIn(candidates: readonly string[], zips: ReadonlySet<string>, given: string | null): string[] {
  const found: string[] = [];
  if (candidates.length > MAX_CANDIDATE_ZIPS) return found;
  for (const z of candidates) if (z !== given && zips.has(z)) found.push(z);
  return found;
}

/** The delivery point of the parsed address in the reference data, under the postal code given. */
export function lookupAt(reference: ReferenceIndex, postalCode: string, street: StreetParts, p: ParsedAddress): ReferenceAnswer {
  return reference.lookup({ postalCode, street, primaryNumber: p.primaryNumber, secondaryNumber: p.secondaryNumber });
}
