/**
 * The classes of mistakes an outside check of labelled US addresses found (issue #34), each with examples of our own
 * beside the issue's.
 */
import { describe, expect, it } from 'vitest';
import { createAddressEngine, ReferenceIndex } from '../../src/validation/address/index.js';
import { AddressFootnotes as F } from '../../src/validation/address/footnotes.js';
import { addressPointOf } from '../../src/validation/address/reference-records.js';
import { check, shippedData } from './shipped-engine.js';

describe('address engine: a ZIP of the state kept beside another name of its county', () => {
  it.each([
    ['200 Lake St, Shawnee Mission, KS 66202', 'SHAWNEE MISSION', '66202', 'MISSION'],
    ['5800 Foxridge Dr, Shawnee Mission, KS 66202', 'SHAWNEE MISSION', '66202', 'MISSION'],
  ])('When "%s" names a place of other ZIPs of the same county, then the ZIP is kept and the city said unchecked', (input, city, zip, zipCity) => {
    const r = check(input);
    expect([r.status, r.components.postal_code, r.components.city]).toEqual(['plausible', zip, city]);
    expect(r.footnotes).toContain(F.cityOfOtherZips(city, zip, zipCity));
  });

  it('When the city is a place of another county than the ZIP\'s, then ZIP, city and state still disagree', () => {
    const r = check('100 Main St, Springfield, IL 60601');
    expect(r.status).toBe('invalid');
    expect(r.footnotes).toContain(F.zipCityStateDisagree);
  });

  it('When reference points place the street in the typed city\'s ZIP, then the ZIP is corrected to it', () => {
    // Arrange: the street's point in 66276 (SHAWNEE MISSION), none in 66202.
    const reference = new ReferenceIndex();
    const point = addressPointOf({ street: '9999 Quivira Rd', postalCode: '66276', country: 'US', city: 'SHAWNEE MISSION' });
    if ('rejected' in point) throw new Error(point.rejected);
    reference.addPoint(point);
    const engine = createAddressEngine({ ...shippedData, reference });
    // Act
    const r = engine.validateSync('9999 Quivira Rd, Shawnee Mission, KS 66202', { deadline: Number.MAX_SAFE_INTEGER });
    // Assert
    expect([r.status, r.components.postal_code]).toEqual(['corrected', '66276']);
    expect(r.footnotes).toContain(F.zipCorrected('66202', '66276'));
    expect(r.footnotes.some((f) => f.startsWith('V#'))).toBe(false);
  });

  it('When reference points hold the street under the ZIP typed, then the city is the ZIP\'s', () => {
    const reference = new ReferenceIndex();
    const point = addressPointOf({ street: '5800 Foxridge Dr', postalCode: '66202', country: 'US', city: 'MISSION' });
    if ('rejected' in point) throw new Error(point.rejected);
    reference.addPoint(point);
    const engine = createAddressEngine({ ...shippedData, reference });
    const r = engine.validateSync('5800 Foxridge Dr, Shawnee Mission, KS 66202', { deadline: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.components.postal_code, r.components.city, r.dpv]).toEqual(['corrected', '66202', 'MISSION', 'Y']);
  });
});

describe('address parser: a route written number first, with a highway word after it', () => {
  it.each([
    ['250 US 101 Hwy, Arcata, CA', '250 US HIGHWAY 101 ARCATA CA'],
    ['12 State Hwy 9 Hwy, Felton, CA', '12 STATE HIGHWAY 9 FELTON CA 95018'],
    ['100 US 93 Hwy, Hamilton, MT 59840', '100 US HIGHWAY 93 HAMILTON MT 59840'],
    ['5 SR 318 Hwy, Silver Springs, FL', '5 STATE ROUTE 318 SILVER SPRINGS FL'],
    ['100 Hwy 50 East, Carson City, NV', '100 HIGHWAY 50 E CARSON CITY NV'],
    ['100 US 93 Hwy N, Hamilton, MT 59840', '100 US HIGHWAY 93 N HAMILTON MT 59840'],
    ['300 Hwy 7 Hwy Ste 2, Excelsior, MN 55331', '300 HIGHWAY 7 STE 2 EXCELSIOR MN 55331'],
    ['7 County Rd 12 Hwy, Bemidji, MN 56601', '7 COUNTY ROAD 12 BEMIDJI MN 56601'],
  ])('When the route is "%s", then one highway word is written: %s', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });

  it('When a street type other than a highway word follows the route number, then it stays the road\'s suffix', () => {
    expect(check('1960 FM 1960 Rd W, Houston, TX 77090').standardized).toBe('1960 FM 1960 RD W HOUSTON TX 77090');
  });
});

