/** The answer written the postal way: Pub 28's delivery line (unit last) or Canada Post's (unit before the number). */
import type { ParsedAddress, Secondary } from '../parser/index.js';
import { cityKey, type PostalIndex } from '../postal-index.js';
import type { StreetParts } from '../reference-types.js';

/** The non-empty parts joined by `separator` (what `[…].filter(Boolean).join(' ')` does, without the arrays). */
export function words(separator: string, ...parts: (string | null | undefined)[]): string {
  let out = '';
  for (const part of parts) if (part) out = out ? out + separator + part : part;
  return out;
}

/** The county of the ZIP's place named like the city (a ZIP can straddle counties: the first place otherwise). */
export function countyOf(postal: PostalIndex, zip: string | null, city: string | null): string | null {
  const places = zip ? postal.zip(zip) : undefined;
  if (!places) return null;
  let place = places[0];
  if (places.length > 1 && city) {
    const key = cityKey(city);
    place = places.find((z) => z.cityKey === key) ?? place;
  }
  return place.county || null;
}

export function secondaryText(s: Secondary): string {
  return words(' ', s.designator, s.number);
}

export function streetPartsOf(p: ParsedAddress): StreetParts {
  return { predirection: p.predirection, name: p.name, suffix: p.suffix, postdirection: p.postdirection };
}

export function streetText(s: StreetParts, suffixBeforeName: boolean): string {
  const parts = suffixBeforeName ? [s.predirection, s.suffix, s.name, s.postdirection] : [s.predirection, s.name, s.suffix, s.postdirection];
  return words(' ', ...parts);
}

/** Pub 28 delivery line (unit at the end) or Canada Post's (unit before the civic number: `104-2701 23RD AVE NW`). */
export function deliveryLineText(p: ParsedAddress, street: StreetParts, canada: boolean): string {
  const name = streetText(street, p.suffixBeforeName);
  const unit = p.secondaryDesignator ? words(' ', p.secondaryDesignator, p.secondaryNumber) : '';
  if (p.kind === 'po_box' || p.kind === 'rural_route' || p.kind === 'highway_contract' || p.kind === 'military') {
    return words(' ', name, p.primaryNumber, unit, p.installation);
  }
  if (p.kind === 'general_delivery') return words(' ', name, p.installation);
  if (canada && p.primaryNumber && p.secondaryNumber) {
    return `${p.secondaryNumber}-${p.primaryNumber} ${name}`.trim();
  }
  // A kilometre or mile marker written after its road stays there (`CARR 2 KM 15.5`).
  if (p.milepost?.afterStreet) return words(' ', name, p.primaryNumber, unit);
  return words(' ', p.primaryNumber, name, unit);
}
