import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import {
  adjudicatedCorpus, failureBreakdown, FAILURE_KINDS, loadClassifiedFailures, loadCorpus, loadLabelDisputes, parsedFieldsOf, fsaPlacesTypedBack, notesReadWithoutData, otherScriptsTypedBack, rradRoundTrip, rradRoundTripPlacesHeldOut, scoreParser, zipCitiesAbbreviated, zipCitiesTypedBack, zipCityMisspelt,
  type RradForm,
} from '../../bench/address-corpus.js';
import { SHIPPED_DATA_DIR } from '../../src/validation/address/index.js';
import { parseNorthAmericanAddress } from '../../src/validation/address/parser/index.js';
import { engine, shippedData } from './shipped-engine.js';

/** The floor under the parse accuracy measured by `npm run bench:address`; raise it when the parser improves. */
const ACCURACY_FLOOR = 0.93;
/**
 * Floors under the share of embedded RRAD addresses typed back as one line that come out verified (99.4%; 99.4% without
 * ZIP; 97.9% whole when the place names come only from the other half of the file).
 */
const RRAD_VERIFIED_FLOOR = 0.99;
const RRAD_PLACES_HELD_OUT_VERIFIED_FLOOR = 0.97;
/**
 * The forms of bench/address-corpus.ts RRAD_FORMS, each with the floor under its verified share and what was measured
 * (2026-11-23; before the work that raised it in brackets).
 */
