/**
 * The one way out for requests the service makes to addresses a tenant or an operator chose (connectors, Twilio Lookup,
 * Stripe, outgoing webhooks), against server-side request forgery (OWASP SSRF Prevention Cheat Sheet):
 * - The address checked is the address connected to. A name is resolved once, every address it resolves to must be
 *   publicly routable (address-guard.ts), and the socket is opened to the first of those checked addresses; TLS SNI,
 *   certificate check and Host stay the name. A second, different DNS answer (rebinding) is never asked for.
 * - A name that does not resolve, a single-label name (`vm`) or one written with the root's dot (`localhost.`) is refused.
 * - Redirects are not followed: a 3xx answer is an error. Following one would carry the request (and, with jsforce, its
 *   Authorization header) to wherever the Location says, and its answer back to whoever reads the run.
 * - Only `privateOrigins` (an operator's local stand-in in tests, listed origin by origin) may be on a non-public address.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { isPubliclyRoutableAddress } from '../validation/email/address-guard.js';

export type OutboundRefusal = 'not_a_url' | 'not_https' | 'not_public' | 'unresolvable' | 'redirect';

/** A request the guard did not let out; the message is ours (no remote text), safe to show to a tenant. */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
  constructor(readonly code: OutboundRefusal, message: string) {
    super(message);
  }
}

/** Every address a name resolves to (an empty list or a rejection: it does not resolve). */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo: hosts file, search rules and DNS, as any other program on the host). */
export const systemResolve: ResolveHost = async (hostname) =>
  (await dns.lookup(hostname, { all: true })).map((a) => a.address);

export interface OutboundPolicy {
  /**
   * Origins (`http://127.0.0.1:4010`) that may be on a loopback or private address and may use plain http: endpoints an
   * operator points at a local stand-in. Nothing else is let through to such an address, redirects included.
   */
  privateOrigins?: Iterable<string>;
  resolve?: ResolveHost;
  /** Default: publicly routable unicast (address-guard.ts). Tests pass their own to stand for "public" on loopback. */
  isPublicAddress?: (address: string) => boolean;
}

/** The standard fetch, as the clients that take one (Stripe's, Shopify's, Twilio's adapter) call it. */
export type OutboundFetch = typeof fetch;

export interface GuardedHttp {
  fetch: OutboundFetch;
  /** Closes the pooled connections (a connector run's own guard, at the end of the run). */
  close(): Promise<void>;
  /** Ends every connection at once, requests in flight included (work given up on, a platform that never answers). */
  destroy(): Promise<void>;
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `https://api.example.com:443` for any URL of that origin: scheme, host without brackets, port always written. */
export function originKey(protocol: string, hostname: string, port: string): string {
  return `${protocol}//${hostname.replace(/^\[|\]$/g, '').toLowerCase()}:${port || DEFAULT_PORT[protocol] || ''}`;
}

function originKeyOf(url: URL): string {
  return originKey(url.protocol, url.hostname, url.port);
}

/**
 * The checked addresses of a host, in the order to try them (IPv4 first): a literal address as it is, a name resolved
 * once. Throws OutboundRefused unless every address is public (one private answer among public ones is an attack).
 */
export async function checkedAddresses(
  hostname: string, { resolve = systemResolve, isPublicAddress = isPubliclyRoutableAddress }: OutboundPolicy = {},
): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (!isPublicAddress(host)) throw new OutboundRefused('not_public', `${host} is not a public address`);
    return [host];
  }
  // The root's dot and single-label names reach the resolver's search list and hosts file, never a public name.
  if (host.endsWith('.') || !host.includes('.')) throw new OutboundRefused('unresolvable', `${host} is not a fully qualified public name`);
  const addresses = await resolve(host).catch(() => [] as string[]);
  if (!addresses.length) throw new OutboundRefused('unresolvable', `${host} does not resolve`);
  if (addresses.some((a) => !isPublicAddress(a))) throw new OutboundRefused('not_public', `${host} resolves to a non-public address`);
  return [...addresses].sort((a, b) => net.isIP(a) - net.isIP(b));
}

/**
 * A fetch that goes out only through the guard: http(s) only, https unless the origin is listed, the connection
 * opened to a checked address, no redirect followed. A refusal rejects with OutboundRefused itself.
 */
export function createGuardedHttp(policy: OutboundPolicy = {}): GuardedHttp {
  const allowed = new Set([...(policy.privateOrigins ?? [])].map((o) => originKeyOf(new URL(o))));
  const connect = buildConnector({});
  const agent = new Agent({
    connect: (options, callback) => {
      const key = originKey(options.protocol, options.hostname, options.port);
      if (allowed.has(key)) return connect(options, callback);
      checkedAddresses(options.hostname, policy).then(
        ([address]) => {
          const name = options.hostname.replace(/^\[|\]$/g, '');
          // The socket goes to the address just checked; SNI and the certificate check keep the name.
          connect({ ...options, hostname: address, servername: net.isIP(name) ? undefined : name }, callback);
        },
        (err: Error) => callback(err, null),
      );
    },
  });

  const guardedFetch: OutboundFetch = async (input, init) => {
    if (input instanceof Request) {
      init = { method: input.method, headers: input.headers, body: input.body, signal: input.signal, duplex: 'half', ...init } as RequestInit;
    }
    let url: URL;
    try {
      url = new URL(input instanceof Request ? input.url : input);
    } catch {
      throw new OutboundRefused('not_a_url', 'the address is not a URL');
    }
    const key = originKeyOf(url);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed.has(key))) {
      throw new OutboundRefused('not_https', `${url.protocol.replace(/:$/, '')} is not allowed: https only`);
    }
    let response: Response;
    try {
      response = await undiciFetch(url, {
        ...(init as Parameters<typeof undiciFetch>[1]), redirect: 'manual', dispatcher: agent,
      }) as unknown as Response;
    } catch (err) {
      throw refusalIn(err) ?? err;
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel().catch(() => undefined);
      throw new OutboundRefused('redirect', `${url.host} answered ${response.status} with a redirect; redirects are not followed`);
    }
    return response;
  };
  return { fetch: guardedFetch, close: () => agent.close(), destroy: () => agent.destroy() };
}

/** The guard's refusal behind an error (undici wraps a connect error as `fetch failed` with it as the cause). */
export function refusalIn(err: unknown): OutboundRefused | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof OutboundRefused) return e;
  }
  return null;
}
