/**
 * Just enough GraphQL for the fake shop (GraphQL spec, October 2021, §2 "Language"): one operation with aliases,
 * arguments (variables and literals), nested selections and inline fragments. No named fragments, directives nor multiple operations: a
 * document using them is refused, so a plugin that starts needing them shows up in its tests.
 */

export type GqlValue = string | number | boolean | null | GqlValue[] | { [name: string]: GqlValue };

export interface Field {
  alias: string;
  name: string;
  args: Record<string, GqlValue>;
  selections: Field[];
}

export interface Operation {
  type: 'query' | 'mutation';
  name: string | null;
  fields: Field[];
}

export class GraphqlSyntaxError extends Error {}

type Token = { kind: 'punct' | 'name' | 'number' | 'string'; value: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s+|,|#[^\n]*|(\.\.\.|[{}()[\]:$!=@])|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([_A-Za-z][_0-9A-Za-z]*)|("(?:[^"\\\n]|\\.)*")/y;
  while (re.lastIndex < source.length) {
    const at = re.lastIndex;
    const m = re.exec(source);
    if (!m) throw new GraphqlSyntaxError(`Parse error on "${source.slice(at, at + 10)}" at ${at}`);
    if (m[1]) tokens.push({ kind: 'punct', value: m[1] });
    else if (m[2]) tokens.push({ kind: 'number', value: m[2] });
    else if (m[3]) tokens.push({ kind: 'name', value: m[3] });
    else if (m[4]) tokens.push({ kind: 'string', value: JSON.parse(m[4]) as string });
  }
  return tokens;
}

export function parseOperation(source: string, variables: Record<string, unknown> = {}): Operation {
  const tokens = tokenize(source);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => {
    const t = tokens[i++];
    if (!t) throw new GraphqlSyntaxError('Unexpected end of document');
    return t;
  };
  const expect = (value: string) => {
    const t = next();
    if (t.value !== value) throw new GraphqlSyntaxError(`Expected "${value}", found "${t.value}"`);
  };
  const isPunct = (value: string) => peek()?.kind === 'punct' && peek()?.value === value;

  function value(): GqlValue {
    const t = next();
    if (t.kind === 'punct' && t.value === '$') {
      const name = next().value;
      if (!(name in variables)) return null;
      return variables[name] as GqlValue;
    }
    if (t.kind === 'punct' && t.value === '[') {
      const list: GqlValue[] = [];
      while (!isPunct(']')) list.push(value());
      next();
      return list;
    }
    if (t.kind === 'punct' && t.value === '{') {
      const obj: Record<string, GqlValue> = {};
      while (!isPunct('}')) { const key = next().value; expect(':'); obj[key] = value(); }
      next();
      return obj;
    }
    if (t.kind === 'number') return Number(t.value);
    if (t.kind === 'string') return t.value;
    if (t.kind === 'name') return t.value === 'true' ? true : t.value === 'false' ? false : t.value === 'null' ? null : t.value;
    throw new GraphqlSyntaxError(`Unexpected "${t.value}"`);
  }

  function selectionSet(): Field[] {
    expect('{');
    const fields: Field[] = [];
    while (!isPunct('}')) {
      if (isPunct('...')) {
        // An inline fragment (`... on WebhookHttpEndpoint { callbackUrl }`): its fields, whatever the type.
        next();
        if (peek()?.value !== 'on') throw new GraphqlSyntaxError('named fragments are not supported by the fake');
        next();
        next();
        fields.push(...selectionSet());
        continue;
      }
      if (isPunct('@')) throw new GraphqlSyntaxError('directives are not supported by the fake');
      let name = next().value;
      let alias = name;
      if (isPunct(':')) { next(); name = next().value; }
      const args: Record<string, GqlValue> = {};
      if (isPunct('(')) {
        next();
        while (!isPunct(')')) { const arg = next().value; expect(':'); args[arg] = value(); }
        next();
      }
      fields.push({ alias, name, args, selections: isPunct('{') ? selectionSet() : [] });
    }
    next();
    return fields;
  }

  let type: Operation['type'] = 'query';
  let name: string | null = null;
  if (peek()?.kind === 'name') {
    const keyword = next().value;
    if (keyword !== 'query' && keyword !== 'mutation') throw new GraphqlSyntaxError(`Unsupported operation "${keyword}"`);
    type = keyword;
    if (peek()?.kind === 'name') name = next().value;
    if (isPunct('(')) {
      // Variable definitions: their types do not matter here, the values come from `variables`.
      let depth = 0;
      do { const t = next(); if (t.value === '(') depth++; if (t.value === ')') depth--; } while (depth > 0);
    }
  }
  const fields = selectionSet();
  if (i < tokens.length) throw new GraphqlSyntaxError('Only one operation per document is supported by the fake');
  return { type, name, fields };
}

/** The object cut down to what the selection asks, under the aliases it asks them by (as GraphQL answers). */
export function project(value: unknown, selections: Field[]): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => project(v, selections));
  if (selections.length === 0) return value;
  const parent = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of selections) {
    if (field.name === '__typename') { out[field.alias] = parent.__typename ?? null; continue; }
    // A field with arguments (`metafield(namespace:, key:)`) is a function of them.
    const member = parent[field.name];
    const raw = typeof member === 'function' ? (member as (args: Field['args']) => unknown)(field.args) : member;
    out[field.alias] = project(raw === undefined ? null : raw, field.selections);
  }
  return out;
}

/** Objects selected in one node (1 point each, scalars free): Shopify's calculated query cost, simplified. */
export function objectCost(selections: Field[]): number {
  return selections.filter((f) => f.selections.length > 0).reduce((sum, f) => sum + 1 + objectCost(f.selections), 0);
}

/** A connection's node selection, through `nodes` or `edges { node }`. */
export function nodeSelections(field: Field): Field[] {
  const nodes = field.selections.find((f) => f.name === 'nodes');
  const node = field.selections.find((f) => f.name === 'edges')?.selections.find((f) => f.name === 'node');
  return [...(nodes?.selections ?? []), ...(node?.selections ?? [])];
}
