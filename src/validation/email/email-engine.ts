/**
 * The e-mail engine: syntax, lists and suggestion at once; DNS and the SMTP probe within the request's budget.
 * A probe that outlives the budget is answered `pending` and goes on in the background; its result is cached, so
 * the next request for the address is answered from the cache. Everything it needs is passed in.
 */
import { createHash } from 'node:crypto';
import type { EmailEngine, EmailResult } from '../types.js';
import type { ConnectionLimits } from './connection-limits.js';
import {
  hasDelegatedTld, isDisposableDomain, isFreeProviderDomain, isRoleLocalPart, isSpecialUseDomain, type EmailLists,
} from './email-lists.js';
import type { EgressHealth } from './egress-health.js';
import type { HostManners, HostMannersState } from './host-manners.js';
import { ExpiringCache } from './expiring-cache.js';
import type { EgressChoice, EgressReport } from './mail-egress.js';
import type { MailHostResolver, MailRoute } from './mail-host-resolver.js';
import type { ResolverHealth, ResolverHealthReport } from './resolver-health.js';
import { policyForMailHost, type MailProviderPolicy } from './mail-provider-policies.js';
import { probeMailbox, type MailboxProbeSettings, type ProbeOutcome } from './mailbox-probe.js';
import { parseEmailAddress, type ParsedEmailAddress } from './syntax.js';
import { repairedAddress, suggestDomain, type TypoSuggestionData } from './typo-suggestion.js';
import { decideEmailVerdict, RESERVED_DOMAIN_VERDICT, syntaxVerdict, type EmailVerdict, type NetworkFinding } from './verdict-table.js';

export interface ResultLifetimes {
  /** deliverable, undeliverable, disabled, catch-all, no such domain: the mailbox's state, stable for days. */
  definiteMs: number;
  /** A full mailbox empties. */
  mailboxFullMs: number;
  /** temp_fail, blocked, timeout, no_connect, DNS failures: ask again soon (greylisting lets through in minutes). */
  unknownMs: number;
  /** Whether a domain takes every local part. */
  catchAllMs: number;
}

export interface EmailEngineDependencies {
  networkChecks: boolean;
  /** The special-use names are ordinary ones (a private test network's DNS serves them; EmailEngineOptions). */
  specialUseNamesOrdinary?: boolean;
  lists: EmailLists;
  suggestions: TypoSuggestionData;
  resolver: MailHostResolver;
  /** Whether the resolver's NXDOMAIN is to be believed (it takes the same resolver). */
  resolverHealth: ResolverHealth;
  limits: ConnectionLimits;
  /** How often each mail host lets us come (host-manners.ts). */
  manners: HostManners;
  probeSettings: MailboxProbeSettings;
  policies: readonly MailProviderPolicy[];
  /** Which egress each provider's probes go out by (mail-egress.ts), and whether each reaches port 25. */
  egresses: EgressChoice;
  egressHealth: EgressHealth;
  lifetimes: ResultLifetimes;
  /** Longest a background probe (DNS and SMTP together) may run. */
  probeTimeoutMs: number;
  /**
   * After a temporary refusal (greylisting, RFC 6647 §2.1), ask once more this much later, in the background, so the
   * next request finds a definite answer in the cache. 0: never.
   */
  greylistRetryMs: number;
  resultCacheEntries: number;
  now: () => number;
}

const DEFINITE: ReadonlySet<NetworkFinding['kind']> = new Set(['accepted', 'mailbox_not_found', 'disabled', 'unverifiable', 'unverified']);
/** What a later attempt may change: a transient refusal, our own manners, a probe cut short (src/email-checks). */
const RETRYABLE: ReadonlySet<NetworkFinding['kind']> = new Set(['temp_fail', 'throttled', 'timeout', 'pending']);
const FROM_DNS_ALONE: ReadonlySet<NetworkFinding['kind']> = new Set([
  'no_such_domain', 'null_mx', 'no_mail_server', 'dns_error', 'dns_timeout', 'dns_unavailable', 'mail_route_only',
]);

function syntaxAnswer(detail: string, suggestion: string | null = null): EmailResult {
  return resultOf(syntaxVerdict(detail), null, suggestion, false, false, false);
}

