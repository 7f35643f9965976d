/**
 * A small stub-resolver client (RFC 1035 §4) for the three questions the e-mail check asks: MX, A and AAAA.
 * Our own, rather than node's `dns.Resolver`, because the check needs what that API hides: the records' TTLs
 * (a cache that honours them), the SOA minimum of negative answers (RFC 2308 §5), and the response code kept
 * apart from time-outs. UDP first; a truncated answer is asked again over TCP (RFC 7766 §5).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import { randomInt } from 'node:crypto';

export const DNS_TYPE = { A: 1, MX: 15, AAAA: 28, CNAME: 5, SOA: 6 } as const;
export type DnsQuestionType = 'A' | 'AAAA' | 'MX';

/** RFC 1035 §4.1.1 RCODE values the check tells apart. */
export const DNS_RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

export type DnsRecord =
  | { type: 'A' | 'AAAA'; ttl: number; address: string }
  | { type: 'MX'; ttl: number; preference: number; exchange: string };

export interface DnsAnswer {
  rcode: number;
  records: DnsRecord[];
  /** TTL for caching a negative answer: min(SOA TTL, SOA MINIMUM) from the authority section, if any. */
  negativeTtl: number | null;
}

export interface DnsServer { host: string; port: number }

export class DnsTimeoutError extends Error {
  constructor(name: string, type: string) {
    super(`DNS ${type} ${name}: no answer in time`);
    this.name = 'DnsTimeoutError';
  }
}

/** `1.2.3.4`, `1.2.3.4:53`, `[::1]:5353`, `::1`. */
export function parseDnsServer(spec: string): DnsServer {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(spec);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : 53 };
  if (net.isIPv6(spec)) return { host: spec, port: 53 };
  const hostPort = /^([^:]+)(?::(\d+))?$/.exec(spec);
  if (!hostPort) throw new Error(`bad DNS server "${spec}", expected host:port`);
  return { host: hostPort[1], port: hostPort[2] ? Number(hostPort[2]) : 53 };
}

/**
 * Asks the servers in turn (RFC 1035 §7.2) until one answers; the whole question gives up at `timeoutMs`.
 * Any answer, NXDOMAIN and SERVFAIL included, is returned: the caller decides what each means.
 */
export async function queryDns(
  servers: readonly DnsServer[],
  name: string,
  type: DnsQuestionType,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DnsAnswer> {
  const giveUpAt = Date.now() + timeoutMs;
  const perServerMs = Math.max(50, Math.floor(timeoutMs / Math.max(1, servers.length)));
  for (const server of servers) {
    const remaining = giveUpAt - Date.now();
    if (remaining <= 0 || signal?.aborted) break;
    try {
      const id = randomInt(0, 0x10000);
      const query = encodeQuery(id, name, DNS_TYPE[type]);
      let message = await exchangeUdp(server, query, id, Math.min(perServerMs, remaining), signal);
      if (message.readUInt16BE(2) & 0x0200) {
        message = await exchangeTcp(server, query, id, Math.max(50, giveUpAt - Date.now()), signal);
      }
      return decodeAnswer(message);
    } catch (error) {
      if (!(error instanceof DnsTimeoutError) && !isNetworkError(error)) throw error;
    }
  }
  throw new DnsTimeoutError(name, type);
}

function isNetworkError(error: unknown): boolean {
  return typeof (error as NodeJS.ErrnoException)?.code === 'string';
}

function encodeQuery(id: number, name: string, qtype: number): Buffer {
  const labels = name.split('.').filter(Boolean).map((label) => {
    const bytes = Buffer.from(label, 'ascii');
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // RD: recursion desired
  header.writeUInt16BE(1, 4); // QDCOUNT
  const question = Buffer.alloc(4);
  question.writeUInt16BE(qtype, 0);
  question.writeUInt16BE(1, 2); // class IN
  return Buffer.concat([header, ...labels, Buffer.from([0]), question]);
}

type Finish = (error: Error | null, message?: Buffer) => void;

/** One request and its answer on a socket: settles once, on the answer, an error, the time limit or `signal`. */
function exchangeOnce(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  closeSocket: () => void,
  start: (finish: Finish) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const onAbort = () => finish(new DnsTimeoutError('', ''));
    const finish: Finish = (error, message) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      closeSocket();
      if (error) reject(error);
      else resolve(message!);
    };
    const timer = setTimeout(() => finish(new DnsTimeoutError('', '')), timeoutMs);
    signal?.addEventListener('abort', onAbort);
    start(finish);
    if (signal?.aborted) onAbort();
  });
}

