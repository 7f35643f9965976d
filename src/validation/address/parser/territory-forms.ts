/**
 * The US territories' own address forms, read as USPS Publication 28 writes them: Puerto Rico's (section 29: the street
 * word before the name, the number after it in the local form, barrios, sectors and parcelas above the line,
 * condominiums and residenciales standing for the street), the Virgin Islands' estates and plots, and the villages of
 * Guam, the Northern Mariana Islands and American Samoa, many of whose addresses have no house number. Each reads
 * tokens (or the parsed line) and says what it found; nothing here knows the city or the reference data.
 */
import { RegionByName, SpanishStreetTypes, stateOfUnlistedZip, UnitDesignatorTable } from '../tables.js';
import { joinWords, makeToken, type Token } from '../tokenize.js';
import type { ParsedAddress } from './types.js';

/** The inhabited territories USPS serves with their own address forms (the freely associated states write US forms). */
const HOME_TERRITORIES: ReadonlySet<string> = new Set(['PR', 'VI', 'GU', 'MP', 'AS']);
/** Territories where a line of a village or estate without a house number is an address people write and mail reaches. */
const VILLAGE_TERRITORIES: ReadonlySet<string> = new Set(['VI', 'GU', 'MP', 'AS']);

/**
 * The territory the address is in, from the hint, or from the end of the text: a ZIP of a territory's range, else the
 * last state named (a code or name), skipping a trailing USA. Null for any other state, or where neither is written.
 */
export function territoryOfTokens(toks: readonly Token[], hint?: string): string | null {
  if (hint) return HOME_TERRITORIES.has(hint) ? hint : null;
  let k = toks.length - 1;
  while (k >= 0 && (toks[k].w === 'USA' || toks[k].w === 'US')) k--;
  const zip = k >= 0 ? /^(\d{5})(?:-?\d{4})?$/.exec(toks[k].w) : null;
  if (zip) {
    const state = stateOfUnlistedZip(zip[1]);
    if (state) return HOME_TERRITORIES.has(state) ? state : null;
    k--;
  }
  for (let n = Math.min(3, k + 1); n >= 1; n--) {
    const region = RegionByName.get(joinWords(toks, k - n + 1, k + 1));
    if (region) return HOME_TERRITORIES.has(region.code) ? region.code : null;
  }
  return null;
}

/**
 * The street words written before the name, as Pub 28 writes them in Puerto Rico (AVENIDA as AVE, CARRETERA as
 * CARR), and the words after which a number ends the street in the local form (`CALLE LUNA 123`). In the Virgin
 * Islands an estate is named so (`ESTATE THOMAS 12`).
 */
const PuertoRicoStreetWords: ReadonlyMap<string, string> = new Map([
  ...[...SpanishStreetTypes].map((w) => [w, w] as const), ['AVENIDA', 'AVE'], ['AVE', 'AVE'], ['AV', 'AVE'], ['CARRETERA', 'CARR'],
]);
const VirginIslandsStreetWords: ReadonlyMap<string, string> = new Map([['ESTATE', 'ESTATE']]);

/** Words written before a house number typed after the street (`CALLE 1 # 23`, `CALLE SOL NUM 23`, `PLOT 45`). */
const HOUSE_NUMBER_MARKS: ReadonlySet<string> = new Set(['#', 'NUM', 'NO', 'NUMERO', 'CASA']);

/**
 * Puerto Rico's (and a Virgin Islands estate's) house number written after the street: Pub 28 writes it first, without
 * the #, NUM or CASA before it (`CALLE 1 #23` -> `23 CALLE 1`; `CALLE LUNA 123` -> `123 CALLE LUNA`; `ESTATE THOMAS 12` ->
 * `12 ESTATE THOMAS`). A comma group that opens with the street word, has a name after it, and ends with the number
 * (and maybe a unit: `CALLE 1 #23 APTO 5`) is rewritten so. Outside the territories (no territory known) only the
 * first group, and only with a mark before the number: a bare number after `AVENUE B` may be a road's name.
 */
