/** POST /v1/validate: read and check the request, call the use case, answer (with Idempotency-Key replay). */
import type { Request, RequestHandler, Response, Router } from 'express';
import { contactInputOf, validateRequestSchema } from '../../contact-check/contact-request.js';
import type { ContactValidation } from '../../contact-check/validate-contact.js';
import { maskEmail, maskPhone } from '../../log.js';
import { IdempotencyStore, parseIdempotencyKey } from '../idempotency.js';
import { bodyFingerprint, jsonBody } from '../middleware/json-body.js';
import { Problem } from '../problems.js';
import { parseBody } from '../request-schema.js';

export function validateRoutes(
  router: Router,
  guard: RequestHandler[],
  validation: ContactValidation,
  idempotency: IdempotencyStore,
): void {
  router.post('/v1/validate', ...guard, jsonBody(), async (req: Request, res: Response) => {
    const input = contactInputOf(parseBody(validateRequestSchema, req.body));
    const context = res.locals.context;
    context.logFields.modules = ['address', 'email', 'phone'].filter((m) => input[m as 'address'] !== undefined);
    if (input.email !== undefined) context.logFields.email = maskEmail(input.email);
    if (input.phone !== undefined) context.logFields.phone = maskPhone(input.phone);

    const principal = context.principal!;
    const { accountId, publishable } = principal;
    if (publishable && input.phone !== undefined && !publishable.phone) {
      throw new Problem('module-not-allowed', 'This publishable key does not check phones (create it with phone: true).');
    }
    const key = parseIdempotencyKey(req.get('idempotency-key'));
    if (key) {
      const start = await idempotency.begin(principal, key, bodyFingerprint(res));
      if (start.replay) {
        res.status(start.status).set('Idempotent-Replayed', 'true').type('application/json').send(start.body);
        return;
      }
    }
    let json: string;
    try {
      const arrivedAtEpochMs = Date.now() - (performance.now() - context.arrivedAt);
      const answer = await validation.validate(accountId, context.ledgerId, input, arrivedAtEpochMs, context.log);
      const { address, email, phone, credits } = answer;
      // A publishable key reads nothing of the account: not even its balance.
      json = JSON.stringify({
        address, email, phone, credits: publishable ? null : credits, request_id: context.id,
        response_ms: Math.round(performance.now() - context.arrivedAt),
      });
    } catch (err) {
      // Nothing was charged (the use case refunds on its own failures); the key is free for a retry.
      if (key) await idempotency.abandon(principal, key).catch(() => undefined);
      throw err;
    }
    if (key) {
      try {
        await idempotency.complete(principal, key, 200, json);
      } catch (err) {
        // The work is done and paid for: the caller gets its answer even if it cannot be kept for a replay.
        context.log.error({ err, request_id: context.id }, 'idempotent answer not stored');
        await idempotency.abandon(principal, key).catch(() => undefined);
      }
    }
    // Straight to Node: Express's send() would look for an ETag and freshness this answer never has.
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
  });
}
