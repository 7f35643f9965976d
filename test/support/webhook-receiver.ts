/**
 * A webhook receiver on 127.0.0.1 (port 0), as a tenant runs one: it keeps every request (headers and raw body) and
 * answers what the test says (`respond`, by default 200), e.g. 503 for the first tries, or a redirect.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  at: number;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; created: number; data: Record<string, unknown> };
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The answer to the next request, given how many came before it and its body. */
  respond: (n: number, body: ReceivedDelivery['body']) => { status: number; body?: string; headers?: Record<string, string> };
  /** Waits (up to `timeoutMs`) until `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    respond: () => ({ status: 200, body: 'ok' }),
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > until) throw new Error(`${receiver.received.length} of ${count} deliveries within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return receiver.received;
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ReceivedDelivery['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        body = { id: '', type: '', created: 0, data: {} };
      }
      const answer = receiver.respond(receiver.received.length, body);
      receiver.received.push({ at: Date.now(), headers: req.headers, raw, body });
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
