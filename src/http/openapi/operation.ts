/**
 * The pieces the OpenAPI description is assembled from: an operation as each area file declares it (its zod schemas,
 * its success answers and the catalogue's problem codes it can answer), and `enumOf`, which turns a union type of the
 * code into a closed list the compiler keeps complete.
 */
import type { z } from 'zod';
import type { ProblemCode } from '../problems.js';

/** Metadata of a named schema: it becomes `#/components/schemas/<id>`. */
export interface ComponentMeta {
  id: string;
  title?: string;
  description?: string;
  examples?: unknown[];
}

/** A schema and its component name, as the area files list them. */
export type Component = [schema: z.ZodType, meta: ComponentMeta];

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description: string;
  schema: z.ZodType;
  example?: unknown;
}

export interface Content {
  /** A named schema (listed among the area's components), or an unnamed one converted in place. */
  schema: z.ZodType;
  example?: unknown;
}

export interface SuccessResponse {
  description: string;
  /** Media type → content; none for an empty answer (204). */
  content?: Record<string, Content>;
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

export interface Operation {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI path template: `/v1/batches/{batch_id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** `key`: Bearer API key (the /v1 guard: 401, 429 and 503 come with it); `none`: no key. */
  auth: 'key' | 'none';
  parameters?: Parameter[];
  requestBody?: { description?: string; required: boolean; content: Record<string, Content> };
  responses: Record<number, SuccessResponse>;
  /** The catalogue's problem types this operation answers itself, beyond those of the guard. */
  problems: ProblemCode[];
}

/**
 * A closed list of a union type's values, checked both ways by the compiler: every value belongs to the type, and no
 * value of the type is missing (`enumOf<JobStatus>()(['queued', …])`).
 */
export function enumOf<T extends string>() {
  return <const A extends readonly [T, ...T[]]>(values: A & ([T] extends [A[number]] ? unknown : { missing: Exclude<T, A[number]> })): A =>
    values;
}
