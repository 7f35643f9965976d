/**
 * Deliveries that come with no API key but a signature over their raw body, kept as it arrived and handed to the use
 * case, which checks the signature before reading anything.
 * - POST /webhooks/{type} (docs/connectors.md): one endpoint per plugin that declares `webhooks`, from the registry
 *   (`/webhooks/shopify` is the one Shopify's apps are subscribed to). Every delivery's signature is checked, so a
 *   signed one is always answered whatever anyone else sends. Refused deliveries are counted per source address and
 *   per claimed platform account, each in a bucket of its own (the plugin's `refusalsPerMinute`): past the limit a
 *   refusal is answered 429 instead of 401 until the minute ends.
 * - POST /webhooks/stripe (docs/dashboard.md): every answer is JSON: 200 `{received, type, processed}`, or a problem
 *   (400 bad signature, 503 payments not configured).
 */
import express from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { z } from 'zod';
import { createConnectorPlugins } from '../../../connectors/index.js';
import { InvalidArgumentError } from '../../billing/accounts.js';
import { PaymentsNotConfiguredError, WebhookSignatureError } from '../../billing/purchases.js';
import type { Database } from '../../db/data-source.js';
import type { ConnectorPlugin, WebhookSpec } from '../../sync/plugin.js';
import { RefusalCounter } from '../middleware/rate-limit.js';
import { Problem } from '../problems.js';
import { endpoint, json, type EndpointDeps } from './endpoint.js';

/** A platform's deliveries are small; a larger body than the plugin declares is not one of them. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Stripe's events are a few KiB; a body much larger than any of them is not one. */
const STRIPE_BODY_LIMIT = '512kb';
const DEFAULT_REFUSALS_PER_MINUTE = 600;

export const webhookAnswerSchema = z.object({
  status: z.enum(['accepted', 'duplicate', 'stale']).describe(
    '`duplicate`: signed content (account, topic, body) already seen, acknowledged and not processed again; ' +
    '`stale`: signed but older than the platform retries (a replay), acknowledged and not processed',
  ),
});

export const stripeAnswerSchema = z.object({
  received: z.literal(true),
  type: z.string().describe("The event's type (`checkout.session.completed`, `charge.refunded`, …)"),
  processed: z.boolean().describe('false: an event already processed, or one that changes nothing; acknowledged either way'),
});

/** A delivery's body is the platform's JSON payload, kept byte for byte for the signature. */
const webhookBody = z.record(z.string(), z.unknown());

const rawBody = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

/**
 * Refused deliveries per source address and per claimed platform account per minute (0: off); the fleet's count on
 * PostgreSQL, this process's on SQLite. Counted after the signature was checked, never before: a gate in front of the
 * check let 650 unsigned deliveries naming a shop hold off its genuine ones (a platform sends every account's
 * deliveries from its own addresses, which an attacker cannot send from, and a genuine delivery is never a refusal). A
 * forged delivery costs one connector look-up and one HMAC over at most the body limit either way; the throttle tells
 * its sender to back off (429, Retry-After).
 */
class DeliveryRefusals {
  private readonly byAddress: RefusalCounter;
  private readonly byAccount: RefusalCounter;

  constructor(db: Database, type: string, private readonly perMinute: number) {
    this.byAddress = new RefusalCounter(perMinute, db, `rlwh:${type}:addr:`);
    this.byAccount = new RefusalCounter(perMinute, db, `rlwh:${type}:acct:`);
  }

  /** Counts a refused delivery; the seconds to wait when its address or its account is over the limit, else null. */
  async refused(address: string, account: string | null): Promise<number | null> {
    // A delivery that names no account the plugin can read is refused without any cryptography: nothing to count.
    if (this.perMinute <= 0 || account === null) return null;
    try {
      // The address first: one already over its limit adds no count for the account it names, so that a single
      // source naming ever new accounts makes no more account buckets than its own limit.
      return await this.byAddress.refused(ipKeyGenerator(address)) ?? await this.byAccount.refused(account);
    } catch {
      // A guard against cost, not a gate: with the counters unreachable the refusal is a plain 401.
      return null;
    }
  }
}

/** One count per application (its dependencies) and platform, made on the first refusal. */
const refusalsByApp = new WeakMap<EndpointDeps, Map<string, DeliveryRefusals>>();
function refusalsOf(deps: EndpointDeps, type: string, spec: WebhookSpec): DeliveryRefusals {
  let byType = refusalsByApp.get(deps);
  if (!byType) refusalsByApp.set(deps, (byType = new Map()));
  let refusals = byType.get(type);
  if (!refusals) byType.set(type, (refusals = new DeliveryRefusals(deps.db, type, spec.refusalsPerMinute ?? DEFAULT_REFUSALS_PER_MINUTE)));
  return refusals;
}

const title = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);
const lower = (headers: express.Request['headers']) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v]));

/** The full URL the platform called, as this service is reached (PUBLIC_BASE_URL, else the request's own host). */
function urlOf(req: express.Request, deps: EndpointDeps): string {
  const base = deps.dashboard.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return new URL(req.originalUrl, base).toString();
}

