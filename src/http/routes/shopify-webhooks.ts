/**
 * POST /webhooks/shopify (docs/connectors.md): no API key; Shopify signs each delivery. The raw body is kept as it arrived
 * (the HMAC is over those bytes) and handed to the use case, which checks the signature before parsing anything.
 * Refused deliveries are counted per shop (SHOPIFY_WEBHOOKS_PER_MINUTE): past the limit the shop's deliveries are
 * answered 429 before any signature is computed, until the minute ends (Shopify retries them later).
 */
import express, { type RequestHandler, type Router } from 'express';
import { MemoryStore, rateLimit } from 'express-rate-limit';
import type { Database } from '../../db/data-source.js';
import type { ShopifyWebhooks } from '../../../connectors/shopify/webhooks.js';
import { DatabaseRateLimitStore } from '../middleware/rate-limit.js';
import { Problem } from '../problems.js';

/** Shopify's deliveries are small; a larger body is not one of them. */
const WEBHOOK_BODY_LIMIT = '1mb';
/** A shop's permanent domain: anything else is no shop, and is answered 401 by the use case without being counted. */
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

const shopOf = (req: express.Request) => (req.get('x-shopify-shop-domain') ?? '').trim().toLowerCase();

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

export function shopifyWebhookRoutes(router: Router, webhooks: ShopifyWebhooks, db: Database, perShopPerMinute: number): void {
  const limit = perShopLimit(db, perShopPerMinute);
  router.post('/webhooks/shopify', ...limit, express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req, res) => {
    const answer = await webhooks.receive({
      topic: req.get('x-shopify-topic') ?? '',
      shop: shopOf(req),
      hmac: req.get('x-shopify-hmac-sha256') ?? '',
      triggeredAt: req.get('x-shopify-triggered-at') ?? '',
      raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    if (answer.status === 'unauthorized') throw new Problem('webhook-unauthorized', 'The delivery is not signed by a shop this service knows.');
    if (answer.status === 'malformed') throw new Problem('invalid-json', 'The delivery body is not JSON.');
    res.status(200).json({ status: answer.status });
  });
}
