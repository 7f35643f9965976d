/**
 * POST /webhooks/shopify (docs/connectors.md): no API key; Shopify signs each delivery. The raw body is kept as it arrived
 * (the HMAC is over those bytes) and handed to the use case, which checks the signature before parsing anything.
 */
import express, { type Router } from 'express';
import type { ShopifyWebhooks } from '../../sync/shopify-webhooks.js';
import { Problem } from '../problems.js';

/** Shopify's deliveries are small; a larger body is not one of them. */
const WEBHOOK_BODY_LIMIT = '1mb';

export function shopifyWebhookRoutes(router: Router, webhooks: ShopifyWebhooks): void {
  router.post('/webhooks/shopify', express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req, res) => {
    const answer = await webhooks.receive({
      topic: req.get('x-shopify-topic') ?? '',
      shop: req.get('x-shopify-shop-domain') ?? '',
      hmac: req.get('x-shopify-hmac-sha256') ?? '',
      webhookId: req.get('x-shopify-webhook-id') ?? '',
      raw: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });
    if (answer.status === 'unauthorized') throw new Problem('webhook-unauthorized', 'The delivery is not signed by a shop this service knows.');
    if (answer.status === 'malformed') throw new Problem('invalid-json', 'The delivery body is not JSON.');
    res.status(200).json({ status: answer.status });
  });
}
