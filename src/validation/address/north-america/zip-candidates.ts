/**
 * The ZIPs an address may be in: the state's, the city's (and those the loaded address files place in it), those of
 * a misspelt city's near names, and a mistyped ZIP's one slip away.
 */
import { AddressFootnotes as F } from '../footnotes.js';
import type { ParsedAddress } from '../parser/index.js';
import { type CityEntry, cityKey, oneTypingSlipApart, type PostalIndex, type ZipPlace } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { stateOfUnlistedZip } from '../tables.js';
import type { LastLine } from './checked-last-line.js';
import { streetPartsOf } from './written-form.js';

export const FIVE_DIGITS = /^\d{5}$/;
/**
 * The most ZIPs a delivery-point search without a ZIP walks (a set lookup each, before any query): more than the
 * largest county (Los Angeles, about 510 in GeoNames) with its cities' other ZIPs.
 */
export const MAX_CANDIDATE_ZIPS = 2_000;

/**
 * A one-ZIP town's ZIP typed wrong is corrected to it. In a town of several ZIPs a slip decides nothing: a slipped digit
 * of a Louisville ZIP is most often another Louisville ZIP (90210 is one slip from 40210, the point is in 40219), so
 * the ZIPs one slip away (a digit changed, or two neighbours swapped) are only noted in `out.slipZips`, and the
 * reference data decides (north-america/zip-by-street.ts).
 */
export function correctZip(p: ParsedAddress, cityEntry: CityEntry | undefined, out: LastLine, notes: string[]): boolean {
  if (!cityEntry || !p.postalCode) return false;
  if (cityEntry.zips.length > 1) {
    const typed = p.postalCode;
    out.slipZips = cityEntry.zips.filter((z) => z.length === typed.length && oneTypingSlipApart(z, typed));
    return false;
  }
  const [choice] = cityEntry.zips;
  notes.push(F.zipCorrected(p.postalCode, choice));
  out.zip = choice;
  out.corrected = true;
  return true;
}

/** The place of the ZIP that fits the given state and city best. */
export function bestPlace(
  places: readonly ZipPlace[],
  p: ParsedAddress,
  postal: PostalIndex,
  inputCityKey: string,
): { place: ZipPlace; stateOk: boolean; cityOk: boolean } {
  let stateMatch: ZipPlace | undefined;
  let cityMatch: ZipPlace | undefined;
  for (const z of places) {
    const stateFits = !p.state || z.state === p.state;
    const cityFits = !p.city || postal.isAcceptableCityKey(z, inputCityKey);
    if (stateFits && cityFits) return { place: z, stateOk: true, cityOk: true };
    if (stateFits) stateMatch ??= z;
    if (cityFits) cityMatch ??= z;
  }
  return { place: stateMatch ?? cityMatch ?? places[0], stateOk: stateMatch !== undefined, cityOk: cityMatch !== undefined };
}

/** True when the ZIP is one of the state's: by its GeoNames places, or by its USPS prefix range when GeoNames lacks it. */
export function zipOfState(postal: PostalIndex, zip: string, state: string): boolean {
  return postal.zip(zip)?.some((place) => place.state === state) ?? stateOfUnlistedZip(zip) === state;
}

/** The ZIPs of the state whose points the loaded address files place in the city (by city key). */
export function localZipsOfCity(reference: ReferenceIndex | undefined, postal: PostalIndex, state: string, key: string): string[] {
  return reference ? [...reference.postalCodesOfLocalCity(key)].filter((z) => zipOfState(postal, z, state)) : [];
}

/**
 * Where a street of the city may be when its ZIP is missing or wrong: the city's ZIPs, for a city of several ZIPs those
 * of the places around it that take its name (`NASHVILLE` for Hermitage's 37076), and those its loaded address files
 * place in it (`PANAMA CITY BEACH` for 32408, which GeoNames names PANAMA CITY). (A one-ZIP town's neighbours are other
 * towns.)
 */
export function zipsOfCity(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, city: CityEntry | undefined): readonly string[] {
  if (!p.city || !p.state) return [];
  const local = localZipsOfCity(reference, postal, p.state, cityKey(p.city));
  if (!city) return local;
  return withLocalZips(city.zips.length > 1 ? postal.zipsAround(city) : city.zips, local);
}

/** The ZIPs, and those the loaded address files place in the city, each once. */
export function withLocalZips(zips: readonly string[], local: readonly string[]): readonly string[] {
  return local.length ? [...new Set([...zips, ...local])] : zips;
}

/**
 * The state's ZIPs where the loaded address files hold the street (`8 WATKINS RD, VT`), for an address without a city;
 * where none does, those with a street the name may mean (`8 WATKNIS RD, VT`: zipsWithStreetNear).
 */
export function zipsOfStateWithStreet(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined): string[] {
  const state = p.state;
  if (!state || !reference || !p.name) return [];
  const named = [...(reference.zipsWithStreetName(p.name) ?? [])].filter((z) => zipOfState(postal, z, state));
  return named.length ? named : [...reference.zipsWithStreetNear({ ...streetPartsOf(p), name: p.name })].filter((z) => zipOfState(postal, z, state));
}

/** Records that the ZIP is of the name; null where another name has it too. */
function claim(map: Map<string, string | null>, zip: string, name: string): void {
  map.set(zip, map.has(zip) && map.get(zip) !== name ? null : name);
}

/**
 * The names' ZIPs (added to `zips`), each with the name it is of: a ZIP of a name's own (GeoNames' or the address
 * files') before one of the places around it (FORESTHILL's 95631 is FORESTHILL's, though FOREST HILL's county holds it
 * too); null where two names have it alike.
 */
export function nearCitiesByZip(names: readonly string[], postal: PostalIndex, reference: ReferenceIndex, zips: Set<string>): Map<string, string | null> {
  const own = new Map<string, string | null>();
  const around = new Map<string, string | null>();
  for (const name of names) {
    const key = cityKey(name);
    for (const zip of reference.postalCodesOfLocalCity(key)) claim(own, zip, name);
    for (const city of postal.citiesByKey(key)) {
      for (const zip of city.zips) claim(own, zip, name);
      for (const zip of postal.zipsAround(city)) claim(around, zip, name);
    }
  }
  for (const [zip, name] of around) if (!own.has(zip)) own.set(zip, name);
  for (const zip of own.keys()) zips.add(zip);
  return own;
}

/** The ZIPs where a street of a city typed without state may be: its own, those around it, those the files place in it. */
export function zipsOfCityAnywhere(key: string, postal: PostalIndex, reference: ReferenceIndex): Set<string> {
  const zips = new Set(reference.postalCodesOfLocalCity(key));
  for (const city of postal.citiesByKey(key)) for (const zip of [...city.zips, ...postal.zipsAround(city)]) zips.add(zip);
  return zips;
}
