/**
 * The address engine (docs/api.md#vocabularies): US and Canadian addresses parsed, standardized and checked against ZIP/FSA data
 * and the loaded delivery-point reference; every other country checked against Google's address metadata.
 * Pure: everything it knows is passed in (`createAddressEngine(deps)`); `loadShippedAddressData()` reads the data
 * shipped in ./data for callers that want the defaults.
 *
 * An answer is found in steps (validateSync): the input cleaned (input-cleaning.ts), its last line put in the order
 * the parser reads (last-line-order.ts), its country told (country-of-text.ts), then the answer of that country
 * (other-countries/) or of a US or Canadian address (parser/, north-america/), with a footnote for each thing set aside.
 */
import type { AddressEngine, AddressResult } from '../types.js';
import { canadianByCity, type CountryOfText, resolveCountry } from './country-of-text.js';
import type { AddressEngineDeps } from './engine-data.js';
import { AddressFootnotes as F } from './footnotes.js';
import {
  LETTER_OR_FIGURE, withoutContacts, withoutFieldLabels, withoutMarkup, withoutOtherScriptAtEdges, withoutPlaceholderFields,
} from './input-cleaning.js';
import { lastLineMovedToTheEnd, orderedLastLine, zipAfterCity } from './last-line-order.js';
import { withChanges } from './component-changes.js';
import { validateNorthAmerican } from './north-america/index.js';
import { type CountryMetadata, validateOtherCountry } from './other-countries/index.js';
import { type ParsedAddress, parseNorthAmericanAddress } from './parser/index.js';
import { MAX_INPUT_CHARS, notesInBrackets, wordsAsTyped } from './tokenize.js';

export type { AddressEngineDeps, ShippedAddressData } from './engine-data.js';
export { loadShippedAddressData, referenceFromRrad, rradRows, SHIPPED_DATA_DIR } from './engine-data.js';
export { PostalIndex } from './postal-index.js';
export { ReferenceIndex } from './reference-index.js';
export type { AddressPointRecord, StreetRangeRecord } from './reference-types.js';
export { CountryMetadata } from './other-countries/index.js';

export interface AddressEngineWithSync extends AddressEngine {
  /** The same answer as `validate`, synchronously (the work is CPU only). */
  validateSync(input: string, options: { country?: string; deadline: number }): AddressResult;
}

const EMPTY: AddressResult['components'] = {
  primary_number: null, street_predirection: null, street_name: null, street_suffix: null, street_postdirection: null,
  secondary_designator: null, secondary_number: null, city: null, state: null, postal_code: null, plus4: null, country: null,
};

function invalidAnswer(country: string | null, footnote: string): AddressResult {
  return {
    status: 'invalid', standardized: null, dpv: '', zip4: null, country, components: { ...EMPTY, country }, footnotes: [footnote],
    evidence: 'none', sources: [], location: null,
  };
}

export function createAddressEngine(deps: AddressEngineDeps): AddressEngineWithSync {
  const { postal, countries, reference } = deps;
  const data: AddressEngineDeps = { postal, countries, reference };
  // The first request must not wait for an index built on first use.
  postal.prepareLookups();
  return {
    countryOf(given: string, countryHint?: string): string | null {
      try {
        return countryOfInput(data, given, countryHint);
      } catch {
        return null;
      }
    },
    validateSync(input, options) {
      // Every answer says what changed, part by part (./component-changes.ts), from what the steps said.
      try {
        return withChanges(validateSync(data, input, options), input);
      } catch (err) {
        // Never an exception to the caller: an engine fault is an invalid answer that says so.
        return withChanges(invalidAnswer(options.country ?? null, `E#: the address could not be checked (${(err as Error).message})`), input);
      }
    },
    validate(input, options) {
      return this.validateSync(input, options);
    },
  };
}

/** The country an address is, for pricing it: told as validateSync tells it, without checking the address. */
function countryOfInput(deps: AddressEngineDeps, given: string, countryHint?: string): string | null {
  const input = orderedLastLine(deps, withoutFieldLabels(withoutMarkup(given ?? '').text).text, countryHint);
  const { code, script } = resolveCountry(deps, withoutContacts(input).text, countryHint);
  if (code || script) return code;
  const { parsed } = readNorthAmerican(deps, input);
  // A country misspelt at the end of text with no state (`…, 10117 BERLIN, GERMNAY`) prices it as that country's.
  const misspelt = !parsed.state && !parsed.country ? deps.countries.misspeltTrailingCountry(input) : null;
  if (misspelt) return misspelt.code;
  return parsed.country ?? canadianByCity(deps, parsed) ?? (parsed.kind !== 'none' ? 'US' : null);
}

