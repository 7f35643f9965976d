/**
 * Buying credit packs through Stripe Checkout (docs/api.md#credits-and-prices, docs/dashboard.md), the story: a person picks a pack; we create one
 * Checkout Session for it (the pack's price from configuration, never from the form) and keep a `purchases` row, the
 * receipt; Stripe sends the person to its hosted page and, once paid, delivers a signed `checkout.session.completed`
 * event. The signature is checked with the `stripe` package's own verifier (HMAC-SHA256, 300 s tolerance), then:
 *
 * - paid: the grant of the pack as OUR row knows it (size, amount, currency; a session we never created grants nothing),
 *   made once per session id however often, in whatever order and however concurrently Stripe delivers: the grant's id
 *   is derived from the session id and inserted ON CONFLICT DO NOTHING, so that a redelivery after a crash between the
 *   grant and the receipt's update adds nothing and completes the receipt;
 * - expired: the receipt says so;
 * - a full refund: the grant's unspent credits are withdrawn and the receipt and the grant carry a note (a partial
 *   refund is only noted); a dispute is noted. Charges are linked to receipts through the payment intent.
 *
 * Every processed event id goes into `stripe_events`, and a repeat is acknowledged without work; each handler is
 * idempotent by itself besides, so the record is written after the work (a crash in between means work again, not none).
 */
import crypto from 'node:crypto';
import type Stripe from 'stripe';
import { createGuardedHttp } from '../net/outbound-guard.js';
import type { Config } from '../config.js';
import type { Database } from '../db/data-source.js';
import { run, runSteps, type Steps } from '../db/transaction-steps.js';
import type { Logger } from '../log.js';
import { InvalidArgumentError } from './accounts.js';
import type { CreditLedger } from './ledger.js';
import { DAY_MS, listPacks, PACK_VALIDITY_DAYS } from './pricing.js';

/** The webhook's `Stripe-Signature` is missing, malformed, stale, or not made with our signing secret. */
export class WebhookSignatureError extends Error {}

/** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set: no card payments on this service. */
export class PaymentsNotConfiguredError extends Error {
  constructor() {
    super('Card payments are not configured on this service (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET).');
  }
}

/** One purchase as the account sees it. `amount` is a decimal string in the currency's major unit ("80.00"). */
export interface Receipt {
  checkout_session_id: string;
  pack_size: number;
  amount: string;
  currency: string;
  status: 'open' | 'paid' | 'expired';
  created_at: string;
  paid_at: string | null;
  refunded_at: string | null;
  disputed_at: string | null;
  note: string | null;
}

interface PurchaseRow {
  checkout_session_id: string;
  account_id: string;
  pack_size: number | string;
  amount_cents: number | string;
  currency: string;
  status: Receipt['status'];
  payment_intent: string | null;
  grant_id: string | null;
  note: string | null;
  created_at: number | string;
  paid_at: number | string | null;
  refunded_at: number | string | null;
  disputed_at: number | string | null;
}

/** Currencies whose amounts Stripe counts in whole units (https://docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL_CURRENCIES = new Set([
  'bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf',
]);
const minorUnitsPer = (currency: string) => (ZERO_DECIMAL_CURRENCIES.has(currency) ? 1 : 100);
const decimalAmount = (minor: number, currency: string) =>
  (minor / minorUnitsPer(currency)).toFixed(ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2);

/** The grant a Checkout Session pays for: the same id every time, so that the ledger makes it once. */
export function grantIdOf(checkoutSessionId: string): string {
  return `grant_cs_${crypto.createHash('sha256').update(checkoutSessionId).digest('base64url').slice(0, 24)}`;
}

/** Fields every log line of one event carries. */
type LogContext = { stripe_event: string; type: string };

const SESSION_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
const PURCHASE_COLUMNS = `checkout_session_id, account_id, pack_size, amount_cents, currency, status, payment_intent, grant_id,
  note, created_at, paid_at, refunded_at, disputed_at`;
/** `note`, with `text` appended (after "; " when there is one already). */
const APPEND_NOTE = (n: number) => `CASE WHEN note IS NULL OR note = '' THEN CAST($${n} AS TEXT) ELSE note || '; ' || CAST($${n} AS TEXT) END`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : ref?.id ?? null);

