/**
 * The postal vocabularies the parser reads, compiled once from the JSON tables in ./data (kept as data, not code):
 * USPS Publication 28 appendices B, C1 and C2, and the Canada Post Canadian Addressing Guide.
 */
import streetSuffixData from './data/street-suffixes.json' with { type: 'json' };
import unitDesignatorData from './data/unit-designators.json' with { type: 'json' };
import directionalData from './data/directionals.json' with { type: 'json' };
import usStateData from './data/us-states.json' with { type: 'json' };
import caProvinceData from './data/ca-provinces.json' with { type: 'json' };
import caStreetTypeData from './data/ca-street-types.json' with { type: 'json' };
import territoryZipData from './data/territory-zip-ranges.json' with { type: 'json' };

type VariantTable = Record<string, readonly string[] | string>;

/** variant -> standard abbreviation, from a `{ STANDARD: [variants] }` table (keys starting with `_` are notes). */
function invertVariants(table: VariantTable): Map<string, string> {
  const byVariant = new Map<string, string>();
  for (const [standard, variants] of Object.entries(table)) {
    if (standard.startsWith('_') || typeof variants === 'string') continue;
    byVariant.set(standard, standard);
    for (const v of variants) if (!byVariant.has(v)) byVariant.set(v, standard);
  }
  return byVariant;
}

/** Pub 28 C1: every common street-suffix spelling -> its standard abbreviation (AVENUE, AV, AVN -> AVE). */
export const StreetSuffixTable: ReadonlyMap<string, string> = invertVariants(streetSuffixData as VariantTable);

export interface UnitDesignator {
  abbreviation: string;
  /** Pub 28 section 213: designators such as BSMT, FRNT, LBBY, PH, REAR take no secondary number. */
  requiresNumber: boolean;
}

/** Pub 28 C2: secondary unit designator spellings -> standard designator. */
export const UnitDesignatorTable: ReadonlyMap<string, UnitDesignator> = (() => {
  const byVariant = new Map<string, UnitDesignator>();
  for (const [abbreviation, entry] of Object.entries(unitDesignatorData)) {
    if (abbreviation.startsWith('_') || typeof entry === 'string') continue;
    const designator = { abbreviation, requiresNumber: entry.requiresNumber };
    byVariant.set(abbreviation, designator);
    for (const v of entry.variants) byVariant.set(v, designator);
  }
  return byVariant;
})();

/** Pub 28 Appendix B directionals (NORTH, N -> N). */
export const DirectionalTable: ReadonlyMap<string, string> = invertVariants(directionalData.us);
/**
 * The word a town's name spells its opening directional with, by the way it may be typed (`N`, `NO`, `SO`, `SOUTH`):
 * Pub 28 Appendix B's spellings, and New England's NO (`No. Andover`), which the city keys read as N already.
 */
export const TownDirectionalWords: ReadonlyMap<string, string> = new Map([
  ...[...DirectionalTable].map(([typed, standard]): [string, string] => [typed, directionalData.us[standard as keyof typeof directionalData.us][0]]),
  ['NO', 'NORTH'],
]);
/** Canada Post French street directions (OUEST -> O, NORD-EST -> NE). */
export const FrenchDirectionalTable: ReadonlyMap<string, string> = invertVariants(directionalData.caFrench);

/** Two-letter code -> full name, for the 50 states, DC, territories, freely associated states and AA/AE/AP. */
export const UsStateNames: ReadonlyMap<string, string> = new Map(
  Object.entries(usStateData).filter(([k]) => !k.startsWith('_')),
);

/**
 * Whose ZIP code it is, by its USPS prefix range, for the ZIPs the shipped GeoNames list lacks: the territories (PR,
 * VI, GU, AS, MP, FM, PW, MH), where it has no places, and overseas military mail (AA, AE, AP), where it has some.
 * The engine can then say whose ZIP it is, but cannot check the city.
 */
