/** The calling key's own account: balance, grants, usage, and its API keys. Nothing of any other account is reachable. */
import { z } from 'zod';
import { POLICY_NAME } from '../../contact-check/policies.js';
import { requestPolicy } from './policies.js';
import { InvalidArgumentError } from '../../billing/accounts.js';
import type { Grant } from '../../billing/ledger.js';
import { DAY_MS, MODULES } from '../../billing/pricing.js';
import { dailyUsage } from '../../billing/usage.js';
import { MAX_THRESHOLD } from '../../webhooks/low-balance.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { accountOf, endpoint, enumOf, json, type EndpointDeps } from './endpoint.js';
import { requireOwnerOrAdminKey } from './webhook-endpoints.js';

const USAGE_WINDOW_DAYS = 30;

const isoDay = z.iso.date('a date as YYYY-MM-DD').transform((d) => Date.parse(`${d}T00:00:00Z`));
export const usageQuery = z.object({
  from: isoDay.optional().describe('The first day, YYYY-MM-DD'),
  to: isoDay.optional().describe('The last day, YYYY-MM-DD (today by default)'),
}).strict();

export const newKeySchema = z.object({
  publishable: z.boolean().optional(),
  origins: z.array(z.string().max(300)).max(20).optional(),
  phone: z.boolean().optional(),
  test: z.boolean().optional().describe('A test key (`cv_test_…`): validates with network checks off and charges nothing'),
  policy: z.string().regex(POLICY_NAME).optional()
    .describe('The policy its answers follow unless a request names another (`?policy=`): a preset or one of the account\'s (docs/api.md#policies)'),
}).strict()
  .refine((b) => !b.publishable || (b.origins?.length ?? 0) > 0, { message: 'a publishable key needs origins', path: ['origins'] })
  .refine((b) => !(b.publishable && b.test), { message: 'a key is publishable or a test key, not both', path: ['test'] });

const GRANT_KINDS = enumOf<Grant['kind']>()(['free', 'pack', 'admin']);
const isoTime = z.iso.datetime();

export const grantSchema = z.object({
  id: z.string(),
  kind: z.enum(GRANT_KINDS),
  credits: z.int(),
  remaining: z.int().min(0),
  price_usd: z.number().nullable(),
  created_at: isoTime,
  expires_at: isoTime,
  expired: z.boolean(),
});

export const publishableScopeSchema = z.object({
  origins: z.array(z.string()).describe('The origins whose pages may use the key (CORS is answered for them alone)'),
  phone: z.boolean().describe('Whether the key may check phone numbers'),
});

export const apiKeyInfoSchema = z.object({
  key_id: z.string(),
  prefix: z.string().describe('The first characters of the key, to recognise it; the key itself is shown only at creation'),
  created_at: isoTime,
  revoked_at: isoTime.nullable(),
  publishable: publishableScopeSchema.optional().describe('Present for a publishable key'),
  test: z.boolean().describe('A test key (`cv_test_…`, docs/account.md#test-keys)'),
  policy: z.string().optional().describe('Its default policy, when it has one (docs/api.md#policies)'),
});

const moduleUsage = z.object({ requests: z.int().min(0), credits: z.int() });

export const lowBalanceAlertSchema = z.object({
  threshold: z.int().min(0).nullable().describe('Alert when the balance falls below this many credits; null: no alert'),
  armed: z.boolean().describe('false once an alert went out, until credits added bring the balance back at or above the threshold'),
  last_alert_at: isoTime.nullable(),
}).describe('One e-mail to the owner and one `credits.low` webhook each time the balance falls below the threshold, at most 3 a UTC day');

export const accountPatchSchema = z.object({
  low_balance_threshold: z.int().min(0).max(MAX_THRESHOLD).nullable().describe('Credits; null removes the alert'),
}).strict();

export const accountSchema = z.object({
  account_id: z.string(),
  name: z.string(),
  created_at: isoTime,
  balance: z.int().min(0).describe('Usable credits: what the unexpired grants have left'),
  grants: z.array(grantSchema),
  usage: z.object({
    window_days: z.int(),
    ...Object.fromEntries(MODULES.map((m) => [m, moduleUsage])) as Record<(typeof MODULES)[number], typeof moduleUsage>,
  }).describe('Requests charged and credits spent per module over the window'),
  keys: z.array(apiKeyInfoSchema),
  low_balance_alert: lowBalanceAlertSchema,
});

export const keyListSchema = z.object({ keys: z.array(apiKeyInfoSchema) });

