/**
 * /v1/policies: the presets, and an account's own policies (docs/api.md#policies), which `?policy=` on
 * /v1/validate and /v1/validate/batch, a key's default, a CSV batch and a connector name. The rules themselves and
 * how an answer is read under them: src/contact-check/policies.ts; where they are kept: ../../contact-check/policy-store.ts.
 */
import type { Response } from 'express';
import { z } from 'zod';
import type { Principal } from '../../billing/accounts.js';
import {
  DEFAULT_POLICY, NEXT_ACTIONS, POLICY_NAME, PRESET_NAMES, PRESETS, policyRulesInputSchema, type PolicyRules,
} from '../../contact-check/policies.js';
import { PolicyRefused, unknownPolicyMessage, type PolicyStore, type StoredPolicy } from '../../contact-check/policy-store.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { accountOf, endpoint, json } from './endpoint.js';

const action = z.enum(NEXT_ACTIONS);
// The statuses from the fixed table, which names every one (no import of ./validate.ts, which imports this file).
const byStatus = (statuses: Record<string, unknown>) => z.object(Object.fromEntries(Object.keys(statuses).map((s) => [s, action])));
const { address: ADDRESS, email: EMAIL, phone: PHONE } = DEFAULT_POLICY;
const byReason = z.record(z.string(), action);

const policyRulesSchema = z.object({
  address: z.object({
    statuses: byStatus(ADDRESS.statuses).describe('The action of each `status`'),
    corrections: action.describe('When a part was corrected or added from the rest (an `A#`, `B#` or `M#` footnote): the answer is at least this demanding'),
    missing_unit: action.describe('When the building has units and none was given (`missing_unit`): at least this demanding'),
  }),
  email: z.object({
    statuses: byStatus(EMAIL.statuses),
    reasons: byReason.describe('By `reason` (exact, else the part before a colon): wins over the status'),
    suggestion: action.describe('When the answer has a `suggestion`: at least this demanding'),
  }),
  phone: z.object({
    statuses: byStatus(PHONE.statuses),
    reasons: byReason.describe('By `reason`: wins over the status'),
  }),
});

