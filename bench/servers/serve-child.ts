/**
 * What every plain benchmark child does with its Express app: listen on a free loopback port, print one JSON line
 * (`{"url", …extra}`) on stdout once it listens, and stop on SIGTERM, SIGINT or when stdin closes (the parent is gone).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export function serveChild(app: http.RequestListener, extra: Record<string, unknown> = {}): void {
  const server = http.createServer(app);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, ...extra })}\n`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.once('end', stop).resume();
}
