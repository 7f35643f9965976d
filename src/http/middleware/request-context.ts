/**
 * First middleware of every request: the arrival time (for response_ms), a request id (the caller's X-Request-Id when
 * it is a safe token, else a new one: a header value is never echoed unchecked), and one log line when the answer
 * has gone out.
 */
import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../../billing/accounts.js';
import type { Logger } from '../../log.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * `req_` + the time in milliseconds as 12 hex digits + 8 random bytes in base64url. Ids sort by time, so the ledger's
 * request_id index grows at one end instead of taking a random page per request. The random bytes come from a pool
 * refilled 256 ids at a time: one call into the CSPRNG per request cost more than the rest of this middleware.
 */
const RANDOM_BYTES = 8;
let idPool = Buffer.alloc(0);
let idOffset = 0;
export function newRequestId(): string {
  if (idOffset + RANDOM_BYTES > idPool.length) {
    idPool = crypto.randomBytes(RANDOM_BYTES * 256);
    idOffset = 0;
  }
  const id = `req_${Date.now().toString(16).padStart(12, '0')}${idPool.toString('base64url', idOffset, idOffset + RANDOM_BYTES)}`;
  idOffset += RANDOM_BYTES;
  return id;
}

/**
 * What the service knows about one request, kept in one object on `res.locals` (Express's place for data scoped to a
 * request). Not as properties added to `req`: an IncomingMessage does not share its hidden class with the previous
 * request's, so each property added to it copied the class's whole property table (seven of them left 11 KB of
 * garbage per request; in one object, `npm run bench:validate -- --against` read 1.06 of the code before).
 */
export interface RequestContext {
  /** The request id: the caller's X-Request-Id when it is a safe token, else the service's own. */
  id: string;
  /**
   * The id this request's credit movements are filed under in the ledger: `id` when the service chose it, else a
   * new one, so that a caller repeating an X-Request-Id can never reach another request's charges.
   */
  ledgerId: string;
  /** performance.now() at arrival, for response_ms. */
  arrivedAt: number;
  log: Logger;
  /** Extra fields for this request's log line (masked values only). */
  logFields: Record<string, unknown>;
  /** The API key's account and key, once authenticated. */
  principal: Principal | undefined;
  /** The raw body bytes, for the request fingerprint of Idempotency-Key (hashed only when a key is sent). */
  rawBody: Buffer | undefined;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      context: RequestContext;
    }
  }
}

export function requestContext(logger: Logger) {
  const logRequests = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction) => {
    const arrivedAt = performance.now();
    const offered = req.get('x-request-id');
    const ledgerId = newRequestId();
    const context: RequestContext = {
      id: offered && SAFE_REQUEST_ID.test(offered) ? offered : ledgerId,
      ledgerId,
      arrivedAt,
      // The root logger: every line about a request names its request_id (a child logger per request costs more
      // than the rest of this middleware).
      log: logger,
      logFields: {},
      principal: undefined,
      rawBody: undefined,
    };
    res.locals.context = context;
    res.setHeader('X-Request-Id', context.id);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (logRequests) res.on('finish', () => {
      context.log.info(
        {
          request_id: context.id,
          method: req.method,
          path: req.originalUrl.split('?')[0].slice(0, 200),
          status: res.statusCode,
          ms: Math.round((performance.now() - context.arrivedAt) * 10) / 10,
          account_id: context.principal?.accountId,
          ...(context.ledgerId !== context.id ? { ledger_id: context.ledgerId } : {}),
          ...context.logFields,
        },
        'request',
      );
    });
    next();
  };
}
