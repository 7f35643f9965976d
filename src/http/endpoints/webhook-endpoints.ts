/**
 * Outgoing webhooks (docs/webhooks.md): an account's endpoints (the signing secret in the create answer only), their
 * delivery logs, and a redelivery now. Another account's endpoint or delivery answers 404, exactly like a missing one.
 */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { pageAnswer, pageMembers, pageOf, pageQuery } from './list-page.js';
import { SecretKeyMissing } from '../../kit/secrets.js';
import type { DeliveryStatus } from '../../webhooks/delivery-log.js';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events.js';
import { WebhookEndpointInvalid } from '../../webhooks/webhooks.js';
import type { Component } from '../openapi/components.js';
import { Problem } from '../problems.js';
import { accountOf, endpoint, enumOf, json, noStore, type EndpointDeps } from './endpoint.js';

const isoTime = z.iso.datetime();

export const newWebhookEndpointSchema = z.object({
  url: z.string().max(2048).describe('https on a public address; the deliveries are POSTed there'),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length).describe('The events to receive'),
}).strict();

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  created_at: isoTime,
});

export const createdWebhookEndpointSchema = webhookEndpointSchema.extend({
  secret: z.string().regex(/^whsec_[0-9A-Za-z_-]+$/).describe(
    'The signing secret, shown this once: `Contact-Validator-Signature` is the HMAC-SHA256 of `<t>.<raw body>` under it',
  ),
});

export const webhookEndpointListSchema = z.object({ webhook_endpoints: z.array(webhookEndpointSchema).describe('Newest first') });

export const DELIVERY_STATUSES = enumOf<DeliveryStatus>()(['pending', 'succeeded', 'failed']);

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string().describe('The `id` of the body sent: the same for every attempt, and every endpoint'),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(DELIVERY_STATUSES).describe('`pending`: not yet delivered, tried again at `next_attempt_at`; `failed`: given up after the retry window'),
  attempts: z.int().min(0),
  response_status: z.int().nullable().describe("The endpoint's last HTTP status; null when it gave none (refused, unreachable, timed out)"),
  response_text: z.string().nullable().describe('At most 200 characters of the last answer, or why there was none'),
  created_at: isoTime,
  last_attempt_at: isoTime.nullable(),
  next_attempt_at: isoTime.nullable(),
});

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema).describe('Newest first, a page (docs/api.md#lists)'), ...pageMembers });

const ENDPOINT_EXAMPLE = { id: 'we_Qm2n8RcT0aZk4LxV7pYw', url: 'https://example.com/hooks/contact-validator', events: ['batch.completed', 'credits.low'], created_at: '2026-11-27T07:00:00.000Z' };

export const webhookComponents: Component[] = [
  [newWebhookEndpointSchema, { id: 'NewWebhookEndpoint', examples: [{ url: ENDPOINT_EXAMPLE.url, events: ENDPOINT_EXAMPLE.events }] }],
  [webhookEndpointSchema, { id: 'WebhookEndpoint', examples: [ENDPOINT_EXAMPLE] }],
  [createdWebhookEndpointSchema, { id: 'CreatedWebhookEndpoint', examples: [{ ...ENDPOINT_EXAMPLE, secret: 'whsec_…' }] }],
  [webhookEndpointListSchema, { id: 'WebhookEndpointList' }],
  [webhookDeliverySchema, {
    id: 'WebhookDelivery',
    examples: [{
      id: 'wd_X1c9…', event_id: 'evt_8ZkP…', type: 'batch.completed', status: 'pending', attempts: 2, response_status: 503,
      response_text: 'Service Unavailable', created_at: '2026-11-27T07:00:00.000Z', last_attempt_at: '2026-11-27T07:01:30.000Z',
      next_attempt_at: '2026-11-27T07:03:40.000Z',
    }],
  }],
  [webhookDeliveryListSchema, { id: 'WebhookDeliveryList' }],
];

const endpointId = z.object({ webhook_endpoint_id: z.string().describe('The endpoint') });
const deliveryId = endpointId.extend({ delivery_id: z.string().describe('The delivery') });

/**
 * Changes to what the account sends out (endpoints, redeliveries, the low-balance alert) take an owner or admin key
 * (docs/account.md#key-roles): any key reading them is not enough to point the account's mail and POSTs somewhere.
 */
export async function requireOwnerOrAdminKey(deps: EndpointDeps, res: Response, what: string): Promise<void> {
  if (await deps.accounts.isOwnerOrAdminKey(res.locals.context.principal!)) return;
  throw new Problem('owner-only', `Only an owner key or an admin key ${what}; this key was made by a member of the account.`);
}

/** The account's own endpoint named in the path, or 404. */
async function own(deps: EndpointDeps, req: Request, res: Response) {
  const found = await deps.webhooks.getEndpoint(accountOf(res), String(req.params.id));
  if (!found) throw new Problem('not-found', 'No such webhook endpoint on this account.');
  return found;
}

