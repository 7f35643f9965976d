/**
 * Outgoing webhooks (docs/webhooks.md): the receiver's check of a delivery's `Contact-Validator-Signature` in one call.
 * The endpoints and their delivery logs are a generated resource (`client.webhookEndpoints`, resources.ts).
 */
import { ContactValidatorError } from './errors.js';

/** An event as a delivery carries it. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  data: Record<string, unknown>;
}

/** A delivery whose signature is missing, malformed, stale or does not verify. */
export class WebhookSignatureError extends ContactValidatorError {}

export const SIGNATURE_HEADER = 'contact-validator-signature';

async function subtleCrypto(): Promise<SubtleCrypto> {
  if (globalThis.crypto?.subtle) return globalThis.crypto.subtle;
  return (await import('node:crypto')).webcrypto.subtle as SubtleCrypto;
}

const bytesOfHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));

/**
 * Checks a delivery and returns its event: `rawBody` exactly as received (before any JSON parsing), the
 * `Contact-Validator-Signature` header, and the endpoint's secret. One of the header's `v1` values must be the
 * HMAC-SHA256 of `"<t>.<raw body>"` under the secret (checked in constant time), and `t` within `toleranceSeconds`
 * (300) of now. Throws WebhookSignatureError otherwise.
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array, header: string | null | undefined, secret: string,
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): Promise<WebhookEvent> {
  if (!header) throw new WebhookSignatureError('the delivery has no Contact-Validator-Signature header');
  const parts = header.split(',').map((p) => p.trim().split('=', 2) as [string, string | undefined]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const signatures = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? '')).map(([, v]) => bytesOfHex(v!));
  if (!Number.isInteger(t) || !signatures.length) throw new WebhookSignatureError('the Contact-Validator-Signature header is malformed');
  if (Math.abs(now / 1000 - t) > toleranceSeconds) throw new WebhookSignatureError(`the signature's timestamp is more than ${toleranceSeconds} s from now`);
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const subtle = await subtleCrypto();
  const encoder = new TextEncoder();
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signed = encoder.encode(`${t}.${body}`);
  for (const signature of signatures) {
    // WebCrypto's verify compares in constant time.
    if (await subtle.verify('HMAC', key, signature, signed)) return JSON.parse(body) as WebhookEvent;
  }
  throw new WebhookSignatureError('the signature does not verify with this secret');
}
