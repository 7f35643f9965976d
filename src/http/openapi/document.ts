/**
 * The OpenAPI 3.1 description of the service (docs/api.md#openapi-and-client-libraries), assembled from the endpoint
 * declarations (../endpoints/): their paths, the zod schemas the routes validate with and answer by, and the problems
 * they answer (./problems.ts), converted once by zod's own JSON Schema output (draft 2020-12, the dialect of OpenAPI
 * 3.1). Nothing here is a hand-written schema: only the OpenAPI frame around them.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { createConnectorPlugins } from '../../../connectors/index.js';
import type { ConnectorPlugin } from '../../sync/plugin.js';
import { PROBLEM_TYPES, type ProblemCode } from '../problems.js';
import { accountComponents, usageComponents } from '../endpoints/account.js';
import { autocompleteComponents } from '../endpoints/autocomplete.js';
import { batchComponents } from '../endpoints/batches.js';
import { connectorSchemas } from '../endpoints/connectors.js';
import type { AnyEndpoint, Content, Fields, RequestSchemas } from '../endpoints/endpoint.js';
import { ENDPOINTS } from '../endpoints/index.js';
import { serviceComponents } from '../endpoints/service.js';
import { installComponents } from '../endpoints/install.js';
import { validateComponents } from '../endpoints/validate.js';
import { validateBatchComponents } from '../endpoints/validate-batch.js';
import { policyComponents } from '../endpoints/policies.js';
import { feedbackComponents } from '../endpoints/feedback.js';
import { webhookComponents } from '../endpoints/webhook-endpoints.js';
import type { Component } from './components.js';
import { PROBLEM_HEADERS, problemComponentId, problemComponents, problemExample } from './problems.js';

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

type JsonSchema = Record<string, unknown>;

/** Every keyed route passes the key, its rate limit and the database first; any route can fail for the service's fault. */
const GUARD_PROBLEMS: ProblemCode[] = ['unauthorized', 'rate-limited', 'database-unavailable'];
const ANY_ROUTE_PROBLEMS: ProblemCode[] = ['internal'];

const SECURITY_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'cv_live_… (secret), cv_test_… (test) or cv_pub_… (publishable)',
  description:
    '`Authorization: Bearer <api key>`. A secret key (`cv_live_` + 38 base62 characters) reaches every /v1 endpoint of ' +
    'its own account; keep it on a server. A publishable key (`cv_pub_…`) may be shown in a web page: it only calls ' +
    'POST /v1/validate (address and e-mail; phone if created with `phone: true`) and GET /v1/address/autocomplete, only from its origins (403 ' +
    'otherwise), is rate-limited per client address too, its answers carry `credits: null`, and every other endpoint ' +
    'answers it 401. A test key (`cv_test_…`) only calls POST /v1/validate (the real engines with network checks off, ' +
    'nothing charged, `"test": true` in the answer) and GET /v1/address/autocomplete; every other endpoint answers it 401. ' +
    'Keys are created with `npm run -s cli -- keys create` or POST /v1/keys and shown once.',
};

const TAGS = [
  { name: 'Validate', description: 'A contact checked in one request, or up to 100 in one call' },
  { name: 'Policies', description: 'Which answers mean accept, confirm or fix: the presets and the account\'s own' },
  { name: 'Account', description: "The key's own account and its API keys" },
  { name: 'Batches', description: 'CSV files validated in the background' },
  { name: 'Connectors', description: 'CRM and store accounts kept verified, one plugin per platform' },
  { name: 'Webhooks', description: 'Signed events sent to your endpoints: batches, connectors, a low balance' },
  { name: 'Service', description: 'Health, problem types, this description' },
];

const INFO_DESCRIPTION =
  'Validates postal addresses, e-mail addresses and phone numbers, one request at a time, a CSV file at a time, or ' +
  'continuously from a CRM or a store. Every error is an RFC 9457 `application/problem+json` document whose `type` ' +
  'is one of the catalogue (GET /problems/{code}); a known path called with another method answers 405 ' +
  '`method-not-allowed` with `Allow`. JSON bodies are at most 16 KiB.';

function packageVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Leaves out what says nothing to a reader: the safe-integer bounds of every integer, the regex behind `date-time`. */
function plain({ jsonSchema: s }: { jsonSchema: JsonSchema }): void {
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.format === 'date-time') delete s.pattern;
}

const CONVERSION = { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', override: plain } as const;

function inlineSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, CONVERSION) as JsonSchema;
  return rest;
}

export interface OpenApiOptions {
  /** The connector platforms whose create bodies are described (default: every plugin the service ships). */
  plugins?: ConnectorPlugin<any, any, any>[];
  /** The endpoints described (default: every endpoint of the service but the hidden ones). */
  endpoints?: readonly AnyEndpoint[];
}

type ParameterIn = 'path' | 'query' | 'header';

