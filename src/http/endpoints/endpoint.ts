/**
 * One endpoint, declared once (as a fastify route carries its schema): its method and path, who may call it, the zod
 * schemas of its request and answers, the catalogue's problems it can answer, and its handler. From the list of
 * declarations (./index.ts) come the Express routes (./router.ts), the 405 `Allow` answers, and the paths of the
 * OpenAPI description (../openapi/document.ts).
 */
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../app.js';
import type { PolicyStore } from '../../contact-check/policy-store.js';
import type { EmailFeedback } from '../../email-feedback/feedback.js';
import type { IdempotencyStore } from '../idempotency.js';
import type { Problem, ProblemCode } from '../problems.js';

export type Method = 'get' | 'post' | 'patch' | 'delete' | 'options';

/**
 * `secret`: a secret API key (the /v1 guard: 401, 429 and 503 come with it); `publishable`: a secret key, or a
 * publishable one from one of its origins; `none`: no key (the endpoint checks a signature or a token itself, or is public).
 */
export type Security = 'secret' | 'publishable' | 'none';

/** What the handlers are given: the application's dependencies, and what the application keeps for its routes. */
export type EndpointDeps = AppDeps & {
  idempotency: IdempotencyStore;
  policies: PolicyStore;
  feedback: EmailFeedback;
  /** The OpenAPI description as JSON, built on first use. */
  description: () => string;
};

export interface Content {
  /** A named schema (listed among the components), or an unnamed one converted in place. */
  schema: z.ZodType;
  example?: unknown;
}

export interface SuccessResponse {
  description: string;
  /** Media type → content; none for an empty answer (204). */
  content?: Record<string, Content>;
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

/** Fields of a request part; each field's `.describe()` is its parameter's description. */
export type Fields = z.ZodObject<z.ZodRawShape>;

export interface RequestSchemas<Q extends z.ZodType, B extends z.ZodType> {
  /** Path parameters, named as in the path's `{name}`. Described, not parsed: the handler looks the id up (404). */
  params?: Fields;
  /** The query, parsed before the handler runs (400 `invalid-request` listing every field problem)... */
  query?: Q;
  /** ...unless the handler reads it itself: a page whose odd input has its own answer. */
  queryReadByHandler?: true;
  /** Headers the endpoint reads. Described, not parsed: the handler reads each one with its own answer. */
  headers?: Fields;
  /** A JSON body parsed before the handler runs (415, 400, 413 as problems; then the schema's 400). */
  body?: B;
  /** A JSON body larger than the 16 KiB every other endpoint takes (a list of contacts), and the problem past it. */
  bodyLimit?: { bytes: number; tooLarge: () => Problem };
  /** Default true; false: no body (or `{}`) is the same as an empty object. */
  bodyRequired?: boolean;
  /** A body the handler or the use case reads itself (raw bytes for a signature, a file, a plugin's schema): described only. */
  content?: { description?: string; required: boolean; content: Record<string, Content> };
}

export interface HandlerContext<Q extends z.ZodType, B extends z.ZodType> {
  req: Request;
  res: Response;
  deps: EndpointDeps;
  query: z.output<Q>;
  body: z.output<B>;
}

export interface Endpoint<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: Method;
  /** The OpenAPI path template: `/v1/batches/{batch_id}` (Express: `/v1/batches/:id`, see ./router.ts). */
  path: string;
  security: Security;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** A test key (`cv_test_…`) may call it; every other keyed endpoint refuses one (../middleware/test-keys.ts). */
  testKeys?: true;
  /** Left out of the OpenAPI description (the reason in a comment): still routed, still in the `Allow` answers. */
  hidden?: true;
  request?: RequestSchemas<Q, B>;
  responses: Record<number, SuccessResponse>;
  /** The catalogue's problem types this endpoint answers itself, beyond those its security brings. */
  problems: ProblemCode[];
  /** Middleware between the guard and the handler (body readers, limits), made once per application. */
  before?: (deps: EndpointDeps) => RequestHandler[];
  handler: (context: HandlerContext<Q, B>) => unknown;
}

export type AnyEndpoint = Endpoint<any, any>;

/** An endpoint with its handler's `query` and `body` typed from its schemas. */
export const endpoint = <Q extends z.ZodType = z.ZodUnknown, B extends z.ZodType = z.ZodUnknown>(e: Endpoint<Q, B>): AnyEndpoint => e;

/** The calling key's account (an endpoint with security `secret` or `publishable`). */
export const accountOf = (res: Response): string => res.locals.context.principal!.accountId;

/** `Cache-Control: no-store`, as some answers document it. */
export const noStore = { 'Cache-Control': { description: '`no-store`', schema: z.string() } };

export const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

/**
 * A closed list of a union type's values, checked both ways by the compiler: every value belongs to the type, and no
 * value of the type is missing (`enumOf<JobStatus>()(['queued', …])`).
 */
export function enumOf<T extends string>() {
  return <const A extends readonly [T, ...T[]]>(values: A & ([T] extends [A[number]] ? unknown : { missing: Exclude<T, A[number]> })): A =>
    values;
}
