/**
 * The Shopify app's OAuth install (connectors/shopify/install.ts): the link for an account, the redirect to the shop's
 * authorize page with a state nonce in a cookie, and the callback. Answered 503 when the app is not configured
 * (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL).
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { ConnectorInvalid, PlatformAccountTaken } from '../../sync/connectors.js';
import { InstallRefused, STATE_COOKIE, type ShopifyInstall } from '../../../connectors/shopify/install.js';
import { jsonBody } from '../middleware/json-body.js';
import { Problem } from '../problems.js';
import { parseBody } from '../request-schema.js';

export const linkSchema = z.object({
  shop: z.string().max(100),
  name: z.string().trim().min(1).max(200).optional(),
  schedule: z.string().max(100).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
}).strict();

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function shopifyInstallRoutes(router: Router, guard: RequestHandler[], install: ShopifyInstall | null): void {
  const configured = () => {
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

  router.post('/v1/connectors/shopify/install', ...guard, jsonBody(), (req, res: Response) => {
    const body = parseBody(linkSchema, req.body);
    try {
      res.status(201).json(configured().link(res.locals.context.principal!.accountId, body));
    } catch (err) {
      refused(err);
    }
  });

  router.get('/shopify/install', (req, res) => {
    const app = configured();
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
  });

  router.get('/shopify/callback', async (req, res) => {
    const app = configured();
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
  });
}
