/**
 * The dashboard (docs/dashboard.md): server-rendered pages for people, signed in by a session cookie. Thin: each route
 * reads the form, calls the use case (src/people, src/billing, src/batches, src/sync) for the session's own account,
 * and renders a page or redirects (POST, then 303: a reload never sends a form twice). Every id in a URL is looked up
 * within the session's account; another account's id is answered exactly like one that does not exist.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { type Accounts, DuplicateFormError, InvalidArgumentError } from '../billing/accounts.js';
import { type Batches, batchView } from '../batches/batches.js';
import { ColumnError } from '../batches/columns.js';
import { costToFinish, estimateFile } from '../batches/cost-estimate.js';
import { CsvGrammarError } from '../batches/csv-file.js';
import type { CreditLedger } from '../billing/ledger.js';
import { PaymentsNotConfiguredError } from '../billing/purchases.js';
import { DAY_MS, listPacks } from '../billing/pricing.js';
import { dailyUsage, utcDay } from '../billing/usage.js';
import { isDatabaseUnavailable } from '../db/data-source.js';
import { Problem } from '../http/problems.js';
import { batchParameters, createFromUpload, sendBatchResult } from '../http/batch-files.js';
import { admitUploadWhen } from '../http/upload.js';
import { parseBody } from '../http/request-schema.js';
import { PeopleError, type People } from '../people/people.js';
import type { ConnectorRuns } from '../sync/connector-runs.js';
import type { Connectors } from '../sync/connectors.js';
import type { OrderPort } from '../sync/order-port.js';
import type { Database } from '../db/data-source.js';
import { dashboardAssets, iconRoutes } from './assets.js';
import { SAMPLE_CSV, SAMPLE_CSV_NAME } from './sample-csv.js';
import { orderAddressRoutes } from './order-routes.js';
import { storeRoutes } from './store-routes.js';
import { batchPage, batchesPage } from './pages/batches.js';
import { billingPage, type Receipt } from './pages/billing.js';
import { keysPage } from './pages/keys.js';
import { membersPage } from './pages/members.js';
import { overviewPage } from './pages/overview.js';
import { settingsPage } from './pages/settings.js';
import { checkMailPage, errorPage, forgotPage, linkProblemPage, setPasswordPage, signInPage, signUpPage } from './pages/sign-in.js';
import { connectorRoutes, type ConnectorPageDeps } from './connector-routes.js';
import { webhookRoutes, type WebhookPageDeps } from './webhook-routes.js';
import { nextAfterSignIn } from './sign-in-next.js';
import { checkCsrf, clearSessionCookie, CsrfRejected, setSessionCookie, webOf, webSession } from './web-session.js';

/** What the dashboard needs of the purchases use case (src/billing/purchases.ts). */
export interface PackPurchases {
  readonly enabled: boolean;
  startCheckout(input: { accountId: string; userId: string; email: string; packSize: number; successUrl: string; cancelUrl: string }): Promise<{ url: string }>;
  history(accountId: string): Promise<Receipt[]>;
}

export interface DashboardDeps {
  people: People;
  accounts: Accounts;
  ledger: CreditLedger;
  batches: Batches;
  connectors: Connectors;
  connectorRuns: ConnectorRuns;
  connectorChecks: ConnectorPageDeps['checks'];
  /** Every plugin's ways to connect, rendered from their declarations. */
  connect: ConnectorPageDeps['connect'];
  purchases: PackPurchases;
  webhooks: WebhookPageDeps['webhooks'];
  lowBalance: WebhookPageDeps['lowBalance'];
  /** Orders checked at purchase: the buyer's address page, the store's settings and proof. */
  orders?: OrderPort | null;
  db: Database;
  settings: {
    freeCredits: number;
    packPrices: ReadonlyMap<number, number>;
    batchMaxBytes: number;
    sessionMaxAgeMs: number;
    currency: string;
    publicBaseUrl?: string;
    /** Where links in mail and Stripe's return pages point: PUBLIC_BASE_URL, else the service's own address. */
    baseUrl: () => string;
    /** Origins a form's answer may redirect to (Stripe Checkout). */
    checkoutOrigins: string[];
    /** CONNECTOR_ALLOW_PRIVATE (tests): Connect Salesforce may use a local org as its login host. */
    connectorsAllowPrivate?: boolean;
  };
}

