import { describe, expect, it } from 'vitest';
import {
  carrierPrefixIndexFromJson, carrierPrefixJsonFromTables, findCarrierByPrefix,
} from '../../src/validation/phone/carrier-prefix-index.js';

const index = carrierPrefixIndexFromJson(carrierPrefixJsonFromTables([
  ['44', { '74': 'Short', '7400': 'Long', '75': 'Short' }],
  ['263', { '77': 'Econet', bad: 'Ignored' }],
]));

describe('Carrier prefix index', () => {
  it('When several prefixes match, then the longest wins', () => expect(findCarrierByPrefix(index, '44', '7400123456')).toBe('Long'));
  it('When only a short prefix matches, then it answers', () => expect(findCarrierByPrefix(index, '44', '7410123456')).toBe('Short'));
  it('When no prefix matches, then there is no carrier', () => expect(findCarrierByPrefix(index, '44', '2079460958')).toBeNull());
  it('When the calling code has no data, then there is no carrier', () => expect(findCarrierByPrefix(index, '33', '612345678')).toBeNull());
  it('When the number is shorter than a prefix, then shorter prefixes still match', () => expect(findCarrierByPrefix(index, '44', '740')).toBe('Short'));
  it('When carriers repeat, then each name is stored once', () => expect(index.names).toEqual(['Short', 'Long', 'Econet']));
  it('When a key is not digits, then it is left out', () => expect(findCarrierByPrefix(index, '263', 'bad')).toBeNull());
});
