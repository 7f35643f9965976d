/** The reference file readers by format name (`reference import --format FORMAT FILE`). */
import { readNationalAddressRegister, readOpenAddresses } from './address-points.js';
import { readNationalAddressDatabase } from './nad.js';
import type { ByteSource, ReadOptions, ReferenceFormat, ReferenceRecord } from './records.js';
import { readTigerAddressFeatures } from './tiger.js';
import { readUspsCityState, readUspsZip4 } from './usps.js';

export {
  REFERENCE_FORMATS, SOURCE_OF_FORMAT, type ReadFrom, type ReferenceFormat, type ReferenceRecord, type CityNameRecord,
} from './records.js';

export const ReferenceReaders: Readonly<Record<ReferenceFormat, (input: ByteSource, options?: ReadOptions) => AsyncGenerator<ReferenceRecord>>> = {
  'usps-zip4': readUspsZip4,
  'usps-city-state': readUspsCityState,
  openaddresses: (input, options) => readOpenAddresses(input, options),
  nar: readNationalAddressRegister,
  nad: readNationalAddressDatabase,
  'tiger-addrfeat': readTigerAddressFeatures,
};

/** The formats whose readers say where each record ends (CSV files): an interrupted import goes on from that byte. */
export const RESUMABLE_BY_OFFSET: ReadonlySet<ReferenceFormat> = new Set(['openaddresses', 'nar', 'nad']);