export function stateOfUnlistedZip(zip5: string): string | undefined {
  for (const [from, to, state] of territoryZipData.ranges) if (zip5 >= from && zip5 <= to) return state;
  for (const [from, to, state] of territoryZipData.military) if (zip5 >= from && zip5 <= to) return state;
  return undefined;
}

/**
 * The territories and freely associated states that USPS serves as domestic mail: their ISO 3166 country codes are
 * their USPS state codes, and an address there is read as a US one.
 */
export const UspsTerritories: ReadonlySet<string> = new Set(territoryZipData.ranges.map(([, , state]) => state));

export interface Province {
  code: string;
  /** First letters of the postal codes of the province (Canada Post). */
  postalFirstLetters: string;
}

export const CanadianProvinces: ReadonlyMap<string, Province> = new Map(
  Object.entries(caProvinceData)
    .filter(([k]) => !k.startsWith('_'))
    .map(([code, p]) => [code, { code, postalFirstLetters: (p as { postalFirstLetters: string }).postalFirstLetters }]),
);

/**
 * The traditional state abbreviations (U.S. GPO Style Manual, used before the two-letter codes of 1963 and still
 * written: `CHICO CAL`, `BOSTON MASS`), those that are no common word.
 */
const TraditionalStateAbbreviations: ReadonlyMap<string, string> = new Map([
  ['ALA', 'AL'], ['ARIZ', 'AZ'], ['ARK', 'AR'], ['CAL', 'CA'], ['CALIF', 'CA'], ['COLO', 'CO'], ['CONN', 'CT'], ['FLA', 'FL'],
  ['ILL', 'IL'], ['KANS', 'KS'], ['MASS', 'MA'], ['MICH', 'MI'], ['MINN', 'MN'], ['MONT', 'MT'], ['NEBR', 'NE'], ['NEV', 'NV'],
  ['OKLA', 'OK'], ['OREG', 'OR'], ['PENN', 'PA'], ['PENNA', 'PA'], ['TENN', 'TN'], ['TEX', 'TX'], ['WISC', 'WI'], ['WYO', 'WY'],
  // Two words once the full stops are gone (`W. Va.`, `N. Mex.`, `S. Dak.`).
  ['W VA', 'WV'], ['N MEX', 'NM'], ['N DAK', 'ND'], ['S DAK', 'SD'],
]);

/**
 * Names the territories' and freely associated states' own people and their senders write beside Pub 28's (`St Thomas,
 * USVI 00802`, `U.S. Virgin Islands`, `Kolonia, Pohnpei, Micronesia 96941`, `Saipan, CNMI 96950`).
 */
const TerritoryNames: ReadonlyMap<string, string> = new Map([
  ['USVI', 'VI'], ['US VIRGIN ISLANDS', 'VI'], ['UNITED STATES VIRGIN ISLANDS', 'VI'], ['MICRONESIA', 'FM'], ['CNMI', 'MP'],
]);

/**
 * The traditional and AP abbreviations that are also words (`Seattle, Wash.`, `Gary, Ind.`, `Dover, Del.`): a state
 * only where the ZIP is of that state, or without a ZIP after a known city of it (the parser checks).
 */
export const StateAbbreviationsThatAreWords: ReadonlyMap<string, string> = new Map([
  ['WASH', 'WA'], ['IND', 'IN'], ['DEL', 'DE'], ['MISS', 'MS'], ['ORE', 'OR'], ['WIS', 'WI'], ['KAN', 'KS'], ['NEB', 'NE'],
]);

/** Every way of writing a state or province (code or name, English or French) -> its code and country. */
export const RegionByName: ReadonlyMap<string, { code: string; country: 'US' | 'CA' }> = (() => {
  const byName = new Map<string, { code: string; country: 'US' | 'CA' }>();
  for (const [code, name] of UsStateNames) {
    byName.set(code, { code, country: 'US' });
    byName.set(name, { code, country: 'US' });
  }
  for (const [abbreviation, code] of TraditionalStateAbbreviations) byName.set(abbreviation, { code, country: 'US' });
  for (const [name, code] of TerritoryNames) byName.set(name, { code, country: 'US' });
  for (const [code, p] of Object.entries(caProvinceData)) {
    if (code.startsWith('_') || typeof p === 'string') continue;
    // A US code wins over nothing here: no Canadian code collides with a US one except none (CA is California).
    if (!byName.has(code)) byName.set(code, { code, country: 'CA' });
    for (const n of p.names) byName.set(n.replace(/-/g, ' '), { code, country: 'CA' });
  }
  return byName;
})();