export const createdKeySchema = z.object({
  key_id: z.string(),
  api_key: z.string().regex(/^cv_(live|test|pub)_[0-9A-Za-z]+$/).describe('Shown this once; only its hash is kept'),
  publishable: publishableScopeSchema.optional(),
  test: z.boolean().optional().describe('`true` for a test key; absent otherwise'),
  policy: z.string().optional().describe('Its default policy, when one was given'),
});

export const revokedKeySchema = z.object({ key_id: z.string(), revoked_at: isoTime });

const KEY_EXAMPLE = { key_id: 'key_4Xq9pTz2LmN8vR1sK7wY', prefix: 'cv_live_Ab3d', created_at: '2026-01-05T10:00:00.000Z', revoked_at: null, test: false };

export const accountComponents: Component[] = [
  [grantSchema, { id: 'Grant' }],
  [publishableScopeSchema, { id: 'PublishableScope' }],
  [apiKeyInfoSchema, { id: 'ApiKeyInfo', examples: [KEY_EXAMPLE] }],
  [accountSchema, {
    id: 'Account',
    examples: [{
      account_id: 'acct_9Jk2', name: 'Acme', created_at: '2026-01-05T10:00:00.000Z', balance: 96,
      grants: [{
        id: 'grant_1', kind: 'free', credits: 100, remaining: 96, price_usd: null,
        created_at: '2026-01-05T10:00:00.000Z', expires_at: '2027-01-05T10:00:00.000Z', expired: false,
      }],
      usage: { window_days: 30, address: { requests: 1, credits: 1 }, email: { requests: 1, credits: 1 }, phone: { requests: 1, credits: 2 } },
      keys: [KEY_EXAMPLE],
      low_balance_alert: { threshold: 50, armed: true, last_alert_at: null },
    }],
  }],
  [lowBalanceAlertSchema, { id: 'LowBalanceAlert' }],
  [accountPatchSchema, { id: 'AccountPatch', examples: [{ low_balance_threshold: 500 }] }],
  [keyListSchema, { id: 'KeyList' }],
  [newKeySchema, {
    id: 'NewKeyRequest',
    description: 'No body (or `{}`): a secret key. `publishable: true` with 1 to 20 origins: a key for web pages. `test: true`: a test key.',
    examples: [{ publishable: true, origins: ['https://shop.example.com'], phone: false }, { test: true }],
  }],
  [createdKeySchema, { id: 'CreatedKey', examples: [{ key_id: 'key_4Xq9pTz2LmN8vR1sK7wY', api_key: 'cv_live_…' }] }],
  [revokedKeySchema, { id: 'RevokedKey' }],
];

const usageDaysSchema = z.object({
  days: z.array(z.object({
    date: z.iso.date(),
    address: z.int().min(0).describe('requests (or bulk records) charged for the address module that day'),
    email: z.int().min(0),
    phone: z.int().min(0),
    credits: z.int().describe('credits spent that day: debits less refunds'),
  })),
});
export const usageComponents: Component[] = [[usageDaysSchema, { id: 'UsageDays' }]];

async function accountView({ accounts, ledger, lowBalance }: Pick<EndpointDeps, 'accounts' | 'ledger' | 'lowBalance'>, id: string) {
  const [account, credits, usage, keys, alert] = await Promise.all([
    accounts.get(id),
    accounts.credits(id),
    ledger.usage(id, Date.now() - USAGE_WINDOW_DAYS * DAY_MS),
    accounts.listKeys(id),
    lowBalance.get(id),
  ]);
  return {
    account_id: account.id,
    name: account.name,
    created_at: account.created_at,
    balance: credits.balance,
    grants: credits.grants,
    usage: { window_days: USAGE_WINDOW_DAYS, ...usage },
    keys,
    low_balance_alert: alert,
  };
}

