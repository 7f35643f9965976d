/**
 * An app's OAuth install, for every plugin whose `connect` has an `install` (connectors/shopify/install.ts today): the
 * link for an account, the redirect to the platform's authorize page with a state nonce in a cookie, and the callback,
 * at the paths the platform's app lists (`/shopify/install`, `/shopify/callback`: merchants' installs hold them). Both
 * browser steps read the dashboard's session: the person must be signed in as a member of the link's account (a
 * browser gets a page asking to sign in, then goes on). A browser (Accept: text/html) gets pages; any other caller gets
 * problems. Answered 503 when the app is not configured.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { createConnectorPlugins } from '../../../connectors/index.js';
import { ConnectorInvalid, PlatformAccountTaken, ShopConnectedElsewhere } from '../../sync/connectors.js';
import {
  InstallForAnotherAccount, InstallNeedsSignIn, InstallRefused, type AppInstallConnect, type ConnectorPlugin, type ConnectPerson,
} from '../../sync/plugin.js';
import { installedPage, installRefusedPage, installSignInPage } from '../../web/pages/install.js';
import { webOf, webSession } from '../../web/web-session.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { connectorSchema } from './connectors.js';
import { accountOf, endpoint, json, type EndpointDeps } from './endpoint.js';

/**
 * The install's problem types. They carry the name of the first platform installed this way: they are part of the
 * public catalogue (docs/api.md) and stay as they are.
 */
const REFUSED = 'shopify-install-refused';
const NOT_CONFIGURED = 'shopify-app-not-configured';
const TAKEN = 'shop-already-connected';

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

export const installComponents: Component[] = [
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

/** The install of the running service's plugin (its app configured, or not: then 503). */
const configured = (deps: EndpointDeps, type: string): AppInstallConnect => {
  const method = deps.connect.install(type);
  const unavailable = method ? method.unavailable() : 'The app is not configured.';
  if (!method || unavailable) throw new Problem(NOT_CONFIGURED, unavailable ?? 'The app is not configured.');
  return method;
};

const problemOf = (err: unknown): Problem | null => {
  if (err instanceof ShopConnectedElsewhere) return new Problem(TAKEN, err.message);
  if (err instanceof InstallRefused) return new Problem(REFUSED, err.message);
  if (err instanceof ConnectorInvalid) return new Problem('invalid-request', err.message.slice(0, 500), { errors: err.errors });
  // Two installs of one account at once: the other one won.
  if (err instanceof PlatformAccountTaken) return new Problem(REFUSED, 'The store was connected meanwhile; start the install again.');
  return null;
};

const refused = (err: unknown): never => {
  throw problemOf(err) ?? err;
};

/** A person's browser asked for a page; API callers (and `*\/*`) get JSON and problems. */
const wantsPage = (req: Request) => (req.get('accept') ?? '').includes('text/html');

/** The person signed in to the dashboard in this browser, if any. */
const personOf = (res: Response): ConnectPerson | null => {
  const session = webOf(res).session;
  return session ? { accountId: session.accountId, userId: session.userId, sessionHash: session.idHash } : null;
};

/**
 * A refusal for a browser: the page saying why (asking to sign in, then `next` goes on), with the problem's status; an
 * API caller gets the problem.
 */
function answerRefusal(req: Request, res: Response, err: unknown, platform: string): void {
  const problem = problemOf(err);
  if (!problem || !wantsPage(req)) refused(err);
  const web = webOf(res);
  if (err instanceof InstallNeedsSignIn) {
    res.status(200).type('html').send(installSignInPage(web, req.originalUrl, platform));
    return;
  }
  const title = err instanceof ShopConnectedElsewhere ? 'This store is connected to another account'
    : err instanceof InstallForAnotherAccount ? 'This install link is for another account' : `The ${platform} install could not go on`;
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
const title = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);
const stringsOf = (query: Request['query']) => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));

