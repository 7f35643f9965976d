/**
 * Address forms of particular places, outside the Pub 28 core of parser.ts: Puerto Rico's urbanizations, ships of FPO
 * mail, and Canada Post's French words, delivery installations and rural sites. Each reads tokens and says what it found.
 */
import type { DeliveryLine } from './parser/types.js';
import { CanadianFrenchUnitWords, CanadianInstallationTypes, RegionByName, ShipPrefixes, SpanishUnitWords, UnitDesignatorTable, UrbanizationWords } from './tables.js';
import { type Token, joinWords, makeToken } from './tokenize.js';

/**
 * Takes Puerto Rico's urbanization out of the tokens (`URB LAS GLADIOLAS 150 CALLE A`, `1234 CALLE ALTURAS, URB VILLA
 * NEVAREZ, SAN JUAN`): from URB to the next comma or house number. When nothing ends it before the state and ZIP it
 * cannot be told from the city, and is left where it is.
 */
export function takeUrbanization(toks: Token[]): string | null {
  for (let u = 0; u < toks.length - 1; u++) {
    if (!UrbanizationWords.has(toks[u].w)) continue;
    let stop = u + 1;
    while (stop < toks.length && !toks[stop].sep && !toks[stop].digit) stop++;
    if (stop === u + 1 || stop >= toks.length - 1 || RegionByName.has(toks[stop - 1].w)) return null;
    const name = joinWords(toks, u + 1, stop);
    const sep = toks[u].sep || toks[stop].sep;
    toks.splice(u, stop - u);
    toks[u] = { ...toks[u], sep };
    return name;
  }
  return null;
}

/**
 * Spanish unit words read as Pub 28's (`APTO 5`, `APARTAMENTO 5`, `DEPTO 3B`: APT; `UNIDAD 4`: UNIT; `PISO 2`: FL),
 * where a unit's number or letter, or `#`, follows: the same units, written as USPS writes them.
 */
export function readSpanishUnitWords(toks: Token[]): void {
  for (let k = 1; k + 1 < toks.length; k++) {
    const unit = SpanishUnitWords.get(toks[k].w);
    const next = toks[k + 1];
    if (unit && ((next.unitId && (next.digit || next.w.length === 1)) || next.w === '#')) toks[k] = makeToken(unit, toks[k].sep);
  }
}

/**
 * French Canadian delivery words read as the English ones (`APP 4`, `BUREAU 200`; `CP 123` and `CASE POSTALE 123`,
 * the post office box). Returns whether a box was written the French way, so that it is written back as CP.
 */
export function readFrenchWords(toks: Token[], end: number): boolean {
  let frenchBox = false;
  for (let k = 0; k + 1 < end; k++) {
    const w = toks[k].w;
    const next = toks[k + 1];
    const unit = CanadianFrenchUnitWords.get(w);
    if (unit && ((next.unitId && (next.digit || next.w.length === 1)) || next.w === '#')) toks[k] = makeToken(unit, toks[k].sep);
    else if (w === 'CP' && next.digit) {
      toks[k] = makeToken('POBOX', toks[k].sep);
      frenchBox = true;
    } else if (w === 'CASE' && next.w === 'POSTALE' && toks[k + 2]?.digit) {
      toks[k] = makeToken('PO', toks[k].sep);
      toks[k + 1] = makeToken('BOX', false);
      frenchBox = true;
    }
  }
  return frenchBox;
}

/** An FPO ship's name written before the city (`USS JOHN F KENNEDY FPO AE 09532`): where it starts, or -1. */
export function shipNameStart(toks: readonly Token[], end: number): number {
  for (let k = 0; k + 1 < end; k++) if (ShipPrefixes.has(toks[k].w)) return k;
  return -1;
}

/** `SITE 6 COMP 10` (also `S6 C10`): the site and compartment of a Canadian rural route, and where the route goes on. */
export function siteAndCompartment(toks: readonly Token[], at: number, end: number): { text: string; next: number } | null {
  if (toks[at]?.w[0] !== 'S') return null;
  const site = /^(?:SITE|S)(\d{1,4})$/.exec(toks[at]?.w ?? '')?.[1] ?? (toks[at]?.w === 'SITE' && toks[at + 1]?.digit ? toks[at + 1].w : null);
  if (!site || at >= end) return null;
  let k = at + (toks[at].w === 'SITE' ? 2 : 1);
  const comp = /^(?:COMP|C)(\d{1,4})$/.exec(toks[k]?.w ?? '')?.[1] ??
    ((toks[k]?.w === 'COMP' || toks[k]?.w === 'COMPARTMENT') && toks[k + 1]?.digit ? toks[k + 1].w : null);
  if (!comp || k >= end) return null;
  k += /^(?:COMP|COMPARTMENT)$/.test(toks[k].w) ? 2 : 1;
  return k <= end ? { text: `SITE ${site} COMP ${comp}`, next: k } : null;
}

/**
 * A Canadian box, route or general delivery names its delivery installation after it (`PO BOX 1234 STN MAIN`): the
 * type and its name. Returns where units go on.
 */
export function readInstallation(toks: readonly Token[], at: number, end: number, country: 'US' | 'CA' | null, line: DeliveryLine): number {
  const type = country === 'CA' && at + 1 < end ? CanadianInstallationTypes.get(toks[at].w) : undefined;
  if (!type) return at;
  // Its name runs to a comma; without one it is one word (`STN MAIN HALIFAX`: the rest is the city).
  const stop = end >= toks.length || toks[end].sep ? end : at + 2;
  line.installation = `${type} ${joinWords(toks, at + 1, stop)}`;
  return stop;
}
