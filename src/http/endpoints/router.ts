/**
 * The declarations made routes: each endpoint's guard (by its security), its body reader, its own middleware, then its
 * handler with the query and body parsed by its schemas. And the 405 answers (RFC 9110 §15.5.6): the methods each
 * known path answers, from the same declarations.
 */
import type { RequestHandler, Router } from 'express';
import type { z } from 'zod';
import { jsonBody } from '../middleware/json-body.js';
import { refuseTestKeys } from '../middleware/test-keys.js';
import { parseBody } from '../request-schema.js';
import type { AnyEndpoint, EndpointDeps, Security } from './endpoint.js';

/**
 * The path in Express's words: a resource's own id is `:id` (`{batch_id}` → `:id`), another parameter keeps its name,
 * and so does an id after the first (`…/deliveries/{delivery_id}` → `:delivery_id`).
 */
export const expressPath = (template: string): string => {
  let ids = 0;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => `:${name.endsWith('_id') && ids++ === 0 ? 'id' : name}`);
};

const readJson = jsonBody();

/** A JSON body when one is sent (POST /v1/keys may come with none). */
const optionalJson: RequestHandler = (req, res, next) => {
  if (Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding')) return readJson(req, res, next);
  next();
};

function handlerOf(endpoint: AnyEndpoint, deps: EndpointDeps): RequestHandler {
  const { query, body, queryReadByHandler, bodyRequired = true } = endpoint.request ?? {};
  return async (req, res) => {
    await endpoint.handler({
      req, res, deps,
      query: query && !queryReadByHandler ? parseBody(query as z.ZodType, req.query) : undefined,
      body: body ? parseBody(body as z.ZodType, bodyRequired ? req.body : (req.body ?? {})) : undefined,
    });
  };
}

/**
 * Routes every endpoint, in the order given (Express tries them in order: the hot POST /v1/validate comes first).
 * Routes are flat, no nested routers, to keep the hot path short.
 */
export function mountEndpoints(
  router: Router, endpoints: readonly AnyEndpoint[], deps: EndpointDeps, guards: Record<Security, RequestHandler[]>,
): void {
  for (const endpoint of endpoints) {
    const { body, bodyRequired, bodyLimit } = endpoint.request ?? {};
    const reader = bodyLimit ? jsonBody({ limit: bodyLimit.bytes, tooLarge: bodyLimit.tooLarge }) : bodyRequired === false ? optionalJson : readJson;
    const bodyReader = body ? [reader] : [];
    const testKeyScope = endpoint.security !== 'none' && !endpoint.testKeys ? [refuseTestKeys] : [];
    router[endpoint.method](
      expressPath(endpoint.path),
      ...guards[endpoint.security], ...testKeyScope, ...bodyReader, ...(endpoint.before?.(deps) ?? []), handlerOf(endpoint, deps),
    );
  }
}

export interface RouteOf {
  /** Lower case, as Express names it. */
  method: string;
  /** An Express path: `/v1/batches/:id`. */
  path: string;
}

export const routesOfEndpoints = (endpoints: readonly AnyEndpoint[]): RouteOf[] =>
  endpoints.map((e) => ({ method: e.method, path: expressPath(e.path) }));

/** The routes an Express router holds (the dashboard's pages, which are not API endpoints). */
export const routesOfRouter = (router: Router): RouteOf[] => router.stack.flatMap((layer) =>
  layer.route ? layer.route.stack.map((handler) => ({ method: handler.method, path: layer.route!.path })) : []);

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Methods each known path answers, for 405 with `Allow`; GET brings HEAD, as Express answers it. */
export class AllowTable {
  private readonly paths: { pattern: RegExp; methods: Set<string> }[] = [];

  constructor(routes: readonly RouteOf[]) {
    const byPath = new Map<string, Set<string>>();
    for (const { method, path } of routes) {
      const methods = byPath.get(path) ?? byPath.set(path, new Set()).get(path)!;
      methods.add(method.toUpperCase());
      if (method === 'get') methods.add('HEAD');
    }
    for (const [path, methods] of byPath) {
      const source = path.split('/').map((part) => part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('/');
      this.paths.push({ pattern: new RegExp(`^${source}$`), methods });
    }
  }

  /** The methods a path answers, in the usual order; undefined for a path no route has. */
  allowed(path: string): string[] | undefined {
    const found = this.paths.filter(({ pattern }) => pattern.test(path));
    if (!found.length) return undefined;
    const methods = new Set(found.flatMap(({ methods }) => [...methods]));
    return METHOD_ORDER.filter((m) => methods.has(m));
  }
}
