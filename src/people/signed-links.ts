/**
 * The tokens in links we mail (confirm an address, reset a password, accept an invitation): a payload and its
 * HMAC-SHA256, base64url. Each names its purpose (a reset link cannot confirm or invite), its user, its expiry, and a
 * stamp of the state it was made for (the time the password last changed, the address to confirm), so that a used
 * reset link stops working as soon as the password changes, without keeping the tokens anywhere.
 */
import crypto from 'node:crypto';

export type LinkPurpose = 'confirm' | 'reset' | 'invite' | 'order-address';

export interface LinkPayload {
  purpose: LinkPurpose;
  userId: string;
  expiresAt: number;
  stamp: string;
}

const mac = (secret: Buffer, body: string) => crypto.createHmac('sha256', secret).update(body).digest('base64url');

export function signLink(secret: Buffer, payload: LinkPayload): string {
  const body = Buffer.from(JSON.stringify([payload.purpose, payload.userId, payload.expiresAt, payload.stamp])).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The payload of a token made for this purpose, or null when it is forged, altered, of another purpose or expired. */
export function readLink(secret: Buffer, token: unknown, purpose: LinkPurpose, now: number): LinkPayload | null {
  if (typeof token !== 'string' || token.length > 1_000) return null;
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length !== 4) return null;
  const [p, userId, expiresAt, stamp] = fields as [unknown, unknown, unknown, unknown];
  if (p !== purpose || typeof userId !== 'string' || typeof expiresAt !== 'number' || typeof stamp !== 'string') return null;
  if (expiresAt <= now) return null;
  return { purpose, userId, expiresAt, stamp };
}
