/**
 * Every connector plugin this service ships: one folder each; adding a platform is one line in the list below (and its
 * options, read from the connectors' configuration). The core reaches plugins only through what this returns.
 */
import type { ConnectorPlugin } from '../src/sync/plugin.js';
import { createSalesforcePlugin } from './salesforce/index.js';
import { createShopifyPlugin } from './shopify/index.js';
import { createHubspotPlugin, type HubspotPluginOptions } from './hubspot/index.js';

/** The connectors' configuration (src/config.ts `connectors`) as the plugins read it. */
export interface ConnectorPluginOptions {
  /** Tests only (SHOPIFY_ADMIN_BASE_URL): every Shopify Admin API call goes there instead of `https://{shop}`. */
  shopifyAdminBaseUrl?: string;
  /** The Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SHOPIFY_SCOPES, PUBLIC_BASE_URL): its install is offered. */
  shopifyApp?: { apiKey: string; apiSecret: string; scopes: string; publicBaseUrl: string } | null;
  /** SHOPIFY_WEBHOOKS_PER_MINUTE: refused deliveries per source address and per shop per minute. */
  shopifyWebhooksPerMinute?: number;
  /** SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET: "Connect Salesforce" is offered. */
  salesforceApp?: { clientId: string; clientSecret: string } | null;
  /** HUBSPOT_CLIENT_ID, HUBSPOT_CLIENT_SECRET (HUBSPOT_SCOPES): "Connect HubSpot" and the app's webhooks; tests: HUBSPOT_API_BASE_URL. */
  hubspot?: Pick<HubspotPluginOptions, 'app' | 'apiBaseUrl'>;
}

export function createConnectorPlugins(options: ConnectorPluginOptions = {}): ConnectorPlugin<any, any, any>[] {
  return [
    createSalesforcePlugin({ app: options.salesforceApp ?? null }),
    createShopifyPlugin({ adminBaseUrl: options.shopifyAdminBaseUrl, app: options.shopifyApp ?? null, webhookRefusalsPerMinute: options.shopifyWebhooksPerMinute }),
    createHubspotPlugin(options.hubspot),
  ];
}
