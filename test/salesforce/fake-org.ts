/**
 * A local Salesforce org that speaks the REST API as documented (REST API Developer Guide: "Execute a SOQL Query",
 * "Update Multiple Records with Fewer Round-Trips", "Status Codes and Error Responses"; OAuth 2.0 client-credentials
 * and JWT bearer flows), driven by the real jsforce client in tests. Records live in memory; the clock is the test's.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCometd, type Cometd } from './fake-org-cometd.js';
import { setupRoute } from './fake-org-setup.js';
import { consentAnswer, consentPage, newOAuthBook, redeemCode } from './fake-org-oauth.js';
import { compareBy, fieldName, matches, parseSoql, SCHEMA, SoqlError, type Row, type Value } from './fake-org-soql.js';

/** The org's users: the integration user every grant of the connector signs in as, and a person who edits records. */
export const USERS = { integration: '0055g000000USERAAA', admin: '0055g000000ADMINAA' } as const;

export interface FakeOrgOptions {
  clientId?: string;
  clientSecret?: string;
  /** JWT bearer flow: the connected app's certificate (PEM public key) and the user the assertion may name. */
  jwtPublicKey?: string;
  username?: string;
  /** Records per query page when the client asks nothing (Salesforce: 2000). */
  pageSize?: number;
  /** The org's daily API allowance (the M of `api-usage=N/M`). */
  apiLimit?: number;
  /** Delay before every answer. */
  latencyMs?: number;
  /** The fake clock's start; it moves only with `state.advance` and edits. */
  start?: string;
  /** How long the CometD endpoint holds a connect with nothing to deliver (seconds). */
  connectTimeoutS?: number;
}

export interface Fault { status: number; body: unknown; headers: Record<string, string>; method?: string }

export type FakeOrgState = ReturnType<typeof createState>;

