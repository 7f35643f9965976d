/**
 * What the answer changed, part by part (docs/api.md#what-changed), as Google's Address Validation verdict says which
 * components were inferred, replaced, spell-corrected or left unconfirmed: built after the fact from what the engine
 * already said, its components, footnotes and evidence, and from the text as written. Nothing here reads data or
 * decides anything the engine did not: a footnote `B#: city corrected from LOUISVILE to LOUISVILLE` is a city
 * spell-corrected, `A#: ZIP code 40219 added` a ZIP code inferred, `S#: the unit given could not be confirmed` a unit
 * unconfirmed. Also the `missing_unit` signal (the building has units and none was given: USPS DPV `D`) and a match
 * score. Pure: the same answer and text give the same changes.
 */
import {
  CHANGED_COMPONENT_NAMES, COMPONENT_CHANGES,
  type AddressEvidence, type AddressResult, type ChangedComponentName, type ComponentChange, type ComponentChangeEntry,
} from '../types.js';

// The vocabulary and the entry's shape are declared with the answer's schema (../types.ts).
export { CHANGED_COMPONENT_NAMES, COMPONENT_CHANGES };
export type { ChangedComponentName, ComponentChange, ComponentChangeEntry };

/** A footnote's part and what it did to it: `corrected from X to Y`, `X added`, `replaced by`. */
const FOOTNOTE_PARTS: { pattern: RegExp; name: ChangedComponentName; change: 'corrected' | 'inferred' | 'replaced' }[] = [
  { pattern: /^A#: ZIP code corrected from (\S+) to/, name: 'postal_code', change: 'corrected' },
  { pattern: /^A#: ZIP code \S+ added/, name: 'postal_code', change: 'inferred' },
  { pattern: /^A#: ZIP\+4 add-on (\S+) replaced by/, name: 'plus4', change: 'replaced' },
  { pattern: /^B#: city corrected from (.+?) to /, name: 'city', change: 'corrected' },
  { pattern: /^B#: city .+ added from/, name: 'city', change: 'inferred' },
  { pattern: /^B#: (?:state|province) corrected from (\S+) to/, name: 'state', change: 'corrected' },
  { pattern: /^B#: (?:state|province|state, province or (?:prefecture|area)) .+ added from/, name: 'state', change: 'inferred' },
  { pattern: /^B#: country \S+ told from/, name: 'country', change: 'inferred' },
  { pattern: /^B#: country (.+?) read as /, name: 'country', change: 'corrected' },
  { pattern: /^M#: street corrected from (.+?) to /, name: 'street', change: 'corrected' },
  { pattern: /^M#: the range (\S+) read as number/, name: 'primary_number', change: 'replaced' },
];

/** Optimal string alignment distance: a letter added, dropped, changed, or two swapped each count one. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * A spelling slip: the same words, each differing one a word of four letters or more within one slip (two from seven
 * letters): `LOUISVILE` → `LOUISVILLE`, `DUNMSUIR LN` → `DUNSMUIR LN`. `40218` → `40219`, `KY` → `IN` or `ST` → `TER`
 * are a part replaced by another.
 */
function isSpelling(from: string, to: string): boolean {
  const a = from.toUpperCase().split(/\s+/);
  const b = to.toUpperCase().split(/\s+/);
  if (a.length !== b.length) return false;
  return a.every((w, i) => w === b[i] || (/^[A-Z]{4,}$/.test(b[i]) && distance(w, b[i]) <= (b[i].length >= 7 ? 2 : 1)));
}

/** A letter or a figure of any script: what a whole word may not touch. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * The value as the text writes it, whole words, any case; null when the text writes it otherwise (Lane for LN).
 * (Scanned by hand: a RegExp made per value with Unicode classes cost some 120 µs to compile, 750 µs an answer.)
 */
function asWritten(text: string, value: string): string | null {
  const words = value.trim().split(/\s+/).filter(Boolean).map((w) => w.toLowerCase());
  if (!words.length) return null;
  const wordAt = (at: number, word: string) => text.slice(at, at + word.length).toLowerCase() === word;
  for (let start = 0; start < text.length; start++) {
    if (start > 0 && WORD_CHAR.test(text[start - 1])) continue;
    let at = start;
    let matched = true;
    for (const [i, word] of words.entries()) {
      if (i > 0) {
        const before = at;
        while (at < text.length && SPACE.test(text[at])) at++;
        if (at === before) { matched = false; break; }
      }
      if (!wordAt(at, word)) { matched = false; break; }
      at += word.length;
    }
    if (matched && !(at < text.length && WORD_CHAR.test(text[at]))) return text.slice(start, at);
  }
  return null;
}

const STREET_EVIDENCE: readonly AddressEvidence[] = ['delivery_point', 'address_point'];

/** Each part the answer has, with its change. */
export function componentChanges(result: AddressResult, text: string): ComponentChangeEntry[] {
  if (result.status === 'invalid' && !result.standardized) return [];
  const c = result.components;
  const street = [c.street_predirection, c.street_name, c.street_suffix, c.street_postdirection].filter(Boolean).join(' ');
  const unit = [c.secondary_designator, c.secondary_number].filter(Boolean).join(' ');
  const values: [ChangedComponentName, string | null][] = [
    ['primary_number', c.primary_number], ['street', street || null], ['unit', unit || null], ['city', c.city],
    ['state', c.state], ['postal_code', c.postal_code], ['plus4', c.plus4], ['country', c.country],
  ];
  const said = new Map<ChangedComponentName, { change: ComponentChange; input: string | null }>();
  for (const note of result.footnotes) {
    for (const { pattern, name, change } of FOOTNOTE_PARTS) {
      const m = pattern.exec(note);
      if (!m || said.has(name)) continue;
      const from = m[1] ?? null;
      const value = values.find(([n]) => n === name)?.[1] ?? '';
      said.set(name, {
        change: change === 'corrected' ? (from && isSpelling(from, value) ? 'spell_corrected' : 'replaced') : change,
        input: change === 'inferred' ? null : from,
      });
    }
  }
  // What no reference data confirmed: the street's parts below an address or delivery point, the unit a DPV `S` left.
  const streetUnconfirmed = !STREET_EVIDENCE.includes(result.evidence);
  const unitUnconfirmed = result.footnotes.some((f) => f.startsWith('S#: the unit given could not be confirmed'));
  return values.flatMap(([name, value]) => {
    if (!value) return [];
    const known = said.get(name);
    if (known) return [{ name, value, input: known.input, change: known.change }];
    const unconfirmed = (name === 'unit' && (unitUnconfirmed || streetUnconfirmed))
      || ((name === 'primary_number' || name === 'street') && streetUnconfirmed && result.evidence !== 'street')
      || (name === 'primary_number' && result.evidence === 'street');
    // A country or ZIP+4 add-on the text does not write: read from the last line, or given by the reference data.
    const input = asWritten(text, value);
    return [{ name, value, input, change: unconfirmed ? 'unconfirmed' : (name === 'country' || name === 'plus4') && !input ? 'inferred' : 'none' }];
  });
}

/** USPS DPV `D` (`H#`): the building has units and none was given; the person should add theirs. */
export const missingUnit = (result: Pick<AddressResult, 'dpv' | 'footnotes'>): boolean =>
  result.dpv === 'D' || result.footnotes.some((f) => f.startsWith('H#:'));

/** How far the evidence reaches, before the changes made to reach it. */
const EVIDENCE_SCORE: Record<AddressEvidence, number> = {
  delivery_point: 1, address_point: 0.95, street_range: 0.75, street: 0.6, postal_code: 0.4, none: 0.2,
};
const CHANGE_COST: Record<ComponentChange, number> = { none: 0, inferred: 0.05, spell_corrected: 0.05, replaced: 0.1, unconfirmed: 0 };

/**
 * 0 to 1, two decimals: the evidence's score (`delivery_point` 1 … `none` 0.2), less 0.05 for each part inferred or
 * spell-corrected and 0.1 for each part replaced, less 0.1 for a missing unit; 0 when `invalid`, at most 0.5 when `ambiguous`.
 */
export function matchScore(result: AddressResult, changes: readonly ComponentChangeEntry[]): number {
  if (result.status === 'invalid') return 0;
  let score = EVIDENCE_SCORE[result.evidence] - changes.reduce((sum, c) => sum + CHANGE_COST[c.change], 0);
  if (missingUnit(result)) score -= 0.1;
  if (result.status === 'ambiguous') score = Math.min(score, 0.5);
  return Math.round(Math.max(0, Math.min(1, score)) * 100) / 100;
}

/** The answer with what changed, its missing-unit signal and its match score (added last: the answer's order is kept). */
export function withChanges(result: AddressResult, text: string): AddressResult {
  const changes = componentChanges(result, text);
  return { ...result, changes, missing_unit: missingUnit(result), match_score: matchScore(result, changes) };
}
