/**
 * What one contact to validate looks like, wherever it comes from (a /v1/validate body, a CSV row, a connector's record):
 * the schema that checks it (lengths, control characters, well-formed Unicode) and the use case's input made from it.
 */
import { z } from 'zod';
import type { ContactInput } from './validate-contact.js';

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

/** The fields of one contact, unchecked as a whole (a batch call's item adds its `input_id` to them). */
export const contactFieldsSchema = z
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
  .strict();

/** A contact names at least one module. */
export const namesAModule = (b: { address?: unknown; email?: unknown; phone?: unknown }): boolean =>
  b.address != null || b.email != null || b.phone != null;
export const NAMES_NO_MODULE = 'name at least one of address, email, phone';

export const validateRequestSchema = contactFieldsSchema.refine(namesAModule, { message: NAMES_NO_MODULE, path: [] });

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

