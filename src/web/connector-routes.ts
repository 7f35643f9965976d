/**
 * The dashboard's Connectors pages (docs/dashboard.md): the list with run now, pause and resume; the forms that connect
 * a platform, one per way each plugin declares (src/sync/connect-flows.ts: a token form, an OAuth flow with PKCE whose
 * state is sealed in a cookie bound to the session, an app's install link); and each connector's check with the
 * one-click set-up. Every form is CSRF-checked (`action`); every id is looked up within the session's account. No
 * platform is named here: the forms and their routes come from the registry.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { parse as parseCookies, serialize } from 'cookie';
import { Problem } from '../http/problems.js';
import { CONNECT_COOKIE, echoOf, FLOW_TTL_MS, readForm, type ConnectFlows, type FormBasics } from '../sync/connect-flows.js';
import type { ConnectorChecks } from '../sync/connector-check.js';
import type { ConnectorRuns } from '../sync/connector-runs.js';
import { ConnectorInvalid, PlatformAccountTaken, type Connectors } from '../sync/connectors.js';
import { ConnectRefused, type ConnectMethod } from '../sync/plugin.js';
import { SecretKeyMissing } from '../sync/secrets.js';
import { connectorCheckPage } from './pages/connector-check.js';
import { connectorsPage, continuePage, SCHEDULES, type FormState } from './pages/connectors.js';
import { webOf } from './web-session.js';

export interface ConnectorPageDeps {
  connectors: Connectors;
  connectorRuns: ConnectorRuns;
  checks: ConnectorChecks;
  /** Every plugin's ways to connect. */
  connect: ConnectFlows;
  /** CONNECTOR_ALLOW_PRIVATE (tests): a local stand-in may be the platform. */
  allowPrivate: boolean;
  /** This service as browsers reach it (PUBLIC_BASE_URL, else its own address): the OAuth callbacks are on it. */
  baseUrl: () => string;
}

const NOTICES = {
  connected: 'The platform is connected. Here is what the connector still needs, if anything.',
  added: 'The connector is added. Here is what it still needs, if anything.',
  'run-started': 'The run has started.',
  'run-busy': 'A run of this connector is already in progress.',
  paused: 'The connector is paused.',
  resumed: 'The connector is active again.',
  'policy-saved': "The connector's policy is saved: its next runs follow it.",
} as const;

const FLOW_MAX_AGE_S = FLOW_TTL_MS / 1000;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

const scheduleOf = (body: Record<string, unknown>) => SCHEDULES.find(([cron]) => cron === text(body.schedule))?.[0] ?? SCHEDULES[0][0];

