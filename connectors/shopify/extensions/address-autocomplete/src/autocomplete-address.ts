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
  const parts: Record<string, string | null | undefined> = { address1: s.street, city: s.city, provinceCode: s.state, zip: s.zip, countryCode: s.country ?? country };
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v)) as FormattedAddress;
}

/**
 * What of the label the buyer typed, for Shopify to highlight: the label's start as far as it matches (case aside;
 * `6007 Applegate La` highlights `6007 APPLEGATE L`), else where the text appears in it.
 */
export function matchOf(label: string, q: string): { offset: number; length: number }[] {
  const [a, b] = [label.toUpperCase(), q.toUpperCase()];
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  if (length > 0) return [{ offset: 0, length }];
  const offset = a.indexOf(b);
  return offset < 0 || !b ? [] : [{ offset, length: b.length }];
}
