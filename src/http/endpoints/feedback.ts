/** POST /v1/feedback: what became of a mail the account sent (src/email-feedback, docs/email.md#feedback). */
import { z } from 'zod';
import type { Component } from '../openapi/components.js';
import { FEEDBACK_OUTCOMES, catchAllScore } from '../../email-feedback/feedback.js';
import { parseEmailAddress } from '../../validation/email/syntax.js';
import { Problem } from '../problems.js';
import { accountOf, endpoint, json, noStore } from './endpoint.js';

export const feedbackSchema = z.object({
  email: z.string().min(1).max(512).describe('The address the mail went to'),
  outcome: z.enum(FEEDBACK_OUTCOMES).describe(
    '`bounced`: a hard bounce (5xx: no such mailbox); `delivered`; `complained`: delivered, and marked as spam',
  ),
}).strict();

export const feedbackAnswerSchema = z.object({
  email: z.string().describe('The address, normalized as the answers normalize it'),
  outcome: z.enum(FEEDBACK_OUTCOMES),
  domain: z.string().describe('Its domain, in lower-case A-labels'),
  domain_outcomes: z.object({ delivered: z.int().min(0), bounced: z.int().min(0), complained: z.int().min(0) })
    .describe("The account's outcomes at the domain, one per address (its latest)"),
  catch_all_score: z.object({ score: z.number().min(0).max(1), outcomes: z.int().min(0) })
    .describe("What the domain's catch-all answers now carry (docs/email.md#feedback)"),
});

export const feedbackComponents: Component[] = [
  [feedbackSchema, { id: 'FeedbackReport' }],
  [feedbackAnswerSchema, { id: 'FeedbackRecorded' }],
];

export const feedbackEndpoints = [endpoint({
  method: 'post', path: '/v1/feedback', security: 'secret', operationId: 'sendFeedback', tag: 'Validate',
  summary: 'Tell what became of a mail',
  description:
    'A hard bounce makes the address `invalid` (`reason` `bounced`) in this account\'s answers from now on; the outcomes ' +
    'of a domain\'s addresses give its catch-all answers a `catch_all_score`. One outcome per address, the latest ' +
    'standing: telling the same thing twice counts once. Free. Kept in this account alone, never shared.',
  request: { body: feedbackSchema },
  responses: { 200: { description: 'Recorded', content: json(feedbackAnswerSchema), headers: noStore } },
  problems: ['invalid-request', 'invalid-json', 'payload-too-large', 'unsupported-media-type'],
  handler: async ({ res, body, deps }) => {
    const parsed = parseEmailAddress(body.email.trim());
    if (!parsed.ok) {
      const message = `not an e-mail address (syntax:${parsed.detail})`;
      throw new Problem('invalid-request', `email: ${message}`, { errors: [{ field: 'email', message }] });
    }
    const outcomes = await deps.feedback.record(accountOf(res), parsed.normalized, parsed.domain, body.outcome);
    res.set('Cache-Control', 'no-store').json({
      email: parsed.normalized, outcome: body.outcome, domain: parsed.domain, domain_outcomes: outcomes, catch_all_score: catchAllScore(outcomes),
    });
  },
})];
