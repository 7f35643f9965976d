import { describe, expect, it } from 'vitest';
import maxMetadata from 'libphonenumber-js/metadata.max.json';
import type { MetadataJson } from 'libphonenumber-js/core';
import { keypadDigits, readPhoneNumber, unwrapTelUri, withoutLineLabel } from '../../src/validation/phone/read-phone-number.js';

const metadata = maxMetadata as unknown as MetadataJson;
const read = (input: unknown, country?: string) => readPhoneNumber(input, country, metadata);

describe('readPhoneNumber: decorations', () => {
  it.each([
    ['+1 (201) 203-1234', undefined, '+12012031234'],
    ['+1.201.203.1234', undefined, '+12012031234'],
    ['  +44 20 7946 0958  ', undefined, '+442079460958'],
    ['0044 20 7946 0958', undefined, '+442079460958'],
    ['0044 20 7946 0958', 'US', '+442079460958'],
    ['0044 20 7946 0958', 'DE', '+442079460958'],
    ['011 44 20 7946 0958', 'US', '+442079460958'],
    ['tel:+1-201-203-1234', undefined, '+12012031234'],
    ['TEL:+442079460958;phone-context=example.com', undefined, '+442079460958'],
    ['tel:+1-201-203-1234;ext=55', undefined, '+12012031234'],
    ['+1 201 203 1234 ext. 12', undefined, '+12012031234'],
    ['+1 201 203 1234 x12', undefined, '+12012031234'],
    ['+1 201 203 1234 #12', undefined, '+12012031234'],
    ['(201) 203-1234', 'US', '+12012031234'],
    ['(201) 203-1234', 'us', '+12012031234'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['07400 123456', 'GB', '+447400123456'],
  ])('When the input is %j with country %s, then it reads as %s', (input, country, e164) => {
    expect(read(input, country)).toMatchObject({ valid: true, e164, reason: null });
  });

  it('When the hint names another country than an international number, then the number decides', () =>
    expect(read('+44 20 7946 0958', 'US')).toMatchObject({ valid: true, country: 'GB' }));
  it('When the number uses a non-geographic calling code, then it is valid with no country', () =>
    expect(read('+800 1234 5678')).toMatchObject({ valid: true, type: 'toll_free', country: null, e164: '+80012345678' }));
  it('When the hint is not a known region, then it is ignored', () =>
    expect(read('+12012031234', 'XX')).toMatchObject({ valid: true, country: 'US' }));
  it('When a Canadian area code is dialled with the US hint, then the country is CA', () =>
    expect(read('613 555 0199', 'US')).toMatchObject({ valid: true, country: 'CA' }));
  it('When the number has an extension, then the national format keeps it', () =>
    expect(read('tel:+1-201-203-1234;ext=55').national).toBe('(201) 203-1234 ext. 55'));
  it('When a number is valid, then the national format is the country\'s own', () =>
    expect(read('+442079460958').national).toBe('020 7946 0958'));
  it('When a tel: URI has no extension, then it is just the number', () =>
    expect(unwrapTelUri('tel:+1-201-203-1234;phone-context=x')).toBe('+1-201-203-1234'));
});

describe('readPhoneNumber: full-width digits, as an East Asian input method types them', () => {
  it.each([
    ['＋１ ２０２ ６３０ １２３４', undefined, '+12026301234'],
    ['０３－１２３４－５６７８', 'JP', '+81312345678'],
  ])('When the input is %j with country %s, then it reads %s', (input, country, e164) => {
    expect(read(input, country)).toMatchObject({ valid: true, e164 });
  });
});

describe('readPhoneNumber: vanity numbers, as Google libphonenumber reads them', () => {
  it.each([
    ['1-800-FLOWERS', 'US', '+18003569377', '(800) 356-9377'],
    ['800 FLOWERS', 'US', '+18003569377', '(800) 356-9377'],
    ['+1 800 GOT MILK x12', undefined, '+18004686455', '(800) 468-6455 ext. 12'],
    ['+1 (800) got-milk ext. 7', undefined, '+18004686455', '(800) 468-6455 ext. 7'],
  ])('When the input is %j with country %s, then the letters are keypad digits: %s', (input, country, e164, national) => {
    expect(read(input, country)).toMatchObject({ valid: true, type: 'toll_free', e164, national });
  });

  it.each([['212-555-0123 x45'], ['+1 212 555 0123 ext 45'], ['212.555.0123 extension 45']])(
    'When %j has letters only in its extension, then they stay an extension', (input) => {
      expect(read(input, 'US')).toMatchObject({ valid: true, e164: '+12125550123', national: '(212) 555-0123 ext. 45' });
    });

  it.each([['1-800-FLOWERS', '1-800-3569377'], ['+1 800 GOT MILK x12', '+1 800 468 6455 x12'], ['hello', null], ['12 AB', null]])(
    'When keypadDigits reads %j, then it gives %j', (input, digits) => expect(keypadDigits(input)).toBe(digits));
});

describe('readPhoneNumber: a label written with the number (CRM fields, forms)', () => {
  it.each([
    ['202-456-1111 (work)', 'US', '+12024561111'],
    ['Cell: 202-456-1111', 'US', '+12024561111'],
    ['cell 202-456-1111', 'US', '+12024561111'],
    ['202.456.1111 Mobile', 'US', '+12024561111'],
    ['Tel. +49 30 901820', undefined, '+4930901820'],
    ['+44 20 7946 0958 - office', undefined, '+442079460958'],
  ])('When the input is %j (country %s), then the label is set aside and the number read: %s', (input, country, e164) => {
    expect(read(input, country)).toMatchObject({ valid: true, e164 });
  });

  it('When a label and an extension are both written, then the extension stays', () => {
    expect(read('202-456-1111 ext 5 (work)', 'US')).toMatchObject({ valid: true, national: '(202) 456-1111 ext. 5' });
  });

  it.each([['1-800-GOT-MILK', '+18004686455'], ['1-800-FLOWERS', '+18003569377']])(
    'When a vanity number %j has no label word, then its letters are still keypad digits', (input, e164) => {
      expect(read(input, 'US')).toMatchObject({ valid: true, e164 });
    });

  it.each([['Cell: 202-456-1111', '202-456-1111'], ['202-456-1111 (work)', '202-456-1111'], ['work', null], ['202-456-1111', null]])(
    'When withoutLineLabel reads %j, then it gives %j', (input, bare) => expect(withoutLineLabel(input)).toBe(bare));
});

describe('readPhoneNumber: types', () => {
  it.each([
    ['+12012031234', 'fixed_or_mobile'],
    ['+16135550199', 'fixed_or_mobile'],
    ['+18005550199', 'toll_free'],
    ['+19002123456', 'premium_rate'],
    ['+442079460958', 'landline'],
    ['+447400123456', 'mobile'],
    ['+12684641234', 'mobile'],
    ['+12684601234', 'landline'],
    ['+971700012345', 'shared_cost'],
    ['+445612345678', 'voip'],
    ['+447012345678', 'personal'],
    ['+447640123456', 'pager'],
    ['+445512345678', 'uan'],
  ])('When the number is %s, then the offline type is %s', (input, type) => {
    expect(read(input)).toMatchObject({ valid: true, type });
  });
});

describe('readPhoneNumber: bad input never throws', () => {
  it.each([
    ['', undefined, 'empty'],
    ['   ', undefined, 'empty'],
    ['+', undefined, 'not_a_number'],
    ['hello', 'US', 'not_a_number'],
    ['call me maybe', undefined, 'not_a_number'],
    ['😀😀😀', 'US', 'not_a_number'],
    ['+1 201 203 1234 😀', undefined, 'not_a_number'],
    ['call +1 201 203 1234', undefined, 'not_a_number'],
    ['1-800-FLOWERS', undefined, 'missing_country_code'],
    ['1-800-FLOWERS-NOW', 'US', 'too_long'],
    ['call 1-800-FLOWERS', 'US', 'not_a_number'],
    ['FLOWERS-800', 'US', 'not_a_number'],
    ['1'.repeat(64), 'US', 'too_long'],
    ['1'.repeat(64), undefined, 'too_long'],
    ['2'.repeat(21), undefined, 'too_long'],
    ['+' + '9'.repeat(64), undefined, 'too_long'],
    ['+'.repeat(300), undefined, 'too_long'],
    ['+999 1234567', undefined, 'invalid_country_code'],
    ['+0 123456', undefined, 'invalid_country_code'],
    ['2012031234', undefined, 'missing_country_code'],
    ['+1 201', undefined, 'too_short'],
    ['+1 201 203 12', undefined, 'too_short'],
    ['+1 201 203 12345', undefined, 'too_long'],
    ['+1 101 203 1234', undefined, 'invalid_for_region'],
    ['+4420794609581234', undefined, 'too_long'],
    ['tel:', undefined, 'empty'],
  ])('When the input is %j with country %s, then it is invalid because %s', (input, country, reason) => {
    expect(read(input, country)).toMatchObject({ valid: false, reason, type: 'unknown', e164: null });
  });

  it.each([[null], [undefined], [42], [{}], [['+12012031234']]])('When the input is not a string (%j), then it is not_a_number', (input) =>
    expect(read(input)).toMatchObject({ valid: false, reason: 'not_a_number' }));
  it('When an invalid number has a calling code of one region, then that region is kept', () =>
    expect(read('+49 30 1')).toMatchObject({ valid: false, country: 'DE' }));
  it('When an invalid number has a calling code shared by regions, then the region is unknown', () =>
    expect(read('+1 101 203 1234')).toMatchObject({ valid: false, country: null }));
});
