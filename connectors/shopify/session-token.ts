/**
 * Shopify's session token, as a checkout, thank-you or order-status extension sends it (shopify.dev, "Session tokens
 * for checkout UI extensions"): a JWT signed HS256 with the app's API secret, `dest` the shop (`https://{shop}` or the
 * bare domain), `aud` the app's client id, `sub` the customer's GID when one is signed in (absent for a guest), a few
 * minutes of life. No claim names an order or a checkout: whoever holds a guest's token is any guest. Read with
 * jose: the shop named by the (not yet trusted) `dest` says whose secret must have signed it, and nothing else of the
 * token is believed before its signature, algorithm, times and `dest` are checked.
 */
import { decodeJwt, errors, jwtVerify } from 'jose';

export interface SessionToken {
  shop: string;
  /** The signed-in customer (`gid://shopify/Customer/…`), when there is one. */
  customer: string | null;
}

import { SessionTokenRefused } from '../../src/sync/order-port.js';

/** Not a session token of a shop this service knows: answered 401, whatever the reason (the core's refusal). */
export { SessionTokenRefused };

const SHOP = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The shop a `dest` names (`https://example.myshopify.com` or `example.myshopify.com`), else null. */
function shopOf(dest: unknown): string | null {
  if (typeof dest !== 'string') return null;
  const host = dest.replace(/^https:\/\//, '').replace(/\/.*$/, '').toLowerCase();
  return SHOP.test(host) ? host : null;
}

/**
 * The shop and customer of a session token, checked against the secret (and the client id, when known) of the shop it
 * names; `keysOf` finds them (null: no connector holds that shop). Throws SessionTokenRefused.
 */
export async function readSessionToken(
  token: string,
  keysOf: (shop: string) => Promise<{ secret: string; clientId?: string } | null>,
): Promise<SessionToken> {
  let claimed: string | null;
  try {
    claimed = shopOf(decodeJwt(token).dest);
  } catch {
    throw new SessionTokenRefused('not a JWT');
  }
  const keys = claimed ? await keysOf(claimed) : null;
  if (!claimed || !keys) throw new SessionTokenRefused('no store of this service signed it');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(keys.secret), {
      algorithms: ['HS256'], clockTolerance: 10, requiredClaims: ['exp', 'dest'],
      ...(keys.clientId ? { audience: keys.clientId } : {}),
    });
    if (shopOf(payload.dest) !== claimed) throw new SessionTokenRefused('dest changed');
    return { shop: claimed, customer: typeof payload.sub === 'string' && payload.sub.startsWith('gid://shopify/Customer/') ? payload.sub : null };
  } catch (err) {
    if (err instanceof SessionTokenRefused) throw err;
    if (err instanceof errors.JOSEError) throw new SessionTokenRefused(err.code);
    throw err;
  }
}
