/**
 * Offline reading of one phone number with libphonenumber-js and the metadata passed in: never throws, every failure
 * is an `invalid` reading with a reason (README: "Invalid reasons").
 */
import {
  parsePhoneNumberWithError, isSupportedCountry, Metadata, ParseError,
  type CountryCode, type MetadataJson, type NumberType, type PhoneNumber,
} from 'libphonenumber-js/core';
import type { PhoneType } from '../types.js';
import { PHONE_TYPE_BY_LIBPHONENUMBER_TYPE, REGIONS_WITHOUT_OFFLINE_MOBILE_DISTINCTION } from './phone-type-table.js';
import { shortNumberReason } from './short-numbers.js';

export const PHONE_INVALID_REASONS = [
  'empty', 'not_a_number', 'too_short', 'too_long', 'invalid_length', 'invalid_country_code', 'missing_country_code',
  'invalid_for_region', 'emergency_number', 'short_code',
] as const;
export type PhoneInvalidReason = (typeof PHONE_INVALID_REASONS)[number];

export interface PhoneReading {
  valid: boolean;
  reason: PhoneInvalidReason | null;
  type: PhoneType;
  /** Set for valid numbers only. */
  e164: string | null;
  /** ISO 3166-1 alpha-2 region the number belongs to, when known (also for some invalid numbers). */
  country: string | null;
  national: string | null;
  callingCode: string | null;
  nationalNumber: string | null;
}

/** libphonenumber-js refuses longer input anyway (MAX_INPUT_STRING_LENGTH); checking first keeps huge input cheap. */
const MAX_INPUT_LENGTH = 250;
/** No national significant number is longer (libphonenumber MAX_LENGTH_FOR_NSN), whatever the country. */
const MAX_NATIONAL_NUMBER_DIGITS = 17;
const MAX_COUNTRY_CODE_DIGITS = 3;

const REASON_BY_PARSE_ERROR: Record<string, PhoneInvalidReason> = {
  NOT_A_NUMBER: 'not_a_number',
  TOO_SHORT: 'too_short',
  TOO_LONG: 'too_long',
  INVALID_LENGTH: 'invalid_length',
  INVALID_COUNTRY: 'invalid_country_code',
};

/**
 * Why a parsed number that libphonenumber calls invalid is invalid, from the possible lengths of its numbering plan
 * (the rule of libphonenumber-js checkNumberLength / Google's testNumberLength, without parsing the number again).
 * Possible lengths are memoised per metadata and plan.
 */
const possibleLengthsByMetadata = new WeakMap<MetadataJson, Map<string, readonly number[] | null>>();

function possibleLengthsOf(plan: string, metadata: MetadataJson): readonly number[] | null {
  let byPlan = possibleLengthsByMetadata.get(metadata);
  if (!byPlan) possibleLengthsByMetadata.set(metadata, (byPlan = new Map()));
  let lengths = byPlan.get(plan);
  if (lengths === undefined) {
    const numberingPlans = new Metadata(metadata);
    numberingPlans.selectNumberingPlan(plan as CountryCode);
    lengths = numberingPlans.numberingPlan?.possibleLengths() ?? null;
    byPlan.set(plan, lengths);
  }
  return lengths;
}

function lengthReason(number: PhoneNumber, metadata: MetadataJson): PhoneInvalidReason {
  const lengths = possibleLengthsOf(number.country ?? number.countryCallingCode, metadata);
  const length = number.nationalNumber.length;
  if (!lengths || lengths.length === 0) return 'invalid_for_region';
  if (length < lengths[0]) return 'too_short';
  if (length > lengths[lengths.length - 1]) return 'too_long';
  return lengths.includes(length) ? 'invalid_for_region' : 'invalid_length';
}

function invalid(reason: PhoneInvalidReason, number?: PhoneNumber, metadata?: MetadataJson): PhoneReading {
  return {
    valid: false, reason, type: 'unknown', e164: null, country: number && metadata ? regionOf(number, metadata) : null, national: null,
    callingCode: number?.countryCallingCode ?? null, nationalNumber: number?.nationalNumber ?? null,
  };
}

