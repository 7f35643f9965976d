/** Builds the three engines from configuration and the database (reference data). */
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';
import { interimAddressEngine, interimEmailEngine, interimPhoneEngine } from './interim-engines.js';
import type { Engines } from './validate-contact.js';

export async function createEngines(_config: Config, _db: Database): Promise<Engines & { close(): Promise<void> }> {
  return {
    address: interimAddressEngine,
    email: interimEmailEngine,
    phone: interimPhoneEngine,
    async close() {},
  };
}