/** `info@example.com`, `a@b.test`: a name reserved for examples and tests holds no mailbox (email-lists.ts). */
function reservedDomainAnswer(parsed: ParsedEmailAddress): EmailResult {
  return resultOf(RESERVED_DOMAIN_VERDICT, parsed.normalized, null, false, false, false);
}

/** What the engine knows of an address before any network check. */
interface EmailReading {
  parsed: ParsedEmailAddress;
  disposable: boolean;
  role: boolean;
  free: boolean;
  suggestedDomain: string | null;
}

/** Without DNS, the root zone's list still tells a TLD that does not exist (with DNS, NXDOMAIN says it). */
function offlineFinding(parsed: ParsedEmailAddress, lists: EmailLists): NetworkFinding {
  return hasDelegatedTld(parsed.domain, lists) ? { kind: 'not_checked' } : { kind: 'no_such_domain' };
}

/**
 * The answer, every field written out: spreading the verdict into a literal with further fields made V8 build each
 * answer the slow way (a measurable share of the e-mail stage in `npm run bench:stages`).
 */
function resultOf(
  verdict: EmailVerdict, normalized: string | null, suggestion: string | null, disposable: boolean, role: boolean, free: boolean,
): EmailResult {
  return {
    status: verdict.status, risk: verdict.risk, smtp: verdict.smtp, reason: verdict.reason, normalized, suggestion, disposable, role, free,
  };
}

export class EmailValidationEngine implements EmailEngine {
  private readonly results: ExpiringCache<NetworkFinding>;
  private readonly catchAllDomains: ExpiringCache<boolean>;
  /** The wait the last transient refusal of an address asked for (retryHintMs), kept as long as it asked. */
  private readonly hints: ExpiringCache<number>;
  private readonly inFlight = new Map<string, Promise<NetworkFinding>>();
  private readonly running = new Set<AbortController>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** Answers made `unknown` / `dns_unavailable` because the resolver denies names that exist (a metric reads it). */
  dnsUnavailableAnswers = 0;

  constructor(private readonly deps: EmailEngineDependencies) {
    this.results = new ExpiringCache(deps.resultCacheEntries, deps.now);
    this.catchAllDomains = new ExpiringCache(deps.resultCacheEntries, deps.now);
    this.hints = new ExpiringCache(deps.resultCacheEntries, deps.now);
  }

  /**
   * The address asked again, for an answer that arrives later (src/email-checks): a probe under way is waited for, a
   * cached answer a retry could not change is given, anything else is probed afresh (and cached, so that the next
   * request finds it). `retryAfterMs`: the wait a transient refusal asked for, when it said.
   */
  async recheck(input: string): Promise<{ result: EmailResult; retryAfterMs: number | null }> {
    const reading = this.read(input);
    if ('answer' in reading) return { result: reading.answer, retryAfterMs: null };
    if (!this.deps.networkChecks || this.closed) {
      return { result: this.answerOf(reading, offlineFinding(reading.parsed, this.deps.lists)), retryAfterMs: null };
    }
    const cached = this.results.get(resultKey(reading.parsed, true));
    const finding = cached && !RETRYABLE.has(cached.kind) ? cached : await this.startChecks(reading.parsed, true, 'retry');
    const retryAfterMs = 'retryAfterMs' in finding ? finding.retryAfterMs ?? null : null;
    return { result: this.answerOf(reading, finding), retryAfterMs };
  }

  /** The wait the address's last transient refusal asked for, while it holds; else null. */
  retryHintMs(input: string): number | null {
    const parsed = parseEmailAddress(input.trim());
    return parsed.ok ? this.hints.get(parsed.normalized) ?? null : null;
  }

  async validate(input: string, options: { smtp: boolean; deadline: number }): Promise<EmailResult> {
    const reading = this.read(input);
    if ('answer' in reading) return reading.answer;
    const { parsed, disposable, role, suggestedDomain } = reading;
    // Neither a throw-away domain nor a mistyped one is probed: its mailboxes are nobody's we could vouch for.
    const probe = options.smtp && !disposable && !suggestedDomain;
    const finding = await this.networkFinding(parsed, { smtp: probe, deadline: options.deadline });
    if (finding.kind === 'dns_unavailable') this.dnsUnavailableAnswers++;
    return this.answerOf(reading, finding);
  }

