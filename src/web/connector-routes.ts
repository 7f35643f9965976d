/**
 * The dashboard's Connectors pages (docs/dashboard.md): the list with run now, pause and resume; the forms that add a
 * connector without JSON; "Connect Salesforce" (connectors/salesforce/connect.ts: the OAuth web-server flow with PKCE,
 * its state sealed in a cookie bound to the session); the Shopify app's install link; and each connector's check with
 * the one-click set-up. Every form is CSRF-checked (`action`); every id is looked up within the session's account.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { parse as parseCookies, serialize } from 'cookie';
import { CALLBACK_PATH, CONNECT_COOKIE, ConnectRefused, loginUrlOf, type SalesforceConnect } from '../../connectors/salesforce/connect.js';
import { InstallRefused, type ShopifyInstall } from '../../connectors/shopify/install.js';
import { Problem } from '../http/problems.js';
import type { ConnectorChecks } from '../sync/connector-check.js';
import type { ConnectorRuns } from '../sync/connector-runs.js';
import { ConnectorInvalid, PlatformAccountTaken, type Connectors } from '../sync/connectors.js';
import { SecretKeyMissing } from '../sync/secrets.js';
import { connectorCheckPage } from './pages/connector-check.js';
import { connectorsPage, continuePage, SCHEDULES, type FormState } from './pages/connectors.js';
import { webOf } from './web-session.js';

export interface ConnectorPageDeps {
  connectors: Connectors;
  connectorRuns: ConnectorRuns;
  checks: ConnectorChecks;
  /** Null when SALESFORCE_CLIENT_ID / SALESFORCE_CLIENT_SECRET are not set. */
  salesforceConnect: SalesforceConnect | null;
  /** Null when the Shopify app is not configured. */
  shopifyInstall: ShopifyInstall | null;
  /** CONNECTOR_ALLOW_PRIVATE (tests): a local org may stand in for Salesforce's login hosts. */
  allowPrivate: boolean;
  /** This service as browsers reach it (PUBLIC_BASE_URL, else its own address): the connected app's callback is on it. */
  baseUrl: () => string;
}

const NOTICES = {
  connected: 'Salesforce is connected. Here is what the connector still needs, if anything.',
  added: 'The connector is added. Here is what it still needs, if anything.',
  'run-started': 'The run has started.',
  'run-busy': 'A run of this connector is already in progress.',
  paused: 'The connector is paused.',
  resumed: 'The connector is active again.',
} as const;

const FLOW_MAX_AGE_S = 10 * 60;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const list = (v: unknown) => ([] as unknown[]).concat(v ?? []).filter((x): x is string => typeof x === 'string');

/** The form's values as strings (several checkboxes of one name joined by commas), secrets left out. */
function valuesOf(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === '_csrf' || k === 'client_secret' || k === 'access_token' || k === 'api_secret') continue;
    out[k] = list(v).join(',');
  }
  return out;
}

/** The Salesforce settings and write-back a form asks for. */
function salesforceChoices(body: Record<string, unknown>) {
  const objects = list(body.objects).filter((o) => o === 'Contact' || o === 'Lead');
  const mode = text(body.write_mode);
  return {
    settings: { objects: objects.length ? objects : ['Contact', 'Lead'], realtime: body.realtime === 'true' },
    writeBack: { overwrite_address: mode === 'overwrite', shadow_fields: mode === 'shadow' },
    schedule: scheduleOf(body),
  };
}

/** The schedule, settings and write-back of a connector body from the client-credentials form. */
function salesforceBody(body: Record<string, unknown>) {
  const { schedule, settings, writeBack } = salesforceChoices(body);
  return { schedule, write_back: writeBack, settings: { login_url: text(body.login_url), ...settings } };
}

const scheduleOf = (body: Record<string, unknown>) => SCHEDULES.find(([cron]) => cron === text(body.schedule))?.[0] ?? SCHEDULES[0][0];