/** Longest state or province name in words (NORTHERN MARIANA ISLANDS, TERRITOIRES DU NORD OUEST). */
export const LONGEST_REGION_NAME_WORDS = Math.max(...[...RegionByName.keys()].map((n) => n.split(' ').length));

/** Canada Post French street types written before the name (RUE, BOUL, CH). */
export const CanadianStreetTypeBefore: ReadonlyMap<string, string> = invertVariants(caStreetTypeData.before);
/**
 * A street type written after the name in a Canadian address, as Canada Post writes it: its own abbreviation
 * (`COURT` -> CRT); a USPS spelling of a type it also lists, the same (`XING` -> CROSS, `MT` -> MOUNT); a type only USPS
 * lists, as typed: Canada Post abbreviates only the types of its list, and USPS's would be wrong there (`GRANDE ALLEE E`,
 * never USPS's ALY).
 */
export const CanadianStreetTypeAfter: ReadonlyMap<string, string> = (() => {
  const canadaPost = invertVariants(caStreetTypeData.after);
  const byUspsType = new Map<string, string>();
  for (const [word, type] of canadaPost) {
    const usps = StreetSuffixTable.get(word);
    if (usps && !byUspsType.has(usps)) byUspsType.set(usps, type);
  }
  // French types after a name (ALLEE) are no English type's equivalent: USPS's ALY is an alley.
  const types = new Map([...canadaPost, ...invertVariants(caStreetTypeData.after_french)]);
  for (const [word, usps] of StreetSuffixTable) if (!types.has(word)) types.set(word, byUspsType.get(usps) ?? word);
  return types;
})();

/** The fifty states' codes and names (not DC, the territories or military mail), for their routes. */
const FIFTY_STATES: readonly (readonly [string, string])[] = [...UsStateNames].filter(
  ([code]) => code !== 'DC' && !UspsTerritories.has(code) && code !== 'AA' && code !== 'AE' && code !== 'AP',
);

/**
 * Highway and route names (Pub 28 section 235 and Smarty practice): the words that introduce them -> the standard
 * spelling. The route number that follows becomes part of the street name (US HIGHWAY 278, COUNTY ROAD 5).
 */
