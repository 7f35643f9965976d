/**
 * An egress for the mailbox probe through a SOCKS5 proxy (RFC 1928) with username/password (RFC 1929), on the `socks`
 * package: a host whose address port 25 lets through and whose reverse DNS matches the EHLO name the probe gives.
 * - The proxy is asked for an IP literal only (address type 1 or 4, never 3, a domain name): the engine resolved the MX
 *   name itself and the SSRF guard checked that address (mailbox-probe.ts), so the proxy cannot be made to resolve a
 *   name to an internal address behind it. A name handed here is refused before anything is sent.
 * - The TCP connection to the proxy is ours (then handed to `socks`), so that a proxy that cannot be reached is told
 *   apart from a mail server that cannot: the first is the egress's fault (`unavailable`), the second the path's.
 */
import net from 'node:net';
import { SocksClient } from 'socks';
import { EgressError, type MailEgress } from '../validation/email/index.js';

export interface SocksEgressSettings {
  name: string;
  proxy: { host: string; port: number; username?: string; password?: string };
  heloName: string;
  mailFrom: string;
}

/**
 * SOCKS5 replies (RFC 1928 §6) that are about the path to the mail server, as the socket errors a direct connection
 * would give; `socks` names them in its message. Reply 2 ("not allowed by ruleset") is the proxy's own refusal.
 */
const PATH_REPLIES: Record<string, string> = {
  NetworkUnreachable: 'ENETUNREACH', HostUnreachable: 'EHOSTUNREACH', ConnectionRefused: 'ECONNREFUSED', TTLExpired: 'ETIMEDOUT', Failure: 'ECONNRESET',
};

export function createSocksEgress(settings: SocksEgressSettings): MailEgress {
  const { proxy } = settings;
  const where = `SOCKS5 proxy ${proxy.host}:${proxy.port} (egress ${settings.name})`;
  return {
    name: settings.name,
    heloName: settings.heloName,
    mailFrom: settings.mailFrom,
    async connect(ip, port, timeoutMs) {
      if (!net.isIP(ip)) throw new EgressError('blocked', `${where}: refusing to ask the proxy for a name (${ip.slice(0, 64)})`);
      const started = Date.now();
      const socket = await connectToProxy(proxy.host, proxy.port, timeoutMs, where);
      try {
        const { socket: through } = await SocksClient.createConnection({
          proxy: { host: proxy.host, port: proxy.port, type: 5, userId: proxy.username, password: proxy.password },
          command: 'connect',
          destination: { host: ip, port },
          existing_socket: socket,
          timeout: Math.max(1, timeoutMs - (Date.now() - started)),
        });
        return through as net.Socket;
      } catch (error) {
        socket.destroy();
        throw socksFailure((error as Error).message, where, `${ip}:${port}`);
      }
    },
  };
}

function connectToProxy(host: string, port: number, timeoutMs: number, where: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new EgressError('unavailable', `${where}: no connection in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new EgressError('unavailable', `${where}: ${error.code ?? error.message}`));
    });
  });
}

/** What a `socks` failure means for the probe (its messages are the package's ERRORS constants). */
function socksFailure(message: string, where: string, destination: string): Error {
  if (/Authentication failed|no accepted authentication type/i.test(message)) {
    return new EgressError('auth', `${where}: the proxy refused the username and password`);
  }
  const rejected = /Socks5 proxy rejected connection - (\w+)/.exec(message)?.[1];
  if (rejected === 'NotAllowed') return new EgressError('blocked', `${where}: the proxy does not let us reach ${destination}`);
  if (rejected && PATH_REPLIES[rejected]) {
    return Object.assign(new Error(`${where}: ${rejected} for ${destination}`), { code: PATH_REPLIES[rejected] });
  }
  if (/timed out/i.test(message)) return Object.assign(new Error(`${where}: no answer for ${destination} in time`), { code: 'ETIMEDOUT' });
  return new EgressError('unavailable', `${where}: ${message}`);
}
