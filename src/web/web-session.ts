/**
 * The dashboard's guard: the session cookie, CSRF checks, and the security headers of every page.
 *
 * CSRF (OWASP CSRF Prevention Cheat Sheet): every state-changing request carries the session's synchronizer token (a
 * hidden `_csrf` field, or the `X-CSRF-Token` header from the page's script); forms used before a session exists
 * (sign-up, sign-in, reset) use a double-submit token in its own SameSite=Strict cookie, which defeats login CSRF;
 * and a request whose Origin (or Sec-Fetch-Site) says it comes from another site is refused before anything else.
 * The session cookie is HttpOnly and SameSite=Lax (Stripe's return to the dashboard is a top-level GET that must carry
 * it), `Secure` and `__Host-` prefixed when the dashboard is served over https.
 */
import crypto from 'node:crypto';
import { parse as parseCookies, serialize } from 'cookie';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { WebSession, WebSessions } from '../people/sessions.js';

export interface WebContext {
  session: WebSession | null;
  /** The token forms must carry: the session's, or the pre-session double-submit token. */
  csrf: string;
  secure: boolean;
  /** The host forms may come from besides the request's own (PUBLIC_BASE_URL's, behind a proxy). */
  publicHost?: string;
  /** The link a mail just carried, shown on the page in development when mail is not configured (src/people/mailer.ts). */
  mailLink?: string;
}

const PRE_SESSION_COOKIE = 'cv_csrf';

export class CsrfRejected extends Error {}

export function webOf(res: Response): WebContext {
  return res.locals.web as WebContext;
}

export interface WebSessionSettings {
  /** PUBLIC_BASE_URL, when set: https there means Secure cookies; its origin is the only one forms may come from. */
  publicBaseUrl?: string;
  maxAgeMs: number;
  /** Origins a form's answer may redirect to (Stripe Checkout), for the Content-Security-Policy's form-action. */
  formTargets: string[];
}

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-cv_session' : 'cv_session';
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
};

export function webSession(sessions: WebSessions, settings: WebSessionSettings): RequestHandler {
  const csp = [
    "default-src 'self'", "img-src 'self' data:", "style-src 'self'", "script-src 'self'", "object-src 'none'",
    "base-uri 'none'", "frame-ancestors 'none'", `form-action 'self' ${settings.formTargets.join(' ')}`.trim(),
  ].join('; ');
  const httpsBase = settings.publicBaseUrl?.startsWith('https:') ?? false;
  const publicHost = settings.publicBaseUrl ? new URL(settings.publicBaseUrl).host : undefined;
  return async (req: Request, res: Response, next: NextFunction) => {
    res.set({
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      // Not no-referrer: under it a browser sends `Origin: null` with our own forms. Same-origin keeps links in the
      // pages (a reset link's token) from leaking to any other site.
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    const secure = httpsBase || req.secure;
    const cookies = parseCookies(req.get('cookie') ?? '');
    const session = await sessions.find(cookies[sessionCookieName(secure)]);
    let csrf = session?.csrfToken ?? cookies[PRE_SESSION_COOKIE];
    if (!csrf || !/^[A-Za-z0-9_-]{43}$/.test(csrf)) {
      csrf = crypto.randomBytes(32).toString('base64url');
      if (!session) {
        res.append('Set-Cookie', serialize(PRE_SESSION_COOKIE, csrf, { httpOnly: true, sameSite: 'strict', secure, path: '/' }));
      }
    }
    res.locals.web = { session, csrf, secure, publicHost } satisfies WebContext;
    next();
  };
}

/**
 * Refuses a state-changing request from another site or without the form's token (the `X-CSRF-Token` header, else
 * the `_csrf` field of the parsed body or of `fields`: a file upload's form fields read before its file).
 */
export function checkCsrf(req: Request, res: Response, fields?: Record<string, unknown>): void {
  const web = webOf(res);
  const site = req.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') throw new CsrfRejected('cross-site request');
  const origin = req.get('origin');
  if (origin !== undefined) {
    let host: string | null = null;
    try {
      host = new URL(origin).host;
    } catch {
      // `null` (a sandboxed or privacy-sensitive context) or garbage: not a page of ours.
    }
    if (!host || (host !== req.get('host') && host !== web.publicHost)) throw new CsrfRejected('another origin');
  }
  // Never from the URL: a token in a query string reaches logs, history and Referer headers.
  const presented = String(req.get('x-csrf-token') ?? (fields ?? (req.body as Record<string, unknown> | undefined))?._csrf ?? '');
  if (!sameToken(presented, web.csrf)) throw new CsrfRejected('token missing or wrong');
}

export function setSessionCookie(res: Response, token: string, maxAgeMs: number): void {
  const { secure } = webOf(res);
  res.append('Set-Cookie', serialize(sessionCookieName(secure), token, {
    httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: Math.floor(maxAgeMs / 1000),
  }));
}

export function clearSessionCookie(res: Response): void {
  const { secure } = webOf(res);
  res.append('Set-Cookie', serialize(sessionCookieName(secure), '', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 }));
}
