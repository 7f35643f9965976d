/**
 * Publishable keys in web pages (docs/account.md#publishable-keys): CORS for their origins alone, and nothing but the
 * endpoints declared `publishable` (POST /v1/validate, GET /v1/address/autocomplete).
 * - A preflight (OPTIONS) carries no key: it is answered the same for every origin (the Fetch standard's CORS
 *   preflight only asks whether the method and headers may be sent), so a probe learns nothing of which shops use the
 *   service. The request itself carries the key and is held to that key's origins: from any other, 403 without CORS
 *   headers, and the page cannot read the answer.
 * - A publishable key on any other endpoint is answered 401, as if it were no key; from another origin, 403 without
 *   CORS headers (the page cannot read the answer).
 * - Besides its key's limit, each client address behind a publishable key has its own (PUBLISHABLE_RATE_LIMIT_PER_MINUTE):
 *   one shopper's script cannot spend the store's quota.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import type { Database } from '../../db/data-source.js';
import { Problem } from '../problems.js';
import { DatabaseRateLimitStore } from './rate-limit.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';
const EXPOSED_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, Idempotent-Replayed';
const PREFLIGHT_MAX_AGE_S = 600;

/** OPTIONS of a publishable endpoint from a page: one answer for every origin, without a database look-up. */
export function answerPreflight(res: Response, methods = 'POST'): void {
  res.set({
    // No credentials (cookies) are ever allowed, so the wildcard is enough; the request's own answer names its origin.
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
  }).status(204).end();
}

/**
 * The page's origin: `Origin`, which a browser sends with every cross-origin request and every POST. A same-origin GET
 * (the service's own demo page asking for suggestions) comes without it (Fetch standard, "append a request `Origin`
 * header"); the browser then says `Sec-Fetch-Site: same-origin`, a header no script can set, and the page's origin is
 * the service's own.
 */
function originOf(req: Request): string | undefined {
  const origin = req.get('origin');
  if (origin || req.get('sec-fetch-site') !== 'same-origin') return origin;
  return `${req.protocol}://${req.get('host')}`;
}

/**
 * After authentication: holds a publishable key to its scope (`allowed`: the endpoint takes one; see the declarations'
 * `security`), and answers its origin's CORS.
 */
export function publishableScope(allowed: boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const scope = res.locals.context.principal?.publishable;
    if (!scope) return next();
    if (!allowed) {
      throw new Problem('unauthorized', 'A publishable key only validates (POST /v1/validate) and suggests addresses (GET /v1/address/autocomplete).', {}, {
        'WWW-Authenticate': 'Bearer realm="contact-validator", error="insufficient_scope"',
      });
    }
    const origin = originOf(req);
    res.set('Vary', 'Origin');
    if (!origin || !scope.origins.includes(origin)) {
      throw new Problem('origin-not-allowed', origin ? 'This key does not allow this origin.' : 'A publishable key is used from a web page: the request has no Origin.');
    }
    res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
    next();
  };
}

/**
 * Requests per client address per minute behind publishable keys (0: off). A secret key passes straight on: not
 * through express-rate-limit's `skip`, which it reaches only after two promises and the client address's lookup.
 */
export function publishableRateLimit(db: Database, perMinute: number): RequestHandler[] {
  if (perMinute <= 0) return [];
  const store = db.dialect === 'postgres' ? new DatabaseRateLimitStore(db) : new MemoryStore();
  if (store instanceof DatabaseRateLimitStore) store.prefix = 'rlip:';
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: `${perMinute}-per-minute-per-address`,
    store,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    handler: (_req, res, next, options) => {
      next(new Problem('rate-limited', `At most ${options.limit} requests per minute from one address with a publishable key; retry after ${res.getHeader('Retry-After') ?? 60} s.`));
    },
  });
  return [(req: Request, res: Response, next: NextFunction) => {
    if (!res.locals.context.principal?.publishable) return next();
    return limiter(req, res, next);
  }];
}
