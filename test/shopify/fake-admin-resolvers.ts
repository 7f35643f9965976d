/**
 * The fake shop's root fields, answered in the Admin GraphQL API's shapes: `customers` and `orders` (search syntax,
 * sort keys, cursors), `customer`/`order` (an order's `fulfillmentOrders`, each with its `fulfillmentHolds`), `shop`, `currentAppInstallation`, and the
 * mutations `metafieldsSet`, `tagsAdd` and `tagsRemove` (several may come aliased in one document), and for orders
 * `orderRiskAssessmentCreate`, `fulfillmentOrderHold`, `fulfillmentOrderReleaseHold` and `orderUpdate`
 * (order-mutations.ts).
 */
import { nodeSelections, objectCost, project, type Field, type GqlValue, type Operation } from './fake-admin-graphql.js';
import type { FakeAddress, FakeResource, FakeShopState } from './fake-admin.js';
import { ORDER_MUTATIONS } from './fake-admin-orders.js';

export interface Execution { data: Record<string, unknown>; errors: object[]; actualCost: number }

export type Outcome = { value: unknown; cost: number } | { error: object };

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function execute(state: FakeShopState, operation: Operation): Execution {
  const data: Record<string, unknown> = {};
  const errors: object[] = [];
  let actualCost = 0;
  // Writes in one request share one tick of the clock.
  let writeTime: number | null = null;
  const now = () => (writeTime ??= state.tick());
  for (const field of operation.fields) {
    state.count(field.name);
    const outcome = resolveRoot(state, operation, field, now);
    if ('error' in outcome) {
      data[field.alias] = null;
      errors.push({ ...outcome.error, path: [field.alias] });
    } else {
      data[field.alias] = project(outcome.value, field.selections);
      actualCost += outcome.cost;
    }
  }
  return { data, errors, actualCost };
}