/** The answer: the input cleaned (markup, field labels, placeholders), answered, and what was cleaned said. */
function validateSync(deps: AddressEngineDeps, given: string, options: { country?: string; deadline: number }): AddressResult {
  if (typeof given !== 'string' || given.trim() === '') return invalidAnswer(options.country ?? null, F.empty);
  // A form's or a CRM's placeholder for an empty field (`…, N/A, KY 40219`) is the empty field; punctuation alone is
  // nothing.
  const { text: plain, markup } = withoutMarkup(given);
  const { text: unlabelled, labels } = withoutFieldLabels(plain);
  const { text: input, placeholders } = withoutPlaceholderFields(unlabelled);
  if (!LETTER_OR_FIGURE.test(input)) return invalidAnswer(options.country ?? null, placeholders ? F.empty : F.noLettersOrFigures);
  const answer = validateCleanSync(deps, input, options);
  if (placeholders) answer.footnotes.unshift(F.placeholderDropped(placeholders));
  if (labels) answer.footnotes.unshift(F.fieldLabelsDropped(labels));
  if (markup) answer.footnotes.unshift(F.markupRead);
  return answer;
}

/** A cleaned text's answer: its last line put in order, its country told, then that country's answer. */
function validateCleanSync(deps: AddressEngineDeps, given: string, options: { country?: string; deadline: number }): AddressResult {
  const input = orderedLastLine(deps, given, options.country);
  // The parser tells US from Canada itself; only another country changes the path.
  const country = resolveCountry(deps, input, options.country, false);
  const { code, script } = country;
  if (script && script.code === null) return invalidAnswer(null, F.countryOfScriptUnknown(script.script, script.candidates));
  if (code && code !== 'US' && code !== 'CA') return answerAbroad(deps, input, { ...country, code });
  return answerNorthAmerican(deps, input, country);
}