export interface FakeOrg {
  url: string;
  state: FakeOrgState;
  /** The streaming API (fake-org-cometd.ts): its retained change events and what clients asked of it. */
  cometd: Cometd;
  close(): Promise<void>;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** An 18-character id: the 15-character id and its case-safe suffix (one character per 5, from the capitals' bits). */
export function salesforceId(prefix: string, n: number): string {
  let counter = '';
  for (let v = n; counter.length < 10; v = Math.floor(v / 62)) counter = BASE62[v % 62] + counter;
  const id15 = `${prefix}5g${counter}`;
  let suffix = '';
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0;
    for (let i = 0; i < 5; i++) if (/[A-Z]/.test(id15[chunk * 5 + i])) bits |= 1 << i;
    suffix += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345'[bits];
  }
  return id15 + suffix;
}

/** Salesforce's JSON datetime: `2026-11-24T10:00:00.000+0000`. */
const sfDateTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');

function createState(options: FakeOrgOptions) {
  let clock = Date.parse(options.start ?? '2026-11-24T10:00:00Z');
  let seq = 0;
  const records = new Map<string, { object: string; row: Row }>();
  const state = {
    clientId: options.clientId ?? 'fake-client-id',
    clientSecret: options.clientSecret ?? 'fake-client-secret',
    username: options.username ?? 'integration@example.com',
    jwtPublicKey: options.jwtPublicKey ?? null,
    pageSize: options.pageSize ?? 2000,
    apiLimit: options.apiLimit ?? 15_000,
    apiUsage: 0,
    latencyMs: options.latencyMs ?? 0,
    /** Calls per endpoint: `token`, `query`, `queryMore`, `collections.update`, … */
    calls: {} as Record<string, number>,
    tokenRequests: 0,
    /** Every API request as received (method, path with query, headers). */
    requests: [] as { method: string; path: string; headers: http.IncomingHttpHeaders }[],
    sessions: new Set<string>(),
    /** Whose each session is (USERS). */
    sessionUsers: new Map<string, string>(),
    /** The web-server flow: codes given, refresh tokens (→ their user), authorize requests seen. */
    oauth: newOAuthBook(),
    /** The streaming endpoint answers 503 to everything (a dropped stream) while true. */
    streamDown: false,
    /** Publishes a change event (set by startFakeOrg once the streaming endpoint exists). */
    onChange: null as null | ((object: 'Contact' | 'Lead', type: 'CREATE' | 'UPDATE', id: string, fields: Record<string, unknown>, user: string, origin: string | null) => void),
    /** Every token given is refused by the API (a user without API access: the grant works, the calls do not). */
    refuseAllSessions: false,
    /** The sessions expire as the next sObject Collections update arrives: it is answered 401 INVALID_SESSION_ID. */
    expireAtNextWrite: false,
    faults: [] as Fault[],
    /** Open query cursors (locator → the answer's records and page size); `cursors.clear()` expires them. */
    cursors: new Map<string, { rows: Record<string, unknown>[]; size: number }>(),
    /** Ids whose next saves fail with FIELD_CUSTOM_VALIDATION_EXCEPTION. */
    rejectOnSave: new Set<string>(),
    rejectMessage: 'Mailing address must be complete',
    /** Fields the org does not have, or the run-as user cannot see (`Contact.CV_Email_Risk__c`): absent from describe, refused by queries and saves. */
    missingFields: new Set<string>(),
    /** Fields the run-as user can read but not edit (field-level security): `updateable: false` in describe, refused by saves. */
    readOnlyFields: new Set<string>(),

    now: () => new Date(clock),
    advance(ms: number) { clock += ms; },
    /** Creates `count` records, each `stepMs` (1 s) after the previous one; `make(i)` gives their fields. */
    seed(object: 'Contact' | 'Lead', count: number, make: (i: number) => Record<string, string | null | undefined> = () => ({}), stepMs = 1000) {
      const created: Row[] = [];
      for (let i = 0; i < count; i++) {
        clock += stepMs;
        const row: Row = { Id: salesforceId(SCHEMA[object].prefix, ++seq), CreatedDate: clock, SystemModstamp: clock, LastModifiedDate: clock };
        for (const name of Object.keys(SCHEMA[object].fields)) if (!(name in row)) row[name] = null;
        const fields = Object.entries(make(i)).filter(([, v]) => v !== undefined) as [string, string | null][];
        Object.assign(row, { LastName: `Person ${seq}` }, Object.fromEntries(fields));
        records.set(row.Id as string, { object, row });
        created.push(row);
      }
      return created;
    },
    /** A record of a set-up object (PermissionSet, …), as created through the API. */
    insert(object: string, fields: Row): Row {
      const row: Row = { Id: salesforceId(SCHEMA[object].prefix, ++seq), ...fields };
      records.set(row.Id as string, { object, row });
      return row;
    },
    /** Changes a record as a user would: its fields, then SystemModstamp and LastModifiedDate to the clock. */
    edit(id: string, fields: Record<string, string | null>) {
      const found = records.get(id);
      if (!found) throw new Error(`no record ${id}`);
      clock += 1000;
      Object.assign(found.row, fields, { SystemModstamp: clock, LastModifiedDate: clock });
    },
    /** A record as the API would give it (datetimes as Salesforce writes them). */
    get(id: string): Record<string, unknown> | undefined {
      const found = records.get(id);
      return found ? { attributes: { type: found.object }, ...present(found.row) } : undefined;
    },
    rows: (object: string) => [...records.values()].filter((r) => r.object === object).map((r) => r.row),
    record: (id: string) => records.get(id),
    /** Every access token stops working (the next API call gets 401 INVALID_SESSION_ID). */
    expireSessions() { state.sessions.clear(); },
    /** A new session of `user` (the admin's, to create and edit records through the REST API as a person would). */
    sessionOf(user: string) {
      const token = `00D5g000000FAKE!${crypto.randomBytes(24).toString('base64url')}`;
      state.sessions.add(token);
      state.sessionUsers.set(token, user);
      return token;
    },
    userOf(token: string): string | null {
      return state.sessions.has(token) && !state.refuseAllSessions ? state.sessionUsers.get(token) ?? USERS.integration : null;
    },
    /** Every access token stops working exactly when the next write-back (PATCH /composite/sobjects) arrives. */
    expireSessionsAtNextWrite() { state.expireAtNextWrite = true; },
    /** The next `count` API calls (of `method`, when given) get this answer instead. */
    failNext(count: number, status: number, body: unknown = defaultErrorBody(status), extra: { headers?: Record<string, string>; method?: string } = {}) {
      for (let i = 0; i < count; i++) state.faults.push({ status, body, headers: extra.headers ?? {}, method: extra.method });
    },
    count(endpoint: string) { state.calls[endpoint] = (state.calls[endpoint] ?? 0) + 1; },
  };
  return state;
}

function defaultErrorBody(status: number): unknown {
  if (status === 401) return [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }];
  if (status === 403) return [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }];
  if (status === 503) return [{ message: 'Server temporarily unavailable', errorCode: 'SERVER_UNAVAILABLE' }];
  if (status === 429) return [{ message: 'Too many requests', errorCode: 'REQUEST_LIMIT_EXCEEDED' }];
  return [{ message: `HTTP ${status}`, errorCode: 'UNKNOWN_EXCEPTION' }];
}

