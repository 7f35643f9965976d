/**
 * The connector endpoints in the OpenAPI description: the create body is the core's own schema with each plugin's
 * settings, credentials and write-back schemas in place of its open records (one variant per platform), the views
 * as the routes send them.
 */
import { z } from 'zod';
import type { ConnectorStatus, RunStatus } from '../../sync/connector-store.js';
import { createSchema, patchSchema } from '../../sync/connectors.js';
import type { CheckProblemCode, ConnectorFailureReason, ConnectorPlugin } from '../../sync/plugin.js';
import { enumOf, type Component, type Operation, type Parameter } from './operation.js';

export const CONNECTOR_STATUSES = enumOf<ConnectorStatus>()(['active', 'paused', 'error']);
export const RUN_STATUSES = enumOf<RunStatus>()(['running', 'completed', 'failed', 'paused']);
type StopReason = ConnectorFailureReason | 'credits_exhausted' | 'uninstalled';
export const STOP_REASONS = enumOf<StopReason>()(['credits_exhausted', 'auth_failed', 'rate_limited', 'api_error', 'uninstalled']);
/** A connector's own pause beside its runs' reasons: its shop kept by an older connector, or claimed by an install. */
export const CONNECTOR_REASONS = [...STOP_REASONS, 'shop_already_connected', 'shop_claimed'] as const;
export const RUN_TRIGGERS = ['schedule', 'api', 'cli', 'webhook'] as const;

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
  watermark: z.record(z.string(), z.unknown()).describe('Where reading stopped, per stream; opaque'),
  last_run: runSchema.nullable(),
  created_at: isoTime,
  updated_at: isoTime,
});

export const connectorListSchema = z.object({ connectors: z.array(connectorSchema) });
export const runListSchema = z.object({ runs: z.array(runSchema).describe('Newest first') });
export const runStartedSchema = z.object({ run_id: z.string() });