function resolveRoot(state: FakeShopState, operation: Operation, field: Field, now: () => number): Outcome {
  const a = field.args;
  switch (`${operation.type}.${field.name}`) {
    case 'query.customers': return needs(state, 'customers', 'read') ?? connection(state, 'Customer', field);
    case 'query.orders': return needs(state, 'orders', 'read') ?? connection(state, 'Order', field);
    case 'query.customer': return needs(state, 'customers', 'read') ?? single(state, 'Customer', field);
    case 'query.order': return needs(state, 'orders', 'read') ?? single(state, 'Order', field);
    case 'query.shop':
      return { value: { id: 'gid://shopify/Shop/1', name: 'Example', myshopifyDomain: state.shop, email: `owner@${state.shop}` }, cost: 1 };
    // `appInstallation` without an id is the calling app's (shopify.dev, "appInstallation" query).
    case 'query.appInstallation':
    case 'query.currentAppInstallation':
      return { value: { id: 'gid://shopify/AppInstallation/1', accessScopes: [...state.scopes].map((handle) => ({ handle, description: handle })) }, cost: 2 };
    case 'mutation.metafieldsSet': return metafieldsSet(state, Array.isArray(a.metafields) ? a.metafields : [], now);
    case 'mutation.tagsAdd': return tags(state, 'add', a.id, a.tags, now);
    case 'mutation.tagsRemove': return tags(state, 'remove', a.id, a.tags, now);
    case 'query.webhookSubscriptions':
      return { value: { nodes: state.webhooks.map((w) => ({ id: w.id, topic: w.topic, endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: w.callbackUrl } })) }, cost: 2 };
    case 'mutation.webhookSubscriptionCreate': {
      const sub = (a.webhookSubscription ?? {}) as { callbackUrl?: string };
      if (!sub.callbackUrl?.startsWith('https://')) {
        return { value: { webhookSubscription: null, userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address protocol http:// is not supported' }] }, cost: 10 };
      }
      const created = { id: `gid://shopify/WebhookSubscription/${state.webhooks.length + 1}`, topic: String(a.topic), callbackUrl: sub.callbackUrl };
      state.webhooks.push(created);
      return { value: { webhookSubscription: { id: created.id }, userErrors: [] }, cost: 10 };
    }
    default:
      if (operation.type === 'mutation' && Object.hasOwn(ORDER_MUTATIONS, field.name)) {
        return needs(state, 'orders', 'write') ?? ORDER_MUTATIONS[field.name](state, a, now);
      }
      return { error: { message: `Field '${field.name}' doesn't exist on type '${operation.type === 'query' ? 'QueryRoot' : 'Mutation'}'`, extensions: { code: 'undefinedField', typeName: operation.type === 'query' ? 'QueryRoot' : 'Mutation', fieldName: field.name } } };
  }
}

/** ACCESS_DENIED unless a scope grants it (a write scope grants reading too). */
export function needs(state: FakeShopState, resource: 'customers' | 'orders', access: 'read' | 'write'): Outcome | null {
  if (state.scopes.has(`write_${resource}`) || (access === 'read' && state.scopes.has(`read_${resource}`))) return null;
  return {
    error: {
      message: `Access denied for ${resource} field. Required access: \`${access}_${resource}\` access scope.`,
      extensions: { code: 'ACCESS_DENIED', documentation: 'https://shopify.dev/api/usage/access-scopes', requiredAccess: `\`${access}_${resource}\` access scope.` },
    },
  };
}

const resourceOf = (type: FakeResource['type']) => (type === 'Customer' ? 'customers' : 'orders');

function addressView(a: FakeAddress | null) {
  if (!a) return null;
  const name = [a.firstName, a.lastName].filter(Boolean).join(' ') || null;
  return {
    firstName: null, lastName: null, company: null, address1: null, address2: null, city: null, province: null,
    provinceCode: null, zip: null, country: null, countryCodeV2: null, phone: null, ...a, name,
  };
}

/** A resource as GraphQL gives it (a field with arguments is a function of them). */
function view(r: FakeResource) {
  const metafield = (m: { namespace: string; key: string; type: string; value: string; id: string; createdAt: number; updatedAt: number } | undefined) =>
    m ? { ...m, createdAt: iso(m.createdAt), updatedAt: iso(m.updatedAt) } : null;
  return {
    __typename: r.type, id: r.id, legacyResourceId: String(r.n), email: r.email, phone: r.phone, tags: [...r.tags],
    createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt),
    ...(r.type === 'Customer'
      ? { firstName: r.firstName, lastName: r.lastName, displayName: `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim(), defaultAddress: addressView(r.address) }
      : {
        name: r.name, shippingAddress: addressView(r.address),
        fulfillmentOrders: (args: Record<string, GqlValue>) => ({ nodes: r.fulfillmentOrders.slice(0, Number(args.first ?? 10)).map((f) => ({ ...f, fulfillmentHolds: f.holds })) }),
      }),
    metafield: (args: Record<string, GqlValue>) => metafield(r.metafields.get(`${args.namespace}.${args.key}`)),
  };
}

function single(state: FakeShopState, type: FakeResource['type'], field: Field): Outcome {
  const r = state.find(String(field.args.id));
  return { value: r && r.type === type ? view(r) : null, cost: 1 + objectCost(field.selections) };
}

// ---- connections: `first`/`after`, `sortKey`, `reverse`, `query` ------------------------------------------------

type SortValue = (r: FakeResource) => number;
const SORT_KEYS: Record<string, SortValue> = { ID: (r) => r.n, UPDATED_AT: (r) => r.updatedAt, CREATED_AT: (r) => r.createdAt };

/** Shopify's cursor: base64 of the last record's id and sort value. */
const cursorOf = (r: FakeResource, sort: SortValue) => Buffer.from(JSON.stringify({ last_id: r.n, last_value: sort(r) })).toString('base64');

function connection(state: FakeShopState, type: FakeResource['type'], field: Field): Outcome {
  const { first, after, sortKey = 'ID', reverse = false, query = null } = field.args as { first?: unknown; after?: unknown; sortKey?: string; reverse?: boolean; query?: unknown };
  if (typeof first !== 'number') return { error: { message: 'you must provide one of first or last', extensions: { code: 'BAD_REQUEST' } } };
  if (first > 250) return { error: { message: 'The maximum number of records per page is 250', extensions: { code: 'BAD_REQUEST' } } };
  const sort = SORT_KEYS[sortKey];
  if (!sort) return { error: { message: `Argument 'sortKey' on Field '${field.name}' has an invalid value (${sortKey}).`, extensions: { code: 'argumentLiteralsIncompatible' } } };
  const filters = parseSearch(typeof query === 'string' ? query : '');
  const dir = reverse ? -1 : 1;
  const compare = (x: FakeResource, y: FakeResource) => dir * (sort(x) - sort(y) || x.n - y.n);
  let rows = state.all(type).filter((r) => filters.every((f) => f(r))).sort(compare);
  if (typeof after === 'string' && after) {
    let mark: { last_id: number; last_value: number };
    try { mark = JSON.parse(Buffer.from(after, 'base64').toString()); } catch { return { error: { message: 'Invalid cursor for current pagination sort.', extensions: { code: 'BAD_REQUEST' } } }; }
    // The cursor is a position in the sort order, not a snapshot: records that moved are met where they are now.
    rows = rows.filter((r) => dir * (sort(r) - mark.last_value || r.n - mark.last_id) > 0);
  }
  const page = rows.slice(0, first);
  const nodes = page.map(view);
  const perNode = 1 + objectCost(nodeSelections(field));
  return {
    value: {
      nodes,
      edges: page.map((r, i) => ({ cursor: cursorOf(r, sort), node: nodes[i] })),
      pageInfo: {
        hasNextPage: rows.length > first, hasPreviousPage: typeof after === 'string' && after !== '',
        startCursor: page.length ? cursorOf(page[0], sort) : null, endCursor: page.length ? cursorOf(page.at(-1)!, sort) : null,
      },
    },
    cost: 2 + page.length * perNode,
  };
}

/** Shopify's search syntax, the part used here: `updated_at:>='…'`, `created_at:<…`, terms joined by spaces or AND. */
function parseSearch(query: string): ((r: FakeResource) => boolean)[] {
  const filters: ((r: FakeResource) => boolean)[] = [];
  for (const m of query.matchAll(/(updated_at|created_at):(<=|>=|<|>)?(?:'([^']*)'|"([^"]*)"|(\S+))/g)) {
    const at = Date.parse(m[3] ?? m[4] ?? m[5]);
    if (Number.isNaN(at)) continue;
    const value = (r: FakeResource) => (m[1] === 'updated_at' ? r.updatedAt : r.createdAt);
    const op = m[2] ?? '';
    filters.push((r) => (op === '>=' ? value(r) >= at : op === '>' ? value(r) > at : op === '<=' ? value(r) <= at : op === '<' ? value(r) < at : value(r) === at));
  }
  return filters;
}

// ---- mutations ----------------------------------------------------------------------------------------------------

const TYPES: Record<string, (value: string) => boolean> = {
  single_line_text_field: (v) => !/[\r\n]/.test(v),
  multi_line_text_field: () => true,
  date_time: (v) => !Number.isNaN(Date.parse(v)),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v),
  number_integer: (v) => /^-?\d+$/.test(v),
  boolean: (v) => v === 'true' || v === 'false',
  json: (v) => { try { JSON.parse(v); return true; } catch { return false; } },
};

let metafieldSeq = 30_000_000_000_000;

/** Atomic since 2023-01: one error and nothing is saved. At most 25 metafields. */
function metafieldsSet(state: FakeShopState, input: GqlValue[], now: () => number): Outcome {
  const cost = 10;
  const userErrors: { field: string[] | null; message: string; code: string; elementIndex: number | null }[] = [];
  if (input.length > 25) {
    userErrors.push({ field: ['metafields'], message: 'Exceeded the maximum metafields input limit of 25.', code: 'LESS_THAN_OR_EQUAL_TO', elementIndex: null });
    return { value: { metafields: [], userErrors }, cost };
  }
  const items = input.map((m) => (m ?? {}) as Record<string, GqlValue>);
  for (const [i, m] of items.entries()) {
    const err = (field: string, message: string, code: string) => userErrors.push({ field: ['metafields', String(i), field], message, code, elementIndex: i });
    const owner = state.find(String(m.ownerId));
    if (!owner) { err('ownerId', 'Owner does not exist.', 'INVALID'); continue; }
    const denied = needs(state, resourceOf(owner.type), 'write');
    if (denied) return denied;
    const existing = owner.metafields.get(`${m.namespace}.${m.key}`);
    const type = typeof m.type === 'string' ? m.type : existing?.type;
    if (typeof m.namespace !== 'string' || !/^[\w-]{2,255}$/.test(m.namespace)) err('namespace', 'Namespace is invalid', 'INVALID');
    if (typeof m.key !== 'string' || !/^[\w-]{2,64}$/.test(m.key)) err('key', 'Key is invalid', 'INVALID');
    if (!type) err('type', "Type can't be blank", 'BLANK');
    else if (!TYPES[type]) err('type', `Type '${type}' is not a valid type`, 'INVALID_TYPE');
    else if (existing && existing.type !== type) err('type', 'Type must be the same as the definition', 'INVALID_TYPE');
    if (typeof m.value !== 'string') err('value', "Value can't be blank", 'BLANK');
    else if (type && TYPES[type] && !TYPES[type](m.value)) err('value', `Value is invalid for type ${type}`, 'INVALID_VALUE');
    const refused = state.rejectMetafields.get(owner.id);
    if (refused) err('value', refused, 'INVALID_VALUE');
  }
  if (userErrors.length) return { value: { metafields: [], userErrors }, cost };
  const at = now();
  const saved = items.map((m) => {
    const owner = state.resource(String(m.ownerId));
    const key = `${m.namespace}.${m.key}`;
    const existing = owner.metafields.get(key);
    const metafield = {
      id: existing?.id ?? `gid://shopify/Metafield/${++metafieldSeq}`, namespace: String(m.namespace), key: String(m.key),
      type: String(m.type ?? existing!.type), value: String(m.value), createdAt: existing?.createdAt ?? at, updatedAt: at,
    };
    owner.metafields.set(key, metafield);
    owner.updatedAt = at;
    return { ...metafield, createdAt: iso(metafield.createdAt), updatedAt: iso(at), owner: { id: owner.id }, ownerType: owner.type.toUpperCase() };
  });
  return { value: { metafields: saved, userErrors: [] }, cost };
}

