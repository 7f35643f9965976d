/** The endpoints that need no API key: health, the problem types, Shopify's webhook deliveries, this description. */
import { z } from 'zod';
import { PROBLEM_CODES, problemTypeSchema } from './problems.js';
import type { Component, Operation } from './operation.js';

export const healthSchema = z.object({ status: z.literal('ok') });

export const webhookAnswerSchema = z.object({
  status: z.enum(['accepted', 'duplicate', 'stale']).describe(
    '`duplicate`: signed content (shop, topic, body) already seen, acknowledged and not processed again; ' +
    '`stale`: triggered more than 6 hours ago (a replay: Shopify retries for 4 hours), acknowledged and not processed',
  ),
});

export const SHOPIFY_TOPICS = [
  'customers/create', 'customers/update', 'orders/create', 'app/uninstalled',
  'customers/data_request', 'customers/redact', 'shop/redact',
] as const;

/** A delivery's body is Shopify's JSON payload of the topic, kept byte for byte for the HMAC. */
const webhookBody = z.record(z.string(), z.unknown());

const readySchema = z.object({
  status: z.literal('ready'),
  dns: z.enum(['ok', 'degraded', 'off']).describe(
    "The e-mail check's DNS resolver: `ok`; `degraded` while it denies names that exist (a captive or misconfigured " +
    'network: e-mail answers are `unknown` with reason `dns_unavailable` until it recovers; the instance still serves); ' +
    '`off` with network checks off',
  ),
});

export const stripeAnswerSchema = z.object({
  received: z.literal(true),
  type: z.string().describe("The event's type (`checkout.session.completed`, `charge.refunded`, …)"),
  processed: z.boolean().describe('false: an event already processed, or one that changes nothing; acknowledged either way'),
});

export const serviceComponents: Component[] = [
  [healthSchema, { id: 'Health' }],
  [readySchema, { id: 'Ready' }],
  [webhookAnswerSchema, { id: 'WebhookAnswer' }],
  [stripeAnswerSchema, { id: 'StripeWebhookAnswer' }],
];

export const serviceOperations: Operation[] = [
  {
    method: 'get', path: '/healthz', operationId: 'health', tag: 'Service', auth: 'none',
    summary: 'Whether the service can serve',
    description: '200 once the database is reachable and the reference data loaded, else 503.',
    responses: { 200: { description: 'Ready', content: { 'application/json': { schema: healthSchema } } } },
    problems: ['not-ready', 'database-unavailable'],
  },
  {
    method: 'get', path: '/readyz', operationId: 'ready', tag: 'Service', auth: 'none',
    summary: 'Whether this instance should get traffic',
    description: "A load balancer's readiness probe: 503 while the reference data loads, while the instance drains (shutting down), or without the database. `/healthz` stays the liveness check. A resolver that denies names that exist keeps it 200, with `dns: \"degraded\"`.",
    responses: { 200: { description: 'Ready for traffic', content: { 'application/json': { schema: readySchema } } } },
    problems: ['not-ready', 'database-unavailable'],
  },
  {
    method: 'get', path: '/problems/{code}', operationId: 'getProblemType', tag: 'Service', auth: 'none',
    summary: "The problem type behind an error's `type`",
    parameters: [{ name: 'code', in: 'path', required: true, schema: z.enum(PROBLEM_CODES), description: 'The code at the end of `type`' }],
    responses: { 200: { description: 'The problem type', content: { 'application/json': { schema: problemTypeSchema } } } },
    problems: ['not-found'],
  },
  {
    method: 'post', path: '/webhooks/shopify', operationId: 'receiveShopifyWebhook', tag: 'Connectors', auth: 'none',
    summary: "Shopify's webhook deliveries",
    description:
      'No API key: the HMAC (`X-Shopify-Hmac-Sha256`, over the raw body with the connector\'s `api_secret`) is checked ' +
      'before anything is read; a delivery for a shop no connector knows, or badly signed, gets 401. The answer comes ' +
      'within a second; the work is done in the background. Refused deliveries are counted per shop: past ' +
      'SHOPIFY_WEBHOOKS_PER_MINUTE (600) in a minute, the shop\'s deliveries get 429 until the minute ends.',
    parameters: [
      { name: 'X-Shopify-Topic', in: 'header', required: true, schema: z.enum(SHOPIFY_TOPICS), description: 'The topic' },
      { name: 'X-Shopify-Shop-Domain', in: 'header', required: true, schema: z.string(), description: '`example.myshopify.com`' },
      { name: 'X-Shopify-Hmac-Sha256', in: 'header', required: true, schema: z.string(), description: 'Base64 HMAC-SHA256 of the raw body' },
      { name: 'X-Shopify-Webhook-Id', in: 'header', required: true, schema: z.string(), description: 'The delivery id' },
      { name: 'X-Shopify-Triggered-At', in: 'header', required: false, schema: z.string(), description: 'When Shopify triggered the delivery (ISO 8601); its retries keep it' },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: webhookBody } } },
    responses: { 200: { description: 'Acknowledged', content: { 'application/json': { schema: webhookAnswerSchema } } } },
    problems: ['invalid-json', 'webhook-unauthorized', 'payload-too-large', 'rate-limited', 'database-unavailable'],
  },
  {
    method: 'post', path: '/webhooks/stripe', operationId: 'receiveStripeWebhook', tag: 'Service', auth: 'none',
    summary: "Stripe's events for credit-pack purchases",
    description:
      'No API key: the `Stripe-Signature` header (HMAC-SHA256 over the timestamp and the raw body with the endpoint\'s ' +
      'signing secret, at most 5 minutes old) is checked with the stripe package before anything is read. ' +
      '`checkout.session.completed` grants the pack once per Checkout Session however often it arrives; refunds and ' +
      'disputes are noted on the grant (docs/billing.md).',
    parameters: [
      { name: 'Stripe-Signature', in: 'header', required: true, schema: z.string(), description: '`t=…,v1=…`' },
    ],
    requestBody: { required: true, content: { 'application/json': { schema: webhookBody } } },
    responses: { 200: { description: 'Acknowledged', content: { 'application/json': { schema: stripeAnswerSchema } } } },
    problems: ['webhook-signature-invalid', 'invalid-json', 'payload-too-large', 'payments-not-configured', 'database-unavailable'],
  },
];

