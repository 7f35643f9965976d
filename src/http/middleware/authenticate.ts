/**
 * Bearer API key authentication (RFC 6750). Every failure is a 401, and which key was wrong is never said; a header
 * without the `Bearer` scheme (the bare key, `Token …`) gets a detail that says how to send it.
 */
import type { NextFunction, Request, Response } from 'express';
import type { Accounts } from '../../billing/accounts.js';
import { Problem } from '../problems.js';
import type { FailedAuthenticationLimiter } from './rate-limit.js';

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;
const SEND_AS = 'Send the API key as "Authorization: Bearer <key>"';

export function authenticate(accounts: Accounts, failures: FailedAuthenticationLimiter) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    const match = header ? BEARER.exec(header) : null;
    const principal = match ? await accounts.authenticate(match[1]) : null;
    if (!principal) {
      const wait = await failures.fail(req.ip ?? req.socket.remoteAddress ?? 'unknown');
      if (wait !== null) {
        throw new Problem('rate-limited', 'Too many requests with a bad API key from this address.', {}, { 'Retry-After': String(wait) });
      }
      // RFC 6750 §3.1: a request of another scheme is an invalid_request; a Bearer key that does not open is an invalid_token.
      const error = !header ? '' : match ? 'error="invalid_token"' : 'error="invalid_request"';
      const detail = !header ? `${SEND_AS}.`
        : match ? 'The API key is malformed, unknown or revoked.'
          : `The Authorization header has no "Bearer " scheme. ${SEND_AS}, the word Bearer and a space before the key.`;
      throw new Problem('unauthorized', detail, {}, { 'WWW-Authenticate': `Bearer realm="contact-validator"${error ? `, ${error}` : ''}` });
    }
    res.locals.context.principal = principal;
    next();
  };
}
