/** zod at the HTTP edge: a body that fails its schema becomes one 400 problem listing every field problem. */
import type { z } from 'zod';
import { Problem, type FieldError } from './problems.js';

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: FieldError[] = parsed.error.issues.map((issue) => ({
    field: issue.path.length ? issue.path.join('.') : '(body)',
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
  throw new Problem('invalid-request', errors.map((e) => `${e.field}: ${e.message}`).join('; ').slice(0, 500), { errors });
}