/** The checkout widget (src/widget) and the metrics for a Prometheus scraper. */
export const pageOperations: Operation[] = [
  {
    method: 'get', path: '/widget.js', operationId: 'getWidget', tag: 'Service', auth: 'none',
    summary: 'The checkout script',
    description: 'Add it to a form with `data-key` set to a publishable key (`cv_pub_…`); it checks the address as the shopper leaves the form and never blocks it.',
    responses: { 200: { description: 'The script', content: { 'text/javascript': { schema: z.string() } } } },
    problems: [],
  },
  {
    method: 'get', path: '/widget/demo', operationId: 'getWidgetDemo', tag: 'Service', auth: 'none',
    summary: 'A form with the widget, to try a publishable key',
    parameters: [{ name: 'key', in: 'query', required: false, schema: z.string(), description: 'A publishable key (`cv_pub_…`); anything else is left out of the page' }],
    responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } } },
    problems: [],
  },
  {
    method: 'post', path: '/widget/demo', operationId: 'submitWidgetDemo', tag: 'Service', auth: 'none',
    summary: "The demo form's submission",
    description: 'A page saying the form was submitted; nothing is kept.',
    requestBody: { required: false, content: { 'application/x-www-form-urlencoded': { schema: z.record(z.string(), z.string()) } } },
    responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } } },
    problems: [],
  },
  {
    method: 'get', path: '/metrics', operationId: 'getMetrics', tag: 'Service', auth: 'none',
    summary: 'Metrics in Prometheus text format',
    description: 'Requests, latency and problems per route, modules, jobs and runs by state, process metrics. With `METRICS_TOKEN` set, the scraper sends it as a Bearer token (401 otherwise).',
    responses: { 200: { description: 'Prometheus exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } } },
    problems: ['database-unavailable'],
  },
];

/** This description and its page for people (src/http/openapi/routes.ts). */
export const descriptionOperations: Operation[] = [
  {
    method: 'get', path: '/v1/openapi.json', operationId: 'getOpenApi', tag: 'Service', auth: 'none',
    summary: 'This OpenAPI 3.1 description',
    responses: { 200: { description: 'The description', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
    problems: [],
  },
  {
    method: 'get', path: '/docs', operationId: 'getDocs', tag: 'Service', auth: 'none',
    summary: 'This description rendered for people',
    responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } } },
    problems: [],
  },
];
