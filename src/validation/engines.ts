/**
 * Builds the three engines from configuration and the database: the address engine's delivery-point reference is
 * what the database holds (the embedded RRAD points are loaded into it at first start; `reference import` adds more,
 * seen by the service at its next start).
 */
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';
import { loadReferenceIndex, seedEmbeddedReference } from '../db/reference-store.js';
import { createAddressEngine, loadShippedAddressData } from './address/index.js';
import { createEmailEngine } from './email/index.js';
import { createPhoneEngine, createPhoneLookup, loadShippedPhoneData } from './phone/index.js';
import type { Engines } from './validate-contact.js';

export async function createEngines(config: Config, db: Database): Promise<Engines & { close(): Promise<void> }> {
  await seedEmbeddedReference(db);
  const { postal, countries } = loadShippedAddressData({ rrad: false });
  const address = createAddressEngine({ postal, countries, reference: await loadReferenceIndex(db) });
  const email = createEmailEngine(config.email);
  const phone = createPhoneEngine({ data: loadShippedPhoneData(), liveLookup: createPhoneLookup(config.phone) });
  return {
    address,
    email,
    phone,
    async close() {
      await Promise.all([email.close?.(), phone.close?.()]);
    },
  };
}
