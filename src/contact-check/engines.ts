/**
 * Builds the three engines from their settings and the reference data the service's wiring loaded and handed in
 * (src/service.ts, openEngines): nothing here reads a file or the database. The delivery-point reference is watched
 * through `ReferenceSource`: when a `reference import` has loaded a file, a running service loads it within
 * REFERENCE_RELOAD_MS.
 */
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import {
  type AddressEngineWithSync, createAddressEngine, type ReferenceIndex, type ShippedAddressData,
} from '../validation/address/index.js';
import { type AddressAutocomplete, createAddressAutocomplete } from '../validation/address/autocomplete.js';
import {
  createEmailEngine, loadEmailLists, type EgressReport, type HostMannersState, type ResolverHealthReport,
} from '../validation/email/index.js';
import { createGuardedHttp } from '../net/outbound-guard.js';
import { createSocksEgress } from '../net/socks-egress.js';
import { createPhoneEngine, createPhoneLookup, type PhoneData } from '../validation/phone/index.js';
import type { EmailEngine, PhoneEngine } from '../validation/types.js';
import type { Engines } from './validate-contact.js';

/** The delivery-point reference wherever it is kept (the database, in the service). */
export interface ReferenceSource {
  /** Changes when a new reference file has been loaded (the newest import's). */
  version(): Promise<string>;
  /**
   * The index of the data at `version`: opened from its file, built first where none is (`building` told while it
   * is), or in memory for small data. `close()` once no request reads it.
   */
  open(version: string, building: (on: boolean) => void): Promise<{ index: ReferenceIndex; close(): void }>;
}

/** How long a swapped-out index stays open: requests that took it before the swap finish on it. */
const CLOSE_SWAPPED_AFTER_MS = 30_000;

/** What the engines know, loaded by the caller. */
export interface EngineData {
  /** The shipped postal tables and country forms (without the RRAD points: those are in `reference`). */
  address: ShippedAddressData;
  phone: PhoneData;
  reference: ReferenceSource;
}

export type EngineSettings = Pick<Config, 'email' | 'phone' | 'outbound' | 'referenceReloadMs'> & Partial<Pick<Config, 'smtpEgresses' | 'emailChecks'>>;

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

/** The e-mail engine's resolver and egresses as readiness and metrics see them. */
export interface ResolverStatus {
  /** The resolver health check's last verdict; null while network checks are off. */
  health(): Promise<ResolverHealthReport | null>;
  /** E-mail answers made `unknown` / `dns_unavailable` since start. */
  unavailableAnswers(): number;
  /** Each egress the probe may take and whether it reaches port 25 (SMTP_EGRESS_*); [] with network checks off. */
  egresses?(): EgressReport[];
  /** Mail hosts slowed down now (a 421, a 4.7.x about us), and the slow-downs this instance decided since start. */
  mailHosts?(): { slowed: HostMannersState[]; slowdowns: number };
}

