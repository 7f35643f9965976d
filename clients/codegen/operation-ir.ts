/**
 * Reads the OpenAPI description's operations into the resource methods the four clients carry: which resource
 * (`client.batches`), which name, the verb and the path, the path and query parameters, the body, the answer (a list
 * answer is unwrapped), whether it is sent with an `Idempotency-Key`. Each emitter (emit-*-resources.ts) prints them;
 * the transport each client keeps by hand does the retries (429/503 and, for calls safe to repeat, 5xx and dropped
 * connections, honouring `Retry-After`).
 *
 * Every `/v1/` operation a key authenticates becomes a method, under a name derived from its operationId, unless the
 * tables below say otherwise: a new operation in the document is a new method on the next `npm run clients:generate`.
 */
import { type Language, LANGUAGES, pascalCase, type TypeRef } from './model-ir.js';

type JsonSchema = Record<string, any>;

/** Operations the clients leave out, and why. */
export const SKIPPED: Record<string, string> = {
  reportCheckoutEvent: 'called by the Shopify checkout extension, not by an account\'s own code',
  getCheckoutSettings: 'called by the Shopify checkout extension, not by an account\'s own code',
};

/** First path segments whose operations are the client's own methods (`client.validate`), not a resource's. */
const ROOT_SEGMENTS = new Set(['validate', 'address', 'account', 'usage']);

/**
 * Method names the clients had before generation, where the operationId does not give them (camelCase; each
 * language spells it its own way). A language missing from an entry keeps the derived name, and its hand-written
 * code keeps the old name as a thin alias because the old signature differs (Go's `Run` answers the run's id).
 */
export const METHOD_NAMES: Record<string, Partial<Record<Language, string>>> = {
  getAccount: { ts: 'account', py: 'account', go: 'account', java: 'account' },
  getBatchResult: { ts: 'result', py: 'result', java: 'result' },
  startConnectorRun: { ts: 'run', py: 'run' },
  listConnectorRuns: { ts: 'runs', py: 'runs', go: 'runs', java: 'runs' },
  listWebhookDeliveries: { ts: 'deliveries', py: 'deliveries', go: 'deliveries', java: 'deliveries' },
};

/** Parameter names the clients had before generation (`autocomplete_address(query)`, not `q`). */
export const PARAMETER_NAMES: Record<string, string> = { 'autocompleteAddress.q': 'query' };

/** Query parameters that take several values joined with commas: the clients take a list. */
export const LIST_PARAMETERS = new Set(['createBatch.address_columns']);

/** The members a paged list answers beside its items, sorted and joined. */
const PAGE_MEMBERS = 'has_more,next_starting_after';

export interface Parameter {
  wire: string;
  /** The name in the client (camelCase; each language spells it its own way). */
  name: string;
  kind: 'string' | 'integer' | 'boolean' | 'list';
  required: boolean;
  description?: string;
}

export type Body =
  /** `schema`: the body's schema, a component's read through its `$ref`. */
  | { kind: 'json'; schema: JsonSchema; ref?: string; required: boolean }
  | { kind: 'upload'; contentType: string };

export type Answer =
  /** `unwrap`: a list answer given as its items; `paged`: with `has_more` and `next_starting_after` (docs/api.md#lists). */
  | { kind: 'json'; ref?: string; unwrap?: { wire: string; ref?: string; paged: boolean } }
  | { kind: 'download' }
  | { kind: 'none' };

export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** `''` for the client's own methods, else the resource's name in snake_case (`webhook_endpoints`). */
  resource: string;
  /** The camelCase name, before a language's override. */
  name: string;
  summary?: string;
  description?: string;
  pathParameters: Parameter[];
  query: Parameter[];
  body?: Body;
  answer: Answer;
  /** Sent with an Idempotency-Key (a fresh one unless the caller gives it, the same on every retry). */
  idempotencyKey: boolean;
}

const fail = (id: string, what: string): never => {
  throw new Error(`clients/generate-models: operation ${id}: ${what}`);
};

const refOf = (schema: JsonSchema | undefined) =>
  typeof schema?.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;

/** `batches` → `batch`, `policies` → `policy`, `keys` → `key`. */
const singular = (word: string) => word.replace(/ies$/, 'y').replace(/(ch|sh|x|s)es$/, '$1').replace(/s$/, '');

/** The method's name: the operationId without the resource's nouns (`listWebhookEndpoints` → `list`). */
function derivedName(operationId: string, resource: string): string {
  const words = operationId.split(/(?=[A-Z])/);
  const nouns = new Set(resource.split('_').flatMap((w) => [w, singular(w)]));
  const kept = words.filter((w, i) => i === 0 || !nouns.has(w.toLowerCase()));
  if (!resource || kept.length === words.length) return operationId;
  const name = kept.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
  return name || operationId;
}