/** The number's region, or for a number no region claims, the only region of its calling code (if only one). */
function regionOf(number: PhoneNumber, metadata: MetadataJson): string | null {
  if (number.country) return number.country;
  const regions = metadata.country_calling_codes[number.countryCallingCode];
  return regions?.length === 1 ? regions[0] : null;
}

/** The request's country hint, if it is a region the metadata knows (anything else is ignored, not an error). */
export function defaultRegionOf(countryHint: string | undefined, metadata: MetadataJson): CountryCode | undefined {
  if (typeof countryHint !== 'string' || countryHint.length !== 2) return undefined;
  const region = countryHint.toUpperCase();
  return isSupportedCountry(region as CountryCode, metadata) ? (region as CountryCode) : undefined;
}

/**
 * RFC 3966 `tel:` URI -> plain number text: parameters are dropped except `ext`, which becomes " ext. N" so the
 * extension parser sees it (visual separators - . ( ) are left to libphonenumber-js).
 */
export function unwrapTelUri(text: string): string {
  if (!/^tel:/i.test(text)) return text;
  const [number, ...parameters] = text.slice(4).split(';');
  const extension = parameters.find((parameter) => /^ext=/i.test(parameter));
  return extension ? `${number} ext. ${extension.slice(4)}` : number;
}

/**
 * A vanity number (`1-800-FLOWERS`, `+1 800 GOT MILK x12`): three digits or more, then letters among them. Google's
 * libphonenumber reads the letters as the keypad's digits (its VALID_ALPHA_PHONE_PATTERN: three letters or more);
 * libphonenumber-js refuses them, so they are turned into digits here first. An extension stays as written.
 */
