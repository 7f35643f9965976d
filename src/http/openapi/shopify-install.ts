/** The Shopify app's OAuth install (src/http/routes/shopify-install.ts) in the OpenAPI description. */
import { z } from 'zod';
import { linkSchema } from '../routes/shopify-install.js';
import { connectorSchema } from './connectors.js';
import type { Component, Operation } from './operation.js';

const installLinkSchema = z.object({
  install_url: z.url().describe('Open it in the browser of the store\'s owner: it is valid an hour'),
  expires_at: z.iso.datetime(),
});

export const shopifyInstallComponents: Component[] = [
  [linkSchema, { id: 'ShopifyInstallRequest', examples: [{ shop: 'example.myshopify.com', name: 'Main store' }] }],
  [installLinkSchema, { id: 'ShopifyInstallLink' }],
];

const query = (name: string, description: string) => ({ name, in: 'query', required: false, schema: z.string(), description }) as const;

export const shopifyInstallOperations: Operation[] = [
  {
    method: 'post', path: '/v1/connectors/shopify/install', operationId: 'createShopifyInstallLink', tag: 'Connectors', auth: 'key',
    summary: 'A signed link that installs the Shopify app on a store',
    description: 'Needs SHOPIFY_API_KEY, SHOPIFY_API_SECRET and PUBLIC_BASE_URL (503 otherwise). The store is connected when its owner approves the app and Shopify calls back.',
    requestBody: { required: true, content: { 'application/json': { schema: linkSchema } } },
    responses: { 201: { description: 'The install link', content: { 'application/json': { schema: installLinkSchema } } } },
    problems: ['invalid-json', 'invalid-request', 'shopify-install-refused', 'payload-too-large', 'unsupported-media-type', 'shopify-app-not-configured'],
  },
  {
    method: 'get', path: '/shopify/install', operationId: 'startShopifyInstall', tag: 'Connectors', auth: 'none',
    summary: "The install link: on to the shop's authorize page",
    description: 'Checks the link, sets a state nonce in an HttpOnly cookie, and redirects the browser to Shopify.',
    parameters: [query('shop', 'The shop, `example.myshopify.com`'), query('link', 'The signed link token')],
    responses: {
      302: { description: "To the shop's authorize page", headers: { Location: { description: 'The authorize URL', schema: z.string() } } },
    },
    problems: ['shopify-install-refused', 'shopify-app-not-configured'],
  },
  {
    method: 'get', path: '/shopify/callback', operationId: 'finishShopifyInstall', tag: 'Connectors', auth: 'none',
    summary: "Shopify's redirect back after the owner approved the app",
    description: "Shopify's HMAC over the query, the timestamp, and the state against the cookie are checked before the code is exchanged for the store's token.",
    parameters: ['code', 'hmac', 'shop', 'state', 'timestamp', 'host'].map((name) => query(name, `Shopify's \`${name}\``)),
    responses: {
      201: {
        description: 'The store is connected: the connector (JSON when asked for, else a short page)',
        content: { 'application/json': { schema: connectorSchema }, 'text/html': { schema: z.string() } },
      },
    },
    problems: ['shopify-install-refused', 'invalid-request', 'shopify-app-not-configured'],
  },
];