/** Fields kept as numbers (an address's latitude and longitude), not datetimes: by name, the same on every object. */
const DOUBLE_FIELDS = new Set(Object.values(SCHEMA).flatMap(({ fields }) => Object.keys(fields).filter((f) => fields[f].type === 'double')));

function present(row: Row): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'number' && !DOUBLE_FIELDS.has(k) ? sfDateTime(v) : v;
  return out;
}

export async function startFakeOrg(options: FakeOrgOptions = {}): Promise<FakeOrg> {
  const state = createState(options);
  let url = '';
  const cometd = createCometd({ userOf: (token) => state.userOf(token), connectTimeoutS: options.connectTimeoutS });
  state.onChange = (object, type, id, fields, user, origin) => {
    cometd.publish(object, type, [id], fields, user, state.now().getTime(), origin);
  };
  const server = http.createServer((req, res) => {
    if (/^\/cometd\//.test(req.url ?? '')) {
      state.count('cometd');
      if (state.streamDown) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
        return;
      }
      return cometd.handle(req, res);
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const send = () => {
          res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', ...headers });
          res.end(body === undefined ? undefined : typeof body === 'string' && headers['content-type']?.startsWith('text/') ? body : JSON.stringify(body));
        };
        if (state.latencyMs > 0) setTimeout(send, state.latencyMs); else send();
      };
      try {
        route(state, url, req, Buffer.concat(chunks).toString('utf8'), reply);
      } catch (err) {
        reply(500, [{ message: String(err), errorCode: 'UNKNOWN_EXCEPTION' }]);
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    cometd,
    close: () => new Promise<void>((resolve) => { cometd.close(); server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

function route(state: FakeOrgState, baseUrl: string, req: http.IncomingMessage, body: string, reply: Reply) {
  const url = new URL(req.url ?? '/', baseUrl);
  if (req.method === 'POST' && url.pathname === '/services/oauth2/token') return token(state, baseUrl, req, body, reply);
  if (url.pathname === '/services/oauth2/authorize') return authorize(state, req, url, body, reply);
  const api = /^\/services\/data\/v(\d+\.\d)(\/.*)$/.exec(url.pathname);
  if (!api) return reply(404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }]);
  state.requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers });

  if (state.expireAtNextWrite && req.method === 'PATCH' && api[2] === '/composite/sobjects') {
    state.expireAtNextWrite = false;
    state.sessions.clear();
  }
  const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
  if (!auth || !state.sessions.has(auth[1]) || state.refuseAllSessions) {
    return reply(401, defaultErrorBody(401));
  }
  if (state.apiUsage >= state.apiLimit) {
    return reply(403, [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }], limitInfo(state));
  }
  state.apiUsage++;
  const limitHeaders = limitInfo(state);
  const faultAt = state.faults.findIndex((f) => !f.method || f.method === req.method);
  if (faultAt >= 0) {
    const [fault] = state.faults.splice(faultAt, 1);
    state.count(`fault.${fault.status}`);
    return reply(fault.status, fault.body, { ...limitHeaders, ...fault.headers });
  }
  const version = api[1];
  const path = api[2];
  const answer = (status: number, b: unknown) => reply(status, b, limitHeaders);
  try {
    if (req.method === 'GET' && path === '/query') {
      state.count('query');
      return answer(200, query(state, version, url.searchParams.get('q') ?? '', req.headers['sforce-query-options']));
    }
    const more = /^\/query\/([\w]+-\d+)$/.exec(path);
    if (req.method === 'GET' && more) {
      state.count('queryMore');
      const page = nextPage(state, version, more[1]);
      return page ? answer(200, page) : answer(400, [{ message: 'invalid query locator', errorCode: 'INVALID_QUERY_LOCATOR' }]);
    }
    if (setupRoute(state, req.method ?? 'GET', path, body, answer)) return;
    const user = state.userOf(auth[1])!;
    const origin = /client=[\w-]+/.exec(String(req.headers['sforce-call-options'] ?? ''))?.[0] ?? null;
    if (req.method === 'PATCH' && path === '/composite/sobjects') {
      state.count('collections.update');
      return collectionsUpdate(state, body, answer, user, origin);
    }
    const created = /^\/sobjects\/(Contact|Lead)\/?$/.exec(path);
    if (req.method === 'POST' && created) {
      state.count('create');
      return createRecord(state, created[1] as 'Contact' | 'Lead', body, answer, user);
    }
    const updated = /^\/sobjects\/(Contact|Lead)\/(\w{18})$/.exec(path);
    if (req.method === 'PATCH' && updated) {
      state.count('update');
      const results = applyUpdates(state, [{ attributes: { type: updated[1] }, id: updated[2], ...JSON.parse(body || '{}') }], false, user, origin);
      return results[0].success ? reply(204, undefined, limitHeaders) : answer(400, results[0].errors.map((e) => ({ errorCode: e.statusCode, message: e.message, fields: e.fields })));
    }
    const described = /^\/sobjects\/(\w+)\/describe\/?$/.exec(path);
    if (req.method === 'GET' && described) {
      state.count('describe');
      const result = describe(state, version, described[1]);
      return result ? answer(200, result) : answer(404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }]);
    }
    state.count('other');
    return answer(404, [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }]);
  } catch (err) {
    if (err instanceof SoqlError) return answer(400, [{ message: err.message, errorCode: err.errorCode }]);
    throw err;
  }
}

