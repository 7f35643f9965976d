/**
 * The endpoints of the service itself, which need no API key: health and readiness, the problem types, this
 * description and its page, the checkout widget (src/widget), and the metrics for a Prometheus scraper.
 */
import { z } from 'zod';
import { sendDemo, sendSubmitted, sendWidget } from '../../widget/routes.js';
import { sendDescription, sendDocsAsset, sendDocsInit, sendDocsPage } from '../openapi/docs-page.js';
import type { Component } from '../openapi/components.js';
import { PROBLEM_CODES, problemTypeSchema } from '../openapi/problems.js';
import { Problem, PROBLEM_TYPES, problemBody, type ProblemCode } from '../problems.js';
import { endpoint, json } from './endpoint.js';
import { stripeAnswerSchema, webhookAnswerSchema } from './webhooks.js';

export const healthSchema = z.object({ status: z.literal('ok') });

const readySchema = z.object({
  status: z.literal('ready'),
  dns: z.enum(['ok', 'degraded', 'off']).describe(
    "The e-mail check's DNS resolver: `ok`; `degraded` while it denies names that exist (a captive or misconfigured " +
    'network: e-mail answers are `unknown` with reason `dns_unavailable` until it recovers; the instance still serves); ' +
    '`off` with network checks off',
  ),
  smtp_egress: z.record(z.string(), z.enum(['ok', 'blocked', 'unavailable', 'auth_failed', 'unchecked'])).optional().describe(
    'Each way out of the mailbox probe (SMTP_EGRESS_<NAME>_*, `direct` for this host) and what its last port 25 check ' +
    '(SMTP_EGRESS_PROBE_HOST) found: `ok`; `blocked` (port 25 cannot be reached through it: its probes answer ' +
    '`egress_blocked`); `unavailable` (its proxy cannot be reached); `auth_failed` (its proxy refused the credentials); ' +
    '`unchecked` (no check yet, or none configured). Absent when no egress or check is configured. The instance stays ready',
  ),
  reference: z.enum(['loaded', 'building']).optional().describe(
    "The delivery-point reference: `loaded`; `building` while a new import's index is built (the instance answers on the " +
    'previous one until it swaps in)',
  ),
});

export const serviceComponents: Component[] = [
  [healthSchema, { id: 'Health' }],
  [readySchema, { id: 'Ready' }],
  [webhookAnswerSchema, { id: 'WebhookAnswer' }],
  [stripeAnswerSchema, { id: 'StripeWebhookAnswer' }],
];

const page = (description: string) => ({ 200: { description, content: { 'text/html': { schema: z.string() } } } });

export const healthEndpoints = [
  endpoint({
    method: 'get', path: '/healthz', security: 'none', operationId: 'health', tag: 'Service',
    summary: 'Whether the service can serve',
    description: '200 once the database is reachable and the reference data loaded, else 503.',
    responses: { 200: { description: 'Ready', content: json(healthSchema) } },
    problems: ['not-ready', 'database-unavailable'],
    handler: async ({ res, deps }) => {
      if (!deps.isReady()) throw new Problem('not-ready', 'Reference data is still loading.');
      await deps.db.ping();
      res.set('Cache-Control', 'no-store').json({ status: 'ok' });
    },
  }),
  // Readiness (a load balancer's or Kubernetes' probe): not while loading or draining, nor without the database.
  endpoint({
    method: 'get', path: '/readyz', security: 'none', operationId: 'ready', tag: 'Service',
    summary: 'Whether this instance should get traffic',
    description: "A load balancer's readiness probe: 503 while the reference data loads, while the instance drains (shutting down), or without the database. `/healthz` stays the liveness check. A resolver that denies names that exist keeps it 200, with `dns: \"degraded\"`.",
    responses: { 200: { description: 'Ready for traffic', content: json(readySchema) } },
    problems: ['not-ready', 'database-unavailable'],
    handler: async ({ res, deps }) => {
      if (deps.isDraining()) throw new Problem('not-ready', 'The service is shutting down.');
      if (!deps.isReady()) throw new Problem('not-ready', 'Reference data is still loading.');
      await deps.db.ping();
      // A resolver that denies names that exist degrades the e-mail check (answers `unknown` / `dns_unavailable`) but
      // not the instance: it stays ready (another instance's resolver is likely no better), and says so.
      const resolver = await deps.resolverHealth?.();
      const dns = !resolver ? 'off' : resolver.healthy ? 'ok' : 'degraded';
      // An egress that cannot reach port 25 degrades the mailbox probe through it, as a lying resolver does: said, not 503.
      const egresses = deps.egresses?.() ?? [];
      const smtpEgress = egresses.length ? { smtp_egress: Object.fromEntries(egresses.map((e) => [e.name, e.state])) } : {};
      res.set('Cache-Control', 'no-store').json({ status: 'ready', dns, ...smtpEgress, reference: deps.referenceState?.() ?? 'loaded' });
    },
  }),
  endpoint({
    method: 'get', path: '/problems/{code}', security: 'none', operationId: 'getProblemType', tag: 'Service',
    summary: "The problem type behind an error's `type`",
    request: { params: z.object({ code: z.enum(PROBLEM_CODES).describe('The code at the end of `type`') }) },
    responses: { 200: { description: 'The problem type', content: json(problemTypeSchema) } },
    problems: ['not-found'],
    handler: ({ req, res }) => {
      const code = String(req.params.code) as ProblemCode;
      if (!Object.hasOwn(PROBLEM_TYPES, code)) throw new Problem('not-found', 'No such problem type.');
      res.json(problemBody(new Problem(code)));
    },
  }),
];