/** The schema's members' camelCase spelling of `snake_case`. */
export const camelCase = (value: string) => {
  const pascal = pascalCase(value);
  return pascal[0].toLowerCase() + pascal.slice(1);
};

export const snakeCase = (value: string) => value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();

function parameterOf(operationId: string, raw: JsonSchema): Parameter {
  const schema = raw.schema ?? {};
  const values: string[] | undefined = schema.enum;
  let kind: Parameter['kind'] = 'string';
  if (LIST_PARAMETERS.has(`${operationId}.${raw.name}`)) kind = 'list';
  else if (schema.type === 'integer' || schema.type === 'number') kind = 'integer';
  else if (schema.type === 'boolean' || (values && values.length === 2 && values.includes('true') && values.includes('false'))) kind = 'boolean';
  else if (schema.type !== undefined && schema.type !== 'string') fail(operationId, `parameter ${raw.name} of type ${JSON.stringify(schema.type)}`);
  return {
    wire: raw.name,
    name: PARAMETER_NAMES[`${operationId}.${raw.name}`] ?? camelCase(raw.name),
    kind,
    required: Boolean(raw.required),
    description: raw.description,
  };
}

function answerOf(id: string, op: JsonSchema, schemas: Record<string, JsonSchema>): Answer {
  const [status, response] = Object.entries<JsonSchema>(op.responses ?? {}).find(([code]) => code.startsWith('2')) ?? [];
  if (!status || !response) return fail(id, 'no 2xx answer');
  const content: Record<string, JsonSchema> = response.content ?? {};
  if (status === '204' || !Object.keys(content).length) return { kind: 'none' };
  if (content['application/json']) {
    const ref = refOf(content['application/json'].schema);
    const schema = ref ? schemas[ref] : undefined;
    // A list answer ({ "batches": [...] }, one member an array, beside it at most the paging members of
    // docs/api.md#lists) is given as the list: its page, `paged` when a cursor follows it.
    const members = Object.entries<JsonSchema>(schema?.properties ?? {});
    const arrays = members.filter(([, m]) => m.type === 'array');
    const others = members.filter(([, m]) => m.type !== 'array').map(([name]) => name).sort().join(',');
    if (arrays.length === 1 && (others === '' || others === PAGE_MEMBERS)) {
      return { kind: 'json', ref, unwrap: { wire: arrays[0][0], ref: refOf(arrays[0][1].items), paged: others !== '' } };
    }
    return { kind: 'json', ref };
  }
  if (Object.keys(content).some((type) => type.startsWith('text/'))) return { kind: 'download' };
  return fail(id, `an answer of ${Object.keys(content).join(', ')}`);
}

function bodyOf(id: string, op: JsonSchema, schemas: Record<string, JsonSchema>): Body | undefined {
  const content: Record<string, JsonSchema> | undefined = op.requestBody?.content;
  if (!content) return undefined;
  if (content['application/json']) {
    const schema = content['application/json'].schema ?? {};
    const ref = refOf(schema);
    return { kind: 'json', schema: ref ? schemas[ref] : schema, ref, required: Boolean(op.requestBody.required) };
  }
  const upload = Object.keys(content).find((type) => type.startsWith('text/'));
  if (upload) return { kind: 'upload', contentType: upload };
  return fail(id, `a body of ${Object.keys(content).join(', ')}`);
}