/** The three endpoints of one plugin's install, from its declaration. */
function installEndpointsOf(plugin: ConnectorPlugin, declared: AppInstallConnect) {
  const type = plugin.type;
  const name = plugin.presentation?.title ?? title(type);
  const { paths, cookie: state } = declared;
  return [
  endpoint({
    method: 'post', path: `/v1/connectors/${type}/install`, security: 'secret', operationId: `create${title(type)}InstallLink`, tag: 'Connectors',
    summary: `A signed link that installs the ${name} app on a store`,
    description: `Needs the ${name} app configured (503 otherwise: ${declared.unavailable() ?? 'it is'}). The store is connected when its owner approves the app and ${name} calls back.`,
    request: { body: linkSchema },
    responses: { 201: { description: 'The install link', content: json(installLinkSchema) } },
    problems: ['invalid-json', 'invalid-request', REFUSED, 'payload-too-large', 'unsupported-media-type', NOT_CONFIGURED],
    handler: ({ res, deps, body }) => {
      try {
        const { shop, name: linkName, schedule, settings } = body as z.output<typeof linkSchema>;
        res.status(201).json(configured(deps, type).link(accountOf(res), {
          settings: { ...settings, shop }, ...(linkName ? { name: linkName } : {}), ...(schedule ? { schedule } : {}),
        }));
      } catch (err) {
        refused(err);
      }
    },
  }),
  endpoint({
    method: 'get', path: paths.install, security: 'none', operationId: `start${title(type)}Install`, tag: 'Connectors',
    summary: "The install link: on to the shop's authorize page",
    description: 'Checks the link and that the browser is signed in to the dashboard as a member of the account that made it ' +
      '(else a browser gets a page asking to sign in, after which the link goes on; a member of another account is refused), ' +
      `sets a state nonce bound to that person in an HttpOnly cookie, and redirects the browser to ${name}.`,
    request: { query: queryOf(Object.keys(INSTALL_QUERY), (name) => INSTALL_QUERY[name]), queryReadByHandler: true },
    responses: {
      200: { description: 'For a browser signed in to nothing: a page asking to sign in, then going on', content: { 'text/html': { schema: z.string() } } },
      302: { description: "To the shop's authorize page", headers: { Location: { description: 'The authorize URL', schema: z.string() } } },
    },
    problems: [REFUSED, NOT_CONFIGURED],
    before: sessionOf,
    handler: ({ req, res, deps }) => {
      const app = configured(deps, type);
      try {
        if (!req.query.link) throw new InstallRefused(`Start the install from your account: POST /v1/connectors/${type}/install gives the link.`);
        const { location, cookie: value } = deps.connect.authorizeInstall(type, app, { query: stringsOf(req.query), cookie: undefined }, personOf(res));
        res.cookie(state.name, value, { httpOnly: true, sameSite: 'lax', secure: webOf(res).secure, path: state.path, maxAge: 10 * 60_000 });
        res.status(302).location(location).end();
      } catch (err) {
        answerRefusal(req, res, err, name);
      }
    },
  }),
  endpoint({
    method: 'get', path: paths.callback, security: 'none', operationId: `finish${title(type)}Install`, tag: 'Connectors',
    summary: `${name}'s redirect back after the owner approved the app`,
    description: "The platform's signature over the query, the timestamp, the state against the cookie, and the person signed in (the one " +
      "who opened the link, still a member of its account) are checked before the code is exchanged for the store's token. " +
      "A shop whose connector belongs to another account and still reaches the shop is not moved: 409 `shop-already-connected`, nothing changed.",
    request: {
      query: queryOf(['code', 'hmac', 'shop', 'state', 'timestamp', 'host'], (param) => `${name}'s \`${param}\``),
      queryReadByHandler: true,
    },
    responses: {
      200: { description: 'For a browser whose session ended meanwhile: a page asking to sign in, then going on', content: { 'text/html': { schema: z.string() } } },
      201: {
        description: 'The store is connected: the connector (JSON when asked for, else a short page)',
        content: { 'application/json': { schema: connectorSchema }, 'text/html': { schema: z.string() } },
      },
    },
    problems: [REFUSED, TAKEN, 'invalid-request', NOT_CONFIGURED],
    before: sessionOf,
    handler: async ({ req, res, deps }) => {
      const app = configured(deps, type);
      try {
        const connector = await deps.connect.callbackInstall(type, app, { query: stringsOf(req.query), cookie: cookie(req, state.name) }, personOf(res));
        res.clearCookie(state.name, { path: state.path });
        if (req.accepts(['html', 'json']) === 'json') {
          res.status(201).json(connector);
          return;
        }
        res.status(201).type('html').send(installedPage(webOf(res), String(plugin.platformKeyOf?.(connector.settings) ?? connector.connector_id), connector.connector_id));
      } catch (err) {
        answerRefusal(req, res, err, name);
      }
    },
  }),
  ];
}

/** The install endpoints of every plugin that declares one, in the registry's order. */
export function installEndpointsOfPlugins(plugins: ConnectorPlugin<any, any, any>[]) {
  return plugins.flatMap((p) => (p.connect ?? []).filter((m): m is AppInstallConnect => m.kind === 'install')
    .flatMap((m) => installEndpointsOf(p as ConnectorPlugin, m)));
}

export const installEndpoints = installEndpointsOfPlugins(createConnectorPlugins());
