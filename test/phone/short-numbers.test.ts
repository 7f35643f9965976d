/** Emergency numbers and short codes are said to be what they are (issue #52 item 4: `911` was only `too_short`). */
import { describe, expect, it } from 'vitest';
import { createPhoneEngine, loadShippedPhoneData } from '../../src/validation/phone/index.js';

const engine = createPhoneEngine({ data: loadShippedPhoneData() });

describe('short numbers', () => {
  it.each([
    ['911', undefined], ['911', 'US'], ['9-1-1', undefined], ['112', 'DE'], ['112', undefined], ['999', 'GB'], ['000', 'AU'], ['110', 'JP'],
  ])('When "%s" (country %s) is checked, then it is invalid as an emergency number', (input, country) => {
    expect(engine.validateOffline(input, country)).toMatchObject({ status: 'invalid', type: 'unknown', e164: null, reason: 'emergency_number', country: country ?? null });
  });

  it.each([
    ['411', undefined], ['311', 'US'], ['211', 'CA'], ['22395', 'US'], ['466453', 'CA'],
  ])('When "%s" (country %s) is checked, then it is invalid as a short code', (input, country) => {
    expect(engine.validateOffline(input, country)).toMatchObject({ status: 'invalid', reason: 'short_code' });
  });

  it.each([
    ['+1 911', undefined, 'too_short'], ['411', 'GB', 'too_short'], ['22395', 'GB', 'too_short'], ['12345', 'US', 'too_short'], ['2012031234', undefined, 'missing_country_code'],
  ])('When "%s" (country %s) is no short number there, then the reason is the length or country as before (%s)', (input, country, reason) => {
    expect(engine.validateOffline(input, country)).toMatchObject({ status: 'invalid', reason });
  });

  it('When a full number is checked, then the table changes nothing', () => {
    expect(engine.validateOffline('+1 502-713-4410')).toMatchObject({ status: 'valid', reason: null });
  });
});
