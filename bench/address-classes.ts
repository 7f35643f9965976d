/**
 * Generated inputs for the classes of mistakes an outside check found (issue #34), one bench row each: how many
 * answers read them right. `npm run bench:address -- --against REV` prints the same rows for the engine at REV.
 */
import fs from 'node:fs';
import { type AddressEngineWithSync, SHIPPED_DATA_DIR } from '../src/validation/address/index.js';

const deadline = Number.MAX_SAFE_INTEGER;

interface ZipRow {
  zip: string;
  state: string;
  city: string;
  county: string;
}

function zipRows(): ZipRow[] {
  return fs.readFileSync(new URL('us-zip-codes.tsv', SHIPPED_DATA_DIR), 'utf8').trim().split('\n').map((line) => {
    const [zip, state, city, county] = line.split('\t');
    return { zip, state, city, county };
  }).filter((r) => r.city);
}

export interface AddressClass {
  name: string;
  /** What a right answer is. */
  right: string;
  /** How many of the inputs the engine answers right. */
  run(engine: AddressEngineWithSync): { right: number; inputs: number };
}

function count<T>(cases: readonly T[], ok: (c: T) => boolean): { right: number; inputs: number } {
  let right = 0;
  for (const c of cases) if (ok(c)) right++;
  return { right, inputs: cases.length };
}

/** Every 7th ZIP typed with the place of another ZIP of its county (`100 Main St, SHAWNEE MISSION, KS 66202`). */
function zipWithCountyNeighbour(): { input: string; zip: string }[] {
  const rows = zipRows();
  const byCounty = new Map<string, ZipRow[]>();
  for (const r of rows) if (r.county) byCounty.set(`${r.state}|${r.county}`, [...(byCounty.get(`${r.state}|${r.county}`) ?? []), r]);
  const out: { input: string; zip: string }[] = [];
  rows.forEach((r, i) => {
    if (i % 7 !== 0 || !r.county) return;
    const other = byCounty.get(`${r.state}|${r.county}`)!.find((o) => o.city !== r.city && !/\d/.test(o.city));
    if (other) out.push({ input: `100 Main St, ${other.city}, ${r.state} ${r.zip}`, zip: r.zip });
  });
  return out;
}

const ROUTES = [['US', 'US HIGHWAY'], ['State Hwy', 'STATE HIGHWAY'], ['SR', 'STATE ROUTE'], ['Hwy', 'HIGHWAY'], ['County Rd', 'COUNTY ROAD']] as const;

/** Routes written number first with a highway word after (`250 US 101 Hwy, ARCATA, CA 95521`), every 40th ZIP. */
function routesNumberFirst(): { input: string; route: string }[] {
  const out: { input: string; route: string }[] = [];
  zipRows().forEach((r, i) => {
    if (i % 40 !== 0) return;
    const [typed, standard] = ROUTES[i % ROUTES.length];
    const number = 1 + (i % 399);
    const after = ['', ' N', ' Ste 2'][i % 3];
    out.push({ input: `${100 + (i % 900)} ${typed} ${number} Hwy${after}, ${r.city}, ${r.state} ${r.zip}`, route: `${standard} ${number}` });
  });
  return out;
}

/**
 * Each place named after a directional (`NORTH LITTLE ROCK`) typed with the directional abbreviated after the street's
 * comma (`400 Pine Ave, N. Little Rock, AR 72117`), with its own ZIP and with a ZIP of the place without the directional
 * (`N. MIAMI, FL 33161`, a ZIP GeoNames names MIAMI), where the state has that place.
 */
function directionalTowns(): { input: string; city: string }[] {
  const rows = zipRows();
  const places = new Map<string, ZipRow>();
  for (const r of rows) if (!places.has(`${r.state}|${r.city}`)) places.set(`${r.state}|${r.city}`, r);
  const out: { input: string; city: string }[] = [];
  for (const r of places.values()) {
    const m = /^(NORTH|SOUTH|EAST|WEST) (.+)$/.exec(r.city);
    if (!m) continue;
    const short = `${m[1][0]}. ${m[2]}`;
    out.push({ input: `400 Pine Ave, ${short}, ${r.state} ${r.zip}`, city: r.city });
    const plain = places.get(`${r.state}|${m[2]}`);
    if (plain) out.push({ input: `400 Pine Ave, ${short}, ${r.state} ${plain.zip}`, city: r.city });
  }
  return out;
}

const TOWN_DIRECTIONALS = [['N.', 'NORTH'], ['So.', 'SOUTH'], ['E', 'EAST'], ['W.', 'WEST'], ['S', 'SOUTH'], ['No.', 'NORTH']] as const;

/**
 * Every 12th place GeoNames lists, typed with a directional it does not list before it (`400 Pine Ave, N. Miami, FL
 * 33161`: North Miami, a town GeoNames, one place per ZIP, names MIAMI), with the place's ZIP and without a ZIP (the
 * abbreviations in turn: `N.`, `So.`, `E`, `W.`, `S`; New England's `No.` without a ZIP only).
 */
