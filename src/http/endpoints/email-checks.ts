/** GET /v1/email-checks/{check_id}: an e-mail answer that arrives later (src/email-checks, docs/api.md#email-checks). */
import { z } from 'zod';
import { Problem } from '../problems.js';
import { accountOf, endpoint, json, noStore } from './endpoint.js';
import { emailResultSchema } from './validate.js';

export const emailCheckSchema = z.object({
  id: z.string().describe('`ec_…`, the `email.check_id` of the answer that opened it'),
  email: z.string().describe('The address, normalized'),
  status: z.enum(['pending', 'done', 'expired']).describe(
    '`pending`: asked again on its schedule; `done`: a definite answer came (in `result`); `expired`: its tries ran out, `result` is the last answer',
  ),
  attempts: z.int().min(0).describe('Tries made after the first answer'),
  first_reason: z.string().describe('The first answer\'s `reason`: `temp_fail`, `throttled` or `timeout`'),
  result: emailResultSchema.nullable().describe('The latest answer (null before the first try)'),
  batch_id: z.string().nullable().describe('The CSV batch whose row asked, if any'),
  created_at: z.string(),
  next_attempt_at: z.string().nullable().describe('When it is asked next, while `pending`'),
  finished_at: z.string().nullable(),
});

export const emailCheckEndpoints = [endpoint({
  method: 'get', path: '/v1/email-checks/{check_id}', security: 'secret', operationId: 'getEmailCheck', tag: 'Validate',
  summary: 'An e-mail answer that arrives later',
  description:
    'A `temp_fail`, `throttled` or `timeout` e-mail answer carries `check_id`: the service asks the mail server again on a ' +
    'schedule (the server\'s own "try again in …" respected) and keeps the definite answer here, in the cache for the ' +
    'next `/v1/validate`, and in an `email.verified` event. No further charge. Another account\'s check answers 404, ' +
    'exactly like a missing one.',
  request: { params: z.object({ check_id: z.string().describe('The `email.check_id` of an answer') }) },
  responses: { 200: { description: 'The check', content: json(emailCheckSchema), headers: noStore } },
  problems: ['not-found'],
  handler: async ({ req, res, deps }) => {
    const check = await deps.emailChecks.get(accountOf(res), String(req.params.id));
    if (!check) throw new Problem('not-found', 'No such e-mail check on this account.');
    res.set('Cache-Control', 'no-store').json(check);
  },
})];