  /** Mail hosts slowed down now (a 421, a 4.7.x about us), longest first; and slow-downs decided since start. */
  mailHostManners(): { slowed: HostMannersState[]; slowdowns: number } {
    return { slowed: this.deps.manners.slowed(), slowdowns: this.deps.manners.slowdowns };
  }

  /** A slow-down another instance decided (the service reads the fleet's from the database). */
  learnMailHost(state: HostMannersState): void {
    this.deps.manners.learn(state);
  }

  /** What the resolver health check last found; null while network checks are off (no resolver is asked). */
  async resolverHealth(): Promise<ResolverHealthReport | null> {
    return this.deps.networkChecks && !this.closed ? this.deps.resolverHealth.report() : null;
  }

  /** Each egress a probe may take and what its last port 25 check found; [] while network checks are off. */
  egressReports(): EgressReport[] {
    return this.deps.networkChecks && !this.closed ? this.deps.egressHealth.reports() : [];
  }

  /**
   * Asks the resolver about its canaries now, past the cache (the service does it once before it says it is ready, so
   * that its first /readyz already tells the truth: issue 52.5); takes at most the DNS time-out. Null while network
   * checks are off.
   */
  async checkResolver(): Promise<ResolverHealthReport | null> {
    if (!this.deps.networkChecks || this.closed) return null;
    await this.deps.resolverHealth.isHealthy();
    return this.deps.resolverHealth.report();
  }

  /**
   * The answer when no network is needed to give it: a syntax error, or any address while network checks are off
   * (`not_checked`, or `no_such_domain` for a TLD the root zone does not delegate). Null when DNS and SMTP decide.
   * Pricing asks this first, so that an answer known to be `unknown` is never charged and refunded.
   */
  offlineAnswer(input: string): EmailResult | null {
    const parsed = parseEmailAddress(input.trim());
    if (!parsed.ok) return this.syntaxFailure(input, parsed.detail);
    if (this.reserved(parsed)) return reservedDomainAnswer(parsed);
    // The network decides: the lists and suggestion are left to `validate`, not read twice per request.
    if (this.deps.networkChecks && !this.closed) return null;
    return this.answerOf(this.readParsed(parsed), offlineFinding(parsed, this.deps.lists));
  }

  /** Syntax, lists and suggestion: everything that needs no network. */
  private read(input: string): EmailReading | { answer: EmailResult } {
    // White space around the address (a form's trailing space, a pasted line) is no part of it.
    const parsed = parseEmailAddress(input.trim());
    if (!parsed.ok) return { answer: this.syntaxFailure(input, parsed.detail) };
    return this.reserved(parsed) ? { answer: reservedDomainAnswer(parsed) } : this.readParsed(parsed);
  }

  /** A name reserved for examples and tests (RFC 2606, RFC 6761), unless a private test network serves them. */
  private reserved(parsed: ParsedEmailAddress): boolean {
    return !this.deps.specialUseNamesOrdinary && isSpecialUseDomain(parsed.domain);
  }

  /**
   * A syntax failure, with the address it most likely meant as the suggestion (`John <john@gmial.com>` ->
   * john@gmail.com; see repairedAddress), itself with its domain's typo mended.
   */
  private syntaxFailure(input: string, detail: string): EmailResult {
    const meant = repairedAddress(input, this.deps.suggestions.wellKnownDomains, (candidate) => parseEmailAddress(candidate).ok);
    const parsed = meant ? parseEmailAddress(meant) : null;
    if (!parsed?.ok) return syntaxAnswer(detail);
    const domain = suggestDomain(parsed.domain, this.deps.suggestions) ?? parsed.domain;
    return syntaxAnswer(detail, `${parsed.localPart}@${domain}`);
  }

