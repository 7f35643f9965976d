/** The service's autocomplete suggestions in Shopify's address-autocomplete shapes. */
import type { AutocompleteSuggestion } from '../../core/service.js';

export interface FormattedAddress {
  address1?: string;
  city?: string;
  provinceCode?: string;
  zip?: string;
  countryCode?: string;
}

/** Empty parts are left out: a place (city and ZIP code) fills those fields and leaves the street as typed. */
export function formattedAddressOf(s: AutocompleteSuggestion, country: string | undefined): FormattedAddress {
  const parts: Record<string, string | undefined> = { address1: s.street, city: s.city, provinceCode: s.state, zip: s.zip, countryCode: country };
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v)) as FormattedAddress;
}

/** Where the typed text appears in the label (case aside), for Shopify to highlight it. */
export function matchOf(label: string, q: string): { offset: number; length: number }[] {
  const offset = label.toUpperCase().indexOf(q.toUpperCase());
  return offset < 0 ? [] : [{ offset, length: q.length }];
}
