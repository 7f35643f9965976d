import dgram from 'node:dgram';
import dns2 from 'dns2';
import { afterEach, describe, expect, it } from 'vitest';
import { DNS_RCODE, parseDnsServer, queryDns, type DnsServer } from '../../src/validation/email/dns-wire-client.js';

const { Packet } = dns2;

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A dns2 server for one transport; `handle` fills the response. */
async function serve(transport: 'udp' | 'tcp', port: number, handle: (name: string, response: any) => void): Promise<number> {
  const server = dns2.createServer({
    [transport]: true,
    handle: (request: any, send: (r: any) => void) => {
      const response: any = Packet.createResponseFromRequest(request);
      handle(String(request.questions[0].name), response);
      send(response);
    },
  } as any);
  const addresses: any = await server.listen({ [transport]: { port, address: '127.0.0.1' } } as any);
  closers.push(() => server.close());
  return addresses[transport].port;
}

const mx = (name: string, exchange: string, priority: number, ttl = 300) =>
  ({ name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl, exchange, priority });

describe('DNS wire client', () => {
  it('When the UDP answer is truncated, then the question is asked again over TCP', async () => {
    // TCP first, on a port the system picks: a TCP port picked for UDP could be in use by another test's outgoing
    // connection (EADDRINUSE, seen under the whole suite); few UDP ports are taken.
    const port = await serve('tcp', 0, (name, response) => {
      response.answers.push(mx(name, 'mx1.big.test', 10), mx(name, 'mx2.big.test', 20));
    });
    await serve('udp', port, (_name, response) => {
      response.header.tc = 1;
    });
    const answer = await queryDns([{ host: '127.0.0.1', port }], 'big.test', 'MX', 1000);
    expect(answer.records.map((r) => (r.type === 'MX' ? r.exchange : ''))).toEqual(['mx1.big.test', 'mx2.big.test']);
  });

  it('When the domain does not exist, then the answer is NXDOMAIN with the SOA negative TTL', async () => {
    const port = await serve('udp', 0, (name, response) => {
      response.header.rcode = 3;
      response.authorities.push({
        name, type: Packet.TYPE.SOA, class: Packet.CLASS.IN, ttl: 30, primary: 'ns.test', admin: 'hostmaster.test',
        serial: 1, refresh: 3600, retry: 600, expiration: 86400, minimum: 60,
      });
    });
    const answer = await queryDns([{ host: '127.0.0.1', port }], 'nowhere.test', 'MX', 1000);
    expect(answer).toMatchObject({ rcode: DNS_RCODE.NXDOMAIN, records: [], negativeTtl: 30 });
  });

  it('When the first server does not answer, then the next one is asked within the time limit', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    closers.push(async () => silent.close());
    const port = await serve('udp', 0, (name, response) => {
      response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 42, address: '192.0.2.7' });
    });
    const servers: DnsServer[] = [{ host: '127.0.0.1', port: silent.address().port }, { host: '127.0.0.1', port }];
    const answer = await queryDns(servers, 'host.test', 'A', 600);
    expect(answer.records).toEqual([{ type: 'A', ttl: 42, address: '192.0.2.7' }]);
  });

  it('When no server answers, then the question fails as a time-out, not as NXDOMAIN', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    closers.push(async () => silent.close());
    await expect(queryDns([{ host: '127.0.0.1', port: silent.address().port }], 'x.test', 'MX', 100)).rejects.toMatchObject({
      name: 'DnsTimeoutError',
    });
  });

  it.each([
    ['1.2.3.4', { host: '1.2.3.4', port: 53 }],
    ['127.0.0.1:5353', { host: '127.0.0.1', port: 5353 }],
    ['[::1]:5353', { host: '::1', port: 5353 }],
    ['2001:4860:4860::8888', { host: '2001:4860:4860::8888', port: 53 }],
    ['dns.internal:53', { host: 'dns.internal', port: 53 }],
  ])('When EMAIL_DNS_SERVERS names %s, then the client asks %j', (spec, server) => {
    expect(parseDnsServer(spec)).toEqual(server);
  });
});
