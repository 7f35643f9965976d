/**
 * Holds real answers to the OpenAPI description: each answer's status must be documented for its operation, its media
 * type among that status's, and its JSON body valid against that schema (ajv, JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1). Objects of the description are closed here (`additionalProperties: false` where it says nothing), so
 * that a field the service sends and the description leaves out fails too. Records which statuses were seen.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { expect } from 'vitest';

type Json = Record<string, any>;

const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A copy of the description whose described objects accept no undocumented member. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'examples' || k === 'example' ? v : closed(v)]));
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

export function operationsOf(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })));
}

export class Conformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ReturnType<Ajv2020['compile']>>();
  /** `METHOD path` → statuses seen. */
  readonly seen = new Map<string, Set<string>>();

  constructor(readonly doc: Json) {
    (formats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(closed(doc) as Json, 'openapi.json');
  }

  /** Checks one answer of `METHOD path` (the path template) against the description; returns its body. */
  async check(method: string, path: string, res: Response): Promise<any> {
    const op = this.doc.paths[path]?.[method.toLowerCase()];
    const where = `${method} ${path} → ${res.status}`;
    expect(op, `${method} ${path} is not documented`).toBeDefined();
    const text = await res.text();
    const documented = op.responses[String(res.status)];
    expect(documented, `${where} is not documented: ${text.slice(0, 300)}`).toBeDefined();
    const status = String(res.status);
    const key = `${method.toUpperCase()} ${path}`;
    if (!this.seen.has(key)) this.seen.set(key, new Set());
    this.seen.get(key)!.add(status);
    if (!documented.content) {
      expect(text, `${where} should have no body`).toBe('');
      return null;
    }
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    expect(Object.keys(documented.content), `${where}: media type ${mediaType}`).toContain(mediaType);
    if (!mediaType.endsWith('json')) return text;
    const body = JSON.parse(text);
    const ref = `openapi.json#/${pointer('paths', path, method.toLowerCase(), 'responses', status, 'content', mediaType, 'schema')}`;
    let validate = this.validators.get(ref);
    if (!validate) this.validators.set(ref, (validate = this.ajv.compile({ $ref: ref })));
    const valid = validate(body);
    expect(valid, `${where}: ${JSON.stringify(validate.errors?.slice(0, 5))}\n${text.slice(0, 600)}`).toBe(true);
    return body;
  }

  /** Every documented status of every operation that no answer showed. */
  unseen(): string[] {
    return operationsOf(this.doc).flatMap(({ method, path, op }) => Object.keys(op.responses)
      .filter((status) => !this.seen.get(`${method.toUpperCase()} ${path}`)?.has(status))
      .map((status) => `${method.toUpperCase()} ${path} ${status}`));
  }
}
