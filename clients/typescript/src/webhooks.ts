/**
 * Outgoing webhooks (docs/webhooks.md): the account's endpoints and their delivery logs, and the receiver's check of a
 * delivery's `Contact-Validator-Signature` in one call.
 */
import { ContactValidatorError } from './errors.js';
import type { RequestOptions, Transport } from './transport.js';
import type {
  CreatedWebhookEndpoint, CreateWebhookEndpointRequest, WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList,
} from './types.js';

const at = (id: string) => `/v1/webhook_endpoints/${encodeURIComponent(id)}`;

export class WebhookEndpoints {
  constructor(private readonly transport: Transport) {}

  /** The answer carries the endpoint's signing `secret`, this once: keep it with the receiver. */
  create(endpoint: CreateWebhookEndpointRequest, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.transport.json<CreatedWebhookEndpoint>({ method: 'POST', path: '/v1/webhook_endpoints', json: endpoint }, options);
  }

  async list(options?: RequestOptions): Promise<WebhookEndpoint[]> {
    return (await this.transport.json<WebhookEndpointList>({ method: 'GET', path: '/v1/webhook_endpoints' }, options)).webhook_endpoints;
  }

  /** Deletes the endpoint and its delivery log: nothing more is sent to it. */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.json<void>({ method: 'DELETE', path: at(id) }, options);
  }

  /** The endpoint's last 100 deliveries, newest first. */
  async deliveries(id: string, options?: RequestOptions): Promise<WebhookDelivery[]> {
    return (await this.transport.json<WebhookDeliveryList>({ method: 'GET', path: `${at(id)}/deliveries` }, options)).deliveries;
  }

  /** Sends a delivery again now; the answer is the delivery as that attempt left it. */
  redeliver(id: string, deliveryId: string, options?: RequestOptions): Promise<WebhookDelivery> {
    return this.transport.json<WebhookDelivery>({ method: 'POST', path: `${at(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver` }, options);
  }
}

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
