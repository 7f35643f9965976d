/**
 * A local Shopify store that speaks the Admin GraphQL API as documented (shopify.dev: "GraphQL Admin API",
 * "Shopify API rate limits" (calculated query cost, leaky bucket), `customers`, `orders`, `metafieldsSet` (atomic,
 * at most 25), `tagsAdd`, `tagsRemove`, search syntax), driven by the real @shopify/shopify-api client in tests.
 * Resources live in memory; timestamps follow the test's clock; the cost bucket leaks in real time (and `elapse`).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphqlSyntaxError, nodeSelections, objectCost, parseOperation, type Field, type Operation } from './fake-admin-graphql.js';
import { execute, type Execution } from './fake-admin-resolvers.js';
import { authorize, exchangeCode, formOf, newOAuthBook, type FakeApp } from './fake-admin-oauth.js';

export interface FakeShopOptions {
  /** The shop's myshopify domain (`example.myshopify.com`). */
  shop?: string;
  /** An admin-created custom app's token: valid until revoked. */
  accessToken?: string;
  /** A Dev Dashboard app's client ID and secret: `POST /admin/oauth/access_token` (client credentials grant) gives tokens. */
  clientId?: string;
  clientSecret?: string;
  /** A public app the shop has approved: its authorize page answers at once, its codes give tokens (fake-admin-oauth.ts). */
  app?: FakeApp;
  /** The access scopes granted to the app (default: read and write customers and orders). */
  scopes?: string[];
  /** Points the bucket regains per second (Shopify: 100 standard, 1000 Plus). */
  restoreRate?: number;
  maximumAvailable?: number;
  /** The most a single query may cost (Shopify: 1000). */
  maxQueryCost?: number;
  latencyMs?: number;
  /** false: the bucket refills only through `elapse` (exact numbers in tests); default true, in real time. */
  refillInRealTime?: boolean;
  /** The fake clock's start; it moves with `advance`, seeds, edits and writes. */
  start?: string;
}

export interface FakeAddress {
  firstName?: string | null; lastName?: string | null; company?: string | null;
  address1?: string | null; address2?: string | null; city?: string | null;
  province?: string | null; provinceCode?: string | null; zip?: string | null;
  country?: string | null; countryCodeV2?: string | null; phone?: string | null;
}

export interface FakeMetafield { id: string; namespace: string; key: string; type: string; value: string; createdAt: number; updatedAt: number }

export interface FakeResource {
  type: 'Customer' | 'Order';
  /** The numeric id (REST `id`, GraphQL `legacyResourceId`). */
  n: number;
  /** `gid://shopify/Customer/…` */
  id: string;
  /** Orders: `#1001`. */
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  tags: string[];
  /** Customers: `defaultAddress`; orders: `shippingAddress`. */
  address: FakeAddress | null;
  createdAt: number;
  updatedAt: number;
  metafields: Map<string, FakeMetafield>;
  /** Orders: one fulfillment order each (a single location), with the holds apps placed on it. */
  fulfillmentOrders: FakeFulfillmentOrder[];
  /** Orders: the risk assessments apps recorded (`orderRiskAssessmentCreate`). */
  riskAssessments: { riskLevel: string; facts: { description: string; sentiment: string }[] }[];
}

export interface FakeHold { id: string; handle: string | null; reason: string; reasonNotes: string | null }
export interface FakeFulfillmentOrder { id: string; status: 'OPEN' | 'ON_HOLD' | 'CLOSED'; holds: FakeHold[] }

export type ResourceInput = Partial<Pick<FakeResource, 'firstName' | 'lastName' | 'email' | 'phone' | 'tags' | 'address'>>;

export interface Fault { status: number; body: string; headers: Record<string, string> }

export type FakeShopState = ReturnType<typeof createState>;

export interface FakeShop {
  url: string;
  state: FakeShopState;
  close(): Promise<void>;
}

export const ALL_SCOPES = ['read_customers', 'write_customers', 'read_orders', 'write_orders', 'write_merchant_managed_fulfillment_orders'];
/** Shopify's numbers are large: keep them so (REST ids are 64-bit). */
const ID_BASE = 7_000_000_000_000;