export const accountEndpoints = [
  endpoint({
    method: 'get', path: '/v1/account', security: 'secret', operationId: 'getAccount', tag: 'Account',
    summary: "The key's own account",
    description: 'Balance, grants with their expiry, usage per module over 30 days, and API keys (prefixes only).',
    responses: { 200: { description: 'The account', content: json(accountSchema) } },
    problems: [],
    handler: async ({ res, deps }) => {
      res.json(await accountView(deps, accountOf(res)));
    },
  }),
  endpoint({
    method: 'patch', path: '/v1/account', security: 'secret', operationId: 'updateAccount', tag: 'Account',
    summary: "Change the account's settings",
    description:
      '`low_balance_threshold`: when the balance falls below it, the owner gets one e-mail and the endpoints one ' +
      '`credits.low` webhook, and no more until credits added bring the balance back at or above it (changing the ' +
      'threshold does not), at most 3 a UTC day. A new threshold is checked at once. An owner or admin key only ' +
      '(docs/account.md#key-roles): a key a member made gets 403 `owner-only`.',
    request: { body: accountPatchSchema },
    responses: { 200: { description: 'The account, changed', content: json(accountSchema) } },
    problems: ['invalid-json', 'invalid-request', 'owner-only', 'payload-too-large', 'unsupported-media-type'],
    handler: async ({ res, deps, body }) => {
      const id = accountOf(res);
      if (body.low_balance_threshold !== undefined) {
        await requireOwnerOrAdminKey(deps, res, 'changes the low-balance alert');
        await deps.lowBalance.set(id, body.low_balance_threshold);
      }
      res.json(await accountView(deps, id));
    },
  }),
  // docs/dashboard.md: usage per module per day, UTC days from `from` to `to` inclusive (the last 30 days by default).
  endpoint({
    method: 'get', path: '/v1/usage', security: 'secret', operationId: 'getUsage', tag: 'Account',
    summary: 'Usage per module per day',
    description: 'UTC days from `from` to `to` (inclusive, at most 366; by default the last 30), every day listed, zeros included.',
    request: { query: usageQuery },
    responses: { 200: { description: 'One entry per day', content: json(usageDaysSchema) } },
    problems: ['invalid-request'],
    handler: async ({ res, deps, query }) => {
      const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const to = query.to ?? today;
      const from = query.from ?? to - (USAGE_WINDOW_DAYS - 1) * DAY_MS;
      if (from > to) throw new Problem('invalid-request', 'from is after to.', { errors: [{ field: 'from', message: 'after to' }] });
      if ((to - from) / DAY_MS >= 366) throw new Problem('invalid-request', 'At most 366 days at once.', { errors: [{ field: 'to', message: 'at most 366 days after from' }] });
      res.set('Cache-Control', 'no-store').json({ days: await dailyUsage(deps.ledger, accountOf(res), from, to) });
    },
  }),
  endpoint({
    method: 'get', path: '/v1/keys', security: 'secret', operationId: 'listKeys', tag: 'Account',
    summary: "The account's API keys",
    responses: { 200: { description: 'Every key, revoked ones included', content: json(keyListSchema) } },
    problems: [],
    handler: async ({ res, deps }) => {
      res.json({ keys: await deps.accounts.listKeys(accountOf(res)) });
    },
  }),
  // No body (or `{}`): a secret key. `{"publishable": true, "origins": [...], "phone": false}`: a key for web pages. `{"test": true}`: a test key.
  endpoint({
    method: 'post', path: '/v1/keys', security: 'secret', operationId: 'createKey', tag: 'Account',
    summary: 'Create an API key',
    description: 'The key is in the answer once, never again.',
    request: { body: newKeySchema, bodyRequired: false },
    responses: { 201: { description: 'The new key', content: json(createdKeySchema) } },
    problems: ['invalid-json', 'invalid-request', 'payload-too-large', 'unsupported-media-type'],
    handler: async ({ res, deps: { accounts, policies }, body }) => {
      // A key made with a person's key is that person's too: removing them revokes both.
      const { createdBy } = res.locals.context.principal!;
      const { policy } = body;
      if (policy !== undefined) await requestPolicy(policies, { accountId: accountOf(res), keyId: '' }, policy);
      try {
        const created = body.publishable
          ? await accounts.createKey(accountOf(res), { origins: body.origins ?? [], phone: body.phone }, { createdBy, policy })
          : await accounts.createKey(accountOf(res), undefined, { createdBy, test: body.test === true, policy });
        res.status(201).json(created);
      } catch (err) {
        if (err instanceof InvalidArgumentError) {
          throw new Problem('invalid-request', err.message, { errors: [{ field: 'origins', message: err.message }] });
        }
        throw err;
      }
    },
  }),
  endpoint({
    method: 'delete', path: '/v1/keys/{key_id}', security: 'secret', operationId: 'revokeKey', tag: 'Account',
    summary: 'Revoke an API key',
    description: 'It stops working at once. Another account\'s key answers 404, like a missing one.',
    request: { params: z.object({ key_id: z.string().describe('The key to revoke') }) },
    responses: { 200: { description: 'The key, revoked', content: json(revokedKeySchema) } },
    problems: ['not-found'],
    handler: async ({ req, res, deps: { accounts } }) => {
      const own = await accounts.listKeys(accountOf(res));
      // Another account's key answers exactly like a key that does not exist.
      if (!own.some((k) => k.key_id === req.params.id)) throw new Problem('not-found', 'No such API key on this account.');
      res.json(await accounts.revokeKey(String(req.params.id)));
    },
  }),
];
