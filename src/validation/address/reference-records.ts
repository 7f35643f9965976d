/**
 * Turning one address of a reference file (RRAD, OpenAddresses, NAR) into an address point keyed the way the engine
 * looks addresses up: the street goes through the same parser and Pub 28 / Canada Post standardization as the input,
 * so `1745 T Street Southeast` in the file meets `1745 t st se` typed by a user.
 */
import { parseDeliveryLine } from './parser/index.js';
import type { AddressPointRecord } from './reference-types.js';
import { letterAndNumberUnit, tokenizeAddress } from './tokenize.js';

export interface RawAddressPoint {
  /** House number and street, e.g. `1745 T Street Southeast`; or the street alone when `number` is given. */
  street: string;
  number?: string;
  unit?: string;
  postalCode: string;
  country: 'US' | 'CA';
  /** The place name the file gives the point (OpenAddresses CITY, the NAR's mailing municipality), if any. */
  city?: string;
}

/** A place name as the engine compares it: upper case, accents and punctuation dropped (as the tokenizer reads input). */
export function placeName(raw: string | undefined): string | null {
  if (!raw) return null;
  const name = raw.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase().replace(/[^A-Z0-9'-]+/g, ' ').trim();
  return /[A-Z]/.test(name) ? name : null;
}

/** The point, or a reason it cannot be used. */
export function addressPointOf(raw: RawAddressPoint): AddressPointRecord | { rejected: string } {
  const postal = raw.country === 'US' ? /^(\d{5})(?:-?(\d{4}))?$/.exec(raw.postalCode.trim()) : null;
  const caPostal = raw.country === 'CA' ? /^([A-Z]\d[A-Z])\s?(\d[A-Z]\d)$/i.exec(raw.postalCode.trim()) : null;
  if (!postal && !caPostal) return { rejected: `bad postal code "${raw.postalCode}"` };
  const text = `${raw.number ?? ''} ${raw.street}`.trim();
  const tokens = tokenizeAddress(text);
  const line = parseDeliveryLine(tokens, 0, tokens.length, raw.country);
  if (!line.primaryNumber || !line.name) return { rejected: `no house number and street in "${text}"` };
  const unitTokens = raw.unit ? tokenizeAddress(raw.unit).map((t) => t.w) : [];
  // `APT 4B`, `#4B`, `Unit 4B` and `4B` are the same unit: the last word is its number; `#R 16` is R16, as the parser
  // reads it.
  const n = unitTokens.length;
  const letterAndNumber = n === 3 && unitTokens[0] === '#' ? letterAndNumberUnit(unitTokens[1], unitTokens[2]) : null;
  const unit = letterAndNumber ?? (n ? unitTokens[n - 1] : line.secondaryNumber);
  return {
    postalCode: postal ? postal[1] : `${caPostal![1]} ${caPostal![2]}`.toUpperCase(),
    street: { predirection: line.predirection, name: line.name, suffix: line.suffix, postdirection: line.postdirection },
    primaryNumber: line.primaryNumber,
    unit: unit ?? null,
    plus4: postal?.[2] ?? null,
    city: placeName(raw.city),
  };
}
