/**
 * Deliveries that come with no API key but a signature over their raw body, kept as it arrived and handed to the use
 * case, which checks the signature before reading anything.
 * - POST /webhooks/shopify (docs/connectors.md): refused deliveries are counted per shop (SHOPIFY_WEBHOOKS_PER_MINUTE):
 *   past the limit the shop's deliveries are answered 429 before any signature is computed, until the minute ends
 *   (Shopify retries them later).
 * - POST /webhooks/stripe (docs/dashboard.md): every answer is JSON: 200 `{received, type, processed}`, or a problem
 *   (400 bad signature, 503 payments not configured).
 */
import express, { type RequestHandler } from 'express';
import { MemoryStore, rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import { InvalidArgumentError } from '../../billing/accounts.js';
import { PaymentsNotConfiguredError, WebhookSignatureError } from '../../billing/purchases.js';
import type { Database } from '../../db/data-source.js';
import { DatabaseRateLimitStore } from '../middleware/rate-limit.js';
import { Problem } from '../problems.js';
import { endpoint, json } from './endpoint.js';

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

/** Deliveries per shop domain per minute (0: off); the fleet's count on PostgreSQL, this process's on SQLite. */
function perShopLimit(db: Database, perMinute: number): RequestHandler[] {
  if (perMinute <= 0) return [];
  const store = db.dialect === 'postgres' ? new DatabaseRateLimitStore(db) : new MemoryStore();
  if (store instanceof DatabaseRateLimitStore) store.prefix = 'rlshop:';
  return [rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: `${perMinute}-per-minute-per-shop`,
    store,
    keyGenerator: (req) => shopOf(req),
    skip: (req) => !SHOP_DOMAIN.test(shopOf(req)),
    // Only refused deliveries count: a shop's own traffic, however busy, is never held back; forged ones are.
    skipSuccessfulRequests: true,
    // A guard against cost, not a gate: with the counters unreachable the delivery goes on (and meets the database's own answer).
    passOnStoreError: true,
    handler: (_req, res, next, options) => {
      next(new Problem('rate-limited', `At most ${options.limit} deliveries per minute for one shop; retry after ${res.getHeader('Retry-After') ?? 60} s.`));
    },
  })];
}

export const webhookEndpoints = [
  endpoint({
    method: 'post', path: '/webhooks/shopify', security: 'none', operationId: 'receiveShopifyWebhook', tag: 'Connectors',
    summary: "Shopify's webhook deliveries",
    description:
      'No API key: the HMAC (`X-Shopify-Hmac-Sha256`, over the raw body with the connector\'s `api_secret`) is checked ' +
      'before anything is read; a delivery for a shop no connector knows, or badly signed, gets 401. The answer comes ' +
      'within a second; the work is done in the background. Refused deliveries are counted per shop: past ' +
      'SHOPIFY_WEBHOOKS_PER_MINUTE (600) in a minute, the shop\'s deliveries get 429 until the minute ends.',
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
    before: (deps) => [
      ...perShopLimit(deps.db, deps.shopifyWebhooksPerMinute ?? 600),
      express.raw({ type: () => true, limit: SHOPIFY_BODY_LIMIT }),
    ],
    handler: async ({ req, res, deps }) => {
      const answer = await deps.shopifyWebhooks.receive({
        topic: req.get('x-shopify-topic') ?? '',
        shop: shopOf(req),
        hmac: req.get('x-shopify-hmac-sha256') ?? '',
        triggeredAt: req.get('x-shopify-triggered-at') ?? '',
        raw: rawBody(req.body),
      });
      if (answer.status === 'unauthorized') throw new Problem('webhook-unauthorized', 'The delivery is not signed by a shop this service knows.');
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