describe('address engine: a directional that opens the town after the street\'s comma', () => {
  // Towns GeoNames lacks (it names one place per ZIP: 33161 MIAMI, 94303 PALO ALTO, 55118 SAINT PAUL): kept, spelt out
  // and said unchecked, not moved onto the street.
  it.each([
    ['400 Pine Ave, N. Miami, FL 33161', 'NORTH MIAMI', '33161', 'MIAMI'],
    ['6130 Sunset Dr, So. Miami, FL 33143', 'SOUTH MIAMI', '33143', 'MIAMI'],
    ['2415 University Ave, E Palo Alto, CA 94303', 'EAST PALO ALTO', '94303', 'PALO ALTO'],
    ['14340 Euclid Ave, E. Cleveland, OH 44112', 'EAST CLEVELAND', '44112', 'CLEVELAND'],
    ['1616 Humboldt Ave, W. St. Paul, MN 55118', 'WEST SAINT PAUL', '55118', 'SAINT PAUL'],
    ['750 Lakeside Dr, E Grand Rapids, MI 49506', 'EAST GRAND RAPIDS', '49506', 'GRAND RAPIDS'],
  ])('When "%s" names a town GeoNames lacks, then the town is %s with its ZIP, said unchecked', (input, city, zip, zipCity) => {
    const r = check(input);
    expect([r.status, r.components.city, r.components.postal_code, r.components.street_postdirection]).toEqual(['plausible', city, zip, null]);
    expect(r.footnotes).toContain(F.cityNotChecked(city, zip, zipCity));
  });

  it.each([
    ['12 Oak St, No. Orange, MA', 'NORTH ORANGE', 'ORANGE', 'MA'],
    ['400 Pine Ave, N. Miami, FL', 'NORTH MIAMI', 'MIAMI', 'FL'],
    ['5 Elm St, W. Miami, FL', 'WEST MIAMI', 'MIAMI', 'FL'],
    ['14340 Euclid Ave, E Cleveland, OH', 'EAST CLEVELAND', 'CLEVELAND', 'OH'],
    ['6130 Sunset Dr, So. Miami, Florida', 'SOUTH MIAMI', 'MIAMI', 'FL'],
  ])('When "%s" has no ZIP, then the town is %s, said unchecked beside %s', (input, city, neighbour, state) => {
    const r = check(input);
    expect([r.status, r.components.city, r.components.state, r.components.street_postdirection]).toEqual(['plausible', city, state, null]);
    expect(r.footnotes).toContain(F.townNotChecked(city, neighbour, state));
  });

  it.each([
    ['400 Pine Ave, N. Little Rock, AR 72117', 'NORTH LITTLE ROCK'],
    ['12 Oak St, N Las Vegas, NV 89030', 'NORTH LAS VEGAS'],
    ['12 Oak St, E Moline, IL 61244', 'EAST MOLINE'],
    ['12 Oak St, W. Palm Beach, FL 33401', 'WEST PALM BEACH'],
    ['12 Oak St, So. Gate, CA 90280', 'SOUTH GATE'],
  ])('When "%s" names a town GeoNames lists, then it is that town, checked', (input, city) => {
    const r = check(input);
    expect([r.status, r.components.city, r.components.street_postdirection]).toEqual(['plausible', city, null]);
    expect(r.footnotes.some((f) => f.startsWith('V#'))).toBe(false);
  });

  it.each([
    // Before the comma, the directional is the street's.
    ['400 Pine Ave N, Miami, FL 33161', 'N', 'MIAMI'],
    // A highway or a route is named in segments by direction (US 31W); a quadrant names no town.
    ['1005 Gravenstein Hwy, N Sebastopol, CA 95472', 'N', 'SEBASTOPOL'],
    ['3313 Hwy. 31, W. White House, TN 37188', 'W', 'WHITE HOUSE'],
    ['1105 Bolton Road, NW Atlanta, GA 30331', 'NW', 'ATLANTA'],
  ])('When "%s" puts the directional on a street that takes it, then it stays the street\'s', (input, postdirection, city) => {
    const r = check(input);
    expect([r.components.street_postdirection, r.components.city]).toEqual([postdirection, city]);
  });

  it('When City-State data names the ZIP\'s places, then it decides the town', () => {
    // Arrange: 33161 named MIAMI alone, as if NORTH MIAMI were no name of it.
    const reference = new ReferenceIndex();
    reference.addCityName('33161', 'MIAMI');
    const engine = createAddressEngine({ ...shippedData, reference });
    // Act
    const r = engine.validateSync('400 Pine Ave, N. Miami, FL 33161', { deadline: Number.MAX_SAFE_INTEGER });
    // Assert
    expect([r.status, r.components.city]).toEqual(['plausible', 'MIAMI']);
    expect(r.footnotes.some((f) => f.startsWith('V#'))).toBe(false);
  });
});

