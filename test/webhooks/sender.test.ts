/**
 * One delivery attempt (src/webhooks/sender.ts) against real local servers: the guard holds at send time (a name that
 * resolves to a private address now is refused, whatever it resolved to when the endpoint was saved), a redirect is
 * not followed, a slow receiver is cut at the timeout, and what is kept of an answer is short and tenant-safe.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDelivery, type SendSettings } from '../../src/webhooks/sender.js';
import { SIGNATURE_HEADER, signatureHeader, verifySignature } from '../../src/webhooks/signature.js';
import { startInternalServer, type InternalServer } from '../support/internal-server.js';

const SECRET = 'whsec_test_secret';
const BODY = JSON.stringify({ id: 'evt_1', type: 'credits.low', created: 1_795_849_200, data: { balance: 4 } });
const settings = (over: Partial<SendSettings> = {}): SendSettings => ({ timeoutMs: 1000, allowPrivate: true, userAgent: 'test', ...over });

describe('a webhook delivery attempt', () => {
  let internal: InternalServer;
  let receiver: http.Server;
  let url = '';
  let answer: (res: http.ServerResponse) => void = (res) => res.end('ok');
  const seen: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  beforeAll(async () => {
    internal = await startInternalServer();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => {
        seen.push({ headers: req.headers, body });
        answer(res);
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    receiver.close();
    await internal.close();
  });

  it('When the receiver answers 2xx, then the body it got is the one signed, with a fresh timestamp', async () => {
    answer = (res) => res.writeHead(202).end('accepted');

    const result = await sendDelivery(url, SECRET, BODY, settings(), 1_795_849_260);

    const last = seen.at(-1)!;
    expect(result).toEqual({ ok: true, status: 202, text: 'accepted' });
    expect(last.body).toBe(BODY);
    expect(last.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(signatureHeader(SECRET, 1_795_849_260, BODY));
    expect(verifySignature(SECRET, BODY, String(last.headers[SIGNATURE_HEADER.toLowerCase()]), { nowS: 1_795_849_300 })).toBe(true);
    expect(verifySignature(SECRET, BODY, String(last.headers[SIGNATURE_HEADER.toLowerCase()]), { nowS: 1_795_849_260 + 301 })).toBe(false);
  });

  it('When the signature is computed, then it is the HMAC-SHA256 of "<t>.<body>" under the secret, as hex', () => {
    // Cross-checked with: printf '%s' '1795849200.{"a":1}' | openssl dgst -sha256 -hmac whsec_test_secret
    expect(signatureHeader(SECRET, 1_795_849_200, '{"a":1}')).toBe('t=1795849200,v1=3752880f70a0fc7ad39628aa58fc00fa1f4791fa5bfc94dbe5b0d8d9894047d9');
  });

  it('When the answer is an HTML error page, then the log keeps its status and 200 characters of plain text', async () => {
    answer = (res) => res.writeHead(500, { 'content-type': 'text/html' }).end(`<html><body><h1>Oops</h1>${'x'.repeat(5000)}\u202e</body></html>`);

    const result = await sendDelivery(url, SECRET, BODY, settings(), 1);

    expect(result.ok).toBe(false);
    expect(result.status).toBe(500);
    expect(result.text.length).toBeLessThanOrEqual(200);
    expect(result.text).toMatch(/^Oops x+…$/);
  });

  it('When the receiver redirects to an internal server, then the redirect is not followed', async () => {
    answer = (res) => res.writeHead(302, { location: `${internal.url}/latest/meta-data` }).end();

    const result = await sendDelivery(url, SECRET, BODY, settings(), 1);

    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.text).toMatch(/redirect/);
    expect(internal.requests).toHaveLength(0);
  });

  it('When the receiver does not answer in time, then the attempt fails at the timeout', async () => {
    answer = () => undefined; // never answers
    const started = Date.now();

    const result = await sendDelivery(url, SECRET, BODY, settings({ timeoutMs: 300 }), 1);

    expect(result).toEqual({ ok: false, status: null, text: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('When private addresses are not allowed, then an http URL, a loopback address and a name resolving to one are refused before connecting', async () => {
    const before = internal.connections;
    const hostUrl = new URL(internal.url);
    const cases = [
      await sendDelivery(internal.url, SECRET, BODY, settings({ allowPrivate: false }), 1),
      await sendDelivery(`https://${hostUrl.host}/x`, SECRET, BODY, settings({ allowPrivate: false }), 1),
      // Saved when the name was public; it resolves to loopback now (DNS rebinding): the guard checks at connection time.
      await sendDelivery(`https://hooks.example.com:${hostUrl.port}/x`, SECRET, BODY,
        settings({ allowPrivate: false, policy: { resolve: async () => ['127.0.0.1'] } }), 1),
    ];

    expect(cases.map((c) => c.ok)).toEqual([false, false, false]);
    expect(cases[0]!.text).toMatch(/https only/);
    expect(cases[1]!.text).toMatch(/not a public address/);
    expect(cases[2]!.text).toMatch(/non-public address/);
    expect(internal.connections).toBe(before);
  });
});
