/**
 * Shopify webhook deliveries (docs/connectors.md), the story: the HMAC (base64 HMAC-SHA256 of the raw body with the
 * connector's `api_secret`, `X-Shopify-Hmac-Sha256`) is checked in constant time before a byte is parsed; a shop that
 * no connector knows, or a signature that none of its connectors' secrets makes, is refused; a delivery already seen
 * (`X-Shopify-Webhook-Id`) is acknowledged and not processed again; the answer goes out at once and the work follows in
 * the background (a delivery lost to a crash is caught by the next scheduled sync, which reads by `updated_at`).
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
  webhookId: string;
  raw: Buffer;
}

export type DeliveryAnswer =
  | { status: 'unauthorized' }
  | { status: 'malformed' }
  | { status: 'duplicate' }
  | { status: 'accepted'; topic: string };

const RECORD_TOPICS = new Set(['customers/create', 'customers/update', 'orders/create']);
const PRIVACY_TOPICS = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);

/** Constant-time comparison of a presented base64 HMAC with the expected one. */
function sameSignature(presented: string, expected: Buffer): boolean {
  const given = Buffer.from(presented, 'base64');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export class ShopifyWebhooks {
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Database,
    private readonly store: ConnectorStore,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly runs: ConnectorRuns,
    private readonly log: Logger,
  ) {}

  /** The connector of the shop whose secret signed the body, or null. */
  private async signer(delivery: Delivery): Promise<ConnectorRow | null> {
    if (!delivery.hmac || !delivery.shop) return null;
    for (const connector of await this.store.byPlatformKey('shopify', delivery.shop.toLowerCase())) {
      let secret: string | undefined;
      try {
        secret = this.secrets.open<{ api_secret?: string }>(connector.sealed).api_secret;
      } catch {
        continue; // sealed with a key this instance does not hold
      }
      if (!secret) continue;
      const expected = crypto.createHmac('sha256', secret).update(delivery.raw).digest();
      if (sameSignature(delivery.hmac, expected)) return connector;
    }
    return null;
  }

  async receive(delivery: Delivery): Promise<DeliveryAnswer> {
    const connector = await this.signer(delivery);
    if (!connector) return { status: 'unauthorized' };
    let payload: unknown;
    try {
      payload = JSON.parse(delivery.raw.toString('utf8'));
    } catch {
      return { status: 'malformed' };
    }
    const fresh = await this.db.run(
      `INSERT INTO webhook_deliveries (id, connector_id, topic, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [`${connector.id}:${delivery.webhookId || crypto.createHash('sha256').update(delivery.raw).digest('hex')}`, connector.id, delivery.topic, Date.now()],
    );
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
      [`priv_${crypto.randomBytes(12).toString('base64url')}`, connector.id, delivery.shop, delivery.topic, subject, deleted, Date.now()],
    );
    this.log.info({ connector_id: connector.id, topic: delivery.topic, records_deleted: deleted }, 'privacy request carried out');
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
