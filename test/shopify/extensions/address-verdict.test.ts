/**
 * What the checkout extensions show for an answer (connectors/shopify/extensions/core/address-verdict.ts): one case a
 * line, the answer and the buyer's address in, the verdict out.
 */
import { describe, expect, it } from 'vitest';
import { addressRequestOf, differsBeyondCosmetics, suggestionOf, verdictOf, type AddressAnswer } from '../../../connectors/shopify/extensions/core/address-verdict.js';

const APPLEGATE = {
  primary_number: '6007', street_predirection: null, street_name: 'APPLEGATE', street_suffix: 'LN', street_postdirection: null,
  secondary_designator: null, secondary_number: null, city: 'LOUISVILLE', state: 'KY', postal_code: '40219', plus4: '1234', country: 'US',
};
const TYPED = { address1: '6007 Applegate Ln', address2: '', city: 'Louisville', provinceCode: 'KY', zip: '40219', countryCode: 'US' };
const answer = (status: string, extra: Partial<AddressAnswer> = {}): AddressAnswer => ({ status, components: APPLEGATE, ...extra });
const SUGGESTION = { kind: 'suggest', suggestion: { address1: '6007 APPLEGATE LN', address2: '', city: 'LOUISVILLE', provinceCode: 'KY', zip: '40219-1234' } };

describe('verdictOf', () => {
  it.each([
    ['corrected, only case and ZIP+4 differ', answer('corrected'), TYPED, { kind: 'none' }],
    ['corrected, punctuation and spaces differ', answer('corrected'), { ...TYPED, address1: '6007  applegate ln.', city: 'louisville,' }, { kind: 'none' }],
    ['corrected, the city was misspelt', answer('corrected'), { ...TYPED, city: 'Louisvile' }, SUGGESTION],
    ['corrected, "lane" spelt out', answer('corrected'), { ...TYPED, address1: '6007 Applegate Lane' }, SUGGESTION],
    ['corrected, another ZIP code', answer('corrected'), { ...TYPED, zip: '40218' }, SUGGESTION],
    ['verified and different: accept says nothing', answer('verified'), { ...TYPED, city: 'Louisvile' }, { kind: 'none' }],
    ['plausible', answer('plausible'), TYPED, { kind: 'none' }],
    ['invalid', answer('invalid'), TYPED, { kind: 'undeliverable' }],
    ['partial, as typed: ask for the unit', answer('partial'), TYPED, { kind: 'unit' }],
    ['ambiguous, nothing to offer', answer('ambiguous', { components: null }), TYPED, { kind: 'none' }],
    ['next_action wins over the status: fix', answer('plausible', { next_action: 'fix' }), TYPED, { kind: 'undeliverable' }],
    ['next_action wins over the status: confirm', answer('verified', { next_action: 'confirm' }), { ...TYPED, city: 'Louisvile' }, SUGGESTION],
    ['next_action accept', answer('corrected', { next_action: 'accept' }), { ...TYPED, city: 'Louisvile' }, { kind: 'none' }],
    ['a status it does not know', answer('something-new'), { ...TYPED, city: 'Louisvile' }, { kind: 'none' }],
  ])('%s', (_, given, typed, expected) => {
    expect(verdictOf(given, typed)).toEqual(expected);
  });
});

describe('differsBeyondCosmetics', () => {
  const s = suggestionOf(APPLEGATE)!;
  it.each([
    ['upper case, ZIP+4 added', TYPED, false],
    ['ZIP+4 typed without a hyphen', { ...TYPED, zip: '402191234' }, false],
    ['a unit the service dropped', { ...TYPED, address2: 'Apt 4' }, true],
    ['ZIP+4 typed with a space', { ...TYPED, zip: '40219 1234' }, false],
  ])('%s', (_, typed, expected) => {
    expect(differsBeyondCosmetics(typed, s)).toBe(expected);
  });
  it('a Canadian postal code compares whole, its space aside', () => {
    const ca = { address1: '1 MAIN ST', address2: '', city: 'OTTAWA', provinceCode: 'ON', zip: 'K1A 0B1' };
    expect(differsBeyondCosmetics({ ...ca, zip: 'k1a0b1' }, ca)).toBe(false);
    expect(differsBeyondCosmetics({ ...ca, zip: 'K1A 0B2' }, ca)).toBe(true);
  });
});

describe('addressRequestOf', () => {
  it('sends the parts given, cut to the schema\'s lengths, without control characters', () => {
    expect(addressRequestOf({ address1: ' 6007\tApplegate\nLn ', address2: null, city: 'Louisville', provinceCode: 'KY', zip: '40219', countryCode: 'US' }))
      .toEqual({ line1: '6007 Applegate Ln', city: 'Louisville', state: 'KY', postal_code: '40219', country: 'US' });
    expect(addressRequestOf({ address1: 'x'.repeat(400), zip: '40219' })?.line1).toHaveLength(300);
  });
  it('waits for a street and a city or postal code', () => {
    expect(addressRequestOf({ city: 'Louisville', zip: '40219' })).toBeNull();
    expect(addressRequestOf({ address1: '6007 Applegate Ln' })).toBeNull();
  });
});
