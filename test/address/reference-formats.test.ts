import fs from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createAddressEngine } from '../../src/validation/address/index.js';
import { ReferenceIndex } from '../../src/validation/address/reference-index.js';
import { ReferenceReaders, type ReferenceFormat, type ReferenceRecord } from '../../src/validation/address/reference-formats/index.js';
import { shippedData } from './shipped-engine.js';
import { CITY_STATE_FIXTURE_RECORDS, COPYRIGHT_RECORD, ZIP4_FIXTURE_RECORDS, cityStateRecord, zip4Record } from './usps-fixture.js';

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);

async function readAll(format: ReferenceFormat, file: string): Promise<ReferenceRecord[]> {
  const out: ReferenceRecord[] = [];
  for await (const r of ReferenceReaders[format](fs.createReadStream(fixture(file), { highWaterMark: 64 }))) out.push(r);
  return out;
}

const kinds = (records: ReferenceRecord[]) => records.map((r) => r.kind).join(',');

describe('reference readers', () => {
  it('When a USPS ZIP+4 file without line breaks is read in small chunks, then each detail record becomes a range', async () => {
    const records = await readAll('usps-zip4', 'usps-zip4-sample.txt');
    expect(kinds(records)).toBe('range,range,range,range,range,range,range,range-deleted,rejected');
    expect(records[7]).toMatchObject({ kind: 'range-deleted', range: { zip: '94043', street: { name: 'OLD', suffix: 'RD' }, primaryLow: '1', primaryHigh: '9' } });
    expect(records.filter((r) => r.kind === 'rejected').map((r) => (r as { reason: string }).reason)).toEqual(['bad ZIP "ABCDE"']);
  });

  it('When a ZIP+4 record is read, then its fields come from the published byte positions', async () => {
    const [first] = await readAll('usps-zip4', 'usps-zip4-sample.txt');
    expect(first).toEqual({
      kind: 'range',
      range: {
        zip: '94043', recordType: 'S', street: { predirection: null, name: 'AMPHITHEATRE', suffix: 'PKWY', postdirection: null },
        primaryLow: '1600', primaryHigh: '1600', primaryParity: 'E', secondaryDesignator: null, secondaryLow: null,
        secondaryHigh: null, secondaryParity: null, plus4Low: '1351', plus4High: '1351',
      },
    });
  });

  it('When the ZIP+4 file has one record per line, then it reads the same', async () => {
    const lines = ZIP4_FIXTURE_RECORDS.join('\n');
    const out: ReferenceRecord[] = [];
    for await (const r of ReferenceReaders['usps-zip4']([lines])) out.push(r);
    expect(out.filter((r) => r.kind === 'range')).toHaveLength(7);
  });

  it('When a City-State file is read, then mailing names of each ZIP come out', async () => {
    const records = await readAll('usps-city-state', 'usps-city-state-sample.txt');
    expect(kinds(records)).toBe('city,city,city,rejected');
    expect(records[1]).toMatchObject({ kind: 'city', city: { zip: '94043', city: 'MOFFETT FIELD', state: 'CA', mailingName: true } });
    expect(CITY_STATE_FIXTURE_RECORDS[1]).toHaveLength(129);
  });

  it('When an OpenAddresses CSV is read, then rows become standardized points and rows without number or ZIP are rejected', async () => {
    const records = await readAll('openaddresses', 'openaddresses-sample.csv');
    expect(kinds(records)).toBe('point,point,point,point,rejected,rejected');
    expect(records[1]).toEqual({
      kind: 'point',
      point: {
        postalCode: '94043', street: { predirection: null, name: 'AMPHITHEATRE', suffix: 'PKWY', postdirection: null },
        primaryNumber: '1500', unit: '200', plus4: '1300', city: 'MOUNTAIN VIEW',
        // OpenAddresses does not say where on the property a point stands: on the lot, not claimed on the building.
        location: { lat: 37.423, lon: -122.085, precision: 'parcel' },
      },
      end: expect.any(Number),
    });
  });

  it('When an address file gives the place with accents or punctuation, then the point keeps it as input is read', async () => {
    const csv = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH\n0,0,5,Main St,,"Cañon City (St. Clair\'s)",,CO,81212,,h\n0,0,6,Main St,,,,CA,94043,,i\n';
    const out: ReferenceRecord[] = [];
    for await (const r of ReferenceReaders.openaddresses([csv])) out.push(r);
    expect(out.map((r) => (r.kind === 'point' ? r.point.city : r.kind))).toEqual(["CANON CITY ST CLAIR'S", null]);
  });

  it('When a National Address Register CSV is read, then French street types stay before the name', async () => {
    const records = await readAll('nar', 'nar-sample.csv');
    expect(kinds(records)).toBe('point,point,point,point,rejected');
    expect(records[2]).toMatchObject({ point: { postalCode: 'H2X 3K4', primaryNumber: '1234', street: { name: 'SAINT-DENIS', suffix: 'RUE' }, city: 'MONTREAL' } });
    expect(records[3]).toMatchObject({ point: { postalCode: 'K1A 0G9', street: { name: 'KENT', suffix: 'ST' } } });
  });
});

