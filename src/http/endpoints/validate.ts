/** POST /v1/validate: the request schema, the answer's shape, and the handler (with Idempotency-Key replay). */
import { z } from 'zod';
import { contactInputOf, validateRequestSchema } from '../../contact-check/contact-request.js';
import { NEXT_ACTIONS, type AddressActionReason } from '../../contact-check/next-action.js';
import { modulePricesText } from '../../billing/pricing.js';
import { maskEmail, maskPhone } from '../../log.js';
import { answerIdempotently } from '../idempotent-answer.js';
import { answerPreflight } from '../middleware/publishable-keys.js';
import { Problem } from '../problems.js';
import type { Component } from '../openapi/components.js';
import {
  ADDRESS_STATUSES, addressComponentsSchema, addressLocationSchema, addressResultSchema as addressEngineSchema,
  componentChangeSchema, emailResultSchema as emailEngineSchema, phoneResultSchema as phoneEngineSchema,
} from '../../validation/types.js';
import { endpoint, type HandlerContext } from './endpoint.js';
import { policyQuery, requestPolicy } from './policies.js';

export { addressComponentsSchema };

export const nextActionSchema = z.enum(NEXT_ACTIONS).describe(
  'What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a ' +
  'correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid`',
);

/**
 * An engine's answer schema (../../validation/types.ts) as the HTTP answer sends it: `next_action` put after the field
 * `after` (where it stood before later fields were added), then `more` (new keys go last; a key the engine has keeps
 * its place). A field added to an engine's schema thus reaches the answer, the OpenAPI document and the clients.
 */
function withNextAction<S extends z.ZodRawShape, M extends z.ZodRawShape = Record<never, never>>(
  schema: z.ZodObject<S>, after: keyof S & string, more?: M,
) {
  const shape: Record<string, z.core.$ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    shape[key] = field;
    if (key === after) shape.next_action = nextActionSchema;
  }
  return z.object({ ...shape, ...more } as Omit<S, keyof M> & { next_action: typeof nextActionSchema } & M);
}

const ADDRESS_ACTION_REASONS = [
  'missing_unit', 'corrections', ...ADDRESS_STATUSES.map((s) => `status:${s}` as const),
] as const satisfies readonly AddressActionReason[];

const engineAddress = addressEngineSchema.shape;
/** The address answer: the engine's, with what component-changes.ts sets on every answer required (issue #55). */
export const addressResultSchema = withNextAction(addressEngineSchema, 'footnotes', {
  changes: engineAddress.changes.unwrap(),
  missing_unit: engineAddress.missing_unit.unwrap(),
  match_score: engineAddress.match_score.unwrap(),
  next_action_reason: z.enum(ADDRESS_ACTION_REASONS).nullable().describe(
    'Which rule made `next_action` more than `accept`: `missing_unit`, `corrections` (a part corrected or added), or `status:<status>`; null for `accept`',
  ),
});

export const emailResultSchema = withNextAction(emailEngineSchema, 'free');

export const phoneResultSchema = withNextAction(phoneEngineSchema, 'national');

export const creditsSchema = z.object({
  charged: z.int().min(0),
  remaining: z.int().min(0),
});

// New fields go last, so that the clients' generated models (Java records) keep their constructors; the answer itself
// sends `next_action` first.
export const validateAnswerSchema = z.object({
  address: addressResultSchema.nullable(),
  email: emailResultSchema.nullable(),
  phone: phoneResultSchema.nullable(),
  credits: creditsSchema.nullable().describe('null for a publishable key, which reads nothing of the account'),
  request_id: z.string(),
  response_ms: z.int().min(0),
  test: z.boolean().describe('true when a test key (`cv_test_…`) asked: network checks off, nothing charged (docs/account.md#test-keys)'),
  next_action: nextActionSchema.describe('The most demanding of the modules asked: `fix` if one says fix, else `confirm` if one says confirm, else `accept`'),
});

const ANSWER_EXAMPLE = {
  next_action: 'accept',
  address: {
    status: 'verified', standardized: '1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043-1351', dpv: 'Y', zip4: '94043-1351',
    country: 'US',
    components: {
      primary_number: '1600', street_predirection: null, street_name: 'AMPHITHEATRE', street_suffix: 'PKWY',
      street_postdirection: null, secondary_designator: null, secondary_number: null, city: 'MOUNTAIN VIEW', state: 'CA',
      postal_code: '94043', plus4: '1351', country: 'US',
    },
    footnotes: ['N#'],
    next_action: 'accept',
    evidence: 'delivery_point',
    sources: ['usps'],
    location: { lat: 37.4224, lon: -122.0842, precision: 'rooftop' },
    changes: [
      { name: 'primary_number', value: '1600', input: '1600', change: 'none' },
      { name: 'street', value: 'AMPHITHEATRE PKWY', input: null, change: 'none' },
      { name: 'city', value: 'MOUNTAIN VIEW', input: 'Mountain View', change: 'none' },
      { name: 'state', value: 'CA', input: 'CA', change: 'none' },
      { name: 'postal_code', value: '94043', input: '94043', change: 'none' },
      { name: 'plus4', value: '1351', input: null, change: 'inferred' },
      { name: 'country', value: 'US', input: null, change: 'inferred' },
    ],
    missing_unit: false,
    match_score: 0.9,
    next_action_reason: null,
  },
  email: {
    status: 'valid', risk: 'low', smtp: 'deliverable', reason: 'accepted', normalized: 'someone@example.com',
    suggestion: null, disposable: false, role: false, free: false, next_action: 'accept',
  },
  phone: {
    status: 'valid', type: 'fixed_or_mobile', carrier: null, carrier_source: 'none', e164: '+14155550123', country: 'US',
    next_action: 'accept',
  },
  credits: { charged: 4, remaining: 96 },
  request_id: 'req_6f1c2b9e',
  response_ms: 12,
  test: false,
};

