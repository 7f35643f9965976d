/**
 * Shopify webhook deliveries (docs/connectors.md), the story: a shop has one connector (a unique index), so a delivery costs
 * one HMAC at most (base64 HMAC-SHA256 of the raw body with the connector's `api_secret`, `X-Shopify-Hmac-Sha256`),
 * checked in constant time before a byte is parsed; a shop that no connector knows, or a signature its connector's
 * secret does not make, is refused. A signed delivery triggered too long ago (`X-Shopify-Triggered-At`) is a replay:
 * acknowledged, not processed. A delivery whose signed content (topic, shop, raw body) was already seen is
 * acknowledged and not processed again, whatever its `X-Shopify-Webhook-Id` (a header nobody signs). The answer goes
 * out once an order's check at purchase is stored as a job of the job engine; the records a delivery carries are
 * queued as a job of their own alongside (one lost to a crash is caught by the next scheduled sync, which reads by
 * `updated_at`).
 *
 * Topics: `customers/create`, `customers/update`, `orders/create` validate the records they carry; `app/uninstalled`
 * pauses the connector and erases its access token; the mandatory privacy topics delete what we keep of the customer
 * (`customers/redact`) or the shop (`shop/redact`) and record that we did, as `customers/data_request` is recorded.
 * The books (the connector of a shop, content seen once, background work, records forgotten) are the core's
 * (src/sync/webhook-deliveries.ts); what a Shopify delivery means is here.
 */
import crypto from 'node:crypto';
import type { ConnectorContext } from '../../src/sync/plugin.js';
import type { WebhookDeliveries } from '../../src/sync/webhook-deliveries.js';
import { recordsOfDelivery } from './mapping.js';
import type { ShopifyOrders } from './orders.js';

export interface Delivery {
  topic: string;
  shop: string;
  hmac: string;
  /** `X-Shopify-Triggered-At`: when Shopify triggered the delivery (kept the same on its retries); empty if absent. */
  triggeredAt: string;
  raw: Buffer;
}

export type DeliveryAnswer =
  | { status: 'unauthorized' }
  | { status: 'malformed' }
  | { status: 'duplicate' }
  | { status: 'stale' }
  | { status: 'accepted'; topic: string };

const RECORD_TOPICS = ['customers/create', 'customers/update', 'orders/create'];
/** Topics of the orders checked at purchase (orders.ts): remembered like the record topics. */
const ORDER_TOPICS = ['orders/create', 'orders/updated'];
const PRIVACY_TOPICS = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);

/**
 * Shopify retries a failed delivery 8 times over 4 hours with its original payload and trigger time (shopify.dev
 * changelog, "Updates to webhook retry mechanism", 2024-09): a delivery triggered longer ago than this is no retry.
 */
export const REPLAY_WINDOW_MS = 6 * 60 * 60_000;
/**
 * How long a record topic's signed content is remembered: well past the window, since the trigger time is a header
 * nobody signs. The lifecycle and privacy topics (an uninstall, a redaction) are few and remembered for good: a
 * replay of one must never pause or erase a shop's connector again.
 */
const RECORD_DELIVERY_MEMORY = { topics: [...new Set([...RECORD_TOPICS, ...ORDER_TOPICS])], memoryMs: 7 * 24 * 60 * 60_000 };