describe('address engine with USPS ZIP+4 ranges', () => {
  const reference = new ReferenceIndex();
  const ready = (async () => {
    for (const r of await readAll('usps-zip4', 'usps-zip4-sample.txt')) if (r.kind === 'range') reference.addRange(r.range);
    for (const r of await readAll('nar', 'nar-sample.csv')) if (r.kind === 'point') reference.addPoint(r.point);
    for (const r of await readAll('usps-city-state', 'usps-city-state-sample.txt')) {
      if (r.kind === 'city' && r.city.mailingName) reference.addCityName(r.city.zip, r.city.city);
    }
  })();
  const engine = createAddressEngine({ ...shippedData, reference });
  const check = async (input: string) => {
    await ready;
    return engine.validate(input, { deadline: Number.MAX_SAFE_INTEGER });
  };

  it.each([
    ['1600 Amphitheatre Pkwy, Mountain View, CA 94043', 'verified', 'Y', '94043-1351'],
    ['1600 Amphitheatre Parkway Mountain View CA 94043', 'verified', 'Y', '94043-1351'],
    ['1525 Amphitheatre Pkwy, Mountain View, CA 94043', 'verified', 'Y', null],
    ['1602 Amphitheatre Pkwy, Mountain View, CA 94043', 'invalid', 'N', null],
    ['1 Nowhere Street, Mountain View, CA 94043', 'invalid', 'N', null],
    ['350 5th Ave Ste 150, New York, NY 10118', 'verified', 'Y', '10118-0120'],
    ['350 5th Ave Ste 250, New York, NY 10118', 'partial', 'S', '10118-0110'],
    ['350 Fifth Avenue, New York, NY 10118', 'verified', 'Y', '10118-0110'],
    ['20 W 34th St, New York, NY 10118', 'partial', 'D', null],
    ['20 W 34th St Apt 7, New York, NY 10118', 'verified', 'Y', '10118-0130'],
    ['PO Box 42, Akutan, AK 99553', 'verified', 'Y', null],
    ['RR 2 Box 150, Akutan, AK 99553', 'verified', 'Y', '99553-9701'],
    ['104-2701 23rd Ave NE, Calgary AB T2E 1K4', 'verified', 'Y', null],
    ['2701 23rd Ave NE, Calgary AB T2E 1K4', 'partial', 'D', null],
    ['1234 rue Saint-Denis, Montréal QC H2X 3K4', 'verified', 'Y', null],
  ])('When "%s" is checked, then it is %s with dpv %s and zip4 %s', async (input, status, dpv, zip4) => {
    const r = await check(input);
    expect([r.status, r.dpv, r.zip4]).toEqual([status, dpv, zip4]);
  });

  it('When the city is a USPS mailing name of the ZIP other than the GeoNames one, then it is accepted as given', async () => {
    const r = await check('1600 Amphitheatre Pkwy, Moffett Field, CA 94043');
    expect([r.status, r.components.city]).toEqual(['verified', 'MOFFETT FIELD']);
  });

  it.each([
    ['104-2701 23rd Ave NE, Airdrie AB T2E 1K4', 'corrected', 'B#: city corrected from AIRDRIE to CALGARY'],
    ['1234 rue Saint-Denis, H2X 3K4', 'verified', 'B#: city MONTREAL added from the reference data of the postal code'],
  ])('When the NAR places the Canadian postal code in a municipality, then it checks the city of "%s" (%s)', async (input, status, note) => {
    const r = await check(input);
    expect([r.status, r.dpv]).toEqual([status, 'Y']);
    expect(r.footnotes).toContain(note);
  });

  it('When no address file places the Canadian postal code, then the city stays unchecked and a missing one is missing', async () => {
    expect((await check('10 Main St, Airdrie AB T2E 1K5')).status).toBe('plausible');
    expect((await check('10 Main St, AB T2E 1K5')).status).toBe('invalid');
  });

  it.each([
    ['350 5th Ave Apt 150, New York, NY 10118', 'APT'],
    ['350 5th Ave #150, New York, NY 10118', '#'],
  ])('When the unit "%s" is confirmed by a ZIP+4 record with another designator, then it is written as the record writes it', async (input, typed) => {
    const r = await check(input);
    expect([r.status, r.standardized]).toEqual(['verified', '350 5TH AVE STE 150 NEW YORK NY 10118-0120']);
    expect(r.footnotes).toContain(`N#: unit designator ${typed} written STE, as the ZIP+4 data writes the unit`);
    expect((await check('350 5th Ave Ste 150, New York, NY 10118')).footnotes.some((f) => f.includes('unit designator'))).toBe(false);
  });

  it('When the ZIP+4 typed is not the data\'s for the delivery point, then the data\'s replaces it and a footnote says so', async () => {
    const wrong = await check('1600 Amphitheatre Pkwy, Mountain View, CA 94043-1234');
    const right = await check('1600 Amphitheatre Pkwy, Mountain View, CA 94043-1351');
    expect([wrong.status, wrong.zip4]).toEqual(['verified', '94043-1351']);
    expect(wrong.footnotes).toContain("A#: ZIP+4 add-on 1234 replaced by 1351, the reference data's for this delivery point");
    expect(right.footnotes.some((f) => f.includes('ZIP+4'))).toBe(false);
  });

  it('When a confirmed address has its ZIP+4, then the standardized line carries it', async () => {
    expect((await check('1600 amphitheatre pkwy mountain view ca 94043')).standardized).toBe('1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043-1351');
  });

  it('When the ZIP is wrong but the street exists in one ZIP of the city, then the reference decides the ZIP', async () => {
    const r = await check('350 5th Ave Ste 150, New York, NY 10001');
    expect([r.status, r.components.postal_code, r.dpv]).toEqual(['corrected', '10118', 'Y']);
  });
});

