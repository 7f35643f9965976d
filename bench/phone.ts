/**
 * npm run bench:phone — agreement with Google's libphonenumber (validity, type) and offline throughput on one core.
 *   --seconds N   length of each throughput run (default 2)
 *   --json        one JSON object instead of text
 */
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createPhoneEngine, loadShippedPhoneData } from '../src/validation/phone/index.js';
import { CARRIER_PREFIXES_FILE, NANP_OPERATORS_FILE } from '../src/validation/phone/shipped-phone-data.js';
import { measureAgreement, readReferenceNumbers, readReferenceVintageMetadata } from './phone-agreement.js';

const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 2;
const asJson = process.argv.includes('--json');

const loadStart = performance.now();
const data = loadShippedPhoneData();
const loadMs = performance.now() - loadStart;
const engine = createPhoneEngine({ data });
const referenceVintageEngine = createPhoneEngine({ data: { ...data, metadata: readReferenceVintageMetadata() } });
const numbers = readReferenceNumbers();

const shipped = measureAgreement(numbers, (e164) => engine.validateOffline(e164));
const sameVintage = measureAgreement(numbers, (e164) => referenceVintageEngine.validateOffline(e164));

// Inputs as users type them: the reference E.164 numbers, plus national and decorated forms of the valid ones.
const inputs: [string, string | undefined][] = numbers.map((number) => [number.e164, undefined]);
for (const number of numbers.slice(0, 1500)) {
  const result = engine.validateOffline(number.e164);
  if (result.national && result.country) inputs.push([result.national, result.country]);
}

/**
 * Numbers per second of CPU time used by this process (user + system, GC threads included, so conservative): the
 * figure "on one core" that other work on the machine does not distort; wall-clock rate alongside.
 */
function throughput(run: (input: string, country: string | undefined) => unknown): { perCpuSecond: number; perWallSecond: number } {
  let count = 0;
  const startWall = performance.now();
  const startCpu = process.cpuUsage();
  const end = startWall + seconds * 1000;
  while (performance.now() < end) {
    for (const [input, country] of inputs) run(input, country);
    count += inputs.length;
  }
  const cpu = process.cpuUsage(startCpu);
  return {
    perCpuSecond: Math.round(count / ((cpu.user + cpu.system) / 1e6)),
    perWallSecond: Math.round(count / ((performance.now() - startWall) / 1000)),
  };
}

throughput((input, country) => engine.validateOffline(input, country)); // warm-up
const offline = throughput((input, country) => engine.validateOffline(input, country));
const typeOnly = throughput((input, country) => engine.offlineType(input, country));

const dataBytes = Object.fromEntries([NANP_OPERATORS_FILE, CARRIER_PREFIXES_FILE].map((file) =>
  [file, statSync(fileURLToPath(new URL(`../src/validation/phone/data/${file}`, import.meta.url))).size]));

const percent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;
const report = {
  numbers: shipped.numbers,
  validity_agreement: percent(shipped.validityAgreement),
  type_agreement: percent(shipped.typeAgreement),
  same_metadata_vintage: { validity_agreement: percent(sameVintage.validityAgreement), type_agreement: percent(sameVintage.typeAgreement) },
  numbers_per_second: offline.perCpuSecond,
  numbers_per_wall_second: offline.perWallSecond,
  offline_type_per_second: typeOnly.perCpuSecond,
  data_load_ms: Math.round(loadMs),
  data_bytes: dataBytes,
  disagreements: shipped.disagreements.map(({ number, status, type }) =>
    `${number.e164} (${number.region}, ${number.kind}): Google ${number.expectValid ? `valid ${number.expectType}` : 'invalid'}, engine ${status} ${type}`),
};

if (asJson) {
  console.log(JSON.stringify(report));
} else {
  console.log(`phone agreement with Google libphonenumber on ${report.numbers} numbers (numbers-dev.jsonl):`);
  console.log(`  validity ${report.validity_agreement}   type ${report.type_agreement}   (shipped metadata, libphonenumber-js max)`);
  console.log(`  validity ${report.same_metadata_vintage.validity_agreement}   type ${report.same_metadata_vintage.type_agreement}   (metadata 9.0.40, the reference's vintage)`);
  for (const line of report.disagreements) console.log(`    ${line}`);
  console.log(`offline speed, one core: ${report.numbers_per_second} numbers per CPU second (validateOffline: type, e164, national, carrier; ${report.numbers_per_wall_second}/s by the wall clock); offlineType ${report.offline_type_per_second}/CPU s`);
  console.log(`shipped data: ${Object.entries(dataBytes).map(([file, bytes]) => `${file} ${(bytes / 1024).toFixed(0)} KiB`).join(', ')}; loaded in ${report.data_load_ms} ms`);
}
