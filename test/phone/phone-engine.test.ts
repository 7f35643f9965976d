import { describe, expect, it } from 'vitest';
import { createPhoneEngine, loadShippedPhoneData } from '../../src/validation/phone/index.js';

const engine = createPhoneEngine({ data: loadShippedPhoneData() });
const deadline = () => Date.now() + 2000;

describe('Phone engine offline', () => {
  it('When a US number is in a pooled block, then the carrier is its allocation holder', async () =>
    expect(await engine.validate('+1 201 201 0123', { deadline: deadline() })).toEqual({
      status: 'valid', type: 'fixed_or_mobile', carrier: 'BANDWIDTH.COM CLEC, LLC', carrier_source: 'allocation',
      e164: '+12012010123', country: 'US', reason: null, national: '(201) 201-0123',
    }));
  it('When a UK mobile number is valid, then Google carrier data names the original carrier', () =>
    expect(engine.validateOffline('+447400123456')).toMatchObject({ type: 'mobile', carrier: 'Three', carrier_source: 'allocation' }));
  it('When a UK landline is valid, then no carrier is claimed (Google data covers mobile ranges)', () =>
    expect(engine.validateOffline('+442079460958')).toMatchObject({ type: 'landline', carrier: null, carrier_source: 'none' }));
  it('When a Caribbean +1 mobile is valid, then the NANP holder answers', () =>
    expect(engine.validateOffline('+12684641234')).toMatchObject({ country: 'AG', type: 'mobile', carrier_source: 'allocation' }));
  it('When a US number is in no allocated block, then carrier_source is none', () =>
    expect(engine.validateOffline('+14155550123')).toMatchObject({ status: 'valid', carrier: null, carrier_source: 'none' }));
  it('When the number is invalid, then it has no carrier and no e164', () =>
    expect(engine.validateOffline('+1 201')).toMatchObject({ status: 'invalid', reason: 'too_short', carrier: null, carrier_source: 'none', e164: null, national: null }));
  it('When the request country makes a national number readable, then it is used', async () =>
    expect(await engine.validate('020 7946 0958', { country: 'GB', deadline: deadline() })).toMatchObject({ status: 'valid', e164: '+442079460958' }));
  it('When offlineType is asked for a US number, then it is fixed_or_mobile', () => expect(engine.offlineType('(201) 203-1234', 'US')).toBe('fixed_or_mobile'));
  it('When offlineType is asked for a UK landline, then it is landline (priced 3 credits)', () => expect(engine.offlineType('+442079460958')).toBe('landline'));
  it('When offlineType is asked for garbage, then it is unknown', () => expect(engine.offlineType('😀')).toBe('unknown'));
  it('When validate is handed the reading made for pricing, then it answers from it; a reading it did not make is ignored', async () => {
    const reading = engine.offlineReading('020 7946 0958', 'GB');
    const forged = { ...reading, type: 'mobile' as const };

    const fromReading = await engine.validate('020 7946 0958', { country: 'GB', deadline: deadline(), reading });
    const fromForged = await engine.validate('020 7946 0958', { country: 'GB', deadline: deadline(), reading: forged });

    expect(reading.type).toBe('landline');
    expect(fromReading).toMatchObject({ status: 'valid', type: 'landline', e164: '+442079460958' });
    expect(fromForged).toMatchObject({ status: 'valid', type: 'landline', e164: '+442079460958' });
  });
  it.each(['', '+', 'abc', '😀', '9'.repeat(64), '+999 1234567', '\u0000', 'tel:', '00', '+1'.repeat(200)])(
    'When the input is %j, then validate resolves invalid with a reason', async (input) => {
      const result = await engine.validate(input, { deadline: deadline() });
      expect(result).toMatchObject({ status: 'invalid', type: 'unknown' });
      expect(result.reason).toEqual(expect.any(String));
    });
  it('When the shipped data is loaded twice, then it is read once and shared', () => expect(loadShippedPhoneData()).toBe(loadShippedPhoneData()));
  it('When there is no live look-up, then close resolves', async () => expect(await engine.close()).toBeUndefined());
});