describe('address parser: a street named by a suffix or unit word, with a bare unit number', () => {
  it.each([
    ['455 E Union St 14, Pasadena, CA 91101', '455 E UNION ST # 14 PASADENA CA 91101'],
    ['455 Union St 14, Pasadena, CA 91101', '455 UNION ST # 14 PASADENA CA 91101'],
    ['20 W Park St 3, Boston, MA 02108', '20 W PARK ST # 3 BOSTON MA 02108'],
    ['77 N Plaza St 12, Chicago, IL 60601', '77 N PLAZA ST # 12 CHICAGO IL 60601'],
    ['9 S Center St 201, Salt Lake City, UT 84101', '9 S CENTER ST # 201 SALT LAKE CITY UT 84101'],
    ['300 E Key St 7, Key West, FL 33040', '300 E KEY ST # 7 KEY WEST FL 33040'],
    ['300 Key St 7, Key West, FL 33040', '300 KEY ST # 7 KEY WEST FL 33040'],
    ['12 W Pier Ave, Santa Monica, CA 90405', '12 W PIER AVE SANTA MONICA CA 90405'],
  ])('When the address is "%s", then the street keeps its name and type and the number is the unit: %s', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });

  it.each([
    ['100 Bonhomme Ave St 1400, St Louis, MO 63105', '100 BONHOMME AVE STE 1400 SAINT LOUIS MO 63105'],
    ['455 E Union St Ste 14, Pasadena, CA 91101', '455 E UNION ST STE 14 PASADENA CA 91101'],
  ])('When ST follows a complete street before a number ("%s"), then it is still the suite', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });
});

describe('address engine: a territory with its own post named in the text against the country hint', () => {
  it.each([
    ["1 Queen's Road Central, Central, Hong Kong", 'CN', 'HK', 'HONG KONG'],
    ['Avenida de Almeida Ribeiro 1, Macau', 'CN', 'MO', 'MACAO'],
    ['No. 7, Section 5, Xinyi Road, Xinyi District, Taipei City 110, Taiwan', 'CN', 'TW', 'TAIWAN'],
    ['200 Nathan Road, Tsim Sha Tsui, Kowloon, Hong Kong', 'GB', 'HK', 'HONG KONG'],
    ["1 Queen's Road Central, Central, Hong Kong", 'US', 'HK', 'HONG KONG'],
  ])('When "%s" comes with the hint %s, then the answer is for the written %s and says so', (input, hint, country, name) => {
    const r = check(input, hint);
    expect([r.status, r.country]).toEqual(['plausible', country]);
    expect(r.footnotes[0]).toBe(F.countryHintContradicted(hint, name));
  });

  it.each([
    ['100 Main St, Atlanta, Georgia', 'US', 'US'],
    ['Avenida de Almeida Ribeiro 1, Macau', 'MO', 'MO'],
    // A country's name in a town's is no country named: Salvador is in Bahia.
    ['1 Test Road, Salvador', 'BR', 'BR'],
    // Nor is a territory's name that is a town of the hinted country: Macau, Rio Grande do Norte.
    ['1 Test Road, Macau', 'BR', 'BR'],
    ['10 Downing Street, London SW1A 2AA, United Kingdom', 'FR', 'FR'],
  ])('When the country named agrees with the hint or is a state of it ("%s", %s), then the hint stands', (input, hint, country) => {
    const r = check(input, hint);
    expect(r.country).toBe(country);
    expect(r.footnotes.some((f) => f.startsWith('CH#'))).toBe(false);
  });
});