export const CHECK_PROBLEM_CODES = enumOf<CheckProblemCode>()([
  'credentials_missing', 'credentials_refused', 'platform_unreachable', 'outbound_refused', 'object_not_accessible',
  'field_missing', 'field_not_writable', 'scope_missing', 'webhook_refused',
]);
export const connectorCheckSchema = z.object({
  ok: z.boolean().describe('No problem found: the connector can run'),
  problems: z.array(z.object({
    code: z.enum(CHECK_PROBLEM_CODES),
    message: z.string().describe('What is wrong, naming the fields, scopes or topics concerned'),
    fix: z.string().optional().describe('What to do about it'),
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

const SALESFORCE_EXAMPLE = {
  type: 'salesforce', name: 'Production org', schedule: '*/15 * * * *',
  settings: { login_url: 'https://acme.my.salesforce.com', api_version: '62.0', objects: ['Contact', 'Lead'] },
  credentials: { client_id: '3MVG9…', client_secret: '…' },
  write_back: { overwrite_address: false },
};

export function connectorSchemas(plugins: ConnectorPlugin<unknown, unknown, unknown>[]) {
  const bodies = plugins.map((plugin) => [plugin, createBodyOf(plugin)] as const);
  const [first, ...rest] = bodies.map(([, body]) => body);
  const createBody = rest.length ? z.union([first, ...rest]) : first;
  const components: Component[] = [
    ...bodies.flatMap(([plugin, body]): Component[] => [
      [plugin.settingsSchema, { id: `${title(plugin.type)}Settings` }],
      [plugin.credentialsSchema, { id: `${title(plugin.type)}Credentials`, description: 'Write-only: stored encrypted, never returned' }],
      [plugin.writeBackSchema, { id: `${title(plugin.type)}WriteBack` }],
      [body, { id: `Create${title(plugin.type)}Connector`, ...(plugin.type === 'salesforce' ? { examples: [SALESFORCE_EXAMPLE] } : {}) }],
    ]),
    ...(rest.length ? [[createBody, { id: 'CreateConnectorRequest', description: 'One variant per platform, told by `type`' }] as Component] : []),
    [patchSchema, {
      id: 'ConnectorPatch',
      description: "`settings`, `credentials` and `write_back` follow the connector's platform schemas; new credentials clear an `auth_failed` error.",
      examples: [{ status: 'paused' }],
    }],
    [runSchema, { id: 'ConnectorRun' }],
    [connectorSchema, { id: 'Connector' }],
    [connectorListSchema, { id: 'ConnectorList' }],
    [runListSchema, { id: 'ConnectorRunList' }],
    [runStartedSchema, { id: 'RunStarted' }],
    [connectorCheckSchema, {
      id: 'ConnectorCheck',
      examples: [{ ok: false, problems: [{
        code: 'field_missing', message: 'Contact has no Contact.CV_Email_Risk__c, Contact.CV_Phone_Carrier__c (or the run-as user cannot see it).',
        fix: 'Deploy connectors/salesforce/metadata to the org (sf project deploy start --manifest package.xml) and assign the permission set Contact_Validator_Integration to the run-as user.',
      }] }],
    }],
  ];
  return { components, operations: connectorOperations(createBody) };
}

const connectorId: Parameter = { name: 'connector_id', in: 'path', required: true, schema: z.string(), description: 'The connector' };
const json = (schema: z.ZodType) => ({ 'application/json': { schema } });
const noStore = { 'Cache-Control': { description: '`no-store`', schema: z.string() } };
const BODY_PROBLEMS = ['invalid-json', 'invalid-request', 'payload-too-large', 'unsupported-media-type'] as const;

function connectorOperations(createBody: z.ZodType): Operation[] {
  return [
    {
      method: 'post', path: '/v1/connectors', operationId: 'createConnector', tag: 'Connectors', auth: 'key',
      summary: 'Connect a CRM or a store',
      description:
        'Every URL the connector will call must be https on a public address. Credentials are sealed with ' +
        'CONNECTOR_SECRET_KEY (503 while it is not set) and never returned. One shop has one connector: a shop ' +
        'that a connector (of any account) already connects answers 409 `shop-already-connected`; the app\'s OAuth ' +
        'install proves the shop is yours and moves it to your account.',
      requestBody: { required: true, content: json(createBody) },
      responses: {
        201: {
          description: 'The connector',
          content: json(connectorSchema),
          headers: { Location: { description: '`/v1/connectors/{connector_id}`', schema: z.string() } },
        },
      },
      problems: [...BODY_PROBLEMS, 'connectors-not-configured', 'shop-already-connected'],
    },
    {
      method: 'get', path: '/v1/connectors', operationId: 'listConnectors', tag: 'Connectors', auth: 'key',
      summary: "The account's connectors",
      responses: { 200: { description: 'The connectors', content: json(connectorListSchema), headers: noStore } },
      problems: [],
    },
    {
      method: 'get', path: '/v1/connectors/{connector_id}', operationId: 'getConnector', tag: 'Connectors', auth: 'key',
      summary: 'A connector, with its status, last run and watermark',
      description: "Another account's connector answers 404, exactly like a missing one.",
      parameters: [connectorId],
      responses: { 200: { description: 'The connector', content: json(connectorSchema), headers: noStore } },
      problems: ['not-found'],
    },
    {
      method: 'patch', path: '/v1/connectors/{connector_id}', operationId: 'updateConnector', tag: 'Connectors', auth: 'key',
      summary: 'Pause, resume or change a connector',
      parameters: [connectorId],
      requestBody: { required: true, content: json(patchSchema) },
      responses: { 200: { description: 'The connector, changed', content: json(connectorSchema) } },
      problems: [...BODY_PROBLEMS, 'not-found', 'connectors-not-configured', 'shop-already-connected'],
    },
    {
      method: 'delete', path: '/v1/connectors/{connector_id}', operationId: 'deleteConnector', tag: 'Connectors', auth: 'key',
      summary: 'Delete a connector, its runs and record hashes',
      parameters: [connectorId],
      responses: { 204: { description: 'Deleted' } },
      problems: ['not-found'],
    },
    {
      method: 'post', path: '/v1/connectors/{connector_id}/runs', operationId: 'startConnectorRun', tag: 'Connectors', auth: 'key',
      summary: 'Start a run now',
      parameters: [connectorId],
      responses: {
        202: {
          description: 'The run, started',
          content: json(runStartedSchema),
          headers: { Location: { description: '`/v1/connectors/{connector_id}/runs`', schema: z.string() } },
        },
      },
      problems: ['not-found', 'connector-busy', 'connectors-not-configured'],
    },
    {
      method: 'post', path: '/v1/connectors/{connector_id}/check', operationId: 'checkConnector', tag: 'Connectors', auth: 'key',
      summary: 'Check a connector before its first run',
      description:
        'Signs in to the platform and finds what would keep a run from reading or writing: refused credentials, ' +
        'missing or read-only fields (Salesforce: the CV_*__c fields, field-level security), missing access scopes ' +
        '(Shopify), and webhooks Shopify refuses (subscribed, as each run does, when PUBLIC_BASE_URL is set). Every ' +
        'problem at once, each with what to do; 200 whatever it finds. Free of credits.',
      parameters: [connectorId],
      responses: { 200: { description: 'The problems found, none when `ok`', content: json(connectorCheckSchema), headers: noStore } },
      problems: ['not-found', 'connectors-not-configured'],
    },
    {
      method: 'get', path: '/v1/connectors/{connector_id}/runs', operationId: 'listConnectorRuns', tag: 'Connectors', auth: 'key',
      summary: "A connector's runs, newest first",
      parameters: [connectorId],
      responses: { 200: { description: 'The runs', content: json(runListSchema), headers: noStore } },
      problems: ['not-found'],
    },
  ];
}