const USAGE_DAYS = 30;

/** The outcomes a redirect announces, by code: no text a visitor could craft reaches the page. */
const NOTICES = {
  confirmed: 'Your e-mail address is confirmed.',
  'confirm-sent': 'A new confirmation link is on its way.',
  'key-revoked': 'The key is revoked: requests with it are refused from now on.',
  'batch-uploaded': 'The file is uploaded; its rows are being checked.',
  'batch-checked': 'The file is uploaded and checked: its result is ready below.',
  'batch-resumed': 'The batch goes on.',
  'batch-paused': 'A batch is paused: the account ran out of credits. What it takes to finish is shown beside it.',
  invited: 'The invitation is on its way.',
  removed: 'The person no longer has access, and the API keys they made are revoked.',
  'password-set': 'Your password is set.',
  'checkout-done': 'Thank you! The credits appear as soon as Stripe confirms the payment (usually within seconds).',
  'checkout-canceled': 'The purchase was canceled; nothing was charged.',
  'signed-out': 'You are signed out.',
} as const;
type Notice = keyof typeof NOTICES;

/** The notice after an upload, from the newest batch's state: "being checked" only while it is queued or running. */
function uploadNotice(status: string | undefined) {
  if (status === 'paused') return { kind: 'error' as const, text: NOTICES['batch-paused'] };
  if (status === 'completed') return { kind: 'ok' as const, text: NOTICES['batch-checked'] };
  // The page's script swaps in the second text when the batch finishes while the page is open.
  if (status === 'queued' || status === 'running') return { kind: 'ok' as const, text: NOTICES['batch-uploaded'], doneText: NOTICES['batch-checked'] };
  return null;
}

/**
 * The upload form's labels for the API's parameter names in a refusal (the CSV reader speaks the API's words): the
 * person reads what the form calls them, under "Columns and options".
 */
const FORM_LABELS: Record<string, string> = {
  address_columns: '"Address columns"', email_column: '"E-mail column"', phone_column: '"Phone column"', country_column: '"Country column"',
  feedback_column: '"Feedback column"',
};
export const inFormWords = (detail: string) => detail
  .replace(/name them with address_columns, email_column or phone_column/, 'name them under "Columns and options"')
  .replace(/\b(address_columns|email_column|phone_column|country_column|feedback_column)\b/g, (name) => FORM_LABELS[name]);

