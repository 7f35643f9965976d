/**
 * The simplest honest engines, used until the full address/e-mail/phone engines are wired: a libphonenumber-js check,
 * an e-mail syntax check, and an address that is only ever `plausible` or `invalid`. Nothing here claims more than it
 * checked.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { AddressEngine, EmailEngine, PhoneEngine, PhoneType } from './types.js';

const EMAIL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}$/;

export const interimEmailEngine: EmailEngine = {
  async validate(input) {
    const ok = EMAIL.test(input) && input.length <= 254;
    const at = input.lastIndexOf('@');
    return {
      status: ok ? 'unknown' : 'invalid', risk: ok ? 'medium' : 'high', smtp: 'skipped', reason: ok ? 'accepted' : 'syntax',
      normalized: ok ? input.slice(0, at) + input.slice(at).toLowerCase() : null, suggestion: null,
      disposable: false, role: false, free: false,
    };
  },
};

const TYPES: Record<string, PhoneType> = {
  MOBILE: 'mobile', FIXED_LINE: 'landline', FIXED_LINE_OR_MOBILE: 'fixed_or_mobile', VOIP: 'voip', TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate', SHARED_COST: 'shared_cost', PERSONAL_NUMBER: 'personal', PAGER: 'pager', UAN: 'uan', VOICEMAIL: 'voicemail',
};

function parsePhone(input: string, country?: string) {
  try {
    return parsePhoneNumberFromString(input, country as CountryCode | undefined);
  } catch {
    return undefined;
  }
}

export const interimPhoneEngine: PhoneEngine = {
  offlineType(input, country) {
    const n = parsePhone(input, country);
    return n?.isValid() ? (TYPES[n.getType() ?? ''] ?? 'unknown') : 'unknown';
  },
  async validate(input, { country }) {
    const n = parsePhone(input, country);
    const valid = !!n?.isValid();
    return {
      status: valid ? 'valid' : 'invalid', type: valid ? (TYPES[n!.getType() ?? ''] ?? 'unknown') : 'unknown',
      carrier: null, carrier_source: 'none', e164: valid ? n!.number : null, country: valid ? (n!.country ?? null) : null,
    };
  },
};

export const interimAddressEngine: AddressEngine = {
  countryOf(input, hint) {
    if (hint) return hint.toUpperCase();
    return /\b[A-Z]{2}\s+\d{5}(-\d{4})?\s*$/i.test(input) ? 'US' : null;
  },
  async validate(input, { country }) {
    const m = /^\s*(\d+)\s+(.+?),\s*(.+?),\s*([A-Z]{2})\s+(\d{5})(?:-(\d{4}))?\s*$/i.exec(input);
    const components = {
      primary_number: m?.[1] ?? null, street_predirection: null, street_name: m?.[2].toUpperCase() ?? null,
      street_suffix: null, street_postdirection: null, secondary_designator: null, secondary_number: null,
      city: m?.[3].toUpperCase() ?? null, state: m?.[4].toUpperCase() ?? null, postal_code: m?.[5] ?? null,
      plus4: m?.[6] ?? null, country: m ? 'US' : (country ?? null),
    };
    return {
      status: m ? 'plausible' : 'invalid',
      standardized: m ? `${m[1]} ${m[2]} ${m[3]} ${m[4]} ${m[5]}`.toUpperCase() : null,
      dpv: '', zip4: null, country: components.country, components,
      footnotes: m ? ['not confirmed: no reference data consulted'] : ['could not parse the address'],
    };
  },
};
