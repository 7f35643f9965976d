/** Bearer API key authentication (RFC 6750). Every failure is the same 401, whatever the reason. */
import type { NextFunction, Request, Response } from 'express';
import type { Accounts } from '../../billing/accounts.js';
import { Problem } from '../problems.js';
import type { FailedAuthenticationLimiter } from './rate-limit.js';

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

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
      const error = header ? 'error="invalid_token"' : '';
      throw new Problem(
        'unauthorized',
        header ? 'The API key is malformed, unknown or revoked.' : 'Send the API key as "Authorization: Bearer <key>".',
        {},
        { 'WWW-Authenticate': `Bearer realm="contact-validator"${error ? `, ${error}` : ''}` },
      );
    }
    res.locals.context.principal = principal;
    next();
  };
}
