/** One engine over the shipped data, shared by the address tests (loading takes about half a second). */
import { createAddressEngine, loadShippedAddressData } from '../../src/validation/address/index.js';

export const shippedData = loadShippedAddressData();
export const engine = createAddressEngine(shippedData);
export const check = (input: string, country?: string) => engine.validateSync(input, { country, deadline: Number.MAX_SAFE_INTEGER });
