/**
 * The subdivision (state, province, prefecture) and locality an address names, as its country's metadata lists them,
 * and where they disagree with each other or with the postal code.
 */
import type { CountryRules, Locality, LocalityName, Subdivision, SubdivisionName } from './country-rules.js';
import type { PostalCodeAt } from './postal-codes.js';
import { joined, UNSPACED_SCRIPT } from './text-forms.js';

interface NamedSubdivision {
  sub: Subdivision;
  /**
   * Written where the writer puts the state: a code of two or three letters where codes are written (NSW, RJ), or a
   * name right beside the postal code (CIUDAD DE MEXICO, JALISCO 06600).
   */
  stated: boolean;
  /** A name written where a subdivision is written; false for one inside the delivery line (VIA ROMA, CALLE B). */
  strong: boolean;
  /** Groups between the name and the postal code's group: the nearest is the one the writer meant. */
  distance: number;
}

/**
 * The subdivisions the text names. A name of several letters counts anywhere but in the first of several groups (the
 * delivery line: VIA ROMA 1); a code of two or three letters only where such codes are written: last in its group or
 * beside the postal code (SYDNEY NSW 2000, 00186 ROMA RM, SAO PAULO - SP); a one-letter code (Spain's A, B, M) never.
 * Names in scripts written without spaces (東京都, กรุงเทพมหานคร) are looked for anywhere.
 */
export function namedSubdivisions(groups: string[][], rules: CountryRules, postal: PostalCodeAt | null): NamedSubdivision[] {
  const found: NamedSubdivision[] = [];
  const postalGroup = postal?.group ?? groups.length - 1;
  // A name of words is looked for only where its first word is written.
  const words = new Set(groups.flat());
  for (const sub of rules.subdivisions) {
    if (!sub.names.some((name) => name.unspaced || words.has(name.words[0]))) continue;
    let best: NamedSubdivision | null = null;
    const consider = (strong: boolean, g: number, stated = false) => {
      const candidate = { sub, strong, stated, distance: Math.abs(g - postalGroup) };
      if (!best || rank(candidate) < rank(best) || (rank(candidate) === rank(best) && candidate.distance < best.distance)) best = candidate;
    };
    for (const name of sub.names) if (name.unspaced || words.has(name.words[0])) forEachPlaceNamed(groups, name, postal, consider);
    if (best) found.push(best);
  }
  return found.sort((a, b) => rank(a) - rank(b) || a.distance - b.distance);
}

/**
 * Calls `found` for each place `name` is written in the text: `strong` unless it is inside the delivery line (the first
 * of several groups: VIA ROMA 1), `stated` where a writer puts the state (a code of two or three letters last in its
 * group or beside the postal code, a name beside the postal code). A short code counts only where codes are written;
 * a name in a script written without spaces anywhere.
 */
function forEachPlaceNamed(
  groups: string[][], name: SubdivisionName, postal: PostalCodeAt | null, found: (strong: boolean, group: number, stated?: boolean) => void,
): void {
  const { text, words: nameWords, unspaced, short } = name;
  groups.forEach((ws, g) => {
    if (unspaced) {
      if (joined(ws).includes(text)) found(true, g);
      return;
    }
    for (let i = 0; i + nameWords.length <= ws.length; i++) {
      if (!nameWords.every((w, k) => ws[i + k] === w)) continue;
      const end = i + nameWords.length;
      const besidePostal = postal !== null && g === postal.group && (end === postal.start || i === postal.end);
      const inDeliveryLine = g === 0 && groups.length > 1;
      if (short) {
        const strong = !inDeliveryLine || besidePostal;
        if (end === ws.length || besidePostal) found(strong, g, strong);
      } else {
        found(!inDeliveryLine || besidePostal, g, besidePostal);
      }
    }
  });
}

/** A locality's name written where a locality is (see subdivisionOfLocality). */
function localityNamed(groups: string[][], name: SubdivisionName, postal: PostalCodeAt | null, cityFirst: boolean): boolean {
  let named = false;
  const line = ` ${joined(groups[0])} `;
  forEachPlaceNamed(groups, name, postal, (strong, g) => {
    // One group only: a locality's name must stand where the format writes the city, at the end (at the start where
    // the city comes before the street), or beside the postal code: not 1 CENTRAL STREET.
    const edge = cityFirst ? line.startsWith(` ${name.text} `) : line.endsWith(` ${name.text} `);
    const placed = groups.length > 1 || name.unspaced || edge || (postal !== null && g === postal.group);
    if (strong && placed) named = true;
  });
  return named;
}

/**
 * The one subdivision (of `among`, when given) whose city or district the text names where a locality is written (see
 * localityNamed: 88 QUEENSWAY, ADMIRALTY: HONG KONG ISLAND). Null when none does, or when localities of several subdivisions are named (Taiwan has an
 * EAST DISTRICT in four cities).
 */
