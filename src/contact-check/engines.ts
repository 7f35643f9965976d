/**
 * Builds the three engines from configuration and the database: the address engine's delivery-point reference is
 * what the database holds (the embedded RRAD points are loaded into it at first start; `reference import` adds more,
 * which a running service loads within REFERENCE_RELOAD_MS).
 */
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import { loadReferenceIndex, seedEmbeddedReference } from '../db/reference-store.js';
import { type AddressEngineWithSync, createAddressEngine, loadShippedAddressData } from '../validation/address/index.js';
import { createEmailEngine, type ResolverHealthReport } from '../validation/email/index.js';
import { createGuardedHttp } from '../net/outbound-guard.js';
import { createPhoneEngine, createPhoneLookup, loadShippedPhoneData } from '../validation/phone/index.js';
import type { EmailEngine, PhoneEngine } from '../validation/types.js';
import type { Engines } from './validate-contact.js';

/** The id of the newest reference import (0 when none): it changes when `reference import` has loaded a file. */
async function lastReferenceImport(db: Database): Promise<number> {
  const rows = await db.all<{ last: number | string | null }>(`SELECT MAX(id) AS last FROM reference_imports`);
  return Number(rows[0]?.last ?? 0);
}

/** Inputs that take the engines' offline paths through their main branches (see warmUp). */
const WARM_UP_INPUTS = {
  addresses: ['6007 Applegate Lane, Louisvile', '100 Queen St W, Toronto ON M5H 2N2', 'Unter den Linden 77, 10117 Berlin, Germany'],
  emails: ['john@gmial.com', 'John <john@example.com>'],
  phones: ['(502) 713-4410', '+44 20 7946 0958'],
};

/**
 * A few inputs through the offline paths of the engines before the service says it is ready, so that the first
 * request does not pay for the engines' first run (measured with a throw-away script on a fresh service: the first
 * request's response_ms 45 without, 29 with; 3-5 from the fifth on). Nothing here reaches the network: e-mail and
 * phone only read their input offline.
 */
function warmUp(address: AddressEngineWithSync, email: EmailEngine, phone: PhoneEngine): void {
  for (const input of WARM_UP_INPUTS.addresses) {
    address.countryOf(input);
    address.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });
  }
  for (const input of WARM_UP_INPUTS.emails) email.offlineAnswer?.(input);
  for (const input of WARM_UP_INPUTS.phones) phone.offlineReading(input, 'US');
}

/** The e-mail engine's resolver as readiness and metrics see it. */
export interface ResolverStatus {
  /** The resolver health check's last verdict; null while network checks are off. */
  health(): Promise<ResolverHealthReport | null>;
  /** E-mail answers made `unknown` / `dns_unavailable` since start. */
  unavailableAnswers(): number;
}

export async function createEngines(
  config: Config,
  db: Database,
  logger?: Logger,
): Promise<Engines & { close(): Promise<void>; reloadReference(): Promise<boolean>; resolver: ResolverStatus }> {
  await seedEmbeddedReference(db);
  const { postal, countries } = loadShippedAddressData({ rrad: false });
  let loadedImport = await lastReferenceImport(db);
  const email = createEmailEngine({
    ...config.email,
    // Once per change, not per request: a resolver that denies every name makes every e-mail answer unknown.
    onResolverHealthChange: ({ healthy, canaries }) => {
      if (healthy) logger?.info({ canaries }, 'DNS resolver answers again: NXDOMAIN is believed again');
      else logger?.warn({ canaries }, 'DNS resolver denies names that exist: e-mail answers are unknown (dns_unavailable) until it recovers');
    },
  });
  // The live look-up's requests go out through the outbound guard (no redirect, no private address).
  const outbound = createGuardedHttp(config.outbound);
  const phone = createPhoneEngine({ data: loadShippedPhoneData(), liveLookup: createPhoneLookup(config.phone, { fetch: outbound.fetch }) });
  const engines = {
    address: createAddressEngine({ postal, countries, reference: await loadReferenceIndex(db) }),
    email,
    phone,
    resolver: { health: () => email.resolverHealth(), unavailableAnswers: () => email.dnsUnavailableAnswers },
    /**
     * Loads the reference data again if an import has finished since the last load (a CLI `reference import`
     * beside the running service), and swaps the address engine: requests in flight finish on the old one.
     */
    async reloadReference(): Promise<boolean> {
      const last = await lastReferenceImport(db);
      if (last === loadedImport) return false;
      const reference = await loadReferenceIndex(db);
      engines.address = createAddressEngine({ postal, countries, reference });
      loadedImport = last;
      logger?.info({ reference_import: last }, 'reference data reloaded');
      return true;
    },
    async close() {
      clearInterval(poll);
      await Promise.all([email.close?.(), phone.close?.()]);
      await outbound.close();
    },
  };
  warmUp(engines.address, email, phone);
  let reloading = false;
  const poll = config.referenceReloadMs > 0
    ? setInterval(() => {
      if (reloading) return;
      reloading = true;
      engines.reloadReference()
        .catch((err: unknown) => logger?.error({ err }, 'reference data reload failed; the loaded data stays in use'))
        .finally(() => { reloading = false; });
    }, config.referenceReloadMs).unref()
    : undefined;
  return engines;
}
