/** Every connector plugin this service ships: one folder each; adding a platform is one line here. */
import type { ConnectorPlugin } from '../src/sync/plugin.js';
import { salesforcePlugin } from './salesforce/index.js';
import { createShopifyPlugin } from './shopify/index.js';
import { createHubspotPlugin, type HubspotPluginOptions } from './hubspot/index.js';

export interface ConnectorPluginOptions {
  /** Tests only (SHOPIFY_ADMIN_BASE_URL): every Shopify Admin API call goes there instead of `https://{shop}`. */
  shopifyAdminBaseUrl?: string;
  /** HUBSPOT_CLIENT_ID, HUBSPOT_CLIENT_SECRET (HUBSPOT_SCOPES): "Connect HubSpot" and the app's webhooks; tests: HUBSPOT_API_BASE_URL. */
  hubspot?: Pick<HubspotPluginOptions, 'app' | 'apiBaseUrl'>;
}

export function createConnectorPlugins(options: ConnectorPluginOptions = {}): ConnectorPlugin<any, any, any>[] {
  return [salesforcePlugin, createShopifyPlugin({ adminBaseUrl: options.shopifyAdminBaseUrl }), createHubspotPlugin(options.hubspot)];
}
