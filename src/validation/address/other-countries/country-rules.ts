/**
 * One country's rules from Google's address metadata: postal-code pattern, required fields, the order of the last line,
 * subdivisions and localities with their names in each script.
 */
import { hasNonLatinLetters } from '../tokenize.js';
import { matchForm, UNSPACED_SCRIPT } from './text-forms.js';

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

export interface LocalityName {
  name: SubdivisionName;
  locality: Locality;
  sub: Subdivision;
}

export function indexLocalityNames(subdivisions: Subdivision[]): CountryRules['localityNames'] {
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
export interface SubdivisionName {
  text: string;
  words: string[];
  /** In a script written without spaces (東京都): looked for anywhere in a group. */
  unspaced: boolean;
  /** A code of two or three letters (NSW, RM): counts only where codes are written. */
  short: boolean;
}

export function subdivisionName(text: string): SubdivisionName {
  const unspaced = UNSPACED_SCRIPT.test(text);
  // Codes are Latin (NSW, RM, SP): a short name in another script is a name (Dubai's دبي).
  return { text, words: text.split(' '), unspaced, short: !unspaced && !hasNonLatinLetters(text) && text.replace(/[\s'-]/g, '').length <= 3 };
}

/** A few English names people write for subdivisions Google names only in their own language. */
export const SUBDIVISION_ALIASES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  RU: { 'Москва': ['MOSCOW'], 'Санкт-Петербург': ['SAINT PETERSBURG', 'ST PETERSBURG', 'ST. PETERSBURG'], 'Севастополь': ['SEVASTOPOL'] },
  AR: { 'Ciudad Autónoma de Buenos Aires': ['CABA', 'CAPITAL FEDERAL', 'BUENOS AIRES'] },
};

/** A Latin name's form of government, left off as people write it (BEIJING SHI, CAIRO GOVERNORATE, DKI JAKARTA). */
export const FORM_OF_GOVERNMENT = / (?:SHENG|SHI|ZIZHIQU|GOVERNORATE|PROVINCE|PREFECTURE|REGION|OBLAST'?|KRAY|RESPUBLIKA)$|^(?:DKI|DAERAH ISTIMEWA|DAERAH KHUSUS IBUKOTA) /;
/** The same for cities and districts (HEFEI SHI, LIXIN XIAN, GANGNEUNG-SI); not DISTRICT: NORTH, EAST alone are no names. */
const LOCALITY_FORM = /(?: (?:SHI|XIAN|QU)|-(?:SI|GUN|GU))$/;

export const form = (n: string) => matchForm(n).replace(/\s+/g, ' ').trim();
/** A name as answers and footnotes show it: the match form, composed again (NFC) where matching took it apart. */
export const shown = (n: string) => form(n).normalize('NFC');

/** The names a locality is written by (key, local and Latin names, and those without their form of government). */
export function localityOf(key: string, entry: GoogleRegionData | undefined): Locality {
  const written = [key, entry?.name, entry?.lname].filter((n): n is string => !!n).map(form);
  const bare = written.map((n) => n.replace(LOCALITY_FORM, '')).filter((n) => n.length >= 4);
  const names = [...new Set([...written, ...bare])].filter((n) => (UNSPACED_SCRIPT.test(n) ? n.length >= 2 : n.length >= 3));
  const native = (written.find((n) => hasNonLatinLetters(n)) ?? written[0]).normalize('NFC');
  return {
    names: names.map(subdivisionName), latin: written.find((n) => !hasNonLatinLetters(n)) ?? native, native,
    postalPrefix: entry?.zip ? new RegExp(`^(?:${entry.zip})`, 'i') : null,
  };
}

export function cityFirstIn(format: string | undefined): boolean {
  const c = format?.indexOf('%C') ?? -1;
  const a = format?.indexOf('%A') ?? -1;
  return c >= 0 && a >= 0 && c < a;
}

/** Where the format writes the subdivision when there is no postal code (see CountryRules.subdivisionEdge). */
export function subdivisionEdgeIn(format: string | undefined): 'start' | 'end' | null {
  const fields = format?.match(/%[A-Z]/g) ?? [];
  if (fields[0] === '%S') return 'start';
  return fields[fields.length - 1] === '%S' ? 'end' : null;
}

/** Where the format writes the subdivision relative to the postal code (see CountryRules.subdivisionPlace). */
export function subdivisionPlaceIn(format: string | undefined): 'before' | 'after' | null {
  if (!format) return null;
  const s = format.indexOf('%S');
  const z = format.indexOf('%Z');
  if (s < 0 || z < 0) return null;
  return s < z ? 'before' : 'after';
}