const RRAD_FORM_FLOORS: [form: RradForm, floor: number, measured: string][] = [
  ['without ZIP', 0.98, '99.5%'],
  ['no commas, no ZIP', 0.99, '99.8% (99.0%; 99.7% at the fourteenth session\'s start, before Berkeley\'s rear units `R C` before the town were read with the street the data holds)'],
  ['unit first', 0.97, '98.7% of the 479 addresses with a unit (83.7%; 96.2% at the start of the fifth session, 97.3% at the start of the eighth: Berkeley\'s `#R 16` first)'],
  ['street and ZIP', 0.99, '99.3% (98.5%): the reference data weighs in on where the street ends'],
  ['abbreviated', 0.99, '99.4% (98.5%): street types and directionals inside names meet'],
  ['street and city', 0.98, '99.5% (0%): a city of one state, or the street in one ZIP of the cities of that name'],
  ['street and state', 0.99, '99.5% (98.2%; 98.7% at the start of the fifth session): a street the files hold in the state makes `, MA` no Morocco, and `ALPINE VIEW CIRCLE, AK` no street in the town of Circle'],
  ['ZIP before the city, no commas', 0.98, '99.8% of 3,200 (12.6%, 2026-11-24, tenth session: the ZIP was read as a unit, `# 40219`, and the ZIP added from the city, `partial`)'],
  ['ZIP in a field before the state', 0.98, '99.8% of 9,600 (4.2%, 2026-11-24, eleventh session: `…, LOUISVILLE, 40219, KY` read the ZIP as a unit, `# 40219`, and MA, MD, AL, AR, GA after it as Morocco, Moldova, Albania, Argentina, Gabon)'],
  ['field labels', 0.98, '99.8% of 6,400 (none, 2026-11-24, eleventh session: 98.4% `corrected`, the right point but the labels read as words, `CITY LOUISVILLE STATE KY` dropped as a note and the city "corrected" from ZIP to LOUISVILLE)'],
  ['last line first, no comma', 0.98, '99.7% (0%, 2026-11-24, tenth session: the last line was dropped as a name, `invalid`)'],
  ['last line first', 0.98, '99.3% (0%: the last line was dropped as a name); most of the rest have no house number'],
  ['phone after ZIP', 0.99, '99.5% (0%: the number was read as a unit)'],
  ['note after the street, no commas', 0.98, '99.7% of 6,400, lettered streets, routes and streets the data holds without a type included (63.4%, 2026-11-24, fourteenth session: without a comma the note ran into the street name up to the town, `6007 APPLEGATE LN LEAVE AT BACK DOOR`, and without the ZIP the town was not found, `invalid`)'],
  ['note after the street', 0.98, '99.8% (0.4%: the note was read into the street name; 98.0% before streets without a type were cut too, 98.6% before a note before an empty city field was)'],
  ['ZIP or state in another field', 0.99, '99.8% (6.1%: the ZIP before the city was read as a unit, before the state as a foreign postal code; 99.6% at the start of the eighth session, before the ZIP before an empty city field was)'],
  ['county before the state', 0.99, '99.6% (10.2%: the county was read as the city, the city dropped)'],
  ['fields joined otherwise', 0.99, '99.8% of 12,880 (74.9%, 2026-11-24: tabs, semicolons and vertical bars were read, slashes were not: `6007 Applegate Lane/Louisville/KY/40219` was one word)'],
  ['unit first, no comma', 0.95, '96.9% of the 479 addresses with a unit (83.5%, 2026-11-24, tenth session: a letter alone before the house number, `B 74 SPRINGFIELD ST`, was dropped as a name)'],
  ['ZIP lost its zero', 0.97, '99.6% of 1,084 (49.9%, 2026-11-24, tenth session: with the state they were read, without it four figures after the city were a unit, `invalid`)'],
  ['street written another way', 0.97, '100% of 371 (0%: `St John`, `MLK`, `Hwy 98` were not found in the data; 7.8% before `17 Street`, `VT Route 113`, `CA-116` and `Road 97` were, 2026-11-24)'],
];
/** The forms whose right answer is `corrected` (a slip to mend), with the floor under that share and what was measured. */
const RRAD_CORRECTED_FLOORS: [form: RradForm, floor: number, measured: string][] = [
  ['street misspelt, no ZIP', 0.97, '99.6% of 1,856 (15.6%: only the ZIPs holding the street as typed were searched; 99.2% at the start of the seventh session)'],
  ['street misspelt, street and state', 0.97, '98.9% of 1,856 (0%: the street was looked for by its name as typed only; 98.5% at the start of the seventh session)'],
  ['no street type, no ZIP', 0.97, '99.4% (90.7%; 99.2% at the start of the eighth session, before `1413 G #STE 1`, G Street, was no number 1413G): the ZIPs with a street the words may mean are searched too'],
  ['street name split', 0.95, '99.1% of 229 (0%): a space in a word of the name (`Apple Gate`), or after a directional word (`South View`), is mended where the data holds the street'],
  ['ZIP digits swapped', 0.96, '96.6% (95.1%): the ZIPs of the places around the town and of the files\' towns are searched (99.2% until 2026-12-01, when a ZIP mended to one where the sample holds the street but not the number became `plausible`: no data confirms that address)'],
  ['no street type', 0.97, '99.4% (85.1%; 97.3% at the start of the fifth session, 99.2% at the start of the eighth): a type word ending the name (`RISING HILL`) or a directional read as the name (`EAST MISSION`), the number picking one street of several, and a unit letter after the name (`74 SPRINGFIELD B`)'],
  ['wrong street type', 0.97, '99.6% (95.8%): the number picks the street among those of the name'],
  ['unit number on the number', 0.97, '100% of 560 (50.4%, 2026-11-24: `203-1267 MARTIN ST` was read, `1267-203` was a number the data does not hold, `invalid`)'],
  ['street type misspelt', 0.97, '99.7% of 3,156 (94.8%, 2026-11-24, tenth session: a type of three letters, `ROD`, `LNE`, `WYA`, or one slip from two types, `CORT`, was not mended; nor a lettered or directional street\'s, `1745 T SRTEET SE`, `451 EAST SRTEET`)'],
  ['street name letter dropped', 0.97, '99.6% of 2,304 (86.9%, 2026-11-24, tenth session: a name of four letters so typed, `GREN RD`, `MAPE ST`, was not looked for, and one slip from two names of the ZIP was not mended where only one holds the number)'],
  ['street type glued to the name', 0.97, '99.4% of 3,170 (none, 2026-11-24, eleventh session: `6007 APPLEGATELANE`, the space left out, was a street no data holds, `plausible`)'],
  ['unit letter on the number', 0.97, '100% of 144 (0%, 2026-11-24: `600B W 19TH AVE` and `600-B` were numbers the data does not hold, `invalid`)'],
];
/** The forms that apply to some rows only: the fewest inputs each must still have (every other form: 2,900). */
const LEAST_CORRECTED_INPUTS: Partial<Record<RradForm, number>> = {
  'street type glued to the name': 3000,
  'unit letter on the number': 100, 'unit number on the number': 500, 'street name split': 200, 'street name letter dropped': 2000,
  'street misspelt, no ZIP': 1800, 'street misspelt, street and state': 1800,
};
/** A wrong town confirmed: 3.4% on 2026-11-23 (55.7% before: any place of the county, and the town kept beside a ZIP). */
const RRAD_WRONG_TOWN_VERIFIED_CEILING = 0.05;
const rradTsv = () => fs.readFileSync(new URL('rrad-addresses-us.tsv', SHIPPED_DATA_DIR), 'utf8');

