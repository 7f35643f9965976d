import { describe, expect, it } from 'vitest';
import { AddressFootnotes as F } from '../../src/validation/address/footnotes.js';
import { parseNorthAmericanAddress } from '../../src/validation/address/parser/index.js';
import type { NorthAmericanComponents } from '../../src/validation/address/north-america/index.js';
import { check, shippedData } from './shipped-engine.js';

const parse = (input: string) => parseNorthAmericanAddress(input, shippedData.postal);
/** The delivery line as one string: number, directional, name, suffix, directional, unit. */
const street = (input: string) => {
  const p = parse(input);
  const name = p.suffixBeforeName ? [p.suffix, p.name] : [p.name, p.suffix];
  const numberFirst = p.kind === 'street' || p.kind === 'highway' || p.kind === 'intersection';
  const parts = numberFirst ? [p.primaryNumber, p.predirection, ...name] : [p.predirection, ...name, p.primaryNumber];
  return [...parts, p.postdirection, p.secondaryDesignator, p.secondaryNumber].filter(Boolean).join(' ');
};
const lastLine = (input: string) => {
  const p = parse(input);
  return [p.city, p.state, p.postalCode, p.plus4].filter(Boolean).join(' ');
};
/** One test per [input, delivery line, last line]. */
const itReadsLines = (cases: [string, string, string][]) =>
  it.each(cases)('When the address is "%s", then the delivery line is "%s" and the last line "%s"', (input, delivery, last) => {
    expect([street(input), lastLine(input)]).toEqual([delivery, last]);
  });

describe('address parser: delivery line', () => {
  it.each([
    ['123 Main Street', '123 MAIN ST'],
    ['123 north main avenue', '123 N MAIN AVE'],
    ['500 Marquette Avenue Northwest', '500 MARQUETTE AVE NW'],
    ['123 N St', '123 N ST'],
    ['214 B South Boulevard', '214B SOUTH BLVD'],
    ['9912 S. Avenue H', '9912 S AVENUE H'],
    ['1044 Lake Shore Boulevard', '1044 LAKE SHORE BLVD'],
    ['123 1/2 Main St', '123 1/2 MAIN ST'],
    ['123-45 Queens Blvd', '123-45 QUEENS BLVD'],
    ['6,007 Applegate Ln', '6007 APPLEGATE LN'],
    ['1180 P de Leon Blvd', '1180 P DE LEON BLVD'],
    ['6007Applegate Ln', '6007 APPLEGATE LN'],
    ['6007-Applegate Ln', '6007 APPLEGATE LN'],
    ['6251 smithpointe dr # 132', '6251 SMITHPOINTE DR # 132'],
    ['6251 Smithpointe Dr 136', '6251 SMITHPOINTE DR # 136'],
    ['1111 Broadway, Suite 1515', '1111 BROADWAY STE 1515'],
    ['219 South Dearborn Second Floor', '219 S DEARBORN FL 2'],
    ['10 W 35th St 15th Floor', '10 W 35TH ST FL 15'],
    ['2610 West 25th Place Lower level', '2610 W 25TH PL LOWR'],
    ['1960 South 18th Rear', '1960 S 18TH REAR'],
    ['350 Fifth Ave Bsmt', '350 5TH AVE BSMT'],
    ['350 Fifth Ave PH', '350 5TH AVE PH'],
    ['350 Fifth Ave Lobby', '350 5TH AVE LBBY'],
    ['12 Elm St Apt 3B', '12 ELM ST APT 3B'],
    // A unit's number written in words is written in figures (it was a note, the unit lost).
    ['12 Elm St Apt Four', '12 ELM ST APT 4'],
    ['12 Elm St Suite Two Hundred Five', '12 ELM ST STE 205'],
    ['12 Elm St # Twenty One', '12 ELM ST # 21'],
    // Of two units as deep, the one with a number is the line's (apartment 4, at the rear).
    ['12 Elm St Apt 4 Rear', '12 ELM ST APT 4'],
    ['12 Elm St Rear Apt 4', '12 ELM ST APT 4'],
    // A unit's letter after NO or NUMBER, a unit number with a hyphen, a glued unit whose number starts with a letter.
    ['12 Elm St Apt No B', '12 ELM ST APT B'],
    ['12 Elm St Apartment Number M', '12 ELM ST APT M'],
    ['12 Elm St apt-320-3', '12 ELM ST APT 320-3'],
    ['12 Elm St APT320-3', '12 ELM ST APT 320-3'],
    ['12 Elm St APTD10', '12 ELM ST APT D10'],
    ['12 Elm St Apartment #3B', '12 ELM ST APT 3B'],
    // A unit glued to its designator, in brackets, after NUM, or joined to the street type by a hyphen.
    ['12 Elm St Apt3B', '12 ELM ST APT 3B'],
    ['12 Elm St (Apt 3B)', '12 ELM ST APT 3B'],
    ['12 Elm St Num 3B', '12 ELM ST # 3B'],
    // A designator misspelt by one slip between the street and the number.
    ['12 Elm Street Appt 3B', '12 ELM ST APT 3B'],
    ['12 Elm Street Sutie 500', '12 ELM ST STE 500'],
    ['12 Elm Ave-B', '12 ELM AVE # B'],
    ['12 Elm St (rear entrance)', '12 ELM ST'],
    ['88175 US Highway 278', '88175 US HIGHWAY 278'],
    ['88175 US Hwy 278', '88175 US HIGHWAY 278'],
    ['3035 South Highway A1A', '3035 S HIGHWAY A1A'],
    ['#3B, 3035 South Highway A1A', '3035 S HIGHWAY A1A # 3B'],
    // A unit letter alone before the number; R ends `C R` (county road) only when no comma follows it.
    ['R, 108 Croft Drive', '108 CROFT DR # R'],
    ['5442 State Route 690', '5442 STATE ROUTE 690'],
    ['133 County Road KK', '133 COUNTY ROAD KK'],
    ['14442 County Rd 5', '14442 COUNTY ROAD 5'],
    ['6500 Highway 179', '6500 HIGHWAY 179'],
    ['100 route 37 e', '100 ROUTE 37 E'],
    ['11745 I-10 W', '11745 INTERSTATE 10 W'],
    ['100 I-95', '100 INTERSTATE 95'],
    ['4715 F 41', '4715 F 41'],
    ['100 CA-1', '100 CA ROUTE 1'],
    ['8300 TN-100 Apt 2', '8300 TN ROUTE 100 APT 2'],
    ['6460 Vermont 113, Vershire, VT', '6460 VT ROUTE 113'],
    ['6460 VT Rte 113', '6460 VT ROUTE 113'],
    ['8483 Al Hwy 157', '8483 AL HIGHWAY 157'],
    ['1000 Indiana Highway 212', '1000 INDIANA HIGHWAY 212'],
    ['20370 New York 9 Apt 2', '20370 NY ROUTE 9 APT 2'],
    ['212 W Washington 1506, Chicago, IL', '212 W WASHINGTON # 1506'],
    ['1301 S Cptl of TX Highway 3', '1301 S CPTL OF TX HIGHWAY 3'],
    ['100 Main St FL-2', '100 MAIN ST FL 2'],
    ['12345 Avenue 416', '12345 AVENUE 416'],
    ['18687 Rd 97 Apt 2', '18687 ROAD 97 APT 2'],
    ['18687 Road 97 N', '18687 ROAD 97 N'],
    ['100 Main Rd 5', '100 MAIN RD # 5'],
    ['2414 Parker St #R 16', '2414 PARKER ST # R16'],
    ['9601 Spur 591', '9601 SPUR 591'],
    ['PO Box 123', 'PO BOX 123'],
    ['P.O. Box 123', 'PO BOX 123'],
    ['Post Office Box 9', 'PO BOX 9'],
    // The number glued to the box word.
    ['POBox123', 'PO BOX 123'],
    ['P.O.Box123', 'PO BOX 123'],
    ['POB123', 'PO BOX 123'],
    ['RR 2 Box 152', 'RR 2 BOX 152'],
    ['Rural Route 2 Box 152', 'RR 2 BOX 152'],
    ['HC 68 Box 23A', 'HC 68 BOX 23A'],
    ['General Delivery', 'GENERAL DELIVERY'],
    ['rr # 1 box 242', 'RR 1 BOX 242'],
    ['RT 1 BOX 81', 'RR 1 BOX 81'],
    ['HC Route 68 Box 23A', 'HC 68 BOX 23A'],
    ['820 North Highway 71 Business', '820 N HIGHWAY 71 BUSINESS'],
    ['3340 peachtree rd ne tower place ste 1685', '3340 PEACHTREE RD NE STE 1685'],
    ['10151 Deerwood Park Boulevard Building 100, Suite 120', '10151 DEERWOOD PARK BLVD STE 120'],
    ['1063 Maitland Center Commons Blvd', '1063 MAITLAND CENTER COMMONS BLVD'],
    ['3459 lawrenceville suwanee rd ste d attn: mr. john poole', '3459 LAWRENCEVILLE SUWANEE RD STE D'],
    ['msc 410833 po box 415000', 'PO BOX 415000 MSC 410833'],
    ['1200 Business 190 Ste 13', '1200 BUSINESS 190 STE 13'],
    ['728 C and N Smith Mill Rd', '728 C AND N SMITH MILL RD'],
    ['4315 Webster Avenue LH', '4315 WEBSTER AVE # LH'],
    ['6910 # G Mary Caroline Circle', '6910 MARY CAROLINE CIR # G'],
    ['One S. Wacker Dr.', '1 S WACKER DR'],
    ['W148 N9748 Tree Tops Dr', 'W148N9748 TREE TOPS DR'],
    ['  123   MAIN    st  ', '123 MAIN ST'],
  ])('When the delivery line is "%s", then it standardizes to "%s"', (input, expected) => {
    expect(street(input)).toBe(expected);
  });
});

