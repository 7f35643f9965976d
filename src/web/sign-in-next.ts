/**
 * Where a sign-in goes on to when a page asked for it (`/signin?next=…`): only an app install's own browser steps (the
 * paths each plugin's `install` declares, `GET /shopify/install` and `/shopify/callback` today), as a path on this
 * service. Anything else goes to the overview: a sign-in that followed any `next` would be an open redirect.
 */
const QUERY = /^\?[A-Za-z0-9\-._~%&=+]*$/;

export function nextAfterSignIn(value: unknown, paths: readonly string[]): string | null {
  if (typeof value !== 'string' || value.length > 8_000) return null;
  const at = value.indexOf('?');
  return at > 0 && paths.includes(value.slice(0, at)) && QUERY.test(value.slice(at)) ? value : null;
}
