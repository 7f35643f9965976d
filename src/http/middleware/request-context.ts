/**
 * First middleware of every request: the arrival time (for response_ms), a request id (the caller's X-Request-Id when
 * it is a safe token, else a new one: a header value is never echoed unchecked), and one log line when the answer
 * has gone out.
 */
import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
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

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      /**
       * The id this request's credit movements are filed under in the ledger: `id` when the service chose it, else a
       * new one, so that a caller repeating an X-Request-Id can never reach another request's charges.
       */
      ledgerId: string;
      arrivedAt: number;
      principal?: { accountId: string; keyId: string };
      log: Logger;
      /** Extra fields for this request's log line (masked values only). */
      logFields: Record<string, unknown>;
    }
  }
}

export function requestContext(logger: Logger) {
  const logRequests = logger.isLevelEnabled('info');
  return (req: Request, res: Response, next: NextFunction) => {
    req.arrivedAt = performance.now();
    const offered = req.get('x-request-id');
    if (offered && SAFE_REQUEST_ID.test(offered)) {
      req.id = offered;
      req.ledgerId = newRequestId();
    } else {
      req.id = req.ledgerId = newRequestId();
    }
    // The root logger: every line about a request names its request_id (a child logger per request costs more
    // than the rest of this middleware).
    req.log = logger;
    req.logFields = {};
    res.setHeader('X-Request-Id', req.id);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (logRequests) res.on('finish', () => {
      req.log.info(
        {
          request_id: req.id,
          method: req.method,
          path: req.originalUrl.split('?')[0].slice(0, 200),
          status: res.statusCode,
          ms: Math.round((performance.now() - req.arrivedAt) * 10) / 10,
          account_id: req.principal?.accountId,
          ...(req.ledgerId !== req.id ? { ledger_id: req.ledgerId } : {}),
          ...req.logFields,
        },
        'request',
      );
    });
    next();
  };
}