export const validateComponents: Component[] = [
  [validateRequestSchema, {
    id: 'ValidateRequest',
    description: 'At least one of address, email, phone. `address` is one line (or several, separated by commas or line breaks), or its parts.',
    examples: [{
      address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043', email: 'someone@example.com', phone: '+14155550123',
      country: 'US', options: { smtp: true },
    }],
  }],
  [addressComponentsSchema, { id: 'AddressComponents', description: 'Absent parts are null.' }],
  [addressLocationSchema, { id: 'AddressLocation' }],
  [componentChangeSchema, { id: 'AddressComponentChange' }],
  [addressResultSchema, { id: 'AddressResult' }],
  [emailResultSchema, { id: 'EmailResult' }],
  [phoneResultSchema, { id: 'PhoneResult' }],
  [creditsSchema, { id: 'Credits' }],
  [validateAnswerSchema, {
    id: 'ValidateAnswer',
    description: 'Every module asked for has an object; a module not asked for is null.',
    examples: [ANSWER_EXAMPLE],
  }],
];

type Context = HandlerContext<typeof policyQuery, typeof validateRequestSchema>;

async function validate({ req, res, deps, body, query }: Context): Promise<void> {
  const { idempotency } = deps;
  const input = contactInputOf(body);
  const context = res.locals.context;
  context.logFields.modules = ['address', 'email', 'phone'].filter((m) => input[m as 'address'] !== undefined);
  if (input.email !== undefined) context.logFields.email = maskEmail(input.email);
  if (input.phone !== undefined) context.logFields.phone = maskPhone(input.phone);

  const principal = context.principal!;
  const { accountId, publishable, test = false } = principal;
  // A test key: the same use case with network checks off and nothing charged (docs/account.md#test-keys).
  const validation = test ? deps.testValidation : deps.validation;
  if (publishable && input.phone !== undefined && !publishable.phone) {
    throw new Problem('module-not-allowed', 'This publishable key does not check phones (create it with phone: true).');
  }
  input.policy = await requestPolicy(deps.policies, principal, query.policy);
  await answerIdempotently(req, res, idempotency, async ({ ledgerId, chargeOnce, keyed }) => {
    const arrivedAtEpochMs = Date.now() - (performance.now() - context.arrivedAt);
    // Keyed by the record, charged once: an attempt that takes over a crashed one is not charged for its debit again.
    const answer = keyed
      ? await validation.validate(accountId, ledgerId, input, arrivedAtEpochMs, context.log, { chargeOnce, settleInDoubt: true })
      : await validation.validate(accountId, ledgerId, input, arrivedAtEpochMs, context.log);
    const { next_action, address, email, phone, credits } = answer;
    // A publishable key reads nothing of the account: not even its balance.
    return JSON.stringify({
      next_action, address, email, phone, credits: publishable ? null : credits, request_id: context.id,
      response_ms: Math.round(performance.now() - context.arrivedAt), test,
    });
  });
}

export const validateEndpoints = [endpoint({
  method: 'post',
  path: '/v1/validate',
  security: 'publishable',
  testKeys: true,
  operationId: 'validate',
  tag: 'Validate',
  summary: 'Validate an address, an e-mail address and a phone number',
  description:
    'Checks the modules asked for in parallel, within the time budget. Priced per module before the slow work starts ' +
    `(${modulePricesText()}); an \`unknown\` e-mail is refunded. ` +
    'A publishable key (`cv_pub_…`) may call this endpoint only, from one of its origins. A test key (`cv_test_…`) ' +
    'is answered by the same engines with network checks off (no DNS, SMTP or live phone look-up), is charged nothing ' +
    'and gets `"test": true`. `next_action` says what to do with the answer: `accept`, `confirm` or `fix`.',
  request: {
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(255).optional()
        .describe('Replays the first successful answer for 24 h (`Idempotent-Replayed: true`); 409 while the first is in flight, 422 with another body. A first attempt cut off by a crash is taken over by a retry once its lease (the budget plus 5 s) lapses, and charged once.'),
      'X-Request-Id': z.string().optional().describe('Echoed back and used as `request_id` when a safe token (`[A-Za-z0-9._:-]`, at most 64 characters); any other value is ignored and a new id given.'),
      Origin: z.string().optional().describe('Required with a publishable key: one of its origins.'),
    }),
    query: policyQuery,
    body: validateRequestSchema,
  },
  responses: {
    200: {
      description: 'The verdict of each module asked for',
      content: { 'application/json': { schema: validateAnswerSchema } },
      headers: { 'Idempotent-Replayed': { description: '`true` on a replayed answer', schema: z.literal('true') } },
    },
  },
  problems: [
    'invalid-json', 'invalid-request', 'invalid-header', 'insufficient-credits', 'origin-not-allowed', 'module-not-allowed',
    'idempotency-key-in-use', 'payload-too-large', 'unsupported-media-type', 'idempotency-key-reused',
  ],
  handler: validate,
}), endpoint({
  // Not in the description: a browser's CORS preflight, asked by the page's fetch, never by a client.
  method: 'options', path: '/v1/validate', security: 'none', hidden: true,
  operationId: 'validatePreflight', tag: 'Validate', summary: 'The CORS preflight of a page calling with a publishable key',
  responses: { 204: { description: 'The methods and headers a page may send' } },
  problems: [],
  handler: ({ res }) => answerPreflight(res),
})];
