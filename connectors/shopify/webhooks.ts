/**
 * Shopify's webhook deliveries (docs/connectors.md), as the core's `POST /webhooks/shopify` takes them
 * (src/sync/plugin-webhooks.ts). A shop has one connector (a unique index), so a delivery costs one HMAC at most
 * (base64 HMAC-SHA256 of the raw body with the connector's `api_secret`, `X-Shopify-Hmac-Sha256`), compared in
 * constant time before a byte is parsed. A signed delivery triggered too long ago (`X-Shopify-Triggered-At`) is a
 * replay: acknowledged, not processed. A delivery is the same event as another when its signed content (shop, topic,
 * raw body) is, whatever its `X-Shopify-Webhook-Id` (a header nobody signs).
 *
 * Topics, each in one place: `customers/create` and `customers/update` check the records they carry; `orders/create`
 * is the order's check at purchase, one job of the plugin (orders.ts: check, risk, hold, the buyer's mail; its record's
 * tags and metafields come with the next sync, whose check of it is free), or the record checked when this service
 * checks no orders at purchase; `orders/updated` re-checks a changed shipping address; `app/uninstalled` pauses the
 * connector and erases its access token; the privacy topics forget what we keep of a customer or the shop and record
 * that we did, as `customers/data_request` is recorded.
 */
import crypto from 'node:crypto';
import type { ConnectorRow } from '../../src/sync/connector-store.js';
import type { WebhookAction, WebhookEvent, WebhookRequest, WebhookSpec } from '../../src/sync/plugin.js';
import type { ShopifyCredentials } from './index.js';
import { recordsOfDelivery } from './mapping.js';
import type { ShopifyOrders } from './orders.js';

export const SHOPIFY_TOPICS = [
  'customers/create', 'customers/update', 'orders/create', 'orders/updated', 'app/uninstalled',
  'customers/data_request', 'customers/redact', 'shop/redact',
] as const;

/** The topics whose records are checked as the sync checks them. */
const RECORD_TOPICS = new Set(['customers/create', 'customers/update']);
/** The order check at purchase: one job of the plugin per order (orders.ts). */
export const ORDER_CHECK_JOB = 'order-check';

/**
 * Shopify retries a failed delivery 8 times over 4 hours with its original payload and trigger time (shopify.dev
 * changelog, "Updates to webhook retry mechanism", 2024-09): a delivery triggered longer ago than this is no retry.
 */
export const REPLAY_WINDOW_MS = 6 * 60 * 60_000;

/** A shop's permanent domain: anything else is no shop, refused without any cryptography. */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

const header = (request: WebhookRequest, name: string) => (request.headers[name] ?? '').trim();
const shopOf = (request: WebhookRequest) => header(request, 'x-shopify-shop-domain').toLowerCase();

