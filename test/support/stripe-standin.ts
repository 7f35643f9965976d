/**
 * A local stand-in for the parts of Stripe the service uses (tests point STRIPE_API_BASE at it; Stripe itself is never
 * reachable from here). It speaks Stripe's documented API as the `stripe` package calls it:
 *
 * - POST /v1/checkout/sessions (application/x-www-form-urlencoded, `Bearer` secret key, `Idempotency-Key` honoured)
 *   and GET /v1/checkout/sessions/:id, answering the documented `checkout.session` object; errors in Stripe's
 *   `{"error": {type, message, code?, param?}}` shape (401 for a wrong key, 400 for a missing parameter, 404);
 * - the hosted payment page the session's `url` points to: GET /pay/:id (a minimal, self-contained, accessible page with
 *   the amount and a Pay button), POST /pay/:id (marks the session paid, delivers `checkout.session.completed` to the
 *   webhook URL, then 303 to success_url with {CHECKOUT_SESSION_ID} replaced; a Cancel link goes to cancel_url);
 * - webhook deliveries signed the way Stripe signs them (https://docs.stripe.com/webhooks#verify-manually):
 *   `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" keyed with the whsec_ secret>`, computed
 *   here with node:crypto, not with the package under test.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer: null;
  customer_details: { email: string | null } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: string;
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  url: string | null;
  line_items_sent: unknown;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface Delivery {
  event: StripeEvent;
  /** The exact bytes sent (what the signature covers). */
  payload: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

export interface StandInRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  form: Record<string, unknown>;
}

export interface SignOptions {
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Default: the stand-in's webhook secret. */
  secret?: string;
}

export interface DeliverOptions extends SignOptions {
  /** The header as sent instead of a computed one; null: no Stripe-Signature header at all. */
  signature?: string | null;
}

export interface StripeStandIn {
  /** The base URL to give as STRIPE_API_BASE. */
  url: string;
  setWebhookUrl(url: string): void;
  sessions: Map<string, CheckoutSession>;
  /** Every API request received (not the hosted pages), with its form body decoded. */
  requests: StandInRequest[];
  /** Every webhook delivery made, in order. */
  deliveries: Delivery[];
  /** `Stripe-Signature` for a payload, exactly as Stripe computes it. */
  sign(payload: string, options?: SignOptions): string;
  /** An event of the given type around an object, as Stripe builds it (new id each time). */
  event(type: string, object: Record<string, unknown>): StripeEvent;
  /** Posts an event (or the exact payload of an earlier delivery) to the webhook URL, signed unless told otherwise. */
  deliver(event: StripeEvent | Delivery, options?: DeliverOptions): Promise<Delivery>;
  sendEvent(type: string, object: Record<string, unknown>, options?: DeliverOptions): Promise<Delivery>;
  /** Marks the session paid (what the Pay button does) and delivers checkout.session.completed. */
  pay(sessionId: string, options?: { paymentStatus?: 'paid' | 'unpaid' }): Promise<Delivery>;
  /** Delivers checkout.session.expired for an open session. */
  expire(sessionId: string): Promise<Delivery>;
  /** Refunds the session's charge (in full unless `amount`, in minor units) and delivers charge.refunded. */
  refund(sessionId: string, amount?: number): Promise<Delivery>;
  /** Opens a dispute on the session's charge and delivers charge.dispute.created. */
  dispute(sessionId: string, reason?: string): Promise<Delivery>;
  close(): Promise<void>;
}

const API_VERSION = '2026-10-28.endive';

