/**
 * The simplest honest address engine, used until the full one is wired: an address that is only ever `plausible` or
 * `invalid`. Nothing here claims more than it checked.
 */
import type { AddressEngine } from './types.js';

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
