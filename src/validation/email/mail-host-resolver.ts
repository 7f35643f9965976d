/**
 * Where mail for a domain goes (RFC 5321 §5.1): the MX hosts by preference, else the domain itself as an implicit
 * MX when it has an A or AAAA record, nowhere when it publishes a null MX (RFC 7505). NXDOMAIN, an answer with no
 * data, a server failure and a time-out are kept apart: only NXDOMAIN says the domain does not exist, and a resolver
 * that fails tells nothing about the address.
 */
import { setMaxListeners } from 'node:events';
import { DNS_RCODE, DnsTimeoutError, queryDns, type DnsAnswer, type DnsQuestionType, type DnsServer } from './dns-wire-client.js';
import { ExpiringCache } from './expiring-cache.js';

export type MailRoute =
  | { kind: 'mx'; hosts: MailHost[] }
  /** No MX, but the domain has addresses: it is its own mail host (RFC 5321 §5.1). */
  | { kind: 'implicit_mx'; hosts: MailHost[] }
  /** RFC 7505 §3: a single MX of preference 0 and exchange "." says the domain takes no mail. */
  | { kind: 'null_mx' }
  /** NXDOMAIN (RFC 1035 §4.1.1 RCODE 3; RFC 8020: nothing exists below it either). */
  | { kind: 'no_such_domain' }
  /** The domain exists but has neither MX nor A/AAAA. */
  | { kind: 'no_mail_server' }
  /** SERVFAIL, REFUSED or a malformed answer: the resolver could not say. */
  | { kind: 'dns_error'; detail: string }
  | { kind: 'timeout' };

export interface MailHost { name: string; preference: number }

/**
 * What the resolver says, asked afresh, of a domain that takes mail (the resolver health check's canaries): its MX
 * records (`exists`), a denial (NXDOMAIN, or an answer with no MX: `no_such_domain`), or nothing (`no_answer`).
 */
export type DomainExistence = 'exists' | 'no_such_domain' | 'no_answer';

export type HostAddresses =
  | { kind: 'addresses'; addresses: string[] }
  | { kind: 'none' }
  | { kind: 'dns_error'; detail: string }
  | { kind: 'timeout' };

export interface MailHostResolverOptions {
  servers: readonly DnsServer[];
  now: () => number;
  /** Per question. */
  timeoutMs: number;
  cacheEntries?: number;
  /** Bounds on honouring TTLs: a zero TTL still saves a burst of repeats; a week-long one is not kept a week. */
  minTtlSeconds?: number;
  maxTtlSeconds?: number;
  /**
   * Negative answers (NXDOMAIN, no data) without an SOA: RFC 2308 §5 says not to cache them, and a resolver that
   * denies every name (a captive or misconfigured network) sends exactly those. Default 0: not cached.
   */
  unsignedNegativeTtlSeconds?: number;
  /** RFC 2308 §7.1: server failures may be cached, at most five minutes. */
  serverFailureTtlSeconds?: number;
}

type CachedQuestion = { kind: 'answer'; answer: DnsAnswer } | { kind: 'error'; detail: string };

export class MailHostResolver {
  private readonly cache: ExpiringCache<CachedQuestion>;
  /** Aborted by close(): questions in flight give up at once. */
  private readonly closing = new AbortController();

  constructor(private readonly options: MailHostResolverOptions) {
    this.cache = new ExpiringCache(options.cacheEntries ?? 50_000, options.now);
    // Every question in flight listens to it (and stops listening when answered): many at once is intended.
    setMaxListeners(0, this.closing.signal);
  }

  async resolveMailRoute(domain: string): Promise<MailRoute> {
    const mx = await this.ask(domain, 'MX');
    if (mx === 'timeout') return { kind: 'timeout' };
    if (mx.kind === 'error') return { kind: 'dns_error', detail: mx.detail };
    const { answer } = mx;
    if (answer.rcode === DNS_RCODE.NXDOMAIN) return { kind: 'no_such_domain' };
    if (answer.rcode !== DNS_RCODE.NOERROR) return { kind: 'dns_error', detail: rcodeName(answer.rcode) };

    const exchanges = answer.records.flatMap((r) => (r.type === 'MX' ? [r] : []));
    if (exchanges.length > 0) {
      if (exchanges.every((r) => r.exchange === '')) return { kind: 'null_mx' };
      const hosts = exchanges
        .filter((r) => r.exchange !== '')
        .sort((a, b) => a.preference - b.preference)
        .map((r) => ({ name: r.exchange, preference: r.preference }));
      return { kind: 'mx', hosts };
    }

    const addresses = await this.resolveHostAddresses(domain);
    switch (addresses.kind) {
      case 'addresses': return { kind: 'implicit_mx', hosts: [{ name: domain, preference: 0 }] };
      case 'none': return { kind: 'no_mail_server' };
      default: return addresses;
    }
  }