/** The client and the package's error classes, loaded on first use. */
interface StripeClient {
  stripe: Stripe;
  errors: typeof Stripe.errors;
}

export class Purchases {
  /**
   * Made on the first checkout or webhook: the package (some 500 modules, several MiB) is loaded only by a service that
   * sells packs, and only once it does.
   */
  private stripeClient: Promise<StripeClient> | undefined;

  constructor(
    private readonly db: Database,
    private readonly ledger: CreditLedger,
    private readonly settings: { packPrices: ReadonlyMap<number, number>; stripe: Config['stripe'] },
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return Boolean(this.settings.stripe);
  }

  private client(): Promise<StripeClient> {
    const s = this.settings.stripe;
    if (!s) throw new PaymentsNotConfiguredError();
    this.stripeClient ??= import('stripe').then(({ default: StripePackage }) => ({
      stripe: new StripePackage(s.secretKey, this.clientOptions(StripePackage)), errors: StripePackage.errors,
    }));
    return this.stripeClient;
  }

  private clientOptions(StripePackage: typeof Stripe): Stripe.StripeConfig {
    const s = this.settings.stripe!;
    let endpoint: Partial<Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'>> = {};
    if (s.apiBase) {
      // STRIPE_API_BASE (tests: the local stand-in): only its origin counts, the package adds /v1/….
      const base = new URL(s.apiBase);
      endpoint = { protocol: base.protocol === 'http:' ? 'http' : 'https', host: base.hostname, port: base.port || (base.protocol === 'http:' ? 80 : 443) };
    }
    // Through the outbound guard (no redirect, no private address but the configured STRIPE_API_BASE).
    const httpClient = StripePackage.createFetchHttpClient(createGuardedHttp({ privateOrigins: s.apiBase ? [s.apiBase] : [] }).fetch);
    return { ...endpoint, httpClient, maxNetworkRetries: 2, timeout: 20_000, telemetry: false };
  }