const noticeOf = (req: Request) => {
  const code = String(req.query.done ?? '');
  return Object.hasOwn(NOTICES, code) ? { kind: 'ok' as const, text: NOTICES[code as Notice] } : null;
};
const formOf = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const clientOf = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** A loopback host name: a link made with it can only lead back to the machine that opened the page. */
const LOOPBACK_HOST = /^(?:localhost|[a-z0-9-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;
const LOOPBACK_CLIENT = /^(?:127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/;

/**
 * A request from a browser on the service's own machine: no proxy header, a loopback client and a loopback host. Only
 * to such a request does a development service show a mail's link on the page (a reset link shown to anyone who asks
 * would hand over every account).
 */
const fromThisMachine = (req: Request) => !req.get('x-forwarded-for') && !req.get('forwarded')
  && LOOPBACK_CLIENT.test(req.socket.remoteAddress ?? '') && LOOPBACK_HOST.test(req.get('host') ?? '');
const wantsJson = (req: Request) => (req.get('accept') ?? '').includes('application/json');

/** The dashboard's routes, mounted on `app`; the router is returned for the 405 answers (src/http/app.ts). */
export function dashboardRoutes(app: express.Express, deps: DashboardDeps): Router {
  const { people, accounts, ledger, batches, connectors, connectorRuns, purchases, settings } = deps;
  const router: Router = express.Router();
  const session = webSession(people.sessions, {
    publicBaseUrl: settings.publicBaseUrl, maxAgeMs: settings.sessionMaxAgeMs, formTargets: settings.checkoutOrigins,
  });
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
  const csrf: RequestHandler = (req, res, next) => {
    checkCsrf(req, res);
    next();
  };
  /** Pages of a signed-in person; others go to the sign-in page. */
  const signedIn: RequestHandler = (req, res, next) => {
    if (webOf(res).session) return next();
    if (req.method === 'GET' || req.method === 'HEAD') return res.redirect(303, '/signin');
    throw new CsrfRejected('no session');
  };
  const page = [session, signedIn];
  const action = [session, form, csrf, signedIn];
  const anonymousForm = [session, form, csrf];
  const accountOf = (res: Response) => webOf(res).session!.accountId;
  const startSession = (res: Response, token: string) => setSessionCookie(res, token, settings.sessionMaxAgeMs);
  const html = (res: Response, status: number, body: string) => res.status(status).type('html').send(body);
  /**
   * Where a mail's links point: PUBLIC_BASE_URL when set; else the host the person is browsing when it is a loopback
   * name (http://localhost:8080 gives localhost links); else the service's own address. Never another request host:
   * a forged Host header would otherwise send someone's reset link to the forger's site.
   */
  const linkBase = (req: Request) => {
    const host = req.get('host') ?? '';
    return !settings.publicBaseUrl && LOOPBACK_HOST.test(host) ? `${req.protocol}://${host}` : settings.baseUrl();
  };
  /**
   * The API's address as the person reaches it (PUBLIC_BASE_URL, else the request's own origin: the dashboard and the
   * API are one server), for the commands the pages show. Shown to the person only, never mailed.
   */
  const apiBase = (req: Request) => settings.publicBaseUrl?.replace(/\/+$/, '') ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  /** Shows a mail's link on the page when the mailer says so (development, no SMTP_URL) and the browser is this machine's. */
  const showMailLink = (req: Request, res: Response, link: string | undefined) => {
    if (link && fromThisMachine(req)) webOf(res).mailLink = link;
    return Boolean(webOf(res).mailLink);
  };

  dashboardAssets(router);
  iconRoutes(router);
  orderAddressRoutes(router, deps.orders, deps.db, { session, form, csrf });

  // Signing up, in and out.
  router.get('/signup', session, (_req, res) => {
    if (webOf(res).session) return res.redirect(303, '/');
    html(res, 200, signUpPage(webOf(res), settings.freeCredits));
  });
  router.post('/signup', ...anonymousForm, async (req, res) => {
    const body = formOf(req);
    try {
      const { email, link } = await people.signUp({ email: body.email, password: body.password }, linkBase(req), clientOf(req));
      // A link comes back only when no relay is configured: then no message went out, and the page says so.
      const delivery = link === undefined ? (people.mailGoesOut ? 'sent' : 'dropped') : showMailLink(req, res, link) ? 'shown' : 'logged';
      html(res, 200, checkMailPage(webOf(res), email, delivery));
    } catch (err) {
      if (!(err instanceof PeopleError)) throw err;
      if (err.retryAfterS) res.set('Retry-After', String(err.retryAfterS));
      html(res, err.code === 'sign-up-limited' ? 429 : 400, signUpPage(webOf(res), settings.freeCredits, { values: { email: text(body.email) }, errors: { [err.field ?? 'email']: err.message } }));
    }
  });
  // A page that needs a person (an app's install) sends them here with `next`: signed in, they go on there.
  const installSteps = deps.connect.offers().flatMap(({ method }) => (method.kind === 'install' ? [method.paths.install, method.paths.callback] : []));
  router.get('/signin', session, (req, res) => {
    const next = nextAfterSignIn(req.query.next, installSteps);
    if (webOf(res).session) return res.redirect(303, next ?? '/');
    html(res, 200, signInPage(webOf(res), next ? { values: { next } } : {}, noticeOf(req)?.text));
  });
  router.post('/signin', ...anonymousForm, async (req, res) => {
    const body = formOf(req);
    try {
      const previous = webOf(res).session;
      const { token } = await people.signIn({ email: body.email, password: body.password }, clientOf(req));
      if (previous) await people.sessions.end(previous.idHash);
      startSession(res, token);
      res.redirect(303, nextAfterSignIn(body.next, installSteps) ?? '/');
    } catch (err) {
      if (!(err instanceof PeopleError)) throw err;
      if (err.retryAfterS) res.set('Retry-After', String(err.retryAfterS));
      const next = nextAfterSignIn(body.next, installSteps) ?? '';
      html(res, err.code === 'sign-in-limited' ? 429 : 401, signInPage(webOf(res), { values: { email: text(body.email), next }, message: err.message }));
    }
  });
  router.post('/signout', session, form, csrf, async (_req, res) => {
    const current = webOf(res).session;
    if (current) await people.sessions.end(current.idHash);
    clearSessionCookie(res);
    res.redirect(303, '/signin?done=signed-out');
  });

  // Links from mail.
  router.get('/confirm', session, async (req, res) => {
    try {
      await people.confirmEmail(req.query.token);
      res.redirect(303, webOf(res).session ? '/?done=confirmed' : '/signin?done=confirmed');
    } catch (err) {
      if (!(err instanceof PeopleError)) throw err;
      html(res, 400, linkProblemPage(webOf(res), err.message));
    }
  });
  router.post('/confirm/resend', ...action, async (req, res) => {
    const link = await people.resendConfirmation(webOf(res).session!.userId, linkBase(req));
    if (showMailLink(req, res, link)) return html(res, 200, errorPage(webOf(res), 'Confirm your e-mail address', NOTICES['confirm-sent']));
    res.redirect(303, '/?done=confirm-sent');
  });
  router.get('/forgot', session, (_req, res) => html(res, 200, forgotPage(webOf(res))));
  router.post('/forgot', ...anonymousForm, async (req, res) => {
    showMailLink(req, res, await people.requestPasswordReset(formOf(req).email, linkBase(req)));
    html(res, 200, forgotPage(webOf(res), true));
  });
  for (const purpose of ['reset', 'invite'] as const) {
    router.get(`/${purpose}`, session, async (req, res) => {
      try {
        const holder = await people.linkHolder(req.query.token, purpose);
        const keys = { live: purpose === 'reset' ? await accounts.liveKeysOf(holder.userId) : 0, revoke: true };
        html(res, 200, setPasswordPage(webOf(res), purpose, text(req.query.token), holder.email, {}, keys));
      } catch (err) {
        if (!(err instanceof PeopleError)) throw err;
        html(res, 400, linkProblemPage(webOf(res), err.message));
      }
    });
    router.post(`/${purpose}`, ...anonymousForm, async (req, res) => {
      const body = formOf(req);
      try {
        const { token } = await people.setPassword(body.token, body.password, purpose, { revokeKeys: body.revoke_keys === 'true' });
        const previous = webOf(res).session;
        if (previous) await people.sessions.end(previous.idHash);
        startSession(res, token);
        res.redirect(303, '/?done=password-set');
      } catch (err) {
        if (!(err instanceof PeopleError)) throw err;
        if (err.code !== 'weak-password') return html(res, 400, linkProblemPage(webOf(res), err.message));
        const holder = await people.linkHolder(body.token, purpose);
        const keys = { live: purpose === 'reset' ? await accounts.liveKeysOf(holder.userId) : 0, revoke: body.revoke_keys === 'true' };
        html(res, 400, setPasswordPage(webOf(res), purpose, text(body.token), holder.email, { errors: { password: err.message } }, keys));
      }
    });
  }

  // Overview.
  router.get('/', ...page, async (req, res) => {
    const id = accountOf(res);
    const to = utcDay(Date.now());
    const [credits, days, keys] = await Promise.all([
      accounts.credits(id), dailyUsage(ledger, id, to - (USAGE_DAYS - 1) * DAY_MS, to), accounts.listKeys(id),
    ]);
    const liveKeys = keys.filter((k) => !k.revoked_at && !k.publishable).length;
    html(res, 200, overviewPage({
      web: webOf(res), ...credits, days, packs: listPacks(settings.packPrices), flash: noticeOf(req), baseUrl: apiBase(req), liveKeys,
    }));
  });

  // API keys.
  router.get('/keys', ...page, async (req, res) => {
    html(res, 200, keysPage({ web: webOf(res), baseUrl: apiBase(req), keys: await accounts.listKeysWithCreators(accountOf(res)), flash: noticeOf(req) }));
  });
  router.post('/keys', ...action, async (req, res) => {
    const body = formOf(req);
    const id = accountOf(res);
    const publishable = body.kind === 'publishable';
    const test = body.kind === 'test';
    try {
      const origins = text(body.origins).split(/[\s,]+/).filter(Boolean);
      const formNonce = /^[A-Za-z0-9_-]{22}$/.test(text(body.form_nonce)) ? text(body.form_nonce) : undefined;
      const createdBy = webOf(res).session!.userId;
      const created = await accounts.createKey(id, publishable ? { origins, phone: body.phone === 'true' } : undefined, { formNonce, createdBy, test });
      html(res, 201, keysPage({ web: webOf(res), baseUrl: apiBase(req), keys: await accounts.listKeysWithCreators(id), created: { api_key: created.api_key, publishable, test } }));
    } catch (err) {
      if (err instanceof DuplicateFormError) {
        const flash = { kind: 'error' as const, text: 'This form was sent again: its key was created and shown once already. Revoke it if it was not copied.' };
        return html(res, 409, keysPage({ web: webOf(res), baseUrl: apiBase(req), keys: await accounts.listKeysWithCreators(id), flash }));
      }
      if (!(err instanceof InvalidArgumentError)) throw err;
      html(res, 400, keysPage({ web: webOf(res), baseUrl: apiBase(req), keys: await accounts.listKeysWithCreators(id), error: err.message, origins: text(body.origins) }));
    }
  });
  router.post('/keys/:id/revoke', ...action, async (req, res) => {
    const keys = await accounts.listKeys(accountOf(res));
    if (!keys.some((k) => k.key_id === req.params.id)) throw new Problem('not-found', 'No such API key on this account.');
    await accounts.revokeKey(String(req.params.id));
    res.redirect(303, '/keys?done=key-revoked');
  });

  // CSV batches.
  const ownBatch = async (req: Request, res: Response) => {
    const job = await batches.get(accountOf(res), String(req.params.id));
    if (!job) throw new Problem('not-found', 'No such batch on this account.');
    return job;
  };
  router.get('/batches', ...page, async (req, res) => {
    const id = accountOf(res);
    const [{ items: jobs }, credits] = await Promise.all([batches.list(id), accounts.credits(id)]);
    // The list has no settings (a job's can be large); a paused batch's columns are read for its cost to finish.
    const settingsOf = async (jobId: string) => (await batches.get(id, jobId))?.settings ?? {};
    const list = await Promise.all(jobs.map(async (job) => ({
      ...batchView(job), to_finish: job.status === 'paused' ? costToFinish({ ...job, settings: await settingsOf(job.id) }) : null,
    })));
    // The upload's notice says what the newest batch is doing now: being checked only while it is not finished.
    const flash = req.query.done === 'batch-uploaded' ? uploadNotice(list[0]?.status) : noticeOf(req);
    html(res, 200, batchesPage({
      web: webOf(res), batches: list, maxBytes: settings.batchMaxBytes, balance: credits.balance, paymentsEnabled: purchases.enabled, flash,
    }));
  });
  // What a file will cost, before it is sent: the page's script reads its header line and counts its rows.
  router.post('/batches/estimate', session, express.json({ limit: '32kb' }), csrf, signedIn, async (req, res) => {
    const { header, rows, ...columns } = parseBody(estimateRequest, req.body);
    let found;
    try {
      found = estimateFile(header, rows, columns);
    } catch (err) {
      if (err instanceof ColumnError) throw new Problem('invalid-csv', inFormWords(`Line 1: ${err.message}.`), { line: 1 });
      if (err instanceof CsvGrammarError) throw new Problem('invalid-csv', `Line ${err.line}: ${err.message}.`, { line: err.line });
      throw err;
    }
    const { balance } = await accounts.credits(accountOf(res));
    res.json({ ...found.estimate, balance, columns: found.columns });
  });
  router.get('/batches/sample.csv', (_req, res) => {
    res.status(200).type('text/csv; charset=utf-8').attachment(SAMPLE_CSV_NAME).send(SAMPLE_CSV);
  });
  // The form's token comes as its first field (or in the script's header), never in the URL: it is checked before a
  // byte of the file is stored.
  router.post('/batches', session, signedIn, async (req, res) => {
    admitUploadWhen(req, (fields) => checkCsrf(req, res, fields));
    let created;
    try {
      created = await createFromUpload(req, accountOf(res), batches, settings.batchMaxBytes, parseBatchForm);
    } catch (err) {
      if (err instanceof Problem && err.code === 'invalid-csv' && err.detail) throw new Problem('invalid-csv', inFormWords(err.detail), err.extensions);
      throw err;
    }
    if (wantsJson(req)) res.status(202).json(created);
    else res.redirect(303, '/batches?done=batch-uploaded');
  });
  router.get('/batches/:id/status', ...page, async (req, res) => {
    // The balance rides along: the page shows the same figure as every other page while the batch charges it.
    const [job, { balance }] = await Promise.all([ownBatch(req, res), accounts.credits(accountOf(res))]);
    res.json({ ...batchView(job), balance });
  });
  router.get('/batches/:id', ...page, async (req, res) => {
    const job = await ownBatch(req, res);
    html(res, 200, batchPage({ web: webOf(res), batch: batchView(job), preview: await batches.preview(job) }));
  });
  router.get('/batches/:id/result', ...page, async (req, res) => {
    sendBatchResult(res, batches, await ownBatch(req, res), { partial: false, formulaEscape: true });
  });
  router.post('/batches/:id/resume', ...action, async (req, res) => {
    const job = await ownBatch(req, res);
    if (!(await batches.resume(job.id))) throw new Problem('batch-not-paused', `The batch is ${job.status}; only a paused batch can be resumed.`);
    res.redirect(303, '/batches?done=batch-resumed');
  });

  connectorRoutes(router, { page, action }, {
    connectors, connectorRuns, checks: deps.connectorChecks, connect: deps.connect,
    allowPrivate: settings.connectorsAllowPrivate ?? false, baseUrl: settings.baseUrl,
  });

  storeRoutes(router, { page, action }, { connectors, orders: deps.orders });
  webhookRoutes(router, { page, action }, { webhooks: deps.webhooks, lowBalance: deps.lowBalance, accounts });

  // Billing.
  router.get('/billing', ...page, async (req, res) => {
    const id = accountOf(res);
    const [credits, receipts] = await Promise.all([accounts.credits(id), purchases.history(id)]);
    const flash = req.query.checkout === 'done' ? { kind: 'ok' as const, text: NOTICES['checkout-done'] }
      : req.query.checkout === 'canceled' ? { kind: 'ok' as const, text: NOTICES['checkout-canceled'] } : noticeOf(req);
    html(res, 200, billingPage({
      web: webOf(res), packs: listPacks(settings.packPrices), balance: credits.balance, receipts, paymentsEnabled: purchases.enabled,
      currency: settings.currency, flash,
    }));
  });
  router.post('/billing/checkout', ...action, async (req, res) => {
    const s = webOf(res).session!;
    if (!s.emailConfirmed) throw new Problem('email-unconfirmed', 'Confirm your e-mail address before buying credits.');
    const base = settings.baseUrl();
    try {
      const checkout = await purchases.startCheckout({
        accountId: s.accountId, userId: s.userId, email: s.email, packSize: Number(formOf(req).pack),
        successUrl: `${base}/billing?checkout=done`, cancelUrl: `${base}/billing?checkout=canceled`,
      });
      res.redirect(303, checkout.url);
    } catch (err) {
      if (err instanceof InvalidArgumentError) throw new Problem('invalid-request', err.message, { errors: [{ field: 'pack', message: err.message }] });
      if (err instanceof PaymentsNotConfiguredError) throw new Problem('payments-not-configured', err.message);
      throw err;
    }
  });

  // The person's own settings.
  router.get('/settings', ...page, (req, res) => html(res, 200, settingsPage({ web: webOf(res), flash: noticeOf(req) })));
  router.post('/settings/password', ...action, async (req, res) => {
    const body = formOf(req);
    try {
      const { token } = await people.changePassword(webOf(res).session!.userId, body.current, body.password);
      startSession(res, token);
      res.redirect(303, '/settings?done=password-set');
    } catch (err) {
      if (!(err instanceof PeopleError)) throw err;
      html(res, 400, settingsPage({ web: webOf(res), errors: { [err.field ?? 'password']: err.message } }));
    }
  });

  // Members.
  router.get('/members', ...page, async (req, res) => {
    html(res, 200, membersPage({ web: webOf(res), members: await people.members(accountOf(res)), flash: noticeOf(req) }));
  });
  router.post('/members', ...action, async (req, res) => {
    const s = webOf(res).session!;
    try {
      const link = await people.invite(s, formOf(req).email, linkBase(req));
      if (showMailLink(req, res, link)) return html(res, 200, membersPage({ web: webOf(res), members: await people.members(s.accountId), flash: { kind: 'ok', text: NOTICES.invited } }));
      res.redirect(303, '/members?done=invited');
    } catch (err) {
      if (!(err instanceof PeopleError)) throw err;
      html(res, err.code === 'owner-only' ? 403 : 400, membersPage({ web: webOf(res), members: await people.members(s.accountId), error: err.message, email: text(formOf(req).email) }));
    }
  });
  router.post('/members/:id/resend', ...action, async (req, res) => {
    try {
      const link = await people.resendInvitation(webOf(res).session!, String(req.params.id), linkBase(req));
      if (showMailLink(req, res, link)) return html(res, 200, membersPage({ web: webOf(res), members: await people.members(accountOf(res)), flash: { kind: 'ok', text: NOTICES.invited } }));
    } catch (err) {
      if (err instanceof PeopleError) throw new Problem(err.code === 'owner-only' ? 'owner-only' : 'not-found', err.message);
      throw err;
    }
    res.redirect(303, '/members?done=invited');
  });
  router.post('/members/:id/remove', ...action, async (req, res) => {
    try {
      await people.removeMember(webOf(res).session!, String(req.params.id));
    } catch (err) {
      if (err instanceof PeopleError) throw new Problem(err.code === 'owner-only' ? 'owner-only' : 'not-found', err.message);
      throw err;
    }
    res.redirect(303, '/members?done=removed');
  });

  router.use(dashboardErrors());
  app.use(router);
  return router;
}

/** The header line of a file about to be uploaded, its number of rows, and the columns the form names. */
const estimateRequest = batchParameters.pick({ address_columns: true, email_column: true, phone_column: true, country_column: true })
  .extend({ header: z.string().min(1).max(16_384), rows: z.number().int().min(0).max(1e9) });

/** The upload form's options: its empty inputs left out, an unticked SMTP box meaning false, the CSRF field dropped. */
function parseBatchForm(fields: Record<string, string>) {
  const cleaned = Object.fromEntries(Object.entries({ smtp: 'false', ...fields }).filter(([k, v]) => k !== '_csrf' && v.trim() !== ''));
  const parsed = batchParameters.safeParse(cleaned);
  if (!parsed.success) {
    throw new Problem('invalid-request', 'The batch options are not valid.', {
      errors: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
    });
  }
  return parsed.data;
}

/**
 * A refused or failed dashboard request: a page for a person, an RFC 9457 problem for the page's script (and any
 * client asking for JSON). A CSRF refusal is a 403 that says to reload the form.
 */
function dashboardErrors() {
  return (err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    let problem: Problem;
    if (err instanceof CsrfRejected) {
      res.locals.context?.log.warn({ reason: err.message }, 'dashboard request refused: CSRF');
      problem = new Problem('csrf-failed', 'This form has expired or came from another site: reload the page and try again.');
    } else if (err instanceof Problem) {
      problem = err;
    } else if (isDatabaseUnavailable(err)) {
      problem = new Problem('database-unavailable', 'The service cannot reach its database; try again in a moment.');
    } else {
      return next(err);
    }
    if (wantsJson(req) || !res.locals.web) return next(problem);
    res.status(problem.status).set(problem.headers).type('html').send(errorPage(webOf(res), problemTitle(problem), problem.detail ?? problem.message));
  };
}

const problemTitle = (p: Problem) => (p.status === 404 ? 'Not found' : p.status === 403 ? 'Not allowed' : p.status >= 500 ? 'Something went wrong' : 'That did not work');