function directionalTownsUnlisted(): { input: string; city: string }[] {
  const rows = zipRows();
  const places = new Map<string, ZipRow>();
  for (const r of rows) if (!places.has(`${r.state}|${r.city}`)) places.set(`${r.state}|${r.city}`, r);
  const out: { input: string; city: string }[] = [];
  let i = 0;
  for (const r of places.values()) {
    if (/^(NORTH|SOUTH|EAST|WEST|N|S|E|W) |\d/.test(r.city) || i++ % 12 !== 0) continue;
    const [typed, spelt] = TOWN_DIRECTIONALS[i % TOWN_DIRECTIONALS.length];
    if (places.has(`${r.state}|${spelt} ${r.city}`)) continue;
    const town = `${typed} ${r.city[0]}${r.city.slice(1).toLowerCase()}`;
    if (typed !== 'No.') out.push({ input: `400 Pine Ave, ${town}, ${r.state} ${r.zip}`, city: `${spelt} ${r.city}` });
    out.push({ input: `400 Pine Ave, ${town}, ${r.state}`, city: `${spelt} ${r.city}` });
  }
  return out;
}

const NAMED_BY_WORDS = [['Union', 'UNION'], ['Park', 'PARK'], ['Plaza', 'PLAZA'], ['Center', 'CENTER'], ['Key', 'KEY'], ['Court', 'COURT'],
  ['Square', 'SQUARE'], ['Pier', 'PIER']] as const;
const TYPES = [['St', 'ST'], ['Ave', 'AVE'], ['Rd', 'RD']] as const;

/** Streets named by a suffix or unit word, after a directional or none, with a bare unit number (`455 E Union St 14`). */
function streetsNamedBySuffixWords(): { input: string; name: string; suffix: string; unit: string }[] {
  const out: { input: string; name: string; suffix: string; unit: string }[] = [];
  for (const [typed, name] of NAMED_BY_WORDS) {
    for (const dir of ['E ', 'W ', 'N ', 'S ', '']) {
      for (const [type, suffix] of TYPES) {
        const unit = String(2 + out.length % 40);
        out.push({ input: `455 ${dir}${typed} ${type} ${unit}, Pasadena, CA 91101`, name, suffix, unit });
      }
    }
  }
  return out;
}

const WRITTEN_ABROAD = [
  ["1 Queen's Road Central, Central, Hong Kong", 'HK'], ['200 Nathan Road, Tsim Sha Tsui, Kowloon, Hong Kong', 'HK'],
  ['Avenida de Almeida Ribeiro 1, Macau', 'MO'], ['Rua de S. Paulo 10, Macao', 'MO'],
  ['No. 7, Section 5, Xinyi Road, Xinyi District, Taipei City 110, Taiwan', 'TW'], ['No. 100, Zhongshan Road, Taichung 400, Taiwan', 'TW'],
] as const;

/** Addresses that name their territory (Hong Kong, Macao, Taiwan), each with five hints a CRM may hold. */
function territoriesAgainstHint(): { input: string; hint: string; country: string }[] {
  return WRITTEN_ABROAD.flatMap(([input, country]) => ['CN', 'US', 'GB', 'DE', 'FR'].filter((h) => h !== country).map((hint) => ({ input, hint, country })));
}

export const ADDRESS_CLASSES: readonly AddressClass[] = [
  {
    name: '1. ZIP with another place of its county',
    right: 'the ZIP kept, not invalid',
    run: (e) => count(zipWithCountyNeighbour(), (c) => {
      const a = e.validateSync(c.input, { deadline });
      return a.components.postal_code === c.zip && a.status !== 'invalid';
    }),
  },
  {
    name: '2. route number first, highway word after',
    right: 'the route once, no HWY after its number',
    run: (e) => count(routesNumberFirst(), (c) => {
      const s = e.validateSync(c.input, { deadline }).standardized ?? '';
      return s.includes(c.route) && !new RegExp(`${c.route} HWY\\b`).test(s);
    }),
  },
  {
    name: '3. directional opening a town GeoNames lacks, after the comma',
    right: 'the town typed, spelt out, none on the street',
    run: (e) => count(directionalTownsUnlisted(), (c) => {
      const a = e.validateSync(c.input, { deadline });
      return a.components.city === c.city && a.components.street_postdirection === null && a.status !== 'invalid';
    }),
  },
  {
    name: '3. directional opening a town GeoNames knows, after the comma',
    right: 'the town with its directional, none on the street',
    run: (e) => count(directionalTowns(), (c) => {
      const a = e.validateSync(c.input, { deadline });
      return a.components.city === c.city && a.components.street_postdirection === null;
    }),
  },
  {
    name: '4. street named by a suffix or unit word, bare unit',
    right: 'name, type and unit number',
    run: (e) => count(streetsNamedBySuffixWords(), (c) => {
      const { components: k } = e.validateSync(c.input, { deadline });
      return k.street_name === c.name && k.street_suffix === c.suffix && k.secondary_number === c.unit;
    }),
  },
  {
    name: '5. territory with its own post named against the hint',
    right: 'the written country',
    run: (e) => count(territoriesAgainstHint(), (c) => e.validateSync(c.input, { country: c.hint, deadline }).country === c.country),
  },
];
