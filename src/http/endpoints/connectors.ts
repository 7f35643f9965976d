/**
 * Connectors (docs/connectors.md): create, list, read, change, delete, check, start a run, list runs. Credentials are
 * write-only: no answer carries them. Another account's connector answers 404, exactly like a missing one.
 * In the description, the create body is the core's own schema with each plugin's settings, credentials and write-back
 * schemas in place of its open records (one variant per platform: `connectorSchemas`).
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { pageAnswer, pageMembers, pageOf, pageQuery } from './list-page.js';
import type { ConnectorRow, ConnectorStatus, RunStatus } from '../../sync/connector-store.js';
import { ConnectorInvalid, createSchema, patchSchema, PlatformAccountTaken, type Connectors } from '../../sync/connectors.js';
import type { CheckProblemCode, ConnectorFailureReason, ConnectorPlugin } from '../../sync/plugin.js';
import { SecretKeyMissing } from '../../sync/secrets.js';
import { jsonBody } from '../middleware/json-body.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { accountOf, endpoint, enumOf, json, noStore } from './endpoint.js';

export const CONNECTOR_STATUSES = enumOf<ConnectorStatus>()(['active', 'paused', 'error']);
export const RUN_STATUSES = enumOf<RunStatus>()(['running', 'completed', 'failed', 'paused']);
type StopReason = ConnectorFailureReason | 'credits_exhausted' | 'uninstalled' | 'credit_cap_reached';
export const STOP_REASONS = enumOf<StopReason>()(['credits_exhausted', 'auth_failed', 'rate_limited', 'api_error', 'uninstalled', 'credit_cap_reached']);
/** A connector's own pause beside its runs' reasons: its shop kept by an older connector, or claimed by an install. */
export const CONNECTOR_REASONS = [...STOP_REASONS, 'shop_already_connected', 'shop_claimed'] as const;
export const RUN_TRIGGERS = ['schedule', 'api', 'cli', 'webhook', 'dashboard', 'stream_dropped', 'email_check'] as const;

const isoTime = z.iso.datetime();
const count = z.int().min(0);

export const runSchema = z.object({
  run_id: z.string(),
  status: z.enum(RUN_STATUSES),
  reason: z.enum(STOP_REASONS).nullable().describe('Why a run failed or paused'),
  message: z.string().nullable().describe("The platform's own words, for the operator"),
  triggered_by: z.enum(RUN_TRIGGERS),
  started_at: isoTime,
  finished_at: isoTime.nullable(),
  records_read: count.describe('Distinct records read'),
  records_validated: count,
  records_written: count,
  records_skipped: count.describe('Records whose checked fields did not change: free'),
  records_failed: count,
  credits_charged: count,
  errors: z.array(z.object({ key: z.string(), error: z.string() })).describe("Per record, the platform's reason"),
});

/** A real-time connector's change stream, as the admin sees it. */
export const connectorStreamSchema = z.object({
  status: z.enum(['listening', 'dropped', 'starting', 'stopped']).describe(
    '`listening`: an instance is subscribed to the change events; `dropped`: the stream broke (a catch-up run reads ' +
    'what was missed, and the stream is taken again from the kept position); `starting`: no instance has subscribed ' +
    'yet; `stopped`: the connector is not active',
  ),
  detail: z.string().nullable().describe("While `dropped`, the platform's reason"),
});

export const connectorSchema = z.object({
  connector_id: z.string(),
  type: z.string().describe('The platform: one of the create body variants'),
  name: z.string(),
  status: z.enum(CONNECTOR_STATUSES),
  reason: z.enum(CONNECTOR_REASONS).nullable(),
  reason_detail: z.string().nullable(),
  schedule: z.string().describe('A cron expression'),
  settings: z.record(z.string(), z.unknown()).describe("The platform's settings, defaults filled in"),
  write_back: z.record(z.string(), z.unknown()),
  policy: z.string().nullable().describe(
    "The policy every answer's `next_action` follows, and so the next action each plugin writes beside the statuses: a preset or one of the account's (docs/api.md#policies); null: the fixed table",
  ),
  watermark: z.record(z.string(), z.unknown()).describe('Where reading stopped, per stream; opaque'),
  credit_cap_monthly: z.int().min(1).nullable().describe("What the connector's records may take each calendar month (UTC); null: no cap"),
  credits_this_month: count.describe("What the connector's records took this calendar month (UTC)"),
  last_run: runSchema.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  realtime: connectorStreamSchema.nullable().describe('The change stream of a connector with `settings.realtime` (a platform\'s change stream, such as Change Data Capture); null without real time'),
});

