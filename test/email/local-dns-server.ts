/** A real DNS server on 127.0.0.1 (dns2) answering from a small zone table, for the e-mail engine's tests. */
import dns2 from 'dns2';

const { Packet } = dns2;
/** dns2's typings lack RCODE and are narrower than the records it encodes. */
const RCODE = (Packet as unknown as { RCODE: Record<'NXDOMAIN', number> }).RCODE;

export interface ZoneEntry {
  MX?: Array<{ exchange: string; priority: number }>;
  A?: string[];
  AAAA?: string[];
  /** RFC 1035 response code to answer with (3 NXDOMAIN, 2 SERVFAIL). */
  rcode?: number;
  /** Never answer (a resolver time-out). */
  silent?: boolean;
  /** Answer this many milliseconds late (a slow resolver holding a request mid-way). */
  delayMs?: number;
  ttl?: number;
}

export interface LocalDnsServer {
  address: string;
  /** How many questions each `TYPE name` got. */
  questions: Map<string, number>;
  /**
   * A broken resolver (a captive or misconfigured network): NXDOMAIN without an SOA for every name while true. Set
   * it back to false and the zone answers again.
   */
  denyAll: boolean;
  close(): Promise<void>;
}

export interface LocalDnsServerOptions {
  /** NXDOMAIN answers carry the zone's SOA in the authority section, as an authoritative server's do (RFC 2308 §3). */
  soaOnNxdomain?: boolean;
}

/** An SOA for `name`'s authority section: negative answers are cached min(ttl, minimum) seconds (RFC 2308 §5). */
function soaOf(name: string, ttl = 60): object {
  return {
    name, type: Packet.TYPE.SOA, class: Packet.CLASS.IN, ttl, primary: `ns.${name}`, admin: `hostmaster.${name}`,
    serial: 1, refresh: 3600, retry: 600, expiration: 86400, minimum: 60,
  };
}

const TYPE_NAMES: Record<number, 'A' | 'AAAA' | 'MX'> = { [Packet.TYPE.A]: 'A', [Packet.TYPE.AAAA]: 'AAAA', [Packet.TYPE.MX]: 'MX' };

export async function startLocalDnsServer(
  zone: Record<string, ZoneEntry>, options: LocalDnsServerOptions = {},
): Promise<LocalDnsServer> {
  const questions = new Map<string, number>();
  const state = { denyAll: false };
  const server = dns2.createServer({
    udp: true,
    handle: (request: any, sendNow: (response: any) => void) => {
      const response: any = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = String(question.name).toLowerCase();
      const typeName = TYPE_NAMES[question.type];
      questions.set(`${typeName} ${name}`, (questions.get(`${typeName} ${name}`) ?? 0) + 1);
      const entry = zone[name];
      const send = (r: any) => (entry?.delayMs ? setTimeout(() => sendNow(r), entry.delayMs) : sendNow(r));
      if (state.denyAll) {
        response.header.rcode = RCODE.NXDOMAIN;
        send(response);
        return;
      }
      if (entry?.silent) return;
      if (!entry) {
        response.header.rcode = RCODE.NXDOMAIN;
        if (options.soaOnNxdomain) response.authorities.push(soaOf(name.slice(name.lastIndexOf('.') + 1)));
      } else if (entry.rcode !== undefined) {
        response.header.rcode = entry.rcode;
      } else {
        const ttl = entry.ttl ?? 300;
        const base = { name, class: Packet.CLASS.IN, ttl };
        if (typeName === 'MX') for (const mx of entry.MX ?? []) response.answers.push({ ...base, type: Packet.TYPE.MX, ...mx });
        if (typeName === 'A') for (const address of entry.A ?? []) response.answers.push({ ...base, type: Packet.TYPE.A, address });
        if (typeName === 'AAAA') for (const address of entry.AAAA ?? []) response.answers.push({ ...base, type: Packet.TYPE.AAAA, address });
        if (response.answers.length === 0) response.authorities.push(soaOf(name));
      }
      send(response);
    },
  });
  const addresses: any = await server.listen({ udp: { port: 0, address: '127.0.0.1' } } as any);
  return {
    address: `127.0.0.1:${addresses.udp.port}`,
    questions,
    get denyAll() { return state.denyAll; },
    set denyAll(value: boolean) { state.denyAll = value; },
    close: () => server.close() as Promise<void>,
  };
}
