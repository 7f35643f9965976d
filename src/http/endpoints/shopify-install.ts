/**
 * The Shopify app's OAuth install (connectors/shopify/install.ts): the link for an account, the redirect to the shop's
 * authorize page with a state nonce in a cookie, and the callback. Answered 503 when the app is not configured
 * (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL).
 */
import type { Request } from 'express';
import { z } from 'zod';
import { ConnectorInvalid, PlatformAccountTaken } from '../../sync/connectors.js';
import { InstallRefused, STATE_COOKIE, type ShopifyInstall } from '../../../connectors/shopify/install.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { connectorSchema } from './connectors.js';
import { accountOf, endpoint, json } from './endpoint.js';

export const linkSchema = z.object({
  shop: z.string().max(100),
  name: z.string().trim().min(1).max(200).optional(),
  schedule: z.string().max(100).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
}).strict();

const installLinkSchema = z.object({
  install_url: z.url().describe('Open it in the browser of the store\'s owner: it is valid an hour'),
  expires_at: z.iso.datetime(),
});

export const shopifyInstallComponents: Component[] = [
  [linkSchema, { id: 'ShopifyInstallRequest', examples: [{ shop: 'example.myshopify.com', name: 'Main store' }] }],
  [installLinkSchema, { id: 'ShopifyInstallLink' }],
];

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const configured = (install: ShopifyInstall | null): ShopifyInstall => {
  if (!install) throw new Problem('shopify-app-not-configured', 'Set SHOPIFY_API_KEY, SHOPIFY_API_SECRET and PUBLIC_BASE_URL.');
  return install;
};

const refused = (err: unknown): never => {
  if (err instanceof InstallRefused) throw new Problem('shopify-install-refused', err.message);
  if (err instanceof ConnectorInvalid) throw new Problem('invalid-request', err.message.slice(0, 500), { errors: err.errors });
  // Two installs of one shop at once: the other one won.
  if (err instanceof PlatformAccountTaken) throw new Problem('shopify-install-refused', 'The shop was connected meanwhile; start the install again.');
  throw err;
};

/** Query parameters the handlers read themselves (as strings): a bad one is the install's own refusal. */
const queryOf = (names: string[], describe: (name: string) => string) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.string().optional().describe(describe(name))])));

const INSTALL_QUERY: Record<string, string> = { shop: 'The shop, `example.myshopify.com`', link: 'The signed link token' };

export const shopifyInstallEndpoints = [
  endpoint({
    method: 'post', path: '/v1/connectors/shopify/install', security: 'secret', operationId: 'createShopifyInstallLink', tag: 'Connectors',
    summary: 'A signed link that installs the Shopify app on a store',
    description: 'Needs SHOPIFY_API_KEY, SHOPIFY_API_SECRET and PUBLIC_BASE_URL (503 otherwise). The store is connected when its owner approves the app and Shopify calls back.',
    request: { body: linkSchema },
    responses: { 201: { description: 'The install link', content: json(installLinkSchema) } },
    problems: ['invalid-json', 'invalid-request', 'shopify-install-refused', 'payload-too-large', 'unsupported-media-type', 'shopify-app-not-configured'],
    handler: ({ res, deps, body }) => {
      try {
        res.status(201).json(configured(deps.shopifyInstall).link(accountOf(res), body));
      } catch (err) {
        refused(err);
      }
    },
  }),
  endpoint({
    method: 'get', path: '/shopify/install', security: 'none', operationId: 'startShopifyInstall', tag: 'Connectors',
    summary: "The install link: on to the shop's authorize page",
    description: 'Checks the link, sets a state nonce in an HttpOnly cookie, and redirects the browser to Shopify.',
    request: { query: queryOf(Object.keys(INSTALL_QUERY), (name) => INSTALL_QUERY[name]), queryReadByHandler: true },
    responses: {
      302: { description: "To the shop's authorize page", headers: { Location: { description: 'The authorize URL', schema: z.string() } } },
    },
    problems: ['shopify-install-refused', 'shopify-app-not-configured'],
    handler: ({ req, res, deps }) => {
      const app = configured(deps.shopifyInstall);
      const shop = String(req.query.shop ?? '');
      const link = String(req.query.link ?? '');
      if (!link) throw new Problem('shopify-install-refused', 'Start the install from your account: POST /v1/connectors/shopify/install gives the link.');
      try {
        const { location, nonce } = app.authorize(shop, link);
        const secure = req.protocol === 'https' || req.get('x-forwarded-proto') === 'https';
        res.cookie(STATE_COOKIE, nonce, { httpOnly: true, sameSite: 'lax', secure, path: '/shopify', maxAge: 10 * 60_000 });
        res.status(302).location(location).end();
      } catch (err) {
        refused(err);
      }
    },
  }),
  endpoint({
    method: 'get', path: '/shopify/callback', security: 'none', operationId: 'finishShopifyInstall', tag: 'Connectors',
    summary: "Shopify's redirect back after the owner approved the app",
    description: "Shopify's HMAC over the query, the timestamp, and the state against the cookie are checked before the code is exchanged for the store's token.",
    request: {
      query: queryOf(['code', 'hmac', 'shop', 'state', 'timestamp', 'host'], (name) => `Shopify's \`${name}\``),
      queryReadByHandler: true,
    },
    responses: {
      201: {
        description: 'The store is connected: the connector (JSON when asked for, else a short page)',
        content: { 'application/json': { schema: connectorSchema }, 'text/html': { schema: z.string() } },
      },
    },
    problems: ['shopify-install-refused', 'invalid-request', 'shopify-app-not-configured'],
    handler: async ({ req, res, deps }) => {
      const app = configured(deps.shopifyInstall);
      const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(v)]));
      try {
        const connector = await app.callback(query, cookie(req, STATE_COOKIE));
        res.clearCookie(STATE_COOKIE, { path: '/shopify' });
        if (req.accepts(['html', 'json']) === 'json') {
          res.status(201).json(connector);
          return;
        }
        res.status(201).type('html').send(`<!doctype html><meta charset="utf-8"><title>Connected</title>
<p>Your store ${escapeHtml(String(connector.settings.shop))} is connected (connector ${escapeHtml(connector.connector_id)}).
Its customers and orders are checked on schedule; you can close this page.</p>`);
      } catch (err) {
        refused(err);
      }
    },
  }),
];