export const policySchema = policyRulesSchema.extend({
  policy_id: z.string(),
  name: z.string(),
  base: z.enum(PRESET_NAMES).describe('The preset it was made from'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

const presetSchema = policyRulesSchema.extend({ name: z.enum(PRESET_NAMES) });

const policyListSchema = z.object({
  presets: z.array(presetSchema).describe('The named presets, the same on every service (`default` is the fixed table)'),
  policies: z.array(policySchema).describe("The account's own, by name"),
});

const policyName = z.string().regex(POLICY_NAME, 'lower-case letters, digits, `_` and `-`, at most 40, starting with a letter or digit');

const newPolicySchema = policyRulesInputSchema.extend({
  name: policyName.describe('Unique in the account; not a preset\'s name'),
  base: z.enum(PRESET_NAMES).default('default').describe('The preset whose rules the ones given change (default `default`)'),
});

export const policyComponents: Component[] = [
  [policyRulesSchema, { id: 'PolicyRules' }],
  [policySchema, { id: 'Policy' }],
  [presetSchema, { id: 'PolicyPreset' }],
  [policyListSchema, { id: 'PolicyList' }],
  [newPolicySchema, {
    id: 'NewPolicyRequest',
    description: 'A name, the preset to start from, and any rules to change in it; rules left out are the preset\'s.',
    examples: [{ name: 'webshop', base: 'checkout', email: { reasons: { role: 'confirm' } }, address: { statuses: { plausible: 'confirm' } } }],
  }],
  [policyRulesInputSchema, { id: 'PolicyChanges', description: 'Rules to change; those left out keep their action.' }],
];

const view = ({ rules, ...rest }: StoredPolicy) => ({ ...rest, ...rules });

/** The rules `?policy=` (or else the key's default) names for this request; undefined: the fixed table. */
export async function requestPolicy(policies: PolicyStore, principal: Principal, asked: string | undefined): Promise<PolicyRules | undefined> {
  const name = asked ?? principal.policy;
  if (name === undefined) return undefined;
  const rules = await policies.rulesNamed(principal.accountId, name);
  if (!rules) {
    const message = unknownPolicyMessage(name);
    throw new Problem('invalid-request', `policy: ${message}`, { errors: [{ field: 'policy', message }] });
  }
  return rules;
}

/** `?policy=`, as /v1/validate and /v1/validate/batch read it. */
export const policyQuery = z.object({
  policy: policyName.optional().describe(
    'A preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account\'s policies; default: the key\'s default policy, else the fixed table (docs/api.md#policies)',
  ),
});

function refused(err: unknown): never {
  if (err instanceof PolicyRefused) {
    if (err.reason === 'preset_name') throw new Problem('invalid-request', `name: ${err.message}`, { errors: [{ field: 'name', message: err.message }] });
    throw new Problem('policy-conflict', err.message, { reason: err.reason });
  }
  throw err;
}

const found = async (res: Response, work: (accountId: string) => Promise<StoredPolicy | null | boolean>) => {
  const policy = await work(accountOf(res)).catch(refused);
  if (!policy) throw new Problem('not-found', 'No such policy on this account.');
  return policy;
};

const idParam = { params: z.object({ policy_id: z.string().describe('The policy (`pol_…`)') }) };
const BODY_PROBLEMS = ['invalid-json', 'invalid-request', 'payload-too-large', 'unsupported-media-type'] as const;

export const policyEndpoints = [
  endpoint({
    method: 'get', path: '/v1/policies', security: 'secret', operationId: 'listPolicies', tag: 'Policies',
    summary: "The presets and the account's policies",
    responses: { 200: { description: 'Every preset, and the account\'s own policies', content: json(policyListSchema) } },
    problems: [],
    handler: async ({ res, deps }) => {
      res.json({
        presets: PRESET_NAMES.map((name) => ({ name, ...PRESETS[name] })),
        policies: (await deps.policies.list(accountOf(res))).map(view),
      });
    },
  }),
  endpoint({
    method: 'post', path: '/v1/policies', security: 'secret', operationId: 'createPolicy', tag: 'Policies',
    summary: 'Make a policy of the account',
    description: 'From a preset (`base`), with the rules given changed. Its rules are kept whole: a later version\'s presets do not change it.',
    request: { body: newPolicySchema },
    responses: { 201: { description: 'The policy', content: json(policySchema) } },
    problems: [...BODY_PROBLEMS, 'policy-conflict'],
    handler: async ({ res, deps, body }) => {
      const { name, base, ...changes } = body;
      const policy = await deps.policies.create(accountOf(res), name, base, changes).catch(refused);
      res.status(201).location(`/v1/policies/${policy.policy_id}`).json(view(policy));
    },
  }),
  endpoint({
    method: 'get', path: '/v1/policies/{policy_id}', security: 'secret', operationId: 'getPolicy', tag: 'Policies',
    summary: 'One policy of the account',
    request: idParam,
    responses: { 200: { description: 'The policy', content: json(policySchema) } },
    problems: ['not-found'],
    handler: async ({ req, res, deps }) => {
      res.json(view(await found(res, (a) => deps.policies.get(a, String(req.params.id))) as StoredPolicy));
    },
  }),
  endpoint({
    method: 'patch', path: '/v1/policies/{policy_id}', security: 'secret', operationId: 'updatePolicy', tag: 'Policies',
    summary: "Change a policy's rules",
    description: 'The rules given change; the others keep their action. Answers made from then on follow it (within a second on every instance).',
    request: { ...idParam, body: policyRulesInputSchema },
    responses: { 200: { description: 'The policy, changed', content: json(policySchema) } },
    problems: [...BODY_PROBLEMS, 'not-found'],
    handler: async ({ req, res, deps, body }) => {
      res.json(view(await found(res, (a) => deps.policies.update(a, String(req.params.id), body)) as StoredPolicy));
    },
  }),
  endpoint({
    method: 'delete', path: '/v1/policies/{policy_id}', security: 'secret', operationId: 'deletePolicy', tag: 'Policies',
    summary: 'Delete a policy',
    description: 'Refused (409 `policy-conflict`, `reason` `in_use`) while a live key has it as its default or a connector follows it.',
    request: idParam,
    responses: { 204: { description: 'Deleted' } },
    problems: ['not-found', 'policy-conflict'],
    handler: async ({ req, res, deps }) => {
      await found(res, (a) => deps.policies.remove(a, String(req.params.id)));
      res.status(204).end();
    },
  }),
];
