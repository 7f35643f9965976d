/**
 * Deliveries that come with no API key but a signature over their raw body, kept as it arrived and handed to the use
 * case, which checks the signature before reading anything.
 * - POST /webhooks/shopify (docs/connectors.md): every delivery's signature is checked, so a signed one is always
 *   answered whatever anyone else sends. Refused deliveries are counted per source address and per shop, each in a
 *   bucket of its own (SHOPIFY_WEBHOOKS_PER_MINUTE): past the limit a refusal is answered 429 instead of 401 until the
 *   minute ends.
 * - POST /webhooks/stripe (docs/dashboard.md): every answer is JSON: 200 `{received, type, processed}`, or a problem
 *   (400 bad signature, 503 payments not configured).
 */
import express from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { z } from 'zod';
import { InvalidArgumentError } from '../../billing/accounts.js';
import { PaymentsNotConfiguredError, WebhookSignatureError } from '../../billing/purchases.js';
import type { Database } from '../../db/data-source.js';
import { RefusalCounter } from '../middleware/rate-limit.js';
import { Problem } from '../problems.js';
import { endpoint, json, type EndpointDeps } from './endpoint.js';

/** Shopify's deliveries are small; a larger body is not one of them. */
const SHOPIFY_BODY_LIMIT = '1mb';
/** Stripe's events are a few KiB; a body much larger than any of them is not one. */
const STRIPE_BODY_LIMIT = '512kb';
/** A shop's permanent domain: anything else is no shop, and is answered 401 by the use case without being counted. */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

export const webhookAnswerSchema = z.object({
  status: z.enum(['accepted', 'duplicate', 'stale']).describe(
    '`duplicate`: signed content (shop, topic, body) already seen, acknowledged and not processed again; ' +
    '`stale`: triggered more than 6 hours ago (a replay: Shopify retries for 4 hours), acknowledged and not processed',
  ),
});

export const stripeAnswerSchema = z.object({
  received: z.literal(true),
  type: z.string().describe("The event's type (`checkout.session.completed`, `charge.refunded`, …)"),
  processed: z.boolean().describe('false: an event already processed, or one that changes nothing; acknowledged either way'),
});

export const SHOPIFY_TOPICS = [
  'customers/create', 'customers/update', 'orders/create', 'orders/updated', 'app/uninstalled',
  'customers/data_request', 'customers/redact', 'shop/redact',
] as const;

/** A delivery's body is the platform's JSON payload, kept byte for byte for the signature. */
const webhookBody = z.record(z.string(), z.unknown());

const shopOf = (req: express.Request) => (req.get('x-shopify-shop-domain') ?? '').trim().toLowerCase();
const rawBody = (body: unknown) => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

/**
 * Refused deliveries per source address and per shop domain per minute (0: off); the fleet's count on PostgreSQL,
 * this process's on SQLite. Counted after the signature was checked, never before: a gate in front of the check let
 * 650 unsigned deliveries naming a shop hold off its genuine ones (Shopify sends every shop's deliveries from its own
 * addresses, which an attacker cannot send from, and a genuine delivery is never a refusal). A forged delivery costs
 * one connector look-up and one HMAC over at most SHOPIFY_BODY_LIMIT either way; the throttle tells its sender to
 * back off (429, Retry-After).
 */
class DeliveryRefusals {
  private readonly byAddress: RefusalCounter;
  private readonly byShop: RefusalCounter;

  constructor(db: Database, private readonly perMinute: number) {
    this.byAddress = new RefusalCounter(perMinute, db, 'rlwhaddr:');
    this.byShop = new RefusalCounter(perMinute, db, 'rlshop:');
  }

  /** Counts a refused delivery; the seconds to wait when its address or its shop is over the limit, else null. */
  async refused(address: string, shop: string): Promise<number | null> {
    // A name that is no shop is refused without any cryptography: nothing to count.
    if (this.perMinute <= 0 || !SHOP_DOMAIN.test(shop)) return null;
    try {
      // The address first: one already over its limit adds no count for the shop it names, so that a single source
      // naming ever new shops makes no more shop buckets than its own limit.
      return await this.byAddress.refused(ipKeyGenerator(address)) ?? await this.byShop.refused(shop);
    } catch {
      // A guard against cost, not a gate: with the counters unreachable the refusal is a plain 401.
      return null;
    }
  }
}

/** One count per application (its dependencies), made on the first refusal. */
const refusalsByApp = new WeakMap<EndpointDeps, DeliveryRefusals>();
function refusalsOf(deps: EndpointDeps): DeliveryRefusals {
  let refusals = refusalsByApp.get(deps);
  if (!refusals) refusalsByApp.set(deps, (refusals = new DeliveryRefusals(deps.db, deps.shopifyWebhooksPerMinute ?? 600)));
  return refusals;
}

export const webhookEndpoints = [
  endpoint({
    method: 'post', path: '/webhooks/shopify', security: 'none', operationId: 'receiveShopifyWebhook', tag: 'Connectors',
    summary: "Shopify's webhook deliveries",
    description:
      'No API key: the HMAC (`X-Shopify-Hmac-Sha256`, over the raw body with the connector\'s `api_secret`) is checked ' +
      'before anything is read; a delivery for a shop no connector knows, or badly signed, gets 401. The answer comes ' +
      'within a second; the work is done in the background. Every delivery\'s signature is checked: a signed one is ' +
      'always answered. Refused deliveries are counted per source address and per shop: past SHOPIFY_WEBHOOKS_PER_MINUTE ' +
      '(600) in a minute from that address or for that shop, a refusal is 429 instead of 401 until the minute ends.',
    request: {
      headers: z.object({
        'X-Shopify-Topic': z.enum(SHOPIFY_TOPICS).describe('The topic'),
        'X-Shopify-Shop-Domain': z.string().describe('`example.myshopify.com`'),
        'X-Shopify-Hmac-Sha256': z.string().describe('Base64 HMAC-SHA256 of the raw body'),
        'X-Shopify-Webhook-Id': z.string().describe('The delivery id'),
        'X-Shopify-Triggered-At': z.string().optional().describe('When Shopify triggered the delivery (ISO 8601); its retries keep it'),
      }),
      content: { required: true, content: json(webhookBody) },
    },
    responses: { 200: { description: 'Acknowledged', content: json(webhookAnswerSchema) } },
    problems: ['invalid-json', 'webhook-unauthorized', 'payload-too-large', 'rate-limited', 'database-unavailable'],
    before: () => [express.raw({ type: () => true, limit: SHOPIFY_BODY_LIMIT })],
    handler: async ({ req, res, deps }) => {
      const answer = await deps.shopifyWebhooks.receive({
        topic: req.get('x-shopify-topic') ?? '',
        shop: shopOf(req),
        hmac: req.get('x-shopify-hmac-sha256') ?? '',
        triggeredAt: req.get('x-shopify-triggered-at') ?? '',
        raw: rawBody(req.body),
      });
      if (answer.status === 'unauthorized') {
        const wait = await refusalsOf(deps).refused(req.ip ?? req.socket.remoteAddress ?? 'unknown', shopOf(req));
        if (wait !== null) {
          throw new Problem('rate-limited', `Too many refused deliveries from this address or for this shop; retry after ${wait} s.`, {}, { 'Retry-After': String(wait) });
        }
        throw new Problem('webhook-unauthorized', 'The delivery is not signed by a shop this service knows.');
      }
      if (answer.status === 'malformed') throw new Problem('invalid-json', 'The delivery body is not JSON.');
      res.status(200).json({ status: answer.status });
    },
  }),
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