describe('address parser: last line', () => {
  it.each([
    ['1600 Amphitheatre Pkwy, Mountain View, CA 94043', 'MOUNTAIN VIEW CA 94043'],
    ['1600 Amphitheatre Pkwy Mountain View CA 94043', 'MOUNTAIN VIEW CA 94043'],
    ['261 anderson rd n rock hill sc 29730-3316', 'ROCK HILL SC 29730 3316'],
    ['3970 Flint Hill Road Powder Springs, Georgia 30127', 'POWDER SPRINGS GA 30127'],
    ['60 ORVILLE DR FLOWERY BRANCH GA 30542-5314', 'FLOWERY BRANCH GA 30542 5314'],
    ['123 Main St West Lafayette INDIANA', 'WEST LAFAYETTE IN'],
    ['1005 Gravenstein Hwy N, Sebastopol CA', 'SEBASTOPOL CA'],
    ['216 Bloomfield St., Hoboken, NJ 7030', 'HOBOKEN NJ 07030'],
    // The same with no state: four figures after a name of the ZIP they make with a zero (not after Auckland: 01010 is
    // Chicopee's).
    ['150 Carter Street, Manchester 6040', 'MANCHESTER 06040'],
    ['10 Main St Springfield 1103', 'SPRINGFIELD 01103'],
    ['1 Main St, Springfield, IL 62701, USA', 'SPRINGFIELD IL 62701'],
    ['PSC 1234 Box 5678, APO AE 09001', 'APO AE 09001'],
    ['Minneapolis, MN 55401', 'MINNEAPOLIS MN 55401'],
    // Only a last line whose ZIP is another place's: the whole city stays (it was dropped, or SALT LAKE taken for a place).
    ['New Orleans, 12345', 'NEW ORLEANS 12345'],
    ['Salt Lake City, 12345', 'SALT LAKE CITY 12345'],
    // Two letters in a comma group of their own before the ZIP are the state field, whatever they are (the engine
    // then finds that nothing agrees); ANYTOWN was dropped as a building and ZZ taken for the city.
    ['123 Main St, Anytown, ZZ 12345', 'ANYTOWN ZZ 12345'],
    // Words before the city that are no name of the ZIP while the last ones are: the city is those (the rest is left over).
    ['401 church street, 14th flr, l & c twr div of fiscal services-fee section nashville tn 37243', 'NASHVILLE TN 37243'],
    ['1267 Martin St #203 - leave at door, Nashville TN 37203', 'NASHVILLE TN 37203'],
  ])('When the address is "%s", then the last line is "%s"', (input, expected) => {
    expect(lastLine(input)).toBe(expected);
  });

  it('When the address has no comma before the city, then the street keeps its suffix', () => {
    expect(street('6251 smithpointe dr # 132 peachtree corners ga 30092-2755')).toBe('6251 SMITHPOINTE DR # 132');
  });

  it('When a recipient stands before the number, then it is dropped from the street', () => {
    const p = parse('Marcos Placona, Twilio 645 Harrison St, San Francisco CA 94107');
    expect([p.primaryNumber, p.name, p.recipient]).toEqual(['645', 'HARRISON', 'MARCOS PLACONA TWILIO']);
  });
});

describe('address parser: Canada', () => {
  it.each([
    ['104-2701 23rd Ave NE, Calgary AB T2E 1K4', '2701 23RD AVE NE UNIT 104', 'CALGARY AB T2E 1K4'],
    ['1234 rue Saint-Denis, Montréal QC H2X 3K4', '1234 RUE SAINT-DENIS', 'MONTREAL QC H2X 3K4'],
    ['55 boul. René-Lévesque O, Québec QC G1R 2B5', '55 BOUL RENE-LEVESQUE O', 'QUEBEC QC G1R 2B5'],
    ['10 Main Street East, Hamilton, Ontario L8N1E8', '10 MAIN ST E', 'HAMILTON ON L8N 1E8'],
    // A form's fields in another order: the postal code before the city, the province again after it.
    ['100 Queen St W, M5H 2N2, Toronto, ON', '100 QUEEN ST W', 'TORONTO ON M5H 2N2'],
    ['100 Queen St W, Toronto, ON M5H2N2, Ontario', '100 QUEEN ST W', 'TORONTO ON M5H 2N2'],
    ['100 Queen St W, Toronto, M5H 2N2 ON', '100 QUEEN ST W', 'TORONTO ON M5H 2N2'],
    ['200 Kent St, Ottawa ON K1A 0G9 Canada', '200 KENT ST', 'OTTAWA ON K1A 0G9'],
    // A city whose name holds a street type or a directional, known from the FSAs' names (which places they start
    // with, and which the postal code's FSA holds).
    ['100 Water St, St. Andrews, NB E5B 1B1', '100 WATER ST', 'ST ANDREWS NB E5B 1B1'],
    ["100 water st st. john's nl a1c 5h2", '100 WATER ST', 'ST JOHNS NL A1C 5H2'],
    ['100 Bridge St Carleton Place ON K7C 2V4', '100 BRIDGE ST', 'CARLETON PLACE ON K7C 2V4'],
    ['100 Main St, St. Albert T8N 1B1', '100 MAIN ST', 'ST ALBERT T8N 1B1'],
    ['100 Lonsdale Ave North Vancouver BC V7M 2E4', '100 LONSDALE AVE', 'NORTH VANCOUVER BC V7M 2E4'],
    ['100 Queen St W Toronto ON M5H 2N2', '100 QUEEN ST W', 'TORONTO ON M5H 2N2'],
    // Street types as Canada Post writes them, also from their USPS spellings; one only USPS lists is kept as typed.
    ['12 Maple Ct, Toronto ON M4W 1A1', '12 MAPLE CRT', 'TORONTO ON M4W 1A1'],
    ['12 Oak Pkwy, Ottawa ON K2J 1A1', '12 OAK PKY', 'OTTAWA ON K2J 1A1'],
    ['12 Elm Xing, Calgary AB T2E 1K4', '12 ELM CROSS', 'CALGARY AB T2E 1K4'],
    ['12 Pine Trace, Halifax NS B3H 1A1', '12 PINE TRACE', 'HALIFAX NS B3H 1A1'],
    ['2200 Grande Allée Est, Québec QC G1R 2J7', '2200 GRANDE ALLEE E', 'QUEBEC QC G1R 2J7'],
  ])('When the Canadian address is "%s", then the delivery line is "%s" and the last line "%s"', (input, delivery, last) => {
    expect([street(input), lastLine(input)]).toEqual([delivery, last]);
    expect(parse(input).country).toBe('CA');
  });
});