export const HighwayPrefixTable: readonly (readonly [readonly string[], string])[] = [
  [['FARM', 'TO', 'MARKET', 'ROAD'], 'FM'],
  [['FARM', 'TO', 'MARKET'], 'FM'],
  [['UNITED', 'STATES', 'HIGHWAY'], 'US HIGHWAY'],
  [['UNITED', 'STATES', 'HWY'], 'US HIGHWAY'],
  [['U', 'S', 'HIGHWAY'], 'US HIGHWAY'],
  [['US', 'HIGHWAY'], 'US HIGHWAY'],
  [['US', 'HWY'], 'US HIGHWAY'],
  [['US', 'HWAY'], 'US HIGHWAY'],
  [['US', 'HY'], 'US HIGHWAY'],
  [['US', 'ROUTE'], 'US HIGHWAY'],
  [['US', 'RTE'], 'US HIGHWAY'],
  [['US', 'RT'], 'US HIGHWAY'],
  [['US'], 'US HIGHWAY'],
  [['STATE', 'ROUTE'], 'STATE ROUTE'],
  [['STATE', 'RTE'], 'STATE ROUTE'],
  [['STATE', 'RT'], 'STATE ROUTE'],
  [['SR'], 'STATE ROUTE'],
  [['STATE', 'HIGHWAY'], 'STATE HIGHWAY'],
  [['STATE', 'HWY'], 'STATE HIGHWAY'],
  [['SH'], 'STATE HIGHWAY'],
  [['STATE', 'ROAD'], 'STATE ROAD'],
  [['STATE', 'RD'], 'STATE ROAD'],
  [['COUNTY', 'ROAD'], 'COUNTY ROAD'],
  [['COUNTY', 'RD'], 'COUNTY ROAD'],
  [['CNTY', 'RD'], 'COUNTY ROAD'],
  [['CO', 'RD'], 'COUNTY ROAD'],
  [['CO', 'ROAD'], 'COUNTY ROAD'],
  [['CR'], 'COUNTY ROAD'],
  [['COUNTRY', 'ROAD'], 'COUNTY ROAD'],
  [['COUNTY', 'HIGHWAY'], 'COUNTY HIGHWAY'],
  [['COUNTY', 'HWY'], 'COUNTY HIGHWAY'],
  [['CO', 'HWY'], 'COUNTY HIGHWAY'],
  [['C', 'R'], 'COUNTY ROAD'],
  [['COUNTY', 'ROUTE'], 'COUNTY ROUTE'],
  [['INTERSTATE'], 'INTERSTATE'],
  [['INTERSTATE', 'HIGHWAY'], 'INTERSTATE'],
  [['I'], 'INTERSTATE'],
  [['IH'], 'INTERSTATE'],
  [['FM'], 'FM'],
  [['RANCH', 'ROAD'], 'RANCH ROAD'],
  // Texas' ranch-to-market roads, written as their signs do (`RM 2222`), as FM is: no room (`RM`) after a house number.
  [['RANCH', 'TO', 'MARKET', 'ROAD'], 'RM'],
  [['RANCH', 'TO', 'MARKET'], 'RM'],
  [['RM'], 'RM'],
  // Numbered rural roads: Ohio's and the Prairies' township roads, Alberta and Saskatchewan range roads, Ontario
  // sideroads and concession roads (`53016 RANGE ROAD 225`, `12 SIDEROAD 10`).
  [['TOWNSHIP', 'ROAD'], 'TOWNSHIP ROAD'],
  [['TOWNSHIP', 'RD'], 'TOWNSHIP ROAD'],
  [['TWP', 'RD'], 'TOWNSHIP ROAD'],
  [['RANGE', 'ROAD'], 'RANGE ROAD'],
  [['RANGE', 'RD'], 'RANGE ROAD'],
  [['RGE', 'RD'], 'RANGE ROAD'],
  [['SIDEROAD'], 'SIDEROAD'],
  [['SIDE', 'ROAD'], 'SIDEROAD'],
  [['SDRD'], 'SIDEROAD'],
  [['CONCESSION', 'ROAD'], 'CONCESSION ROAD'],
  [['CONCESSION', 'RD'], 'CONCESSION ROAD'],
  [['CONC', 'RD'], 'CONCESSION ROAD'],
  [['CONCESSION'], 'CONCESSION'],
  [['BUSINESS', 'LOOP'], 'BUSINESS LOOP'],
  [['BUSINESS'], 'BUSINESS'],
  [['LOOP'], 'LOOP'],
  [['SPUR'], 'SPUR'],
  [['HIGHWAY'], 'HIGHWAY'],
  [['HWY'], 'HIGHWAY'],
  [['HWAY'], 'HIGHWAY'],
  [['HIWAY'], 'HIGHWAY'],
  [['HY'], 'HIGHWAY'],
  [['HGHWY'], 'HIGHWAY'],
  [['ROUTE'], 'ROUTE'],
  [['RTE'], 'ROUTE'],
  [['RT'], 'ROUTE'],
  // Several routes on one road (`HWYS 51 AND 151`, `RTS 1 & 24 EAST`).
  [['HIGHWAYS'], 'HWYS'],
  [['HWYS'], 'HWYS'],
  [['ROUTES'], 'RTS'],
  [['RTES'], 'RTS'],
  [['RTS'], 'RTS'],
];

