/**
 * Shopify resources ↔ what the core works with (docs/connectors.md): the fields read from customers and orders (GraphQL
 * nodes and REST webhook payloads alike), the keys, and what a verdict writes back (metafields and tags).
 */
import { countryCodeOf, type PlatformRecord, type RecordContact, type WriteBackItem } from '../../src/sync/plugin.js';

export const RESOURCES = ['customers', 'orders'] as const;
export type ShopifyResource = (typeof RESOURCES)[number];

/** Per resource: the key prefix, the GraphQL type, and the field holding the address (GraphQL, REST). */
export const RESOURCE = {
  customers: { prefix: 'customer', type: 'Customer', address: 'defaultAddress', restAddress: 'default_address' },
  orders: { prefix: 'order', type: 'Order', address: 'shippingAddress', restAddress: 'shipping_address' },
} as const satisfies Record<ShopifyResource, Record<string, string>>;

/** The MailingAddress fields read, in the order the address text is joined. */
export const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'provinceCode', 'zip', 'countryCodeV2', 'phone'] as const;

export interface MailingAddress {
  address1?: string | null; address2?: string | null; city?: string | null; provinceCode?: string | null;
  zip?: string | null; countryCodeV2?: string | null; phone?: string | null;
}

/** A customer or order node as the page query selects it. */
export interface ResourceNode {
  id: string;
  updatedAt: string;
  email?: string | null;
  phone?: string | null;
  tags?: string[];
  defaultAddress?: MailingAddress | null;
  shippingAddress?: MailingAddress | null;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The contact: address parts joined with ", " (empty ones skipped), the country code apart, phone else the address's. */
export function contactOf(email: unknown, phone: unknown, address: MailingAddress | null | undefined): RecordContact {
  const parts = [address?.address1, address?.address2, address?.city, address?.provinceCode, address?.zip].map(textOf);
  const countryText = textOf(address?.countryCodeV2);
  const country = countryText ? countryCodeOf(countryText) : null;
  // A code no table knows stays in the address text, where the engine may still read it.
  if (countryText && !country) parts.push(countryText);
  const text = parts.filter(Boolean).join(', ');
  const mail = textOf(email);
  const tel = textOf(phone) || textOf(address?.phone);
  return {
    ...(text ? { address: text } : {}),
    ...(mail ? { email: mail } : {}),
    ...(tel ? { phone: tel } : {}),
    ...(country ? { country } : {}),
  };
}

export const keyOf = (resource: ShopifyResource, gid: string) => `${RESOURCE[resource].prefix}:${gid}`;

/** An order is paid for once, whatever its edits (docs/shopify.md): its charge key is its own key. */
const chargeKeyOf = (resource: ShopifyResource, key: string) => (resource === 'orders' ? { chargeKey: key } : {});

export function recordOf(resource: ShopifyResource, node: ResourceNode): PlatformRecord {
  const key = keyOf(resource, node.id);
  return { key, contact: contactOf(node.email, node.phone, node[RESOURCE[resource].address]), ...chargeKeyOf(resource, key) };
}

/** `customer:gid://shopify/Customer/1` → the resource and the GID; null for a key this plugin did not make. */
export function parseKey(key: string): { resource: ShopifyResource; gid: string } | null {
  const m = /^(customer|order):(gid:\/\/shopify\/(Customer|Order)\/\d+)$/.exec(key);
  if (!m || m[1] !== m[3].toLowerCase()) return null;
  return { resource: m[1] === 'customer' ? 'customers' : 'orders', gid: m[2] };
}

// ---- webhooks: the REST payloads -----------------------------------------------------------------------------------

const WEBHOOK_TOPICS: Record<string, ShopifyResource> = {
  'customers/create': 'customers',
  'customers/update': 'customers',
  'orders/create': 'orders',
};

/** The REST address (`default_address`, `shipping_address`) under the GraphQL names. */
export function addressOfRest(value: unknown): MailingAddress | null {
  if (!value || typeof value !== 'object') return null;
  const a = value as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    address1: s(a.address1), address2: s(a.address2), city: s(a.city), provinceCode: s(a.province_code),
    zip: s(a.zip), countryCodeV2: s(a.country_code), phone: s(a.phone),
  };
}