function createState(options: FakeShopOptions) {
  let clock = Date.parse(options.start ?? '2026-11-24T10:00:00Z');
  let seq = 0;
  let orderNumber = 1000;
  const resources = new Map<string, FakeResource>();
  const maximumAvailable = options.maximumAvailable ?? 2000;
  const state = {
    shop: (options.shop ?? 'example.myshopify.com').toLowerCase(),
    accessToken: options.accessToken ?? 'shpat_fake0000000000000000000000000000',
    clientId: options.clientId ?? 'fake-client-id',
    clientSecret: options.clientSecret ?? 'fake-client-secret',
    /** Tokens given by the client credentials grant (they last 24 hours at Shopify; here until `revokeGrantedTokens`). */
    grantedTokens: new Set<string>(),
    oauth: newOAuthBook(options.app),
    scopes: new Set(options.scopes ?? ALL_SCOPES),
    maxQueryCost: options.maxQueryCost ?? 1000,
    latencyMs: options.latencyMs ?? 0,
    /** Answers to requests whose body names this (an operation) are held back a minute, after the request is applied. */
    stallOn: null as string | null,
    refillInRealTime: options.refillInRealTime ?? true,
    bucket: { maximumAvailable, currentlyAvailable: maximumAvailable, restoreRate: options.restoreRate ?? 100, at: Date.now() },
    /** Calls per root field (`customers`, `orders`, `metafieldsSet`, `tagsAdd`, …) and per outcome (`throttled`, `fault.503`, `unauthorized`). */
    calls: {} as Record<string, number>,
    /** Every authenticated request as received. */
    requests: [] as { version: string; query: string; variables: Record<string, unknown>; headers: http.IncomingHttpHeaders }[],
    /** The cost extension of every answer that had one, in order. */
    costs: [] as { requestedQueryCost: number; actualQueryCost: number | null; currentlyAvailable: number }[],
    faults: [] as Fault[],
    /** Webhook subscriptions made through `webhookSubscriptionCreate`. */
    webhooks: [] as { id: string; topic: string; callbackUrl: string }[],
    /** Owners whose next metafieldsSet is refused (a validation the merchant set up), with the message. */
    rejectMetafields: new Map<string, string>(),

    now: () => clock,
    advance(ms: number) { clock += ms; },
    /** The next clock tick: a write's updatedAt. */
    tick() { clock += 1000; return clock; },
    seedCustomers(count: number, make: (i: number) => ResourceInput = () => ({}), stepMs = 1000) {
      return seed('Customer', count, make, stepMs);
    },
    seedOrders(count: number, make: (i: number) => ResourceInput = () => ({}), stepMs = 1000) {
      return seed('Order', count, make, stepMs);
    },
    /** Changes a resource as the merchant would in the admin: its fields, then updatedAt to the clock. */
    edit(id: string, fields: ResourceInput) {
      const r = state.resource(id);
      Object.assign(r, fields);
      r.updatedAt = state.tick();
      return r;
    },
    resource(id: string): FakeResource {
      const r = resources.get(id);
      if (!r) throw new Error(`no resource ${id}`);
      return r;
    },
    find: (id: string) => resources.get(id),
    all: (type: FakeResource['type']) => [...resources.values()].filter((r) => r.type === type),
    /** A resource read back: its fields, tags and metafields (`namespace.key` → {type, value}). */
    get(id: string) {
      const r = state.resource(id);
      return {
        id: r.id, email: r.email, phone: r.phone, tags: [...r.tags], address: r.address, updatedAt: new Date(r.updatedAt).toISOString(),
        metafields: Object.fromEntries([...r.metafields.values()].map((m) => [`${m.namespace}.${m.key}`, { type: m.type, value: m.value }])),
      };
    },
    metafield(id: string, key: string, namespace = 'contact_validator'): string | undefined {
      return state.resource(id).metafields.get(`${namespace}.${key}`)?.value;
    },
    /** The bucket as if `ms` more had passed (a test's sleep). */
    elapse(ms: number) {
      refill();
      state.bucket.currentlyAvailable = Math.min(state.bucket.maximumAvailable, state.bucket.currentlyAvailable + (state.bucket.restoreRate * ms) / 1000);
    },
    /** Empties the bucket down to `available` points (another app used them). */
    drain(available = 0) { refill(); state.bucket.currentlyAvailable = available; },
    /** The next `count` requests get this answer instead (after the token check). */
    failNext(count: number, status: number, extra: { body?: string; headers?: Record<string, string> } = {}) {
      const fault = defaultFault(status);
      for (let i = 0; i < count; i++) state.faults.push({ status, body: extra.body ?? fault.body, headers: { ...fault.headers, ...extra.headers } });
    },
    /** Every granted token stops working (the next call with one gets 401). */
    revokeGrantedTokens() { state.grantedTokens.clear(); },
    count(name: string, by = 1) { state.calls[name] = (state.calls[name] ?? 0) + by; },
    refill,
  };

  function refill() {
    const now = Date.now();
    const b = state.bucket;
    if (state.refillInRealTime) b.currentlyAvailable = Math.min(b.maximumAvailable, b.currentlyAvailable + (b.restoreRate * (now - b.at)) / 1000);
    b.at = now;
  }

  function seed(type: FakeResource['type'], count: number, make: (i: number) => ResourceInput, stepMs: number) {
    const created: FakeResource[] = [];
    for (let i = 0; i < count; i++) {
      clock += stepMs;
      const n = ID_BASE + ++seq;
      const input = make(i);
      const r: FakeResource = {
        type, n, id: `gid://shopify/${type}/${n}`, name: type === 'Order' ? `#${++orderNumber}` : null,
        firstName: `Person`, lastName: `${seq}`, email: null, phone: null, tags: [], address: null,
        createdAt: clock, updatedAt: clock, metafields: new Map(), riskAssessments: [],
        fulfillmentOrders: type === 'Order' ? [{ id: `gid://shopify/FulfillmentOrder/${n + 500}`, status: 'OPEN', holds: [] }] : [],
        ...input,
      };
      resources.set(r.id, r);
      created.push(r);
    }
    return created;
  }
  return state;
}

