/** Small HTTP helpers of the OpenAPI conformance test: requests as a client sends them, and the stand-ins it needs. */
import net from 'node:net';
import type { TestService } from '../support/service.js';

type Json = Record<string, any>;

export function call(s: TestService, method: string, path: string, init: { key?: string; body?: RequestInit['body']; type?: string; headers?: Record<string, string> } = {}) {
  return fetch(s.url + path, {
    method,
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.type ? { 'content-type': init.type } : {}),
      ...init.headers,
    },
    body: init.body,
  });
}
export const json = (body: unknown) => ({ body: typeof body === 'string' ? body : JSON.stringify(body), type: 'application/json' });
/** A JSON body over the 16 KiB limit. */
export const BIG_JSON = json({ email: 'a@b.co', padding: 'x'.repeat(17 * 1024) });

/** A server that takes connections and never answers: a connector's run against it stays `running`. */
export async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket.on('error', () => undefined)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => { for (const s of sockets) s.destroy(); server.close(); },
  };
}

export function salesforceBody(loginUrl: string) {
  return {
    type: 'salesforce', name: 'Conformance org', schedule: '0 3 * * *',
    settings: { login_url: loginUrl, api_version: '62.0', objects: ['Contact'] },
    credentials: { client_id: 'id', client_secret: 'secret' },
    write_back: { overwrite_address: false },
  };
}

/** Polls a batch until it reaches one of `statuses`. */
export async function batchUntil(s: TestService, key: string, id: string, statuses: string[]): Promise<Json> {
  for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    const batch = (await (await call(s, 'GET', `/v1/batches/${id}`, { key })).json()) as Json;
    if (statuses.includes(batch.status)) return batch;
  }
  throw new Error(`batch ${id} never reached ${statuses.join('/')}`);
}
