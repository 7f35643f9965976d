/**
 * Which country an address is: the hint, else the text (a country named, a last line, a script, a street word and a
 * postal code before the city, a region); a state or province that is also a country's name or code read as the
 * state where the text reads as an address there; a Canadian city without a province or postal code.
 */
import type { AddressEngineDeps } from './engine-data.js';
import { zipOfOwnCity } from './last-line-order.js';
import { localZipsOfCity, zipOfState } from './north-america/index.js';
import type { ScriptCountry, StreetWordCountry } from './other-countries/index.js';
import { matchForm } from './other-countries/text-forms.js';
import { type ParsedAddress, parseNorthAmericanAddress } from './parser/index.js';
import { cityKey } from './postal-index.js';
import { NorthAmericanCountryNames, RegionByName, UspsTerritories } from './tables.js';
import { hasNonLatinLetters } from './tokenize.js';

/** The country told, and how: the text without the country's name (`rest`), a US territory as the state. */
export interface CountryOfText {
  code: string | null;
  rest: string;
  state?: string;
  script?: ScriptCountry;
  streetWord?: StreetWordCountry;
  hintOverruled?: string;
}

/** Territories with a post and postal codes of their own, filed under another country by careless country fields. */
const OWN_POST_TERRITORIES: ReadonlySet<string> = new Set(['HK', 'MO', 'TW']);

const US_LIKE = /\b\d{5}(?:-\d{4})?\s*$|\b[A-Z]{2}\s+\d{5}\b/;
const CANADIAN_POSTAL = /\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\s*$/;

/** A house number, words without a comma, then a comma and a two-letter code alone (`6452 EL CAMINO REAL, CA`). */
const STREET_THEN_CODE = /^\s*\d[^,\n]*,\s*[A-Za-z]{2}\s*$/;

/**
 * The country named by the hint or at the end of the text; `guess` also looks at US/Canadian postal codes. A US
 * territory (PR, GU, VI, AS, MP, and the freely associated FM, MH, PW) is domestic USPS mail: it reads as US, with
 * the territory as its `state`.
 */
export function resolveCountry(deps: AddressEngineDeps, input: string, hint?: string, guess = true): CountryOfText {
  const found = resolveNamedCountry(deps, input, hint, guess);
  // A country named like a US state or Canadian province (`…, LOUISVILLE, KY`: the Cayman Islands' code; `…, CA`,
  // `…, DE`, `…, ATLANTA, GEORGIA`): the state when the text reads as an address there.
  if (!hint && found.code && found.code !== 'US' && !found.byLastLine && !found.script) {
    // (A state named by the country's last word alone is none: `…, ISLE OF MAN` is no Manitoba, `MAN.`.)
    const northAmerica = northAmericanReading(deps, input, found.words);
    if (northAmerica) return { code: guess ? northAmerica : null, rest: input };
  }
  return found.code && UspsTerritories.has(found.code) ? { code: 'US', rest: found.rest, state: found.code } : found;
}

/**
 * The country the hint names, else the text: named at its end (or at its start, in another script than Latin), told
 * by its last line, by its script (`script`: how, or which countries it leaves), or by a European street word and
 * the postal code before the city (`streetWord`: which word, or which countries it leaves).
 */