export function houseNumberAfterStreet(toks: Token[], territory: string | null): void {
  const words = territory === 'VI' ? VirginIslandsStreetWords : territory === 'PR' ? PuertoRicoStreetWords : null;
  for (let start = 0; start < toks.length; start++) {
    if (start > 0 && !toks[start].sep) continue;
    if (!(words ? words.has(toks[start].w) : SpanishStreetTypes.has(toks[start].w))) {
      if (!territory) return;
      continue;
    }
    let end = start + 1;
    while (end < toks.length && !toks[end].sep) end++;
    // (A unit may end the group after the number: `CALLE 1 # 23 APT 5`.)
    const unitAfter = end - start >= 5 && UnitDesignatorTable.get(toks[end - 2].w)?.requiresNumber === true && toks[end - 1].unitId;
    const at = unitAfter ? end - 3 : end - 1;
    const number = toks[at];
    if (!number?.number || /^(?:KM|MILE) /.test(number.w)) return;
    const marked = HOUSE_NUMBER_MARKS.has(toks[at - 1].w);
    // The street word and at least one word of its name before the number (or its mark): `CALLE 5` alone is a street.
    const nameEnd = marked ? at - 1 : at;
    if (nameEnd - start < 2 || (!marked && !territory)) return;
    toks.splice(nameEnd, at + 1 - nameEnd);
    toks.splice(start, 0, makeToken(number.w, toks[start].sep));
    toks[start + 1] = { ...toks[start + 1], sep: false };
    return;
  }
}

/** Words before a block number (`BLQ 199`, `BLOQUE 23`), and before the house number in its block (`CASA 31`, `LOTE 4`). */
const BLOCK_WORDS: ReadonlySet<string> = new Set(['BLQ', 'BLOQ', 'BLOQUE']);
const HOUSE_IN_BLOCK_MARKS: ReadonlySet<string> = new Set([...HOUSE_NUMBER_MARKS, 'LOTE']);
/** A house number written with a hyphen between its letter and its figures (`A-17`). */
const LETTER_DASH_NUMBER = /^([A-Z])-(\d{1,6})$/;

/**
 * Puerto Rico's house numbers as Pub 28 (section 29) writes them, before the number is moved first: a block and a house
 * number become one, hyphenated, without the words around them (`CALLE 19 BLQ 199 CASA 31` -> `CALLE 19 199-31`, so
 * `199-31 CALLE 19`); an alphanumeric one loses its hyphen (`A-17 CALLE AMAPOLA` -> `A17 CALLE AMAPOLA`) where it opens a
 * comma group before a word, or ends one that opens with a street word (`CALLE AMAPOLA A-17`), not after a unit's word.
 */
export function puertoRicoHouseNumbers(toks: Token[]): void {
  for (let k = 0; k + 2 < toks.length; k++) {
    if (!BLOCK_WORDS.has(toks[k].w) || !/^\d{1,5}$/.test(toks[k + 1].w) || toks[k + 1].sep || toks[k + 2].sep) continue;
    const marked = HOUSE_IN_BLOCK_MARKS.has(toks[k + 2].w) ? 1 : 0;
    const house = toks[k + 2 + marked];
    if (!house || house.sep || !/^\d{1,5}[A-Z]?$/.test(house.w)) continue;
    toks.splice(k, 3 + marked, makeToken(`${toks[k + 1].w}-${house.w}`, toks[k].sep));
    break;
  }
  let groupStart = 0;
  for (let k = 0; k < toks.length; k++) {
    if (toks[k].sep) groupStart = k;
    const m = LETTER_DASH_NUMBER.exec(toks[k].w);
    if (!m) continue;
    const opens = k === groupStart && k + 1 < toks.length && !toks[k + 1].sep;
    const closes = k > groupStart + 1 && (k + 1 === toks.length || toks[k + 1].sep) && PuertoRicoStreetWords.has(toks[groupStart].w) &&
      !UnitDesignatorTable.has(toks[k - 1].w);
    if (opens || closes) toks[k] = makeToken(m[1] + m[2], toks[k].sep);
  }
}

/**
 * A Virgin Islands plot number before the estate (`PLOT 45 ESTATE GROVE PLACE`): the house number, written without the
 * word (`45 ESTATE GROVE PL`), where a street or estate name follows it in its group.
 */
export function plotNumber(toks: Token[]): void {
  for (let start = 0; start + 2 < toks.length; start++) {
    if ((start > 0 && !toks[start].sep) || toks[start].w !== 'PLOT' || !toks[start + 1].number || toks[start + 2].sep) continue;
    const sep = toks[start].sep;
    toks.splice(start, 1);
    toks[start] = { ...toks[start], sep };
    return;
  }
}

/**
 * Puerto Rico's street words as Pub 28 writes them (`AVENIDA PONCE DE LEON` -> `AVE PONCE DE LEON`, `CARRETERA 2` ->
 * `CARR 2`), where they open a comma group or follow its house number.
 */