const randomId = (prefix: string, length = 24) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(length);
  return prefix + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
};
const seconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=x` pairs (the package's encoding, qs-style) into nested objects and arrays. */
export function decodeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else container[slot] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
      node = container[slot] as Record<string, unknown>;
    });
  }
  return root;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function money(minor: number, currency: string): string {
  const zeroDecimal = ['jpy', 'krw', 'vnd', 'clp'].includes(currency);
  return (zeroDecimal ? minor : minor / 100).toLocaleString('en-US', { style: 'currency', currency: currency.toUpperCase() });
}

function stripeError(status: number, error: { type: string; message: string; code?: string; param?: string }) {
  return { status, body: { error } };
}

export async function startStripeStandIn(options: { secretKey: string; webhookSecret: string; webhookUrl?: string }): Promise<StripeStandIn> {
  let webhookUrl = options.webhookUrl ?? '';
  let apiVersion = API_VERSION;
  const sessions = new Map<string, CheckoutSession>();
  const charges = new Map<string, { id: string; amount: number; amount_refunded: number; payment_intent: string }>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const requests: StandInRequest[] = [];
  const deliveries: Delivery[] = [];
  let base = '';

  const sign = (payload: string, o: SignOptions = {}) => {
    const t = o.timestamp ?? seconds();
    const v1 = crypto.createHmac('sha256', o.secret ?? options.webhookSecret).update(`${t}.${payload}`, 'utf8').digest('hex');
    return `t=${t},v1=${v1}`;
  };

  const event = (type: string, object: Record<string, unknown>): StripeEvent => ({
    id: randomId('evt_test_'), object: 'event', api_version: apiVersion, created: seconds(), data: { object: structuredClone(object) },
    livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type,
  });

  const deliver = async (what: StripeEvent | Delivery, o: DeliverOptions = {}): Promise<Delivery> => {
    if (!webhookUrl) throw new Error('stripe stand-in: no webhook URL (setWebhookUrl)');
    const isDelivery = 'payload' in what;
    const ev = isDelivery ? what.event : what;
    const payload = isDelivery ? what.payload : JSON.stringify(ev, null, 2);
    const signature = o.signature === undefined ? sign(payload, o) : o.signature;
    const res = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === null ? {} : { 'stripe-signature': signature }),
      },
      body: payload,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch { /* kept as text */ }
    const delivery = { event: ev, payload, status: res.status, contentType: res.headers.get('content-type'), body };
    deliveries.push(delivery);
    return delivery;
  };
  const sendEvent = (type: string, object: Record<string, unknown>, o?: DeliverOptions) => deliver(event(type, object), o);

  const sessionOf = (id: string) => {
    const s = sessions.get(id);
    if (!s) throw new Error(`stripe stand-in: no session ${id}`);
    return s;
  };
  const publicSession = (s: CheckoutSession) => {
    const { line_items_sent: _, ...rest } = s;
    return rest;
  };

  const pay = async (sessionId: string, o: { paymentStatus?: 'paid' | 'unpaid' } = {}) => {
    const s = sessionOf(sessionId);
    if (s.status === 'open') {
      s.status = 'complete';
      s.payment_status = o.paymentStatus ?? 'paid';
      s.payment_intent = randomId('pi_test_');
      s.customer_details = { email: s.customer_email };
      charges.set(s.id, { id: randomId('ch_test_'), amount: s.amount_total, amount_refunded: 0, payment_intent: s.payment_intent });
    }
    return sendEvent('checkout.session.completed', publicSession(s));
  };

  const chargeObject = (s: CheckoutSession) => {
    const c = charges.get(s.id);
    if (!c) throw new Error(`stripe stand-in: session ${s.id} has no charge (not paid)`);
    return {
      id: c.id, object: 'charge', amount: c.amount, amount_captured: c.amount, amount_refunded: c.amount_refunded, captured: true,
      created: seconds(), currency: s.currency, livemode: false, metadata: s.metadata, paid: true, payment_intent: c.payment_intent,
      refunded: c.amount_refunded >= c.amount, status: 'succeeded',
    };
  };

  const api = (req: http.IncomingMessage, path: string, form: Record<string, unknown>): { status: number; body: unknown } => {
    const auth = req.headers.authorization ?? '';
    const key = /^Bearer (.+)$/.exec(auth)?.[1]
      ?? (/^Basic (.+)$/.exec(auth) ? Buffer.from(auth.slice(6), 'base64').toString().split(':')[0] : undefined);
    if (!key) {
      return stripeError(401, { type: 'invalid_request_error', message: 'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. \'Authorization: Bearer YOUR_SECRET_KEY\').' });
    }
    if (key !== options.secretKey) {
      return stripeError(401, { type: 'invalid_request_error', code: 'api_key_invalid', message: `Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` });
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      for (const param of ['mode', 'line_items']) {
        if (form[param] === undefined) return stripeError(400, { type: 'invalid_request_error', code: 'parameter_missing', param, message: `Missing required param: ${param}.` });
      }
      const items = form.line_items as { quantity?: string; price_data?: { currency?: string; unit_amount?: string } }[];
      const currencies = new Set(items.map((i) => i.price_data?.currency));
      if (currencies.size !== 1 || items.some((i) => !i.price_data?.unit_amount || !/^\d+$/.test(i.price_data.unit_amount))) {
        return stripeError(400, { type: 'invalid_request_error', code: 'parameter_invalid', param: 'line_items', message: 'Each line item needs price_data with a currency and an integer unit_amount.' });
      }
      const total = items.reduce((sum, i) => sum + Number(i.price_data!.unit_amount) * Number(i.quantity ?? 1), 0);
      const id = randomId('cs_test_', 58);
      const created = seconds();
      const session: CheckoutSession = {
        id, object: 'checkout.session', amount_subtotal: total, amount_total: total, cancel_url: (form.cancel_url as string) ?? null,
        client_reference_id: (form.client_reference_id as string) ?? null, created, currency: [...currencies][0]!, customer: null,
        customer_details: null, customer_email: (form.customer_email as string) ?? null, expires_at: created + 24 * 3600,
        livemode: false, metadata: (form.metadata as Record<string, string>) ?? {}, mode: String(form.mode), payment_intent: null,
        payment_method_types: ['card'], payment_status: 'unpaid', status: 'open', success_url: (form.success_url as string) ?? null,
        url: `${base}/pay/${id}`, line_items_sent: items,
      };
      sessions.set(id, session);
      return { status: 200, body: publicSession(session) };
    }
    const get = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && get) {
      const s = sessions.get(decodeURIComponent(get[1]));
      if (!s) return stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'session', message: `No such checkout.session: '${get[1]}'` });
      return { status: 200, body: publicSession(s) };
    }
    return stripeError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
  };

  const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
button{font:inherit;padding:.6rem 1.4rem;border-radius:.4rem;border:0;background:#635bff;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #0a2540;outline-offset:2px}</style></head>
<body><main>${body}</main></body></html>`;

  const hosted = async (req: http.IncomingMessage, res: http.ServerResponse, id: string) => {
    const s = sessions.get(id);
    const send = (status: number, html: string) =>
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
    if (!s) return send(404, page('Not found', '<h1>This checkout page does not exist</h1>'));
    if (req.method === 'POST') {
      if (s.status === 'expired') return send(410, page('Expired', '<h1>This checkout session has expired</h1>'));
      if (s.status === 'open') await pay(s.id);
      res.writeHead(303, { location: (s.success_url ?? '/').replaceAll('{CHECKOUT_SESSION_ID}', s.id) }).end();
      return;
    }
    const amount = money(s.amount_total, s.currency);
    const items = (s.line_items_sent as { price_data?: { product_data?: { name?: string } } }[])
      .map((i) => escapeHtml(i.price_data?.product_data?.name ?? 'Item')).join(', ');
    if (s.status !== 'open') return send(200, page('Checkout', `<h1>This checkout session is ${escapeHtml(s.status)}</h1>`));
    send(200, page(`Pay ${amount}`, `<h1>Stripe Checkout (test stand-in)</h1>
<p>${items}</p><p>Total: <strong data-testid="amount">${escapeHtml(amount)}</strong></p>
${s.customer_email ? `<p>Receipt to ${escapeHtml(s.customer_email)}</p>` : ''}
<form method="post" action="/pay/${encodeURIComponent(s.id)}"><button type="submit">Pay ${escapeHtml(amount)}</button></form>
${s.cancel_url ? `<p><a href="${escapeHtml(s.cancel_url.replaceAll('{CHECKOUT_SESSION_ID}', s.id))}">Cancel and go back</a></p>` : ''}`));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
        const payPage = /^\/pay\/([^/]+)$/.exec(path);
        if (payPage) return hosted(req, res, decodeURIComponent(payPage[1]));
        const form = decodeForm(Buffer.concat(chunks).toString('utf8'));
        requests.push({ method: req.method ?? '', path, headers: req.headers, form });
        if (typeof req.headers['stripe-version'] === 'string') apiVersion = req.headers['stripe-version'];
        const idempotencyKey = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
        const replay = typeof idempotencyKey === 'string' ? idempotent.get(idempotencyKey) : undefined;
        const answer = replay ?? api(req, path, form);
        if (typeof idempotencyKey === 'string' && !replay && answer.status < 500) idempotent.set(idempotencyKey, answer);
        res.writeHead(answer.status, {
          'content-type': 'application/json', 'request-id': randomId('req_', 14), 'stripe-version': apiVersion,
          ...(replay ? { 'idempotent-replayed': 'true' } : {}),
        }).end(JSON.stringify(answer.body, null, 2));
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    sessions, requests, deliveries, sign, event, deliver, sendEvent, pay,
    expire(sessionId) {
      const s = sessionOf(sessionId);
      if (s.status === 'open') {
        s.status = 'expired';
        s.url = null;
      }
      return sendEvent('checkout.session.expired', publicSession(s));
    },
    refund(sessionId, amount) {
      const s = sessionOf(sessionId);
      const c = charges.get(s.id);
      if (c) c.amount_refunded = Math.min(c.amount, c.amount_refunded + (amount ?? c.amount));
      return sendEvent('charge.refunded', chargeObject(s));
    },
    dispute(sessionId, reason = 'fraudulent') {
      const s = sessionOf(sessionId);
      const charge = chargeObject(s);
      return sendEvent('charge.dispute.created', {
        id: randomId('dp_test_'), object: 'dispute', amount: charge.amount, charge: charge.id, created: seconds(),
        currency: s.currency, is_charge_refundable: false, livemode: false, metadata: {}, payment_intent: charge.payment_intent,
        reason, status: 'needs_response',
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
