/**
 * Shopify webhook deliveries (docs/connectors.md), the story: a shop has one connector (a unique index), so a delivery costs
 * one HMAC at most (base64 HMAC-SHA256 of the raw body with the connector's `api_secret`, `X-Shopify-Hmac-Sha256`),
 * checked in constant time before a byte is parsed; a shop that no connector knows, or a signature its connector's
 * secret does not make, is refused. A signed delivery triggered too long ago (`X-Shopify-Triggered-At`) is a replay:
 * acknowledged, not processed. A delivery whose signed content (topic, shop, raw body) was already seen is
 * acknowledged and not processed again, whatever its `X-Shopify-Webhook-Id` (a header nobody signs). The answer goes
 * out at once and the work follows in the background (a delivery lost to a crash is caught by the next scheduled
 * sync, which reads by `updated_at`).
 *
 * Topics: `customers/create`, `customers/update`, `orders/create` validate the records they carry; `app/uninstalled`
 * pauses the connector and erases its access token; the mandatory privacy topics delete what we keep of the customer
 * (`customers/redact`) or the shop (`shop/redact`) and record that we did, as `customers/data_request` is recorded.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { ConnectorRow, ConnectorStore } from './connector-store.js';
import type { ConnectorRuns } from './connector-runs.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from './secrets.js';

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

const RECORD_TOPICS = new Set(['customers/create', 'customers/update', 'orders/create']);
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
const RECORD_DELIVERY_MEMORY_MS = 7 * 24 * 60 * 60_000;
const PURGE_EVERY_MS = 60 * 60_000;

/** Constant-time comparison of a presented base64 HMAC with the expected one. */
function sameSignature(presented: string, expected: Buffer): boolean {
  const given = Buffer.from(presented, 'base64');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export class ShopifyWebhooks {
  private readonly background = new Set<Promise<unknown>>();
  private lastPurge = 0;

  constructor(
    private readonly db: Database,
    private readonly store: ConnectorStore,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly runs: ConnectorRuns,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The connector of the shop, if its secret signed the body; else null. */
  private async signer(delivery: Delivery): Promise<ConnectorRow | null> {
    if (!delivery.hmac || !delivery.shop) return null;
    const connector = await this.store.byPlatformKey('shopify', delivery.shop.toLowerCase());
    if (!connector) return null;
    let secret: string | undefined;
    try {
      secret = this.secrets.open<{ api_secret?: string }>(connector.sealed).api_secret;
    } catch {
      return null; // sealed with a key this instance does not hold
    }
    if (!secret) return null;
    const expected = crypto.createHmac('sha256', secret).update(delivery.raw).digest();
    return sameSignature(delivery.hmac, expected) ? connector : null;
  }

  /** Triggered longer ago than Shopify retries (or far in the future): a replay. An absent or unreadable time is let through to the content check. */
  private stale(triggeredAt: string): boolean {
    const at = Date.parse(triggeredAt);
    return Number.isFinite(at) && Math.abs(this.now() - at) > REPLAY_WINDOW_MS;
  }

  async receive(delivery: Delivery): Promise<DeliveryAnswer> {
    const connector = await this.signer(delivery);
    if (!connector) return { status: 'unauthorized' };
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
    const fresh = await this.db.run(
      `INSERT INTO webhook_deliveries (id, connector_id, topic, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [`shopify:${content}`, connector.id, delivery.topic, this.now()],
    );
    await this.purgeNowAndThen();
    if (fresh === 0) return { status: 'duplicate' };

    if (RECORD_TOPICS.has(delivery.topic)) {
      const plugin = this.registry.get(connector.type);
      const records = plugin?.recordsOfDelivery?.(delivery.topic, payload) ?? [];
      if (records.length && connector.status === 'active') this.later(this.runs.processDelivery(connector, records));
    } else if (delivery.topic === 'app/uninstalled') {
      await this.uninstalled(connector);
    } else if (PRIVACY_TOPICS.has(delivery.topic)) {
      await this.privacy(connector, delivery, payload as Record<string, unknown>);
    }
    return { status: 'accepted', topic: delivery.topic };
  }

  /** The app was removed from the shop: the connector pauses and its access token is erased (the secret stays, for privacy deliveries). */
  private async uninstalled(connector: ConnectorRow): Promise<void> {
    const credentials = this.secrets.open<Record<string, unknown>>(connector.sealed);
    const { access_token: _erased, ...rest } = credentials;
    await this.store.update(connector.id, {
      status: 'paused', reason: 'uninstalled', reasonDetail: 'the app was uninstalled from the shop; its access token is erased',
      sealed: this.secrets.seal(rest),
    });
  }

  private async privacy(connector: ConnectorRow, delivery: Delivery, payload: Record<string, unknown>): Promise<void> {
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
      deleted = await this.db.run(`DELETE FROM connector_records WHERE connector_id = $1`, [connector.id]);
      await this.store.update(connector.id, {
        status: 'paused', reason: 'uninstalled', reasonDetail: 'the shop asked for its data to be erased', sealed: this.secrets.seal({}),
        watermark: {},
      });
    }
    for (const key of keys) {
      deleted += await this.db.run(`DELETE FROM connector_records WHERE connector_id = $1 AND record_key = $2`, [connector.id, key]);
    }
    // What we keep of a customer is the hash of each checked value and a write-back owed, never the values
    // themselves: a data request has nothing more to report than that, and is recorded.
    await this.db.run(
      `INSERT INTO privacy_requests (id, connector_id, platform_key, topic, subject, records_deleted, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [`priv_${crypto.randomBytes(12).toString('base64url')}`, connector.id, delivery.shop, delivery.topic, subject, deleted, this.now()],
    );
    this.log.info({ connector_id: connector.id, topic: delivery.topic, records_deleted: deleted }, 'privacy request carried out');
  }

  /** Forgets record topics' content past its memory, once an hour at most per instance. */
  private async purgeNowAndThen(): Promise<void> {
    const at = this.now();
    if (at - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = at;
    const topics = [...RECORD_TOPICS];
    await this.db.run(
      `DELETE FROM webhook_deliveries WHERE received_at < $1 AND topic IN (${topics.map((_, i) => `$${i + 2}`).join(', ')})`,
      [at - RECORD_DELIVERY_MEMORY_MS, ...topics],
    );
  }

  private later(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.log.error({ err }, 'webhook work failed'));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  /** Waits for the work of deliveries already answered (a shutdown; tests). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.background]);
  }
}