/** The operations the clients carry, in the document's order. */
export function readOperations(document: { paths: Record<string, Record<string, JsonSchema>>; components: { schemas: Record<string, JsonSchema> } }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(verb)) continue;
      const keyed = (op.security ?? []).some((s: JsonSchema) => 'ApiKey' in s);
      if (!path.startsWith('/v1/') || !keyed) continue;
      const id: string = op.operationId ?? fail(`${verb.toUpperCase()} ${path}`, 'no operationId');
      if (SKIPPED[id]) continue;
      const segment = path.split('/')[2].replace(/[^A-Za-z0-9]+/g, '_');
      const resource = ROOT_SEGMENTS.has(segment) ? '' : segment;
      const parameters: JsonSchema[] = op.parameters ?? [];
      if (parameters.some((p) => p.$ref)) fail(id, 'a parameter by $ref');
      const inPath = parameters.filter((p) => p.in === 'path').map((p) => parameterOf(id, p));
      const order = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      if (order.length !== inPath.length || order.some((name) => !inPath.find((p) => p.wire === name))) {
        fail(id, 'path parameters that do not match its path');
      }
      const query = parameters.filter((p) => p.in === 'query').map((p) => parameterOf(id, p));
      operations.push({
        id,
        method: verb.toUpperCase() as Operation['method'],
        path,
        resource,
        name: derivedName(id, resource),
        summary: op.summary,
        description: op.description,
        pathParameters: order.map((name) => inPath.find((p) => p.wire === name)!),
        // Required first: they come before the optional ones in positional signatures.
        query: [...query.filter((p) => p.required), ...query.filter((p) => !p.required)],
        body: bodyOf(id, op, document.components.schemas),
        answer: answerOf(id, op, document.components.schemas),
        idempotencyKey: parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
      });
    }
  }
  const seen = new Set<string>();
  for (const op of operations) {
    const key = `${op.resource}.${op.name}`;
    if (seen.has(key)) fail(op.id, `a second method named ${key}: give it a name in METHOD_NAMES`);
    seen.add(key);
    // A paged list follows its cursor: `starting_after` in the query, `next_starting_after` in the answer.
    if (pagedList(op) && !op.query.some((p) => p.wire === 'starting_after' && !p.required)) {
      fail(op.id, 'a paged answer without an optional starting_after parameter');
    }
  }
  for (const language of LANGUAGES) {
    for (const op of operations.filter(pagedList)) {
      const name = pagerName(op, language);
      const other = operations.find((o) => o.resource === op.resource && methodName(o, language) === name);
      if (other) fail(op.id, `its ${language} method ${name} that walks every page has the name of ${other.id}'s`);
    }
  }
  return operations;
}

/** The list an operation answers a page of, when a cursor follows it (`has_more`, `next_starting_after`). */
export function pagedList(op: Operation): { wire: string; ref?: string } | undefined {
  return op.answer.kind === 'json' && op.answer.unwrap?.paged ? op.answer.unwrap : undefined;
}

/** What the auto-paging method of a paged list adds to the list method's name (`list` → `listAll`, `runs` → `runsAll`). */
const PAGER_SUFFIX = 'All';

/**
 * The name in `language` of the method that walks every page of a paged list (`listAll`, `list_all`, `ListAll`,
 * `runsAll`): the list method's name and `All`.
 */
export function pagerName(op: Operation, language: Language): string {
  const name = `${METHOD_NAMES[op.id]?.[language] ?? op.name}${PAGER_SUFFIX}`;
  if (language === 'py') return snakeCase(name);
  if (language === 'go') return name[0].toUpperCase() + name.slice(1);
  return name;
}

/** The method's name in `language`: the table's, else the derived one, spelled as the language spells methods. */
export function methodName(op: Operation, language: Language): string {
  const name = METHOD_NAMES[op.id]?.[language] ?? op.name;
  if (language === 'py') return snakeCase(name);
  if (language === 'go') return name[0].toUpperCase() + name.slice(1);
  return name;
}

/** The resources in the order the document first names them (the root, `''`, excluded). */
export function resourcesOf(operations: Operation[]): string[] {
  return [...new Set(operations.map((op) => op.resource).filter(Boolean))];
}

/** The `summary. description` of an operation, for a doc comment. */
export function docOf(op: Operation): string {
  const head = `${op.method} ${op.path}`;
  return op.summary ? `${head}: ${op.summary}` : head;
}

/**
 * The type of a body member the model table does not carry (a new operation's inline body): the plain JSON types, a
 * list of them, else unknown. Enough for an argument's type; the model table gives more.
 */
export function plainType(schema: JsonSchema | undefined): TypeRef {
  const type = Array.isArray(schema?.type) ? schema!.type.filter((t: string) => t !== 'null') : [schema?.type];
  if (type.length !== 1) return { kind: 'unknown' };
  if (type[0] === 'array') return { kind: 'array', items: plainType(schema!.items) };
  if (['string', 'integer', 'number', 'boolean'].includes(type[0]) && !schema!.format) return { kind: type[0] };
  return { kind: 'unknown' };
}

/** The component schemas the operations send and answer, in order: the clients carry them (model-ir's entriesWith). */
export function operationSchemas(operations: Operation[]): string[] {
  return [...new Set(operations.flatMap((op) => [
    op.body?.kind === 'json' ? op.body.ref : undefined,
    op.answer.kind === 'json' ? op.answer.ref : undefined,
    op.answer.kind === 'json' ? op.answer.unwrap?.ref : undefined,
  ]).filter((id): id is string => Boolean(id)))];
}
