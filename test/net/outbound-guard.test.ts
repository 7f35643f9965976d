/**
 * The outbound guard (src/net/outbound-guard.ts) against the SSRF forms of the OWASP SSRF Prevention Cheat Sheet: the
 * address checked is the one connected to, redirects are refused, and only listed origins may be private. Names are
 * resolved by an injected resolver, so every case is deterministic; the servers are real, on loopback.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkedAddresses, createGuardedHttp, OutboundRefused, type GuardedHttp, type ResolveHost } from '../../src/net/outbound-guard.js';
import { checkPlatformUrl, UnsafeUrl } from '../../src/sync/platform-url.js';
import { INTERNAL_MARKER, startInternalServer, type InternalServer } from '../support/internal-server.js';

const resolverOf = (table: Record<string, string[]>): ResolveHost & { calls: string[] } => {
  const calls: string[] = [];
  return Object.assign(async (host: string) => {
    calls.push(host);
    return table[host] ?? [];
  }, { calls });
};

async function refusal(work: Promise<unknown>): Promise<OutboundRefused> {
  const err = await work.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(OutboundRefused);
  return err as OutboundRefused;
}

let internal: InternalServer;
let guard: GuardedHttp | undefined;
beforeAll(async () => { internal = await startInternalServer(); });
afterAll(async () => { await internal.close(); });
afterEach(async () => {
  await guard?.close();
  guard = undefined;
  expect(internal.connections).toBe(0);
});

describe('addresses written as literals', () => {
  it.each([
    ['loopback', '127.0.0.1'], ['private 10/8', '10.0.0.8'], ['cloud metadata', '169.254.169.254'], ['IPv6 loopback', '[::1]'],
    ['IPv4-mapped IPv6', '[::ffff:127.0.0.1]'], ['IPv4-mapped IPv6 in hex', '[::ffff:7f00:1]'], ['NAT64 of loopback', '[64:ff9b::7f00:1]'],
    ['decimal', '2130706433'], ['octal', '0177.0.0.1'], ['hexadecimal', '0x7f.1'], ['short form', '127.1'], ['zero', '0.0.0.0'],
    ['unique local IPv6', '[fd00::1]'], ['CGNAT', '100.64.0.1'],
  ])('When a URL names %s (%s), then the request is refused before any connection', async (_what, host) => {
    guard = createGuardedHttp({ resolve: resolverOf({}) });
    const err = await refusal(guard.fetch(`https://${host}:${internal.port}/secret`));
    expect(err.code).toBe('not_public');
  });

  it('When a URL names a public literal address, then it passes the check as it is', async () =>
    expect(await checkedAddresses('8.8.8.8')).toEqual(['8.8.8.8']));
});

describe('names', () => {
  it.each([['the root dot', 'localhost.'], ['a single label', 'vm'], ['a single label with the root dot', 'vm.'], ['localhost', 'localhost']])(
    'When a name is written with %s (%s), then it is refused without asking the resolver',
    async (_what, host) => {
      const resolve = resolverOf({ [host]: ['93.184.215.14'] });
      guard = createGuardedHttp({ resolve });
      const err = await refusal(guard.fetch(`https://${host}/`));
      expect(err.code).toBe('unresolvable');
      expect(resolve.calls).toEqual([]);
    },
  );

  it('When a name does not resolve, then it is refused (not let through)', async () => {
    guard = createGuardedHttp({ resolve: resolverOf({}) });
    expect((await refusal(guard.fetch('https://nowhere.example.com/'))).code).toBe('unresolvable');
  });

  it('When the resolver fails, then the name is refused', async () => {
    guard = createGuardedHttp({ resolve: async () => { throw Object.assign(new Error('queryA ESERVFAIL'), { code: 'ESERVFAIL' }); } });
    expect((await refusal(guard.fetch('https://broken.example.com/'))).code).toBe('unresolvable');
  });

  it.each([
    ['a private address', ['10.1.2.3']], ['loopback', ['127.0.0.1']], ['one private among public ones', ['93.184.215.14', '127.0.0.1']],
    ['an IPv4-mapped loopback', ['::ffff:127.0.0.1']], ['link-local IPv6', ['fe80::1']],
  ])('When a name resolves to %s, then it is refused', async (_what, addresses) => {
    guard = createGuardedHttp({ resolve: resolverOf({ 'internal.example.com': addresses }) });
    const err = await refusal(guard.fetch(`https://internal.example.com:${internal.port}/secret`));
    expect(err.code).toBe('not_public');
  });
});

describe('schemes', () => {
  it.each(['http://93.184.215.14/', 'ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/'])(
    'When the URL is %s, then only https is let out',
    async (url) => {
      guard = createGuardedHttp({ resolve: resolverOf({}) });
      expect((await refusal(guard.fetch(url))).code).toBe('not_https');
    },
  );
});

describe('listed origins (an operator\'s local stand-in)', () => {
  it('When the origin is listed, then it is reached over http on loopback; another port of the same host is not', async () => {
    const standIn = await startInternalServer({ body: '{"ok":true}' });
    try {
      guard = createGuardedHttp({ privateOrigins: [standIn.url] });
      const ok = await guard.fetch(`${standIn.url}/v1/thing`);
      const other = await refusal(guard.fetch(`https://127.0.0.1:${internal.port}/secret`));

      expect(await ok.json()).toEqual({ ok: true });
      expect(other.code).toBe('not_public');
    } finally {
      await standIn.close();
    }
  });

  it('When a listed origin answers with a redirect to an internal address, then the redirect is refused and not followed', async () => {
    const redirecting = await startInternalServer({ status: 307, body: '', headers: { location: `${internal.url}/secret` } });
    try {
      guard = createGuardedHttp({ privateOrigins: [redirecting.url] });
      const err = await refusal(guard.fetch(`${redirecting.url}/api`, { method: 'POST', body: '{}', headers: { authorization: 'Bearer t' } }));

      expect(err.code).toBe('redirect');
      expect(err.message).not.toContain(INTERNAL_MARKER);
      expect(redirecting.requests).toHaveLength(1);
    } finally {
      await redirecting.close();
    }
  });
});

describe('DNS rebinding', () => {
  /** Two plain TCP servers on one port: 127.0.0.2 stands for the public address, 127.0.0.1 for the internal one. */
  async function twoServers() {
    const seen = { public: 0, internal: 0 };
    const open = (host: string, port: number, key: keyof typeof seen) => new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer((socket) => { seen[key]++; socket.destroy(); });
      server.once('error', reject).listen(port, host, () => resolve(server));
    });
    for (;;) {
      const first = await open('127.0.0.2', 0, 'public');
      const port = (first.address() as net.AddressInfo).port;
      const second = await open('127.0.0.1', port, 'internal').catch(() => null);
      if (second) return { seen, port, close: () => Promise.all([first, second].map((s) => new Promise((r) => s.close(r)))) };
      await new Promise((r) => first.close(r));
    }
  }

  it('When a name answers a public address first and a private one after, then it is resolved once and the connection goes to the address checked', async () => {
    const servers = await twoServers();
    const answers = [['127.0.0.2'], ['127.0.0.1']];
    let lookups = 0;
    guard = createGuardedHttp({
      resolve: async () => answers[Math.min(lookups++, 1)],
      isPublicAddress: (address) => address === '127.0.0.2',
    });
    try {
      // The stand-in "public" server hangs up (no TLS): the request fails, but where it connected is what counts.
      await guard.fetch(`https://rebind.example.com:${servers.port}/secret`).catch(() => undefined);

      expect(lookups).toBe(1);
      expect(servers.seen).toEqual({ public: 1, internal: 0 });
    } finally {
      await servers.close();
    }
  });
});

describe('the check when a connector is saved (checkPlatformUrl)', () => {
  const resolve = resolverOf({ 'login.example.com': ['93.184.215.14'], 'internal.example.com': ['10.0.0.1'] });

  it.each([
    'https://localhost.', 'https://vm.', 'https://vm', 'https://nowhere.example.com', 'https://internal.example.com',
    'https://2130706433', 'https://0x7f.1', 'https://[::ffff:127.0.0.1]', 'http://login.example.com', 'https://u:p@login.example.com',
  ])('When the URL is %s, then it is refused', async (url) =>
    expect(checkPlatformUrl(url, false, { resolve })).rejects.toBeInstanceOf(UnsafeUrl));

  it('When the URL is an https name resolving to public addresses only, then it is accepted', async () =>
    expect(checkPlatformUrl('https://login.example.com', false, { resolve })).resolves.toBeUndefined());
});