/** The one-word names of the fifty states, six letters or more, with their codes: a misspelt one may be mended. */
export const LongStateNames: ReadonlyMap<string, string> = new Map(
  FIFTY_STATES.filter(([, name]) => name.length >= 6 && !name.includes(' ')).map(([code, name]) => [name, code]),
);

/** The fifty states' codes and names (`VT`, `VERMONT`), which may own a route (`VT ROUTE 113`). */
export const FiftyStateWords: ReadonlySet<string> = new Set(FIFTY_STATES.flat());

/**
 * A state's own route as people write it (`VT ROUTE 113`, `AL HWY 157`, `INDIANA HIGHWAY 212`; `6460 VERMONT 113` as
 * OpenAddresses has it), by first word: the words and how the route is written, the state as typed before ROUTE or
 * HIGHWAY (the USPS files' own form, `AL HIGHWAY 157`, `IL ROUTE 2`), a state's name alone as its code and ROUTE.
 */
export const StateRoutesByFirstWord: ReadonlyMap<string, readonly (readonly [readonly string[], string])[]> = (() => {
  const routeWords: [string, string][] = [['ROUTE', 'ROUTE'], ['RTE', 'ROUTE'], ['RT', 'ROUTE'], ['HIGHWAY', 'HIGHWAY'], ['HWY', 'HIGHWAY']];
  const byFirst = new Map<string, (readonly [readonly string[], string])[]>();
  const add = (words: string[], standard: string) => byFirst.set(words[0], [...(byFirst.get(words[0]) ?? []), [words, standard]]);
  for (const [code, name] of FIFTY_STATES) {
    const words = name.split(' ');
    for (const [word, standard] of routeWords) {
      add([...words, word], `${name} ${standard}`);
      add([code, word], `${code} ${standard}`);
    }
    add(words, `${code} ROUTE`);
  }
  // The longest first (`VERMONT ROUTE 113` before `VERMONT` and a number).
  for (const list of byFirst.values()) list.sort((x, y) => y[0].length - x[0].length);
  return byFirst;
})();

/**
 * Mail-stop words companies put before a PO Box or street (not Pub 28 designators; USPS treats them as secondary
 * information): MSC 410833 PO BOX 415000.
 */
export const PrivateUnitWords: ReadonlyMap<string, string> = new Map([
  ['MSC', 'MSC'], ['LOCKBOX', 'LOCKBOX'], ['DRAWER', 'DRAWER'], ['FILE', 'FILE'], ['BIN', 'BIN'], ['MS', 'MS'], ['REF', 'REF'],
  ['PMB', 'PMB'], ['DEPARTMENT', 'DEPT'], ['MAILBOX', 'MAILBOX'], ['SCB', 'SCB'],
]);

/** Mail stops written in two words (`MAIL CODE 5021`, `MAIL STOP 24`): secondary information like MSC. */
export const TwoWordMailStops: ReadonlySet<string> = new Set(['MAIL CODE', 'MAIL STOP', 'CLIENT CODE']);

/** Words written after a route number that belong to the route (`HIGHWAY 71 BUSINESS`, `US 117 ALT`). */
export const RouteModifiers: ReadonlyMap<string, string> = new Map([
  ['BUSINESS', 'BUSINESS'], ['BUS', 'BUSINESS'], ['BSNSS', 'BUSINESS'], ['BYPASS', 'BYPASS'], ['BYP', 'BYPASS'], ['ALT', 'ALT'], ['ALTERNATE', 'ALT'],
  ['TRUCK', 'TRUCK'], ['SPUR', 'SPUR'],
]);

/** Words that name a building written after the street (`PEACHTREE RD NE TOWER PLACE`): not part of the street. */
export const BuildingWords: ReadonlySet<string> = new Set([
  'TOWER', 'TOWERS', 'BUILDING', 'HALL', 'CENTER', 'CENTRE', 'CTR', 'PLAZA', 'PLZ', 'COMMONS', 'OFFICE', 'OFFICES', 'MALL',
  'COMPLEX', 'PAVILION', 'ANNEX', 'FLATS', 'APARTMENTS', 'APTS', 'CONDOMINIUMS', 'CONDOS', 'LOFTS', 'RESIDENCES',
  'TOWNHOMES', 'TOWNHOUSES', 'HOMES', 'HOTEL', 'MOTEL', 'INN', 'HOSPITAL', 'CLINIC', 'LIBRARY', 'MUSEUM', 'STADIUM', 'ARENA',
  'THEATER', 'THEATRE', 'WAREHOUSE',
]);

