/**
 * The local org's OAuth 2.0 web-server flow (Salesforce Help, "OAuth 2.0 Web Server Flow for Web App Integration", with
 * PKCE): `GET /services/oauth2/authorize` shows the consent page of the user signed in to the org (an "Allow" form);
 * allowing redirects to `redirect_uri` with a one-time `code` (and `state` as given), denying with
 * `error=access_denied`; the token endpoint exchanges the code once, within 15 minutes, for the same `redirect_uri`
 * and a `code_verifier` whose SHA-256 (base64url) is the `code_challenge`, for an access token and a refresh token; the
 * `refresh_token` grant gives new access tokens (no new refresh token, as Salesforce does).
 */
import crypto from 'node:crypto';

export interface AuthorizationCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  user: string;
  expires: number;
}

export interface OAuthBook {
  codes: Map<string, AuthorizationCode>;
  refreshTokens: Map<string, string>;
  /** The challenges the authorize page was asked with, as they came (tests look at them). */
  authorizeRequests: URLSearchParams[];
}

export const newOAuthBook = (): OAuthBook => ({ codes: new Map(), refreshTokens: new Map(), authorizeRequests: [] });

const CODE_TTL_MS = 15 * 60_000;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The consent page: the request's parameters carried in a form the user allows or denies. */
export function consentPage(query: URLSearchParams, clientId: string, user: string): { status: number; html: string } {
  if (query.get('response_type') !== 'code' || query.get('client_id') !== clientId || !query.get('redirect_uri')) {
    return { status: 400, html: '<!doctype html><title>Error</title><p id="error">error=invalid_client_id: client identifier invalid</p>' };
  }
  const hidden = [...query].map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`).join('');
  return {
    status: 200,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Allow Access?</title></head><body>
<h1>Allow Access?</h1><p>Contact Validator is asking to access your data (${escape(user)}): Access and manage your data (api), perform requests at any time (refresh_token).</p>
<form method="post" action="/services/oauth2/authorize">${hidden}<button type="submit" name="decision" value="allow" id="oaapprove">Allow</button>
<button type="submit" name="decision" value="deny" id="oadeny">Deny</button></form></body></html>`,
  };
}

/** The user's answer: where the browser goes, with a code or the refusal. */
export function consentAnswer(book: OAuthBook, form: URLSearchParams, user: string, now: number): string {
  const target = new URL(form.get('redirect_uri') ?? '');
  const state = form.get('state');
  if (form.get('decision') !== 'allow') {
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'end-user denied authorization');
  } else {
    const code = `aPrx${crypto.randomBytes(24).toString('base64url')}`;
    book.codes.set(code, {
      clientId: form.get('client_id') ?? '', redirectUri: target.toString(), challenge: form.get('code_challenge'), user,
      expires: now + CODE_TTL_MS,
    });
    target.searchParams.set('code', code);
  }
  if (state !== null) target.searchParams.set('state', state);
  return target.toString();
}

export type GrantRefusal = { error: string; error_description: string };

/** The authorization-code grant: the user the code was given for, or Salesforce's refusal. */
export function redeemCode(book: OAuthBook, form: URLSearchParams, now: number): { user: string } | GrantRefusal {
  const code = form.get('code') ?? '';
  const given = book.codes.get(code);
  // A code works once: a second use (a replayed callback) is refused like an unknown one.
  book.codes.delete(code);
  if (!given || given.expires < now) return { error: 'invalid_grant', error_description: 'authentication failure' };
  if (form.get('redirect_uri') !== given.redirectUri) return { error: 'redirect_uri_mismatch', error_description: 'redirect_uri must match configuration' };
  if (given.challenge !== null) {
    const verifier = form.get('code_verifier') ?? '';
    const hashed = crypto.createHash('sha256').update(verifier).digest('base64url');
    if (!verifier || hashed !== given.challenge) return { error: 'invalid_grant', error_description: 'invalid code verifier' };
  }
  return { user: given.user };
}

/** The org's admin at the consent page (`location`, where the service sent the browser): its form sent with a decision. */
export async function answerConsent(location: string, decision: 'allow' | 'deny' = 'allow'): Promise<{ status: number; pageStatus: number; back: URL }> {
  const page = await fetch(location);
  const html = await page.text();
  const form = new URLSearchParams([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)]
    .map((m): [string, string] => [m[1], m[2].replace(/&#38;/g, '&')]));
  form.set('decision', decision);
  const answer = await fetch(new URL('/services/oauth2/authorize', location), { method: 'POST', body: form, redirect: 'manual' });
  return { status: answer.status, pageStatus: page.status, back: new URL(answer.headers.get('location') ?? 'about:blank') };
}
