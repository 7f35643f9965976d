/**
 * The dashboard's Webhooks page (docs/webhooks.md): add an endpoint (its secret shown once), delete one, send a
 * delivery again, set the low-balance threshold. Every form is CSRF-checked (`action`); every id is looked up within
 * the session's account, another account's answered like a missing one. Members see the page; only the owner changes
 * what the account sends out (docs/account.md#key-roles holds the API's side of the same rule).
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Accounts } from '../billing/accounts.js';
import { Problem } from '../http/problems.js';
import { SecretKeyMissing } from '../kit/secrets.js';
import { MAX_THRESHOLD, type LowBalanceAlerts } from '../webhooks/low-balance.js';
import { WebhookEndpointInvalid, type Webhooks } from '../webhooks/webhooks.js';
import { webhooksPage } from './pages/webhooks.js';
import { webOf } from './web-session.js';

const DELIVERIES_SHOWN = 10;

const NOTICES = {
  deleted: 'The endpoint is deleted: nothing more is sent to it.',
  sent: 'The delivery was sent again; its outcome is in the list.',
  'alert-saved': 'The low-balance alert is saved.',
} as const;

export interface WebhookPageDeps {
  webhooks: Webhooks;
  lowBalance: LowBalanceAlerts;
  accounts: Accounts;
}

export function webhookRoutes(router: Router, guards: { page: RequestHandler[]; action: RequestHandler[] }, deps: WebhookPageDeps): void {
  const { webhooks, lowBalance, accounts } = deps;
  const accountOf = (res: Response) => webOf(res).session!.accountId;
  const fields = (req: Request) => (req.body ?? {}) as Record<string, unknown>;
  const ownerOnly: RequestHandler = (_req, res, next) => {
    if (webOf(res).session!.role === 'owner') return next();
    next(new Problem('owner-only', "Only the account's owner changes webhook endpoints and the low-balance alert."));
  };
  const change = [...guards.action, ownerOnly];

  async function render(req: Request, res: Response, status: number, extra: Partial<Parameters<typeof webhooksPage>[0]> = {}) {
    const id = accountOf(res);
    const [list, alert, credits] = await Promise.all([webhooks.listEndpoints(id), lowBalance.get(id), accounts.credits(id)]);
    const endpoints = await Promise.all(list.map(async (e) => ({ ...e, deliveries: (await webhooks.deliveries(id, e.id, { limit: DELIVERIES_SHOWN }))?.items ?? [] })));
    const done = String(req.query.done ?? '');
    const flash = Object.hasOwn(NOTICES, done) ? { kind: 'ok' as const, text: NOTICES[done as keyof typeof NOTICES] } : null;
    res.status(status).type('html').send(webhooksPage({ web: webOf(res), endpoints, alert, balance: credits.balance, flash, ...extra }));
  }

  router.get('/webhook-endpoints', ...guards.page, (req, res) => render(req, res, 200));

  router.post('/webhook-endpoints', ...change, async (req, res) => {
    const body = fields(req);
    const url = typeof body.url === 'string' ? body.url.trim() : '';
    const events = ([] as unknown[]).concat(body.events ?? []).filter((e): e is string => typeof e === 'string');
    const values = { url, events };
    if (!events.length) return render(req, res, 400, { values, errors: { events: 'Choose at least one event.' } });
    try {
      const created = await webhooks.createEndpoint(accountOf(res), { url, events });
      await render(req, res, 201, { created });
    } catch (err) {
      if (err instanceof WebhookEndpointInvalid) {
        return render(req, res, 400, { values, errors: Object.fromEntries(err.errors.map((e) => [e.field, `The ${e.field} ${e.message}.`])) });
      }
      if (err instanceof SecretKeyMissing) throw new Problem('webhooks-not-configured', 'CONNECTOR_SECRET_KEY is not set: the service cannot keep signing secrets.');
      throw err;
    }
  });

  router.post('/webhook-endpoints/low-balance', ...change, async (req, res) => {
    const text = String(fields(req).threshold ?? '').trim();
    const threshold = text === '' ? null : Number(text);
    if (threshold !== null && (!Number.isInteger(threshold) || threshold < 0 || threshold > MAX_THRESHOLD)) {
      return render(req, res, 400, { values: { threshold: text.slice(0, 20) }, errors: { threshold: `A whole number of credits from 0 to ${MAX_THRESHOLD}, or empty.` } });
    }
    await lowBalance.set(accountOf(res), threshold);
    res.redirect(303, '/webhook-endpoints?done=alert-saved');
  });

  router.post('/webhook-endpoints/:id/delete', ...change, async (req, res) => {
    if (!(await webhooks.deleteEndpoint(accountOf(res), String(req.params.id)))) throw new Problem('not-found', 'No such webhook endpoint on this account.');
    res.redirect(303, '/webhook-endpoints?done=deleted');
  });

  router.post('/webhook-endpoints/:id/deliveries/:delivery/redeliver', ...change, async (req, res) => {
    const account = accountOf(res);
    const endpointId = String(req.params.id);
    if (!(await webhooks.getEndpoint(account, endpointId))) throw new Problem('not-found', 'No such webhook endpoint on this account.');
    const sent = await webhooks.redeliver(account, endpointId, String(req.params.delivery));
    if (!sent) {
      if (await webhooks.delivery(account, endpointId, String(req.params.delivery))) throw new Problem('webhook-delivery-busy', 'This delivery is being sent at this moment; try again in a few seconds.');
      throw new Problem('not-found', 'No such delivery on this endpoint.');
    }
    res.redirect(303, '/webhook-endpoints?done=sent');
  });
}
