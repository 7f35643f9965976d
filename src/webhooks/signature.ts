/**
 * The signature of an outgoing delivery, as Stripe signs its own (docs/webhooks.md):
 * `Contact-Validator-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. The timestamp is
 * inside what is signed, so a receiver that refuses old timestamps refuses a replayed delivery; each attempt is
 * signed afresh. The key is the endpoint's secret as written (`whsec_…`), its UTF-8 bytes.
 */
import crypto from 'node:crypto';

export const SIGNATURE_HEADER = 'Contact-Validator-Signature';
/** What a receiver should accept by default between the signature's time and its own clock. */
export const DEFAULT_TOLERANCE_S = 300;

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/**
 * The receiver's check (the client libraries do the same): one of the header's `v1` values is the body's HMAC under
 * `secret` (compared in constant time), and `t` is within `toleranceS` of `nowS`.
 */
export function verifySignature(
  secret: string, body: string, header: string, { toleranceS = DEFAULT_TOLERANCE_S, nowS = Math.floor(Date.now() / 1000) } = {},
): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > toleranceS) return false;
  const expected = Buffer.from(signatureOf(secret, t, body), 'hex');
  return parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).some(([, v]) => crypto.timingSafeEqual(Buffer.from(v!, 'hex'), expected));
}