/** This description and its page for people (../openapi/docs-page.ts). */
export const descriptionEndpoints = [
  endpoint({
    method: 'get', path: '/v1/openapi.json', security: 'none', operationId: 'getOpenApi', tag: 'Service',
    summary: 'This OpenAPI 3.1 description',
    responses: { 200: { description: 'The description', content: json(z.record(z.string(), z.unknown())) } },
    problems: [],
    handler: ({ res, deps }) => sendDescription(res, deps.description),
  }),
  endpoint({
    method: 'get', path: '/docs', security: 'none', operationId: 'getDocs', tag: 'Service',
    summary: 'This description rendered for people',
    responses: page('An HTML page'),
    problems: [],
    handler: ({ res }) => sendDocsPage(res),
  }),
  // Not in the description: the page's own script and Swagger UI's files, which only the page asks for.
  endpoint({
    method: 'get', path: '/docs/init.js', security: 'none', hidden: true, operationId: 'getDocsScript', tag: 'Service',
    summary: "The docs page's script",
    responses: { 200: { description: 'The script' } },
    problems: [],
    handler: ({ res }) => sendDocsInit(res),
  }),
  endpoint({
    method: 'get', path: '/docs/assets/{file}', security: 'none', hidden: true, operationId: 'getDocsAsset', tag: 'Service',
    summary: "Swagger UI's files, from the installed package",
    responses: { 200: { description: 'The file' } },
    problems: ['not-found'],
    handler: ({ req, res }) => sendDocsAsset(req, res),
  }),
];

/** The checkout widget (src/widget) and the metrics for a Prometheus scraper. */
export const pageEndpoints = [
  endpoint({
    method: 'get', path: '/widget.js', security: 'none', operationId: 'getWidget', tag: 'Service',
    summary: 'The checkout script',
    description: 'Add it to a form with `data-key` set to a publishable key (`cv_pub_…`); it checks the address as the shopper leaves the form and never blocks it.',
    responses: { 200: { description: 'The script', content: { 'text/javascript': { schema: z.string() } } } },
    problems: [],
    handler: ({ req, res }) => sendWidget(req, res),
  }),
  endpoint({
    method: 'get', path: '/widget/demo', security: 'none', operationId: 'getWidgetDemo', tag: 'Service',
    summary: 'A form with the widget, to try a publishable key',
    request: {
      query: z.object({ key: z.string().optional().describe('A publishable key (`cv_pub_…`); anything else is left out of the page') }),
      queryReadByHandler: true,
    },
    responses: page('An HTML page'),
    problems: [],
    handler: ({ req, res }) => sendDemo(req, res),
  }),
  endpoint({
    method: 'post', path: '/widget/demo', security: 'none', operationId: 'submitWidgetDemo', tag: 'Service',
    summary: "The demo form's submission",
    description: 'A page saying the form was submitted; nothing is kept.',
    request: { content: { required: false, content: { 'application/x-www-form-urlencoded': { schema: z.record(z.string(), z.string()) } } } },
    responses: page('An HTML page'),
    problems: [],
    handler: ({ res }) => sendSubmitted(res),
  }),
  endpoint({
    method: 'get', path: '/metrics', security: 'none', operationId: 'getMetrics', tag: 'Service',
    summary: 'Metrics in Prometheus text format',
    description: 'Requests, latency and problems per route, modules, jobs and runs by state, process metrics. With `METRICS_TOKEN` set, the scraper sends it as a Bearer token (401 otherwise).',
    responses: { 200: { description: 'Prometheus exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } } },
    problems: ['database-unavailable'],
    handler: ({ req, res, deps }) => deps.metrics.answer(req, res, deps.metricsToken),
  }),
];