function resolveNamedCountry(
  deps: AddressEngineDeps, input: string, hint?: string, guess = true,
): {
  code: string | null; rest: string; byLastLine?: boolean; script?: ScriptCountry; streetWord?: StreetWordCountry; words?: number; hintOverruled?: string;
} {
  const { countries } = deps;
  const h = hint?.trim().toUpperCase();
  if (h && /^[A-Z]{2}$/.test(h)) {
    const code = h === 'UK' ? 'GB' : h;
    const named = countries.trailingCountry(input) ?? countries.leadingCountry(input);
    // The text names a territory with a post of its own that a CRM's country field often files under another
    // country (`…, HONG KONG`, `…, MACAU`, `…, TAIWAN` with `CN`): the address is the written one's. (Only those: a
    // country's name in a place's is common, `SALVADOR` and `CABO VERDE` are Brazilian towns, `LEBANON` an American
    // one; nor where the text reads as a US or Canadian address.)
    const overruled = named && named.code !== code && OWN_POST_TERRITORIES.has(named.code) && countries.get(named.code) &&
      !((code === 'US' || code === 'CA') && northAmericanReading(deps, input, named.words)) && !localityOfHint(deps, code, input, named);
    if (overruled) return { code: named.code, rest: named.rest, words: named.words, hintOverruled: code };
    return { code, rest: named && named.code === code && code !== 'US' && code !== 'CA' ? named.rest : input };
  }
  // (Names first and scripts are looked for only in text with letters beyond ASCII.)
  const otherScript = hasNonLatinLetters(input);
  const named = countries.trailingCountry(input) ?? (otherScript ? countries.leadingCountry(input) : null);
  // (The US and Canada as the parser knows them, `USA`, `CANADA`, are left for it to read; named otherwise, in the
  // sender's language, `KANADA`, `ESTADOS UNIDOS`, the name is taken off.)
  if (named) return { code: named.code, rest: (named.code === 'US' || named.code === 'CA') && parserNamesCountry(input) ? input : named.rest, words: named.words };
  const byLastLine = countries.countryOfLastLine(input);
  if (byLastLine) return { code: byLastLine, rest: input, byLastLine: true };
  // Written mostly in another script than Latin, naming no country: the script may tell it, and no US or Canadian
  // reading is tried (`서울특별시 종로구 세종대로 175, 03172` is no US address with ZIP code 03172). Words of another
  // script in a Latin text tell it too where they name a region of a country that writes that script.
  const script = otherScript ? countries.countryOfScript(input, true) : null;
  if (script) return { code: script.code, rest: input, script };
  // A street word of a European language and a postal code before the city that is no US ZIP code of it.
  // Where several countries fit, the answer names them if the address reads as no US one either.
  // (Not where the "city" or the group after it is a state: `…, 40219 KY` is a US ZIP code and state in another
  // order, `100 Via Roma, 12345 Springfield, IL` a US address with its ZIP before the city.)
  const european = countries.countryOfStreetWord(input);
  const usState = (words: string | null) => words !== null && RegionByName.has(words.toUpperCase());
  if (european && !usState(european.city) && !usState(european.after) && !zipOfOwnCity(deps, european.postalCode, european.city)) {
    if (european.code) return { code: european.code, rest: input, byLastLine: true, streetWord: european };
    if (!guess) return { code: null, rest: input, streetWord: european };
  }
  // A region of one country outside North America and a postal code of its form and prefix (`…, Haryana 122015`).
  const byRegion = countries.countryOfRegionAndPostalCode(input, (zip, city) => zipOfOwnCity(deps, zip, city));
  if (byRegion) return { code: byRegion, rest: input, byLastLine: true };
  // A region of one country without postal codes that is no North American place (`P.O. Box 1234, Dubai`).
  const byRegionAlone = countries.countryOfRegionWithoutPostalCodes(input, (place) => northAmericanPlace(deps, place));
  if (byRegionAlone) return { code: byRegionAlone, rest: input, byLastLine: true };
  if (!guess) return { code: null, rest: input };
  const upper = input.toUpperCase().trim();
  if (CANADIAN_POSTAL.test(upper)) return { code: 'CA', rest: input };
  if (US_LIKE.test(upper)) return { code: 'US', rest: input };
  return { code: null, rest: input };
}

/**
 * Whether the territory's name written (`MACAU`) is also a locality of the hinted country (Macau, Rio Grande do Norte,
 * with `BR`), outside a subdivision the hinted country names after the territory itself (China's 澳门).
 */
function localityOfHint(deps: AddressEngineDeps, hint: string, input: string, named: { code: string; rest: string }): boolean {
  const { countries } = deps;
  const rules = countries.get(hint);
  const written = input.toUpperCase().startsWith(named.rest.toUpperCase()) ? input.slice(named.rest.length) : input.slice(0, input.length - named.rest.length);
  const key = matchForm(written).replace(/^[\s,.;-]+|[\s,.;-]+$/g, '');
  if (!rules || !key) return false;
  for (const { name, sub } of rules.localityNames.byFirstWord.get(key.split(' ')[0]) ?? []) {
    if (name.text === key && !sub.names.some((n) => countries.trailingCountry(n.text)?.code === named.code)) return true;
  }
  return false;
}

/**
 * 'US' or 'CA' when the text ends with a state or province and reads as an address there: a known city of it before
 * it (in the embedded data or the loaded address files), or a house number and a street with a street type, a highway,
 * or a street the address files know in that state, or one slip from one (`123 MAIN ST, SASKATOON, SK`; `1326 U.S. 80
 * #403, Garden City, GA`; `570 BROADWAY, MA`); else null.
 */
