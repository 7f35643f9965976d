/**
 * The pages a person's browser meets on an app's install (a plugin's `install`: GET /shopify/install, GET
 * /shopify/callback): sign in first, the install refused (and why, with nothing changed), the account connected. The API's callers get the same
 * outcomes as RFC 9457 problems instead.
 */
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { page } from './layout.js';

/** Nobody is signed in: the install goes on from `next` (this very step) once the person has signed in. */
export function installSignInPage(web: WebContext, next: string, platform: string): string {
  return page({
    title: `Sign in to install the ${platform} app`, web,
    body: html`<p>An install link connects a store to the account that made it. Sign in to the dashboard as a member of
that account; the install goes on right after.</p>
<p><a href="/signin?next=${encodeURIComponent(next)}" data-testid="sign-in-to-install">Sign in and continue</a></p>`,
  });
}

/** The install could not go on; `message` says why, and that nothing changed where that is so. */
export function installRefusedPage(web: WebContext, title: string, message: string): string {
  return page({
    title, web,
    body: html`<p role="alert">${message}</p><p><a href="/connectors">Your connectors</a></p>`,
  });
}

export function installedPage(web: WebContext, account: string, connectorId: string): string {
  return page({
    title: 'Connected', web,
    body: html`<p>Your store ${account} is connected (connector ${connectorId}). Its contacts are checked on
schedule; you can close this page.</p><p><a href="/connectors/${connectorId}/check">Check the connector</a></p>`,
  });
}