describe('address parser accuracy on the labelled usaddress corpus', () => {
  const corpus = loadCorpus();
  const ours = scoreParser(corpus, (s) => parsedFieldsOf(parseNorthAmericanAddress(s, shippedData.postal)));

  it('When the 1,513 labelled addresses are parsed, then the share fully right does not fall', () => {
    expect(ours.correct / ours.total).toBeGreaterThanOrEqual(ACCURACY_FLOOR);
  });

  it('When the reviewed label disputes are applied, then each names a label the corpus really has', () => {
    expect(() => adjudicatedCorpus(corpus, loadLabelDisputes())).not.toThrow();
  });

  it('When the failures are compared with the reviewed list of them, then every failure is listed with its reason and every listed one still fails', () => {
    const { unclassified, fixed } = failureBreakdown(ours, loadClassifiedFailures());
    expect({ unclassified, fixed }).toEqual({ unclassified: [], fixed: [] });
    expect(loadClassifiedFailures().every((c) => c.kind in FAILURE_KINDS && c.why.length > 20)).toBe(true);
  });

  it('When compared with parse-address on the same strings, then ours is at least 6 points better', () => {
    const parseAddress = createRequire(import.meta.url)('parse-address') as { parseLocation(s: string): Record<string, string> | null };
    const theirs = scoreParser(corpus, (s) => {
      const p = parseAddress.parseLocation(s) ?? {};
      return {
        number: p.number ?? null, street: [p.prefix, p.street, p.type, p.suffix].filter(Boolean).join(' ') || null,
        unit: [p.sec_unit_type, p.sec_unit_num].filter(Boolean).join(' ') || null, city: p.city ?? null, state: p.state ?? null,
        zip: p.zip ?? null,
      };
    });
    expect(ours.correct / ours.total - theirs.correct / theirs.total).toBeGreaterThanOrEqual(0.06);
  });
});

