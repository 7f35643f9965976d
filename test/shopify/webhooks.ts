/**
 * Webhook deliveries as Shopify sends them (shopify.dev: "About webhooks", "Verify webhooks", "Privacy law
 * compliance" webhooks): a REST-style JSON body and the X-Shopify-* headers, the HMAC being the base64 HMAC-SHA256
 * of the raw body with the app's API secret. Payloads are built from the fake shop's resources.
 */
import crypto from 'node:crypto';
import type { FakeAddress, FakeResource } from './fake-admin.js';

export const TOPICS = [
  'customers/create', 'customers/update', 'orders/create', 'orders/updated', 'app/uninstalled',
  'customers/data_request', 'customers/redact', 'shop/redact',
] as const;
export type Topic = (typeof TOPICS)[number];

export interface Delivery {
  topic: string;
  /** The raw body: sign and send exactly these bytes. */
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryOptions {
  shop: string;
  secret: string;
  apiVersion?: string;
  /** The same id on a repeated delivery (Shopify retries for 48 hours). */
  webhookId?: string;
  triggeredAt?: string;
  /** A wrong HMAC on purpose. */
  hmac?: string;
}

export const hmacOf = (body: string, secret: string) => crypto.createHmac('sha256', secret).update(body, 'utf8').digest('base64');

/** A signed delivery of `payload` on `topic`. */
export function signedDelivery(topic: string, payload: unknown, o: DeliveryOptions): Delivery {
  const body = JSON.stringify(payload);
  return {
    topic,
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': topic,
      'X-Shopify-Hmac-Sha256': o.hmac ?? hmacOf(body, o.secret),
      'X-Shopify-Shop-Domain': o.shop,
      'X-Shopify-Webhook-Id': o.webhookId ?? crypto.randomUUID(),
      'X-Shopify-API-Version': o.apiVersion ?? '2025-10',
      'X-Shopify-Triggered-At': o.triggeredAt ?? new Date().toISOString(),
      'X-Shopify-Event-Id': crypto.randomUUID(),
    },
  };
}

/** POSTs a delivery to the service's webhook endpoint (`${baseUrl}/webhooks/shopify`). */
export function deliver(baseUrl: string, delivery: Delivery): Promise<Response> {
  return fetch(`${baseUrl}/webhooks/shopify`, { method: 'POST', headers: delivery.headers, body: delivery.body });
}

const restTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', '-00:00');
const SHOP_ID = 548_380_009;

function restAddress(a: FakeAddress | null, extra: Record<string, unknown> = {}) {
  if (!a) return null;
  return {
    first_name: a.firstName ?? null, last_name: a.lastName ?? null, company: a.company ?? null,
    address1: a.address1 ?? null, address2: a.address2 ?? null, city: a.city ?? null,
    province: a.province ?? null, country: a.country ?? null, zip: a.zip ?? null, phone: a.phone ?? null,
    name: [a.firstName, a.lastName].filter(Boolean).join(' '),
    province_code: a.provinceCode ?? null, country_code: a.countryCodeV2 ?? null, country_name: a.country ?? null,
    ...extra,
  };
}

/** The REST customer resource (`customers/create`, `customers/update`). */
export function customerPayload(c: FakeResource) {
  const address = restAddress(c.address, { id: c.n + 1, customer_id: c.n, default: true });
  return {
    id: c.n, email: c.email, created_at: restTime(c.createdAt), updated_at: restTime(c.updatedAt),
    first_name: c.firstName, last_name: c.lastName, state: 'disabled', note: null, verified_email: true,
    multipass_identifier: null, tax_exempt: false, phone: c.phone, tags: c.tags.join(', '), currency: 'USD',
    addresses: address ? [address] : [], tax_exemptions: [], admin_graphql_api_id: c.id, default_address: address,
  };
}

/** The REST order resource (`orders/create`), the parts a store's order carries that matter here. */
export function orderPayload(o: FakeResource, customer: FakeResource | null = null) {
  return {
    id: o.n, admin_graphql_api_id: o.id, name: o.name, order_number: Number(o.name?.slice(1)), email: o.email,
    contact_email: o.email, phone: o.phone, created_at: restTime(o.createdAt), updated_at: restTime(o.updatedAt),
    currency: 'USD', financial_status: 'paid', fulfillment_status: null, tags: o.tags.join(', '), total_price: '10.00',
    shipping_address: restAddress(o.address, { latitude: null, longitude: null }),
    billing_address: restAddress(o.address, { latitude: null, longitude: null }),
    customer: customer ? { id: customer.n, email: customer.email, admin_graphql_api_id: customer.id } : null,
    line_items: [{ id: o.n + 7, title: 'Widget', quantity: 1, price: '10.00', admin_graphql_api_id: `gid://shopify/LineItem/${o.n + 7}` }],
  };
}

/** `app/uninstalled`: the REST shop resource. */
export function shopPayload(shop: string) {
  return {
    id: SHOP_ID, name: 'Example', email: `owner@${shop}`, domain: shop, myshopify_domain: shop, country: 'US',
    currency: 'USD', timezone: '(GMT-05:00) Eastern Time (US & Canada)', plan_name: 'basic', created_at: restTime(Date.parse('2024-01-01T00:00:00Z')),
  };
}

export function customersDataRequestPayload(shop: string, c: FakeResource, orders: FakeResource[] = []) {
  return {
    shop_id: SHOP_ID, shop_domain: shop, orders_requested: orders.map((o) => o.n),
    customer: { id: c.n, email: c.email, phone: c.phone }, data_request: { id: 9999 },
  };
}

export function customersRedactPayload(shop: string, c: FakeResource, orders: FakeResource[] = []) {
  return { shop_id: SHOP_ID, shop_domain: shop, customer: { id: c.n, email: c.email, phone: c.phone }, orders_to_redact: orders.map((o) => o.n) };
}

export function shopRedactPayload(shop: string) {
  return { shop_id: SHOP_ID, shop_domain: shop };
}
