/**
 * Benchmark child: the baseline, a bare Express 5 app that parses the same JSON bodies on the same path and answers a
 * small JSON object. Prints one JSON line `{"url"}` on stdout once it listens; stops on SIGTERM, SIGINT or when stdin
 * closes (the parent is gone).
 */
import express from 'express';
import { serveChild } from './serve-child.js';

const app = express();
app.post('/v1/validate', express.json(), (req, res) => {
  res.json({ ok: true, fields: Object.keys(req.body ?? {}).length });
});

serveChild(app);
