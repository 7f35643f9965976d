/** The reference file readers by format name (`reference import --format FORMAT FILE`). */
import { readNationalAddressRegister, readOpenAddresses } from './address-points.js';
import type { ByteSource, ReferenceFormat, ReferenceRecord } from './records.js';
import { readUspsCityState, readUspsZip4 } from './usps.js';

export { REFERENCE_FORMATS, type ReferenceFormat, type ReferenceRecord, type CityNameRecord } from './records.js';

export const ReferenceReaders: Readonly<Record<ReferenceFormat, (input: ByteSource) => AsyncGenerator<ReferenceRecord>>> = {
  'usps-zip4': readUspsZip4,
  'usps-city-state': readUspsCityState,
  openaddresses: (input) => readOpenAddresses(input),
  nar: readNationalAddressRegister,
};
