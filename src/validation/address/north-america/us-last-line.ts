/**
 * The US last line checked: ZIP, city and state against each other (GeoNames through PostalIndex, USPS ZIP prefix
 * ranges, the loaded address files' places), each correction said in a footnote.
 */
import { AddressFootnotes as F } from '../footnotes.js';
import type { DeliveryKind, ParsedAddress } from '../parser/index.js';
import { cityKey, lettersOf, type PostalIndex, type ZipPlace } from '../postal-index.js';
import type { ReferenceIndex } from '../reference-index.js';
import { DirectionalTable, MilitaryPostOffices, MilitaryStates, RegionByName, stateOfUnlistedZip, UspsTerritories } from '../tables.js';
import type { LastLine } from './checked-last-line.js';
import {
  cityAsItsPlaceWritesIt, cityOfDirectionalPart, nameOfZip, statesOfCity, townNamedByDirectional, typingSlipsApart, unknownCityName,
} from './city-names.js';
import { words } from './written-form.js';
import {
  bestPlace, correctZip, FIVE_DIGITS, localZipsOfCity, nearCitiesByZip, withLocalZips, zipsOfCity, zipsOfCityAnywhere,
  zipsOfStateWithStreet,
} from './zip-candidates.js';

/** True when the text ends with a last line: a state or province (code or name) and its postal code. */
export function endsWithLastLine(text: string): boolean {
  const m = /(?:^| )([A-Z][A-Z ]*?) (\d{5}(?:-?\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)$/.exec(text);
  if (!m) return false;
  const words = m[1].split(' ');
  for (let k = 1; k <= Math.min(3, words.length); k++) if (RegionByName.has(words.slice(-k).join(' '))) return true;
  return false;
}

/**
 * Words written before the city that are no part of it (`… # 203 - LEAVE AT DOOR, NASHVILLE TN 37203`): where the
 * typed city is no name of the ZIP but its last words are, those are the city and the rest is dropped (`R#`).
 */
function cityAtEnd(p: ParsedAddress, places: readonly ZipPlace[], postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[]): void {
  const words = p.city?.split(' ') ?? [];
  // A real place of the state (`EAST ORANGE` with a Newark ZIP) is a wrong town, which the ZIP corrects as a whole.
  if (words.length < 2 || nameOfZip(p.city!, p.postalCode!, places, postal, reference) || (p.state && postal.city(p.state, p.city!))) return;
  // The ZIP's own place misspelt in its first word (`WETS PALM BEACH`, `SOUT DEERFIELD`): the whole is the city, to
  // be corrected, not a note before the neighbour its last words name (PALM BEACH, DEERFIELD).
  const typed = lettersOf(p.city!);
  if (typed.length >= 6 && places.some((z) => typingSlipsApart(typed, lettersOf(z.city)) <= 1)) return;
  for (let k = 1; k < words.length; k++) {
    const tail = words.slice(k).join(' ');
    // A directional before the town (`E HAZEL CREST`) is part of a misnamed town, not a note.
    if (!nameOfZip(tail, p.postalCode!, places, postal, reference) || (k === 1 && DirectionalTable.has(words[0]))) continue;
    notes.push(F.extraDropped(words.slice(0, k).join(' ')));
    p.city = tail;
    return;
  }
}

const NOT_ALONE = { states: [] as string[], corrected: false, near: [] as string[] };

/**
 * A city typed with neither state nor ZIP. A city that only one state has decides the state (`… , SCHENECTADY`), as a
 * ZIP would, when the delivery line reads as a US one (`10 RUE DE LA PAIX, NICE` is no address in Nice, CA). A city no
 * state has, one typing slip from one name of GeoNames or of the address files (`… , LOUISVILE`), is that name first.
 * A name several states share (`SPRINGFIELD`) decides nothing here; the reference data may still find the street in
 * one of them (reconcileUsLastLine's candidate ZIPs), as it may for a name one slip from several (`CROTFON`: CROFTON
 * and CROTON). Returns the states that have the city, whether it was corrected, and the names it is one slip from when
 * they are several.
 */
function placeCityAlone(
  p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[],
): { states: string[]; corrected: boolean; near: string[] } {
  // A line that reads as a US street: it ends as one, or it is a house number and a name that the loaded data holds as a
  // street (`90 VIA VERDE`, `570 BROADWAY`; not `10 VIA ROMA, MILANO`).
  const usLine = p.quality >= 2 ||
    (p.kind === 'street' && p.primaryNumber !== null && p.name !== null && (reference?.zipsWithStreetName(p.name)?.size ?? 0) > 0);
  let states = statesOfCity(cityKey(p.city!), postal, reference);
  let corrected = false;
  let near: string[] = [];
  if (!states.length && usLine) {
    // Names of one key are one place written two ways (FOREST HILL, FORESTHILL).
    const byKey = new Map<string, string>();
    for (const name of [...postal.cityNamesOneSlipFrom(p.city!), ...(reference?.localCityNamesOneSlipFrom(p.city!) ?? [])]) {
      if (!byKey.has(cityKey(name))) byKey.set(cityKey(name), name);
    }
    near = [...byKey.values()];
    if (near.length === 1) {
      notes.push(F.cityCorrected(p.city!, near[0]));
      p.city = near[0];
      corrected = true;
      states = statesOfCity(cityKey(near[0]), postal, reference);
      near = [];
    }
  }
  if (states.length === 1 && usLine) notes.push(F.stateAddedFromCity((p.state = states[0]), p.city!));
  return { states, corrected, near };
}

/** Deliveries that address points (which name streets) never hold. */
export const NOT_STREETS: ReadonlySet<DeliveryKind> = new Set(['po_box', 'rural_route', 'highway_contract', 'general_delivery']);

export function reconcileUsLastLine(p: ParsedAddress, postal: PostalIndex, reference: ReferenceIndex | undefined, notes: string[]): LastLine {
  const places = p.postalCode ? postal.zip(p.postalCode) : undefined;
  if (places && p.city) cityAtEnd(p, places, postal, reference, notes);
  const { states: cityStates, corrected, near: nearCities } = !p.postalCode && !p.state && p.city ? placeCityAlone(p, postal, reference, notes) : NOT_ALONE;
  const out: LastLine = {
    city: p.city, state: p.state, zip: p.postalCode, corrected, invalid: false, candidateZips: [], localCandidatesOf: null,
    missing: F.lastLineMissing,
  };
  const inputCityKey = p.city ? cityKey(p.city) : '';
  const cityEntry = p.city && p.state ? postal.cityByKey(p.state, inputCityKey) : undefined;
  out.city = cityAsItsPlaceWritesIt(cityEntry, p.city, inputCityKey);
  if (places) {
    const fit = bestPlace(places, p, postal, inputCityKey);
    const stateOk = fit.stateOk;
    const place = fit.place;
    // GeoNames lists military ZIPs as APO or FPO, never DPO, and not always rightly: without loaded City-State data
    // naming the ZIP, any of the three offices is taken as typed (`UNIT 2050 BOX 4190, DPO AP 96278`).
    const officeUnchecked = !fit.cityOk && !!p.city && MilitaryPostOffices.has(p.city) && MilitaryStates.has(place.state)
      && !reference?.cityNamesOf(p.postalCode!).length;
    if (officeUnchecked) notes.push(F.militaryOfficeNotChecked(p.city!, p.postalCode!));
    const cityOk = fit.cityOk || officeUnchecked || (!!p.city && !!reference?.acceptsCity(p.postalCode!, p.city));
    if (stateOk && cityOk) {
      if (!p.city) notes.push(F.cityAdded((out.city = place.city)));
      // The ZIP's place written another way takes its own spelling (cityAsItsPlaceWritesIt).
      else out.city = cityAsItsPlaceWritesIt(postal.cityByKey(place.state, inputCityKey), p.city, inputCityKey);
      if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
      // The street may be in another ZIP of the same city, GeoNames' or one the loaded address files place in it (not
      // the places' around: the ZIP given fits the city): the reference data can tell.
      if (cityEntry) out.candidateZips = cityEntry.zips;
      if (p.city && p.state) out.localCandidatesOf = inputCityKey;
      return out;
    }
    if (!stateOk && cityOk) {
      // ZIP and city agree: they decide the state.
      notes.push(F.stateCorrected(p.state!, place.state));
      out.state = place.state;
      out.corrected = true;
      return out;
    }
    if (stateOk && !cityOk) {
      // A ZIP of the state typed with a city of the ZIP's county that is the embedded place of other ZIPs: USPS accepts
      // several names for many ZIPs (SHAWNEE MISSION for much of Johnson County, KS; post-office names of suburbs), and
      // GeoNames names one place per ZIP, so nothing says the ZIP is wrong. Without City-State data naming the ZIP's
      // places it is kept and the city said unchecked; the reference data may still place the street in one of the
      // city's ZIPs. (A city of another county, `SPRINGFIELD, IL 60601`, disagrees with the ZIP, as before.)
      if (cityEntry && place.county !== '' && cityEntry.counties.has(place.county) && !reference?.cityNamesOf(p.postalCode!).length) {
        notes.push((out.zipKept = F.cityOfOtherZips(p.city!, p.postalCode!, place.city)));
        out.candidateZips = zipsOfCity(p, postal, reference, cityEntry);
        return out;
      }
      if (cityEntry) {
        // A real city of the state with another ZIP (City-State data names the ZIP's places, and not this one): a
        // slipped digit is corrected, otherwise the reference decides.
        if (correctZip(p, cityEntry, out, notes)) return out;
        out.candidateZips = zipsOfCity(p, postal, reference, cityEntry);
        out.invalid = true;
        return out;
      }
      // A name USPS lists for the ZIP but does not accept in a last line (City-State data): the name to write instead.
      const alias = reference?.aliasesOf(inputCityKey).find((a) => a.zip === p.postalCode);
      if (alias) {
        notes.push(F.cityNotMailingName(p.city!, (out.city = alias.preferred)));
        out.corrected = true;
        if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
        return out;
      }
      // A directional before the ZIP's own place (`N. MIAMI, FL 33161`, which GeoNames names MIAMI): a town of its own
      // as often as not (North Miami, East Palo Alto), which the embedded data cannot deny; kept, spelt out, said
      // unchecked, where no loaded data names the ZIP's places.
      const town = townNamedByDirectional(p.city!, place.state, postal);
      if (town && !reference?.cityNamesOf(p.postalCode!).length && nameOfZip(town.neighbour.name, p.postalCode!, places, postal, reference)) {
        notes.push(F.cityNotChecked((out.city = town.name), p.postalCode!, place.city));
        if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
        return out;
      }
      // A name nothing knows (GeoNames keeps one place per ZIP: TAMARAC, SHAKER HEIGHTS and HOLLYWOOD, names USPS
      // accepts, are none of its places) and no slip of one: kept, and said to be unchecked, where no loaded data names
      // the ZIP's places.
      if (unknownCityName(p, place, postal, reference, inputCityKey)) {
        notes.push(F.cityNotChecked(p.city!, p.postalCode!, place.city));
        if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
        return out;
      }
      // The city is not a place of the state: ZIP and state decide it (the ZIP alone, when no state was given).
      notes.push(F.cityCorrected(p.city!, place.city));
      out.city = place.city;
      out.corrected = true;
      if (!p.state) notes.push(F.stateAdded((out.state = place.state)));
      return out;
    }
    if (correctZip(p, cityEntry, out, notes)) return out;
    out.candidateZips = zipsOfCity(p, postal, reference, cityEntry);
    out.invalid = true;
    return out;
  }

  // A ZIP the embedded data does not list, of a territory (Puerto Rico, Guam, …) or of military mail: its state is
  // known from the ZIP range, its city only from reference data the operator loads.
  const unlistedState = p.postalCode && FIVE_DIGITS.test(p.postalCode) ? stateOfUnlistedZip(p.postalCode) : undefined;
  if (unlistedState) {
    if (p.state && p.state !== unlistedState) {
      if (correctZip(p, cityEntry, out, notes)) return out;
      notes.push(F.zipOfOtherState(p.postalCode!, unlistedState));
      out.invalid = true;
      return out;
    }
    if (!p.state) notes.push(F.stateAdded((out.state = unlistedState)));
    if (!p.city) {
      notes.push(F.lastLineMissing);
      out.invalid = true;
    } else if (!UspsTerritories.has(unlistedState) && !MilitaryPostOffices.has(p.city)) {
      // Overseas military mail goes to APO, FPO or DPO (Pub 28 section 225.1).
      notes.push(F.cityUnknown(p.city, unlistedState));
      out.invalid = true;
    } else if (!reference?.acceptsCity(p.postalCode!, p.city)) {
      // Loaded City-State data that names the ZIP decides its city; without it the city cannot be checked.
      const named = reference?.cityNamesOf(p.postalCode!) ?? [];
      if (named.length === 1) {
        notes.push(F.cityCorrected(p.city, (out.city = named[0])));
        out.corrected = true;
      } else if (named.length > 1) {
        notes.push(F.zipCityStateDisagree);
        out.invalid = true;
      } else {
        notes.push(F.zipNotListed(p.postalCode!, unlistedState));
      }
    }
    return out;
  }

  if (p.postalCode) {
    if (correctZip(p, cityEntry, out, notes)) return out;
    notes.push(FIVE_DIGITS.test(p.postalCode) ? F.zipUnknown(p.postalCode) : F.zipMalformed(p.plus4 ? `${p.postalCode}-${p.plus4}` : p.postalCode));
    // Without a city, the state's ZIPs where the data holds the street (`270 CHRISSYS CT, VT 05434`).
    out.candidateZips = p.city ? zipsOfCity(p, postal, reference, cityEntry) : zipsOfStateWithStreet(p, postal, reference);
    out.invalid = true;
    return out;
  }

  // No ZIP: the city and state must name a place; a single-ZIP city gives its ZIP.
  if (!p.city || !p.state) {
    if (cityStates.length > 1) out.missing = F.cityOfSeveralStates(p.city!, cityStates);
    notes.push(out.missing);
    out.invalid = true;
    // The state alone (`8 WATKINS RD, VT`): the reference data may hold the street in one ZIP of the state.
    if (p.state) out.candidateZips = zipsOfStateWithStreet(p, postal, reference);
    // A city of several states, without one (`6007 APPLEGATE LN, LOUISVILLE`): the reference data may hold the street
    // in one ZIP of one of them, which then decides the state.
    // (Its ZIPs, those of the places around that take its name, and those its address files place in it.)
    if (p.city && !p.state && reference && p.name) {
      const zips = zipsOfCityAnywhere(inputCityKey, postal, reference);
      // A misspelt city one slip from several names: the ZIPs of each, the one found deciding the name.
      if (nearCities.length > 1) out.nearCityOfZip = nearCitiesByZip(nearCities, postal, reference, zips);
      out.candidateZips = [...zips];
    }
    return out;
  }
  if (!cityEntry && !postal.hasState(p.state) && UspsTerritories.has(p.state)) {
    notes.push(F.territoryNotCovered(p.state));
    return out;
  }
  // The ZIPs of the state whose points the loaded address files place in this city (JEFFERSONTOWN, which GeoNames does
  // not list; MEXICO BEACH, which it lists under one ZIP of its two).
  const local = localZipsOfCity(reference, postal, p.state, inputCityKey);
  if (!cityEntry && local.length) {
    if (local.length === 1) notes.push(F.zipAdded((out.zip = local[0])));
    else out.candidateZips = local;
    return out;
  }
  // A town named by a directional and a place of the state (below); not first a slip from a place (`SO. SHARON`: its
  // key S SHARON is one letter from SHARON).
  const town = cityEntry || reference?.hasCityNames() ? undefined : townNamedByDirectional(p.city, p.state, postal);
  // A city misspelt by one slip (`LOUSVILLE`) is the one city of the state it is that close to.
  const near = cityEntry || town ? undefined : postal.cityOneSlipFrom(p.state, inputCityKey, p.city);
  if (near) {
    notes.push(F.cityCorrected(p.city, (out.city = near.name)));
    out.corrected = true;
  }
  if (!cityEntry && !near && !town && reference) {
    const state = p.state;
    /** The city written as `city` (said by `note`), and the ZIP added, or the ZIPs to look in. */
    const placed = (note: string, city: string, zips: string[]) => {
      notes.push(note);
      out.city = city;
      out.corrected = true;
      if (zips.length === 1) notes.push(F.zipAdded((out.zip = zips[0])));
      else out.candidateZips = zips;
      return out;
    };
    // Else the one place of the state that the loaded data names (City-State names, the address files' places) and
    // that close: `BORDMAN, OH` is BOARDMAN, which USPS names for 44512.
    const zipsOf = (name: string) => localZipsOfCity(reference, postal, state, cityKey(name));
    const loadedNear = reference.localCityNamesOneSlipFrom(p.city).filter((name) => zipsOf(name).length > 0);
    if (loadedNear.length === 1) return placed(F.cityCorrected(p.city, loadedNear[0]), loadedNear[0], zipsOf(loadedNear[0]));
    // Else a name USPS lists for ZIPs of the state but does not accept in a last line: the name they are written with.
    const aliases = reference.aliasesOf(inputCityKey).filter((a) => a.state === state);
    const preferred = [...new Set(aliases.map((a) => a.preferred))];
    if (preferred.length === 1) {
      return placed(F.cityNotMailingName(p.city, preferred[0]), preferred[0], [...new Set(aliases.map((a) => a.zip))]);
    }
  }
  // A town named by a directional and a place of the state (`N. MIAMI, FL`, `EAST PORTLAND, OR`) that the embedded data
  // does not list (it names one place per ZIP): kept, spelt out and said unchecked, the neighbour's ZIPs searched for
  // the street. Where loaded City-State data names the state's places and not this one, it is a part of the city it
  // is named after (a district, East Portland), and corrected to it.
  if (town) {
    notes.push(F.townNotChecked((out.city = town.name), town.neighbour.name, p.state));
    out.candidateZips = withLocalZips(town.neighbour.zips.length > 1 ? postal.zipsAround(town.neighbour) : town.neighbour.zips, local);
    return out;
  }
  const part = cityEntry || near ? undefined : cityOfDirectionalPart(p.city, p.state, postal);
  if (part) {
    notes.push(F.cityCorrected(p.city, (out.city = part.name)));
    out.corrected = true;
  }
  const city = cityEntry ?? near ?? part;
  if (!city) {
    notes.push(F.cityUnknown(p.city, p.state));
    // (Without City-State data, the place may be real: GeoNames names one place per ZIP, `BOARDMAN, OH` is none.)
    if (!reference?.hasCityNames()) notes.push(F.cityMaybeUnlisted);
    out.invalid = true;
    return out;
  }
  if (city.zips.length === 1) {
    out.zip = city.zips[0];
    notes.push(F.zipAdded(out.zip));
    // The reference may find the street in a ZIP its address files place in the town too.
    if (local.length) out.candidateZips = local;
  } else {
    // A city of several ZIPs lends its name to the ZIPs of its county's other places (`NASHVILLE` for Hermitage's
    // 37076): the reference may find the street in one of them. (A one-ZIP town keeps its ZIP: its neighbours are
    // other towns.)
    out.candidateZips = withLocalZips(postal.zipsAround(city), local);
  }
  return out;
}