/** The endpoint of one plugin's webhooks, from its declaration: its headers documented, its deliveries handed to the core. */
function pluginWebhookEndpoint(plugin: ConnectorPlugin, spec: WebhookSpec) {
  const type = plugin.type;
  const name = plugin.presentation?.title ?? title(type);
  const headers = Object.fromEntries((spec.headers ?? []).map((h) => {
    const schema = h.values ? z.enum(h.values as [string, ...string[]]) : z.string();
    return [h.name, (h.required ? schema : schema.optional()).describe(h.description)];
  }));
  const perMinute = spec.refusalsPerMinute ?? DEFAULT_REFUSALS_PER_MINUTE;
  return endpoint({
    method: 'post', path: `/webhooks/${type}`, security: 'none', operationId: `receive${title(type)}Webhook`, tag: 'Connectors',
    summary: `${name}'s webhook deliveries`,
    description:
      `No API key: the delivery's signature (${(spec.headers ?? []).filter((h) => /signature|hmac/i.test(h.name)).map((h) => `\`${h.name}\``).join(', ') || 'its signature header'}) ` +
      'is checked over the raw request before anything is read; a delivery for an account no connector knows, or badly signed, gets 401. The answer ' +
      'comes within a second; the work is done in the background. Every delivery\'s signature is checked: a signed one is ' +
      `always answered. Refused deliveries are counted per source address and per account: past ${perMinute} in a minute ` +
      'from that address or for that account, a refusal is 429 instead of 401 until the minute ends.',
    request: {
      headers: z.object(headers),
      content: { required: true, content: json(webhookBody) },
    },
    responses: { 200: { description: 'Acknowledged', content: json(webhookAnswerSchema) } },
    problems: ['invalid-json', 'webhook-unauthorized', 'payload-too-large', 'rate-limited', 'database-unavailable'],
    before: () => [express.raw({ type: () => true, limit: spec.maxBodyBytes ?? DEFAULT_BODY_LIMIT })],
    handler: async ({ req, res, deps }) => {
      const answer = await deps.pluginWebhooks.receive(type, {
        method: req.method, url: urlOf(req, deps), headers: lower(req.headers), raw: rawBody(req.body), now: Date.now(),
      });
      if (answer.status === 'unauthorized') {
        // The running service's declaration (its plugin built with the configuration), not the description's.
        const wait = await refusalsOf(deps, type, deps.pluginWebhooks.spec(type) ?? spec).refused(req.ip ?? req.socket.remoteAddress ?? 'unknown', answer.claimed);
        if (wait !== null) {
          throw new Problem('rate-limited', `Too many refused deliveries from this address or for this account; retry after ${wait} s.`, {}, { 'Retry-After': String(wait) });
        }
        throw new Problem('webhook-unauthorized', `The delivery is not signed by a ${name} account this service knows.`);
      }
      if (answer.status === 'malformed') throw new Problem('invalid-json', 'The delivery body is not JSON.');
      res.status(200).json({ status: answer.status });
    },
  });
}

/** One endpoint per plugin that takes webhooks, in the registry's order. */
export function webhookEndpointsOf(plugins: ConnectorPlugin<any, any, any>[]) {
  return plugins.flatMap((p) => (p.webhooks ? [pluginWebhookEndpoint(p as ConnectorPlugin, p.webhooks as WebhookSpec)] : []));
}

export const webhookEndpoints = [
  ...webhookEndpointsOf(createConnectorPlugins()),
  endpoint({
    method: 'post', path: '/webhooks/stripe', security: 'none', operationId: 'receiveStripeWebhook', tag: 'Service',
    summary: "Stripe's events for credit-pack purchases",
    description:
      'No API key: the `Stripe-Signature` header (HMAC-SHA256 over the timestamp and the raw body with the endpoint\'s ' +
      'signing secret, at most 5 minutes old) is checked with the stripe package before anything is read. ' +
      '`checkout.session.completed` grants the pack once per Checkout Session however often it arrives; refunds and ' +
      'disputes are noted on the grant (docs/billing.md).',
    request: {
      headers: z.object({ 'Stripe-Signature': z.string().describe('`t=…,v1=…`') }),
      content: { required: true, content: json(webhookBody) },
    },
    responses: { 200: { description: 'Acknowledged', content: json(stripeAnswerSchema) } },
    problems: ['webhook-signature-invalid', 'invalid-json', 'payload-too-large', 'payments-not-configured', 'database-unavailable'],
    before: () => [express.raw({ type: () => true, limit: STRIPE_BODY_LIMIT })],
    handler: async ({ req, res, deps }) => {
      try {
        const { type, processed } = await deps.purchases.handleWebhook(rawBody(req.body), req.get('stripe-signature'));
        res.status(200).set('Cache-Control', 'no-store').json({ received: true, type, processed });
      } catch (err) {
        if (err instanceof WebhookSignatureError) throw new Problem('webhook-signature-invalid', err.message);
        if (err instanceof PaymentsNotConfiguredError) throw new Problem('payments-not-configured', err.message);
        if (err instanceof InvalidArgumentError) throw new Problem('invalid-json', err.message);
        throw err;
      }
    },
  }),
];