export function subdivisionOfLocality(
  groups: string[][], rules: CountryRules, postal: PostalCodeAt | null, among: Subdivision[], cityFirst: boolean,
): { sub: Subdivision; locality: Locality } | null {
  const { byFirstWord, unspacedByStart } = rules.localityNames;
  const candidates = new Set<LocalityName>();
  for (const ws of groups) for (const w of ws) for (const entry of byFirstWord.get(w) ?? []) candidates.add(entry);
  // A name in a script written without spaces may start anywhere: those starting with a character, or two, of the text.
  if (unspacedByStart.size && UNSPACED_SCRIPT.test(groups.join())) {
    for (const ws of groups) {
      const line = joined(ws);
      for (let i = 0; i < line.length; i++) {
        for (const entry of unspacedByStart.get(line[i]) ?? []) candidates.add(entry);
        for (const entry of unspacedByStart.get(line.slice(i, i + 2)) ?? []) candidates.add(entry);
      }
    }
  }
  let match = null as { sub: Subdivision; locality: Locality } | null;
  for (const { name, locality, sub } of candidates) {
    if (among.length && !among.includes(sub)) continue;
    if (match?.sub === sub) continue;
    if (!localityNamed(groups, name, postal, cityFirst)) continue;
    if (match) return null;
    match = { sub, locality };
  }
  return match;
}

/**
 * A city or district of the subdivision named where localities are, whose postal prefix the postal code does not
 * have, while another locality's it has (Korea, Taiwan and some of China, where Google gives localities their postal
 * prefixes): `강남구` with a postal code of `종로구`. Null where a named one agrees, none is named, or no prefix holds it.
 */
export function localityOfOtherPostalCode(
  groups: string[][], sub: Subdivision, postal: PostalCodeAt, cityFirst: boolean,
): { given: Locality; belongsTo: Locality[] } | null {
  const withPrefix = sub.localities.filter((l) => l.postalPrefix);
  if (!withPrefix.length) return null;
  const named = withPrefix.filter((l) => l.names.some((n) => localityNamed(groups, n, postal, cityFirst)));
  if (!named.length || named.some((l) => l.postalPrefix!.test(postal.code))) return null;
  const belongsTo = withPrefix.filter((l) => l.postalPrefix!.test(postal.code));
  return belongsTo.length ? { given: named[0], belongsTo } : null;
}

/** What the writer gave as the state first, then a name outside the delivery line, then the rest. */
const rank = (n: NamedSubdivision) => (n.stated ? 0 : n.strong ? 1 : 2);

type SubdivisionFinding =
  | { sub: Subdivision; how: 'named' }
  /** Not written: told by the postal code, or by the city or district (`locality`). */
  | { sub: Subdivision; how: 'added'; locality?: Locality }
  | { sub: Subdivision; how: 'conflict'; belongsTo: Subdivision[] }
  | null;

/**
 * The subdivision, checked against the postal code where Google gives each subdivision's postal prefixes (22
 * countries): a named one the postal code agrees with; else one the postal code alone decides (added); a named one
 * the postal code contradicts is a conflict.
 */
export function findSubdivision(groups: string[][], rules: CountryRules, postal: PostalCodeAt | null, cityFirst: boolean): SubdivisionFinding {
  const named = namedSubdivisions(groups, rules, postal);
  const prefixes = postal !== null && rules.subdivisions.some((s) => s.postalPrefix);
  const ofPostal = prefixes ? rules.subdivisions.filter((s) => s.postalPrefix?.test(postal!.code)) : [];
  // A state written where states are written (SAO PAULO - RJ; CIUDAD DE MEXICO, JALISCO 06600) is what the writer
  // says, even where the city is named like another.
  const stated = named[0]?.stated ? named[0] : null;
  if (stated) {
    if (!ofPostal.length || ofPostal.includes(stated.sub)) return { sub: stated.sub, how: 'named' };
    // Words that name two regions (BUENOS AIRES: the province, and the autonomous city people call so): the one whose
    // postal code is written (`C1043 BUENOS AIRES` is the city's).
    const text = ` ${groups.map((ws) => joined(ws)).join(' ')} `;
    const shared = ofPostal.find((s) => s.names.some((n) => !n.short && text.includes(` ${n.text} `) && stated.sub.names.some((m) => m.text === n.text)));
    return shared ? { sub: shared, how: 'named' } : { sub: stated.sub, how: 'conflict', belongsTo: ofPostal };
  }
  const agreeing = named.find((n) => ofPostal.includes(n.sub));
  if (agreeing) return { sub: agreeing.sub, how: 'named' };
  const strong = named.find((n) => n.strong);
  // A postal code no subdivision's prefix covers says nothing (the metadata may lag the post).
  if (strong) return ofPostal.length ? { sub: strong.sub, how: 'conflict', belongsTo: ofPostal } : { sub: strong.sub, how: 'named' };
  if (ofPostal.length === 1) return { sub: ofPostal[0], how: 'added' };
  if (named.length && !ofPostal.length) return { sub: named[0].sub, how: 'named' };
  // None named, and no postal code that decides: the city or district may (a postcode two states share: the one of them).
  const byLocality = subdivisionOfLocality(groups, rules, postal, ofPostal, cityFirst);
  return byLocality ? { sub: byLocality.sub, how: 'added', locality: byLocality.locality } : null;
}