describe('address engine with USPS data for Puerto Rico', () => {
  /** Records in the USPS layouts, read by the same readers as an import, from memory. */
  async function load(reference: ReferenceIndex, format: 'usps-zip4' | 'usps-city-state', records: string[]) {
    for await (const r of ReferenceReaders[format](Readable.from([[COPYRIGHT_RECORD, ...records].join('\n')]))) {
      if (r.kind === 'range') reference.addRange(r.range);
      else if (r.kind === 'city' && r.city.mailingName) reference.addCityName(r.city.zip, r.city.city);
    }
  }
  const reference = new ReferenceIndex();
  const ready = (async () => {
    await load(reference, 'usps-zip4', [
      zip4Record({ zip: '00926', type: 'S', name: 'CALLE A', low: '100', high: '198', parity: 'E', addonLow: '2301', state: 'PR' }),
      zip4Record({ zip: '00926', type: 'S', name: 'CALLE 1', low: '1', high: '99', parity: 'O', addonLow: '2401', state: 'PR' }),
    ]);
    await load(reference, 'usps-city-state', [cityStateRecord({ zip: '00926', city: 'SAN JUAN', state: 'PR' })]);
  })();
  const engine = createAddressEngine({ ...shippedData, reference });
  const check = async (input: string) => {
    await ready;
    return engine.validate(input, { deadline: Number.MAX_SAFE_INTEGER });
  };

  it.each([
    ['URB Las Gladiolas 150 Calle A, San Juan PR 00926', 'verified', 'Y', '00926-2301'],
    ['15 Calle 1, San Juan, PR 00926', 'verified', 'Y', '00926-2401'],
    ['152 Calle B, San Juan, PR 00926', 'invalid', 'N', null],
  ])('When "%s" is checked, then it is %s with dpv %s and zip4 %s', async (input, status, dpv, zip4) => {
    const r = await check(input);
    expect([r.status, r.dpv, r.zip4]).toEqual([status, dpv, zip4]);
    expect(r.footnotes.some((f) => f.startsWith('V#'))).toBe(false);
  });
});

