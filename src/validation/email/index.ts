/**
 * Entry point of the e-mail engine: `createEmailEngine(options)` with plain values from the service's config.
 * The table of answers is in README.md beside this file.
 */
import dns from 'node:dns';
import type { EmailEngine } from '../types.js';
import { ConnectionLimits } from './connection-limits.js';
import { EgressHealth } from './egress-health.js';
import { HostManners, type HostMannersState } from './host-manners.js';
import { EgressChoice, directEgress, type EgressReport, type EgressRoute } from './mail-egress.js';
import { parseDnsServer } from './dns-wire-client.js';
import { isDisposableDomain, loadEmailLists, type EmailLists } from './email-lists.js';
import { EmailValidationEngine, type ResultLifetimes } from './email-engine.js';
import { MailHostResolver } from './mail-host-resolver.js';
import { MAIL_PROVIDER_POLICIES, type MailProviderPolicy } from './mail-provider-policies.js';
import { ResolverHealth, type ResolverHealthReport } from './resolver-health.js';
import { TLD_TYPOS, WELL_KNOWN_MAILBOX_DOMAINS, isTypoOfWellKnownDomain } from './typo-suggestion.js';

export interface EmailEngineOptions {
  /** false: no DNS, no SMTP; every answer has `smtp: "skipped"`. */
  networkChecks: boolean;
  /** `host:port` resolvers; default: the system's (node `dns.getServers()`). */
  dnsServers?: string[];
  /** Port of the SMTP probe; the only port it ever connects to. */
  smtpPort: number;
  /** true lets the probe connect to loopback/private/reserved addresses (tests only). */
  allowPrivate: boolean;
  /**
   * true: the special-use names (example.com, `.test`, `.example`, `.invalid`, `.localhost`; RFC 2606, RFC 6761) are
   * checked like any other, for a private test network whose DNS serves them (tests only). Default false: they are
   * never a mailbox, `invalid` / `reserved_domain` at once.
   */
  specialUseNamesOrdinary?: boolean;
  /** EHLO name (RFC 5321 §4.1.1.1). */
  heloName: string;
  /** Reverse-path of MAIL FROM (RFC 5321 §4.1.1.2). */
  mailFrom: string;
  /** Clock for caches and the catch-all probe's day; default Date.now. */
  now?: () => number;
  /** Per DNS question; default 2000. */
  dnsTimeoutMs?: number;
  /** TCP connect to a mail host; default 5000. */
  connectTimeoutMs?: number;
  /** Each SMTP reply (greeting included); default 10000. RFC 5321 §4.5.3.2 allows minutes; we do not wait that long. */
  replyTimeoutMs?: number;
  /** Whole background check of one address (DNS and SMTP); default 30000. */
  probeTimeoutMs?: number;
  /** A greylisted address is asked once more this much later, in the background; default 120000, 0: never. */
  greylistRetryMs?: number;
  /** default 2 */
  maxConnectionsPerHost?: number;
  /** default 50 */
  maxProbesInFlight?: number;
  /** New connections to one mail host address per minute; default 60. Past it the answer is `throttled`. */
  maxConnectionsPerHostPerMinute?: number;
  /** MX hosts tried per domain (default 3) and addresses per host (default 2). */
  maxMailHosts?: number;
  maxAddressesPerHost?: number;
  /** Wait for a free connection slot; default 10000. */
  slotWaitMs?: number;
  /** STARTTLS when offered; default true. */
  startTls?: boolean;
  /** Result lifetimes; defaults: definite 3 days, mailbox full 1 day, unknown 5 minutes, catch-all 1 day. */
  lifetimes?: Partial<ResultLifetimes>;
  /** Entries of each cache (results, catch-all, DNS); default 100000. */
  cacheEntries?: number;
  /** Reference lists; default: loaded from the packages (loadEmailLists). */
  lists?: EmailLists;
  policies?: readonly MailProviderPolicy[];
  /** How long a verdict on the resolver's health holds (resolver-health.ts); default 30000. */
  resolverHealthMs?: number;
  /** Told once per change of the resolver's health: the service logs it. */
  onResolverHealthChange?: (report: ResolverHealthReport) => void;
  /**
   * Ways out to the mail servers other than this host's own (SOCKS5 proxies: src/net/socks-egress.ts), by provider;
   * default none: every probe connects from this host with `heloName` and `mailFrom`.
   */
  egresses?: readonly EgressRoute[];
  /**
   * The mail server (host name or IP literal) each egress connects to every `intervalMs` to see that it reaches port
   * `smtpPort` (egress-health.ts); unset: never checked, every egress `unchecked`.
   */
  egressProbe?: { host: string; intervalMs: number };
  /** Told once per change of an egress's state: the service logs it. */
  onEgressChange?: (report: EgressReport) => void;
  /**
   * A mail host that answers 421 (or a 4.7.x about us) is not asked again for this long, doubled with each refusal in a
   * row, at most `hostSlowdownMaxMs` (host-manners.ts); defaults 30000 and 900000.
   */
  hostSlowdownMs?: number;
  hostSlowdownMaxMs?: number;
  /** Told of each slow-down (and recovery) this engine decides: the service shares it with the fleet. */
  onHostMannersChange?: (state: HostMannersState) => void;
}

const DAY_MS = 86_400_000;

