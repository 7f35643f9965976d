/**
 * An "internal" server on 127.0.0.1 (port 0) standing for what an SSRF reaches: a metadata endpoint, an admin API.
 * Every answer carries a marker string, so a test can tell whether its body reached anything a tenant sees; every
 * request, and every connection (a refused request must not even connect), is counted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const INTERNAL_MARKER = 'INTERNAL-SECRET-5d1c0a';

export interface InternalServer {
  url: string;
  port: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  connections: number;
  close(): Promise<void>;
}

/**
 * `body` is what every request gets: by default a JSON object whose every string field is the marker (so that a client
 * that reads a field shows it) with status 200.
 */
export async function startInternalServer(
  answer: { status?: number; contentType?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<InternalServer> {
  const body = answer.body ?? JSON.stringify({
    valid: true, message: INTERNAL_MARKER, errorCode: INTERNAL_MARKER, errors: INTERNAL_MARKER,
    line_type_intelligence: { error_code: null, type: 'mobile', carrier_name: INTERNAL_MARKER },
  });
  const server = http.createServer((req, res) => {
    state.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
    res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json', ...answer.headers }).end(body);
  });
  server.on('connection', () => { state.connections++; });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const state: InternalServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    connections: 0,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
  return state;
}