const limitInfo = (state: FakeOrgState) => ({ 'Sforce-Limit-Info': `api-usage=${state.apiUsage}/${state.apiLimit}` });

function token(state: FakeOrgState, baseUrl: string, req: http.IncomingMessage, body: string, reply: Reply) {
  state.count('token');
  state.tokenRequests++;
  const form = new URLSearchParams(body);
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  const [basicId, basicSecret] = basic ? Buffer.from(basic[1], 'base64').toString().split(':') : [];
  const refuse = (error: string, description: string) => reply(400, { error, error_description: description });
  const grant = form.get('grant_type');
  let user: string | null = USERS.integration;
  let refreshToken: string | null = null;
  if (grant === 'client_credentials') {
    const id = form.get('client_id') ?? basicId, secret = form.get('client_secret') ?? basicSecret;
    if (id !== state.clientId || secret !== state.clientSecret) return refuse('invalid_client', 'invalid client credentials');
  } else if (grant === 'authorization_code' || grant === 'refresh_token') {
    const id = form.get('client_id') ?? basicId, secret = form.get('client_secret') ?? basicSecret;
    if (id !== state.clientId || (secret !== undefined && secret !== null && secret !== state.clientSecret)) return refuse('invalid_client', 'invalid client credentials');
    if (grant === 'refresh_token') {
      user = state.oauth.refreshTokens.get(form.get('refresh_token') ?? '') ?? null;
      if (!user) return refuse('invalid_grant', 'expired access/refresh token');
    } else {
      if (secret !== state.clientSecret) return refuse('invalid_client', 'invalid client credentials');
      const redeemed = redeemCode(state.oauth, form, Date.now());
      if ('error' in redeemed) return refuse(redeemed.error, redeemed.error_description);
      user = redeemed.user;
      refreshToken = `5Aep${crypto.randomBytes(32).toString('base64url')}`;
      state.oauth.refreshTokens.set(refreshToken, user);
    }
  } else if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
    const claims = verifyJwt(form.get('assertion') ?? '', state.jwtPublicKey);
    if (!claims || claims.iss !== state.clientId) return refuse('invalid_client', 'invalid client credentials');
    if (claims.sub !== state.username) return refuse('invalid_grant', 'user hasn\'t approved this consumer');
    if (claims.aud !== baseUrl && claims.aud !== `${baseUrl}/`) return refuse('invalid_grant', 'audience is invalid');
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return refuse('invalid_grant', 'expired authorization code');
  } else {
    return refuse('unsupported_grant_type', 'grant type not supported');
  }
  const accessToken = state.sessionOf(user);
  const issuedAt = String(Date.now());
  const id = `${baseUrl}/id/00D5g000000FAKEEAA/${user}`;
  reply(200, {
    access_token: accessToken, ...(refreshToken ? { refresh_token: refreshToken } : {}), instance_url: baseUrl, id,
    token_type: 'Bearer', issued_at: issuedAt, scope: refreshToken || grant === 'refresh_token' ? 'api refresh_token' : 'api',
    signature: crypto.createHmac('sha256', state.clientSecret).update(id + issuedAt).digest('base64'),
  });
}

