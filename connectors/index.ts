/** Every connector plugin this service ships: one folder each; adding a platform is one line here. */
import type { ConnectorPlugin } from '../src/sync/plugin.js';
import { salesforcePlugin } from './salesforce/index.js';
import { createShopifyPlugin } from './shopify/index.js';

export interface ConnectorPluginOptions {
  /** Tests only (SHOPIFY_ADMIN_BASE_URL): every Shopify Admin API call goes there instead of `https://{shop}`. */
  shopifyAdminBaseUrl?: string;
}

export function createConnectorPlugins(options: ConnectorPluginOptions = {}): ConnectorPlugin<any, any, any>[] {
  return [salesforcePlugin, createShopifyPlugin({ adminBaseUrl: options.shopifyAdminBaseUrl })];
}
