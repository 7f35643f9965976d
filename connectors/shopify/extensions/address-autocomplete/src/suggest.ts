/**
 * Address suggestions as the buyer types the street or the ZIP code (purchase.address-autocomplete.suggest;
 * docs/shopify.md), from the service's GET /v1/address/autocomplete: delivery points from its reference data and
 * places from its postal data, free of credits. Each suggestion carries its formatted address, so Shopify fills the
 * form from it directly.
 */
import { autocomplete, serviceOf } from '../../core/service.js';
import { formattedAddressOf, matchOf } from './autocomplete-address.js';

/** Shopify shows five at most. */
const LIMIT = 5;
/** Fewer characters match too much to help. */
const MIN_QUERY = 3;

export default async () => {
  const { target, signal } = shopify;
  const service = serviceOf(shopify.settings);
  const q = target.value.trim();
  if (!service || q.length < MIN_QUERY) return { suggestions: [] };
  const found = await autocomplete(service, q, target.selectedCountryCode, LIMIT, signal);
  return {
    suggestions: found.slice(0, LIMIT).map((s) => ({
      label: s.text,
      matchedSubstrings: matchOf(s.text, q),
      formattedAddress: formattedAddressOf(s, target.selectedCountryCode),
    })),
  };
};
