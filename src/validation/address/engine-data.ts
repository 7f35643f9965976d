/**
 * What the address engine knows, passed in (`createAddressEngine(deps)`): the ZIP/FSA index, Google's country metadata
 * and the delivery-point reference.
 */
import type { CountryMetadata } from './other-countries/index.js';
import type { PostalIndex } from './postal-index.js';
import type { ReferenceIndex } from './reference-index.js';

export interface AddressEngineDeps {
  /** ZIP codes and Canadian FSAs with their places. */
  postal: PostalIndex;
  /** Google's address metadata for the other countries. */
  countries: CountryMetadata;
  /** Delivery points and street ranges loaded from reference data; without it every answer has dpv "". */
  reference?: ReferenceIndex;
}
