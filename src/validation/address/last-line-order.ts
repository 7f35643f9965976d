/**
 * A last line written in another order than the parser reads, put in its order: a ZIP before its own city, a postal
 * code before its state's field (a spreadsheet's columns), a whole last line opening the text. Only where the ZIP is
 * one of that city or state: other text is given back as it came.
 */
import type { AddressEngineDeps } from './engine-data.js';
import { zipOfState } from './north-america/index.js';
import { cityKey, type ZipPlace } from './postal-index.js';
import { LONGEST_REGION_NAME_WORDS, RegionByName, stateOfUnlistedZip, UsStateNames, UspsTerritories } from './tables.js';
import { MAX_INPUT_CHARS } from './tokenize.js';

/** The text with a postal code before its state's field put after it (postalCodeBeforeRegion), unless another country is given. */
export function orderedLastLine(deps: AddressEngineDeps, text: string, countryHint: string | undefined): string {
  return !countryHint || /^(US|CA)$/i.test(countryHint) ? postalCodeBeforeRegion(deps, text) : text;
}

/**
 * `…, LOUISVILLE, 40219, KY` -> `…, LOUISVILLE, KY 40219`: a spreadsheet's columns in the order address, city, ZIP,
 * state joined by commas; also `…, 40219 LOUISVILLE, KY` and `…, LOUISVILLE 40219, KY` (the ZIP beside the city,
 * before the state's column). Only a ZIP of that state (a Canadian postal code of that province), and where a
 * city stands beside it, one of its places; a ZIP alone, after a field that is one of its places where the state is
 * written as a code (MA, MD, AL are countries' codes too: `…, LYNNFIELD, 01940, MA` is no Moroccan address). Other
 * text as given.
 */
function postalCodeBeforeRegion(deps: AddressEngineDeps, text: string): string {
  const { postal } = deps;
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
    if (!zipForm || !zipOfState(postal, zip, region.code) || (place && !zipOfOwnCity(deps, zip, place))) return text;
    const field = place ? null : text.slice(text.lastIndexOf(',', before - 1) + 1, before).trim();
    if (field !== null && regionText.length <= 3 && !zipOfOwnCity(deps, zip, field)) return text;
  } else if (zipForm || postal.fsa(code.slice(0, 3))?.province !== region.code) {
    return text;
  }
  return `${text.slice(0, before)}${place ? `, ${place}` : ''}, ${regionText} ${code}${note}`;
}

/** A postal code alone, or after (1, 2) or before (3, 4) a place's name. */
const POSTAL_CODE_AND_PLACE = /^(?:([A-Z][^\d]*?)\s+)?(?:(\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)|(\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)\s+([A-Z][^\d]*?))$/;

/**
 * `…, 02108 BOSTON` -> `…, BOSTON 02108`: a ZIP written before its own city (a place of the ZIP), in the last comma
 * group, moved after it; other text as given (`…, 10117 BERLIN`: 10117 is no ZIP of a Berlin).
 */
export function zipAfterCity(deps: AddressEngineDeps, text: string): string {
  const { postal } = deps;
  const m = POSTAL_CODE_BEFORE_CITY.exec(text.trim());
  if (!m || m[1].length !== 5) return text;
  const before = text.trim().slice(0, m.index);
  if (zipOfOwnCity(deps, m[1], m[2])) return `${before}, ${m[2].trim()} ${m[1]}`;
  // The state after the city (`…, 40219 LOUISVILLE KY`, `… LOUISVILLE KENTUCKY`): a state of the ZIP.
  const words = m[2].trim().split(/\s+/);
  for (let k = 1; k <= Math.min(LONGEST_REGION_NAME_WORDS, words.length - 1); k++) {
    const state = words.slice(-k).join(' ');
    const region = RegionByName.get(state.toUpperCase().replace(/\.$/, ''));
    const city = words.slice(0, -k).join(' ');
    if (region?.country === 'US' && zipOfState(postal, m[1], region.code) && zipOfOwnCity(deps, m[1], city)) return `${before}, ${city}, ${state} ${m[1]}`;
  }
  return text;
}

/**
 * A last comma group of four or five figures and then a name (`…, 10117 Berlin`, `…, 75008 Paris`): Europe's order;
 * group 1 the figures, group 2 the name.
 */
const POSTAL_CODE_BEFORE_CITY = /,\s*(\d{4,5})\s+([^\d,]{2,})$/;

/**
 * A US ZIP code of a place of that name (in the embedded data or the loaded address files), or of a territory the
 * embedded data has no places for, where the city cannot be checked (`…, 00901 SAN JUAN`: Puerto Rico's).
 */
export function zipOfOwnCity(deps: AddressEngineDeps, zip: string, city: string): boolean {
  const { postal, reference } = deps;
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
export function lastLineMovedToTheEnd(text: string): string | null {
  if (text.length > MAX_INPUT_CHARS) return null; // the parser reads no further
  const m = OPENING_LAST_LINE.exec(text.trim());
  return m ? `${m[2]}, ${m[1]}` : null;
}