/** `tags` is a list, or one string of comma-separated tags; tags compare case-insensitively. */
function tags(state: FakeShopState, op: 'add' | 'remove', id: GqlValue, tagsArg: GqlValue, now: () => number): Outcome {
  const cost = 10;
  const list = (Array.isArray(tagsArg) ? tagsArg.map(String) : String(tagsArg ?? '').split(',')).map((t) => t.trim()).filter(Boolean);
  const r = state.find(String(id));
  if (!/^gid:\/\/shopify\/\w+\/\d+$/.test(String(id))) return { error: { message: 'Invalid global id', extensions: { code: 'argumentLiteralsIncompatible' } } };
  if (!r) return { value: { node: null, userErrors: [{ field: ['id'], message: 'Resource does not exist' }] }, cost };
  const denied = needs(state, resourceOf(r.type), 'write');
  if (denied) return denied;
  if (list.some((t) => t.length > 255)) return { value: { node: null, userErrors: [{ field: ['tags'], message: 'Tags is invalid' }] }, cost };
  const has = (t: string) => r.tags.some((x) => x.toLowerCase() === t.toLowerCase());
  const before = r.tags.length;
  if (op === 'add') {
    for (const t of list) if (!has(t)) r.tags.push(t);
    if (r.tags.length > 250) { r.tags.length = before; return { value: { node: null, userErrors: [{ field: ['tags'], message: 'Tags cannot be more than 250' }] }, cost }; }
  } else {
    r.tags = r.tags.filter((x) => !list.some((t) => t.toLowerCase() === x.toLowerCase()));
  }
  if (r.tags.length !== before) r.updatedAt = now();
  return { value: { node: { __typename: r.type, id: r.id }, userErrors: [] }, cost };
}