describe('address engine with USPS City-State data for places the embedded data does not name', () => {
  // GeoNames names 44512 and 44514 YOUNGSTOWN only; USPS also accepts BOARDMAN and POLAND for them.
  const reference = new ReferenceIndex();
  const ready = (async () => {
    for await (const r of ReferenceReaders['usps-city-state'](Readable.from([[COPYRIGHT_RECORD,
      cityStateRecord({ zip: '44512', city: 'YOUNGSTOWN', state: 'OH' }),
      cityStateRecord({ zip: '44512', city: 'BOARDMAN', state: 'OH', preferred: 'YOUNGSTOWN' }),
      cityStateRecord({ zip: '44514', city: 'YOUNGSTOWN', state: 'OH' }),
      cityStateRecord({ zip: '44514', city: 'POLAND', state: 'OH', preferred: 'YOUNGSTOWN' }),
      // A name USPS lists but does not accept in a last line (mailing name indicator N).
      cityStateRecord({ zip: '44515', city: 'YOUNGSTOWN', state: 'OH' }),
      cityStateRecord({ zip: '44515', city: 'AUSTINTOWN', state: 'OH', mailing: false, preferred: 'YOUNGSTOWN' }),
    ].join('\n')]))) {
      if (r.kind !== 'city') continue;
      if (r.city.mailingName) reference.addCityName(r.city.zip, r.city.city);
      else reference.addCityAlias(r.city.zip, r.city.city, r.city.state, r.city.preferredName);
    }
  })();
  const withCityState = createAddressEngine({ ...shippedData, reference });
  const embeddedOnly = createAddressEngine(shippedData);
  const check = async (engine: typeof embeddedOnly, input: string) => {
    await ready;
    return engine.validate(input, { deadline: Number.MAX_SAFE_INTEGER });
  };

  it.each([
    ['500 Elm St, Boardman, OH', 'plausible', '500 ELM ST BOARDMAN OH 44512', 'A#: ZIP code 44512 added'],
    ['123 Main St, Poland, OH', 'plausible', '123 MAIN ST POLAND OH 44514', 'A#: ZIP code 44514 added'],
    ['500 Elm St, Bordman, OH', 'plausible', '500 ELM ST BOARDMAN OH 44512', 'B#: city corrected from BORDMAN to BOARDMAN'],
    ['500 Elm St Boardman OH', 'plausible', '500 ELM ST BOARDMAN OH 44512', 'A#: ZIP code 44512 added'],
  ])('When "%s" is typed without its ZIP, then City-State names find it: %s, %s', async (input, status, standardized, note) => {
    const r = await check(withCityState, input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
    expect(r.footnotes).toContain(note);
  });

  it.each([
    ['12 Oak Ave, Austintown, OH', '12 OAK AVE YOUNGSTOWN OH 44515', 'A#: ZIP code 44515 added'],
    ['12 Oak Ave, Austintown, OH 44515', '12 OAK AVE YOUNGSTOWN OH 44515', null],
  ])('When "%s" names a place USPS lists but does not accept in a last line, then it is written with the name USPS accepts', async (input, standardized, zipNote) => {
    const r = await check(withCityState, input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
    expect(r.footnotes).toContain('B#: city corrected from AUSTINTOWN to YOUNGSTOWN: USPS lists AUSTINTOWN for the ZIP code but does not accept it in a last line (City-State data)');
    if (zipNote) expect(r.footnotes).toContain(zipNote);
  });

  it('When the same is checked with the embedded data alone, then the city is reported unknown, as before', async () => {
    const r = await check(embeddedOnly, '500 Elm St, Boardman, OH');
    expect(r.status).toBe('invalid');
    expect(r.footnotes).toContain('C#: city BOARDMAN not found in OH');
    expect(r.footnotes).toContain('V#: the embedded ZIP code data lists the main place of each ZIP code only, so a smaller place (a township, a village) may be missing from it: give the ZIP code, or load USPS City-State data');
    // With City-State data loaded, a name it does not know is not a place the embedded data merely lacks.
    const unknown = await check(withCityState, '500 Elm St, Nowhereville, OH');
    expect([unknown.status, unknown.footnotes.some((f) => f.startsWith('V#: the embedded ZIP code data lists'))]).toEqual(['invalid', false]);
  });
});