/** Constant-time comparison of a presented base64 HMAC with the expected one. */
function sameSignature(presented: string, expected: Buffer): boolean {
  const given = Buffer.from(presented, 'base64');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

type Signer = NonNullable<Awaited<ReturnType<WebhookDeliveries['connectorOf']>>>;

export class ShopifyWebhooks {
  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly log: ConnectorContext<unknown, unknown, unknown>['log'],
    /** Orders checked at purchase: risk, holds, the buyer's confirmation (absent: records only). */
    private readonly orders?: ShopifyOrders,
  ) {}

  /** The connector of the shop, if its secret signed the body; else null. */
  private async signer(delivery: Delivery): Promise<Signer | null> {
    if (!delivery.hmac || !delivery.shop) return null;
    const found = await this.deliveries.connectorOf('shopify', delivery.shop.toLowerCase());
    const secret = found?.credentials.api_secret;
    if (!found || typeof secret !== 'string' || !secret) return null;
    const expected = crypto.createHmac('sha256', secret).update(delivery.raw).digest();
    return sameSignature(delivery.hmac, expected) ? found : null;
  }

  /** Triggered longer ago than Shopify retries (or far in the future): a replay. An absent or unreadable time is let through to the content check. */
  private stale(triggeredAt: string): boolean {
    const at = Date.parse(triggeredAt);
    return Number.isFinite(at) && Math.abs(this.deliveries.now() - at) > REPLAY_WINDOW_MS;
  }

  async receive(delivery: Delivery): Promise<DeliveryAnswer> {
    const signer = await this.signer(delivery);
    if (!signer) return { status: 'unauthorized' };
    const { connector, credentials } = signer;
    if (this.stale(delivery.triggeredAt)) {
      this.log.warn({ connector_id: connector.id, topic: delivery.topic, triggered_at: delivery.triggeredAt.slice(0, 40) }, 'stale webhook delivery ignored');
      return { status: 'stale' };
    }
    let payload: unknown;
    try {
      payload = JSON.parse(delivery.raw.toString('utf8'));
    } catch {
      return { status: 'malformed' };
    }
    // The shop's, not the connector's: an install that moves the shop to a new connector does not make old content new.
    const content = crypto.createHash('sha256')
      .update(`${delivery.shop.toLowerCase()}\n${delivery.topic}\n`).update(delivery.raw).digest('base64url');
    const seen = `shopify:${content}`;
    if (!(await this.deliveries.firstSeen(seen, connector, delivery.topic, RECORD_DELIVERY_MEMORY))) {
      return { status: 'duplicate' };
    }

    if (RECORD_TOPICS.includes(delivery.topic)) {
      this.deliveries.process(connector, recordsOfDelivery(delivery.topic, payload));
    }
    if (this.orders && ORDER_TOPICS.includes(delivery.topic) && payload && typeof payload === 'object') {
      const order = payload as Record<string, unknown>;
      if (delivery.topic === 'orders/create') {
        // The order's check is stored as a job before the answer goes out, so it survives this instance. Not stored
        // (the database went away): the answer is an error, and Shopify's retry of the delivery is taken as new.
        await this.orders.accept(signer, order).catch(async (err: unknown) => {
          await this.deliveries.unsee(seen).catch(() => undefined);
          throw err;
        });
      } else {
        this.orders.track(this.orders.updated(signer, order));
      }
    } else if (delivery.topic === 'app/uninstalled') {
      // The app was removed from the shop: its access token is erased (the secret stays, for privacy deliveries).
      const { access_token: _erased, ...rest } = credentials;
      await this.deliveries.release(connector, 'the app was uninstalled from the shop; its access token is erased', rest);
    } else if (PRIVACY_TOPICS.has(delivery.topic)) {
      await this.privacy(signer, delivery, payload as Record<string, unknown>);
    }
    return { status: 'accepted', topic: delivery.topic };
  }

  private async privacy({ connector }: Signer, delivery: Delivery, payload: Record<string, unknown>): Promise<void> {
    let keys: string[] = [];
    let subject: string | null = null;
    if (delivery.topic === 'customers/redact' || delivery.topic === 'customers/data_request') {
      const customer = (payload.customer ?? {}) as { id?: number | string };
      subject = customer.id === undefined ? null : `gid://shopify/Customer/${customer.id}`;
      if (delivery.topic === 'customers/redact') {
        const orders = Array.isArray(payload.orders_to_redact) ? payload.orders_to_redact as (number | string)[] : [];
        keys = [...(subject ? [`customer:${subject}`] : []), ...orders.map((id) => `order:gid://shopify/Order/${id}`)];
      }
    }
    let deleted = 0;
    if (delivery.topic === 'shop/redact') {
      deleted = await this.deliveries.forgetRecords(connector, 'all');
      deleted += await this.orders?.forget(connector, 'all') ?? 0;
      await this.deliveries.release(connector, 'the shop asked for its data to be erased', {}, { resetWatermark: true });
    }
    deleted += await this.deliveries.forgetRecords(connector, keys);
    deleted += await this.orders?.forget(connector, keys.filter((k) => k.startsWith('order:')).map((k) => k.slice('order:'.length))) ?? 0;
    // What we keep of a customer is the hash of each checked value and a write-back owed, never the values
    // themselves: a data request has nothing more to report than that, and is recorded.
    await this.deliveries.recordPrivacyRequest({ connector, platformKey: delivery.shop, topic: delivery.topic, subject, recordsDeleted: deleted });
  }

  /** Waits for the work of deliveries already answered (a shutdown; tests). */
  async settle(): Promise<void> {
    await this.deliveries.settle();
    await this.orders?.settle();
  }
}
