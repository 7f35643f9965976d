/**
 * Agreement of the offline phone engine with Google's libphonenumber on test/fixtures/phone/numbers-dev.jsonl
 * (4,120 numbers whose validity and type google-libphonenumber 3.2.47 gave). Shared by `npm run bench:phone` and
 * test/phone/agreement.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { MetadataJson } from 'libphonenumber-js/core';
import type { PhoneResult, PhoneType } from '../src/validation/types.js';
import { PHONE_TYPE_BY_LIBPHONENUMBER_TYPE } from '../src/validation/phone/phone-type-table.js';

export const REFERENCE_NUMBERS_PATH = fileURLToPath(new URL('../test/fixtures/phone/numbers-dev.jsonl', import.meta.url));

/**
 * google-libphonenumber 3.2.47 (2026-09-29) carries libphonenumber metadata 9.0.40, the same as libphonenumber-js
 * 1.13.14; this copy of that version's max metadata lets the agreement be measured on the engine's logic apart from
 * the numbering-plan changes made since (9.0.41-9.0.43: Benin's 10-digit plan, Zimbabwe, ...).
 */
export const REFERENCE_VINTAGE_METADATA_PATH =
  fileURLToPath(new URL('../test/phone/fixtures/libphonenumber-js-1.13.14-metadata.max.json.gz', import.meta.url));

export interface ReferenceNumber {
  e164: string;
  region: string;
  kind: string;
  expectValid: boolean;
  expectType: string | null;
}

export interface Disagreement {
  number: ReferenceNumber;
  status: PhoneResult['status'];
  type: PhoneType;
}

export interface Agreement {
  numbers: number;
  validityAgreement: number;
  /** Over the numbers Google calls valid: our type equals Google's, mapped to the answer's vocabulary. */
  typeAgreement: number;
  disagreements: Disagreement[];
}

export function readReferenceNumbers(path = REFERENCE_NUMBERS_PATH): ReferenceNumber[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as ReferenceNumber);
}

export function readReferenceVintageMetadata(): MetadataJson {
  return JSON.parse(gunzipSync(readFileSync(REFERENCE_VINTAGE_METADATA_PATH)).toString('utf8')) as MetadataJson;
}

function googleTypeInApi(number: ReferenceNumber, country: string | null): PhoneType {
  const type = PHONE_TYPE_BY_LIBPHONENUMBER_TYPE[number.expectType as keyof typeof PHONE_TYPE_BY_LIBPHONENUMBER_TYPE] ?? 'unknown';
  // docs/api.md#vocabularies: US and Canadian numbers are fixed_or_mobile offline; Google nearly always agrees.
  return (type === 'landline' || type === 'mobile') && (country === 'US' || country === 'CA') ? 'fixed_or_mobile' : type;
}

export function measureAgreement(numbers: ReferenceNumber[], validate: (e164: string) => PhoneResult): Agreement {
  let validityAgreed = 0;
  let typeAgreed = 0;
  let googleValid = 0;
  const disagreements: Disagreement[] = [];
  for (const number of numbers) {
    const result = validate(number.e164);
    const validityAgrees = (result.status === 'valid') === number.expectValid;
    if (validityAgrees) validityAgreed++;
    let typeAgrees = true;
    if (number.expectValid) {
      googleValid++;
      typeAgrees = result.type === googleTypeInApi(number, result.country);
      if (typeAgrees) typeAgreed++;
    }
    if (!validityAgrees || !typeAgrees) disagreements.push({ number, status: result.status, type: result.type });
  }
  return {
    numbers: numbers.length,
    validityAgreement: validityAgreed / numbers.length,
    typeAgreement: googleValid ? typeAgreed / googleValid : 1,
    disagreements,
  };
}
