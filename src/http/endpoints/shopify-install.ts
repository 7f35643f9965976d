/**
 * The Shopify app's OAuth install (connectors/shopify/install.ts): the link for an account, the redirect to the shop's
 * authorize page with a state nonce in a cookie, and the callback. Both browser steps read the dashboard's session: the
 * person must be signed in as a member of the link's account (a browser gets a page asking to sign in, then goes on).
 * A browser (Accept: text/html) gets pages; any other caller gets problems. Answered 503 when the app is not
 * configured (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL).
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { ConnectorInvalid, PlatformAccountTaken, ShopConnectedElsewhere } from '../../sync/connectors.js';
import {
  InstallForAnotherAccount, InstallNeedsSignIn, InstallRefused, STATE_COOKIE, type Installer, type ShopifyInstall,
} from '../../../connectors/shopify/install.js';
import { installedPage, installRefusedPage, installSignInPage } from '../../web/pages/shopify-install.js';
import { webOf, webSession } from '../../web/web-session.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { connectorSchema } from './connectors.js';
import { accountOf, endpoint, json, type EndpointDeps } from './endpoint.js';

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

const configured = (install: ShopifyInstall | null): ShopifyInstall => {
  if (!install) throw new Problem('shopify-app-not-configured', 'Set SHOPIFY_API_KEY, SHOPIFY_API_SECRET and PUBLIC_BASE_URL.');
  return install;
};

const problemOf = (err: unknown): Problem | null => {
  if (err instanceof ShopConnectedElsewhere) return new Problem('shop-already-connected', err.message);
  if (err instanceof InstallRefused) return new Problem('shopify-install-refused', err.message);
  if (err instanceof ConnectorInvalid) return new Problem('invalid-request', err.message.slice(0, 500), { errors: err.errors });
  // Two installs of one shop at once: the other one won.
  if (err instanceof PlatformAccountTaken) return new Problem('shopify-install-refused', 'The shop was connected meanwhile; start the install again.');
  return null;
};

const refused = (err: unknown): never => {
  throw problemOf(err) ?? err;
};

/** A person's browser asked for a page; API callers (and `*\/*`) get JSON and problems. */
const wantsPage = (req: Request) => (req.get('accept') ?? '').includes('text/html');

/** The person signed in to the dashboard in this browser, if any. */
const installerOf = (res: Response): Installer | null => {
  const session = webOf(res).session;
  return session ? { accountId: session.accountId, userId: session.userId } : null;
};

/**
 * A refusal for a browser: the page saying why (asking to sign in, then `next` goes on), with the problem's status; an
 * API caller gets the problem.
 */
function answerRefusal(req: Request, res: Response, err: unknown): void {
  const problem = problemOf(err);
  if (!problem || !wantsPage(req)) refused(err);
  const web = webOf(res);
  if (err instanceof InstallNeedsSignIn) {
    res.status(200).type('html').send(installSignInPage(web, req.originalUrl));
    return;
  }
  const title = err instanceof ShopConnectedElsewhere ? 'This store is connected to another account'
    : err instanceof InstallForAnotherAccount ? 'This install link is for another account' : 'The Shopify install could not go on';
  res.status(problem!.status).type('html').send(installRefusedPage(web, title, problem!.message));
}

/** The dashboard's session on the install's browser steps, made once per application. */
const sessionOf = (deps: EndpointDeps) => [webSession(deps.people.sessions, {
  publicBaseUrl: deps.dashboard.publicBaseUrl, maxAgeMs: deps.dashboard.sessionMaxAgeMs, formTargets: deps.dashboard.checkoutOrigins,
})];

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
    description: 'Checks the link and that the browser is signed in to the dashboard as a member of the account that made it ' +
      '(else a browser gets a page asking to sign in, after which the link goes on; a member of another account is refused), ' +
      'sets a state nonce bound to that person in an HttpOnly cookie, and redirects the browser to Shopify.',
    request: { query: queryOf(Object.keys(INSTALL_QUERY), (name) => INSTALL_QUERY[name]), queryReadByHandler: true },
    responses: {
      200: { description: 'For a browser signed in to nothing: a page asking to sign in, then going on', content: { 'text/html': { schema: z.string() } } },
      302: { description: "To the shop's authorize page", headers: { Location: { description: 'The authorize URL', schema: z.string() } } },
    },
    problems: ['shopify-install-refused', 'shopify-app-not-configured'],
    before: sessionOf,
    handler: ({ req, res, deps }) => {
      const app = configured(deps.shopifyInstall);
      const shop = String(req.query.shop ?? '');
      const link = String(req.query.link ?? '');
      try {
        if (!link) throw new InstallRefused('Start the install from your account: POST /v1/connectors/shopify/install gives the link.');
        const { location, cookie } = app.authorize(shop, link, installerOf(res));
        res.cookie(STATE_COOKIE, cookie, { httpOnly: true, sameSite: 'lax', secure: webOf(res).secure, path: '/shopify', maxAge: 10 * 60_000 });
        res.status(302).location(location).end();
      } catch (err) {
        answerRefusal(req, res, err);
      }
    },
  }),
  endpoint({
    method: 'get', path: '/shopify/callback', security: 'none', operationId: 'finishShopifyInstall', tag: 'Connectors',
    summary: "Shopify's redirect back after the owner approved the app",
    description: "Shopify's HMAC over the query, the timestamp, the state against the cookie, and the person signed in (the one " +
      "who opened the link, still a member of its account) are checked before the code is exchanged for the store's token. " +
      "A shop whose connector belongs to another account and still reaches the shop is not moved: 409 `shop-already-connected`, nothing changed.",
    request: {
      query: queryOf(['code', 'hmac', 'shop', 'state', 'timestamp', 'host'], (name) => `Shopify's \`${name}\``),
      queryReadByHandler: true,
    },
    responses: {
      200: { description: 'For a browser whose session ended meanwhile: a page asking to sign in, then going on', content: { 'text/html': { schema: z.string() } } },
      201: {
        description: 'The store is connected: the connector (JSON when asked for, else a short page)',
        content: { 'application/json': { schema: connectorSchema }, 'text/html': { schema: z.string() } },
      },
    },
    problems: ['shopify-install-refused', 'shop-already-connected', 'invalid-request', 'shopify-app-not-configured'],
    before: sessionOf,
    handler: async ({ req, res, deps }) => {
      const app = configured(deps.shopifyInstall);
      const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(v)]));
      try {
        const connector = await app.callback(query, cookie(req, STATE_COOKIE), installerOf(res));
        res.clearCookie(STATE_COOKIE, { path: '/shopify' });
        if (req.accepts(['html', 'json']) === 'json') {
          res.status(201).json(connector);
          return;
        }
        res.status(201).type('html').send(installedPage(webOf(res), String(connector.settings.shop), connector.connector_id));
      } catch (err) {
        answerRefusal(req, res, err);
      }
    },
  }),
];
