/**
 * Numbers too short to be a subscriber's that are something else: an emergency number or a short code. libphonenumber-js
 * leaves short numbers out on purpose (its README: "emergency phone numbers like 911", "short codes"), so a small table
 * says what they are; the answer stays `invalid` (no one is reached there as a contact), its reason says why.
 */

/**
 * The numbers every mobile phone treats as emergency numbers (3GPP TS 22.101 §10.1.1: 112 and 911 always; 000, 08, 110,
 * 118, 119 and 999 without a SIM), which covers the main ones of North America, Europe, the UK and Ireland, Australia,
 * Japan, China and Korea.
 */
const EMERGENCY_NUMBERS: ReadonlySet<string> = new Set(['112', '911', '000', '08', '110', '118', '119', '999']);

/** North American Numbering Plan N11 service codes (NANPA: 211 community services … 811 call before you dig). */
const NANP_SERVICE_CODES: ReadonlySet<string> = new Set(['211', '311', '411', '511', '611', '711', '811']);
/** Regions of the NANP (+1) that the country hint may name; a hint-less N11 code is read as theirs. */
const NANP_SHORT_CODE_REGIONS: ReadonlySet<string> = new Set(['US', 'CA', 'PR', 'VI', 'GU', 'AS', 'MP']);
/** US and Canadian SMS short codes: five or six digits, not starting with 0 or 1 (CTIA / CWTA common short codes). */
const SMS_SHORT_CODE = /^[2-9]\d{4,5}$/;

export type ShortNumberReason = 'emergency_number' | 'short_code';

/**
 * What a short input is, from its digits (spaces, dashes, dots and brackets allowed; a `+` makes it international,
 * which no short number is), or null. `region` is the request's country, when it gives one.
 */
export function shortNumberReason(text: string, region: string | undefined): ShortNumberReason | null {
  if (!/^[\d\s().-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (EMERGENCY_NUMBERS.has(digits)) return 'emergency_number';
  const nanp = region === undefined || NANP_SHORT_CODE_REGIONS.has(region);
  if (nanp && NANP_SERVICE_CODES.has(digits)) return 'short_code';
  if ((region === 'US' || region === 'CA') && SMS_SHORT_CODE.test(digits)) return 'short_code';
  return null;
}