describe('address engine round trip on the embedded delivery points', () => {
  it('When each RRAD address is typed back as one line, with and without commas, then the share verified does not fall', () => {
    const { statuses, inputs } = rradRoundTrip(engine, fs.readFileSync(new URL('rrad-addresses-us.tsv', SHIPPED_DATA_DIR), 'utf8'));
    expect(inputs).toBe(6440);
    expect((statuses.get('verified') ?? 0) / inputs).toBeGreaterThanOrEqual(RRAD_VERIFIED_FLOOR);
  });

  it.each(RRAD_FORM_FLOORS)('When each RRAD address is typed "%s", then the share verified stays at %s or more', (form, floor) => {
    const { statuses, inputs } = rradRoundTrip(engine, rradTsv(), form);
    // Every form applies to hundreds of the addresses (the other writings of a street's name to 371).
    expect(inputs).toBeGreaterThan(form === 'street written another way' ? 350 : 400);
    expect((statuses.get('verified') ?? 0) / inputs).toBeGreaterThanOrEqual(floor);
  });

  it.each(RRAD_CORRECTED_FLOORS)('When each RRAD address is typed with a "%s" slip, then the share corrected stays at %s or more', (form, floor) => {
    const { statuses, inputs } = rradRoundTrip(engine, rradTsv(), form);
    expect(inputs).toBeGreaterThan(LEAST_CORRECTED_INPUTS[form] ?? 2900);
    expect((statuses.get('corrected') ?? 0) / inputs).toBeGreaterThanOrEqual(floor);
  });

  it('When each RRAD address is typed with another house number of its street, then almost every answer is plausible, none denied', () => {
    // The embedded points are a sample: 3,215 of 3,216 `invalid` (dpv N) until 2026-11-24 (eleventh session), all `plausible` since.
    const { statuses, inputs } = rradRoundTrip(engine, rradTsv(), 'another house number');
    expect(inputs).toBeGreaterThan(2900);
    expect((statuses.get('plausible') ?? 0) / inputs).toBeGreaterThanOrEqual(0.99);
    expect(statuses.get('invalid') ?? 0).toBe(0);
  });

  it('When each RRAD address is typed with another town of its state, then ZIP and street correct it and almost none is confirmed', () => {
    const { statuses, inputs } = rradRoundTrip(engine, rradTsv(), 'wrong town');
    expect((statuses.get('verified') ?? 0) / inputs).toBeLessThanOrEqual(RRAD_WRONG_TOWN_VERIFIED_CEILING);
    expect((statuses.get('corrected') ?? 0) / inputs).toBeGreaterThanOrEqual(0.8);
  });

  it('When each RRAD address is typed as street and a misspelt city alone, then the city is corrected and placed', () => {
    // 99.4% at the fifth session's end (98.8% at its start: a street without a type, `90 VIA VERDE`, now reads as a US one
    // where the data holds the name; 95.1% earlier on 2026-11-23, 0% the day before): a name one slip from two (CROTFON: CROFTON and
    // CROTON) is decided by the street in the ZIPs of one, and `#APT 000003` no longer leaves a word behind.
    const { statuses, inputs } = rradRoundTrip(engine, rradTsv(), 'street and city misspelt');
    expect(inputs).toBeGreaterThan(3000);
    expect((statuses.get('corrected') ?? 0) / inputs).toBeGreaterThanOrEqual(0.98);
  });

  it('When the place names come only from the other half of the file, then the share verified does not fall', () => {
    const rest = { postal: shippedData.postal, countries: shippedData.countries };
    const { statuses, inputs } = rradRoundTripPlacesHeldOut(rest, fs.readFileSync(new URL('rrad-addresses-us.tsv', SHIPPED_DATA_DIR), 'utf8'));
    expect(inputs).toBe(3220);
    expect((statuses.get('verified') ?? 0) / inputs).toBeGreaterThanOrEqual(RRAD_PLACES_HELD_OUT_VERIFIED_FLOOR);
  });
});

describe('a city the embedded data does not know, against a slip of the ZIP\'s own city', () => {
  // 2026-11-24: one slip 96.4% corrected and none of 2,806 kept (2 before KEY and UPPER could open a city's name); two
  // slips 98.7% corrected and 24 of 2,718 kept (0 and 0 before unknown names were kept).
  it.each([
    [1, 0.95, 0.005],
    [2, 0.97, 0.02],
  ] as const)('When GeoNames ZIPs are typed with their city misspelt by %s slip(s), then at least %s are corrected and at most %s kept as unknown', (slips, correctedFloor, keptCeiling) => {
    const r = zipCityMisspelt(engine, slips);
    expect(r.inputs).toBeGreaterThan(2500);
    expect(r.corrected / r.inputs).toBeGreaterThanOrEqual(correctedFloor);
    expect(r.keptUnchecked / r.inputs).toBeLessThanOrEqual(keptCeiling);
  });
});