/**
 * The last two words of an estate's or a centre's name (`ONA WEST INDUSTRIAL PARK`, `WESTGATE BUSINESS PARK`): a place
 * where buildings stand, written after the street, not more of the street's name though PARK and CENTER are street types.
 */
export const EstateNameEnds: ReadonlySet<string> = new Set([
  'INDUSTRIAL PARK', 'BUSINESS PARK', 'OFFICE PARK', 'CORPORATE PARK', 'TECHNOLOGY PARK', 'RESEARCH PARK', 'INDUSTRIAL ESTATE',
  'BUSINESS CENTER', 'SHOPPING CENTER', 'TRADE CENTER', 'INDUSTRIAL CENTER', 'SHOPPING PLAZA', 'OFFICE PLAZA',
]);

/** Words that announce a street corner rather than an address (`CORNER OF CAVE & ZERKEL STS`, `JCT 4 & 13`). */
export const IntersectionLeads: readonly (readonly string[])[] = [
  ['CORNER', 'OF'], ['COR', 'OF'], ['CORNER'], ['JUNCTION', 'OF'], ['JUNCTION'], ['JCT'], ['CROSSROADS'], ['CRSRDS'],
];

/** Words for floors written before FLOOR (SECOND FLOOR -> FL 2). */
export const OrdinalWords: ReadonlyMap<string, string> = new Map([
  ['FIRST', '1'], ['SECOND', '2'], ['THIRD', '3'], ['FOURTH', '4'], ['FIFTH', '5'], ['SIXTH', '6'], ['SEVENTH', '7'],
  ['EIGHTH', '8'], ['NINTH', '9'], ['TENTH', '10'], ['GROUND', '1'],
]);

/** Numbered street names written as words -> figures (FIRST -> 1ST … TWENTIETH -> 20TH). */
export const OrdinalStreetNames: ReadonlyMap<string, string> = ordinalStreetNames();

/**
 * Ordinal words up to the ninety-ninth (FIRST, TWENTIETH, FIFTY-SEVENTH) and their figures (1ST, 20TH, 57TH): numbered
 * streets are written in figures in the USPS ZIP+4 file (Pub 28 writes `W 57TH ST`).
 */
function ordinalStreetNames(): Map<string, string> {
  const figures = (n: number) =>
    `${n}${n % 10 === 1 && n % 100 !== 11 ? 'ST' : n % 10 === 2 && n % 100 !== 12 ? 'ND' : n % 10 === 3 && n % 100 !== 13 ? 'RD' : 'TH'}`;
  const ordinals = ['FIRST', 'SECOND', 'THIRD', 'FOURTH', 'FIFTH', 'SIXTH', 'SEVENTH', 'EIGHTH', 'NINTH', 'TENTH', 'ELEVENTH',
    'TWELFTH', 'THIRTEENTH', 'FOURTEENTH', 'FIFTEENTH', 'SIXTEENTH', 'SEVENTEENTH', 'EIGHTEENTH', 'NINETEENTH'];
  const tens = ['TWENTY', 'THIRTY', 'FORTY', 'FIFTY', 'SIXTY', 'SEVENTY', 'EIGHTY', 'NINETY'];
  const names = new Map<string, string>(ordinals.map((w, i) => [w, figures(i + 1)]));
  tens.forEach((ten, t) => {
    const n = 20 + 10 * t;
    names.set(`${ten.slice(0, -1)}IETH`, figures(n));
    for (let u = 1; u <= 9; u++) names.set(`${ten}-${ordinals[u - 1]}`, figures(n + u));
  });
  return names;
}

