/**
 * The address a selected suggestion fills in (purchase.address-autocomplete.format-suggestion). The suggest target
 * gives each suggestion its formatted address, so Shopify rarely calls this; when it does without one, the label is
 * looked up once more and the best match is used.
 */
import { autocomplete, serviceOf } from '../../core/service.js';
import { formattedAddressOf } from './autocomplete-address.js';

export default async () => {
  const { selectedSuggestion } = shopify.target;
  if (selectedSuggestion.formattedAddress) return { formattedAddress: selectedSuggestion.formattedAddress };
  const service = serviceOf(shopify.settings);
  const [best] = service ? await autocomplete(service, selectedSuggestion.label, undefined, 1) : [];
  return { formattedAddress: best ? formattedAddressOf(best, undefined) : {} };
};