/** A request part's fields as parameters: each field's description beside its schema, required unless optional. */
function parametersOf(fields: Fields | undefined, where: ParameterIn) {
  return Object.entries(fields?.shape ?? {}).map(([name, schema]) => {
    const { description, ...rest } = inlineSchema(schema as z.ZodType);
    return {
      name, in: where, required: where === 'path' || !(schema as z.ZodType).safeParse(undefined).success,
      description, schema: rest,
    };
  });
}

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const connectors = connectorSchemas(options.plugins ?? createConnectorPlugins());
  const endpoints = (options.endpoints ?? ENDPOINTS).filter((e) => !e.hidden);
  const components: Component[] = [
    ...validateComponents, ...validateBatchComponents, ...feedbackComponents, ...policyComponents, ...accountComponents, ...batchComponents, ...connectors.components, ...problemComponents,
    ...serviceComponents, ...usageComponents, ...installComponents, ...webhookComponents, ...autocompleteComponents,
  ];

  const registry = z.registry<{ id: string }>();
  for (const [schema, meta] of components) registry.add(schema, { id: meta.id });
  const converted = z.toJSONSchema(registry, {
    ...CONVERSION, uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const schemas: Record<string, JsonSchema> = {};
  for (const [, meta] of components) {
    // A component is not a document of its own: no $schema, and no $id (a fragment is no valid $id in 2020-12).
    const { $schema: _s, $id: _i, ...schema } = converted.schemas[meta.id];
    schemas[meta.id] = {
      ...(meta.title ? { title: meta.title } : {}),
      ...schema,
      ...(meta.description ? { description: meta.description } : {}),
      ...(meta.examples ? { examples: meta.examples } : {}),
    };
  }

  const schemaOf = (declared: z.ZodType): JsonSchema => {
    const schema = connectors.substitutes.get(declared) ?? declared;
    const id = registry.get(schema)?.id;
    return id ? { $ref: `#/components/schemas/${id}` } : inlineSchema(schema);
  };
  const contentOf = (content: Record<string, Content>) => Object.fromEntries(Object.entries(content).map(([type, c]) => [
    type, { schema: schemaOf(c.schema), ...(c.example !== undefined ? { example: c.example } : {}) },
  ]));
  const headersOf = (headers: Record<string, { description: string; schema: z.ZodType }>) => Object.fromEntries(
    Object.entries(headers).map(([name, h]) => [name, { description: h.description, schema: inlineSchema(h.schema) }]),
  );

  const problemResponses = (codes: ProblemCode[]) => {
    const byStatus = new Map<number, ProblemCode[]>();
    for (const code of new Set(codes)) {
      const status = PROBLEM_TYPES[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    return Object.fromEntries([...byStatus].map(([status, list]) => {
      const refs = list.map((code) => ({ $ref: `#/components/schemas/${problemComponentId(code)}` }));
      const headers = Object.assign({}, ...list.map((code) => PROBLEM_HEADERS[code] ?? {}));
      return [String(status), {
        description: list.map((code) => `\`${code}\`: ${PROBLEM_TYPES[code].title}`).join('; '),
        ...(Object.keys(headers).length ? { headers: headersOf(headers) } : {}),
        content: {
          'application/problem+json': {
            schema: refs.length === 1 ? refs[0] : { oneOf: refs },
            examples: Object.fromEntries(list.map((code) => [code, { summary: PROBLEM_TYPES[code].title, value: problemExample(code) }])),
          },
        },
      }];
    }));
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of endpoints) {
    const keyed = op.security !== 'none';
    const success = Object.fromEntries(Object.entries(op.responses).map(([status, r]) => [status, {
      description: r.description,
      ...(r.headers ? { headers: headersOf(r.headers) } : {}),
      ...(r.content ? { content: contentOf(r.content) } : {}),
    }]));
    const problems = problemResponses([...op.problems, ...(keyed ? GUARD_PROBLEMS : []), ...ANY_ROUTE_PROBLEMS]);
    const responses = Object.fromEntries(Object.entries({ ...success, ...problems }).sort(([a], [b]) => a.localeCompare(b)));
    const { params, query, headers, body, bodyRequired = true, content } = op.request ?? {};
    const parameters = [...parametersOf(params, 'path'), ...parametersOf(query as Fields | undefined, 'query'), ...parametersOf(headers, 'header')];
    const requestBody: RequestSchemas<z.ZodType, z.ZodType>['content'] = body
      ? { required: bodyRequired, content: { 'application/json': { schema: body } } }
      : content;
    (paths[op.path] ??= {})[op.method] = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: keyed ? [{ ApiKey: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? {
        requestBody: {
          ...(requestBody.description ? { description: requestBody.description } : {}),
          required: requestBody.required,
          content: contentOf(requestBody.content),
        },
      } : {}),
      responses,
    };
  }

  return {
    openapi: '3.1.1',
    info: {
      title: 'contact-validator',
      version: packageVersion(),
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: '/', description: 'This service' }],
    tags: TAGS,
    security: [{ ApiKey: [] }],
    paths,
    components: { securitySchemes: { ApiKey: SECURITY_SCHEME }, schemas },
  };
}
