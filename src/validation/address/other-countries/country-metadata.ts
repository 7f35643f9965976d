/**
 * Every country's rules and names (CountryMetadata): the country named at either end of a text (in any language CLDR
 * writes, by ISO code, misspelt), or told by its script, street words, region and postal code.
 */
import countryCodes from 'i18n-iso-countries';
import { oneTypingSlipApart } from '../postal-index.js';
import { RegionByName, StreetSuffixTable, UnitDesignatorTable } from '../tables.js';
import { hasNonLatinLetters } from '../tokenize.js';
import {
  CODE_THEN_CITY, COMMA_THEN_FIGURE, DUTCH_POSTCODE, HAN_WRITTEN_AS, JAPANESE_BLOCK_WORDS, OWN_CYRILLIC_LETTERS, type ScriptCountry,
  type ScriptEvidence, SCRIPTS, SENDER_LANGUAGES, SPANISH_VIA, SPANISH_WRITING_COUNTRIES, STREET_THEN_NUMBER, STREET_WORD_COUNTRIES,
  type StreetWordCountry,
} from './country-evidence.js';
import {
  cityFirstIn, type CountryRules, form, FORM_OF_GOVERNMENT, type GoogleRegionData, indexLocalityNames, localityOf, shown, type Subdivision,
  SUBDIVISION_ALIASES, subdivisionEdgeIn, subdivisionName, type SubdivisionName, subdivisionPlaceIn,
} from './country-rules.js';
import {
  BRITISH_POSTCODE_AT_END, CITY_STATE_BEFORE_CODE, CITY_STATES, CROWN_DEPENDENCY_BY_POSTCODE, EIRCODE_AT_END, ENDS_WITH_ZIP_PLUS_4,
  findPostalCode, HYPHENATED_CODE_BEFORE_CITY, HYPHENATED_POSTAL_CODE_AT_END, HYPHENATED_POSTAL_CODES, postalCodeAsWritten,
} from './postal-codes.js';
import { namedSubdivisions, subdivisionOfLocality } from './subdivisions.js';
import { groupsOf, matchForm, plain, UNSPACED_SCRIPT } from './text-forms.js';

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

/** What fromGoogleData needs besides Google's metadata. */
export interface CountryNameOptions {
  /**
   * A US or Canadian place of that name (`Islandia`, NY; `Nederland`, CO; `Chili`, NY): such a country name from
   * CLDR is not taken, so that an address ending with its city stays where it is, nor read as a country misspelt
   * (`Columbia`). Names Google or COUNTRY_ALIASES give are kept whatever this says.
   */
  isNorthAmericanPlace?: (name: string) => boolean;
}

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