function exchangeUdp(server: DnsServer, query: Buffer, id: number, timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
  const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
  return exchangeOnce(timeoutMs, signal, () => socket.close(), (finish) => {
    socket.on('error', (error) => finish(error));
    socket.on('message', (message, remote) => {
      // RFC 5452 §9.1: only an answer from the server asked, with our id, is taken.
      const fromServer = remote.port === server.port && (!net.isIPv4(server.host) || remote.address === server.host);
      if (!fromServer || message.length < 12 || message.readUInt16BE(0) !== id) return;
      finish(null, message);
    });
    socket.send(query, server.port, server.host);
  });
}

function exchangeTcp(server: DnsServer, query: Buffer, id: number, timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
  const socket = net.connect({ host: server.host, port: server.port });
  return exchangeOnce(timeoutMs, signal, () => socket.destroy(), (finish) => {
    let received = Buffer.alloc(0);
    socket.on('error', (error) => finish(error));
    socket.on('connect', () => {
      // RFC 1035 §4.2.2: over TCP each message is preceded by its two-octet length.
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2 || received.length < 2 + received.readUInt16BE(0)) return;
      const message = received.subarray(2, 2 + received.readUInt16BE(0));
      if (message.length < 12 || message.readUInt16BE(0) !== id) finish(new Error('DNS over TCP: wrong id'));
      else finish(null, message);
    });
  });
}

/** RFC 1035 §4.1.4: names may point back into the message; a loop or an overrun is a malformed message. */
function readName(message: Buffer, start: number): { name: string; next: number } {
  const labels: string[] = [];
  let offset = start;
  let next = -1;
  for (let jumps = 0; jumps < 64; jumps++) {
    const length = message[offset];
    if (length === undefined) throw new Error('DNS: name runs past the message');
    if ((length & 0xc0) === 0xc0) {
      if (next < 0) next = offset + 2;
      offset = message.readUInt16BE(offset) & 0x3fff;
      continue;
    }
    if (length === 0) return { name: labels.join('.').toLowerCase(), next: next < 0 ? offset + 1 : next };
    labels.push(message.toString('latin1', offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  throw new Error('DNS: compression loop');
}

function decodeAnswer(message: Buffer): DnsAnswer {
  const rcode = message.readUInt16BE(2) & 0x000f;
  const qdcount = message.readUInt16BE(4);
  const ancount = message.readUInt16BE(6);
  const nscount = message.readUInt16BE(8);
  let offset = 12;
  for (let i = 0; i < qdcount; i++) offset = readName(message, offset).next + 4;

  const records: DnsRecord[] = [];
  let negativeTtl: number | null = null;
  for (let i = 0; i < ancount + nscount; i++) {
    offset = readName(message, offset).next;
    const type = message.readUInt16BE(offset);
    const ttl = message.readUInt32BE(offset + 4);
    const rdlength = message.readUInt16BE(offset + 8);
    const rdata = offset + 10;
    offset = rdata + rdlength;
    if (offset > message.length) throw new Error('DNS: record runs past the message');
    const inAnswer = i < ancount;
    if (inAnswer && type === DNS_TYPE.A && rdlength === 4) {
      records.push({ type: 'A', ttl, address: [...message.subarray(rdata, rdata + 4)].join('.') });
    } else if (inAnswer && type === DNS_TYPE.AAAA && rdlength === 16) {
      const groups: string[] = [];
      for (let g = 0; g < 8; g++) groups.push(message.readUInt16BE(rdata + 2 * g).toString(16));
      records.push({ type: 'AAAA', ttl, address: groups.join(':') });
    } else if (inAnswer && type === DNS_TYPE.MX) {
      const preference = message.readUInt16BE(rdata);
      records.push({ type: 'MX', ttl, preference, exchange: readName(message, rdata + 2).name });
    } else if (!inAnswer && type === DNS_TYPE.SOA) {
      // RFC 2308 §5: negative answers live min(SOA TTL, SOA MINIMUM) seconds.
      const afterMname = readName(message, rdata).next;
      const afterRname = readName(message, afterMname).next;
      const minimum = message.readUInt32BE(afterRname + 16);
      negativeTtl = Math.min(ttl, minimum);
    }
  }
  return { rcode, records, negativeTtl };
}
