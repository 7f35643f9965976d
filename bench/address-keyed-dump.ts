/**
 * The keyed dump of the address engine: every answer to every input the address bench and tests type, one JSON line
 * per input, keyed by the input (and the country hint, and which reading: `engine`, `parse`, `held-out`), so that a
 * change meant to keep behaviour is shown to keep it, and a change meant to mend a class shows exactly which answers
 * moved.
 *
 *     npx tsx bench/address-keyed-dump.ts --out /tmp/after.json            # write the dump
 *     npx tsx bench/address-keyed-dump.ts --against HEAD [--out …]         # and compare with the code at HEAD, in one run
 *
 * Inputs: the usaddress corpus (engine and parser), every RRAD form of bench/address-corpus.ts, the RRAD points typed
 * with places held out and with notes (parser alone), the GeoNames, FSA and other-script tables, and every quoted
 * string of test/address/*.test.ts (with the country a `check(…, 'XX')` gives it, and without).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  fsaPlacesTypedBack, loadCorpus, otherScriptsTypedBack, RRAD_FORMS, rradRoundTrip, zipCitiesAbbreviated, zipCitiesTypedBack, zipCityMisspelt,
} from './address-corpus.js';
import { checkOut, moduleAt } from './git-worktree.js';
import { addressPointOf } from '../src/validation/address/reference-records.js';
import type { AddressEngineWithSync } from '../src/validation/address/index.js';

type Engine = typeof import('../src/validation/address/index.js');
type Parser = typeof import('../src/validation/address/parser/index.js');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const deadline = Number.MAX_SAFE_INTEGER;

/** Each quoted string of the address tests that may be an address, with the country hint written beside it. */
function testInputs(): [input: string, country: string | undefined][] {
  const out: [string, string | undefined][] = [];
  const dir = path.join(ROOT, 'test/address');
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort()) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1(?:\s*,\s*'([A-Z]{2})')?/g)) {
      if (m[1] === '`' && m[2].includes('${')) continue;
      const input = m[2].replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(.)/g, '$1');
      if (input.length < 4 || !/\d|,/.test(input)) continue;
      out.push([input, undefined]);
      if (m[3]) out.push([input, m[3]]);
    }
  }
  return out;
}

/** Every answer of the engine and parser in `dir` (a checkout of the repository), keyed. */
async function dump(dir: string): Promise<Map<string, string>> {
  const engineModule = (await import(pathToFileURL(path.join(dir, 'src/validation/address/index.ts')).href)) as Engine;
  const parser = (await import(moduleAt(dir, 'src/validation/address/parser/index.ts', 'src/validation/address/parser.ts'))) as Parser;
  const data = engineModule.loadShippedAddressData();
  const engine = engineModule.createAddressEngine(data);
  const out = new Map<string, string>();
  const recording = (prefix: string, e: AddressEngineWithSync): AddressEngineWithSync => ({
    ...e,
    validateSync(input, options) {
      const answer = e.validateSync(input, options);
      out.set(`${prefix}|${options.country ?? ''}|${input}`, JSON.stringify(answer));
      return answer;
    },
  });
  const recorded = recording('engine', engine);
  const parse = (input: string) => out.set(`parse||${input}`, JSON.stringify(parser.parseNorthAmericanAddress(input, data.postal)));

  for (const { input } of loadCorpus()) {
    recorded.validateSync(input, { deadline });
    parse(input);
  }
  const rradTsv = fs.readFileSync(new URL('rrad-addresses-us.tsv', engineModule.SHIPPED_DATA_DIR), 'utf8');
  for (const form of RRAD_FORMS) rradRoundTrip(recorded, rradTsv, form);
  // rradRoundTripPlacesHeldOut's engines (built inside it), and notesReadWithoutData's parses, typed here the same way.
  const rows = [...engineModule.rradRows(rradTsv)];
  for (const parity of [0, 1]) {
    const reference = new engineModule.ReferenceIndex();
    rows.forEach((r, i) => {
      const point = addressPointOf({ street: r.address1, unit: r.address2 || undefined, postalCode: r.zip, country: 'US', city: r.city });
      if (!('rejected' in point)) reference.addPoint(i % 2 === parity ? { ...point, city: null } : point);
    });
    const heldOut = recording(`held-out ${parity}`, engineModule.createAddressEngine({ ...data, reference }));
    rows.forEach((r, i) => {
      if (i % 2 === parity) heldOut.validateSync(`${r.address2 ? `${r.address1} ${r.address2}` : r.address1}, ${r.city}, ${r.state} ${r.zip}`, { deadline });
    });
  }
  for (const r of rows) {
    const unit = r.address2 ? ` ${r.address2}` : '';
    parse(`${r.address1}${unit}, ${r.city}, ${r.state} ${r.zip}`);
    for (const note of ['Leave At Back Door', 'Ring Bell', 'Behind The Church']) parse(`${r.address1} ${note}${unit}, ${r.city}, ${r.state} ${r.zip}`);
  }
  zipCityMisspelt(recorded, 1);
  zipCityMisspelt(recorded, 2);
  zipCitiesTypedBack(recorded);
  zipCitiesAbbreviated(recorded);
  fsaPlacesTypedBack(recorded);
  otherScriptsTypedBack(recorded);
  for (const [input, country] of testInputs()) {
    recorded.validateSync(input, { country, deadline });
    if (!country) parse(input);
  }
  return out;
}

function write(file: string, answers: Map<string, string>): void {
  const keys = [...answers.keys()].sort();
  fs.writeFileSync(file, `{\n${keys.map((k) => `${JSON.stringify(k)}: ${answers.get(k)}`).join(',\n')}\n}\n`);
}

const flag = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  if (at >= 0 && !process.argv[at + 1]) throw new Error(`--${name} needs a value`);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const outFile = flag('out');
const against = flag('against');

const now = await dump(ROOT);
if (outFile) write(outFile, now);
console.log(`${now.size} answers${outFile ? ` written to ${outFile}` : ''}`);
if (against) {
  const then = await dump(checkOut(against));
  const changed = [...new Set([...now.keys(), ...then.keys()])].filter((k) => now.get(k) !== then.get(k)).sort();
  console.log(`${changed.length} of ${now.size} answers differ from ${against}${changed.length ? ':' : ''}`);
  for (const k of changed.slice(0, Number(flag('show') ?? 200))) {
    console.log(`\n${k}\n  at ${against}: ${then.get(k) ?? '(no such input)'}\n  now: ${now.get(k) ?? '(no such input)'}`);
  }
}
