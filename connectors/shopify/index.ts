/**
 * The Shopify connector (docs/connectors.md): reads changed customers and orders from a store through the Admin GraphQL API
 * (@shopify/shopify-api, a custom app's access token) and writes each verdict back as metafields in the
 * `contact_validator` namespace and `cv-…` tags. Webhook deliveries map to the same records (`recordsOfDelivery`).
 */
import { z } from 'zod';
import type { OrderChecks } from '../../src/sync/order-checks.js';
import type { ConnectorContext, ConnectorPlugin } from '../../src/sync/plugin.js';
import type { RetryPolicy } from '../../src/sync/retry.js';
import { RESOURCES, recordsOfDelivery, type ShopifyResource } from './mapping.js';
import { shopifyInstallMethod, type ShopifyAppSettings } from './install.js';
import { ShopifyOrders } from './orders.js';
import { ORDER_CHECK_JOB, shopifyWebhooks } from './webhooks.js';

export const shopifySettingsSchema = z.object({
  /** The shop's permanent domain (`example.myshopify.com`); `https://` and a trailing slash are dropped. */
  shop: z.string().trim().toLowerCase()
    .transform((shop) => shop.replace(/^https?:\/\//, '').replace(/\/+$/, ''))
    .pipe(z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, 'the shop\'s *.myshopify.com domain')),
  /** An Admin API version (`2025-10`); Shopify keeps each for at least 12 months. */
  api_version: z.string().regex(/^(\d{4}-(01|04|07|10)|unstable)$/, 'an API version such as "2025-10"').default('2025-10'),
  resources: z.array(z.enum(RESOURCES)).min(1).default([...RESOURCES]).transform((resources) => [...new Set(resources)]),
  page_size: z.number().int().min(1).max(250).default(250),
  /** The checkout extension: `warn` shows the doubt and lets the buyer go on; `block` stops an undeliverable address. */
  mode: z.enum(['warn', 'block']).default('warn'),
  /** Hold the fulfillment of an order whose address is undeliverable until the buyer or the merchant fixes it. */
  hold: z.boolean().default(false),
});

/** The app's API secret key (a Dev Dashboard app's client secret): webhook deliveries are signed with it (X-Shopify-Hmac-Sha256). */
const apiSecret = z.string().min(1);

export const shopifyCredentialsSchema = z.union([
  /** An admin-created custom app's Admin API access token (`shpat_…`). */
  z.object({ access_token: z.string().min(1), api_secret: apiSecret }).strict(),
  /** A Dev Dashboard app installed on the store: its client ID; tokens come from the client credentials grant. */
  z.object({ client_id: z.string().min(1), api_secret: apiSecret }).strict(),
]);

export const shopifyWriteBackSchema = z.object({
  /** `cv-address-invalid`, `cv-email-invalid`, `cv-phone-invalid`, each module's `-confirm`/`-fix`, and `cv-address-review` on orders. */
  tags: z.boolean().default(true),
  /** `contact_validator.*` metafields on the customer or order. */
  metafields: z.boolean().default(true),
});

export type ShopifySettings = z.output<typeof shopifySettingsSchema>;
export type ShopifyCredentials = z.output<typeof shopifyCredentialsSchema>;
export type ShopifyWriteBack = z.output<typeof shopifyWriteBackSchema>;

export interface ShopifyPluginOptions {
  /** The Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): its OAuth install is offered. */
  app?: Omit<ShopifyAppSettings, 'adminBaseUrl'> | null;
  /** SHOPIFY_WEBHOOKS_PER_MINUTE: refused deliveries per source address and per shop per minute (default 600). */
  webhookRefusalsPerMinute?: number;
  /** Tests only (SHOPIFY_ADMIN_BASE_URL, e.g. `http://127.0.0.1:PORT`): every Admin API call goes there instead of `https://{shop}`. */
  adminBaseUrl?: string;
  retry?: Partial<RetryPolicy>;
  /** How far before the watermark each read starts again (default 5 minutes). */
  overlapMs?: number;
  /** Time limit of one API call (default 30 s). */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/** The access scopes a configuration needs (a write scope grants reading too); holds need the fulfillment orders'. */
export function requiredScopes(resources: ShopifyResource[], writeBack: ShopifyWriteBack, { hold = false } = {}): string[] {
  const writes = writeBack.tags || writeBack.metafields;
  return [
    ...resources.map((resource) => `${writes ? 'write' : 'read'}_${resource}`),
    ...(hold ? ['write_merchant_managed_fulfillment_orders'] : []),
  ];
}

export function createShopifyPlugin(
  options: ShopifyPluginOptions = {},
): ConnectorPlugin<ShopifySettings, ShopifyCredentials, ShopifyWriteBack> {
  // The order checks at purchase, once the service built them (`orders`): the webhooks and the job reach them.
  let orders: ShopifyOrders | null = null;
  return {
    type: 'shopify',
    presentation: {
      title: 'Shopify',
      summary: 'customers and orders of a store, and its orders checked at purchase',
      links: [{ label: 'Checkout and orders', path: 'store' }],
    },
    connect: [
      shopifyInstallMethod(options.app ? { ...options.app, adminBaseUrl: options.adminBaseUrl } : null),
      {
        kind: 'form', id: 'token', title: 'Shopify with a custom app', submit: 'Add the Shopify connector',
        description: "A custom app made in the store's admin, with the customer and order scopes.",
        unavailable: () => null,
        fields: [
          { name: 'shop', target: 'settings.shop', label: 'Store', kind: 'text', hint: 'example.myshopify.com', required: true, lowercase: true },
          { name: 'access_token', target: 'credentials.access_token', label: 'Admin API access token', kind: 'secret', hint: 'shpat_…', required: true },
          { name: 'api_secret', target: 'credentials.api_secret', label: 'API secret key', kind: 'secret', hint: 'signs the webhooks', required: true },
        ],
      },
    ],
    webhooks: { ...shopifyWebhooks(() => orders), refusalsPerMinute: options.webhookRefusalsPerMinute },
    jobs: {
      [ORDER_CHECK_JOB]: async ({ connector, credentials }, payload) => {
        // An instance that checks no orders (the CLI's) gives the job back for one that does.
        if (!orders) throw new Error('this instance checks no orders at purchase');
        await orders.created({ connector, credentials }, payload);
      },
    },
    orders(services: OrderChecks) {
      orders = new ShopifyOrders(services, { adminBaseUrl: options.adminBaseUrl });
      return orders;
    },
    settingsSchema: shopifySettingsSchema,
    credentialsSchema: shopifyCredentialsSchema,
    writeBackSchema: shopifyWriteBackSchema,
    urlsOf: (settings) => [`https://${settings.shop}`],
    platformKeyOf: (settings) => settings.shop,
    recordsOfDelivery,
    async open(context) {
      const { settings, writeBack, log } = context;
      const [client, { createSession }] = await Promise.all([clientFor(context, options), import('./session.js')]);
      await client.authenticate();
      await client.checkAccess(requiredScopes(settings.resources, writeBack, settings));
      log.info({ shop: settings.shop, apiVersion: settings.api_version }, 'shopify session opened');
      return createSession(client, {
        resources: settings.resources,
        pageSize: settings.page_size,
        overlapMs: options.overlapMs ?? 5 * 60_000,
        writeTags: writeBack.tags,
        writeMetafields: writeBack.metafields,
      });
    },
    async discover(context) {
      const [client, { discoverStore }] = await Promise.all([clientFor(context, options), import('./discover.js')]);
      const { settings, writeBack } = context;
      return discoverStore(client, { resources: settings.resources, metafields: writeBack.metafields, tags: writeBack.tags });
    },
    async check(context) {
      const [client, { checkStore }] = await Promise.all([clientFor(context, options), import('./check.js')]);
      const { settings, writeBack, webhookUrl } = context;
      return checkStore(client, { resources: settings.resources, scopes: requiredScopes(settings.resources, writeBack, settings), webhookUrl });
    },
  };
}

/** A client for these settings; @shopify/shopify-api, a large package, is loaded by the first sync or check rather than at every start. */
export async function clientFor(
  { settings, credentials, onApiUsage, log, fetch }: Omit<ConnectorContext<ShopifySettings, ShopifyCredentials, unknown>, 'writeBack'>,
  options: ShopifyPluginOptions,
) {
  const { DEFAULT_RETRY, ShopifyClient } = await import('./client.js');
  return new ShopifyClient({
    shop: settings.shop,
    apiVersion: settings.api_version,
    auth: 'access_token' in credentials ? { accessToken: credentials.access_token } : { clientId: credentials.client_id },
    apiSecret: credentials.api_secret,
    adminBaseUrl: options.adminBaseUrl,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeoutMs: options.timeoutMs ?? 30_000,
    onApiUsage,
    log,
    fetch,
    sleep: options.sleep,
  });
}

export const shopifyPlugin = createShopifyPlugin();
