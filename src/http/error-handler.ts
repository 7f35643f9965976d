/**
 * The one place errors become responses: RFC 9457 application/problem+json, never HTML, never a stack trace.
 * Also translates what Express and its body parser raise by themselves (broken JSON, body too large, bad charset).
 */
import type { NextFunction, Request, Response } from 'express';
import { EngineFailed, InsufficientCredits } from '../contact-check/errors.js';
import { isDatabaseUnavailable } from '../db/data-source.js';
import { UnknownCursor } from '../db/pages.js';
import type { RequestContext } from './middleware/request-context.js';
import { Problem, problemBody } from './problems.js';

interface HttpError {
  type?: string;
  status?: number;
  statusCode?: number;
  message?: string;
}

/**
 * The use case's errors in the catalogue's words: each becomes a problem here and nowhere else (a request's answer, or
 * one item's of POST /v1/validate/batch).
 */
export function domainProblem(err: unknown): Problem | null {
  if (err instanceof InsufficientCredits) {
    return new Problem('insufficient-credits', err.message, { balance: err.balance, required: err.required });
  }
  if (err instanceof EngineFailed) return new Problem('internal', err.message);
  if (err instanceof UnknownCursor) return new Problem('invalid-request', err.message, { errors: [{ field: 'starting_after', message: err.message }] });
  return null;
}

function toProblem(err: unknown): Problem | null {
  if (err instanceof Problem) return err;
  const domain = domainProblem(err);
  if (domain) return domain;
  const e = (err ?? {}) as HttpError;
  switch (e.type) {
    case 'entity.parse.failed':
      return new Problem('invalid-json', `The body is not valid JSON: ${String(e.message).slice(0, 200)}`);
    case 'entity.too.large':
      return new Problem('payload-too-large', 'The body is over 16 KiB.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new Problem('unsupported-media-type', String(e.message).slice(0, 200));
    case 'request.size.invalid':
    case 'request.aborted':
      return new Problem('invalid-request', 'The body ended before its declared length.');
  }
  if (isDatabaseUnavailable(err)) return new Problem('database-unavailable');
  const status = e.status ?? e.statusCode;
  // Other client errors Express raises itself (a malformed URL escape, for one).
  if (status && status >= 400 && status < 500) return new Problem('invalid-request', 'The request is malformed.');
  return null;
}

export function errorHandler() {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const context = res.locals.context as RequestContext | undefined;
    let problem = toProblem(err);
    if (!problem) {
      context?.log.error({ err, request_id: context.id }, 'unhandled error');
      problem = new Problem('internal', 'An unexpected error occurred; it has been logged with the request id.');
    } else if (problem.status >= 500) {
      context?.log.error({ err, request_id: context.id }, problem.code);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.locals.problemCode = problem.code;
    const body = { ...problemBody(problem), request_id: context?.id };
    res
      .status(problem.status)
      .set(problem.headers)
      .set('Cache-Control', 'no-store')
      .type('application/problem+json')
      .send(JSON.stringify(body));
  };
}
