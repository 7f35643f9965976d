/**
 * POST /webhooks/stripe (docs/dashboard.md): no API key; Stripe signs each event (`Stripe-Signature`). The raw body is kept
 * as it arrived (the signature is over those bytes) and handed to the use case, which verifies it before reading it.
 * Every answer is JSON: 200 `{received, type, processed}`, or a problem (400 bad signature, 503 payments not configured).
 */
import express, { type Router } from 'express';
import { InvalidArgumentError } from '../../billing/accounts.js';
import { PaymentsNotConfiguredError, WebhookSignatureError, type Purchases } from '../../billing/purchases.js';
import { Problem } from '../problems.js';

/** Stripe's events are a few KiB; a body much larger than any of them is not one. */
const WEBHOOK_BODY_LIMIT = '512kb';

export function stripeWebhookRoutes(router: Router, purchases: Purchases): void {
  router.post('/webhooks/stripe', express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req, res) => {
    try {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const { type, processed } = await purchases.handleWebhook(raw, req.get('stripe-signature'));
      res.status(200).set('Cache-Control', 'no-store').json({ received: true, type, processed });
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new Problem('webhook-signature-invalid', err.message);
      if (err instanceof PaymentsNotConfiguredError) throw new Problem('payments-not-configured', err.message);
      if (err instanceof InvalidArgumentError) throw new Problem('invalid-json', err.message);
      throw err;
    }
  });
}