function northAmericanReading(deps: AddressEngineDeps, input: string, countryNameWords = 1): 'US' | 'CA' | null {
  const { postal, reference } = deps;
  const words = input.toUpperCase().replace(/[^A-Z\s]/g, ' ').trim().split(/\s+/);
  let region: { code: string; country: 'US' | 'CA' } | undefined;
  for (let k = Math.min(3, words.length); k >= Math.max(1, countryNameWords) && !region; k--) region = RegionByName.get(words.slice(-k).join(' '));
  if (!region) return null;
  const parsed = parseNorthAmericanAddress(input, postal, { places: reference });
  if (parsed.state !== region.code) return null;
  const knownCity = parsed.city !== null && (region.country === 'CA' || postal.city(region.code, parsed.city) !== undefined
    || localZipsOfCity(reference, postal, region.code, cityKey(parsed.city)).length > 0);
  // A street of that state in the loaded address files counts as a street type does (`570 BROADWAY, MA`, not Morocco),
  // misspelt too (`257 BRODAWAY, MA`).
  const knownStreet = (name: string | null) =>
    name !== null && reference !== undefined &&
    [...(reference.zipsWithStreetName(name) ?? reference.zipsWithStreetNear({ ...parsed, name }))].some((zip) => zipOfState(postal, zip, region.code));
  const street = parsed.primaryNumber !== null
    && ((parsed.kind === 'street' && (parsed.suffix !== null || knownStreet(parsed.name))) || parsed.kind === 'highway');
  // A house number opening the text, one comma group, then the code alone: the state too (`6452 EL CAMNIO REAL, CA`,
  // misspelt: Canada, or `9030 PENINNGTON PIACE, AL` Albania, would lack a city and postal code all the more).
  const streetAndCodeAlone = parsed.primaryNumber !== null && STREET_THEN_CODE.test(input);
  return (knownCity && region.country === 'US') || street || streetAndCodeAlone ? region.country : null;
}

/** True when the text ends with the US or Canada named as the parser reads it (`USA`, `U.S.A.`, `CANADA`, `Canadá`). */
function parserNamesCountry(input: string): boolean {
  const words = input.normalize('NFKD').toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim().split(' ');
  return NorthAmericanCountryNames.some(([names]) => names.length <= words.length && names.every((w, i) => words[words.length - names.length + i] === w));
}

/** A place of the US or Canada by its name: in GeoNames' US places or Canadian FSA names, or in the loaded data. */
function northAmericanPlace(deps: AddressEngineDeps, name: string): boolean {
  const { postal, reference } = deps;
  const key = cityKey(name);
  return postal.citiesByKey(key).length > 0 || postal.provincesNamingPlace(name).size > 0
    || (reference?.postalCodesOfLocalCity(key).size ?? 0) > 0;
}

/** FSAs whose names name a city that make it a big one (Toronto's 41, Montreal's 10; Halifax's 9 do not). */
const BIG_CANADIAN_CITY_FSAS = 10;

/**
 * 'CA' for an address with neither state nor postal code whose city is Canadian: the names of two or more FSAs of one
 * province name it (a word of FSA names in several provinces, such as DOWNTOWN, is no city), and either no US place of
 * that name is in GeoNames or the address files (`100 QUEEN ST W, MISSISSAUGA`), or the Canadian city is a big one
 * with four times the FSAs that the US places of its name have ZIP codes (`100 QUEEN ST W, TORONTO`: 41 FSAs in
 * Ontario, 3 ZIP codes in Kansas, Ohio and South Dakota; not LONDON, whose US places have 30 ZIP codes against
 * Ontario's 17 FSAs); else undefined (US is assumed).
 */
export function canadianByCity(deps: AddressEngineDeps, parsed: ParsedAddress): 'CA' | undefined {
  const { postal, reference } = deps;
  if (parsed.state || parsed.postalCode || !parsed.city) return undefined;
  const provinces = [...postal.provincesNamingPlace(parsed.city).values()].sort((a, b) => b - a);
  const [fsas = 0, nextProvince = 0] = provinces;
  if (fsas < 2) return undefined;
  const key = cityKey(parsed.city);
  let usZips = [...(reference?.postalCodesOfLocalCity(key) ?? [])].filter((code) => /^\d/.test(code)).length;
  for (const city of postal.citiesByKey(key)) usZips += city.zips.length;
  if (usZips === 0) return provinces.length === 1 ? 'CA' : undefined;
  return fsas >= BIG_CANADIAN_CITY_FSAS && fsas >= 4 * (usZips + nextProvince) ? 'CA' : undefined;
}