/** The consent page (GET) and the user's answer (POST) of the web-server flow; the org's user is its admin. */
function authorize(state: FakeOrgState, req: http.IncomingMessage, url: URL, body: string, reply: Reply) {
  state.count('authorize');
  if (req.method === 'GET') {
    state.oauth.authorizeRequests.push(url.searchParams);
    const page = consentPage(url.searchParams, state.clientId, USERS.admin);
    return reply(page.status, page.html, { 'content-type': 'text/html;charset=UTF-8' });
  }
  const location = consentAnswer(state.oauth, new URLSearchParams(body), USERS.admin, Date.now());
  reply(302, '', { location, 'content-type': 'text/plain' });
}

/** POST /sobjects/{object}: a new record (REST API Developer Guide, "Create a Record"), and its CREATE change event. */
function createRecord(state: FakeOrgState, object: 'Contact' | 'Lead', body: string, answer: (status: number, b: unknown) => void, user: string) {
  let fields: Record<string, string | null>;
  try { fields = JSON.parse(body); } catch { return answer(400, [{ message: 'Unexpected character', errorCode: 'JSON_PARSER_ERROR' }]); }
  for (const name of Object.keys(fields)) {
    try { fieldName(object, name); } catch { return answer(400, [{ message: `No such column '${name}' on sobject of type ${object}`, errorCode: 'INVALID_FIELD' }]); }
  }
  const [row] = state.seed(object, 1, () => fields);
  state.onChange?.(object, 'CREATE', row.Id as string, present(row), user, null);
  answer(201, { id: row.Id, success: true, errors: [] });
}

function verifyJwt(assertion: string, publicKey: string | null): Record<string, unknown> | null {
  const parts = assertion.split('.');
  if (parts.length !== 3 || !publicKey) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString());
    if (header.alg !== 'RS256') return null;
    const ok = crypto.verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'));
    return ok ? JSON.parse(Buffer.from(parts[1], 'base64url').toString()) : null;
  } catch {
    return null;
  }
}

/**
 * GET /sobjects/{object}/describe (REST API Developer Guide, "Get Field and Other Metadata for an Object"): the object's
 * DescribeSObjectResult, its fields as the run-as user sees them (a field it cannot see is absent; one it cannot edit
 * is `updateable: false`).
 */