export function connectorRoutes(router: Router, guards: { page: RequestHandler[]; action: RequestHandler[] }, deps: ConnectorPageDeps): void {
  const { connectors, connectorRuns, checks, connect } = deps;
  const accountOf = (res: Response) => webOf(res).session!.accountId;
  const who = (res: Response) => {
    const session = webOf(res).session!;
    return { accountId: session.accountId, userId: session.userId, sessionHash: session.idHash };
  };
  const fields = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
  const titleOf = (type: string) => connect.offers().find(({ plugin }) => plugin.type === type)?.plugin.presentation?.title ?? type;
  const stepsOf = (type: string) => connect.offers().find(({ plugin }) => plugin.type === type)?.plugin.presentation?.manualSteps;
  const basicsOf = (type: string, body: Record<string, unknown>): FormBasics => ({ name: text(body.name) || titleOf(type), schedule: scheduleOf(body) });

  async function render(req: Request, res: Response, status: number, refused: FormState | null = null, failed: string | null = null) {
    const [listed, policies] = await Promise.all([connectors.list(accountOf(res)), connectors.policyNames(accountOf(res))]);
    const withRuns = await Promise.all(listed.map(async (c) => ({ ...c, runs: (await connectors.runs(c.connector_id, { limit: 5 })).items })));
    const done = String(req.query.done ?? '');
    const flash = failed ? { kind: 'error' as const, text: failed }
      : Object.hasOwn(NOTICES, done) ? { kind: 'ok' as const, text: NOTICES[done as keyof typeof NOTICES] } : null;
    res.status(status).type('html').send(connectorsPage({ web: webOf(res), connectors: withRuns, flash, refused, offers: connect.offers(), policies }));
  }
  const ownConnector = async (req: Request, res: Response) => {
    const connector = await connectors.get(accountOf(res), String(req.params.id));
    if (!connector) throw new Problem('not-found', 'No such connector on this account.');
    return connector;
  };
  /** A refusal the person can act on: the form again, with what was typed (never a secret) and why. */
  const refusal = (err: unknown): string | null => {
    if (err instanceof ConnectorInvalid) return err.errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    if (err instanceof ConnectRefused || err instanceof PlatformAccountTaken) return err.message;
    if (err instanceof SecretKeyMissing) return 'The service cannot keep credentials yet (CONNECTOR_SECRET_KEY is not set): ask its operator.';
    return null;
  };
  const formId = (type: string, method: ConnectMethod) => `${type}-${method.id}`;

  /**
   * One form sent: a token form creates the connector; an OAuth form goes on to the platform with the flow sealed in a
   * cookie; an install form gives the install link. The form comes back with the reason when it is refused.
   */
  async function submitted(req: Request, res: Response, type: string, method: ConnectMethod | null) {
    const body = fields(req);
    if (!method) throw new Problem('not-found', 'No such way to connect this platform.');
    try {
      const unavailable = method.unavailable();
      if (unavailable) throw new ConnectRefused(unavailable);
      const basics = basicsOf(type, body);
      if (method.kind === 'form') {
        const created = await connect.submit(accountOf(res), type, method, basics, body);
        res.redirect(303, `/connectors/${created.connector_id}/check?done=added`);
      } else if (method.kind === 'oauth') {
        const { location, cookie } = await connect.start(who(res), type, method, basics, body, deps.baseUrl());
        res.append('Set-Cookie', serialize(CONNECT_COOKIE, cookie, {
          httpOnly: true, sameSite: 'lax', secure: webOf(res).secure, path: `/connectors/${type}`, maxAge: FLOW_MAX_AGE_S,
        }));
        res.status(200).type('html').send(continuePage(webOf(res), method.title, location, titleOf(type)));
      } else {
        const { draft } = readForm(method.fields, body);
        const { install_url: location } = method.link(accountOf(res), { ...draft, ...(text(body.name) ? { name: text(body.name) } : {}) });
        res.status(200).type('html').send(continuePage(webOf(res), method.title, location, titleOf(type)));
      }
    } catch (err) {
      const reason = refusal(err);
      if (!reason) throw err;
      await render(req, res, 400, { form: formId(type, method), values: echoOf(method.fields, body), error: reason });
    }
  }

  router.get('/connectors', ...guards.page, (req, res) => render(req, res, 200));

  // Every way to connect every platform: `method` names it (absent: the platform's first).
  router.post('/connectors/:type/connect', ...guards.action, async (req, res) => {
    const type = String(req.params.type);
    await submitted(req, res, type, connect.method(type, text(fields(req).method) || undefined));
  });
  // The older forms' addresses, kept: a token form by `type`, and an install link.
  router.post('/connectors/new', ...guards.action, async (req, res) => {
    const type = text(fields(req).type);
    await submitted(req, res, type, connect.method(type, text(fields(req).method) || undefined, 'form'));
  });
  router.post('/connectors/:type/install', ...guards.action, async (req, res) => {
    const type = String(req.params.type);
    await submitted(req, res, type, connect.method(type, undefined, 'install'));
  });

  // An OAuth flow's step 2: the platform sends the browser back; the flow must be this session's.
  async function callback(req: Request, res: Response, type: string) {
    const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(v)]));
    const cookie = parseCookies(req.get('cookie') ?? '')[CONNECT_COOKIE];
    res.append('Set-Cookie', serialize(CONNECT_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: webOf(res).secure, path: `/connectors/${type}`, maxAge: 0 }));
    const method = connect.method(type, undefined, 'oauth');
    try {
      if (!method) throw new ConnectRefused('This platform is not connected this way.');
      const created = await connect.finish(type, query, cookie, who(res), deps.baseUrl());
      res.redirect(303, `/connectors/${created.connector_id}/check?done=connected`);
    } catch (err) {
      const reason = refusal(err);
      if (!reason) throw err;
      await render(req, res, 400, { form: method ? formId(type, method) : '', values: {}, error: reason });
    }
  }
  router.get('/connectors/:type/callback', ...guards.page, (req, res) => callback(req, res, String(req.params.type)));
  // Older callback paths a platform's apps list, kept working (the flow's cookie must reach them: they sit under it).
  for (const { plugin, method } of connect.offers()) {
    if (method.kind !== 'oauth') continue;
    for (const path of method.callbackPaths ?? []) router.get(path, ...guards.page, (req, res) => callback(req, res, plugin.type));
  }

  router.get('/connectors/:id/check', ...guards.page, async (req, res) => {
    const connector = await ownConnector(req, res);
    const done = String(req.query.done ?? '');
    const notice = done === 'connected' ? `${titleOf(connector.type)} is connected. Here is what the connector still needs, if anything.`
      : Object.hasOwn(NOTICES, done) ? NOTICES[done as keyof typeof NOTICES] : null;
    const flash = notice ? { kind: 'ok' as const, text: notice } : null;
    // (The check and the discover sign in apart, at once; a discover that fails says nothing the check does not.)
    const [result, catalog] = await Promise.all([checks.check(connector), checks.discover(connector)]);
    res.status(200).type('html').send(connectorCheckPage({
      web: webOf(res), connector: { connector_id: connector.id, name: connector.name, type: connector.type },
      result, canSetUp: checks.canSetUp(connector), flash, manualSteps: stepsOf(connector.type), catalog,
    }));
  });
  router.post('/connectors/:id/setup', ...guards.action, async (req, res) => {
    const connector = await ownConnector(req, res);
    const { done, check } = await checks.setUp(connector);
    const catalog = await checks.discover(connector);
    res.status(200).type('html').send(connectorCheckPage({
      web: webOf(res), connector: { connector_id: connector.id, name: connector.name, type: connector.type }, result: check,
      canSetUp: checks.canSetUp(connector), done, manualSteps: stepsOf(connector.type), catalog,
    }));
  });

  router.post('/connectors/:id/run', ...guards.action, async (req, res) => {
    const started = await connectorRuns.start(await ownConnector(req, res), 'dashboard', { resumePaused: true });
    res.redirect(303, `/connectors?done=${started ? 'run-started' : 'run-busy'}`);
  });
  // The policy its answers follow: a name the account has (the select lists them), or none (the fixed table).
  router.post('/connectors/:id/policy', ...guards.action, async (req, res) => {
    const connector = await ownConnector(req, res);
    try {
      await connectors.update(connector, { policy: text(fields(req).policy) || null });
    } catch (err) {
      if (!(err instanceof ConnectorInvalid)) throw err;
      return render(req, res, 400, null, refusal(err));
    }
    res.redirect(303, '/connectors?done=policy-saved');
  });
  for (const [verb, status, notice] of [['pause', 'paused', 'paused'], ['resume', 'active', 'resumed']] as const) {
    router.post(`/connectors/:id/${verb}`, ...guards.action, async (req, res) => {
      await connectors.update(await ownConnector(req, res), { status });
      res.redirect(303, `/connectors?done=${notice}`);
    });
  }
}
