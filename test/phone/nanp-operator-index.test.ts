import { describe, expect, it } from 'vitest';
import {
  buildNanpOperatorIndex, decodeNanpOperatorIndex, encodeNanpOperatorIndex, findNanpOperator,
} from '../../src/validation/phone/nanp-operator-index.js';
import { loadShippedPhoneData } from '../../src/validation/phone/index.js';

const small = buildNanpOperatorIndex([
  { prefix: '201203', operator: 'EXCHANGE HOLDER' },
  { prefix: '2012035', operator: 'BLOCK HOLDER' },
  { prefix: '2019990', operator: 'POOLED ONLY' },
  { prefix: '415200', operator: 'EXCHANGE HOLDER' },
]);

describe('NANP operator index', () => {
  it('When the thousands block has a holder, then the block holder answers', () => expect(findNanpOperator(small, '2012035000')).toBe('BLOCK HOLDER'));
  it('When only the exchange has a holder, then the exchange holder answers', () => expect(findNanpOperator(small, '2012031000')).toBe('EXCHANGE HOLDER'));
  it('When an exchange has pooled blocks only, then other blocks have no holder', () => expect(findNanpOperator(small, '2019991000')).toBeNull());
  it('When an exchange has pooled blocks only, then its pooled block answers', () => expect(findNanpOperator(small, '2019990123')).toBe('POOLED ONLY'));
  it('When the exchange is unknown, then there is no holder', () => expect(findNanpOperator(small, '3125550000')).toBeNull());
  it('When the number is not 10 digits, then there is no holder', () => expect(findNanpOperator(small, '201203500')).toBeNull());
  it('When two prefixes share a holder, then the name is stored once', () => expect(small.operatorNames).toHaveLength(3));
  it('When the index is encoded and decoded, then it answers the same', () =>
    expect(findNanpOperator(decodeNanpOperatorIndex(encodeNanpOperatorIndex(small)), '2012035000')).toBe('BLOCK HOLDER'));
  it('When the bytes are not an index, then decoding refuses them', () =>
    expect(() => decodeNanpOperatorIndex(Buffer.from('not an index at all'))).toThrow(/magic/));
  it('When a prefix is not 6 or 7 digits, then building refuses it', () =>
    expect(() => buildNanpOperatorIndex([{ prefix: '20120', operator: 'X' }])).toThrow(/6 or 7 digits/));
});

describe('Shipped NANP operator index (NANPA/CNAC, March 2023)', () => {
  const { nanpOperators } = loadShippedPhoneData();
  it('When a block is pooled, then its holder answers before the exchange holder', () => expect(findNanpOperator(nanpOperators, '2012010000')).toBe('BANDWIDTH.COM CLEC, LLC'));
  it('When an exchange is not pooled, then the exchange holder answers', () => expect(findNanpOperator(nanpOperators, '2012031234')).toBe('YMAX COMMUNICATIONS CORP.'));
  it('When the holder had a state suffix, then the suffix is gone', () => expect(findNanpOperator(nanpOperators, '2013641234')).toBe('CELLCO PARTNERSHIP DBA VERIZON WIRELESS'));
  it('When the index is loaded, then it holds every exchange of the source', () => expect(nanpOperators.exchangeKeys.length).toBeGreaterThan(39_150));
});
