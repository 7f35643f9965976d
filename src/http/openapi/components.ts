/**
 * Named schemas of the OpenAPI description: each endpoint file (../endpoints/) lists the schemas it names, and they
 * become `#/components/schemas/<id>`, referred to wherever the endpoints use them.
 */
import type { z } from 'zod';

/** Metadata of a named schema: it becomes `#/components/schemas/<id>`. */
export interface ComponentMeta {
  id: string;
  title?: string;
  description?: string;
  examples?: unknown[];
}

/** A schema and its component name, as the endpoint files list them. */
export type Component = [schema: z.ZodType, meta: ComponentMeta];
