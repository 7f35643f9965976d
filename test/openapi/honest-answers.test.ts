/**
 * Issue #50 items 3-4 and #52 item 4 through the real service: /v1/validate says what confirmed an address and where it
 * is, and no status claims more than its evidence; each answer checked against the OpenAPI description
 * (test/openapi/conformance.ts, objects closed: an undocumented field fails too).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { useTestService } from '../support/service.js';
import { Conformance } from './conformance.js';
import { call, json } from './http.js';

const database = testDatabases[0];

describe('honest answers of /v1/validate, as the OpenAPI description documents them', () => {
  // The production rule for special-use names (the suites' default asks them of their local DNS servers).
  const service = useTestService(database, { EMAIL_SPECIAL_USE_NAMES_ORDINARY: 'false' });
  let conformance: Conformance;
  let apiKey: string;

  beforeAll(async () => {
    conformance = new Conformance(await (await service().get('/v1/openapi.json')).json() as Record<string, unknown>);
    ({ apiKey } = await service().newAccount(100));
  });
  const validate = async (body: Record<string, unknown>) =>
    conformance.check('POST', '/v1/validate', await call(service(), 'POST', '/v1/validate', { key: apiKey, ...json(body) }));

  it('When an embedded address point is asked, then the answer names its evidence, source and its own coordinates', async () => {
    const body = await validate({ address: '6007 Applegate Ln, Louisville, KY 40219' });
    expect(body.address).toMatchObject({
      status: 'verified', dpv: 'Y', evidence: 'address_point', sources: ['rrad'],
      location: { lat: 38.1343013, lon: -85.6498512, precision: 'parcel' },
    });
  });

  it('When a misspelt street and city are mended by no reference data, then the answer is plausible and asks to confirm', async () => {
    const body = await validate({ address: '1600 Pensylvania Av, Washingtn DC' });
    expect(body.address).toMatchObject({ status: 'plausible', dpv: '', evidence: 'none', location: null, next_action: 'confirm' });
    expect(body.address.components.street_name).toBe('PENSYLVANIA');
    expect(body.address.footnotes).toContain('B#: city corrected from WASHINGTN to WASHINGTON');
  });

  it('When the state is two letters no state has, then the answer says so and keeps the city', async () => {
    const body = await validate({ address: '123 Fake Street, Springfield, ZZ 99999' });
    expect(body.address).toMatchObject({ status: 'invalid', evidence: 'none', location: null, next_action: 'fix' });
    expect(body.address.components.city).toBe('SPRINGFIELD');
    expect(body.address.footnotes).toContain('C#: ZZ is not a US state, territory or Canadian province code');
  });

  it('When only the ZIP agrees, then the location is the ZIP\'s centre', async () => {
    const body = await validate({ address: '1600 Pennsylvania Ave NW, Washington DC 20500' });
    expect(body.address).toMatchObject({ status: 'plausible', evidence: 'postal_code', sources: ['geonames'], location: { lat: 38.89, lon: -77.04, precision: 'postal_code' } });
  });

  it('When the e-mail is at example.com, then it is invalid (reserved_domain) and charged as any invalid address', async () => {
    const body = await validate({ email: 'info@example.com' });
    expect(body.email).toMatchObject({ status: 'invalid', reason: 'reserved_domain', smtp: 'skipped', next_action: 'fix' });
    expect(body.credits.charged).toBe(1);
  });

  it('When the phone is 911, then it is invalid as an emergency number', async () => {
    const body = await validate({ phone: '911', country: 'US' });
    expect(body.phone).toMatchObject({ status: 'invalid', reason: 'emergency_number', e164: null, next_action: 'fix' });
  });
});