export function connectorRoutes(router: Router, guards: { page: RequestHandler[]; action: RequestHandler[] }, deps: ConnectorPageDeps): void {
  const { connectors, connectorRuns, checks } = deps;
  const accountOf = (res: Response) => webOf(res).session!.accountId;
  const who = (res: Response) => ({ accountId: accountOf(res), sessionHash: webOf(res).session!.idHash });
  const fields = (req: Request) => (req.body ?? {}) as Record<string, unknown>;

  async function render(req: Request, res: Response, status: number, refused: FormState | null = null) {
    const listed = await connectors.list(accountOf(res));
    const withRuns = await Promise.all(listed.map(async (c) => ({ ...c, runs: await connectors.runs(c.connector_id, 5) })));
    const done = String(req.query.done ?? '');
    const flash = Object.hasOwn(NOTICES, done) ? { kind: 'ok' as const, text: NOTICES[done as keyof typeof NOTICES] } : null;
    res.status(status).type('html').send(connectorsPage({
      web: webOf(res), connectors: withRuns, flash, refused,
      salesforceConnect: deps.salesforceConnect !== null, shopifyInstall: deps.shopifyInstall !== null,
    }));
  }
  const ownConnector = async (req: Request, res: Response) => {
    const connector = await connectors.get(accountOf(res), String(req.params.id));
    if (!connector) throw new Problem('not-found', 'No such connector on this account.');
    return connector;
  };
  /** A refusal the person can act on: the form again, with what was typed (never a secret) and why. */
  const refusal = (err: unknown): string | null => {
    if (err instanceof ConnectorInvalid) return err.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    if (err instanceof ConnectRefused || err instanceof InstallRefused || err instanceof PlatformAccountTaken) return err.message;
    if (err instanceof SecretKeyMissing) return 'The service cannot keep credentials yet (CONNECTOR_SECRET_KEY is not set): ask its operator.';
    return null;
  };

  router.get('/connectors', ...guards.page, (req, res) => render(req, res, 200));

  // Connect Salesforce, step 1: the flow sealed in a cookie, and on to Salesforce's consent page.
  router.post('/connectors/salesforce/connect', ...guards.action, async (req, res) => {
    const body = fields(req);
    try {
      if (!deps.salesforceConnect) throw new ConnectRefused('Connect Salesforce is not set up on this service.');
      const loginUrl = await loginUrlOf(text(body.environment), text(body.my_domain), deps.allowPrivate);
      const choices = salesforceChoices(body);
      const { location, cookie } = await deps.salesforceConnect.start(who(res), {
        name: text(body.name) || 'Salesforce', loginUrl, schedule: choices.schedule,
        settings: { login_url: loginUrl, ...choices.settings }, writeBack: choices.writeBack,
      }, deps.baseUrl());
      res.append('Set-Cookie', serialize(CONNECT_COOKIE, cookie, {
        httpOnly: true, sameSite: 'lax', secure: webOf(res).secure, path: '/connectors/salesforce', maxAge: FLOW_MAX_AGE_S,
      }));
      res.status(200).type('html').send(continuePage(webOf(res), 'Connect Salesforce', location, 'Salesforce'));
    } catch (err) {
      const reason = refusal(err);
      if (!reason) throw err;
      await render(req, res, 400, { form: 'salesforce-connect', values: valuesOf(body), error: reason });
    }
  });

  // Step 2: Salesforce sends the browser back; the flow must be this session's.
  router.get(CALLBACK_PATH, ...guards.page, async (req, res) => {
    const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(v)]));
    const cookie = parseCookies(req.get('cookie') ?? '')[CONNECT_COOKIE];
    res.append('Set-Cookie', serialize(CONNECT_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: webOf(res).secure, path: '/connectors/salesforce', maxAge: 0 }));
    try {
      if (!deps.salesforceConnect) throw new ConnectRefused('Connect Salesforce is not set up on this service.');
      const { request, credentials } = await deps.salesforceConnect.finish(query, cookie, who(res), deps.baseUrl());
      const created = await connectors.create(accountOf(res), {
        type: 'salesforce', name: request.name, schedule: request.schedule, settings: request.settings, credentials, write_back: request.writeBack,
      });
      res.redirect(303, `/connectors/${created.connector_id}/check?done=connected`);
    } catch (err) {
      const reason = refusal(err);
      if (!reason) throw err;
      await render(req, res, 400, { form: 'salesforce-connect', values: {}, error: reason });
    }
  });

  // A connector from a form: a Salesforce connected app's client credentials, or a Shopify custom app's token.
  router.post('/connectors/new', ...guards.action, async (req, res) => {
    const body = fields(req);
    const type = text(body.type) === 'shopify' ? 'shopify' : 'salesforce';
    try {
      const created = await connectors.create(accountOf(res), type === 'salesforce'
        ? {
          type, name: text(body.name) || 'Salesforce', ...salesforceBody(body),
          credentials: { client_id: text(body.client_id), client_secret: text(body.client_secret) },
        }
        : {
          type, name: text(body.name) || 'Shopify', schedule: scheduleOf(body), settings: { shop: text(body.shop).toLowerCase() },
          credentials: { access_token: text(body.access_token), api_secret: text(body.api_secret) },
        });
      res.redirect(303, `/connectors/${created.connector_id}/check?done=added`);
    } catch (err) {
      const reason = refusal(err);
      if (!reason) throw err;
      await render(req, res, 400, { form: type, values: valuesOf(body), error: reason });
    }
  });

  // The Shopify app's install link, for the store's owner to approve.
  router.post('/connectors/shopify/install', ...guards.action, async (req, res) => {
    const body = fields(req);
    try {
      if (!deps.shopifyInstall) throw new InstallRefused('The Shopify app is not set up on this service.');
      const { install_url: location } = deps.shopifyInstall.link(accountOf(res), { shop: text(body.shop), ...(text(body.name) ? { name: text(body.name) } : {}) });
      res.status(200).type('html').send(continuePage(webOf(res), 'Install the Shopify app', location, 'Shopify'));
    } catch (err) {
      const reason = refusal(err);
      if (!reason) throw err;
      await render(req, res, 400, { form: 'shopify-install', values: valuesOf(body), error: reason });
    }
  });

  router.get('/connectors/:id/check', ...guards.page, async (req, res) => {
    const connector = await ownConnector(req, res);
    const done = String(req.query.done ?? '');
    const flash = Object.hasOwn(NOTICES, done) ? { kind: 'ok' as const, text: NOTICES[done as keyof typeof NOTICES] } : null;
    res.status(200).type('html').send(connectorCheckPage({
      web: webOf(res), connector: { connector_id: connector.id, name: connector.name, type: connector.type },
      result: await checks.check(connector), canSetUp: checks.canSetUp(connector), flash,
    }));
  });
  router.post('/connectors/:id/setup', ...guards.action, async (req, res) => {
    const connector = await ownConnector(req, res);
    const { done, check } = await checks.setUp(connector);
    res.status(200).type('html').send(connectorCheckPage({
      web: webOf(res), connector: { connector_id: connector.id, name: connector.name, type: connector.type }, result: check,
      canSetUp: checks.canSetUp(connector), done,
    }));
  });

  router.post('/connectors/:id/run', ...guards.action, async (req, res) => {
    const started = await connectorRuns.start(await ownConnector(req, res), 'dashboard', { resumePaused: true });
    res.redirect(303, `/connectors?done=${started ? 'run-started' : 'run-busy'}`);
  });
  for (const [verb, status, notice] of [['pause', 'paused', 'paused'], ['resume', 'active', 'resumed']] as const) {
    router.post(`/connectors/:id/${verb}`, ...guards.action, async (req, res) => {
      await connectors.update(await ownConnector(req, res), { status });
      res.redirect(303, `/connectors?done=${notice}`);
    });
  }
}