function defaultFault(status: number): { body: string; headers: Record<string, string> } {
  if (status === 429) return { body: JSON.stringify({ errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' }), headers: { 'Retry-After': '2.0' } };
  if (status === 502) return { body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'content-type': 'text/html' } };
  if (status === 503) return { body: JSON.stringify({ errors: 'Service Unavailable' }), headers: {} };
  return { body: JSON.stringify({ errors: status >= 500 ? 'Internal Server Error' : `HTTP ${status}` }), headers: {} };
}

export async function startFakeShop(options: FakeShopOptions = {}): Promise<FakeShop> {
  const state = createState(options);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const stalled = state.stallOn !== null && Buffer.concat(chunks).toString('utf8').includes(state.stallOn);
      const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
        const send = () => {
          res.writeHead(status, {
            'content-type': 'application/json; charset=utf-8', 'x-request-id': crypto.randomUUID(), ...headers,
          });
          res.end(body);
        };
        const delay = stalled ? 60_000 : state.latencyMs;
        if (delay > 0) setTimeout(send, delay); else send();
      };
      try {
        route(state, req, Buffer.concat(chunks).toString('utf8'), reply);
      } catch (err) {
        reply(500, JSON.stringify({ errors: `Internal Server Error: ${String(err)}` }));
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type Reply = (status: number, body: string, headers?: Record<string, string>) => void;

function route(state: FakeShopState, req: http.IncomingMessage, body: string, reply: Reply) {
  const url = new URL(req.url ?? '/', 'http://fake');
  const path = url.pathname;
  if (req.method === 'GET' && path === '/admin/oauth/authorize') return authorize(state, state.oauth, url, reply);
  if (req.method === 'POST' && path === '/admin/oauth/access_token') return grant(state, req, body, reply);
  const api = /^\/admin\/api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/.exec(path);
  if (req.method !== 'POST' || !api) return reply(404, JSON.stringify({ errors: 'Not Found' }));
  const token = String(req.headers['x-shopify-access-token'] ?? '');
  if (token !== state.accessToken && !state.grantedTokens.has(token)) {
    state.count('unauthorized');
    return reply(401, JSON.stringify({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }));
  }
  const fault = state.faults.shift();
  if (fault) {
    state.count(`fault.${fault.status}`);
    return reply(fault.status, fault.body, fault.headers);
  }
  const versionHeader = { 'X-Shopify-API-Version': api[1] };
  let request: { query?: unknown; variables?: unknown };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return reply(400, JSON.stringify({ errors: { query: 'Required parameter missing or invalid' } }), versionHeader);
  }
  const variables = (request.variables && typeof request.variables === 'object' ? request.variables : {}) as Record<string, unknown>;
  state.requests.push({ version: api[1], query: String(request.query ?? ''), variables, headers: req.headers });
  const answer = (payload: object) => reply(200, JSON.stringify(payload), versionHeader);

  let operation: Operation;
  try {
    operation = parseOperation(String(request.query ?? ''), variables);
  } catch (err) {
    if (err instanceof GraphqlSyntaxError) return answer({ errors: [{ message: err.message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
    throw err;
  }

  const requestedQueryCost = operation.fields.reduce((sum, f) => sum + requestedCost(operation, f), 0);
  state.refill();
  const b = state.bucket;
  const throttleStatus = () => ({ maximumAvailable: b.maximumAvailable, currentlyAvailable: Math.floor(b.currentlyAvailable), restoreRate: b.restoreRate });
  if (requestedQueryCost > state.maxQueryCost) {
    state.count('maxCostExceeded');
    return answer({
      errors: [{
        message: `Query cost is ${requestedQueryCost}, which exceeds the single query max cost limit (${state.maxQueryCost}).`,
        extensions: { code: 'MAX_COST_EXCEEDED', cost: requestedQueryCost, maxCost: state.maxQueryCost, documentation: 'https://shopify.dev/api/usage/rate-limits' },
      }],
    });
  }
  if (requestedQueryCost > b.currentlyAvailable) {
    state.count('throttled');
    state.costs.push({ requestedQueryCost, actualQueryCost: null, currentlyAvailable: Math.floor(b.currentlyAvailable) });
    return answer({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
      extensions: { cost: { requestedQueryCost, actualQueryCost: null, throttleStatus: throttleStatus() } },
    });
  }
  b.currentlyAvailable -= requestedQueryCost;
  const execution: Execution = execute(state, operation);
  b.currentlyAvailable = Math.min(b.maximumAvailable, b.currentlyAvailable + requestedQueryCost - execution.actualCost);
  state.costs.push({ requestedQueryCost, actualQueryCost: execution.actualCost, currentlyAvailable: Math.floor(b.currentlyAvailable) });
  answer({
    data: execution.data,
    ...(execution.errors.length ? { errors: execution.errors } : {}),
    extensions: { cost: { requestedQueryCost, actualQueryCost: execution.actualCost, throttleStatus: throttleStatus() } },
  });
}

/** The client credentials grant (shopify.dev, "Using the client credentials grant"): JSON or form body. */
function grant(state: FakeShopState, req: http.IncomingMessage, body: string, reply: Reply) {
  const form = formOf(req, body);
  // The authorization-code grant of a public app's install names no grant type.
  if (form.grant_type === undefined && form.code !== undefined) return exchangeCode(state, state.oauth, form, reply);
  state.count('token');
  if (form.grant_type !== 'client_credentials') {
    return reply(400, JSON.stringify({ error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported.' }));
  }
  if (form.client_id !== state.clientId || form.client_secret !== state.clientSecret) {
    return reply(400, JSON.stringify({ error: 'invalid_client', error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.' }));
  }
  const accessToken = `shpat_${crypto.randomBytes(16).toString('hex')}`;
  state.grantedTokens.add(accessToken);
  reply(200, JSON.stringify({ access_token: accessToken, scope: [...state.scopes].join(','), expires_in: 86399 }));
}

/** Shopify's calculated cost, simplified: a connection 2 + first × its node, an object 1, a mutation 10. */
export function requestedCost(operation: Operation, field: Field): number {
  if (operation.type === 'mutation') return 10;
  const first = typeof field.args.first === 'number' ? field.args.first : typeof field.args.last === 'number' ? field.args.last : null;
  if (first !== null) return 2 + first * (1 + objectCost(nodeSelections(field)));
  return 1 + objectCost(field.selections);
}