export const webhookEndpointEndpoints = [
  endpoint({
    method: 'post', path: '/v1/webhook_endpoints', security: 'secret', operationId: 'createWebhookEndpoint', tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'The URL must be https on a public address. The answer carries the signing secret, this once. Each event is POSTed ' +
      'as JSON `{"id", "type", "created", "data"}` with `Contact-Validator-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; ' +
      'an answer other than 2xx is tried again with back-off for 72 hours. At most 16 endpoints per account. An owner or ' +
      'admin key only (docs/account.md#key-roles): a key a member made gets 403 `owner-only`.',
    request: { body: newWebhookEndpointSchema },
    responses: {
      201: {
        description: 'The endpoint and its secret',
        content: json(createdWebhookEndpointSchema),
        headers: { Location: { description: '`/v1/webhook_endpoints/{webhook_endpoint_id}`', schema: z.string() }, ...noStore },
      },
    },
    problems: ['invalid-json', 'invalid-request', 'owner-only', 'payload-too-large', 'unsupported-media-type', 'webhooks-not-configured'],
    handler: async ({ res, deps, body }) => {
      await requireOwnerOrAdminKey(deps, res, 'adds webhook endpoints');
      try {
        const created = await deps.webhooks.createEndpoint(accountOf(res), body);
        res.status(201).location(`/v1/webhook_endpoints/${created.id}`).set('Cache-Control', 'no-store').json(created);
      } catch (err) {
        if (err instanceof WebhookEndpointInvalid) throw new Problem('invalid-request', err.message.slice(0, 500), { errors: err.errors });
        if (err instanceof SecretKeyMissing) throw new Problem('webhooks-not-configured', 'CONNECTOR_SECRET_KEY is not set: the service cannot keep signing secrets.');
        throw err;
      }
    },
  }),
  endpoint({
    method: 'get', path: '/v1/webhook_endpoints', security: 'secret', operationId: 'listWebhookEndpoints', tag: 'Webhooks',
    summary: "The account's webhook endpoints",
    responses: { 200: { description: 'The endpoints (no secrets)', content: json(webhookEndpointListSchema), headers: noStore } },
    problems: [],
    handler: async ({ res, deps }) => {
      res.set('Cache-Control', 'no-store').json({ webhook_endpoints: await deps.webhooks.listEndpoints(accountOf(res)) });
    },
  }),
  endpoint({
    method: 'delete', path: '/v1/webhook_endpoints/{webhook_endpoint_id}', security: 'secret', operationId: 'deleteWebhookEndpoint', tag: 'Webhooks',
    summary: 'Delete a webhook endpoint and its delivery log',
    description: 'Nothing more is sent to it, retries included. An owner or admin key only (docs/account.md#key-roles).',
    request: { params: endpointId },
    responses: { 204: { description: 'Deleted' } },
    problems: ['not-found', 'owner-only'],
    handler: async ({ req, res, deps }) => {
      await requireOwnerOrAdminKey(deps, res, 'deletes webhook endpoints');
      if (!(await deps.webhooks.deleteEndpoint(accountOf(res), String(req.params.id)))) {
        throw new Problem('not-found', 'No such webhook endpoint on this account.');
      }
      res.status(204).end();
    },
  }),
  endpoint({
    method: 'get', path: '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries', security: 'secret', operationId: 'listWebhookDeliveries', tag: 'Webhooks',
    summary: "An endpoint's deliveries, newest first",
    request: { params: endpointId, query: pageQuery(100) },
    responses: { 200: { description: 'The delivery log', content: json(webhookDeliveryListSchema), headers: noStore } },
    problems: ['not-found', 'invalid-request'],
    handler: async ({ req, res, query, deps }) => {
      const endpointRow = await own(deps, req, res);
      const page = (await deps.webhooks.deliveries(accountOf(res), endpointRow.id, pageOf(query)))!;
      res.set('Cache-Control', 'no-store').json({ deliveries: page.items, ...pageAnswer(page, (d) => d.id) });
    },
  }),
  endpoint({
    method: 'post', path: '/v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver', security: 'secret',
    operationId: 'redeliverWebhook', tag: 'Webhooks',
    summary: 'Send a delivery again now',
    description:
      'Sends the same event (same `id`, a fresh signature) at once, whatever its status, and answers with the delivery as ' +
      'that attempt left it; if it fails, it is tried again with back-off like a first delivery. An owner or admin key ' +
      'only (docs/account.md#key-roles).',
    request: { params: deliveryId },
    responses: { 200: { description: 'The delivery after this attempt', content: json(webhookDeliverySchema), headers: noStore } },
    problems: ['not-found', 'owner-only', 'webhook-delivery-busy'],
    handler: async ({ req, res, deps }) => {
      const endpointRow = await own(deps, req, res);
      await requireOwnerOrAdminKey(deps, res, 'sends deliveries again');
      const account = accountOf(res);
      const id = String(req.params.delivery_id);
      const after = await deps.webhooks.redeliver(account, endpointRow.id, id);
      if (!after) {
        if (await deps.webhooks.delivery(account, endpointRow.id, id)) throw new Problem('webhook-delivery-busy', 'This delivery is being sent at this moment; try again in a few seconds.');
        throw new Problem('not-found', 'No such delivery on this endpoint.');
      }
      res.set('Cache-Control', 'no-store').json(after);
    },
  }),
];