  private readParsed(parsed: ParsedEmailAddress): EmailReading {
    const { lists } = this.deps;
    const role = isRoleLocalPart(parsed.localPart, lists);
    const suggestedDomain = suggestDomain(parsed.domain, this.deps.suggestions);
    // The lists also hold typo-squatting domains (`gmial.com`) among the throw-away and free ones: a mistyped domain is
    // neither disposable nor free, it is a typo (the answer suggests the domain meant).
    const disposable = !suggestedDomain && isDisposableDomain(parsed.domain, lists);
    const free = !disposable && !suggestedDomain && isFreeProviderDomain(parsed.domain, lists);
    return { parsed, disposable, role, free, suggestedDomain };
  }

  private answerOf(reading: EmailReading, finding: NetworkFinding): EmailResult {
    const { parsed, disposable, role, free, suggestedDomain } = reading;
    const suggestion = suggestedDomain ? `${parsed.localPart}@${suggestedDomain}` : null;
    const verdict = decideEmailVerdict({ finding, disposable, role, typo: suggestedDomain !== null });
    return resultOf(verdict, parsed.normalized, suggestion, disposable, role, free);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.deps.egressHealth.stop();
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    for (const controller of this.running) controller.abort();
    this.deps.resolver.close();
    await Promise.allSettled([...this.inFlight.values()]);
    this.results.clear();
    this.catchAllDomains.clear();
    this.hints.clear();
  }

  private async networkFinding(parsed: ParsedEmailAddress, options: { smtp: boolean; deadline: number }): Promise<NetworkFinding> {
    if (!this.deps.networkChecks || this.closed) return offlineFinding(parsed, this.deps.lists);
    const key = resultKey(parsed, options.smtp);
    const cached = this.results.get(key);
    if (cached) return cached;

    return raceDeadline(this.startChecks(parsed, options.smtp, 'first'), options.deadline);
  }

