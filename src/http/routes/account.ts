/** The calling key's own account: balance, grants, usage, and its API keys. Nothing of any other account is reachable. */
import type { RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { type Accounts, InvalidArgumentError } from '../../billing/accounts.js';
import { jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';
import type { CreditLedger } from '../../billing/ledger.js';
import { DAY_MS } from '../../billing/pricing.js';
import { dailyUsage } from '../../billing/usage.js';
import { Problem } from '../problems.js';

const USAGE_WINDOW_DAYS = 30;

const isoDay = z.iso.date('a date as YYYY-MM-DD').transform((d) => Date.parse(`${d}T00:00:00Z`));
export const usageQuery = z.object({ from: isoDay.optional(), to: isoDay.optional() }).strict();

export const newKeySchema = z.object({
  publishable: z.boolean().optional(),
  origins: z.array(z.string().max(300)).max(20).optional(),
  phone: z.boolean().optional(),
}).strict().refine((b) => !b.publishable || (b.origins?.length ?? 0) > 0, { message: 'a publishable key needs origins', path: ['origins'] });

/** A JSON body when one is sent (POST /v1/keys may come with none). */
const optionalJson: RequestHandler = (req, res, next) => {
  if (Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding')) return jsonBody()(req, res, next);
  next();
};

export function accountRoutes(router: Router, guard: RequestHandler[], accounts: Accounts, ledger: CreditLedger): void {
  const accountOf = (res: Response) => res.locals.context.principal!.accountId;

  router.get('/v1/account', ...guard, async (_req, res) => {
    const id = accountOf(res);
    const [account, credits, usage, keys] = await Promise.all([
      accounts.get(id),
      accounts.credits(id),
      ledger.usage(id, Date.now() - USAGE_WINDOW_DAYS * DAY_MS),
      accounts.listKeys(id),
    ]);
    res.json({
      account_id: account.id,
      name: account.name,
      created_at: account.created_at,
      balance: credits.balance,
      grants: credits.grants,
      usage: { window_days: USAGE_WINDOW_DAYS, ...usage },
      keys,
    });
  });

  // docs/dashboard.md: usage per module per day, UTC days from `from` to `to` inclusive (the last 30 days by default).
  router.get('/v1/usage', ...guard, async (req, res) => {
    const query = parseBody(usageQuery, req.query);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const to = query.to ?? today;
    const from = query.from ?? to - (USAGE_WINDOW_DAYS - 1) * DAY_MS;
    if (from > to) throw new Problem('invalid-request', 'from is after to.', { errors: [{ field: 'from', message: 'after to' }] });
    if ((to - from) / DAY_MS >= 366) throw new Problem('invalid-request', 'At most 366 days at once.', { errors: [{ field: 'to', message: 'at most 366 days after from' }] });
    res.set('Cache-Control', 'no-store').json({ days: await dailyUsage(ledger, accountOf(res), from, to) });
  });

  router.get('/v1/keys', ...guard, async (_req, res) => {
    res.json({ keys: await accounts.listKeys(accountOf(res)) });
  });

  // No body (or `{}`): a secret key. `{"publishable": true, "origins": [...], "phone": false}`: a key for web pages.
  router.post('/v1/keys', ...guard, optionalJson, async (req, res) => {
    const body = parseBody(newKeySchema, req.body ?? {});
    // A key made with a person's key is that person's too: removing them revokes both.
    const createdBy = res.locals.context.principal!.createdBy;
    try {
      const created = body.publishable
        ? await accounts.createKey(accountOf(res), { origins: body.origins ?? [], phone: body.phone }, { createdBy })
        : await accounts.createKey(accountOf(res), undefined, { createdBy });
      res.status(201).json(created);
    } catch (err) {
      if (err instanceof InvalidArgumentError) {
        throw new Problem('invalid-request', err.message, { errors: [{ field: 'origins', message: err.message }] });
      }
      throw err;
    }
  });

  router.delete('/v1/keys/:keyId', ...guard, async (req, res) => {
    const own = await accounts.listKeys(accountOf(res));
    // Another account's key answers exactly like a key that does not exist.
    if (!own.some((k) => k.key_id === req.params.keyId)) throw new Problem('not-found', 'No such API key on this account.');
    res.json(await accounts.revokeKey(String(req.params.keyId)));
  });

}
