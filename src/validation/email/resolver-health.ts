/**
 * Whether the resolver can be believed when it says a domain does not exist. A captive or misconfigured network's
 * resolver answers NXDOMAIN for every name; believed, it would make every address `invalid / no_such_domain`. The
 * mailbox providers everyone knows (gmail.com, outlook.com, …) are the canaries: they exist, so a resolver that denies
 * them denies names that exist, and none of its NXDOMAIN answers says anything about an address.
 *
 * The verdict is asked of the resolver afresh (never from its cache: an answer cached before the outage says nothing
 * of the resolver now) and kept `verdictMs`, so that a list full of dead domains costs one question per interval.
 */
import type { DomainExistence } from './mail-host-resolver.js';

export interface ResolverHealthDependencies {
  /** The resolver, asked past its cache. */
  resolver: { domainExists(domain: string): Promise<DomainExistence> };
  /** Domains that exist, whatever happens: the well-known mailbox providers of the e-mail lists. */
  canaries: readonly string[];
  now: () => number;
  /** How long a verdict on the resolver holds. */
  verdictMs: number;
  /** How many canaries are asked at once; one that exists is enough. */
  canariesAsked?: number;
  /** Told once per change of verdict (not per request): a log line, a metric. */
  onChange?: (report: ResolverHealthReport) => void;
}

export interface ResolverHealthReport {
  /** false: the resolver denies names that exist (or does not answer for them); NXDOMAIN is not believed. */
  healthy: boolean;
  /** The canaries asked and what the resolver said of each, at the last check; [] before any. */
  canaries: { domain: string; answer: DomainExistence }[];
  /** When the verdict last changed (epoch ms); null before any check. */
  since: number | null;
}

export class ResolverHealth {
  private verdict: ResolverHealthReport = { healthy: true, canaries: [], since: null };
  private checkedAt = -Infinity;
  private checking: Promise<boolean> | null = null;
  private readonly canaries: ReadonlySet<string>;

  constructor(private readonly deps: ResolverHealthDependencies) {
    this.canaries = new Set(deps.canaries);
  }

  /**
   * The resolver denied `domain` (NXDOMAIN, or no mail server): is that to be believed? Not when the domain is a canary
   * (that answer is itself the proof of a broken resolver), nor when the canaries are denied too.
   */
  async believesDenial(domain: string): Promise<boolean> {
    if (this.canaries.has(domain)) {
      this.settle(false, [{ domain, answer: 'no_such_domain' }]);
      return false;
    }
    return this.isHealthy();
  }

  /** The verdict, asked again once it is older than `verdictMs`. */
  isHealthy(): Promise<boolean> {
    if (this.deps.now() - this.checkedAt < this.deps.verdictMs) return Promise.resolve(this.verdict.healthy);
    this.checking ??= this.check().finally(() => { this.checking = null; });
    return this.checking;
  }

  /**
   * For a readiness probe: the last verdict, asked again first only if it said unhealthy and is stale (so that a
   * recovered resolver shows as such without traffic, and a healthy one costs no question). A probe has a short
   * time-out of its own (Kubernetes': 1 s): past `waitMs` the check goes on and the verdict as it stands is told.
   */
  async report(waitMs = 250): Promise<ResolverHealthReport> {
    if (!this.verdict.healthy) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => { timer = setTimeout(resolve, waitMs); });
      await Promise.race([this.isHealthy(), late]);
      clearTimeout(timer);
    }
    return this.verdict;
  }

  private async check(): Promise<boolean> {
    const asked = this.deps.canaries.slice(0, this.deps.canariesAsked ?? 3);
    const answers = await Promise.all(asked.map(async (domain) => ({ domain, answer: await this.deps.resolver.domainExists(domain) })));
    // One canary that exists is enough: a resolver that finds it is not denying everything.
    const healthy = answers.length === 0 || answers.some((a) => a.answer === 'exists');
    this.settle(healthy, answers);
    return healthy;
  }

  private settle(healthy: boolean, canaries: ResolverHealthReport['canaries']): void {
    const now = this.deps.now();
    this.checkedAt = now;
    const changed = healthy !== this.verdict.healthy;
    this.verdict = { healthy, canaries, since: changed || this.verdict.since === null ? now : this.verdict.since };
    if (changed) this.deps.onChange?.(this.verdict);
  }
}
