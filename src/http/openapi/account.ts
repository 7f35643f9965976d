/** GET /v1/account and the key endpoints in the OpenAPI description. */
import { z } from 'zod';
import type { Grant } from '../../billing/ledger.js';
import { MODULES } from '../../billing/pricing.js';
import { newKeySchema, usageQuery } from '../routes/account.js';
import { enumOf, type Component, type Operation } from './operation.js';

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
});

const moduleUsage = z.object({ requests: z.int().min(0), credits: z.int() });

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
});

export const keyListSchema = z.object({ keys: z.array(apiKeyInfoSchema) });

export const createdKeySchema = z.object({
  key_id: z.string(),
  api_key: z.string().regex(/^cv_(live|pub)_[0-9A-Za-z]+$/).describe('Shown this once; only its hash is kept'),
  publishable: publishableScopeSchema.optional(),
});

export const revokedKeySchema = z.object({ key_id: z.string(), revoked_at: isoTime });

const KEY_EXAMPLE = { key_id: 'key_4Xq9pTz2LmN8vR1sK7wY', prefix: 'cv_live_Ab3d', created_at: '2026-01-05T10:00:00.000Z', revoked_at: null };

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
    }],
  }],
  [keyListSchema, { id: 'KeyList' }],
  [newKeySchema, {
    id: 'NewKeyRequest',
    description: 'No body (or `{}`): a secret key. `publishable: true` with 1 to 20 origins: a key for web pages.',
    examples: [{ publishable: true, origins: ['https://shop.example.com'], phone: false }],
  }],
  [createdKeySchema, { id: 'CreatedKey', examples: [{ key_id: 'key_4Xq9pTz2LmN8vR1sK7wY', api_key: 'cv_live_…' }] }],
  [revokedKeySchema, { id: 'RevokedKey' }],
];

const keyId = { name: 'key_id', in: 'path', required: true, schema: z.string(), description: 'The key to revoke' } as const;

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
const day = (name: 'from' | 'to', description: string) =>
  ({ name, in: 'query', required: false, schema: usageQuery.shape[name].unwrap().in, description }) as const;

export const accountOperations: Operation[] = [
  {
    method: 'get', path: '/v1/account', operationId: 'getAccount', tag: 'Account', auth: 'key',
    summary: "The key's own account",
    description: 'Balance, grants with their expiry, usage per module over 30 days, and API keys (prefixes only).',
    responses: { 200: { description: 'The account', content: { 'application/json': { schema: accountSchema } } } },
    problems: [],
  },
  {
    method: 'get', path: '/v1/usage', operationId: 'getUsage', tag: 'Account', auth: 'key',
    summary: 'Usage per module per day',
    description: 'UTC days from `from` to `to` (inclusive, at most 366; by default the last 30), every day listed, zeros included.',
    parameters: [day('from', 'The first day, YYYY-MM-DD'), day('to', 'The last day, YYYY-MM-DD (today by default)')],
    responses: { 200: { description: 'One entry per day', content: { 'application/json': { schema: usageDaysSchema } } } },
    problems: ['invalid-request'],
  },
  {
    method: 'get', path: '/v1/keys', operationId: 'listKeys', tag: 'Account', auth: 'key',
    summary: "The account's API keys",
    responses: { 200: { description: 'Every key, revoked ones included', content: { 'application/json': { schema: keyListSchema } } } },
    problems: [],
  },
  {
    method: 'post', path: '/v1/keys', operationId: 'createKey', tag: 'Account', auth: 'key',
    summary: 'Create an API key',
    description: 'The key is in the answer once, never again.',
    requestBody: { required: false, content: { 'application/json': { schema: newKeySchema } } },
    responses: { 201: { description: 'The new key', content: { 'application/json': { schema: createdKeySchema } } } },
    problems: ['invalid-json', 'invalid-request', 'payload-too-large', 'unsupported-media-type'],
  },
  {
    method: 'delete', path: '/v1/keys/{key_id}', operationId: 'revokeKey', tag: 'Account', auth: 'key',
    summary: 'Revoke an API key',
    description: 'It stops working at once. Another account\'s key answers 404, like a missing one.',
    parameters: [keyId],
    responses: { 200: { description: 'The key, revoked', content: { 'application/json': { schema: revokedKeySchema } } } },
    problems: ['not-found'],
  },
];