  /** A then AAAA records of a mail host (IPv4 first: most receiving MTAs are reached over IPv4). */
  async resolveHostAddresses(host: string): Promise<HostAddresses> {
    const [v4, v6] = await Promise.all([this.ask(host, 'A'), this.ask(host, 'AAAA')]);
    const addresses: string[] = [];
    const failures: HostAddresses[] = [];
    for (const result of [v4, v6]) {
      if (result === 'timeout') failures.push({ kind: 'timeout' });
      else if (result.kind === 'error') failures.push({ kind: 'dns_error', detail: result.detail });
      else if (result.answer.rcode === DNS_RCODE.NOERROR || result.answer.rcode === DNS_RCODE.NXDOMAIN) {
        for (const r of result.answer.records) if (r.type === 'A' || r.type === 'AAAA') addresses.push(r.address);
      } else failures.push({ kind: 'dns_error', detail: rcodeName(result.answer.rcode) });
    }
    if (addresses.length > 0) return { kind: 'addresses', addresses };
    return failures[0] ?? { kind: 'none' };
  }

  /** Asks past the cache (a cached answer says nothing of the resolver now): does the domain have its MX records? */
  async domainExists(domain: string): Promise<DomainExistence> {
    const result = await this.askResolver(domain, 'MX');
    if (result === 'timeout' || result.kind === 'error') return 'no_answer';
    const { rcode, records } = result.answer;
    if (rcode === DNS_RCODE.NXDOMAIN) return 'no_such_domain';
    if (rcode !== DNS_RCODE.NOERROR) return 'no_answer';
    return records.some((r) => r.type === 'MX') ? 'exists' : 'no_such_domain';
  }

  /** Drops what the cache holds for a domain (a negative answer from a resolver found to deny names that exist). */
  forget(domain: string): void {
    for (const type of ['MX', 'A', 'AAAA'] as const) this.cache.delete(`${type} ${domain}`);
  }

  close(): void {
    this.closing.abort();
    this.cache.clear();
  }

  private async ask(name: string, type: DnsQuestionType): Promise<CachedQuestion | 'timeout'> {
    const key = `${type} ${name}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const result = await this.askResolver(name, type);
    // A time-out is not cached: the next request asks again.
    if (result !== 'timeout') this.cache.set(key, result, this.lifetimeSeconds(result) * 1000);
    return result;
  }

  private async askResolver(name: string, type: DnsQuestionType): Promise<CachedQuestion | 'timeout'> {
    try {
      return { kind: 'answer', answer: await queryDns(this.options.servers, name, type, this.options.timeoutMs, this.closing.signal) };
    } catch (error) {
      if (error instanceof DnsTimeoutError) return 'timeout';
      return { kind: 'error', detail: (error as Error).message };
    }
  }

  private lifetimeSeconds(result: CachedQuestion): number {
    const { minTtlSeconds = 5, maxTtlSeconds = 86_400, unsignedNegativeTtlSeconds = 0, serverFailureTtlSeconds = 30 } =
      this.options;
    if (result.kind === 'error') return serverFailureTtlSeconds;
    const { answer } = result;
    if (answer.rcode !== DNS_RCODE.NOERROR && answer.rcode !== DNS_RCODE.NXDOMAIN) return serverFailureTtlSeconds;
    // RFC 2308 §5: a negative answer lives min(SOA TTL, SOA MINIMUM) (the wire client's negativeTtl); without an SOA
    // it "SHOULD NOT be cached".
    if (answer.records.length === 0 && answer.negativeTtl === null) return unsignedNegativeTtlSeconds;
    const ttl = answer.records.length > 0 ? Math.min(...answer.records.map((r) => r.ttl)) : answer.negativeTtl!;
    return Math.min(maxTtlSeconds, Math.max(minTtlSeconds, ttl));
  }
}

function rcodeName(rcode: number): string {
  const name = Object.entries(DNS_RCODE).find(([, value]) => value === rcode)?.[0];
  return name ? name.toLowerCase() : `rcode_${rcode}`;
}
