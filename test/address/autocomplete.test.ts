/**
 * The autocomplete engine (src/validation/address/autocomplete.ts) on small data handed in: what is typed so far, and
 * what is suggested, best first.
 */
import { describe, expect, it } from 'vitest';
import { createAddressAutocomplete } from '../../src/validation/address/autocomplete.js';
import { PostalIndex } from '../../src/validation/address/postal-index.js';
import { ReferenceIndex } from '../../src/validation/address/reference-index.js';

const postal = PostalIndex.fromText([
  '40219\tKY\tLOUISVILLE\tJEFFERSON', '40202\tKY\tLOUISVILLE\tJEFFERSON', '80027\tCO\tLOUISVILLE\tBOULDER',
  '46802\tIN\tFORT WAYNE\tALLEN', '94043\tCA\tMOUNTAIN VIEW\tSANTA CLARA', '63101\tMO\tSAINT LOUIS\tST. LOUIS (CITY)',
].join('\n'), 'H2X\tQC\tMONTREAL (PLATEAU MONT-ROYAL)\nT2E\tAB\tCALGARY (NORTHEAST)');

const reference = new ReferenceIndex();
const street = (name: string, suffix: string | null, postdirection: string | null = null) => ({ predirection: null, name, suffix, postdirection });
reference.addPoint({ postalCode: '40219', street: street('APPLEGATE', 'LN'), primaryNumber: '6007', unit: null, plus4: null, city: 'LOUISVILLE' });
reference.addPoint({ postalCode: '40219', street: street('APPLEGATE', 'LN'), primaryNumber: '6009', unit: null, plus4: null, city: 'LOUISVILLE' });
reference.addPoint({ postalCode: '40219', street: street('APPLE', 'CT'), primaryNumber: '12', unit: null, plus4: null });
reference.addPoint({ postalCode: 'H2X 3K4', street: street('SAINT-DENIS', 'RUE'), primaryNumber: '1234', unit: null, plus4: null, city: 'MONTREAL' });
reference.addPoint({ postalCode: 'T2E 1K4', street: street('23RD', 'AVE', 'NE'), primaryNumber: '2701', unit: '104', plus4: null, city: 'CALGARY' });
reference.addRange({
  zip: '94043', recordType: 'S', street: street('AMPHITHEATRE', 'PKWY'), primaryLow: '1501', primaryHigh: '1599', primaryParity: 'O',
  secondaryDesignator: null, secondaryLow: null, secondaryHigh: null, secondaryParity: null, plus4Low: '1300', plus4High: '1349',
});

const autocomplete = createAddressAutocomplete({ postal, reference });
const texts = (typed: string, options: { country?: string; limit?: number } = {}) =>
  autocomplete.suggest(typed, { limit: 5, ...options }).map((s) => s.text);

describe('address autocomplete', () => {
  it.each([
    ['6007', '6007 APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['6007 Appl', '6007 APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['6007 Applegate La', '6007 APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['6007 APPLEGATE LANE', '6007 APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['6007 applegate lane, louisville, ky 40219', '6007 APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['6007 Applegate Ln ', '6007 APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['12 Apple Court', '12 APPLE CT, LOUISVILLE, KY 40219'],
    ['1234 rue Saint-Denis', '1234 RUE SAINT-DENIS, MONTREAL, QC H2X 3K4'],
    ['2701 23rd Ave NE', '2701 23RD AVE NE, CALGARY, AB T2E 1K4'],
    ['1521 Amphitheatre', '1521 AMPHITHEATRE PKWY, MOUNTAIN VIEW, CA 94043'],
    ['Fort Wayne', 'FORT WAYNE, IN 46802'],
    ['ft wayne', 'FORT WAYNE, IN 46802'],
    ['St Louis', 'SAINT LOUIS, MO 63101'],
    ['40219', 'LOUISVILLE, KY 40219'],
    ['Applegate', 'APPLEGATE LN, LOUISVILLE, KY 40219'],
    ['Montréal', 'H2X, QC (MONTREAL (PLATEAU MONT-ROYAL))'],
  ])('When %j is typed, then %j comes first', (typed, first) => {
    expect(texts(typed)[0]).toBe(first);
  });

  it.each([
    ['1522 Amphitheatre', 'an even number outside the odd range'],
    ['6011 Applegate', 'a number no point holds'],
    ['6007 Applegate Ct', 'another street type'],
    ['   ,, ', 'no word'],
  ])('When %j is typed (%s), then no delivery point is suggested', (typed) => {
    expect(autocomplete.suggest(typed, { limit: 5 }).filter((s) => s.kind === 'address')).toEqual([]);
  });

  it('When a city of several ZIPs is typed, then the larger city comes first; with the start of a ZIP, its ZIPs', () => {
    // (Louisville, CO has one ZIP: the city is that ZIP's place.)
    expect(texts('Louisv')).toEqual(['LOUISVILLE, KY', 'LOUISVILLE, CO 80027']);
    expect(texts('Louisville KY 402')).toEqual(['LOUISVILLE, KY 40202', 'LOUISVILLE, KY 40219']);
    expect(texts('louisville, ky 4021')).toEqual(['LOUISVILLE, KY 40219']);
    expect(autocomplete.suggest('Louisv', { limit: 1 })[0]).toEqual({
      text: 'LOUISVILLE, KY', street: null, city: 'LOUISVILLE', state: 'KY', zip: null, country: 'US', kind: 'place',
    });
  });

  it('When a number is typed, then delivery points come before places and streets', () => {
    expect(autocomplete.suggest('6007 A', { limit: 5 }).map((s) => s.kind)).toEqual(['address']);
    expect(texts('60')).toEqual(['6007 APPLEGATE LN, LOUISVILLE, KY 40219', '6009 APPLEGATE LN, LOUISVILLE, KY 40219']);
  });

  it('When a country is asked for, then only its suggestions come; a country without data has none', () => {
    expect(texts('1', { country: 'CA' })).toEqual(['1234 RUE SAINT-DENIS, MONTREAL, QC H2X 3K4']);
    expect(texts('Louisville', { country: 'ca' })).toEqual([]);
    expect(texts('Louisville', { country: 'FR' })).toEqual([]);
  });

  it('When the limit is smaller than what fits, then the best are kept', () => {
    expect(texts('6', { limit: 1 })).toEqual(['6007 APPLEGATE LN, LOUISVILLE, KY 40219']);
  });

  it('When the index is built, then it holds a key per building, per street of a postal code, per city and ZIP, and two per FSA', () => {
    expect(autocomplete.size).toEqual({ addresses: 5, streets: 5, places: 5 + 6 + 2 * 2 });
  });
});