/** The records a delivery carries, with the keys `changes` gives (from `admin_graphql_api_id`). */
export function recordsOfDelivery(topic: string, payload: unknown): PlatformRecord[] {
  const resource = WEBHOOK_TOPICS[topic];
  if (!resource || !payload || typeof payload !== 'object') return [];
  const p = payload as Record<string, unknown>;
  const gid = typeof p.admin_graphql_api_id === 'string' ? p.admin_graphql_api_id : null;
  if (!gid || !parseKey(keyOf(resource, gid))) return [];
  const key = keyOf(resource, gid);
  return [{ key, contact: contactOf(p.email, p.phone, addressOfRest(p[RESOURCE[resource].restAddress])), ...chargeKeyOf(resource, key) }];
}

// ---- write-back ----------------------------------------------------------------------------------------------------

export const METAFIELD_NAMESPACE = 'contact_validator';

export interface MetafieldInput { ownerId: string; namespace: string; key: string; type: string; value: string }

/** The metafields one verdict sets: the statuses of the modules present, the time, and their results as JSON. */
export function metafieldsOf(gid: string, item: WriteBackItem): MetafieldInput[] {
  const field = (key: string, type: string, value: string): MetafieldInput => ({ ownerId: gid, namespace: METAFIELD_NAMESPACE, key, type, value });
  const out: MetafieldInput[] = [];
  if (item.address) out.push(field('address_status', 'single_line_text_field', item.address.status));
  if (item.email) out.push(field('email_status', 'single_line_text_field', item.email.status));
  if (item.phone) out.push(field('phone_status', 'single_line_text_field', item.phone.status));
  out.push(field('validated_at', 'date_time', item.validatedAt));
  const result = { ...(item.address ? { address: item.address } : {}), ...(item.email ? { email: item.email } : {}), ...(item.phone ? { phone: item.phone } : {}) };
  out.push(field('result', 'json', JSON.stringify(result)));
  return out;
}

/**
 * The tags this connector owns: only these are ever added or removed (the merchant's own are never touched). Each
 * module's `-confirm` and `-fix` tags say what a person should do with it under the connector's policy (its
 * `next_action`; `accept` has none).
 */
export const TAGS = {
  address: 'cv-address-invalid',
  email: 'cv-email-invalid',
  phone: 'cv-phone-invalid',
  review: 'cv-address-review',
  address_confirm: 'cv-address-confirm',
  address_fix: 'cv-address-fix',
  email_confirm: 'cv-email-confirm',
  email_fix: 'cv-email-fix',
  phone_confirm: 'cv-phone-confirm',
  phone_fix: 'cv-phone-fix',
} as const;

const MODULES = ['address', 'email', 'phone'] as const;

/**
 * The tags a verdict adds and removes, for the modules validated now: a module's `-invalid` tag follows its status,
 * its `-confirm` or `-fix` tag its next action (both go once it is `accept`; a write-back owed since before next
 * actions leaves them as they are); an order's `cv-address-review` follows an invalid or ambiguous shipping address.
 */
export function tagChangesOf(resource: ShopifyResource, item: WriteBackItem): { add: string[]; remove: string[] } {
  const add: string[] = [];
  const remove: string[] = [];
  const follow = (tag: string, on: boolean) => (on ? add : remove).push(tag);
  for (const m of MODULES) {
    const verdict = item[m];
    if (!verdict) continue;
    follow(TAGS[m], verdict.status === 'invalid');
    if (!verdict.next_action) continue;
    follow(TAGS[`${m}_confirm`], verdict.next_action === 'confirm');
    follow(TAGS[`${m}_fix`], verdict.next_action === 'fix');
  }
  if (item.address && resource === 'orders') follow(TAGS.review, item.address.status === 'invalid' || item.address.status === 'ambiguous');
  return { add, remove };
}