/** Constant-time comparison of a presented base64 HMAC with the expected one. */
function sameSignature(presented: string, expected: Buffer): boolean {
  const given = Buffer.from(presented, 'base64');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** Triggered longer ago than Shopify retries (or far in the future). An absent or unreadable time is let through to the content check. */
function stale(request: WebhookRequest): boolean {
  const at = Date.parse(header(request, 'x-shopify-triggered-at'));
  return Number.isFinite(at) && Math.abs(request.now - at) > REPLAY_WINDOW_MS;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** What a customer's or a shop's privacy topic asks: the records to forget, and whom it is about. */
function privacy(event: WebhookEvent, orders: ShopifyOrders | null, connector: ConnectorRow): WebhookAction[] {
  const payload = (event.payload ?? {}) as Record<string, unknown>;
  if (event.topic === 'shop/redact') {
    return [
      { kind: 'privacy', forget: 'all', subject: null, alsoDeleted: async () => (await orders?.forget(connector, 'all')) ?? 0 },
      { kind: 'release', reason: 'the shop asked for its data to be erased', keep: {}, resetWatermark: true },
    ];
  }
  const customer = (payload.customer ?? {}) as { id?: number | string };
  const subject = customer.id === undefined ? null : `gid://shopify/Customer/${customer.id}`;
  if (event.topic === 'customers/data_request') return [{ kind: 'privacy', forget: [], subject }];
  const orderGids = (Array.isArray(payload.orders_to_redact) ? payload.orders_to_redact as (number | string)[] : [])
    .map((id) => `gid://shopify/Order/${id}`);
  return [{
    kind: 'privacy', forget: [...(subject ? [`customer:${subject}`] : []), ...orderGids.map((gid) => `order:${gid}`)], subject,
    alsoDeleted: async () => (await orders?.forget(connector, orderGids)) ?? 0,
  }];
}

/** Shopify's webhooks; `orders()` is the plugin's order checks once the service built them (null: none, the CLI). */
export function shopifyWebhooks(orders: () => ShopifyOrders | null): WebhookSpec<ShopifyCredentials> {
  return {
    topics: SHOPIFY_TOPICS,
    headers: [
      { name: 'X-Shopify-Topic', description: 'The topic', required: true, values: SHOPIFY_TOPICS },
      { name: 'X-Shopify-Shop-Domain', description: '`example.myshopify.com`', required: true },
      { name: 'X-Shopify-Hmac-Sha256', description: 'Base64 HMAC-SHA256 of the raw body', required: true },
      { name: 'X-Shopify-Webhook-Id', description: 'The delivery id', required: true },
      { name: 'X-Shopify-Triggered-At', description: 'When Shopify triggered the delivery (ISO 8601); its retries keep it' },
    ],
    maxBodyBytes: 1024 * 1024,
    claimedAccount: (request) => (SHOP_DOMAIN.test(shopOf(request)) ? shopOf(request) : null),
    verify(request, credentials) {
      const hmac = header(request, 'x-shopify-hmac-sha256');
      const secret = credentials?.api_secret;
      if (!hmac || typeof secret !== 'string' || !secret) return 'invalid';
      if (!sameSignature(hmac, crypto.createHmac('sha256', secret).update(request.raw).digest())) return 'invalid';
      return stale(request) ? 'stale' : 'valid';
    },
    events(request) {
      let payload: unknown;
      try {
        payload = JSON.parse(request.raw.toString('utf8'));
      } catch {
        return null;
      }
      const shop = shopOf(request);
      const topic = header(request, 'x-shopify-topic');
      // The shop's, not the connector's: an install that moves the shop to a new connector does not make old content new.
      const dedupeKey = crypto.createHash('sha256').update(`${shop}\n${topic}\n`).update(request.raw).digest('base64url');
      return [{ account: shop, topic, dedupeKey, payload }];
    },
    // A record topic's content is remembered a week, well past the replay window (the trigger time is a header nobody
    // signs). The lifecycle and privacy topics are few and remembered for good: a replay must never pause or erase a
    // shop's connector again.
    forgetAfter: { topics: ['customers/create', 'customers/update', 'orders/create', 'orders/updated'], memoryMs: 7 * 24 * 60 * 60_000 },
    handle(event, { connector, credentials }) {
      const checks = orders();
      const payload = event.payload && typeof event.payload === 'object' ? event.payload as Record<string, unknown> : null;
      if (RECORD_TOPICS.has(event.topic)) return [{ kind: 'records', records: recordsOfDelivery(event.topic, event.payload) }];
      if (event.topic === 'orders/create') {
        if (!checks) return [{ kind: 'records', records: recordsOfDelivery(event.topic, event.payload) }];
        const gid = text(payload?.admin_graphql_api_id);
        // Stored as a job before the answer goes out, so that it survives this instance.
        return checks.accepts(connector, gid) ? [{ kind: 'job', job: ORDER_CHECK_JOB, key: gid, payload: payload! }] : [];
      }
      if (event.topic === 'orders/updated') {
        return checks && payload ? [{ kind: 'background', run: () => checks.updated({ connector, credentials }, payload) }] : [];
      }
      if (event.topic === 'app/uninstalled') {
        // The app was removed from the shop: its access token is erased (the secret stays, for privacy deliveries).
        const { access_token: _erased, ...rest } = credentials as Record<string, unknown>;
        return [{ kind: 'release', reason: 'the app was uninstalled from the shop; its access token is erased', keep: rest }];
      }
      if (event.topic === 'customers/data_request' || event.topic === 'customers/redact' || event.topic === 'shop/redact') {
        return privacy(event, checks, connector);
      }
      return [];
    },
  };
}
