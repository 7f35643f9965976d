/**
 * Benchmark child: the baseline, a bare Express 5 app that parses the same JSON bodies on the same path and answers a
 * small JSON object. Prints one JSON line `{"url"}` on stdout once it listens; stops on SIGTERM, SIGINT or when stdin
 * closes (the parent is gone).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

const app = express();
app.post('/v1/validate', express.json(), (req, res) => {
  res.json({ ok: true, fields: Object.keys(req.body ?? {}).length });
});

const server = http.createServer(app);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.once('end', stop).resume();