const VANITY_NUMBER = /^[+\s().\-]*(?:\d[\s().\-/]*){3,}[A-Za-z0-9\s().\-/]*$/;
const EXTENSION_TAIL = /\s*(?:ext\.?|extn\.?|extension|x|#)\s*\d{1,7}#?\s*$/i;
const KEYPAD: Readonly<Record<string, string>> = Object.fromEntries(
  ['ABC', 'DEF', 'GHI', 'JKL', 'MNO', 'PQRS', 'TUV', 'WXYZ'].flatMap((letters, i) => [...letters].map((l) => [l, String(i + 2)])),
);

export function keypadDigits(text: string): string | null {
  const tail = EXTENSION_TAIL.exec(text);
  const main = tail ? text.slice(0, tail.index) : text;
  if (!VANITY_NUMBER.test(main) || (main.match(/[A-Za-z]/g)?.length ?? 0) < 3) return null;
  return main.replace(/[A-Za-z]/g, (letter) => KEYPAD[letter.toUpperCase()]) + (tail?.[0] ?? '');
}

/**
 * A label written around the number in a CRM field or a form (`Cell: 202-456-1111`, `202-456-1111 (work)`,
 * `+44 20 7946 0958 - office`): the number without it. Only a few words that name a line, so that a vanity number's
 * letters (`1-800-GOT-MILK`) are never taken for one.
 */
const LINE_WORDS = 'tel|telephone|phone|ph|mobile|mob|cell|cellphone|home|work|office|main|direct|landline|business|fax|personal|private';
const LEADING_LABEL = new RegExp(`^(?:${LINE_WORDS})\\s*(?:[.:#-]\\s*|\\s)`, 'i');
const TRAILING_LABEL = new RegExp(`(?:\\s*[-–,:;]?\\s*\\(\\s*(?:${LINE_WORDS})\\.?\\s*\\)|\\s*[-–,:;]?\\s+(?:${LINE_WORDS})\\.?)\\s*$`, 'i');

export function withoutLineLabel(text: string): string | null {
  const stripped = text.replace(LEADING_LABEL, '').replace(TRAILING_LABEL, '').trim();
  return stripped !== text && /\d/.test(stripped) ? stripped : null;
}

const NON_ASCII = /[^\x00-\x7f]/;

const STRICT = { extract: false } as const;

type ParseAttempt = { number: PhoneNumber; type: NumberType; valid: boolean } | { error: PhoneInvalidReason };

function attemptParse(text: string, defaultRegion: CountryCode | undefined, metadata: MetadataJson): ParseAttempt {
  // A ParseError is thrown for every number that does not parse, and only its message is read: without a stack
  // trace to capture it costs a fraction (capturing it was an eighth of the time of reading a phone number).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // extract: false: the whole input must be the number (decorations allowed), not text that contains one.
    const number = parsePhoneNumberWithError(text, defaultRegion ? { defaultCountry: defaultRegion, extract: false } : STRICT, metadata);
    // With per-type patterns (max metadata) libphonenumber-js defines "valid" as "has a type": ask once, not twice.
    const type = number.getType();
    return { number, type, valid: type !== undefined || number.isValid() };
  } catch (error) {
    const reason = error instanceof ParseError ? REASON_BY_PARSE_ERROR[error.message] : undefined;
    return { error: reason ?? 'not_a_number' };
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export function readPhoneNumber(input: unknown, countryHint: string | undefined, metadata: MetadataJson): PhoneReading {
  if (typeof input !== 'string') return invalid('not_a_number');
  // Full-width digits and plus (`＋１ ２０２ …`, typed with an East Asian input method) are the ASCII ones, as
  // Google's libphonenumber reads them.
  let text = unwrapTelUri((NON_ASCII.test(input) ? input.normalize('NFKC') : input).trim());
  if (text === '') return invalid('empty');
  if (text.length > MAX_INPUT_LENGTH) return invalid('too_long');
  const defaultRegion = defaultRegionOf(countryHint, metadata);

  let attempt = attemptParse(text, defaultRegion, metadata);
  // "00" is the international prefix in most of the world; read "00 44 …" as "+44 …" when the default region
  // (e.g. US, whose prefix is 011) did not already make a valid number of it.
  if (!('valid' in attempt && attempt.valid) && text.startsWith('00')) {
    const international = attemptParse(`+${text.slice(2)}`, undefined, metadata);
    if ('valid' in international) attempt = international;
  }

  if (!('valid' in attempt && attempt.valid) && /[A-Za-z]/.test(text)) {
    // A label around the number (`Cell: …`, `… (work)`): the number alone, when that reads as a valid one.
    const unlabelled = withoutLineLabel(text);
    const bare = unlabelled ? attemptParse(unlabelled, defaultRegion, metadata) : null;
    if (bare && 'valid' in bare && bare.valid) {
      attempt = bare;
      text = unlabelled!;
    }
  }
  if (!('valid' in attempt && attempt.valid) && /[A-Za-z]/.test(text)) {
    const digits = keypadDigits(text);
    const vanity = digits ? attemptParse(digits, defaultRegion, metadata) : null;
    // Its own verdict, unless it reads no better than the letters did.
    if (vanity && ('valid' in vanity || ('error' in attempt && attempt.error === 'not_a_number'))) {
      attempt = vanity;
      text = digits!;
    }
  }

  if (!('valid' in attempt && attempt.valid)) {
    // `911`, `112`, `411`: no subscriber's number, but an emergency number or a short code, said so.
    const short = shortNumberReason(text, defaultRegion);
    if (short) return { ...invalid(short), country: defaultRegion ?? null };
  }
  if ('error' in attempt) {
    const international = text.startsWith('+') || text.startsWith('00');
    if (attempt.error === 'invalid_country_code') {
      // A digit string longer than any country code plus any national number is too long before anything else.
      const digitCount = text.replace(/\D/g, '').length;
      if (digitCount > MAX_COUNTRY_CODE_DIGITS + MAX_NATIONAL_NUMBER_DIGITS) return invalid('too_long');
      if (!international && !defaultRegion) return invalid('missing_country_code');
    }
    return invalid(attempt.error);
  }
  const { number } = attempt;
  if (!attempt.valid) {
    return invalid(lengthReason(number, metadata), number, metadata);
  }

  const libphonenumberType = attempt.type;
  let type: PhoneType = libphonenumberType ? PHONE_TYPE_BY_LIBPHONENUMBER_TYPE[libphonenumberType] : 'unknown';
  if ((type === 'landline' || type === 'mobile') && REGIONS_WITHOUT_OFFLINE_MOBILE_DISTINCTION.has(number.country ?? '')) {
    type = 'fixed_or_mobile';
  }
  return {
    valid: true, reason: null, type, e164: number.number, country: number.country ?? null,
    national: number.formatNational(), callingCode: number.countryCallingCode, nationalNumber: number.nationalNumber,
  };
}
