/**
 * Test keys (docs/api.md#test-keys) answer only the endpoints declared with `testKeys: true` (POST /v1/validate, and
 * GET /v1/address/autocomplete, which is free and reads only the service's own reference data):
 * everything else reads or changes the account's live data (its balance, keys, batches, connectors), which a key
 * handed to a CI system or a client's test suite has no business with. Refused like a publishable key: 401 with
 * `insufficient_scope`, so that a new endpoint refuses test keys until it says otherwise.
 */
import type { NextFunction, Request, Response } from 'express';
import { Problem } from '../problems.js';

export function refuseTestKeys(_req: Request, res: Response, next: NextFunction): void {
  if (res.locals.context.principal?.test) {
    throw new Problem('unauthorized', 'A test key (cv_test_…) only validates and suggests addresses; use a live key (cv_live_…) here.', {}, {
      'WWW-Authenticate': 'Bearer realm="contact-validator", error="insufficient_scope"',
    });
  }
  next();
}
