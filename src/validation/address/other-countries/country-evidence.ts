/**
 * What tells the country of a text that does not name it: its script (and the letters only one language of the script
 * has), street words and the forms of house number and postal code each post uses.
 */

/**
 * The languages whose names of every country are read from CLDR besides each country's own: a letter from abroad is
 * addressed in its sender's language (the UPU's rule: `Allemagne`, `Vereinigte Staaten`, `美国`), and these are the
 * languages of the largest senders and of the UPU (French).
 */
export const SENDER_LANGUAGES = [
  'fr', 'de', 'es', 'pt', 'it', 'nl', 'ru', 'uk', 'pl', 'cs', 'hu', 'ro', 'el', 'tr', 'sv', 'da', 'nb', 'fi',
  'zh', 'zh-Hant', 'ja', 'ko', 'ar', 'he', 'hi', 'th', 'vi', 'id',
];

/** Scripts an address may be written in, as Unicode properties and ISO 15924 codes (CLDR's likely subtags). */
export const SCRIPTS: readonly { name: string; letters: RegExp; iso: string }[] = [
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
export const SPANISH_WRITING_COUNTRIES = [
  'ES', 'MX', 'AR', 'CO', 'CL', 'PE', 'UY', 'VE', 'EC', 'GT', 'CR', 'SV', 'HN', 'NI', 'PA', 'DO', 'CU', 'BO', 'PY', 'AD',
] as const;
/** Spanish's `Vía` (`Gran Vía 1, 28013 Madrid`), told from Italian's VIA by its accent, which Italian never writes. */
export const SPANISH_VIA = /(?<!\p{L})v[íÍ]a(?!\p{L})/iu;
export const STREET_WORD_COUNTRIES: readonly (readonly [RegExp, readonly string[]])[] = [
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
export const CODE_THEN_CITY = /,\s*(\d{4} ?[A-Z]{2}(?= )|\d{3} \d{2}|\d{5}-\d{3}|\d{4,5}|[A-Z]{1,2}-\d{4,5}|[A-HJ-NP-Z]\d{4}(?:[A-Z]{3})?)\s+([^\d,]+)(?:,\s*([^\d,]+))?$/;

/** A Dutch postcode (its letters never SA, SD or SS) and a street line named before its house number (`DAMRAK 1`, `LANGE VOORHOUT 34A`). */
export const DUTCH_POSTCODE = /^\d{4} ?(?!SA|SD|SS)[A-Z]{2}$/;
export const STREET_THEN_NUMBER = /^([A-Z][A-Z'.-]*(?: [A-Z][A-Z'.-]*){0,3}) \d{1,4}(?:[ -]?[A-Z]{1,2})?$/;

/** A comma and then a figure (maybe after a country's letters: `L-1111`): what CODE_THEN_CITY needs, looked for first. */
export const COMMA_THEN_FIGURE = /,\s*[A-Za-z]{0,2}-?\d/;

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
export const JAPANESE_BLOCK_WORDS = /[\d一二三四五六七八九十]丁目|\d番地|\d番\d/;

/**
 * Letters of a country's Cyrillic alphabet that Russian's lacks (the alphabets of Ukrainian, Belarusian, Kazakh, Kyrgyz,
 * Serbian, Macedonian, Tajik and Mongolian), upper and lower case: a sign of that country among those that write
 * Cyrillic. Shared ones count for each (Belarusian and Ukrainian `і`).
 */
export const OWN_CYRILLIC_LETTERS: Readonly<Record<string, RegExp>> = {
  UA: /[іїєґІЇЄҐ]/, BY: /[іўІЎ]/, KZ: /[әғқңөұүһіӘҒҚҢӨҰҮҺІ]/, KG: /[ңөүҢӨҮ]/, RS: /[ђјљњћџЂЈЉЊЋЏ]/,
  MK: /[ѓѕјљњќџЃЅЈЉЊЌЏ]/, TJ: /[ғӣқӯҳҷҒӢҚӮҲҶ]/, MN: /[өүӨҮ]/,
};

/** Han characters are written in China, Taiwan, Hong Kong and Macao (simplified or traditional), and in Japan. */
export const HAN_WRITTEN_AS: ReadonlySet<string> = new Set(['Hans', 'Hant', 'Jpan']);

/** The country an address's script tells (see CountryMetadata.countryOfScript). */
export type ScriptCountry =
  | { code: string; script: string; by: ScriptEvidence[] }
  | { code: null; script: string; candidates: string[] };

/**
 * What told the country besides the script: a region (or its city) named, Japan's block words, letters of its own
 * Cyrillic alphabet, the postal code's form.
 */
export type ScriptEvidence = 'region' | 'block words' | 'letters' | 'postal code';
