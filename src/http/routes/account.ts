/** The calling key's own account: balance, grants, usage, and its API keys. Nothing of any other account is reachable. */
import type { RequestHandler, Response, Router } from 'express';
import type { Accounts } from '../../billing/accounts.js';
import type { CreditLedger } from '../../billing/ledger.js';
import { DAY_MS } from '../../billing/pricing.js';
import { Problem } from '../problems.js';

const USAGE_WINDOW_DAYS = 30;

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

  router.get('/v1/keys', ...guard, async (_req, res) => {
    res.json({ keys: await accounts.listKeys(accountOf(res)) });
  });

  router.post('/v1/keys', ...guard, async (_req, res) => {
    res.status(201).json(await accounts.createKey(accountOf(res)));
  });

  router.delete('/v1/keys/:keyId', ...guard, async (req, res) => {
    const own = await accounts.listKeys(accountOf(res));
    // Another account's key answers exactly like a key that does not exist.
    if (!own.some((k) => k.key_id === req.params.keyId)) throw new Problem('not-found', 'No such API key on this account.');
    res.json(await accounts.revokeKey(String(req.params.keyId)));
  });

}