export function createEmailEngine(options: EmailEngineOptions): EmailValidationEngine & EmailEngine {
  assertSafeIdentity(options);
  for (const { egress } of options.egresses ?? []) assertSafeIdentity(egress);
  const now = options.now ?? Date.now;
  const lists = options.lists ?? loadEmailLists();
  const servers = (options.dnsServers?.length ? options.dnsServers : dns.getServers()).map(parseDnsServer);
  const cacheEntries = options.cacheEntries ?? 100_000;
  const resolver = new MailHostResolver({ servers, now, timeoutMs: options.dnsTimeoutMs ?? 2000, cacheEntries });
  const egresses = new EgressChoice(options.egresses ?? [], directEgress(options.heloName, options.mailFrom));
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const replyTimeoutMs = options.replyTimeoutMs ?? 10_000;
  const egressHealth = new EgressHealth({
    egresses: egresses.inUse(),
    target: options.egressProbe ? { host: options.egressProbe.host, port: options.smtpPort } : null,
    resolve: async (host) => {
      const found = await resolver.resolveHostAddresses(host);
      return found.kind === 'addresses' ? found.addresses : [];
    },
    allowPrivate: options.allowPrivate,
    intervalMs: options.egressProbe?.intervalMs ?? 0,
    connectTimeoutMs,
    replyTimeoutMs,
    now,
    onChange: options.onEgressChange,
  });
  if (options.networkChecks) egressHealth.start();
  const manners = new HostManners({
    baseMs: options.hostSlowdownMs ?? 30_000, maxMs: options.hostSlowdownMaxMs ?? 900_000, now, onChange: options.onHostMannersChange,
  });
  return new EmailValidationEngine({
    networkChecks: options.networkChecks,
    specialUseNamesOrdinary: options.specialUseNamesOrdinary ?? false,
    lists,
    suggestions: {
      tldTypos: TLD_TYPOS,
      wellKnownDomains: WELL_KNOWN_MAILBOX_DOMAINS,
      // The provider list also holds typo-squatting domains (gmial.com, gmal.com); those are the ones to correct.
      knownDomains: new Set(
        [...lists.freeDomains].filter((domain) => !isDisposableDomain(domain, lists) && !isTypoOfWellKnownDomain(domain, WELL_KNOWN_MAILBOX_DOMAINS)),
      ),
    },
    resolver,
    resolverHealth: new ResolverHealth({
      resolver,
      // The well-known mailbox providers the provider list holds: domains that exist, whatever happens.
      canaries: WELL_KNOWN_MAILBOX_DOMAINS.filter((domain) => lists.freeDomains.has(domain)),
      now,
      verdictMs: options.resolverHealthMs ?? 30_000,
      onChange: options.onResolverHealthChange,
    }),
    limits: new ConnectionLimits(
      options.maxConnectionsPerHost ?? 2,
      options.maxProbesInFlight ?? 50,
      options.maxConnectionsPerHostPerMinute ?? 60,
      now,
      (host, normal) => manners.concurrencyFor(host, normal),
    ),
    manners,
    probeSettings: {
      port: options.smtpPort,
      heloName: options.heloName,
      mailFrom: options.mailFrom,
      connectTimeoutMs,
      replyTimeoutMs,
      startTls: options.startTls ?? true,
      allowPrivate: options.allowPrivate,
      maxMailHosts: options.maxMailHosts ?? 3,
      maxAddressesPerHost: options.maxAddressesPerHost ?? 2,
      slotWaitMs: options.slotWaitMs ?? 10_000,
    },
    policies: options.policies ?? MAIL_PROVIDER_POLICIES,
    egresses,
    egressHealth,
    lifetimes: {
      definiteMs: 3 * DAY_MS,
      mailboxFullMs: DAY_MS,
      unknownMs: 5 * 60_000,
      catchAllMs: DAY_MS,
      ...options.lifetimes,
    },
    probeTimeoutMs: options.probeTimeoutMs ?? 30_000,
    greylistRetryMs: options.greylistRetryMs ?? 120_000,
    resultCacheEntries: cacheEntries,
    now,
  });
}

/** Our own identity goes on the wire too: it must be as clean as any address we check. */
function assertSafeIdentity(options: Pick<EmailEngineOptions, 'heloName' | 'mailFrom'>): void {
  if (!/^[A-Za-z0-9.-]{1,253}$/.test(options.heloName)) throw new Error(`heloName "${options.heloName}" is not a host name`);
  // A single-label host name (a container's) is a fine domain for our own reverse-path, so no full syntax check.
  if (!/^[A-Za-z0-9!#$%&'*+\/=?^_`{|}~.-]{1,64}@[A-Za-z0-9.-]{1,253}$/.test(options.mailFrom)) {
    throw new Error(`mailFrom "${options.mailFrom}" is not an address`);
  }
}

export type { EmailLists } from './email-lists.js';
export { loadEmailLists } from './email-lists.js';
export { EmailValidationEngine } from './email-engine.js';
export type { ResolverHealthReport } from './resolver-health.js';
export { EgressError, type EgressFault, type EgressReport, type EgressRoute, type EgressState, type MailEgress } from './mail-egress.js';
export { MAIL_PROVIDER_NAMES } from './mail-provider-policies.js';
export type { HostMannersState } from './host-manners.js';
