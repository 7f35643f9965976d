/**
 * Buying credit packs through Stripe Checkout (docs/api.md#credits-and-prices, docs/dashboard.md), on SQLite and PostgreSQL: the real service on port 0,
 * the `stripe` package pointed at the local stand-in (test/support/stripe-standin.ts), webhooks over real HTTP signed
 * the way Stripe signs them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../../src/billing/accounts.js';
import { grantIdOf, PaymentsNotConfiguredError, Purchases } from '../../src/billing/purchases.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, startTestService, type TestService } from '../support/service.js';
import { startStripeStandIn, type StripeEvent, type StripeStandIn } from '../support/stripe-standin.js';

const STRIPE_KEY = 'sk_test_standin0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_standinsecret0123456789abcdef';
const STRIPE_ENV = { STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, CREDIT_PACK_PRICES: '20000:0.0040,50000:0.0035' };

describe.each(testDatabases)('Stripe Checkout for credit packs ($name)', (database) => {
  let s: TestService;
  let stripe: StripeStandIn;

  beforeAll(async () => {
    stripe = await startStripeStandIn({ secretKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });
    s = await startTestService(await database.create(), { ...STRIPE_ENV, STRIPE_API_BASE: stripe.url });
    stripe.setWebhookUrl(`${s.url}/webhooks/stripe`);
  });
  afterAll(async () => {
    await s?.close();
    await stripe?.close();
    await database.dropAll();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** An account with no credits, and a Checkout Session for a pack. */
  async function checkout(packSize = 20_000) {
    const { accountId } = await s.newAccount(0);
    const started = await s.purchases.startCheckout({
      accountId, userId: 'user_test', email: 'buyer@shop.example', packSize,
      successUrl: `${s.url}/billing?checkout=done&session={CHECKOUT_SESSION_ID}`, cancelUrl: `${s.url}/billing?checkout=canceled`,
    });
    return { accountId, ...started };
  }
  const packGrants = async (accountId: string) => (await s.ledger.grants(accountId)).filter((g) => g.kind === 'pack');
  /** What checkout.session.completed carries once the session is paid, without delivering it. */
  function paidSession(sessionId: string, changes: Record<string, unknown> = {}) {
    const session = stripe.sessions.get(sessionId)!;
    const { line_items_sent: _, ...object } = session;
    return { ...object, status: 'complete', payment_status: 'paid', payment_intent: `pi_test_${sessionId.slice(-12)}`, ...changes };
  }
  const completedEvent = (sessionId: string, changes?: Record<string, unknown>): StripeEvent =>
    stripe.event('checkout.session.completed', paidSession(sessionId, changes));

  it('When a checkout starts, then Stripe gets one session with the pack\'s price and the account has an open receipt', async () => {
    const { accountId, sessionId, url } = await checkout(20_000);

    const request = stripe.requests.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(request.headers.authorization).toBe(`Bearer ${STRIPE_KEY}`);
    expect(request.headers['idempotency-key']).toMatch(/\S{16,}/);
    expect(request.form).toMatchObject({
      mode: 'payment', client_reference_id: accountId, customer_email: 'buyer@shop.example',
      metadata: { account_id: accountId, pack_size: '20000', user_id: 'user_test' },
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '8000', product_data: { name: '20,000 credits' } } }],
    });
    expect(sessionId).toMatch(/^cs_test_/);
    expect(url).toBe(`${stripe.url}/pay/${sessionId}`);
    expect(stripe.sessions.get(sessionId)).toMatchObject({ amount_total: 8000, currency: 'usd', status: 'open', payment_status: 'unpaid' });
    expect(await s.purchases.history(accountId)).toEqual([expect.objectContaining({
      checkout_session_id: sessionId, pack_size: 20_000, amount: '80.00', currency: 'usd', status: 'open', paid_at: null,
    })]);
  });

  it('When the pack is not on sale, then no session is created', async () => {
    const { accountId } = await s.newAccount(0);
    const before = stripe.requests.length;

    const attempt = s.purchases.startCheckout({
      accountId, userId: 'u', email: 'a@b.example', packSize: 12_345, successUrl: `${s.url}/ok`, cancelUrl: `${s.url}/no`,
    });

    await expect(attempt).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(stripe.requests.length).toBe(before);
  });

  it('When the Stripe key is wrong, then the checkout fails with Stripe\'s authentication error and nothing is recorded', async () => {
    const { accountId } = await s.newAccount(0);
    const wrongKey = new Purchases(s.db, s.ledger, {
      packPrices: new Map([[20_000, 0.004]]),
      stripe: { secretKey: 'sk_test_wrong000000000000', webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url, currency: 'usd' },
    }, s.logger);

    await expect(wrongKey.startCheckout({
      accountId, userId: 'u', email: 'a@b.example', packSize: 20_000, successUrl: `${s.url}/ok`, cancelUrl: `${s.url}/no`,
    })).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    expect(await s.purchases.history(accountId)).toEqual([]);
  });

  it('When the buyer pays on the hosted page, then exactly the pack is granted and the browser goes back to success_url', async () => {
    const { accountId, sessionId, url } = await checkout(50_000);

    const pageHtml = await (await fetch(url)).text();
    const paid = await fetch(`${stripe.url}/pay/${sessionId}`, { method: 'POST', redirect: 'manual' });

    expect(pageHtml).toContain('$175.00');
    expect(pageHtml).toMatch(/<button type="submit">Pay \$175\.00<\/button>/);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${s.url}/billing?checkout=done&session=${sessionId}`);
    expect(stripe.deliveries.at(-1)).toMatchObject({ status: 200, body: { received: true, type: 'checkout.session.completed', processed: true } });
    expect(await s.ledger.balance(accountId)).toBe(50_000);
    const [grant] = await packGrants(accountId);
    expect(grant).toMatchObject({ credits: 50_000, remaining: 50_000, price_usd: 175 });
    expect(Date.parse(grant.expires_at) - Date.now()).toBeGreaterThan(364 * 86_400_000);
    expect((await s.purchases.history(accountId))[0]).toMatchObject({ status: 'paid', amount: '175.00', paid_at: expect.any(String) });
  });

  it('When the same webhook is delivered twice, or another event for the same session comes, then the pack is granted once', async () => {
    const { accountId, sessionId } = await checkout();
    const first = await stripe.pay(sessionId);

    const again = await stripe.deliver(first);
    const sameSessionNewEvent = await stripe.sendEvent('checkout.session.completed', first.event.data.object);

    expect(first.body).toMatchObject({ processed: true });
    expect(again).toMatchObject({ status: 200, body: { received: true, processed: false } });
    expect(sameSessionNewEvent).toMatchObject({ status: 200, body: { received: true, processed: false } });
    expect(await packGrants(accountId)).toHaveLength(1);
    expect(await s.ledger.balance(accountId)).toBe(20_000);
  });

  it('When identical webhooks arrive at the same moment, then one grant is made', async () => {
    const { accountId, sessionId } = await checkout();
    const event = completedEvent(sessionId);
    const otherEventSameSession = completedEvent(sessionId);

    const answers = await Promise.all([
      stripe.deliver(event), stripe.deliver(event), stripe.deliver(otherEventSameSession), stripe.deliver(event),
    ]);

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await packGrants(accountId)).toHaveLength(1);
    expect(await s.ledger.balance(accountId)).toBe(20_000);
    const entries = await s.db.all(`SELECT kind, credits FROM ledger_entries WHERE account_id = $1`, [accountId]);
    expect(entries.map((e) => [e.kind, Number(e.credits)])).toEqual([['grant', 20_000]]);
  });

  it('When the service crashed between the grant and the receipt, then the redelivered event completes the receipt and grants nothing more', async () => {
    const { accountId, sessionId } = await checkout();
    // What the first delivery had done before the crash: the grant under the session's key, the receipt still open.
    await s.ledger.grant(accountId, { id: grantIdOf(sessionId), kind: 'pack', credits: 20_000, expiresAt: Date.now() + 365 * 86_400_000 });

    const redelivered = await stripe.deliver(completedEvent(sessionId));

    expect(redelivered.body).toMatchObject({ processed: true });
    expect(await packGrants(accountId)).toHaveLength(1);
    expect(await s.ledger.balance(accountId)).toBe(20_000);
    expect((await s.purchases.history(accountId))[0].status).toBe('paid');
  });

  it('When completed and then async_payment_succeeded arrive for a paid session, then one grant is made', async () => {
    const { accountId, sessionId } = await checkout();

    await stripe.deliver(completedEvent(sessionId));
    const later = await stripe.sendEvent('checkout.session.async_payment_succeeded', paidSession(sessionId));

    expect(later.body).toMatchObject({ type: 'checkout.session.async_payment_succeeded', processed: false });
    expect(await packGrants(accountId)).toHaveLength(1);
    expect(await s.ledger.balance(accountId)).toBe(20_000);
  });

  it('When a delayed payment completes unpaid, then nothing is granted until async_payment_succeeded', async () => {
    const { accountId, sessionId } = await checkout();

    const completed = await stripe.pay(sessionId, { paymentStatus: 'unpaid' });
    const balanceWhileUnpaid = await s.ledger.balance(accountId);
    const succeeded = await stripe.sendEvent('checkout.session.async_payment_succeeded', paidSession(sessionId, {
      payment_intent: stripe.sessions.get(sessionId)!.payment_intent,
    }));

    expect(completed.body).toMatchObject({ processed: false });
    expect(balanceWhileUnpaid).toBe(0);
    expect(succeeded.body).toMatchObject({ processed: true });
    expect(await s.ledger.balance(accountId)).toBe(20_000);
  });

  it.each([
    ['a signature that does not verify', { signature: 't=1,v1=00ff' }],
    ['no Stripe-Signature header', { signature: null }],
    ['a timestamp older than the 300 s tolerance', { timestamp: Math.floor(Date.now() / 1000) - 301 }],
    ['a signature made with another secret', { secret: 'whsec_someoneelse0123456789' }],
  ])('When a webhook comes with %s, then it is refused with a 400 problem and nothing is granted', async (_, options) => {
    const { accountId, sessionId } = await checkout();
    const event = completedEvent(sessionId);

    const refused = await stripe.deliver(event, options);

    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ type: '/problems/webhook-signature-invalid', status: 400 });
    expect(refused.contentType).toMatch(/^application\/problem\+json/);
    expect(await s.ledger.balance(accountId)).toBe(0);
    // The refused event was not recorded as seen: signed properly, it is processed.
    expect((await stripe.deliver(event)).body).toMatchObject({ processed: true });
  });

  it('When a paid event names a session this service never created, then it is acknowledged, logged and nothing is granted', async () => {
    const warn = vi.spyOn(s.logger, 'warn');
    const grantsBefore = await s.db.all(`SELECT COUNT(*) AS n FROM credit_grants`);

    const answer = await stripe.sendEvent('checkout.session.completed', {
      id: 'cs_test_unknown0000000000', object: 'checkout.session', amount_total: 8000, currency: 'usd', payment_status: 'paid',
      status: 'complete', client_reference_id: null, metadata: { account_id: 'acct_x', pack_size: '500000' }, payment_intent: 'pi_test_x',
    });

    expect(answer).toMatchObject({ status: 200, body: { received: true, processed: false } });
    expect(await s.db.all(`SELECT COUNT(*) AS n FROM credit_grants`)).toEqual(grantsBefore);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ checkout_session_id: 'cs_test_unknown0000000000' }), expect.any(String));
  });

  it('When the paid amount or currency does not match the purchase, then nothing is granted and the mismatch is logged', async () => {
    const error = vi.spyOn(s.logger, 'error');
    const { accountId, sessionId } = await checkout();

    const cheaper = await stripe.deliver(completedEvent(sessionId, { amount_total: 100 }));
    const otherCurrency = await stripe.deliver(completedEvent(sessionId, { currency: 'eur' }));

    expect(cheaper.body).toMatchObject({ processed: false });
    expect(otherCurrency.body).toMatchObject({ processed: false });
    expect(await s.ledger.balance(accountId)).toBe(0);
    expect((await s.purchases.history(accountId))[0].status).toBe('open');
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ checkout_session_id: sessionId, mismatch: 'amount' }), expect.any(String));
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ checkout_session_id: sessionId, mismatch: 'currency' }), expect.any(String));
  });

  it('When a purchase is refunded in full, then its unspent credits are withdrawn once and the receipt and grant say so', async () => {
    const { accountId, sessionId } = await checkout();
    await stripe.pay(sessionId);
    await s.ledger.debit(accountId, [{ module: 'email', credits: 1_500 }], 'req_before_refund');

    const refunded = await stripe.refund(sessionId);
    const again = await stripe.deliver(refunded);

    expect(refunded.body).toMatchObject({ type: 'charge.refunded', processed: true });
    expect(again.body).toMatchObject({ processed: false });
    expect(await s.ledger.balance(accountId)).toBe(0);
    const [grant] = await packGrants(accountId);
    expect(grant.remaining).toBe(0);
    const expiries = await s.db.all(`SELECT credits FROM ledger_entries WHERE account_id = $1 AND kind = 'expire'`, [accountId]);
    expect(expiries.map((e) => Number(e.credits))).toEqual([-18_500]);
    const [receipt] = await s.purchases.history(accountId);
    expect(receipt.refunded_at).toEqual(expect.any(String));
    expect(receipt.note).toMatch(/^refunded \d{4}-\d{2}-\d{2}; unspent credits withdrawn$/);
    const [grantRow] = await s.db.all<{ note: string }>(`SELECT note FROM credit_grants WHERE id = $1`, [grant.id]);
    expect(grantRow.note).toBe(receipt.note);
    // The withdrawn credits are gone for debits too (the ledger's own view of the grant, not only the SQL).
    expect(await s.ledger.debit(accountId, [{ module: 'email', credits: 1 }], 'req_after_refund')).toMatchObject({ ok: false });
  });

  it('When a purchase is refunded in part, then it is noted and the credits stay', async () => {
    const { accountId, sessionId } = await checkout();
    await stripe.pay(sessionId);

    const partial = await stripe.refund(sessionId, 2_000);

    expect(partial.body).toMatchObject({ processed: true });
    expect(await s.ledger.balance(accountId)).toBe(20_000);
    const [receipt] = await s.purchases.history(accountId);
    expect(receipt).toMatchObject({ refunded_at: null, note: expect.stringMatching(/^partially refunded 20\.00 USD on \d{4}-\d{2}-\d{2}$/) });
  });

  it('When a payment is disputed, then the receipt and the grant are noted and the credits stay', async () => {
    const { accountId, sessionId } = await checkout();
    await stripe.pay(sessionId);

    const disputed = await stripe.dispute(sessionId, 'fraudulent');
    await stripe.deliver(disputed);

    expect(disputed.body).toMatchObject({ type: 'charge.dispute.created', processed: true });
    expect(await s.ledger.balance(accountId)).toBe(20_000);
    const [receipt] = await s.purchases.history(accountId);
    expect(receipt).toMatchObject({ disputed_at: expect.any(String), note: expect.stringMatching(/^disputed \d{4}-\d{2}-\d{2} \(fraudulent\)$/) });
    const [grant] = await packGrants(accountId);
    const [grantRow] = await s.db.all<{ note: string }>(`SELECT note FROM credit_grants WHERE id = $1`, [grant.id]);
    expect(grantRow.note).toBe(receipt.note);
  });

  it('When a session expires unpaid, then its receipt says expired and nothing is granted', async () => {
    const { accountId, sessionId } = await checkout();

    const expired = await stripe.expire(sessionId);

    expect(expired.body).toMatchObject({ processed: true });
    expect((await s.purchases.history(accountId))[0].status).toBe('expired');
    expect(await s.ledger.balance(accountId)).toBe(0);
  });

  it('When an account has bought packs, then its history lists them newest first and another account never sees them', async () => {
    const { accountId, sessionId: first } = await checkout(20_000);
    await stripe.pay(first);
    const second = await s.purchases.startCheckout({
      accountId, userId: 'user_test', email: 'buyer@shop.example', packSize: 50_000, successUrl: `${s.url}/ok`, cancelUrl: `${s.url}/no`,
    });
    const { accountId: other } = await s.newAccount(0);

    const history = await s.purchases.history(accountId);

    expect(history.map((r) => [r.checkout_session_id, r.status])).toEqual([[second.sessionId, 'open'], [first, 'paid']]);
    expect(await s.purchases.history(other)).toEqual([]);
  });

  it('When something other than POST reaches the webhook endpoint, then it is answered 405 with Allow: POST', async () => {
    const res = await fetch(`${s.url}/webhooks/stripe`);

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('Stripe Checkout when Stripe is not configured', () => {
  const database = testDatabases[0];
  let s: TestService;
  beforeAll(async () => {
    s = await startTestService(await database.create());
  });
  afterAll(async () => {
    await s?.close();
    await database.dropAll();
  });

  it('When a checkout is asked for or a webhook arrives, then payments are reported as not configured (503)', async () => {
    const res = await fetch(`${s.url}/webhooks/stripe`, { method: 'POST', headers: { 'stripe-signature': 't=1,v1=00' }, body: '{}' });

    expect(s.purchases.enabled).toBe(false);
    await expect(s.purchases.startCheckout({
      accountId: 'acct_x', userId: 'u', email: 'a@b.example', packSize: 20_000, successUrl: 'http://x/ok', cancelUrl: 'http://x/no',
    })).rejects.toBeInstanceOf(PaymentsNotConfiguredError);
    expect(res.status).toBe(503);
    expect((await problemOf(res)).type).toBe('/problems/payments-not-configured');
  });
});