export async function createEngines(
  data: EngineData,
  config: EngineSettings,
  logger?: Logger,
): Promise<Engines & {
  close(): Promise<void>; reloadReference(): Promise<boolean>; resolver: ResolverStatus; addressSuggestions: Pick<AddressAutocomplete, 'suggest'>;
  /** `building` while a new import's index is built (the previous one still answers), else `loaded`. */
  referenceState(): 'loaded' | 'building';
  mailHosts: { onChange(listener: (state: HostMannersState) => void): void; learn(state: HostMannersState): void };
  /** The same engines with every network check off (no DNS, SMTP or live phone look-up): what test keys are answered with. */
  offline: Engines;
}> {
  const { postal, countries } = data.address;
  let loadedImport = await data.reference.version();
  let building = false;
  const setBuilding = (on: boolean) => { building = on; };
  const lists = loadEmailLists();
  // The engine's slow-downs go to whoever listens (the fleet's table, src/email-checks/fleet-host-manners.ts).
  let mannersListener: ((state: HostMannersState) => void) | undefined;
  const email = createEmailEngine({
    onHostMannersChange: (state) => {
      logger?.info({ host: state.host, level: state.level, slow_until: new Date(state.slowUntil).toISOString() }, 'mail host slowed down: it asked us to come less often');
      mannersListener?.(state);
    },
    ...config.email,
    // With answers that arrive later (src/email-checks) the durable checks ask again, on their schedule: the engine's
    // own one retry in memory would only ask the same server once more.
    ...(config.emailChecks ? { greylistRetryMs: 0 } : {}),
    lists,
    // The SOCKS5 proxies the probe goes out by, by provider (docs/email.md); the engine only asks them for sockets.
    egresses: (config.smtpEgresses ?? []).map(({ providers, ...egress }) => ({ egress: createSocksEgress(egress), providers })),
    onEgressChange: ({ name, state, providers }) => {
      if (state === 'ok') logger?.info({ egress: name, providers }, 'SMTP egress reaches port 25');
      else logger?.warn({ egress: name, providers, state }, 'SMTP egress does not reach port 25: its probes answer egress_blocked / egress_unavailable');
    },
    // Once per change, not per request: a resolver that denies every name makes every e-mail answer unknown.
    onResolverHealthChange: ({ healthy, canaries }) => {
      if (healthy) logger?.info({ canaries }, 'DNS resolver answers again: NXDOMAIN is believed again');
      else logger?.warn({ canaries }, 'DNS resolver denies names that exist: e-mail answers are unknown (dns_unavailable) until it recovers');
    },
  });
  // Once before the service says it is ready (awaited below, asked while the rest loads): until its first verdict the
  // resolver health check assumes a resolver that works, and /readyz said `dns: "ok"` offline until an e-mail came.
  const resolverChecked = email.checkResolver();
  // The live look-up's requests go out through the outbound guard (no redirect, no private address).
  const outbound = createGuardedHttp(config.outbound);
  const phone = createPhoneEngine({ data: data.phone, liveLookup: createPhoneLookup(config.phone, { fetch: outbound.fetch }) });
  let opened = await data.reference.open(loadedImport, setBuilding);
  let reference = opened.index;
  // Built on the first suggestion asked for (sorting the postal data's places takes about half a second, which a
  // service nobody asks for suggestions should not pay at start), and again with each reload once built.
  let autocomplete: AddressAutocomplete | undefined;
  // Test mode (docs/account.md#test-keys): the same lists, tables and reference data, and nothing that leaves the machine,
  // so that its answers are the same every time and for every client's tests.
  const offlineEmail = createEmailEngine({ ...config.email, lists, networkChecks: false });
  const offlinePhone = createPhoneEngine({ data: data.phone });
  const engines = {
    address: createAddressEngine({ postal, countries, reference }),
    addressSuggestions: {
      suggest: (typed: string, options: { country?: string; limit: number }) =>
        (autocomplete ??= createAddressAutocomplete({ postal, reference })).suggest(typed, options),
    },
    email,
    phone,
    offline: {
      // The address engine is local work already; read through, so that a reference reload reaches test mode too.
      get address() { return engines.address; },
      email: offlineEmail,
      phone: offlinePhone,
    } as Engines,
    resolver: {
      health: () => email.resolverHealth(), unavailableAnswers: () => email.dnsUnavailableAnswers, egresses: () => email.egressReports(),
      mailHosts: () => email.mailHostManners(),
    },
    /** Per-server manners: told of the engine's slow-downs, and taught the fleet's. */
    mailHosts: {
      onChange: (listener: (state: HostMannersState) => void) => { mannersListener = listener; },
      learn: (state: HostMannersState) => email.learnMailHost(state),
    },
    referenceState: () => (building ? 'building' as const : 'loaded' as const),
    /**
     * Loads the reference data again if an import has finished since the last load (a CLI `reference import`
     * beside the running service), and swaps the address engine: requests in flight finish on the old one.
     */
    async reloadReference(): Promise<boolean> {
      const last = await data.reference.version();
      if (last === loadedImport) return false;
      // The new index is opened (built first, in the background, where no file of it exists) beside the old one,
      // which answers until the swap; then one assignment swaps them, and the old one is closed once idle.
      const next = await data.reference.open(last, setBuilding);
      const previous = opened;
      opened = next;
      reference = next.index;
      engines.address = createAddressEngine({ postal, countries, reference });
      if (autocomplete) autocomplete = createAddressAutocomplete({ postal, reference });
      loadedImport = last;
      setTimeout(() => previous.close(), CLOSE_SWAPPED_AFTER_MS).unref();
      logger?.info({ reference_import: last }, 'reference data reloaded');
      return true;
    },
    async close() {
      clearInterval(poll);
      opened.close();
      await Promise.all([email.close?.(), phone.close?.(), offlineEmail.close?.(), offlinePhone.close?.()]);
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
  await resolverChecked;
  return engines;
}
