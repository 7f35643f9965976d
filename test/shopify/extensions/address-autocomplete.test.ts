/**
 * The address autocomplete extension (connectors/shopify/extensions/address-autocomplete): its bundle built as the CLI
 * builds it, each target run in Chromium under the stand-in host on Shopify's extension origin, against the real
 * service's GET /v1/address/autocomplete with a publishable key made for that origin.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_BINARY } from '../../support/chromium.js';
import { testDatabases } from '../../support/databases.js';
import { prerequisites } from '../../support/prerequisites.js';
import type { HostInit } from './extension-host.js';
import { EXTENSION_ORIGIN, openExtension, useExtensionSuite } from './harness.js';

const SUITE = 'the address autocomplete extension in Chromium';
const SUGGEST = 'purchase.address-autocomplete.suggest';
const FORMAT = 'purchase.address-autocomplete.format-suggestion';

describe.runIf(prerequisites(SUITE, CHROMIUM_BINARY)).each(testDatabases)(`${SUITE} ($name)`, (database) => {
  const suite = useExtensionSuite(database, 'address-autocomplete');

  beforeAll(async () => {
    // The service builds its prefix index on the first question: asked here, so that the extension's 2.5 s budget
    // measures answers, not the index's start.
    const { service, key } = suite();
    const res = await fetch(`${service.url}/v1/address/autocomplete?q=6007`, { headers: { authorization: `Bearer ${key}`, origin: EXTENSION_ORIGIN } });
    expect(res.status).toBe(200);
  }, 60_000);

  async function run(target: string, autocompleteTarget: Record<string, unknown>, settings?: Record<string, unknown>) {
    const { service, browser, bundle, key } = suite();
    const init: HostInit = {
      target, shop: 'acme.myshopify.com', locale: {}, autocompleteTarget,
      settings: settings ?? { api_url: service.url, publishable_key: key },
    };
    const opened = await openExtension(browser, bundle, init);
    await opened.page.close();
    return opened;
  }

  it('When the buyer types the start of a street address, then delivery points come back with their formatted address', async () => {
    const { result, sent } = await run(SUGGEST, { value: '6007 Applegate La', field: 'address1', selectedCountryCode: 'US' });

    expect(sent).toEqual(['autocomplete 6007 Applegate La']);
    expect((result as { suggestions: unknown[] }).suggestions[0]).toEqual({
      label: '6007 APPLEGATE LN, LOUISVILLE, KY 40219',
      matchedSubstrings: [{ offset: 0, length: 16 }],
      formattedAddress: { address1: '6007 APPLEGATE LN', city: 'LOUISVILLE', provinceCode: 'KY', zip: '40219', countryCode: 'US' },
    });
  });

  it('When the buyer types a city, then places come back, which fill the city and leave the street as typed', async () => {
    const { result } = await run(SUGGEST, { value: 'Louisvil', field: 'address1', selectedCountryCode: 'US' });
    const suggestions = (result as { suggestions: { label: string; formattedAddress: Record<string, string> }[] }).suggestions;

    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(5);
    expect(suggestions[0].label).toMatch(/^LOUISVILLE/);
    expect(suggestions[0].formattedAddress).toMatchObject({ city: 'LOUISVILLE', countryCode: 'US' });
    expect(suggestions[0].formattedAddress).not.toHaveProperty('address1');
  });

  it('When fewer than three characters are typed, or the settings are missing, then nothing is asked', async () => {
    const short = await run(SUGGEST, { value: '60', field: 'address1', selectedCountryCode: 'US' });
    const unset = await run(SUGGEST, { value: '6007 Applegate', field: 'address1', selectedCountryCode: 'US' }, {});

    expect(short).toMatchObject({ result: { suggestions: [] }, sent: [] });
    expect(unset).toMatchObject({ result: { suggestions: [] }, sent: [] });
  });

  it('When Shopify asks to format a suggestion, then its formatted address is used, or its label looked up once more', async () => {
    const formatted = { address1: '6007 APPLEGATE LN', city: 'LOUISVILLE', provinceCode: 'KY', zip: '40219', countryCode: 'US' };
    const given = await run(FORMAT, { selectedSuggestion: { label: '6007 APPLEGATE LN, LOUISVILLE, KY 40219', formattedAddress: formatted } });
    const looked = await run(FORMAT, { selectedSuggestion: { label: '6007 APPLEGATE LN, LOUISVILLE, KY 40219' } });

    expect(given).toMatchObject({ result: { formattedAddress: formatted }, sent: [] });
    expect(looked).toMatchObject({ result: { formattedAddress: formatted }, sent: ['autocomplete 6007 APPLEGATE LN, LOUISVILLE, KY 40219'] });
  });
});