  /** One check per address at a time: a request that finds one running waits for the same. */
  private startChecks(parsed: ParsedEmailAddress, smtp: boolean, attempt: 'first' | 'retry'): Promise<NetworkFinding> {
    const key = resultKey(parsed, smtp);
    let job = this.inFlight.get(key);
    if (!job) {
      job = this.runChecks(parsed, smtp)
        // A fault of ours (a bug, a malformed DNS message) must not crash a background probe nobody waits for.
        .catch((): NetworkFinding => ({ kind: 'no_connect' }))
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, job);
      if (attempt === 'first') void job.then((finding) => this.retryIfGreylisted(parsed, smtp, finding));
    }
    return job;
  }

  private retryIfGreylisted(parsed: ParsedEmailAddress, smtp: boolean, finding: NetworkFinding): void {
    if (finding.kind !== 'temp_fail' || !smtp || this.closed || this.deps.greylistRetryMs <= 0) return;
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (!this.closed) void this.startChecks(parsed, smtp, 'retry');
    }, this.deps.greylistRetryMs);
    timer.unref();
    this.retryTimers.add(timer);
  }

  /** DNS, then SMTP; the finding is cached when it arrives, whether or not anyone still waits for it. */
  private async runChecks(parsed: ParsedEmailAddress, smtp: boolean): Promise<NetworkFinding> {
    const controller = new AbortController();
    this.running.add(controller);
    const timer = setTimeout(() => controller.abort(), this.deps.probeTimeoutMs);
    try {
      const route = await this.deps.resolver.resolveMailRoute(parsed.domain);
      const finding = await this.findingForRoute(parsed, route, smtp, controller.signal);
      // Findings from DNS alone live as long as the DNS answers do, in the resolver's cache; not here.
      if (!this.closed && !FROM_DNS_ALONE.has(finding.kind)) {
        this.results.set(resultKey(parsed, smtp), finding, this.lifetimeOf(finding));
      }
      if ('retryAfterMs' in finding && finding.retryAfterMs) this.hints.set(parsed.normalized, finding.retryAfterMs, finding.retryAfterMs);
      return finding;
    } finally {
      clearTimeout(timer);
      this.running.delete(controller);
    }
  }

  private async findingForRoute(
    parsed: ParsedEmailAddress,
    route: MailRoute,
    smtp: boolean,
    signal: AbortSignal,
  ): Promise<NetworkFinding> {
    switch (route.kind) {
      case 'no_such_domain':
      case 'no_mail_server':
        return this.believedDenial(parsed, route.kind);
      case 'null_mx':
      case 'dns_error':
        return { kind: route.kind };
      case 'timeout':
        return { kind: 'dns_timeout' };
      case 'mx':
      case 'implicit_mx':
        break;
    }
    if (!smtp) return { kind: 'mail_route_only' };

    const policy = policyForMailHost(route.hosts[0].name, this.deps.policies);
    if (!policy.rcptIsEvidence) return { kind: 'unverifiable' };
    const knownCatchAll = this.catchAllDomains.get(parsed.domain);
    if (knownCatchAll === true) return { kind: 'accepted', catchAll: true };

    const sendCatchAllProbe = policy.catchAllProbe && knownCatchAll === undefined;
    const outcome: ProbeOutcome = await probeMailbox(
      {
        address: parsed.normalized,
        catchAllProbeAddress: sendCatchAllProbe ? catchAllProbeAddress(parsed.domain, this.deps.now()) : null,
        hosts: route.hosts,
        policy,
        signal,
        egress: this.deps.egresses.forProvider(policy.provider),
      },
      {
        resolver: this.deps.resolver, limits: this.deps.limits, settings: this.deps.probeSettings,
        egressState: (egress) => this.deps.egressHealth.state(egress),
        manners: this.deps.manners,
      },
    );
    if (outcome.kind === 'accepted' && outcome.catchAll !== null) {
      this.catchAllDomains.set(parsed.domain, outcome.catchAll, this.deps.lifetimes.catchAllMs);
    }
    // A domain that refuses one of its local parts does not take everything.
    if (outcome.kind === 'mailbox_not_found') this.catchAllDomains.set(parsed.domain, false, this.deps.lifetimes.catchAllMs);
    if (outcome.kind === 'accepted' && outcome.catchAll === null && knownCatchAll === false) {
      return { kind: 'accepted', catchAll: false };
    }
    return outcome;
  }

  /**
   * NXDOMAIN or no mail server, as far as the resolver can be believed: from one that denies names that exist it says
   * nothing, and the answer is `dns_unavailable` (but for a TLD the root zone does not delegate, which needs no
   * resolver to know). A null MX is the domain's own word, and a SERVFAIL already says nothing.
   */
  private async believedDenial(parsed: ParsedEmailAddress, kind: 'no_such_domain' | 'no_mail_server'): Promise<NetworkFinding> {
    if (await this.deps.resolverHealth.believesDenial(parsed.domain)) return { kind };
    this.deps.resolver.forget(parsed.domain);
    return hasDelegatedTld(parsed.domain, this.deps.lists) ? { kind: 'dns_unavailable' } : { kind: 'no_such_domain' };
  }

  private lifetimeOf(finding: NetworkFinding): number {
    const { lifetimes } = this.deps;
    if (finding.kind === 'mailbox_full') return lifetimes.mailboxFullMs;
    return DEFINITE.has(finding.kind) ? lifetimes.definiteMs : lifetimes.unknownMs;
  }
}

/** With the probe, a finding is about one mailbox; without it, only about the domain. */
function resultKey(parsed: ParsedEmailAddress, smtp: boolean): string {
  return smtp ? `smtp ${parsed.normalized}` : `dns ${parsed.domain}`;
}

/**
 * A local part no one has, the same for a domain all day (so repeated checks look alike to the receiver and the
 * catch-all answer can be cached), different across domains and days.
 */
export function catchAllProbeAddress(domain: string, now: number): string {
  const day = new Date(now).toISOString().slice(0, 10);
  const digest = createHash('sha256').update(`${domain}\n${day}`).digest('hex').slice(0, 16);
  return `cv-${digest}@${domain}`;
}

async function raceDeadline(job: Promise<NetworkFinding>, deadline: number): Promise<NetworkFinding> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { kind: 'pending' };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<NetworkFinding>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'pending' }), remaining);
  });
  try {
    return await Promise.race([job, late]);
  } finally {
    clearTimeout(timer);
  }
}
