/**
 * Session tokens as Shopify gives them to a checkout, thank-you or order-status extension (`shopify.sessionToken.get()`):
 * a JWT signed HS256 with the app's API secret, `dest` the shop, a minute of life.
 */
import { SignJWT } from 'jose';

export function sessionToken(shop: string, secret: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ dest: `https://${shop}`, ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt().setNotBefore('0s').setExpirationTime('1m').setAudience('the-app-client-id').setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(secret));
}
