/**
 * Test keys (docs/account.md#test-keys), beside the per-key rate limit every key has:
 * - they answer only the endpoints declared with `testKeys: true` (POST /v1/validate, and GET
 *   /v1/address/autocomplete, which is free and reads only the service's own reference data): everything else reads or
 *   changes the account's live data (its balance, keys, batches, connectors, webhooks), which a key handed to a CI
 *   system or a client's test suite has no business with. Refused like a publishable key: 401 with
 *   `insufficient_scope`, so that a new endpoint refuses test keys until it says otherwise;
 * - an account's test keys together make at most TEST_KEY_REQUESTS_PER_DAY requests in 24 hours: test mode runs the
 *   real engines for nothing, and without a cap an account with no credits would have a free production validator
 *   (the address and phone engines give the same answers offline). Counted in the database (rate_limit_counters),
 *   so every instance and a restart count the same day.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Database } from '../../db/data-source.js';
import { Problem } from '../problems.js';
import { DatabaseRateLimitStore } from './rate-limit.js';

const DAY_MS = 86_400_000;

export function refuseTestKeys(_req: Request, res: Response, next: NextFunction): void {
  if (res.locals.context.principal?.test) {
    throw new Problem('unauthorized', 'A test key (cv_test_…) only validates and suggests addresses; use a live key (cv_live_…) here.', {}, {
      'WWW-Authenticate': 'Bearer realm="contact-validator", error="insufficient_scope"',
    });
  }
  next();
}

/** Requests per account per 24 hours with its test keys (0: no cap). Any other key passes straight on. */
export function testKeyDailyLimit(db: Database, perDay: number): RequestHandler[] {
  if (perDay <= 0) return [];
  const store = new DatabaseRateLimitStore(db);
  store.prefix = 'rltest:';
  const limiter = rateLimit({
    windowMs: DAY_MS,
    limit: perDay,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: `${perDay}-test-requests-per-day`,
    store,
    keyGenerator: (_req, res) => res.locals.context.principal!.accountId,
    handler: (_req, res, next, options) => {
      next(new Problem('rate-limited', `At most ${options.limit} requests a day with an account's test keys; retry after ${res.getHeader('Retry-After') ?? DAY_MS / 1000} s, or use a live key.`));
    },
  });
  return [(req: Request, res: Response, next: NextFunction) => {
    if (!res.locals.context.principal?.test) return next();
    return limiter(req, res, next);
  }];
}