export const connectorListSchema = z.object({ connectors: z.array(connectorSchema) });
export const runListSchema = z.object({ runs: z.array(runSchema).describe('Newest first, a page (docs/api.md#lists)'), ...pageMembers });
export const runStartedSchema = z.object({ run_id: z.string() });

export const CHECK_PROBLEM_CODES = enumOf<CheckProblemCode>()([
  'credentials_missing', 'credentials_refused', 'platform_unreachable', 'outbound_refused', 'object_not_accessible',
  'field_missing', 'field_not_writable', 'scope_missing', 'webhook_refused',
]);
export const connectorCheckSchema = z.object({
  ok: z.boolean().describe('No problem keeps the connector from running (warnings may remain)'),
  problems: z.array(z.object({
    code: z.enum(CHECK_PROBLEM_CODES),
    message: z.string().describe('What is wrong, naming the fields, scopes or topics concerned'),
    fix: z.string().optional().describe('What to do about it'),
    severity: z.enum(['warning']).optional().describe(
      '`warning`: runs work, but something optional is not written (a field a newer version writes that the platform lacks: written once it is there); absent: the problem keeps runs from working',
    ),
  })),
});

const title = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);

/** One create body per platform: the core's schema with the plugin's own schemas for its open records. */
function createBodyOf(plugin: ConnectorPlugin<unknown, unknown, unknown>) {
  return createSchema.extend({
    type: z.literal(plugin.type),
    settings: plugin.settingsSchema,
    credentials: plugin.credentialsSchema,
    write_back: plugin.writeBackSchema.optional(),
  });
}

export function connectorSchemas(plugins: ConnectorPlugin<unknown, unknown, unknown>[]) {
  const bodies = plugins.map((plugin) => [plugin, createBodyOf(plugin)] as const);
  // The first plugin that gives a check example (its words are a platform's: the description shows one).
  const checkExample = plugins.map((p) => p.presentation?.examples?.check).find(Boolean);
  const [first, ...rest] = bodies.map(([, body]) => body);
  const createBody = rest.length ? z.union([first, ...rest]) : first;
  const components: Component[] = [
    ...bodies.flatMap(([plugin, body]): Component[] => [
      [plugin.settingsSchema, { id: `${title(plugin.type)}Settings` }],
      [plugin.credentialsSchema, { id: `${title(plugin.type)}Credentials`, description: 'Write-only: stored encrypted, never returned' }],
      [plugin.writeBackSchema, { id: `${title(plugin.type)}WriteBack` }],
      [body, { id: `Create${title(plugin.type)}Connector`, ...(plugin.presentation?.examples?.create ? { examples: [plugin.presentation.examples.create] } : {}) }],
    ]),
    ...(rest.length ? [[createBody, { id: 'CreateConnectorRequest', description: 'One variant per platform, told by `type`' }] as Component] : []),
    [patchSchema, {
      id: 'ConnectorPatch',
      description: "`settings`, `credentials` and `write_back` follow the connector's platform schemas; new credentials clear an `auth_failed` error.",
      examples: [{ status: 'paused' }],
    }],
    [runSchema, { id: 'ConnectorRun' }],
    [connectorStreamSchema, { id: 'ConnectorStream' }],
    [connectorSchema, { id: 'Connector' }],
    [connectorListSchema, { id: 'ConnectorList' }],
    [runListSchema, { id: 'ConnectorRunList' }],
    [runStartedSchema, { id: 'RunStarted' }],
    [connectorCheckSchema, {
      id: 'ConnectorCheck',
      ...(checkExample ? { examples: [checkExample] } : {}),
    }],
  ];
  /** The description shows the core's create schema as the plugins' variants. */
  return { components, substitutes: new Map<z.ZodType, z.ZodType>([[createSchema, createBody]]) };
}