describe('address parser: several units, unit spellings, grid streets', () => {
  const units = (input: string) => {
    const p = parse(input);
    return [[p.secondaryDesignator, p.secondaryNumber].join(' '), p.extraSecondaries.map((s) => [s.designator, s.number].join(' '))];
  };

  it.each([
    ['180 Water Street, 14th Floor, Room 1418, New York, NY 10038', 'RM 1418', ['FL 14']],
    ['9837 SW 184th St Bld A FLR 3 STE 222', 'STE 222', ['BLDG A', 'FL 3']],
    ['300 east randolph street dept 528 4th floor chicago il 60601', 'FL 4', ['DEPT 528']],
    ['dept 528 4th floor 300 east randolph st chicago il 60601', 'FL 4', ['DEPT 528']],
  ])('When "%s" names several units, then the innermost %s is the unit and the others are kept', (input, unit, extra) => {
    expect(units(input)).toEqual([unit, extra]);
  });

  it('When several units are given, then the answer keeps the innermost on the line and lists the others', () => {
    const r = check('180 Water Street, 14th Floor, Room 1418, New York, NY 10038');
    expect([r.standardized, (r.components as NorthAmericanComponents).extra_secondaries]).toEqual(['180 WATER ST RM 1418 NEW YORK NY 10038', ['FL 14']]);
  });

  itReadsLines([
    ['7777 Bonhomme Ave St 1400 St Louis MO 63105', '7777 BONHOMME AVE STE 1400', 'ST LOUIS MO 63105'],
    ['3000 E. Boundary Terrace, St 2 Midlothian VA 23112', '3000 E BOUNDARY TER STE 2', 'MIDLOTHIAN VA 23112'],
    ['Flat 4 10A Dr. Martin Luther King Blvd Austin, TX 78701', '10A DR MARTIN LUTHER KING BLVD APT 4', 'AUSTIN TX 78701'],
    ['2260 Peachtree Rd NW Condo D1 Atlanta GA 30309', '2260 PEACHTREE RD NW UNIT D1', 'ATLANTA GA 30309'],
    // A building's name ending in a unit word, then the house number after a comma.
    ['Empire State Building, 350 5th Ave, New York, NY 10118', '350 5TH AVE', 'NEW YORK NY 10118'],
    ['Chrysler Building, 405 Lexington Ave, New York, NY 10174', '405 LEXINGTON AVE', 'NEW YORK NY 10174'],
    // A form's label before the unit as typed: the unit's own designator stays.
    ['600 West 19th Avenue Apt APT B, Anchorage, AK 99503', '600 W 19TH AVE APT B', 'ANCHORAGE AK 99503'],
    ['5630 Silverado Way Apt STE A8, Anchorage, AK 99518', '5630 SILVERADO WAY STE A8', 'ANCHORAGE AK 99518'],
    ['1025 West 19th Street Apt Unit 1-C, Panama City, FL 32405', '1025 W 19TH ST UNIT 1-C', 'PANAMA CITY FL 32405'],
    ['4101 Winnfield Road, 106 D, Warrenville IL 60555', '4101 WINNFIELD RD # 106D', 'WARRENVILLE IL 60555'],
    ['7000 Peachtree Dunwoody, B-17, Ste. 200', '7000 PEACHTREE DUNWOODY STE 200', ''],
    ['720 10th Ave SW A Mount Vernon IA 52314', '720 10TH AVE SW # A', 'MOUNT VERNON IA 52314'],
    ['1301 SE 2nd Fort Lauderdale, FL', '1301 SE 2ND', 'FORT LAUDERDALE FL'],
    ['510 NE 93rd Miami Shores, FL', '510 NE 93RD', 'MIAMI SHORES FL'],
    // A street runs west or east, not both: the second directional starts the town.
    ['1120 w 175th st east hazel crest il 60429', '1120 W 175TH ST', 'EAST HAZEL CREST IL 60429'],
    ['34 Southwest Tualatin Valley Hwy east portland oregon', '34 SW TUALATIN VALLEY HWY', 'EAST PORTLAND OR'],
    // (Washington's quadrants are no such second directional.)
    ['8157 East Beach Drive Northwest Washington DC 20012', '8157 E BEACH DR NW', 'WASHINGTON DC 20012'],
    // A number before MILE inside the line names the road; it is no second house number.
    ['14100 Ben C Pratt 6 Mile Cypress Pkwy, Fort Myers, FL 33966', '14100 BEN C PRATT 6 MILE CYPRESS PKWY', 'FORT MYERS FL 33966'],
    ['20000 8 Mile Rd, Detroit, MI 48219', '20000 8 MILE RD', 'DETROIT MI 48219'],
    // A form's fields in another order: the ZIP before the city, the state again after the ZIP.
    ['6007 Applegate Ln, 40219, Louisville, KY', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    ['6007 Applegate Ln, Louisville, KY 40219, KY', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    ['6007 Applegate Ln, Louisville KY 40219, Kentucky', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    ['6007 Applegate Ln, Louisville, 40219 KY', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    ['6007 Applegate Ln Louisville 40219 Kentucky', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    // (Not a ZIP of another state: a unit.)
    ['6007 Applegate Ln, 10001, Louisville, KY', '6007 APPLEGATE LN # 10001', 'LOUISVILLE KY'],
    // A floor written before a building's name before the street is the line's unit.
    ['14th floor l & c tower 401 church street nashville tn 37243', '401 CHURCH ST FL 14', 'NASHVILLE TN 37243'],
  ]);
});

describe('address parser: street corners', () => {
  it.each([
    ['Hwy 16 And Minnesota Rd NW, Preston, MN 55965', 'HIGHWAY 16 & MINNESOTA RD NW', 'PRESTON MN 55965'],
    ['18th and Lincoln', '18TH & LINCOLN', ''],
    ['Route 30 & Route 45', 'ROUTE 30 & ROUTE 45', ''],
    ['Hwys 51 and 151, Madison, WI 53714', 'HWYS 51 & 151', 'MADISON WI 53714'],
    ['Rts 1 & 24 East', 'RTS 1 & 24 E', ''],
    ['CORNER OF CAVE & ZERKEL STS', 'CAVE & ZERKEL STS', ''],
    ['1601 Jumer Drive at Veterans Pkwy', '1601 JUMER DR & VETERANS PKWY', ''],
  ])('When the text "%s" names two streets, then one intersection line names both: "%s"', (input, delivery, last) => {
    expect([parse(input).kind, street(input), lastLine(input)]).toEqual(['intersection', delivery, last]);
  });

  it.each([
    ['100 Bread and Butter Ln, Dayton OH 45402', '100 BREAD AND BUTTER LN'],
    ['4351 The Circle at North Hills St', '4351 THE CIRCLE AT NORTH HILLS ST'],
    ['1 Johnson & Johnson Plaza, New Brunswick NJ 08933', '1 JOHNSON & JOHNSON PLZ'],
  ])('When AND or AT is part of one street name ("%s"), then it stays one street', (input, delivery) => {
    expect([parse(input).kind, street(input)]).toEqual(['street', delivery]);
  });

  it('When the address is a corner, then the answer is invalid and says why', () => {
    const r = check('Hwy 16 And Minnesota Rd NW, Preston, MN 55965');
    expect([r.status, r.footnotes]).toEqual(['invalid', expect.arrayContaining(['E#: a street corner, not a delivery point'])]);
  });
});

describe('address parser: a directional between street and city, decided by the gazetteer', () => {
  itReadsLines([
    ['2108 Wealthy St SE E Grand Rapids, MI 49506', '2108 WEALTHY ST SE', 'E GRAND RAPIDS MI 49506'],
    ['2153 WEALTHY S E E GRAND RAPIDS, MI 49506', '2153 WEALTHY SE', 'E GRAND RAPIDS MI 49506'],
    ['2959 LUCERNE DR S E GRAND RAPIDS, MI 49546', '2959 LUCERNE DR SE', 'GRAND RAPIDS MI 49546'],
    ['1005 Gravenstein Hwy, N Sebastopol CA', '1005 GRAVENSTEIN HWY N', 'SEBASTOPOL CA'],
    ['4221 Richards Rd North Little Rock AR 72117', '4221 RICHARDS RD', 'NORTH LITTLE ROCK AR 72117'],
  ]);
});

describe('address parser: landmarks, and a street beside a box', () => {
  it.each([
    ['Union Station, Washington, DC 20001', 'WASHINGTON DC 20001'],
    ['Wrigley Field', ''],
    ['Valley West Mall, West Des Moines, IA 50266', 'WEST DES MOINES IA 50266'],
    ['Meriden Square, Meriden, CT 06450', 'MERIDEN CT 06450'],
  ])('When "%s" names a landmark without a house number, then there is no street', (input, last) => {
    expect([parse(input).kind, street(input), lastLine(input)]).toEqual(['none', '', last]);
  });

  it.each([
    ['Drum Point Road, Deale, MD 20751', 'DRUM POINT RD'],
    ['Highway 80, Allentown, GA 31003', 'HIGHWAY 80'],
  ])('When "%s" is a road without a house number, then it stays a street', (input, delivery) => {
    expect(street(input)).toBe(delivery);
  });

  it.each([
    ['3523 Williams St, POB 477 Patterson, GA 31557', 'PO BOX 477', '3523 WILLIAMS ST'],
    ['104 s walnut rr 1 box 297 monee il 60449', 'RR 1 BOX 297', '104 S WALNUT'],
    ['1950 n stemmons freeway, ste 5010 lockbox 848104 dallas tx 75207', 'PO BOX 848104 STE 5010', '1950 N STEMMONS FWY'],
    ['6000 feldwood rd lbx # 402605 college park ga 30349', 'PO BOX 402605', '6000 FELDWOOD RD'],
    ['1950 n stemmons fwy ste 5010 lb # 842467 dallas tx 75207', 'PO BOX 842467 STE 5010', '1950 N STEMMONS FWY'],
  ])('When "%s" gives a street and then a box, then the box above the city is used and the street kept apart', (input, delivery, other) => {
    const o = parse(input).otherLine!;
    expect([street(input), [o.primaryNumber, o.predirection, o.name, o.suffix].filter(Boolean).join(' ')]).toEqual([delivery, other]);
  });

  it('When a street stands before a box, then the answer delivers to the box and says the street was set aside', () => {
    const r = check('3523 Williams St, PO Box 477, Patterson, GA 31557');
    expect(r.standardized).toBe('PO BOX 477 PATTERSON GA 31557');
    expect(r.footnotes).toContain('R#: an earlier delivery line set aside (Pub 28: mail goes to the line just above the city): 3523 WILLIAMS ST');
  });

  it.each([
    ['6007 Applegate Ln, Louisville, KY 40219; 1745 T St SE, Washington, DC 20020'],
    ['6007 Applegate Ln Louisville KY 40219 1745 T St SE Washington DC 20020'],
  ])('When two whole addresses are given (%j), then the last is checked and the answer is ambiguous, naming the other', (input) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['ambiguous', 'Y', '1745 T ST SE WASHINGTON DC 20020']);
    expect(r.footnotes[0]).toBe(F.otherAddressSetAside('6007 APPLEGATE LN LOUISVILLE KY 40219'));
  });

  it('When a home\'s unit follows the street before a box, then the street keeps it and the box takes none', () => {
    // (It was `PO BOX 456 APT 5`; a suite before a lockbox stays with the box, as the corpus writes a firm's.)
    const r = check('100 Main St Apt 5, PO Box 456, Springfield, IL 62701');
    expect(r.standardized).toBe('PO BOX 456 SPRINGFIELD IL 62701');
    expect(r.footnotes).toContain('R#: an earlier delivery line set aside (Pub 28: mail goes to the line just above the city): 100 MAIN ST APT 5');
    expect(check('1950 n stemmons freeway, ste 5010 lockbox 848104 dallas tx 75207').standardized).toBe('PO BOX 848104 STE 5010 DALLAS TX 75207');
    // … also where the street and its unit are a delivery point of the loaded data (the box was dropped as a note).
    const known = check('600 West 19th Avenue APT B, PO Box 456, Anchorage, AK 99503');
    expect([known.standardized, known.footnotes[0]]).toEqual([
      'PO BOX 456 ANCHORAGE AK 99503', 'R#: an earlier delivery line set aside (Pub 28: mail goes to the line just above the city): 600 WEST 19TH AVENUE APT B',
    ]);
  });

  it('When the same address is given twice, then it is one address, confirmed', () => {
    const r = check('6007 Applegate Ln, Louisville, KY 40219, 6007 Applegate Lane, Louisville, Kentucky 40219');
    expect([r.status, r.standardized]).toEqual(['verified', '6007 APPLEGATE LN LOUISVILLE KY 40219']);
  });

  it('When the street before the box is a delivery point of the loaded data, then the box is still the delivery line, not a building and a unit', () => {
    // (It was `6007 APPLEGATE LN # 456`, `PO BOX` dropped as a building's name: the known street outscored the box.)
    const r = check('6007 Applegate Ln, PO Box 456, Louisville, KY 40219');
    expect(r.standardized).toBe('PO BOX 456 LOUISVILLE KY 40219');
    expect(r.footnotes).toContain('R#: an earlier delivery line set aside (Pub 28: mail goes to the line just above the city): 6007 APPLEGATE LN');
  });
});

describe('address parser: attention lines, a building after the street, FL at the end', () => {
  itReadsLines([
    ['attn:charlotte duran 2905 rodeo park drive east bld 1 santa fe nm 87505', '2905 RODEO PARK DR E BLDG 1', 'SANTA FE NM 87505'],
    ['c/o bank of america 6000 feldwood rd; lockbox # 402605 college park ga 30349', 'PO BOX 402605', 'COLLEGE PARK GA 30349'],
    ['4193 solutions center lockbox no 774193 chicago il 60677', 'PO BOX 774193', 'CHICAGO IL 60677'],
    ['8725 nw 18th ter ste 106 doral fl', '8725 NW 18TH TER STE 106', 'DORAL FL'],
    ['1750 Tysons Blvd Fourth Fl', '1750 TYSONS BLVD FL 4', ''],
    ['1201 peachtree street ne 400 colony square, # 1001', '1201 PEACHTREE ST NE # 1001', ''],
    // SUITE is no street name: the number before it belongs to the building (it was `5 SUITE # 704`).
    ['1 Medical Park Tower 5 Suite 704 Wheeling WV 26003', '1 MEDICAL PARK STE 704', 'WHEELING WV 26003'],
  ]);

  it('When a number is followed by a sign alone (`4 & 13`), then the sign is never read as the street name', () => {
    for (const input of ['Jct 4 & 13', 'Junction Highway 76 37 & 86, Cassville, MO 65625']) expect(parse(input).name ?? '').not.toMatch(/^[^A-Z0-9]+$/);
  });

  it('When a numbered place name follows a street, then it is kept as the building and the street is the address', () => {
    expect(parse('1201 Peachtree St NE 400 Colony Square, Suite 1730 Atlanta, GA 30361').building).toBe('400 COLONY SQ');
  });

  it('When an attention line holds a house number right after ATTN, then it is not the delivery line', () => {
    expect(street('attn dept # 528, 4th floor 300 east randolph st chicago il 60601')).toBe('300 E RANDOLPH ST FL 4');
  });
});

describe('address parser: route boxes, a state written twice, a country alone, hyphenated units', () => {
  itReadsLines([
    ['Route Box # 100, West Dover, VT 05356', 'RR BOX 100', 'WEST DOVER VT 05356'],
    ['Post Office 20387 St. Simons Island GA 31522', 'PO BOX 20387', 'ST SIMONS ISLAND GA 31522'],
    ['Fifty N. Front St., Memphis TN, TN 38103', '50 N FRONT ST', 'MEMPHIS TN 38103'],
    ['9837 SW 184th St Bld-A Flr 3 Ste 222', '9837 SW 184TH ST STE 222', ''],
    ['USA', '', ''],
  ]);

  it('When a route box has no route number, then it is a rural route box', () => {
    expect([parse('Route Box # 65').kind, parse('Route Box # 65').primaryNumber]).toEqual(['rural_route', '65']);
  });
});

describe('address parser: numbered streets, county roads, traditional state abbreviations, words after the ZIP', () => {
  itReadsLines([
    ['20713 2700 N Ave', '20713 2700 N AVE', ''],
    ['28030 E C R 850 N', '28030 E COUNTY ROAD 850 N', ''],
    ['2320 mocking bird lane chico cal', '2320 MOCKING BIRD LN', 'CHICO CA'],
    ['Joe Ballenger 3645 N Route Z Columbia MO 65202 Ballenger Propane Inc Utilities', '3645 N ROUTE Z', 'COLUMBIA MO 65202'],
    ['2848 Paces Ferry Road Suite 700, Overlook 1', '2848 PACES FERRY RD STE 700', ''],
    ['Main and 63rd', 'MAIN & 63RD', ''],
    ['M & E Bank Building, Fake City, UT, 84101', '', 'FAKE CITY UT 84101'],
    ['Anheuser Busch One Busch Place St Louis MO 63118', '1 BUSCH PL', 'ST LOUIS MO 63118'],
  ]);

  it('When words follow the ZIP code, then they are set aside and reported', () => {
    expect(parse('3645 N Route Z Columbia MO 65202 Ballenger Propane Inc').trailing).toBe('BALLENGER PROPANE INC');
  });
});

describe('address parser: highway contracts, business routes, two-word mail stops', () => {
  itReadsLines([
    ['HIGHWAY CONTRACT rte # 24 BOX # 2A', 'HC 24 BOX 2A', ''],
    ['851 UNITED STATES HIGHWAY 53 BSNSS RTE N', '851 US HIGHWAY 53 BUSINESS ROUTE N', ''],
    ['510 U.S. 17 Business Surfside Beach, South Carolina 29575', '510 US HIGHWAY 17 BUSINESS', 'SURFSIDE BEACH SC 29575'],
    ['p.o. box 660367 mail code 5021 dallas tx 75266', 'PO BOX 660367 MAIL CODE 5021', 'DALLAS TX 75266'],
    ['mail code 55083 p.o. box 105046 atlanta ga 30348', 'PO BOX 105046 MAIL CODE 55083', 'ATLANTA GA 30348'],
  ]);
});

describe('address parser: a mistyped ZIP after the state', () => {
  itReadsLines([
    ['42 Elm Ave Apt 3, Denver CO 8020-1234', '42 ELM AVE APT 3', 'DENVER CO 8020 1234'],
    ['42 Elm Ave, Denver, CO 802021', '42 ELM AVE', 'DENVER CO 802021'],
    ['42 Elm Ave, Denver, CO 802', '42 ELM AVE', 'DENVER CO 802'],
  ]);
  it('When the ZIP after the state has the wrong number of digits, then city and state are still read and the answer says the ZIP is malformed', () => {
    const r = check('42 Elm Ave Apt 3, Denver CO 8020-1234');
    expect(r.status).toBe('invalid');
    expect(r.components).toMatchObject({ city: 'DENVER', state: 'CO', primary_number: '42', secondary_number: '3' });
    expect(r.footnotes).toEqual(['C#: ZIP code 8020-1234 is not a ZIP code (five digits, optionally a hyphen and four more)']);
  });
});

describe('address parser: lettered boxes', () => {
  itReadsLines([
    ['PO Box C, Talkeetna, AK 99676', 'PO BOX C', 'TALKEETNA AK 99676'],
    ['210 Spur Rd PO Box C', 'PO BOX C', ''],
  ]);
  it('When a box is lettered, then the standardized line keeps the letter', () => {
    expect(check('P.O. Box C, Talkeetna, AK 99676').standardized).toBe('PO BOX C TALKEETNA AK 99676');
  });
});

describe('address parser: a route written after a complete street', () => {
  itReadsLines([
    ['77 Harbor Road Route 27, Southport, ME 04576', '77 HARBOR RD', 'SOUTHPORT ME 04576'],
    ['500 N Main Street State Route 9 Suite 4, Dover, DE 19901', '500 N MAIN ST STE 4', 'DOVER DE 19901'],
    ['12 Old County Road 5', '12 OLD COUNTY ROAD 5', ''],
  ]);
  it('When a route follows a complete street, then the street is the address and the route is reported as set aside', () => {
    const r = check('500 N Main Street State Route 9 Suite 4, Dover, DE 19901');
    expect(r.standardized).toBe('500 N MAIN ST STE 4 DOVER DE 19901');
    expect(r.footnotes).toContain('R#: words that fit no address part dropped: STATE ROUTE 9');
  });
});

describe('address parser: an attention line after the street holds no second delivery line', () => {
  itReadsLines([
    ['410 Commerce Pkwy Attn: Lockbox 7731 Marietta GA 30060', '410 COMMERCE PKWY', 'MARIETTA GA 30060'],
    ['410 Commerce Pkwy Attention PO Box 12, Marietta, GA 30060', '410 COMMERCE PKWY', 'MARIETTA GA 30060'],
  ]);
  it('When a box follows C/O, then the box is where the mail goes', () => {
    expect(street('410 Commerce Pkwy c/o First Bank PO Box 7731, Marietta, GA 30060')).toBe('PO BOX 7731');
  });
});

describe('address parser: lettered roads', () => {
  itReadsLines([
    ['2210 M 28, Shingleton, MI 49884', '2210 M 28', 'SHINGLETON MI 49884'],
    ['214 B South Boulevard', '214B SOUTH BLVD', ''],
  ]);
});

describe('address parser: a misspelt city of the ZIP still ends the street', () => {
  itReadsLines([
    ['880 Pike Ave North Litle Rock AR 72114', '880 PIKE AVE', 'NORTH LITLE ROCK AR 72114'],
    ['3313 Hwy 31 W White House TN 37188', '3313 HIGHWAY 31 W', 'WHITE HOUSE TN 37188'],
  ]);
  it('When the city of the ZIP is misspelt after a street, then the answer corrects it and says so', () => {
    const r = check('880 Pike Ave North Litle Rock AR 72114');
    expect(r.status).toBe('plausible');
    expect(r.standardized).toBe('880 PIKE AVE NORTH LITTLE ROCK AR 72114');
    expect(r.footnotes).toContain('B#: city corrected from NORTH LITLE ROCK to NORTH LITTLE ROCK');
  });
  it.each([
    ['100 Main St, Wets Palm Beach, FL 33409', 'WETS PALM BEACH', '100 MAIN ST WEST PALM BEACH FL 33409'],
    ['100 Main St Wets Palm Beach FL 33409', 'WETS PALM BEACH', '100 MAIN ST WEST PALM BEACH FL 33409'],
    ['100 Main St, Sout Deerfield, MA 01373', 'SOUT DEERFIELD', '100 MAIN ST SOUTH DEERFIELD MA 01373'],
    ['100 Main St, Nroth Monmouth, ME 04265', 'NROTH MONMOUTH', '100 MAIN ST NORTH MONMOUTH ME 04265'],
    ['100 Main St, North Ls Vegas, NV 89031', 'NORTH LS VEGAS', '100 MAIN ST NORTH LAS VEGAS NV 89031'],
    ['100 Main St, Lass Vegas, NV 89135', 'LASS VEGAS', '100 MAIN ST LAS VEGAS NV 89135'],
    ['100 Main St, Ne Bedford, MA 02745', 'NE BEDFORD', '100 MAIN ST NEW BEDFORD MA 02745'],
  ])('When the first word of the ZIP\'s city is misspelt (%s), then the whole is that city, corrected: no note before a neighbour its last words name', (input, typed, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
    expect(r.footnotes[0]).toBe(`B#: city corrected from ${typed} to ${standardized.split(' ').slice(3, -2).join(' ')}`);
    expect(r.footnotes.join(' ')).not.toMatch(/R#/);
  });
  it('When the first word of a city is misspelt and no ZIP is given, then the one city of the state one slip from its letters is taken', () => {
    const r = check('100 Main St, Wets Palm Beach, FL');
    expect([r.status, r.components.city]).toEqual(['plausible', 'WEST PALM BEACH']);
    expect(r.footnotes[0]).toBe('B#: city corrected from WETS PALM BEACH to WEST PALM BEACH');
  });
});

describe('address engine: a street type, directional or name misspelt, mended where the data holds the street', () => {
  it.each([
    ['1407 Walden Cort, Crofton, MD 21114', '1407 WALDEN CT CROFTON MD 21114', 'WALDEN CORT', 'WALDEN CT'],
    ['310 Timrod Rod, Manchester, CT 06040', '310 TIMROD RD MANCHESTER CT 06040', 'TIMROD ROD', 'TIMROD RD'],
    ['4 Old Colony Waay, Yarmouth, MA', '4 OLD COLONY WAY YARMOUTH MA 02664', 'OLD COLONY WAAY', 'OLD COLONY WAY'],
    ['1745 T Srteet Southeast, Washington, DC 20020', '1745 T ST SE WASHINGTON DC 20020', 'T SRTEET SE', 'T ST SE'],
    ['451 East Srteet, Huntington, VT 05462', '451 EAST ST HUNTINGTON VT 05462', 'E SRTEET', 'EAST ST'],
    // A directional one slip from two (NORTHWEST, NORTHEAST), and a short name one slip from several: the number decides.
    ['1537 Northewst 123rd Street, Oklahoma City, OK 73120', '1537 NW 123RD ST OKLAHOMA CITY OK 73120', 'NORTHEWST 123RD ST', 'NW 123RD ST'],
    ['210 Gren Road, Manchester, CT 06042', '210 GREEN RD MANCHESTER CT 06042', 'GREN RD', 'GREEN RD'],
    ['2849 Quil Drive, Fayetteville, AR 72704', '2849 QUAIL DR FAYETTEVILLE AR 72704', 'QUIL DR', 'QUAIL DR'],
  ])('When the address is "%s", then it is corrected to "%s"', (input, standardized, from, to) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', standardized]);
    expect(r.footnotes).toContain(`M#: street corrected from ${from} to ${to}`);
  });

  it('When a short street name is misspelt and no ZIP is given, then the city\'s ZIPs that hold a street it may mean are searched', () => {
    const r = check('210 Gren Road, Manchester, CT');
    expect([r.status, r.dpv, r.standardized]).toEqual(['corrected', 'Y', '210 GREEN RD MANCHESTER CT 06042']);
    expect(r.footnotes).toEqual(expect.arrayContaining(['A#: ZIP code 06042 added', 'M#: street corrected from GREN RD to GREEN RD']));
  });
});

describe('address parser: a mistyped state code before the ZIP', () => {
  itReadsLines([
    ['77 W Jackson Blvd, Chicago, lL 60604', '77 W JACKSON BLVD', 'CHICAGO LL 60604'],
    ['123 Main St Columbia 29201', '123 MAIN ST', 'COLUMBIA 29201'],
  ]);
  it('When the state code before the ZIP is mistyped, then the ZIP and city correct it', () => {
    const r = check('77 W Jackson Blvd, Chicago, lL 60604');
    expect(r.status).toBe('plausible');
    expect(r.standardized).toBe('77 W JACKSON BLVD CHICAGO IL 60604');
    expect(r.footnotes).toContain('B#: state corrected from LL to IL');
  });
});

describe('address parser: Puerto Rico streets and urbanizations, military units and ships', () => {
  itReadsLines([
    ['123 Calle 1, Bayamon, PR 00961', '123 CALLE 1', 'BAYAMON PR 00961'],
    ['12 CALLE A BAYAMON PR 00959', '12 CALLE A', 'BAYAMON PR 00959'],
    ['12 Calle A Apt 3, Bayamon PR 00959', '12 CALLE A APT 3', 'BAYAMON PR 00959'],
    // AVENIDA and CARRETERA written as Pub 28 writes them in Puerto Rico (section 29): AVE, CARR.
    ['500 Avenida Ponce de Leon, San Juan PR 00918', '500 AVE PONCE DE LEON', 'SAN JUAN PR 00918'],
    // The house number typed after the street, after #, NUM or CASA: Pub 28 writes it first, without them.
    ['Calle 1 #23, Bayamon, PR 00961', '23 CALLE 1', 'BAYAMON PR 00961'],
    ['Calle Sol Num 23, San Juan, PR 00901', '23 CALLE SOL', 'SAN JUAN PR 00901'],
    ['Unit 2050 Box 4190, APO AP 96278', 'UNIT 2050 BOX 4190', 'APO AP 96278'],
    ['USCGC Hamilton FPO AP 96667', 'USCGC HAMILTON', 'FPO AP 96667'],
    // A number after a Spanish street word numbers the road, even with words after it (`BO HATO TEJAS`, a barrio).
    ['100 Carretera 2 Bo Hato Tejas, Bayamon, PR 00959', '100 CARR 2 BO HATO TEJAS', 'BAYAMON PR 00959'],
  ]);

  it.each([
    // A kilometre or mile marker locates an address on a road with no house number: it stands as the number, where it
    // was written (the decimal point kept, as Pub 28 keeps it in `39.2 RD`).
    ['Carr 2 Km 15.5, Bayamon, PR 00956', 'CARR 2 KM 15.5 BAYAMON PR 00956'],
    ['Carr. 174 Km. 2.3, Bayamon PR 00959', 'CARR 174 KM 2.3 BAYAMON PR 00959'],
    ['Km 15.5 Carr 2, Bayamon, PR 00956', 'KM 15.5 CARR 2 BAYAMON PR 00956'],
    ['Mile 15.5 Sterling Hwy, Soldotna, AK 99669', 'MILE 15.5 STERLING HWY SOLDOTNA AK 99669'],
    ['Sterling Hwy MP 95, Soldotna, AK 99669', 'STERLING HWY MILE 95 SOLDOTNA AK 99669'],
  ])('When the address is "%s", then the marker is its number and the answer "%s"', (input, standardized) => {
    const r = check(input);
    expect([r.status, r.standardized]).toEqual(['plausible', standardized]);
    expect(r.components.primary_number).toMatch(/^(KM|MILE) [\d.]+$/);
  });

  it.each([
    // Beside a house number a marker is a note, said so; a road named by its mile (Texas) is no marker.
    ['12345 Sterling Hwy MM 95.5, Soldotna, AK 99669', '12345 STERLING HWY SOLDOTNA AK 99669', 'R#: building name or note dropped from the delivery line: MILE 95.5'],
    ['1234 Mile 5 Rd, Weslaco, TX 78596', '1234 MILE 5 RD WESLACO TX 78596', undefined],
    ['1234 Mile 5 N Rd, Weslaco, TX 78596', '1234 MILE 5 N RD WESLACO TX 78596', undefined],
    ['715 36.1 Road, Palisade, CO 81526', '715 36.1 RD PALISADE CO 81526', undefined],
  ])('When the address is "%s", then the answer is "%s"', (input, standardized, note) => {
    const r = check(input);
    expect(r.standardized).toBe(standardized);
    if (note) expect(r.footnotes).toContain(note);
    else expect(r.footnotes.join(' ')).not.toMatch(/R#/);
  });

  it.each([
    ['URB Santa Rosa 12 Calle 15, Bayamon PR 00959', 'SANTA ROSA', '12 CALLE 15'],
    ['1234 Calle Alturas, Urb Villa Nevarez, San Juan PR 00927', 'VILLA NEVAREZ', '1234 CALLE ALTURAS'],
    ['Urbanizacion Royal Oak, 123 Calle 1, Bayamon PR 00961', 'ROYAL OAK', '123 CALLE 1'],
  ])('When the address is "%s", then the urbanization is "%s" and the delivery line "%s"', (input, urbanization, delivery) => {
    expect([parse(input).urbanization, street(input)]).toEqual([urbanization, delivery]);
  });

  it('When URB runs into the city with no comma or number to end it, then it is left where it is', () => {
    expect(parse('1234 Calle Alturas Urb Villa Nevarez San Juan PR 00927').urbanization).toBeNull();
  });

  it('When UNIT is not followed by BOX, then it stays a unit (`UNIT 5, 123 MAIN ST`)', () => {
    expect(street('Unit 5, 123 Main St, Austin TX 78701')).toBe('123 MAIN ST UNIT 5');
  });

  it('When a ship prefix is not before APO, FPO or DPO, then it is no delivery line', () => {
    // (A museum's name with no house number: no street either, the name set aside as a building's.)
    const p = parse('USS Constitution Museum, Boston MA 02129');
    expect([p.kind === 'military', p.name, p.primaryNumber, p.building]).toEqual([false, null, null, 'USS CONSTITUTION MUSEUM']);
  });
});

describe('address parser: a state glued to its ZIP, a glued fraction, a drawer', () => {
  itReadsLines([
    ['123 Main St Springfield IL62701', '123 MAIN ST', 'SPRINGFIELD IL 62701'],
    ['123 Main St, Springfield, IL62701-1234', '123 MAIN ST', 'SPRINGFIELD IL 62701 1234'],
    ['123½ Main St, Springfield IL 62701', '123 1/2 MAIN ST', 'SPRINGFIELD IL 62701'],
    ['Drawer 5, Springfield IL 62701', 'PO BOX 5', 'SPRINGFIELD IL 62701'],
  ]);

  it('When two letters glued to five digits are no state (`XX62701`), then they stay one word', () => {
    expect(parse('123 Main St XX62701').postalCode).toBeNull();
  });
});

describe('address parser: a city written twice', () => {
  itReadsLines([
    ['123 Main St Springfield, Springfield, IL 62701', '123 MAIN ST', 'SPRINGFIELD IL 62701'],
    ['123 Main St Salt Lake City Salt Lake City UT 84101', '123 MAIN ST', 'SALT LAKE CITY UT 84101'],
    ['123 Main St Walla Walla WA 99362', '123 MAIN ST', 'WALLA WALLA WA 99362'],
    ['123 Main St, Walla Walla, Walla Walla, WA 99362', '123 MAIN ST', 'WALLA WALLA WA 99362'],
    ['123 Springfield St Springfield IL 62701', '123 SPRINGFIELD ST', 'SPRINGFIELD IL 62701'],
  ]);
});

describe('address parser: a street type after a route number', () => {
  itReadsLines([
    ['123 FM 1960 Rd W, Houston TX 77090', '123 FM 1960 RD W', 'HOUSTON TX 77090'],
    ['123 FM 1960 Road West Suite 5, Houston TX 77090', '123 FM 1960 RD W STE 5', 'HOUSTON TX 77090'],
    ['4567 US Hwy 1 N, Vero Beach FL 32960', '4567 US HIGHWAY 1 N', 'VERO BEACH FL 32960'],
    // Texas' ranch-to-market roads as their signs write them: no room (RM) right after the house number.
    ['1000 RM 620 N, Austin, TX 78750', '1000 RM 620 N', 'AUSTIN TX 78750'],
    ['1000 Ranch to Market Road 2222, Austin, TX 78730', '1000 RM 2222', 'AUSTIN TX 78730'],
    ['1000 Main St Rm 12, Austin, TX 78701', '1000 MAIN ST RM 12', 'AUSTIN TX 78701'],
  ]);
});

describe('address parser: a lone letter after ROAD is a unit, unless the road is a lettered county road', () => {
  itReadsLines([
    ['1720 Quacco Road A, Pooler, GA 31322', '1720 QUACCO RD # A', 'POOLER GA 31322'],
    ['123 County Road A, Hudson WI 54016', '123 COUNTY ROAD A', 'HUDSON WI 54016'],
    ['123 Avenue B, New York NY 10009', '123 AVENUE B', 'NEW YORK NY 10009'],
  ]);
});

describe('address parser: numbered rural roads (township, range, side and concession roads)', () => {
  itReadsLines([
    ['53016 Range Road 225, Sherwood Park AB T8A 4V2', '53016 RANGE ROAD 225', 'SHERWOOD PARK AB T8A 4V2'],
    ['22560 Twp Rd 530, Sherwood Park AB T8E 1H8', '22560 TOWNSHIP ROAD 530', 'SHERWOOD PARK AB T8E 1H8'],
    ['12 Sideroad 10, Caledon ON L7K 0A1', '12 SIDEROAD 10', 'CALEDON ON L7K 0A1'],
    ['1234 Concession Rd 5, Uxbridge ON L9P 1R1', '1234 CONCESSION ROAD 5', 'UXBRIDGE ON L9P 1R1'],
    ['1234 Township Road 123, Millersburg OH 44654', '1234 TOWNSHIP ROAD 123', 'MILLERSBURG OH 44654'],
    ['123 Range Rd, Austin TX 78701', '123 RANGE RD', 'AUSTIN TX 78701'],
  ]);
});

describe('address parser: a state or province name that is the city of the postal code, a unit before a lone ZIP', () => {
  itReadsLines([
    ['2577 Rhode Island Avenue Northeast, Washington 20018', '2577 RHODE ISLAND AVE NE', 'WASHINGTON 20018'],
    ['350 5th Ave, New York 10118', '350 5TH AVE', 'NY 10118'],
    ['600 West 19th Avenue APT B 99503', '600 W 19TH AVE APT B', '99503'],
    ['14358 West 88th Place C 80005', '14358 W 88TH PL # C', '80005'],
    // A province's name ending the place of another province's postal code (T8L: FORT SASKATCHEWAN, Alberta).
    ['123 Main St Fort Saskatchewan T8L 1A1', '123 MAIN ST', 'FORT SASKATCHEWAN T8L 1A1'],
    // A directional written out before the state and no city: the state's place of that name (North, VA).
    ['100 main st north va', '100 MAIN ST', 'NORTH VA'],
    ['100 Main St North, VA 23128', '100 MAIN ST', 'NORTH VA 23128'],
  ]);
});

describe('address parser: a lettered unit before the street, across a comma', () => {
  itReadsLines([
    ['Unit N5, 2443 Sierra Nevada Road, Mammoth Lakes, CA 93546', '2443 SIERRA NEVADA RD UNIT N5', 'MAMMOTH LAKES CA 93546'],
    ['Unit E33, 1753 Zion Road, Fayetteville, AR 72703', '1753 ZION RD UNIT E33', 'FAYETTEVILLE AR 72703'],
    ['W148 N9748 Main St, Germantown WI 53022', 'W148N9748 MAIN ST', 'GERMANTOWN WI 53022'],
  ]);
});

describe('address parser: the country written before the postal code', () => {
  itReadsLines([
    ['100 Queen St W Toronto Ontario Canada M5H 2N2', '100 QUEEN ST W', 'TORONTO ON M5H 2N2'],
    ['1600 Amphitheatre Pkwy, Mountain View, CA, USA 94043', '1600 AMPHITHEATRE PKWY', 'MOUNTAIN VIEW CA 94043'],
  ]);
});

describe('address parser: NO and NUMBER before a unit number', () => {
  itReadsLines([
    ['123 Main St Apartment No. 5, Springfield IL 62701', '123 MAIN ST APT 5', 'SPRINGFIELD IL 62701'],
    ['123 Main St Apt Number 12, Springfield IL 62701', '123 MAIN ST APT 12', 'SPRINGFIELD IL 62701'],
    ['123 Main St No. 5, Springfield IL 62701', '123 MAIN ST # 5', 'SPRINGFIELD IL 62701'],
    ['123 No Name Rd, Springfield IL 62701', '123 NO NAME RD', 'SPRINGFIELD IL 62701'],
  ]);
});

describe('address parser: traditional province abbreviations', () => {
  itReadsLines([
    ['100 Main St, Okotoks, Alta. T1S 1A2', '100 MAIN ST', 'OKOTOKS AB T1S 1A2'],
    ['100 Main St, Brandon, Man. R7A 1A1', '100 MAIN ST', 'BRANDON MB R7A 1A1'],
    ['100 Main St, Kingston, Ont. K7L 1A1', '100 MAIN ST', 'KINGSTON ON K7L 1A1'],
  ]);
});

describe('address parser: a lettered street typed without its type before a unit', () => {
  it('When a letter after the number is followed by #, then it is the street (G Street), not the number\'s letter', () => {
    const p = parse('1413 G #STE 000001, Anchorage, AK 99501');
    expect([p.primaryNumber, p.name, p.suffix]).toEqual(['1413', 'G', null]);
  });
});

describe('address parser: a ZIP in its own field before an empty city field', () => {
  itReadsLines([['388 East Main Street, 05753, , VT', '388 E MAIN ST', 'VT 05753']]);
});

describe('address parser: a ZIP typed in two pieces after the state', () => {
  itReadsLines([
    ['6007 Applegate Lane, Louisville, KY 40 219', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    ['6007 Applegate Lane, Louisville, KY 402 19', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
  ]);
});

describe('address parser: a rear unit typed first', () => {
  itReadsLines([['#R 16, 2414 Parker Street, Berkeley, CA 94704', '2414 PARKER ST # R16', 'BERKELEY CA 94704']]);
});

describe('address parser: a delivery note run on from the street, without address points', () => {
  itReadsLines([
    ['123 Main St Leave At Back Door, Springfield, IL 62701', '123 MAIN ST', 'SPRINGFIELD IL 62701'],
    ['123 Main St Ring Bell Apt 4, Springfield, IL 62701', '123 MAIN ST APT 4', 'SPRINGFIELD IL 62701'],
    // Not a note: a unit letter after the words, a street type, two-letter words.
    ['815 Hutchinson Rvr Py Sr', '815 HUTCHINSON RVR PY SR', ''],
  ]);
  it('When a note follows a named street, then it is set aside as the building or note', () => {
    expect(parse('123 Main St Behind The Church, Springfield, IL 62701').building).toBe('BEHIND THE CHURCH');
  });
});

describe('address parser: a connector left dangling before the unit', () => {
  itReadsLines([
    ['523W 6th St. & 330, Los Angeles CA 90014', '523W 6TH ST # 330', 'LOS ANGELES CA 90014'],
    ['100 Smith and Wesson Rd, Springfield, MA 01104', '100 SMITH AND WESSON RD', 'SPRINGFIELD MA 01104'],
  ]);
});

describe('address parser: a city whose name opens with a unit word', () => {
  itReadsLines([
    ['100 Main St Key Largo FL 33037', '100 MAIN ST', 'KEY LARGO FL 33037'],
    ['100 Main St Upper Marlboro MD 20772', '100 MAIN ST', 'UPPER MARLBORO MD 20772'],
    ['100 Main St, Key Wset, FL 33040', '100 MAIN ST', 'KEY WSET FL 33040'],
    ['100 Main St Key 12, Key West, FL 33040', '100 MAIN ST KEY 12', 'KEY WEST FL 33040'],
  ]);
});

describe('address parser: fields separated by tabs (pasted from a spreadsheet) or slashes', () => {
  itReadsLines([
    ['123 Main St\tApt 4\tSpringfield\tIL\t62701', '123 MAIN ST APT 4', 'SPRINGFIELD IL 62701'],
    // Joined by slashes: between words, a word and a number, a ZIP code and a word.
    ['6007 Applegate Lane/Louisville/KY/40219/USA', '6007 APPLEGATE LN', 'LOUISVILLE KY 40219'],
    ['123 Main St/Apt 4, Springfield/IL 62701', '123 MAIN ST APT 4', 'SPRINGFIELD IL 62701'],
    ['1267 Martin Street #203/Nashville/TN/37203', '1267 MARTIN ST # 203', 'NASHVILLE TN 37203'],
    ['74 Springfield Street B/Agawam/MA/01001', '74 SPRINGFIELD ST # B', 'AGAWAM MA 01001'],
    ["49548 Road 200/O'Neals/CA/93645", '49548 ROAD 200', 'ONEALS CA 93645'],
    // A slash in a fraction or between initials is part of the word.
    ['C/O Jane Doe, 123 1/2 Main St, Springfield, IL 62701', '123 1/2 MAIN ST', 'SPRINGFIELD IL 62701'],
  ]);
  it('When fields are separated by tabs, then each starts a group as after a comma', () => {
    expect(parse('123 Main St\tSpringfield\tIL\t62701').city).toBe('SPRINGFIELD');
  });
});
