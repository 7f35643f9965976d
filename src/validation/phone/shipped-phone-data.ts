/** Loads the indexes committed under ./data (regenerate with `npm run data:phone`) and libphonenumber-js max metadata. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { MetadataJson } from 'libphonenumber-js/core';
import maxMetadata from 'libphonenumber-js/metadata.max.json';
import { decodeNanpOperatorIndex } from './nanp-operator-index.js';
import { carrierPrefixIndexFromJson } from './carrier-prefix-index.js';
import type { PhoneData } from './phone-engine.js';

export const NANP_OPERATORS_FILE = 'nanp-operators.bin.gz';
export const CARRIER_PREFIXES_FILE = 'carrier-prefixes.json.gz';

const dataDirectory = new URL('./data/', import.meta.url);

let loaded: PhoneData | undefined;

/** Reads and decodes the files on the first call (about 80 ms); later calls share the same read-only data. */
export function loadShippedPhoneData(): PhoneData {
  loaded ??= readShippedPhoneData();
  return loaded;
}

function readShippedPhoneData(): PhoneData {
  const read = (file: string) => gunzipSync(readFileSync(new URL(file, dataDirectory)));
  return {
    metadata: maxMetadata as unknown as MetadataJson,
    nanpOperators: decodeNanpOperatorIndex(read(NANP_OPERATORS_FILE)),
    carrierPrefixes: carrierPrefixIndexFromJson(JSON.parse(read(CARRIER_PREFIXES_FILE).toString('utf8'))),
  };
}
