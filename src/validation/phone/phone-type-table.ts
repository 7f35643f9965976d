/** Line-type vocabularies mapped onto the answer's `phone.type` (docs/api.md#vocabularies). */
import type { NumberType } from 'libphonenumber-js/core';
import type { PhoneType } from '../types.js';

type LibphonenumberType = Exclude<NumberType, undefined>;

export const PHONE_TYPE_BY_LIBPHONENUMBER_TYPE = {
  FIXED_LINE: 'landline',
  MOBILE: 'mobile',
  FIXED_LINE_OR_MOBILE: 'fixed_or_mobile',
  TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate',
  SHARED_COST: 'shared_cost',
  VOIP: 'voip',
  PERSONAL_NUMBER: 'personal',
  PAGER: 'pager',
  UAN: 'uan',
  VOICEMAIL: 'voicemail',
} as const satisfies Record<LibphonenumberType, PhoneType>;

/**
 * In the US and Canada fixed and mobile numbers share the same ranges, so offline data cannot tell them apart
 * (docs/api.md#vocabularies: they are `fixed_or_mobile` offline); only a live look-up refines them.
 */
export const REGIONS_WITHOUT_OFFLINE_MOBILE_DISTINCTION: ReadonlySet<string> = new Set(['US', 'CA']);

/**
 * Types for which Google's PhoneNumberToCarrierMapper answers a carrier: its prefix data describes mobile ranges only
 * (libphonenumber `isMobile`: MOBILE, FIXED_LINE_OR_MOBILE, PAGER).
 */
export const TYPES_WITH_CARRIER_PREFIX_DATA: ReadonlySet<PhoneType> = new Set(['mobile', 'fixed_or_mobile', 'pager']);
