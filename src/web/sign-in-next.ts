/**
 * Where a sign-in goes on to when a page asked for it (`/signin?next=…`): only the Shopify install's own browser steps
 * (GET /shopify/install, GET /shopify/callback), as a path on this service. Anything else goes to the overview: a
 * sign-in that followed any `next` would be an open redirect.
 */
const NEXT = /^\/shopify\/(?:install|callback)\?[A-Za-z0-9\-._~%&=+]*$/;

export function nextAfterSignIn(value: unknown): string | null {
  return typeof value === 'string' && value.length <= 8_000 && NEXT.test(value) ? value : null;
}