/** House numbers written as words, at the start of a delivery line. */
export const NumberWords: ReadonlyMap<string, string> = new Map([
  ['ONE', '1'], ['TWO', '2'], ['THREE', '3'], ['FOUR', '4'], ['FIVE', '5'], ['SIX', '6'], ['SEVEN', '7'], ['EIGHT', '8'],
  ['NINE', '9'], ['TEN', '10'], ['ELEVEN', '11'], ['TWELVE', '12'], ['TWENTY', '20'], ['FIFTY', '50'], ['HUNDRED', '100'],
]);

/** Cardinal numbers under twenty in words, for a unit's number written so (`APT FOUR`, `SUITE TWELVE`). */
export const CardinalUnderTwenty: ReadonlyMap<string, number> = new Map(
  ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN', 'ELEVEN', 'TWELVE', 'THIRTEEN', 'FOURTEEN',
    'FIFTEEN', 'SIXTEEN', 'SEVENTEEN', 'EIGHTEEN', 'NINETEEN'].map((w, i) => [w, i + 1]),
);

/** The tens in words (`TWENTY ONE`, `SUITE TWO HUNDRED FIFTY`). */
export const CardinalTens: ReadonlyMap<string, number> = new Map(
  ['TWENTY', 'THIRTY', 'FORTY', 'FIFTY', 'SIXTY', 'SEVENTY', 'EIGHTY', 'NINETY'].map((w, i) => [w, 20 + 10 * i]),
);

/** PO Box spellings (Pub 28 section 28): the token sequences that mean "PO BOX". */
export const PoBoxPrefixes: readonly (readonly string[])[] = [
  ['POST', 'OFFICE', 'BOX'], ['POST', 'OFFICE', 'DRAWER'], ['POST', 'OFFICE'], ['PO', 'BOX'], ['P', 'O', 'BOX'], ['POB'], ['POBOX'], ['PO', 'BX'],
  ['PO', 'DRAWER'], ['BOX'], ['BX'], ['PO'], ['CALLER', 'BOX'], ['LOCKBOX'], ['LOCK', 'BOX'], ['LBX'], ['LB'], ['DRAWER'],
];

/** Rural route and highway contract spellings (Pub 28 sections 24 and 25), military CMR and PSC boxes (section 27). */
export const RuralRoutePrefixes: readonly (readonly [readonly string[], 'RR' | 'HC' | 'CMR' | 'PSC' | 'UNIT'])[] = [
  [['RURAL', 'ROUTE'], 'RR'], [['RURAL', 'RTE'], 'RR'], [['RR'], 'RR'], [['R', 'R'], 'RR'], [['RFD'], 'RR'],
  [['RD', 'ROUTE'], 'RR'], [['HIGHWAY', 'CONTRACT', 'ROUTE'], 'HC'], [['HIGHWAY', 'CONTRACT'], 'HC'], [['HCR'], 'HC'],
  [['HWY', 'CONTRACT', 'ROUTE'], 'HC'], [['HWY', 'CONTRACT', 'RTE'], 'HC'], [['HWY', 'CONTRACT'], 'HC'],
  [['HIGHWAY', 'CONTRACT', 'RTE'], 'HC'], [['HC', 'ROUTE'], 'HC'], [['HC', 'RTE'], 'HC'], [['HC'], 'HC'], [['STAR', 'ROUTE'], 'HC'], [['STAR', 'RTE'], 'HC'],
  [['CMR'], 'CMR'], [['PSC'], 'PSC'],
  // Military `UNIT 2050 BOX 4190` (Pub 28 section 225; DMM 703.2): a unit followed by BOX, else an ordinary unit.
  [['UNIT'], 'UNIT'],
  // A route number followed by BOX is a rural route (`RT 1 BOX 81`); without BOX these words name a highway.
  [['ROUTE'], 'RR'], [['RTE'], 'RR'], [['RT'], 'RR'],
];

/** Rural-route (and military UNIT) words that only mean a route when BOX follows the route number. */
export const RURAL_ROUTE_ONLY_WITH_BOX: ReadonlySet<string> = new Set(['ROUTE', 'RTE', 'RT', 'UNIT']);