describe('every place of the embedded ZIP codes typed back as the city', () => {
  // 2026-11-24, ninth session: 13,828 of 13,828 in each form (the eighth left one: `100 main st north va`, NORTH read
  // as the street's directional without a ZIP); at the eighth session's start 2, 2 and 23 misses (KEY LARGO read as
  // unit KEY in LARGO, O FALLON as unit O, UPPER MARLBORO).
  it('When each third GeoNames ZIP is typed with its own place after a street, in three forms, then nearly every city and state is read right', () => {
    for (const r of zipCitiesTypedBack(engine)) {
      expect(r.inputs).toBeGreaterThan(13_000);
      expect(r.right / r.inputs).toBeGreaterThanOrEqual(0.999);
    }
  });
});

describe('every place of the embedded ZIP codes typed back shortened', () => {
  // 2026-11-24, tenth session: 7,654 / 7,643 / 7,646 of 7,654 (the misses: a city that is a directional alone, NORTH, VA
  // typed `N`; LAKE typed `LK`, a street type, after the street with no comma). At its start 7,545 / 7,498 / 6,709:
  // New England's NO (`NO ANDOVER`) and USPS's FLS, CTY, HBR, RPDS and the like were no short forms of city words.
  it('When each GeoNames place with a word people shorten is typed with it shortened, then nearly every city and state is read right', () => {
    for (const r of zipCitiesAbbreviated(engine)) {
      expect(r.inputs).toBe(7654);
      expect(r.right / r.inputs).toBeGreaterThanOrEqual(0.995);
    }
  });
});

describe('every Canadian FSA typed back with its place', () => {
  // 2026-11-24: 1,655 / 1,642 / 1,654 of 1,655 (1,648 / 1,609 / 1,643 at the session's start, when the parser knew no
  // Canadian place: `100 Main St, ST. ANDREWS, NB` was the street MAIN ST ST in ANDREWS).
  it('When each FSA is typed with its place after a street, in three forms, then street, province and status are right for 99% or more', () => {
    for (const r of fsaPlacesTypedBack(engine)) {
      expect(r.inputs).toBe(1655);
      expect(r.right / r.inputs).toBeGreaterThanOrEqual(0.99);
    }
  });
});

describe('addresses in other scripts than Latin', () => {
  // 2026-11-24: 395 / 396 / 396 of 396 right, the other one asked for (강원도: a province of both Koreas), none told
  // wrong; each city or district alone: 1,008 of 1,062 right, 54 asked for (names several regions share), none
  // wrong. At the session's start none was right: each was read as a US address, `invalid` (non-Latin script).
  it('When each region or city named in another script is typed as an address with no country, the country first or last, then its country is told and never another', () => {
    const floors: Record<string, [number, number]> = {
      'no country': [396, 0.99], 'country first': [396, 0.99], 'country last': [396, 0.99], 'a city or district alone': [1062, 0.93],
    };
    for (const r of otherScriptsTypedBack(engine)) {
      expect(r.inputs).toBe(floors[r.form][0]);
      expect(r.wrong).toBe(0);
      expect(r.right / r.inputs).toBeGreaterThanOrEqual(floors[r.form][1]);
    }
  });
});

describe('a delivery note after the street, read without address points', () => {
  // 2026-11-24: 96.4% of 9,660 (1.2% at the session's start: the note joined the street's name, `MAIN ST RING BELL`).
  it('When each RRAD address is typed with a note run on from its street, then the parser alone reads the same street and city for 95% or more', () => {
    const r = notesReadWithoutData(shippedData.postal, rradTsv());
    expect(r.inputs).toBe(9660);
    expect(r.same / r.inputs).toBeGreaterThanOrEqual(0.95);
  });
});