function describe(state: FakeOrgState, version: string, name: string) {
  const object = Object.keys(SCHEMA).find((o) => o === name);
  if (!object) return null;
  const fields = Object.entries(SCHEMA[object].fields)
    .filter(([field]) => !state.missingFields.has(`${object}.${field}`))
    .map(([field, def]) => {
      const editable = def.updateable && !state.readOnlyFields.has(`${object}.${field}`);
      return {
        name: field, label: field.replace(/__c$/, '').replace(/_/g, ' '), type: def.picklist ? 'picklist' : def.type, length: def.length ?? 0,
        picklistValues: (def.picklist ?? []).map((v) => ({ active: true, defaultValue: false, label: v, value: v })),
        restrictedPicklist: Boolean(def.picklist),
        custom: field.endsWith('__c'), createable: editable, updateable: editable, nillable: def.type !== 'id',
        defaultValue: null, calculated: false, filterable: true, sortable: true,
      };
    });
  return {
    name: object, label: object, labelPlural: `${object}s`, keyPrefix: SCHEMA[object].prefix, custom: false,
    createable: true, updateable: true, deletable: true, queryable: true, retrieveable: true, searchable: true,
    fields, childRelationships: [], recordTypeInfos: [],
    urls: { sobject: `/services/data/v${version}/sobjects/${object}`, describe: `/services/data/v${version}/sobjects/${object}/describe` },
  };
}

function query(state: FakeOrgState, version: string, soql: string, queryOptions: string | string[] | undefined) {
  const q = parseSoql(soql);
  const gone = q.fields.find((f) => state.missingFields.has(`${q.object}.${f}`));
  if (gone) throw new SoqlError('INVALID_FIELD', `No such column '${gone}' on entity '${q.object}'.`);
  let rows = state.rows(q.object).filter((r) => matches(r, q.where)).sort(compareBy(q.orderBy));
  if (q.limit !== null) rows = rows.slice(0, q.limit);
  const batch = /batchSize=(\d+)/.exec(String(queryOptions ?? ''));
  // Salesforce takes a batchSize from 200 to 2000, as a hint.
  const size = batch ? Math.min(2000, Math.max(200, Number(batch[1]))) : state.pageSize;
  // The answer is fixed when the query runs: later edits do not move records between pages.
  const snapshot = rows.map((r) => {
    const values = present(r);
    const out: Record<string, unknown> = { attributes: { type: q.object, url: `/services/data/v${version}/sobjects/${q.object}/${r.Id}` } };
    for (const f of q.fields) out[f] = values[f];
    return out;
  });
  const locator = `01g5g${crypto.randomBytes(6).toString('hex')}`;
  state.cursors.set(locator, { rows: snapshot, size });
  return page(state, version, locator, 0);
}

function page(state: FakeOrgState, version: string, locator: string, offset: number) {
  const cursor = state.cursors.get(locator)!;
  const done = offset + cursor.size >= cursor.rows.length;
  const records = cursor.rows.slice(offset, offset + cursor.size);
  if (done) state.cursors.delete(locator);
  return {
    totalSize: cursor.rows.length,
    done,
    ...(done ? {} : { nextRecordsUrl: `/services/data/v${version}/query/${locator}-${offset + cursor.size}` }),
    records,
  };
}

function nextPage(state: FakeOrgState, version: string, locatorWithOffset: string) {
  const [locator, offset] = locatorWithOffset.split('-');
  return state.cursors.has(locator) ? page(state, version, locator, Number(offset)) : null;
}

function collectionsUpdate(state: FakeOrgState, body: string, answer: (status: number, b: unknown) => void, user: string, origin: string | null) {
  let payload: { allOrNone?: boolean; records?: Record<string, unknown>[] };
  try { payload = JSON.parse(body); } catch { return answer(400, [{ message: 'Unexpected character', errorCode: 'JSON_PARSER_ERROR' }]); }
  const input = payload.records ?? [];
  if (input.length > 200) {
    return answer(400, [{ message: 'record limit reached. cannot submit more than 200 records into this call', errorCode: 'EXCEEDED_ID_LIMIT' }]);
  }
  answer(200, applyUpdates(state, input, payload.allOrNone ?? false, user, origin));
}

