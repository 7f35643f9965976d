/** Builds the three engines from configuration and the database (reference data). */
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';
import { createEmailEngine } from './email/index.js';
import { interimAddressEngine } from './interim-engines.js';
import { createPhoneEngine, createPhoneLookup, loadShippedPhoneData } from './phone/index.js';
import type { Engines } from './validate-contact.js';

export async function createEngines(config: Config, _db: Database): Promise<Engines & { close(): Promise<void> }> {
  const email = createEmailEngine(config.email);
  const phone = createPhoneEngine({ data: loadShippedPhoneData(), liveLookup: createPhoneLookup(config.phone) });
  return {
    address: interimAddressEngine,
    email,
    phone,
    async close() {
      await Promise.all([email.close?.(), phone.close?.()]);
    },
  };
}
