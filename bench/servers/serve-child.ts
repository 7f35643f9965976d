/**
 * What every plain benchmark child does with its Express app: listen on a free loopback port, then speak as the quiet
 * service's child does (test/support/service-child.ts): one JSON line (`{"url", …extra}`) on stdout, and a stop on
 * SIGTERM, SIGINT or when stdin closes (the parent is gone).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveUntilParentGoes } from '../../test/support/service-child.js';

export function serveChild(app: http.RequestListener, extra: Record<string, unknown> = {}): void {
  const server = http.createServer(app);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    serveUntilParentGoes({ url: `http://127.0.0.1:${port}`, ...extra }, () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  });
}