export function puertoRicoStreetWords(toks: Token[]): void {
  for (let start = 0; start < toks.length; start++) {
    if (start > 0 && !toks[start].sep) continue;
    const at = toks[start].number && start + 1 < toks.length && !toks[start + 1].sep ? start + 1 : start;
    const word = PuertoRicoStreetWords.get(toks[at].w);
    if (word && word !== toks[at].w && at + 1 < toks.length && !toks[at + 1].sep) toks[at] = makeToken(word, toks[at].sep);
  }
}

/** Puerto Rico's areas written above the street line as an urbanization is (`BO CAMARONES`, `SECT LA PRA`, `PARC FALU`). */
const AreaWords: ReadonlyMap<string, string> = new Map([
  ['BO', 'BO'], ['BARRIO', 'BO'], ['SECT', 'SECT'], ['SECTOR', 'SECT'], ['PARC', 'PARC'], ['PARCELAS', 'PARC'], ['COM', 'COM'],
  ['COMUNIDAD', 'COM'],
]);

/**
 * A barrio, sector, parcela or comunidad in its own comma group before the street line (`BO CAMARONES, CARR 169 KM
 * 2.3`): USPS files such areas as urbanization names, so it is the urbanization (`BO CAMARONES`), with its word as Pub
 * 28 abbreviates it, not text dropped before the line. Only where a street line (a number or a street word) follows.
 */
export function takeAreaName(toks: Token[]): string | null {
  const word = AreaWords.get(toks[0]?.w ?? '');
  if (!word) return null;
  let stop = 1;
  while (stop < toks.length && !toks[stop].sep) stop++;
  const next = toks[stop];
  if (stop === 1 || !next || !(next.number || PuertoRicoStreetWords.has(next.w))) return null;
  const name = `${word} ${joinWords(toks, 1, stop)}`;
  toks.splice(0, stop);
  toks[0] = { ...toks[0], sep: false };
  return name;
}

/** A Puerto Rico condominium or residencial named where a street would be (`COND EL MONTE NORTE`, `RES LAS MARGARITAS`). */
const BUILDING_AS_STREET = /^(?:(COND|CONDOMINIO|CONDOMINIUM)|(RES|RESIDENCIAL)) /;

/**
 * A delivery line that stands without a house number in a territory, written as Pub 28 writes it, or null: Puerto Rico's
 * condominium or residencial, whose name stands for the street (`CONDOMINIO EL MONTE NORTE APT 5B` -> COND …,
 * `RESIDENCIAL LAS MARGARITAS` -> RES …), and in the Virgin Islands, Guam, the Northern Marianas and American Samoa a
 * village or estate (`CHALAN KANOA`, `ESTATE BOVONI`, `TAFUNA`), which people write without a number (`village`: the territory),
 * where a city and ZIP follow it.
 */
export function lineWithoutNumber(p: ParsedAddress): { name: string; village: string | null } | null {
  if (p.primaryNumber || p.kind !== 'street' || !p.name) return null;
  const state = territoryOfParsed(p);
  if (state === 'PR') {
    const m = BUILDING_AS_STREET.exec(p.name);
    return m ? { name: `${m[1] ? 'COND' : 'RES'} ${p.name.slice(m[0].length)}`, village: null } : null;
  }
  return state && VILLAGE_TERRITORIES.has(state) && p.city && p.postalCode ? { name: p.name, village: state } : null;
}

/**
 * A village named alone before the city in Guam, the Northern Marianas, American Samoa or the Virgin Islands (`CHALAN
 * KANOA, SAIPAN, MP 96950`), which the parser set aside as text before a missing line: read as the delivery line, its
 * name kept, where it has no figures and a city and ZIP follow (a recipient's firm or name cannot be told from it; the
 * answer says it is unchecked).
 */
export function villageSetAside(p: ParsedAddress): void {
  const state = territoryOfParsed(p);
  if (p.kind !== 'none' || !p.recipient || /\d/.test(p.recipient) || !p.city || !p.postalCode || !state || !VILLAGE_TERRITORIES.has(state)) return;
  p.kind = 'street';
  p.name = p.recipient;
  p.recipient = null;
}

function territoryOfParsed(p: ParsedAddress): string | null {
  const state = p.state ?? (p.postalCode ? stateOfUnlistedZip(p.postalCode.slice(0, 5)) : undefined);
  return state && HOME_TERRITORIES.has(state) ? state : null;
}
