/**
 * POST /v1/validate/batch: up to 100 contacts in one call, as Smarty's US Street API takes lookups, each with the
 * caller's `input_id` echoed back (docs/api.md#post-v1validatebatch). Every contact goes through the one use case
 * (src/contact-check) like a /v1/validate body, all of them at once and against one deadline (the call's arrival plus
 * the budget), each debited under its own ledger id derived from the call's: an Idempotency-Key covers the whole
 * call, and a retry, or an attempt that takes over a crashed one, charges no contact twice. A contact that fails (too
 * few credits left for it, an engine fault) gets its problem in RFC 9457 shape in its place; the others are answered.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { contactFieldsSchema, contactInputOf, namesAModule, NAMES_NO_MODULE } from '../../contact-check/contact-request.js';
import type { ContactAnswer } from '../../contact-check/validate-contact.js';
import { isDatabaseUnavailable } from '../../db/data-source.js';
import { domainProblem } from '../error-handler.js';
import { answerIdempotently } from '../idempotent-answer.js';
import type { Component } from '../openapi/components.js';
import { problemSchema } from '../openapi/problems.js';
import { Problem, problemBody } from '../problems.js';
import { endpoint, type HandlerContext } from './endpoint.js';
import { policyQuery, requestPolicy } from './policies.js';
import {
  addressResultSchema, creditsSchema, emailResultSchema, nextActionSchema, phoneResultSchema,
} from './validate.js';

export const MAX_CONTACTS = 100;
/** 100 contacts of the largest /v1/validate body each would be 1.6 MiB; 1 MiB holds 100 real ones many times over. */
export const BATCH_BODY_LIMIT_BYTES = 1024 * 1024;

const inputId = z.string().min(1).max(64).regex(/^[\x20-\x7e]+$/, 'printable ASCII')
  .describe('Yours: echoed back with the contact\'s answer (an order number, a CRM id, a row number)');

export const batchContactSchema = contactFieldsSchema.extend({ input_id: inputId })
  .refine(namesAModule, { message: NAMES_NO_MODULE, path: [] });

export const validateBatchRequestSchema = z.object({
  contacts: z.array(batchContactSchema).min(1).max(MAX_CONTACTS)
    .describe(`1 to ${MAX_CONTACTS} contacts, each a /v1/validate body with its \`input_id\`; more is 422 \`too-many-contacts\``),
}).strict().refine((b) => new Set(b.contacts.map((c) => c.input_id)).size === b.contacts.length, {
  message: 'each input_id once', path: ['contacts'],
});

const itemProblemSchema = problemSchema.extend({
  balance: z.int().min(0).optional().describe('`insufficient-credits`: usable credits when this contact was debited'),
  required: z.int().min(0).optional().describe('`insufficient-credits`: what this contact costs'),
}).describe('Why this contact has no answer (RFC 9457): `insufficient-credits` (nothing charged for it), `internal` or `database-unavailable` (not charged)');

export const batchItemSchema = z.object({
  input_id: z.string(),
  next_action: nextActionSchema.nullable().describe('null when the contact failed (see `problem`)'),
  address: addressResultSchema.nullable(),
  email: emailResultSchema.nullable(),
  phone: phoneResultSchema.nullable(),
  charged: z.int().min(0).describe('Credits this contact cost, refunds deducted'),
  problem: itemProblemSchema.nullable().describe('null when the contact was answered'),
});

export const validateBatchAnswerSchema = z.object({
  results: z.array(batchItemSchema).describe('One per contact, in the order sent'),
  failed: z.int().min(0).describe('How many results carry a `problem` instead of an answer'),
  credits: creditsSchema.describe('`charged`: the whole call; `remaining`: the balance after it'),
  request_id: z.string(),
  response_ms: z.int().min(0),
});

