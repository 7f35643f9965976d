/**
 * The way out to the mail servers: which egress a probe takes (a SOCKS5 proxy whose address port 25 lets through, or
 * this host itself), chosen by the MX's provider, with the EHLO name and MAIL FROM that egress's reverse DNS vouches
 * for (the big providers refuse a name that does not match the connecting address). The engine never opens a proxy
 * connection itself: each egress's `connect` is handed in (src/net/socks-egress.ts), and the engine only asks it for a
 * socket to an address the SSRF guard has already checked (mailbox-probe.ts), never for a name.
 */
import net from 'node:net';

/** A fault of the egress itself, not of the mail server it was asked to reach. */
export type EgressFault =
  /** The proxy refused to reach that address and port (SOCKS5 reply 2, "connection not allowed by ruleset"). */
  | 'blocked'
  /** The proxy could not be reached, or did not speak SOCKS5. */
  | 'unavailable'
  /** The proxy refused our username and password (RFC 1929 status not 0), or every method we offered. */
  | 'auth';

export class EgressError extends Error {
  override readonly name = 'EgressError';
  constructor(readonly fault: EgressFault, message: string) {
    super(message);
  }
}

export interface MailEgress {
  /** `direct`, or the name the configuration gave (SMTP_EGRESS_<NAME>_URL): metrics, logs, /readyz. */
  readonly name: string;
  /** EHLO name (RFC 5321 §4.1.1.1) and reverse-path (§4.1.1.2) on this egress's connections. */
  readonly heloName: string;
  readonly mailFrom: string;
  /**
   * A TCP connection to `ip`:`port` (an IP literal: the guard has checked it). Rejects with an EgressError for a fault
   * of the egress, an error with a `code` (ECONNREFUSED, EHOSTUNREACH, ETIMEDOUT) for one of the path to the server.
   */
  connect(ip: string, port: number, timeoutMs: number): Promise<net.Socket>;
}

/** What the periodic check (egress-health.ts) last found of an egress. */
export type EgressState = 'ok' | 'blocked' | 'unavailable' | 'auth_failed' | 'unchecked';

export interface EgressReport {
  name: string;
  state: EgressState;
  /** The providers it carries (`*`: every provider no other egress names). */
  providers: string[];
  /** When the state last changed (epoch ms); null before any check. */
  since: number | null;
}

export interface EgressRoute {
  egress: MailEgress;
  /** Provider names of mail-provider-policies.ts (`google`, `microsoft365`, …, `other`); null: every one no other egress names. */
  providers: readonly string[] | null;
}

/** A TCP connection straight from this host; ETIMEDOUT after `timeoutMs` (the socket is closed then). */
export function connectDirectly(ip: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: ip, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error(`connect ETIMEDOUT ${ip}:${port}`), { code: 'ETIMEDOUT' }));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** This host itself (no proxy): what the probe did before egresses existed. */
export function directEgress(heloName: string, mailFrom: string): MailEgress {
  return { name: 'direct', heloName, mailFrom, connect: connectDirectly };
}

/**
 * Which egress each provider's mail goes out by: an egress that names the provider; else the one that names none (the
 * default); else this host directly. `inUse()` lists the egresses some provider can reach, each once.
 */
export class EgressChoice {
  private readonly byProvider = new Map<string, MailEgress>();
  private readonly fallback: MailEgress;

  constructor(routes: readonly EgressRoute[], direct: MailEgress) {
    for (const route of routes) for (const provider of route.providers ?? []) if (!this.byProvider.has(provider)) this.byProvider.set(provider, route.egress);
    this.fallback = routes.find((route) => route.providers === null)?.egress ?? direct;
  }

  forProvider(provider: string): MailEgress {
    return this.byProvider.get(provider) ?? this.fallback;
  }

  /** Every egress a probe may take, with the providers it carries. */
  inUse(): { egress: MailEgress; providers: string[] }[] {
    const carried = new Map<MailEgress, string[]>();
    for (const [provider, egress] of this.byProvider) carried.set(egress, [...(carried.get(egress) ?? []), provider]);
    carried.set(this.fallback, [...(carried.get(this.fallback) ?? []), '*']);
    return [...carried].map(([egress, providers]) => ({ egress, providers }));
  }
}
