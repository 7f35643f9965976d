/**
 * Benchmark child for `npm run bench:validate -- --structure`: the service's HTTP structure with no work behind it —
 * the real request-context middleware, an asynchronous key check (the rate limit, off in the bench, adds no layer) before
 * the real JSON body guard, the same routes before and after /v1/validate, and the answer written as the route writes it — so
 * that the bench can tell what the HTTP layer alone costs over a bare Express endpoint. Prints one JSON line `{"url",
 * "api_key", "structure"}` on stdout once it listens (a key of the real form, so that the requests carry the same
 * header; nothing checks it); stops on SIGTERM, SIGINT or when stdin closes.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { jsonBody } from '../../src/http/middleware/json-body.js';
import { requestContext } from '../../src/http/middleware/request-context.js';
import { createLogger } from '../../src/log.js';
import { serveChild } from './serve-child.js';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.set('query parser', 'simple');
app.use(requestContext(createLogger('silent')));
app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
app.get('/problems/:code', (_req, res) => void res.json({}));
const principal = { accountId: 'acct', keyId: 'key' };
// As authenticate() does for a key seen before: the principal from an awaited look-up, then next().
const authenticate = async (req: Request, res: Response, next: NextFunction) => {
  res.locals.context.principal = req.get('authorization') ? await Promise.resolve(principal) : undefined;
  next();
};
app.post('/v1/validate', authenticate, jsonBody(), async (req: Request, res: Response) => {
  const json = JSON.stringify({ fields: Object.keys(req.body ?? {}).length, request_id: res.locals.context.id });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
});
app.get('/v1/account', (_req, res) => void res.json({}));
app.use((_req: Request, res: Response) => void res.status(404).json({}));

// A key of the real form, so that the requests carry the same header (nothing checks it).
serveChild(app, { api_key: `cv_live_${'x'.repeat(40)}`, structure: true });