/** Words that start a ship's name, the delivery line of FPO mail (`USCGC HAMILTON`, `FPO AP 96667`). */
export const ShipPrefixes: ReadonlySet<string> = new Set(['USS', 'USNS', 'USCGC', 'USNV']);

/** The city of overseas military mail (Pub 28 section 225.1): Army, Fleet and Diplomatic Post Office. */
export const MilitaryPostOffices: ReadonlySet<string> = new Set(['APO', 'FPO', 'DPO']);
/** The states of military mail: Armed Forces Americas, Europe, Pacific. */
export const MilitaryStates: ReadonlySet<string> = new Set(['AA', 'AE', 'AP']);

/** Canada Post delivery installation types, English and French (station, retail postal outlet; succursale, comptoir). */
export const CanadianInstallationTypes: ReadonlyMap<string, string> = new Map([
  ['STN', 'STN'], ['STATION', 'STN'], ['RPO', 'RPO'], ['SUCC', 'SUCC'], ['SUCCURSALE', 'SUCC'], ['CSP', 'CSP'],
]);

/** Canada Post's French unit designators, in the English forms the tables know (`APP 4` is `APT 4`). */
export const CanadianFrenchUnitWords: ReadonlyMap<string, string> = new Map([
  ['APP', 'APT'], ['APPART', 'APT'], ['APPARTEMENT', 'APT'], ['BUREAU', 'STE'], ['UNITE', 'UNIT'],
]);

/**
 * Spanish words for a unit, as Puerto Rico and Spanish speakers in the states write them (`APTO 5`, `APARTAMENTO 5`,
 * `EDIFICIO B`, `PISO 2`), with the Pub 28 designator each stands for; only before a unit's number or letter.
 */
export const SpanishUnitWords: ReadonlyMap<string, string> = new Map([
  ['APARTAMENTO', 'APT'], ['APTO', 'APT'], ['DEPARTAMENTO', 'APT'], ['DEPTO', 'APT'], ['DPTO', 'APT'], ['UNIDAD', 'UNIT'],
  ['EDIFICIO', 'BLDG'], ['EDIF', 'BLDG'], ['OFICINA', 'OFC'], ['PISO', 'FL'],
]);

/** Spanish street words written before the name in Puerto Rico (`CALLE 1`, `AVENIDA 65 DE INFANTERIA`, `CARR 2`). */
export const SpanishStreetTypes: ReadonlySet<string> = new Set(['CALLE', 'AVENIDA', 'CAMINO', 'CARRETERA', 'CARR', 'PASEO', 'VEREDA', 'CALLEJON']);

/** Puerto Rico's urbanization (USPS addressing standards for Puerto Rico): `URB LAS GLADIOLAS`, above the delivery line. */
export const UrbanizationWords: ReadonlySet<string> = new Set(['URB', 'URBANIZACION']);

/** Trailing country names and codes accepted on US and Canadian input. */
export const NorthAmericanCountryNames: readonly (readonly [readonly string[], 'US' | 'CA'])[] = [
  [['UNITED', 'STATES', 'OF', 'AMERICA'], 'US'], [['UNITED', 'STATES'], 'US'], [['USA'], 'US'], [['US'], 'US'],
  [['U', 'S', 'A'], 'US'], [['CANADA'], 'CA'], [['CAN'], 'CA'],
];

/**
 * A table of word sequences indexed by its first word, so that a lookup tries only the sequences that can match,
 * longest first (`HIGHWAY CONTRACT RTE` before `HIGHWAY CONTRACT`).
 */
export function byFirstWord<T extends readonly [readonly string[], ...unknown[]]>(table: readonly T[]): ReadonlyMap<string, readonly T[]> {
  const index = new Map<string, T[]>();
  for (const entry of table) {
    const list = index.get(entry[0][0]);
    if (list) list.push(entry);
    else index.set(entry[0][0], [entry]);
  }
  for (const list of index.values()) list.sort((a, b) => b[0].length - a[0].length);
  return index;
}