export const validateBatchComponents: Component[] = [
  [validateBatchRequestSchema, {
    id: 'ValidateBatchRequest',
    examples: [{ contacts: [
      { input_id: 'order-1041', address: '6007 Applegate Ln, Louisville, KY 40219' },
      { input_id: 'order-1042', address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043', email: 'someone@example.com', options: { smtp: false } },
    ] }],
  }],
  [batchItemSchema, { id: 'ValidateBatchItem' }],
  [validateBatchAnswerSchema, { id: 'ValidateBatchAnswer' }],
];

/** Past 100 contacts the call is refused whole, before the schema (which would say 400), and nothing is charged. */
function refuseTooMany(req: Request, _res: Response, next: (err?: unknown) => void): void {
  const contacts = (req.body as { contacts?: unknown } | undefined)?.contacts;
  if (Array.isArray(contacts) && contacts.length > MAX_CONTACTS) {
    throw new Problem('too-many-contacts', `The call names ${contacts.length} contacts; at most ${MAX_CONTACTS} go in one call. Nothing was charged.`, { max_contacts: MAX_CONTACTS });
  }
  next();
}

type Context = HandlerContext<typeof policyQuery, typeof validateBatchRequestSchema>;

/** One contact's place in the answer: its verdict, or its problem. */
type BatchItem = Omit<z.input<typeof batchItemSchema>, 'address' | 'problem'> & {
  address: ContactAnswer['address']; problem: (Record<string, unknown> & { status: number }) | null;
};

function itemOf(inputId: string, outcome: PromiseSettledResult<ContactAnswer>): BatchItem {
  if (outcome.status === 'fulfilled') {
    const { next_action, address, email, phone, credits } = outcome.value;
    return { input_id: inputId, next_action, address, email, phone, charged: credits.charged, problem: null };
  }
  const err = outcome.reason;
  const problem = err instanceof Problem ? err : domainProblem(err)
    ?? (isDatabaseUnavailable(err) ? new Problem('database-unavailable') : new Problem('internal', 'An unexpected error occurred; it has been logged with the request id.'));
  return { input_id: inputId, next_action: null, address: null, email: null, phone: null, charged: 0, problem: problemBody(problem) as BatchItem['problem'] };
}

async function validateBatch({ req, res, deps, body, query }: Context): Promise<void> {
  const context = res.locals.context;
  const { accountId } = context.principal!;
  context.logFields.contacts = body.contacts.length;
  const policy = await requestPolicy(deps.policies, context.principal!, query.policy);
  await answerIdempotently(req, res, deps.idempotency, async ({ ledgerId, chargeOnce, keyed }) => {
    const arrivedAtEpochMs = Date.now() - (performance.now() - context.arrivedAt);
    // One deadline for the call; each contact's debit keyed by the call's ledger id and its place in the call.
    const outcomes = await Promise.allSettled(body.contacts.map((contact, i) => deps.validation.validate(
      accountId, `${ledgerId}:${i}`, { ...contactInputOf(contact), policy }, arrivedAtEpochMs, context.log,
      keyed ? { chargeOnce, settleInDoubt: true } : {},
    )));
    const results = outcomes.map((outcome, i) => itemOf(body.contacts[i].input_id, outcome));
    for (const [i, o] of outcomes.entries()) {
      if (o.status === 'rejected' && (results[i].problem?.status ?? 0) >= 500) context.log.error({ err: o.reason, request_id: context.id, input_id: results[i].input_id }, 'batch contact failed');
    }
    const charged = results.reduce((sum, r) => sum + r.charged, 0);
    const remaining = await deps.ledger.balance(accountId);
    return JSON.stringify({
      results, failed: results.filter((r) => r.problem).length, credits: { charged, remaining },
      request_id: context.id, response_ms: Math.round(performance.now() - context.arrivedAt),
    });
  });
}

export const validateBatchEndpoints = [endpoint({
  method: 'post',
  path: '/v1/validate/batch',
  security: 'secret',
  operationId: 'validateBatch',
  tag: 'Validate',
  summary: 'Validate up to 100 contacts in one call',
  description:
    `Each contact is a /v1/validate body with an \`input_id\` of yours, echoed back with its answer; up to ${MAX_CONTACTS} ` +
    'contacts, checked together within one time budget, priced and charged each as /v1/validate would be, once each. ' +
    'A contact that cannot be answered (the credits ran out before it, an engine fault) gets its `problem` in its ' +
    'place and is not charged; the others are answered (HTTP 200, `failed` counts them). An `Idempotency-Key` covers ' +
    'the whole call: a retry replays the answer and charges nothing again. Secret keys only.',
  request: {
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(255).optional()
        .describe('Covers the whole call: replays its first successful answer for 24 h (`Idempotent-Replayed: true`); 409 while the first is in flight, 422 with another body.'),
    }),
    query: policyQuery,
    body: validateBatchRequestSchema,
    bodyLimit: {
      bytes: BATCH_BODY_LIMIT_BYTES,
      tooLarge: () => new Problem('contacts-too-large', `The body is over ${BATCH_BODY_LIMIT_BYTES} bytes; send fewer contacts per call.`),
    },
  },
  responses: {
    200: {
      description: 'Each contact\'s verdict, or its problem, in the order sent',
      content: { 'application/json': { schema: validateBatchAnswerSchema } },
      headers: { 'Idempotent-Replayed': { description: '`true` on a replayed answer', schema: z.literal('true') } },
    },
  },
  problems: [
    'invalid-json', 'invalid-request', 'invalid-header', 'idempotency-key-in-use', 'contacts-too-large',
    'unsupported-media-type', 'idempotency-key-reused', 'too-many-contacts',
  ],
  before: () => [refuseTooMany],
  handler: validateBatch,
})];
