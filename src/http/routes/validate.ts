/** POST /v1/validate: read and check the request, call the use case, answer (with Idempotency-Key replay). */
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { ContactInput, ContactValidation } from '../../validation/validate-contact.js';
import { maskEmail, maskPhone } from '../../log.js';
import { IdempotencyStore, parseIdempotencyKey } from '../idempotency.js';
import { bodyFingerprint, jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';

const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const text = (max: number, controls: RegExp) =>
  z
    .string()
    .max(max, `at most ${max} characters`)
    .refine((s) => s.isWellFormed(), 'contains a lone surrogate (invalid Unicode)')
    .refine((s) => !controls.test(s), 'contains control characters');

const addressParts = z
  .object({
    line1: text(300, ANY_CONTROL),
    line2: text(300, ANY_CONTROL).optional(),
    city: text(100, ANY_CONTROL).optional(),
    state: text(100, ANY_CONTROL).optional(),
    postal_code: text(20, ANY_CONTROL).optional(),
    country: text(60, ANY_CONTROL).optional(),
  })
  .strict();

export const validateRequestSchema = z
  .object({
    /** One line (or several, separated by commas or line breaks), or its parts. */
    address: z.union([text(1000, CONTROL_EXCEPT_LINE_BREAKS), addressParts]).nullish(),
    email: text(512, ANY_CONTROL).nullish(),
    phone: text(128, ANY_CONTROL).nullish(),
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code such as "US"')
      .transform((c) => c.toUpperCase())
      .optional(),
    options: z.object({ smtp: z.boolean().optional() }).strict().optional(),
  })
  .strict()
  .refine((b) => b.address != null || b.email != null || b.phone != null, {
    message: 'name at least one of address, email, phone',
    path: [],
  });

type ValidateRequest = z.infer<typeof validateRequestSchema>;

function addressLine(address: ValidateRequest['address']): string | undefined {
  if (address == null) return undefined;
  if (typeof address === 'string') return address;
  const lastLine = [address.state, address.postal_code].filter(Boolean).join(' ');
  return [address.line1, address.line2, address.city, lastLine, address.country].filter(Boolean).join(', ');
}

/** The use case's input from a checked request body. */
export function contactInputOf(body: ValidateRequest): ContactInput {
  return {
    address: addressLine(body.address),
    email: body.email ?? undefined,
    phone: body.phone ?? undefined,
    country: body.country,
    smtp: body.options?.smtp ?? true,
  };
}

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

    const { accountId } = context.principal!;
    const key = parseIdempotencyKey(req.get('idempotency-key'));
    if (key) {
      const start = await idempotency.begin(accountId, key, bodyFingerprint(res));
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
      json = JSON.stringify({ address, email, phone, credits, request_id: context.id, response_ms: Math.round(performance.now() - context.arrivedAt) });
    } catch (err) {
      // Nothing was charged (the use case refunds on its own failures); the key is free for a retry.
      if (key) await idempotency.abandon(accountId, key).catch(() => undefined);
      throw err;
    }
    if (key) {
      try {
        await idempotency.complete(accountId, key, 200, json);
      } catch (err) {
        // The work is done and paid for: the caller gets its answer even if it cannot be kept for a replay.
        context.log.error({ err, request_id: context.id }, 'idempotent answer not stored');
        await idempotency.abandon(accountId, key).catch(() => undefined);
      }
    }
    // Straight to Node: Express's send() would look for an ETag and freshness this answer never has.
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
  });
}
