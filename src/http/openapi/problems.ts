/**
 * Every problem type of the catalogue (src/http/problems.ts) as an RFC 9457 schema: one component per code, its
 * `type`, `title` and `status` fixed by the catalogue, its extension members where it has some. Responses refer to
 * the codes an operation answers; the headers some problems carry are described with them.
 */
import { z } from 'zod';
import { PROBLEM_TYPES, type ProblemCode } from '../problems.js';
import { BATCH_STATUSES } from '../endpoints/batches.js';
import type { Component } from './components.js';

export const PROBLEM_CODES = Object.keys(PROBLEM_TYPES) as ProblemCode[];

export const fieldErrorSchema = z.object({
  field: z.string().describe('Dotted path of the field, or `(body)`'),
  message: z.string(),
});

/** RFC 9457 §3.1 members, and the request id every answer of the service carries. */
export const problemSchema = z.object({
  type: z.enum(PROBLEM_CODES.map((code) => `/problems/${code}`) as [string, ...string[]])
    .describe('A relative reference to /problems/{code}, which documents the type'),
  title: z.string(),
  status: z.int(),
  detail: z.string().optional().describe('What went wrong in this occurrence'),
  instance: z.string().optional(),
  request_id: z.string().optional().describe('The request id, also in the X-Request-Id header'),
});

/** GET /problems/{code}: the type itself. */
export const problemTypeSchema = z.object({ type: z.string(), title: z.string(), status: z.int() });

const EXTENSIONS: Partial<Record<ProblemCode, z.ZodRawShape>> = {
  'invalid-request': { errors: z.array(fieldErrorSchema).optional().describe('Each field problem') },
  'insufficient-credits': {
    balance: z.int().min(0).describe('Usable credits of the account'),
    required: z.int().min(0).describe('What the request costs'),
  },
  'invalid-csv': { line: z.int().min(1).nullable().describe('The 1-based line at fault') },
  'batch-too-large': { max_bytes: z.int().describe('BATCH_MAX_BYTES') },
  'too-many-contacts': { max_contacts: z.int().describe('The most contacts one POST /v1/validate/batch takes') },
  'policy-conflict': { reason: z.enum(['name_taken', 'in_use', 'too_many']).describe('`name_taken`: the account has a policy of that name; `in_use`: a live key has it as its default; `too_many`: the account has 50') },
  'batch-not-ready': { batch_status: z.enum(BATCH_STATUSES), rows_done: z.int().min(0), rows_total: z.int().min(0) },
  'shop-already-connected': { connector_id: z.string().optional().describe("The connector that has the shop, when it is the asking account's own") },
};

const EXAMPLE_EXTENSIONS: Partial<Record<ProblemCode, Record<string, unknown>>> = {
  'invalid-request': { errors: [{ field: 'email', message: 'at most 512 characters' }] },
  'insufficient-credits': { balance: 1, required: 4 },
  'invalid-csv': { line: 3 },
  'batch-too-large': { max_bytes: 104857600 },
  'too-many-contacts': { max_contacts: 100 },
  'policy-conflict': { reason: 'name_taken' },
  'batch-not-ready': { batch_status: 'running', rows_done: 300, rows_total: 1200 },
};

const text = z.string();

/** Headers that come with some problems (RFC 6750 §3, RFC 9110 §10.2.3, draft-ietf-httpapi-ratelimit-headers). */
export const PROBLEM_HEADERS: Partial<Record<ProblemCode, Record<string, { description: string; schema: z.ZodType }>>> = {
  unauthorized: { 'WWW-Authenticate': { description: '`Bearer realm="contact-validator"`, with `error="invalid_token"` for a bad key', schema: text } },
  'rate-limited': {
    'Retry-After': { description: 'Seconds to wait', schema: z.string().regex(/^\d+$/) },
    RateLimit: { description: 'The remaining quota: `"<policy>";r=0;t=<seconds>`', schema: text },
    'RateLimit-Policy': { description: 'The quota: `"<policy>";q=<requests>;w=60`', schema: text },
  },
  'idempotency-key-in-use': { 'Retry-After': { description: 'Seconds to wait', schema: z.string().regex(/^\d+$/) } },
  'unsupported-media-type': { 'Accept-Post': { description: 'The media types this endpoint takes', schema: text } },
};

export const problemComponentId = (code: ProblemCode) => `Problem-${code}`;

export function problemExample(code: ProblemCode) {
  const { title, status } = PROBLEM_TYPES[code];
  return { type: `/problems/${code}`, title, status, detail: title, request_id: 'req_6f1c2b9e', ...EXAMPLE_EXTENSIONS[code] };
}

/** One schema per catalogue entry: the RFC 9457 members fixed to the entry, plus its extension members. */
export const problemSchemas = new Map<ProblemCode, z.ZodType>(PROBLEM_CODES.map((code) => {
  const { title, status } = PROBLEM_TYPES[code];
  return [code, problemSchema.extend({
    type: z.literal(`/problems/${code}`),
    title: z.literal(title),
    status: z.literal(status),
    ...EXTENSIONS[code],
  })];
}));

export const problemComponents: Component[] = [
  [fieldErrorSchema, { id: 'FieldError' }],
  [problemSchema, {
    id: 'Problem',
    description: 'RFC 9457 problem details (`application/problem+json`), any type of the catalogue',
    examples: [problemExample('not-found')],
  }],
  [problemTypeSchema, { id: 'ProblemType', examples: [{ type: '/problems/not-found', title: PROBLEM_TYPES['not-found'].title, status: 404 }] }],
  ...PROBLEM_CODES.map((code): Component => [problemSchemas.get(code)!, {
    id: problemComponentId(code),
    title: PROBLEM_TYPES[code].title,
    examples: [problemExample(code)],
  }]),
];