const connectorId = z.object({ connector_id: z.string().describe('The connector') });
const BODY_PROBLEMS = ['invalid-json', 'invalid-request', 'payload-too-large', 'unsupported-media-type'] as const;
/** The body is the use case's to read: it checks it against the platform's own schemas. */
const readJson = () => [jsonBody()];

/** The use case's refusals as problems: field errors 400, a shop already connected 409, no key to seal credentials with 503. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ConnectorInvalid) {
      throw new Problem('invalid-request', err.message.slice(0, 500), { errors: err.errors });
    }
    if (err instanceof PlatformAccountTaken) {
      throw new Problem('shop-already-connected', err.message, err.connectorId ? { connector_id: err.connectorId } : {});
    }
    if (err instanceof SecretKeyMissing) throw new Problem('connectors-not-configured', err.message);
    throw err;
  }
}

/** The account's own connector named in the path, or 404. */
async function own(connectors: Connectors, req: Request, res: Response): Promise<ConnectorRow> {
  const connector = await connectors.get(accountOf(res), String(req.params.id));
  if (!connector) throw new Problem('not-found', 'No such connector on this account.');
  return connector;
}

export const connectorEndpoints = [
  endpoint({
    method: 'post', path: '/v1/connectors', security: 'secret', operationId: 'createConnector', tag: 'Connectors',
    summary: 'Connect a CRM or a store',
    description:
      'Every URL the connector will call must be https on a public address. Credentials are sealed with ' +
      'CONNECTOR_SECRET_KEY (503 while it is not set) and never returned. One shop has one connector: a shop ' +
      'that a connector (of any account) already connects answers 409 `shop-already-connected`: its account ' +
      'disconnects it first, or, when that connector no longer reaches the shop, the app\'s OAuth install moves it to your account.',
    request: { content: { required: true, content: json(createSchema) } },
    responses: {
      201: {
        description: 'The connector',
        content: json(connectorSchema),
        headers: { Location: { description: '`/v1/connectors/{connector_id}`', schema: z.string() } },
      },
    },
    problems: [...BODY_PROBLEMS, 'connectors-not-configured', 'shop-already-connected'],
    before: readJson,
    handler: async ({ req, res, deps }) => {
      const created = await answering(() => deps.connectors.create(accountOf(res), req.body));
      res.status(201).location(`/v1/connectors/${created.connector_id}`).json(created);
    },
  }),
  endpoint({
    method: 'get', path: '/v1/connectors', security: 'secret', operationId: 'listConnectors', tag: 'Connectors',
    summary: "The account's connectors",
    responses: { 200: { description: 'The connectors', content: json(connectorListSchema), headers: noStore } },
    problems: [],
    handler: async ({ res, deps }) => {
      res.set('Cache-Control', 'no-store').json({ connectors: await deps.connectors.list(accountOf(res)) });
    },
  }),
  endpoint({
    method: 'get', path: '/v1/connectors/{connector_id}', security: 'secret', operationId: 'getConnector', tag: 'Connectors',
    summary: 'A connector, with its status, last run and watermark',
    description: "Another account's connector answers 404, exactly like a missing one.",
    request: { params: connectorId },
    responses: { 200: { description: 'The connector', content: json(connectorSchema), headers: noStore } },
    problems: ['not-found'],
    handler: async ({ req, res, deps: { connectors } }) => {
      res.set('Cache-Control', 'no-store').json(await connectors.view(await own(connectors, req, res)));
    },
  }),
  endpoint({
    method: 'patch', path: '/v1/connectors/{connector_id}', security: 'secret', operationId: 'updateConnector', tag: 'Connectors',
    summary: 'Pause, resume or change a connector',
    request: { params: connectorId, content: { required: true, content: json(patchSchema) } },
    responses: { 200: { description: 'The connector, changed', content: json(connectorSchema) } },
    problems: [...BODY_PROBLEMS, 'not-found', 'connectors-not-configured', 'shop-already-connected'],
    before: readJson,
    handler: async ({ req, res, deps: { connectors } }) => {
      const connector = await own(connectors, req, res);
      res.json(await answering(() => connectors.update(connector, req.body)));
    },
  }),
  endpoint({
    method: 'delete', path: '/v1/connectors/{connector_id}', security: 'secret', operationId: 'deleteConnector', tag: 'Connectors',
    summary: 'Delete a connector, its runs and record hashes',
    request: { params: connectorId },
    responses: { 204: { description: 'Deleted' } },
    problems: ['not-found'],
    handler: async ({ req, res, deps }) => {
      if (!(await deps.connectors.delete(accountOf(res), String(req.params.id)))) {
        throw new Problem('not-found', 'No such connector on this account.');
      }
      res.status(204).end();
    },
  }),
  endpoint({
    method: 'post', path: '/v1/connectors/{connector_id}/runs', security: 'secret', operationId: 'startConnectorRun', tag: 'Connectors',
    summary: 'Start a run now',
    request: { params: connectorId },
    responses: {
      202: {
        description: 'The run, started',
        content: json(runStartedSchema),
        headers: { Location: { description: '`/v1/connectors/{connector_id}/runs`', schema: z.string() } },
      },
    },
    problems: ['not-found', 'connector-busy', 'connectors-not-configured'],
    handler: async ({ req, res, deps }) => {
      const connector = await own(deps.connectors, req, res);
      const started = await answering(() => deps.connectorRuns.start(connector, 'api', { resumePaused: true }));
      if (!started) throw new Problem('connector-busy', 'A run of this connector is in progress.');
      res.status(202).location(`/v1/connectors/${connector.id}/runs`).json({ run_id: started.runId });
    },
  }),
  // Credentials, fields, permissions and webhooks, before a first run: 200 whatever it finds (the problems are the answer).
  endpoint({
    method: 'post', path: '/v1/connectors/{connector_id}/check', security: 'secret', operationId: 'checkConnector', tag: 'Connectors',
    summary: 'Check a connector before its first run',
    description:
      'Signs in to the platform and finds what would keep a run from reading or writing: refused credentials, ' +
      'missing or read-only fields (the verdict fields the plugin writes, their field-level security), missing access scopes, ' +
      'and webhooks the platform refuses (subscribed, as each run does, when PUBLIC_BASE_URL is set). Every ' +
      'problem at once, each with what to do; 200 whatever it finds. Free of credits.',
    request: { params: connectorId },
    responses: { 200: { description: 'The problems found, none when `ok`', content: json(connectorCheckSchema), headers: noStore } },
    problems: ['not-found', 'connectors-not-configured'],
    handler: async ({ req, res, deps }) => {
      const connector = await own(deps.connectors, req, res);
      res.set('Cache-Control', 'no-store').json(await answering(() => deps.connectorRuns.check(connector)));
    },
  }),
  endpoint({
    method: 'get', path: '/v1/connectors/{connector_id}/runs', security: 'secret', operationId: 'listConnectorRuns', tag: 'Connectors',
    summary: "A connector's runs, newest first",
    request: { params: connectorId, query: pageQuery(50) },
    responses: { 200: { description: 'The runs', content: json(runListSchema), headers: noStore } },
    problems: ['not-found', 'invalid-request'],
    handler: async ({ req, res, query, deps: { connectors } }) => {
      const connector = await own(connectors, req, res);
      const page = await connectors.runs(connector.id, pageOf(query));
      res.set('Cache-Control', 'no-store').json({ runs: page.items, ...pageAnswer(page, (r) => r.run_id) });
    },
  }),
];