/** Another country's answer (Google's metadata), saying how the country was told where the hint did not name it. */
function answerAbroad(deps: AddressEngineDeps, input: string, { code, rest, script, streetWord, hintOverruled }: CountryOfText & { code: string }): AddressResult {
  const rules = deps.countries.get(code);
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

/**
 * A US or Canadian address's answer (without a country one is assumed: most input is, and the parser tells which),
 * or, where it is none, that of a country misspelt at its end; each thing set aside said in a footnote.
 */
function answerNorthAmerican(deps: AddressEngineDeps, input: string, { code, rest, state, streetWord }: CountryOfText): AddressResult {
  const { postal, countries, reference } = deps;
  // Words in another script before or after the address are no part of it (a recipient's name, the country in the
  // sender's language). (`rest`: without a territory named as the country, or the US or Canada named in the sender's
  // language.)
  const text = state || code === 'US' || code === 'CA' ? rest : input;
  const edges = withoutOtherScriptAtEdges(text);
  const { parsed, contact, lastLineFirst, bracketNotes } = readNorthAmerican(deps, edges?.text ?? text, (code as 'US' | 'CA' | null) ?? undefined, state);
  if (!code && !parsed.country && !parsed.state && !parsed.postalCode && parsed.kind === 'none') return noAddressAnswer(input, parsed);
  parsed.country ??= canadianByCity(deps, parsed) ?? 'US';
  const overruled = code && (code === 'US' || code === 'CA') && !state && parsed.country !== code;
  // `country: "PR"` with `123 CALLE LUNA, SAN JUAN 00901`: the territory is the state.
  if (state && !parsed.state && parsed.country === 'US') parsed.state = state;
  const answer = validateNorthAmerican(parsed, postal, reference, input.length > MAX_INPUT_CHARS);
  if (answer.country === 'CA') writeAsTyped(answer, wordsAsTyped(edges?.text ?? text));
  const notHere = !code && answer.status === 'invalid' && !parsed.state;
  const foreign = notHere ? misspeltCountryAnswer(countries, input) : null;
  if (foreign) return foreign;
  setAsideSaid(answer, bracketNotes, contact, edges, countries);
  if (notHere) notNorthAmericanSaid(answer, input, streetWord);
  if (lastLineFirst) answer.footnotes.unshift(F.lastLineFirst);
  if (overruled) answer.footnotes.unshift(F.countryHintOverruled(code, parsed.country));
  return answer;
}

/**
 * The parse of a US or Canadian address, read as people write it: a telephone number or e-mail address after the
 * postal code (a CRM's contact columns run together) set aside as `contact`, and a last line written first (`LOUISVILLE,
 * KY 40219, 6007 APPLEGATE LN`: columns exported in another order) read last when the address then reads whole.
 */
function readNorthAmerican(
  deps: AddressEngineDeps, given: string, countryHint?: 'US' | 'CA', territory?: string,
): { parsed: ParsedAddress; contact: string | null; lastLineFirst: boolean; bracketNotes: readonly string[] } {
  const { postal, reference } = deps;
  const parseOptions = { countryHint, places: reference, territory };
  const { text: typed, contact } = withoutContacts(given);
  const text = zipAfterCity(deps, typed);
  const parsed = parseNorthAmericanAddress(text, postal, parseOptions);
  const reordered = !parsed.postalCode && !parsed.state && parsed.recipient ? lastLineMovedToTheEnd(text) : null;
  const again = reordered ? parseNorthAmericanAddress(reordered, postal, parseOptions) : null;
  const readsWhole = again !== null && again.postalCode !== null && again.primaryNumber !== null && !again.recipient;
  // (The tokenizer drops notes in brackets, `(BACK ENTRANCE)`: said in a footnote.)
  const bracketNotes = text.includes('(') ? notesInBrackets(text) : NO_NOTES;
  return readsWhole ? { parsed: again, contact, lastLineFirst: true, bracketNotes } : { parsed, contact, lastLineFirst: false, bracketNotes };
}

const NO_NOTES: readonly string[] = [];

/** Text that reads as no address of any country, and why. */
function noAddressAnswer(input: string, parsed: ParsedAddress): AddressResult {
  if (/\bBOX\b/i.test(input) && !/\d/.test(input)) return invalidAnswer(null, F.poBoxNumberMissing);
  return invalidAnswer(null, parsed.nonLatin ? F.nonLatin : parsed.recipient ? F.noDeliveryLine : F.unknownCountry);
}

/**
 * No US or Canadian address, and the text ends with a country's name misspelt (`…, 10117 BERLIN, GERMNAY`): that
 * country's answer, where its rules find it plausible; else null.
 */
function misspeltCountryAnswer(countries: CountryMetadata, input: string): AddressResult | null {
  const misspelt = countries.misspeltTrailingCountry(input);
  const misspeltRules = misspelt && countries.get(misspelt.code);
  if (!misspelt || !misspeltRules) return null;
  const foreign = validateOtherCountry(input, misspeltRules, misspelt.rest.slice(0, MAX_INPUT_CHARS));
  if (foreign.status !== 'plausible') return null;
  foreign.footnotes.unshift(F.countryMisspelt(misspelt.typed, misspeltRules.name));
  return foreign;
}

/** What was set aside before the address was read, said: notes in brackets, contacts, words of another script. */
function setAsideSaid(
  answer: AddressResult, bracketNotes: readonly string[], contact: string | null, edges: ReturnType<typeof withoutOtherScriptAtEdges>,
  countries: CountryMetadata,
): void {
  if (bracketNotes.length) answer.footnotes.unshift(...bracketNotes.map(F.bracketNoteDropped));
  if (contact) answer.footnotes.unshift(F.extraDropped(contact));
  const namesOwnCountry = edges?.after ? ['US', 'CA'].includes(countries.trailingCountry(edges.after)?.code ?? '') : false;
  if (edges?.after && !namesOwnCountry) answer.footnotes.unshift(F.extraDropped(edges.after));
  if (edges?.before) answer.footnotes.unshift(F.recipientDropped(edges.before));
}

/** The same, and three figures and two with a space between (`…, 118 00 Praha 1`), a city district's number after it. */
const CODE_BEFORE_CITY_ABROAD = /,\s*(?:\d{4,5}|\d{3} \d{2})\s+[^\d,]{2,}(?:\s+\d{1,2})?$/;
/**
 * Six to eight figures ending the text: a postal code of India, China, Russia, Singapore, Chile, Brazil written
 * without its hyphen, …, never a US ZIP code (nine are a ZIP+4 without its hyphen).
 */
const LONG_POSTAL_CODE_AT_END = /(?:^|[\s,])(\d{6,8})[\s.]*$/;

/** An invalid answer of text without a country or state, said where its form tells it is from abroad. */
function notNorthAmericanSaid(answer: AddressResult, input: string, streetWord: CountryOfText['streetWord']): void {
  // `UNTER DEN LINDEN 77, 10117 BERLIN`, read as a US address, fails: the order says where it is from.
  if (streetWord) {
    answer.footnotes.unshift(F.streetWordCountries(streetWord.word, streetWord.candidates));
  } else if (CODE_BEFORE_CITY_ABROAD.test(input.trim())) {
    answer.footnotes.unshift(F.postalCodeBeforeCity);
  } else {
    // `…, Mumbai 400002`: six figures or more end it, a postal code no US or Canadian one can be.
    const longCode = LONG_POSTAL_CODE_AT_END.exec(input);
    if (longCode) answer.footnotes.unshift(F.postalCodeNotNorthAmerican(longCode[1]));
  }
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