  /** One Checkout Session for one pack, and its receipt (open). The URL is Stripe's hosted payment page. */
  async startCheckout(input: {
    accountId: string; userId: string; email: string; packSize: number; successUrl: string; cancelUrl: string;
  }): Promise<{ sessionId: string; url: string }> {
    const { settings } = this;
    if (!settings.stripe) throw new PaymentsNotConfiguredError();
    const pack = listPacks(settings.packPrices).find((p) => p.size === input.packSize);
    if (!pack) throw new InvalidArgumentError(`there is no pack of ${String(input.packSize).slice(0, 20)} credits on sale`);
    const currency = settings.stripe.currency;
    const amount = Math.round(pack.priceUsd * minorUnitsPer(currency));
    const metadata = { account_id: input.accountId, pack_size: String(pack.size), user_id: input.userId };
    const { stripe } = await this.client();
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{
        quantity: 1,
        price_data: {
          currency, unit_amount: amount,
          product_data: { name: `${pack.size.toLocaleString('en-US')} credits`, description: `Usable for ${PACK_VALIDITY_DAYS} days` },
        },
      }],
      client_reference_id: input.accountId,
      customer_email: input.email,
      metadata,
      // The charge's refund and dispute events name the payment intent; its metadata helps whoever reads the dashboard.
      payment_intent_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    }, {
      // One key per purchase attempt: the package's retries of this POST (network errors) cannot make a second session.
      idempotencyKey: `checkout_${crypto.randomUUID()}`,
    });
    if (!session.url) throw new Error(`Stripe answered Checkout Session ${session.id} without a URL`);
    await this.db.run(
      `INSERT INTO purchases (checkout_session_id, account_id, user_id, pack_size, amount_cents, currency, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'open', $7)`,
      [session.id, input.accountId, input.userId, pack.size, amount, currency, this.now()],
    );
    this.logger.info({ account_id: input.accountId, checkout_session_id: session.id, pack_size: pack.size }, 'checkout started');
    return { sessionId: session.id, url: session.url };
  }

  /**
   * A delivery to POST /webhooks/stripe. Throws WebhookSignatureError unless the raw body is signed with our webhook
   * secret within the tolerance; otherwise acknowledges it, `processed` saying whether it changed anything.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ type: string; processed: boolean }> {
    const { settings } = this;
    if (!settings.stripe) throw new PaymentsNotConfiguredError();
    if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
    const { stripe, errors } = await this.client();
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(rawBody, signature, settings.stripe.webhookSecret);
    } catch (err) {
      if (err instanceof errors.StripeSignatureVerificationError) throw new WebhookSignatureError(err.message);
      // Signed by us but not an event (the package parses after verifying): nothing Stripe would send.
      throw new InvalidArgumentError('the webhook body is not a Stripe event');
    }
    const seen = await this.db.all(`SELECT 1 AS hit FROM stripe_events WHERE id = $1`, [event.id]);
    if (seen.length) return { type: event.type, processed: false };

    const processed = await this.process(event);
    await this.db.run(
      `INSERT INTO stripe_events (id, type, received_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [event.id, event.type, this.now()],
    );
    return { type: event.type, processed };
  }

  private async process(event: Stripe.Event): Promise<boolean> {
    const log = { stripe_event: event.id, type: event.type };
    if (SESSION_EVENTS.has(event.type)) return this.paid(event.data.object as Stripe.Checkout.Session, log);
    switch (event.type) {
      case 'checkout.session.expired': {
        const session = event.data.object;
        const changed = await this.db.run(
          `UPDATE purchases SET status = 'expired' WHERE checkout_session_id = $1 AND status = 'open'`, [session.id],
        );
        return changed > 0;
      }
      case 'charge.refunded':
        return this.refunded(event.data.object, log);
      case 'charge.dispute.created':
        return this.disputed(event.data.object, log);
      default:
        this.logger.debug(log, 'stripe event not handled');
        return false;
    }
  }

  /** A paid session: the pack's grant, once, then the receipt. */
  private async paid(session: Stripe.Checkout.Session, log: LogContext): Promise<boolean> {
    const row = await this.purchase(session.id);
    if (!row) {
      this.logger.warn({ ...log, checkout_session_id: session.id }, 'a Checkout Session this service did not create: acknowledged, nothing granted');
      return false;
    }
    const paymentIntent = idOf(session.payment_intent);
    if (session.payment_status !== 'paid') {
      // A delayed payment method: the grant waits for checkout.session.async_payment_succeeded.
      if (paymentIntent) {
        await this.db.run(`UPDATE purchases SET payment_intent = $2 WHERE checkout_session_id = $1 AND payment_intent IS NULL`, [session.id, paymentIntent]);
      }
      this.logger.info({ ...log, checkout_session_id: session.id, payment_status: session.payment_status }, 'checkout completed, payment pending');
      return false;
    }
    const amount = Number(row.amount_cents);
    const mismatch = session.amount_total !== amount ? 'amount' : session.currency?.toLowerCase() !== row.currency ? 'currency'
      : session.client_reference_id && session.client_reference_id !== row.account_id ? 'account' : null;
    if (mismatch) {
      this.logger.error({ ...log,
        checkout_session_id: session.id, account_id: row.account_id, mismatch,
        expected: { amount, currency: row.currency, account_id: row.account_id },
        received: { amount: session.amount_total, currency: session.currency, client_reference_id: session.client_reference_id },
      }, 'paid Checkout Session does not match its purchase: nothing granted');
      return false;
    }
    const at = this.now();
    const grant = await this.ledger.grant(row.account_id, {
      id: grantIdOf(session.id), kind: 'pack', credits: Number(row.pack_size), expiresAt: at + PACK_VALIDITY_DAYS * DAY_MS,
      priceUsd: amount / minorUnitsPer(row.currency),
    });
    const changed = await this.db.run(
      `UPDATE purchases SET status = 'paid', paid_at = COALESCE(paid_at, $2), payment_intent = COALESCE(payment_intent, $3), grant_id = $4
       WHERE checkout_session_id = $1 AND (status <> 'paid' OR grant_id IS NULL)`,
      [session.id, at, paymentIntent, grant.id],
    );
    if (changed > 0) this.logger.info({ ...log, checkout_session_id: session.id, account_id: row.account_id, grant_id: grant.id, credits: grant.credits }, 'pack granted');
    return changed > 0;
  }

  /** charge.refunded: a full refund withdraws the grant's unspent credits; a partial one is noted. */
  private async refunded(charge: Stripe.Charge, log: LogContext): Promise<boolean> {
    const row = await this.purchaseOfCharge(charge, log);
    if (!row) return false;
    const at = this.now();
    if (charge.amount_refunded < charge.amount) {
      const text = `partially refunded ${decimalAmount(charge.amount_refunded, row.currency)} ${row.currency.toUpperCase()} on ${day(at)}`;
      // Once per text, even when two deliveries of the event run at once (PostgreSQL re-checks the WHERE after the row lock).
      const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return this.note(row, text, `(note IS NULL OR note NOT LIKE $3 ESCAPE '\\')`, [pattern]);
    }
    const withdrawn = row.grant_id ? await this.ledger.withdraw(row.account_id, row.grant_id) : 0;
    const changed = await this.note(row, `refunded ${day(at)}; unspent credits withdrawn`, 'refunded_at IS NULL', [], `refunded_at = ${at}`);
    this.logger.info({ ...log, checkout_session_id: row.checkout_session_id, account_id: row.account_id, withdrawn }, 'purchase refunded');
    return changed || withdrawn > 0;
  }

  private async disputed(dispute: Stripe.Dispute, log: LogContext): Promise<boolean> {
    const row = await this.purchaseOfCharge(dispute, log);
    if (!row) return false;
    const at = this.now();
    const reason = dispute.reason ? ` (${String(dispute.reason).slice(0, 60)})` : '';
    const changed = await this.note(row, `disputed ${day(at)}${reason}`, 'disputed_at IS NULL', [], `disputed_at = ${at}`);
    if (changed) this.logger.warn({ ...log, checkout_session_id: row.checkout_session_id, account_id: row.account_id, dispute: dispute.id }, 'purchase disputed');
    return changed;
  }

  /**
   * Appends `text` to the receipt's note and its grant's, in one transaction, when the receipt matches `condition`
   * (which makes it once). `set`: more of the receipt to change (an integer timestamp, written into the SQL).
   */
  private note(row: PurchaseRow, text: string, condition: string, extra: unknown[], set?: string): Promise<boolean> {
    return runSteps(this.db, function* (): Steps<boolean> {
      const changed = (yield run(
        `UPDATE purchases SET note = ${APPEND_NOTE(2)}${set ? `, ${set}` : ''} WHERE checkout_session_id = $1 AND ${condition}`,
        row.checkout_session_id, text, ...extra,
      )) as number;
      if (changed && row.grant_id) yield run(`UPDATE credit_grants SET note = ${APPEND_NOTE(2)} WHERE id = $1`, row.grant_id, text);
      return changed > 0;
    });
  }

  private async purchase(checkoutSessionId: string): Promise<PurchaseRow | null> {
    const [row] = await this.db.all<PurchaseRow>(`SELECT ${PURCHASE_COLUMNS} FROM purchases WHERE checkout_session_id = $1`, [checkoutSessionId]);
    return row ?? null;
  }

  /** The receipt a charge (or a dispute of one) belongs to, through the payment intent kept when the session was paid. */
  private async purchaseOfCharge(object: Stripe.Charge | Stripe.Dispute, log: LogContext): Promise<PurchaseRow | null> {
    const paymentIntent = idOf(object.payment_intent);
    const rows = paymentIntent
      ? await this.db.all<PurchaseRow>(`SELECT ${PURCHASE_COLUMNS} FROM purchases WHERE payment_intent = $1`, [paymentIntent])
      : [];
    if (!rows[0]) this.logger.warn({ ...log, object: object.id, payment_intent: paymentIntent }, 'a charge of no purchase this service knows: acknowledged');
    return rows[0] ?? null;
  }

  /** The account's receipts, newest first. */
  async history(accountId: string): Promise<Receipt[]> {
    const rows = await this.db.all<PurchaseRow>(
      `SELECT ${PURCHASE_COLUMNS} FROM purchases WHERE account_id = $1 ORDER BY created_at DESC, checkout_session_id DESC`,
      [accountId],
    );
    return rows.map((r) => ({
      checkout_session_id: r.checkout_session_id,
      pack_size: Number(r.pack_size),
      amount: decimalAmount(Number(r.amount_cents), r.currency),
      currency: r.currency,
      status: r.status,
      created_at: iso(r.created_at)!,
      paid_at: iso(r.paid_at),
      refunded_at: iso(r.refunded_at),
      disputed_at: iso(r.disputed_at),
      note: r.note,
    }));
  }
}