type SaveResult = { id: string | null; success: boolean; errors: { statusCode: string; message: string; fields?: string[] }[] };

/** Saves records' changes (all or none, or each on its own), each save an UPDATE change event committed by `user`. */
function applyUpdates(state: FakeOrgState, input: Record<string, unknown>[], allOrNone: boolean, user: string, origin: string | null): SaveResult[] {
  const results = input.map((rec) => {
    const { attributes, id, ...fields } = rec as { attributes?: { type?: string }; id?: string } & Record<string, unknown>;
    const fail = (statusCode: string, message: string, f: string[] = []) =>
      ({ id: id ?? null, success: false, errors: [{ statusCode, message, fields: f }] });
    const found = id ? state.record(id) : undefined;
    if (!found || (attributes?.type && attributes.type !== found.object)) return fail('INVALID_CROSS_REFERENCE_KEY', 'invalid cross reference id');
    const changes: Row = {};
    for (const [name, value] of Object.entries(fields)) {
      let canonical: string;
      try { canonical = fieldName(found.object, name); } catch { return fail('INVALID_FIELD', `No such column '${name}' on sobject of type ${found.object}`); }
      const def = SCHEMA[found.object].fields[canonical];
      const qualified = `${found.object}.${canonical}`;
      if (state.missingFields.has(qualified)) return fail('INVALID_FIELD', `No such column '${name}' on sobject of type ${found.object}`);
      if (!def.updateable || state.readOnlyFields.has(qualified)) return fail('INVALID_FIELD_FOR_INSERT_UPDATE', `Unable to create/update fields: ${canonical}.`, [canonical]);
      if (def.type === 'datetime' && value !== null) {
        const ms = Date.parse(String(value));
        if (Number.isNaN(ms)) return fail('INVALID_TYPE_ON_FIELD_IN_RECORD', `${canonical}: value not of required type: ${value}`, [canonical]);
        changes[canonical] = ms;
      } else if (def.type === 'double') {
        if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
          return fail('INVALID_TYPE_ON_FIELD_IN_RECORD', `${canonical}: value not of required type: ${value}`, [canonical]);
        }
        changes[canonical] = value;
      } else {
        if (value !== null && typeof value !== 'string') return fail('INVALID_TYPE_ON_FIELD_IN_RECORD', `${canonical}: value not of required type`, [canonical]);
        if (value && def.picklist && !def.picklist.includes(value)) {
          return fail('INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST', `${def.label ?? canonical}: bad value for restricted picklist field: ${value}`, [canonical]);
        }
        if (value && def.length && value.length > def.length) {
          return fail('STRING_TOO_LONG', `${canonical}: data value too large: ${value.slice(0, 40)}`, [canonical]);
        }
        changes[canonical] = value === '' ? null : value;
      }
    }
    if (state.rejectOnSave.has(found.row.Id as string)) return fail('FIELD_CUSTOM_VALIDATION_EXCEPTION', state.rejectMessage);
    return { id: found.row.Id as string, success: true, errors: [] as SaveResult['errors'], apply: () => { Object.assign(found.row, changes); return changes; } };
  });
  const failed = results.some((r) => !r.success);
  if (allOrNone && failed) {
    return results.map((r) => r.success
      ? { id: r.id, success: false, errors: [{ statusCode: 'ALL_OR_NONE_OPERATION_ROLLED_BACK', message: 'Record rolled back because not all records were valid and the request was using AllOrNone header', fields: [] }] }
      : r as SaveResult);
  }
  state.advance(1000);
  const now = state.now().getTime();
  return results.map((r) => {
    if ('apply' in r && r.apply) {
      const changed = r.apply();
      const found = state.record(r.id)!;
      found.row.SystemModstamp = now;
      found.row.LastModifiedDate = now;
      state.onChange?.(found.object as 'Contact' | 'Lead', 'UPDATE', r.id, present(changed), user, origin);
      return { id: r.id, success: true, errors: [] };
    }
    return r as SaveResult;
  });
}
