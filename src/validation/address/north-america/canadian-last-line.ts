/**
 * The Canadian last line checked: the postal code's letter rules and its FSA's province, the city against the FSA's
 * place names (Canada Post addressing guide).
 */
import { AddressFootnotes as F } from '../footnotes.js';
import type { ParsedAddress } from '../parser/index.js';
import { cityKey, type PostalIndex } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { CanadianProvinces } from '../tables.js';
import type { LastLine } from './checked-last-line.js';
import { words } from './written-form.js';

/** Canada Post: D F I O Q U never appear; W and Z never start a postal code (A1A 1A1). */
const CANADIAN_POSTAL_CODE = /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d$/;

export function reconcileCanadianLastLine(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[]): LastLine {
  const out: LastLine = {
    city: p.city, state: p.state, zip: p.postalCode, corrected: false, invalid: false, candidateZips: [], localCandidatesOf: null,
    missing: F.lastLineMissing,
  };
  if (!p.postalCode) {
    // A city that the FSA names place in one province only gives its province (`… , TORONTO`).
    const provinces = !p.state && p.city ? postal.provincesNamingPlace(p.city) : undefined;
    if (provinces?.size === 1) notes.push(F.provinceAddedFromCity((out.state = [...provinces.keys()][0]), p.city!));
    notes.push(F.postalCodeMissing);
    out.invalid = true;
    return out;
  }
  if (!CANADIAN_POSTAL_CODE.test(p.postalCode)) {
    notes.push(F.postalCodeMalformed(p.postalCode));
    out.invalid = true;
    return out;
  }
  const fsa = postal.fsa(p.postalCode.slice(0, 3));
  if (!fsa) {
    notes.push(F.postalCodeUnknown(p.postalCode.slice(0, 3)));
    out.invalid = true;
    return out;
  }
  const firstLetterFits = (code: string) => CanadianProvinces.get(code)?.postalFirstLetters.includes(p.postalCode![0]) ?? false;
  if (!p.state) {
    notes.push(F.provinceAdded((out.state = fsa.province)));
  } else if (!firstLetterFits(p.state) || (fsa.province !== p.state && !firstLetterFits(fsa.province))) {
    // The postal code decides, unless the city sides with the province (`TORONTO, ON H3B 4W5`: H3B is Montreal's), and
    // then nothing does.
    const cityProvinces = p.city ? postal.provincesNamingPlace(p.city) : undefined;
    if (cityProvinces?.has(p.state) && !cityProvinces.has(fsa.province)) {
      notes.push(F.postalCodeOfOtherSubdivision(p.postalCode, fsa.province, p.state));
      out.invalid = true;
      return out;
    }
    notes.push(F.provinceCorrected(p.state, fsa.province));
    out.state = fsa.province;
    out.corrected = true;
  }
  // The FSA's name is a region, not a municipality: only address files that place the postal code (the NAR's Canada
  // Post municipality) can check the city, and add it when it is missing.
  const named = reference?.localCityNamesOf(p.postalCode) ?? [];
  if (!p.city) {
    if (named.length === 1) {
      notes.push(F.cityAddedFromReference((out.city = named[0])));
    } else {
      notes.push(F.lastLineMissing);
      out.invalid = true;
    }
  } else if (named.length && !reference!.acceptsCity(p.postalCode, p.city)) {
    if (named.length === 1) {
      notes.push(F.cityCorrected(p.city, (out.city = named[0])));
      out.corrected = true;
    } else {
      notes.push(F.zipCityStateDisagree);
      out.invalid = true;
    }
  } else {
    out.city = cityAsFsaNameWritesIt(fsa.place, fsa.province, p.city);
  }
  return out;
}

/**
 * Names people write for a municipality that Canada Post names otherwise (the FSA names say `QUEBEC CITY EAST`; the
 * city is QUÉBEC, written without the accent as the rest of the answer), by city key: [province, Canada Post's name].
 */
const CANADIAN_CITY_FORMS: ReadonlyMap<string, readonly [string, string]> = new Map(
  ['QUEBEC CITY', 'VILLE DE QUEBEC', 'CITY OF QUEBEC'].map((form) => [cityKey(form), ['QC', 'QUEBEC'] as const]),
);

/**
 * The city as the FSA's name writes the same name (`ST JOHNS` -> ST. JOHN'S of `ST. JOHN'S NORTH`, `ST JOHN` -> SAINT
 * JOHN of `SAINT JOHN CENTRAL`): Canada Post keeps the punctuation of a proper name. Accents are left out, as in the rest
 * of the answer; a name the FSA's does not start with (nor its bracketed part) stays as typed.
 */
function cityAsFsaNameWritesIt(fsaPlace: string, province: string, city: string): string {
  const key = cityKey(city);
  const municipality = CANADIAN_CITY_FORMS.get(key);
  if (municipality?.[0] === province) return municipality[1];
  for (const part of [fsaPlace, ...(fsaPlace.match(/\(([^)]*)\)/g) ?? []).map((b) => b.slice(1, -1))]) {
    const words = part.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase().split(' ');
    for (let k = 1; k <= words.length; k++) {
      const prefix = words.slice(0, k).join(' ');
      const prefixKey = cityKey(prefix);
      if (prefixKey === key) return prefix;
      if (prefixKey.length >= key.length) break;
    }
  }
  return city;
}
