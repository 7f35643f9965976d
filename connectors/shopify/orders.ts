/**
 * Orders checked at purchase (docs/shopify.md), the story: `orders/create` brings the order (an express-wallet order
 * too: its address is on the order itself); the first delivery of an order claims it in the books, checks its
 * shipping address, e-mail and phone (charged once per order: edits and re-checks are free), records ONE risk
 * assessment on it, holds its fulfillment when the address is undeliverable and the store's `hold` setting is on, and
 * mails the buyer a signed link to confirm or correct a doubtful address. The buyer's answer (that page, or the
 * thank-you / order-status extension) writes a correction to the order (`orderUpdate`) and releases the hold; so does
 * an `orders/updated` whose address now validates (the merchant corrected it). Every step names the connector whose
 * secret signed the delivery or the token: a store reaches only its own orders; a session token reaches only its
 * signed-in customer's, and a guest's order only the signed link mailed to its buyer.
 */
import type { ConnectorRow } from '../../src/sync/connector-store.js';
import { addressHash, InsufficientCredits, type ContactAnswer, type OrderChecks } from '../../src/sync/order-checks.js';
import {
  OrderNotFound, OrderWriteRefused, type AddressCorrection, type BuyerAnswer, type ConfirmOutcome, type DoubtReason, type OrderPort,
} from '../../src/sync/order-port.js';
import type { CheckoutCount, ReleaseReason, ShopOrder } from '../../src/sync/order-book.js';
import type { RecordContact } from '../../src/sync/plugin.js';
import type { ShopifyClient } from './client.js';
import { clientFor, shopifySettingsSchema, type ShopifyCredentials, type ShopifyPluginOptions, type ShopifySettings } from './index.js';
import { addressOfRest, contactOf, keyOf, parseKey, type MailingAddress } from './mapping.js';
import { assessRisk, doubtful, undeliverable } from './order-risk.js';
import { readSessionToken } from './session-token.js';

export { OrderNotFound, OrderWriteRefused, SessionTokenRefused } from '../../src/sync/order-port.js';

/** The handle of our holds: one per fulfillment order, released by id (never another app's). */
const HOLD_HANDLE = 'contact-validator-address';

const DOUBTS: [string, DoubtReason][] = [['address_undeliverable', 'undeliverable'], ['address_ambiguous', 'ambiguous'], ['address_unit_missing', 'unit_missing']];

interface StoreAccess { connector: ConnectorRow; credentials: Record<string, unknown> }

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The contact of an order as a REST payload gives it: e-mail (else the contact e-mail), phone, shipping address. */
export function orderContactOf(p: Record<string, unknown>): { contact: RecordContact; address: MailingAddress | null } {
  const address = addressOfRest(p.shipping_address);
  return { contact: contactOf(text(p.email) || text(p.contact_email), p.phone, address), address };
}

export class ShopifyOrders implements OrderPort {
  readonly type = 'shopify';

  constructor(
    private readonly checks: OrderChecks,
    private readonly options: ShopifyPluginOptions = {},
  ) {}

  /**
   * Whether an `orders/create` of this order is checked: an order's GID, an active connector. The core then stores
   * its check as a job of the plugin (`order-check`: `created`) before the delivery is answered, so that an instance
   * dying before or during the check leaves it to another.
   */
  accepts(connector: ConnectorRow, gid: string): boolean {
    return parseKey(keyOf('orders', gid)) !== null && connector.status === 'active';
  }

  /**
   * `orders/create`: checked, assessed, held and mailed once per order, whatever repeats. A repeated attempt (its
   * instance died) goes on where the books say the last one stopped: the check costs nothing again (charged per
   * order), the assessment is taken once in the books, and a hold placed or a mail sent is not repeated.
   */
  async created({ connector, credentials }: StoreAccess, payload: Record<string, unknown>): Promise<void> {
    const gid = text(payload.admin_graphql_api_id);
    if (!parseKey(keyOf('orders', gid)) || connector.status !== 'active') return;
    const customer = (payload.customer ?? null) as { admin_graphql_api_id?: unknown } | null;
    await this.checks.book.claim(connector.id, gid, { orderName: text(payload.name) || null, customerKey: text(customer?.admin_graphql_api_id) || null });
    const order = await this.checks.book.get(connector.id, gid);
    if (!order || order.facts.some((f) => f.startsWith('not_checked_'))) return;
    const { contact } = orderContactOf(payload);
    if (order.riskLevel === null && (await this.checks.capReached(connector))) {
      await this.checks.book.update(connector.id, gid, { facts: ['not_checked_credit_cap'] });
      return;
    }
    let answer: ContactAnswer;
    try {
      answer = await this.checks.check(connector, keyOf('orders', gid), contact);
    } catch (err) {
      if (!(err instanceof InsufficientCredits)) throw err;
      await this.checks.book.update(connector.id, gid, { facts: ['not_checked_credits_exhausted'] });
      return;
    }
    const settings = shopifySettingsSchema.parse(connector.settings);
    const risk = assessRisk(answer);
    await this.checks.book.update(connector.id, gid, {
      addressHash: addressHash(contact.address), addressStatus: answer.address?.status ?? null, riskLevel: risk.riskLevel, facts: risk.facts.map((f) => f.code),
    });
    // The store may refuse for a while: the buyer is asked all the same, and the next orders/updated records the
    // assessment that could not be (its row says so: no risk_recorded_at). The mail goes last, so that an attempt
    // killed while the store answers has not mailed yet, and the attempt that takes over mails once.
    await this.withClient({ connector, credentials }, async (client) => {
      await this.recordRisk(client, connector, gid, risk);
      if (settings.hold && !order.holds.length && undeliverable(answer.address)) await this.hold(client, connector, gid, answer);
    }).catch((err: unknown) => this.checks.log.warn({ err, connector_id: connector.id }, 'order assessment not written to the store; orders/updated records it'));
    const to = text(payload.email) || text(payload.contact_email);
    if (order.mailedAt === null && doubtful(answer.address) && to && answer.email?.status !== 'invalid') await this.mailBuyer(connector, gid, to, text(payload.name), answer);
  }

  /** `orders/updated`: a changed shipping address is checked again (free); one that now validates releases our hold. */
  async updated({ connector, credentials }: StoreAccess, payload: Record<string, unknown>): Promise<void> {
    const gid = text(payload.admin_graphql_api_id);
    const order = parseKey(keyOf('orders', gid)) ? await this.checks.book.get(connector.id, gid) : null;
    if (!order) return;
    const { contact } = orderContactOf(payload);
    if (order.riskRecordedAt === null && order.riskLevel !== null) {
      // The assessment the first delivery could not record (the store did not answer): once, from the order now.
      const risk = assessRisk(await this.checks.check(connector, keyOf('orders', gid), contact));
      await this.withClient({ connector, credentials }, (client) => this.recordRisk(client, connector, gid, risk));
    }
    const hash = addressHash(contact.address);
    if (!contact.address || hash === order.addressHash) return;
    const answer = await this.checks.check(connector, keyOf('orders', gid), { address: contact.address, ...(contact.country ? { country: contact.country } : {}) });
    await this.checks.book.update(connector.id, gid, { addressHash: hash, addressStatus: answer.address?.status ?? null });
    if (!undeliverable(answer.address) && this.holding(order)) {
      await this.withClient({ connector, credentials }, (client) => this.release(client, order, 'merchant_corrected'));
    }
  }

  private holding = (order: ShopOrder) => order.holds.length > 0 && order.releasedAt === null;

  /** The buyer confirms the address or corrects it (their page or the order-status extension). */
  async answer({ connector, credentials }: StoreAccess, gid: string, answer: BuyerAnswer): Promise<ConfirmOutcome> {
    const order = parseKey(keyOf('orders', gid)) ? await this.checks.book.get(connector.id, gid) : null;
    if (!order) throw new OrderNotFound();
    const at = this.checks.now();
    if (answer.action === 'confirm') {
      const released = this.holding(order)
        ? await this.withClient({ connector, credentials }, (client) => this.release(client, order, 'buyer_confirmed'))
        : false;
      if (order.confirmation !== 'confirmed') await this.checks.book.count(connector.id, 'confirmed_by_buyer');
      await this.checks.book.update(connector.id, gid, { confirmation: 'confirmed', confirmedAt: at });
      return { status: 'confirmed', address: null, released };
    }
    const a = answer.address;
    const contact = contactOf(null, null, { address1: a.address1, address2: a.address2, city: a.city, provinceCode: a.provinceCode, zip: a.zip, countryCodeV2: a.countryCode });
    const checked = await this.checks.check(connector, keyOf('orders', gid), { address: contact.address, ...(contact.country ? { country: contact.country } : {}) });
    if (undeliverable(checked.address)) return { status: 'undeliverable', address: checked.address, released: false };
    const released = await this.withClient({ connector, credentials }, async (client) => {
      await this.writeAddress(client, gid, a);
      // Our own write comes back as orders/updated: the same address then checks nothing.
      await this.checks.book.update(connector.id, gid, {
        addressHash: addressHash(contact.address), addressStatus: checked.address?.status ?? null, confirmation: 'corrected', confirmedAt: at,
      });
      return this.release(client, order, 'buyer_corrected');
    });
    await this.checks.book.count(connector.id, 'corrected_by_buyer');
    return { status: 'corrected', address: checked.address, released };
  }

  /**
   * The buyer's answer from the thank-you or order-status extension, authenticated by Shopify's session token: it
   * reaches only orders of the shop whose secret signed it, and of those only the signed-in customer's own
   * (orderOfSessionToken). Throws SessionTokenRefused, OrderNotFound.
   */
  async answerWithSessionToken(token: string, gid: string, answer: BuyerAnswer): Promise<ConfirmOutcome> {
    const { store } = await this.orderOfSessionToken(token, gid);
    return this.answer(store, gid, answer);
  }

  /**
   * Whether the extension should ask the buyer about the order's address, and why (the same session token rules);
   * OrderNotFound while the order is not checked yet (its orders/create may come after the thank-you page).
   */
  async questionWithSessionToken(token: string, gid: string): Promise<{ ask: boolean; reason: DoubtReason | null }> {
    const { order } = await this.orderOfSessionToken(token, gid);
    const reason = DOUBTS.find(([fact]) => order.facts.includes(fact))?.[1] ?? null;
    return { ask: reason !== null && order.confirmation !== 'confirmed' && order.confirmation !== 'corrected', reason };
  }

  private async orderOfSessionToken(token: string, gid: string): Promise<{ store: StoreAccess; order: ShopOrder }> {
    let access: StoreAccess | null = null;
    const session = await readSessionToken(token, async (shop) => {
      access = await this.checks.connector({ type: 'shopify', platformKey: shop });
      const { api_secret: secret, client_id: clientId } = access?.credentials ?? {};
      if (typeof secret !== 'string' || !secret) return null;
      return { secret, ...(typeof clientId === 'string' ? { clientId } : {}) };
    });
    const store = access as StoreAccess | null;
    const order = store && parseKey(keyOf('orders', gid)) ? await this.checks.book.get(store.connector.id, gid) : null;
    // The token is all that ties the caller to an order, and it names no order: Shopify's session token carries the
    // shop (`dest`), the app (`aud`), its times and id, and `sub` only for a signed-in customer (shopify.dev, "Session
    // Token API"). Any guest of the store gets one, and an order's GID is no secret, so a token reaches an order only
    // through its customer: `sub` must be the order's customer. A guest's order (no customer) is never reached by a
    // token: its buyer answers through the signed link mailed to them (answerWithLink).
    if (!store || !order || !order.customerKey || order.customerKey !== session.customer) throw new OrderNotFound();
    return { store, order };
  }

  /** The buyer's answer from the mailed link's page: the link names the connector and the order. */
  async answerWithLink(token: unknown, answer: BuyerAnswer): Promise<ConfirmOutcome> {
    const store = await this.storeOfLink(token);
    return this.answer(store.access, store.gid, answer);
  }

  /** The order a mailed link names, with its store's access and the address as the store has it now. */
  async orderOfLink(token: unknown): Promise<{ name: string | null; address: MailingAddress | null; order: ShopOrder }> {
    const { access, gid, order } = await this.storeOfLink(token);
    const found = await this.shippingAddress(access, gid);
    if (!found) throw new OrderNotFound('the order is no longer in the store');
    return { ...found, order };
  }

  private async storeOfLink(token: unknown): Promise<{ access: StoreAccess; gid: string; order: ShopOrder }> {
    const named = await this.checks.readConfirmationLink(token);
    const access = named ? await this.checks.connector({ id: named.connectorId }) : null;
    const order = access && named ? await this.checks.book.get(access.connector.id, named.orderKey) : null;
    if (!access || !named || !order || access.connector.type !== 'shopify') throw new OrderNotFound('the link is not valid, or has expired');
    return { access, gid: named.orderKey, order };
  }

  /** A checkout extension's report (a prompt shown, a buyer who went on after a warning) for the account's store. */
  async report(accountId: string, shop: string, kind: CheckoutCount): Promise<void> {
    const { connector } = await this.storeOfAccount(accountId, shop);
    await this.checks.book.count(connector.id, kind);
  }

  /** What the checkout extension does on an undeliverable address in the account's store: the store's `mode`. */
  async checkoutMode(accountId: string, shop: string): Promise<ShopifySettings['mode']> {
    const { connector } = await this.storeOfAccount(accountId, shop);
    return shopifySettingsSchema.parse(connector.settings).mode;
  }

  private async storeOfAccount(accountId: string, shop: string): Promise<StoreAccess> {
    const access = await this.checks.connector({ type: 'shopify', platformKey: shop });
    if (!access || access.connector.accountId !== accountId) throw new OrderNotFound('no store of this account has that domain');
    return access;
  }

  /** The merchant's proof of the last `days` days (the dashboard's store page). */
  proof(connectorId: string, days: number) {
    const since = this.checks.now() - days * 86_400_000;
    return this.checks.book.proof(connectorId, new Date(since).toISOString().slice(0, 10), since);
  }

  /** Work after a delivery was answered; `settle` waits for it. */
  track(work: Promise<void>): void {
    this.checks.track(work);
  }

  async settle(): Promise<void> {
    await this.checks.settle();
  }

  /** What is kept of these orders (by GID), or of all the store's: the count deleted. */
  forget(connector: ConnectorRow, gids: string[] | 'all'): Promise<number> {
    return this.checks.book.forget(connector.id, gids);
  }

  /** The order's name and shipping address as the store has it now (the buyer's page shows them). */
  async shippingAddress({ connector, credentials }: StoreAccess, gid: string): Promise<{ name: string | null; address: MailingAddress | null } | null> {
    if (!(await this.checks.book.get(connector.id, gid))) return null;
    return this.withClient({ connector, credentials }, async (client) => {
      const data = await client.request<{ order: { name: string; shippingAddress: MailingAddress | null } | null }>('orderAddress', `query ($id: ID!) {
        order(id: $id) { name shippingAddress { address1 address2 city provinceCode zip countryCodeV2 } } }`, { id: gid });
      return data.order ? { name: data.order.name, address: data.order.shippingAddress } : null;
    });
  }

  private async withClient<T>({ connector, credentials }: StoreAccess, work: (client: ShopifyClient) => Promise<T>): Promise<T> {
    const settings: ShopifySettings = shopifySettingsSchema.parse(connector.settings);
    const http = await this.checks.guard([`https://${settings.shop}`]);
    try {
      const { DEFAULT_RETRY } = await import('./client.js');
      const client = await clientFor({
        settings, credentials: credentials as ShopifyCredentials, log: this.checks.log, fetch: http.fetch,
      }, { ...this.options, retry: { ...DEFAULT_RETRY, attempts: 3, ...this.options.retry } });
      await client.authenticate();
      return await work(client);
    } finally {
      await http.close().catch(() => undefined);
    }
  }

  /** The one risk assessment of the order: taken in the books first, so that two deliveries never record two. */
  private async recordRisk(client: ShopifyClient, connector: ConnectorRow, gid: string, risk: ReturnType<typeof assessRisk>): Promise<void> {
    if (!(await this.checks.book.markRiskRecorded(connector.id, gid))) return;
    try {
      const data = await client.request<{ orderRiskAssessmentCreate: { userErrors: { message: string }[] } }>('orderRiskAssessmentCreate', `
        mutation ($input: OrderRiskAssessmentCreateInput!) {
          orderRiskAssessmentCreate(orderRiskAssessmentInput: $input) { orderRiskAssessment { riskLevel } userErrors { field message } }
        }`, { input: { orderId: gid, riskLevel: risk.riskLevel, facts: risk.facts.map(({ description, sentiment }) => ({ description, sentiment })) } });
      const errors = data.orderRiskAssessmentCreate.userErrors;
      if (errors.length) throw new OrderWriteRefused(`risk assessment refused: ${errors.map((e) => e.message).join('; ')}`);
    } catch (err) {
      await this.checks.book.update(connector.id, gid, { riskRecordedAt: null });
      throw err;
    }
  }

  /**
   * Holds each open fulfillment order of the order, with our handle and a note the merchant reads. A hold of ours
   * already there (an attempt that died before keeping it in the books) is kept, not placed again: Shopify allows one
   * hold per handle and fulfillment order.
   */
  private async hold(client: ShopifyClient, connector: ConnectorRow, gid: string, answer: ContactAnswer): Promise<void> {
    type Node = { id: string; status: string; fulfillmentHolds?: { id: string; handle: string | null }[] };
    const data = await client.request<{ order: { fulfillmentOrders: { nodes: Node[] } } | null }>('fulfillmentOrders', `query ($id: ID!) {
      order(id: $id) { fulfillmentOrders(first: 10) { nodes { id status fulfillmentHolds { id handle } } } } }`, { id: gid });
    const open = (data.order?.fulfillmentOrders.nodes ?? []).filter((f) => f.status === 'OPEN' || f.status === 'SCHEDULED' || f.status === 'ON_HOLD');
    const holds = [];
    for (const fo of open) {
      const ours = fo.fulfillmentHolds?.find((h) => h.handle === HOLD_HANDLE);
      if (ours) {
        holds.push({ fulfillmentOrderId: fo.id, holdId: ours.id });
        continue;
      }
      const held = await client.request<{ fulfillmentOrderHold: { fulfillmentHold: { id: string } | null; userErrors: { message: string }[] } }>('fulfillmentOrderHold', `
        mutation ($id: ID!, $hold: FulfillmentOrderHoldInput!) {
          fulfillmentOrderHold(id: $id, fulfillmentHold: $hold) { fulfillmentHold { id } userErrors { field message } }
        }`, { id: fo.id, hold: {
        reason: 'OTHER', handle: HOLD_HANDLE, notifyMerchant: true,
        reasonNotes: `Contact Validator: the shipping address is undeliverable (${answer.address?.status ?? 'invalid'}). The buyer was asked to confirm or correct it.`,
      } });
      const hold = held.fulfillmentOrderHold.fulfillmentHold;
      if (hold) holds.push({ fulfillmentOrderId: fo.id, holdId: hold.id });
      else this.checks.log.warn({ connector_id: connector.id, errors: held.fulfillmentOrderHold.userErrors.map((e) => e.message) }, 'fulfillment hold refused');
    }
    if (holds.length) await this.checks.book.update(connector.id, gid, { holds, heldAt: this.checks.now() });
  }

  /** Releases our holds on the order, once (whoever asks first); true when this call did. */
  private async release(client: ShopifyClient, order: ShopOrder, reason: ReleaseReason): Promise<boolean> {
    if (!order.holds.length || !(await this.checks.book.markReleased(order.connectorId, order.orderKey, reason))) return false;
    try {
      for (const h of order.holds) {
        const data = await client.request<{ fulfillmentOrderReleaseHold: { userErrors: { message: string }[] } }>('fulfillmentOrderReleaseHold', `
          mutation ($id: ID!, $holdIds: [ID!]) {
            fulfillmentOrderReleaseHold(id: $id, holdIds: $holdIds) { fulfillmentOrder { id status } userErrors { field message } }
          }`, { id: h.fulfillmentOrderId, holdIds: [h.holdId] });
        const errors = data.fulfillmentOrderReleaseHold.userErrors;
        if (errors.length) throw new OrderWriteRefused(`hold not released: ${errors.map((e) => e.message).join('; ')}`);
      }
    } catch (err) {
      // Not released after all: the next confirmation or correction tries again.
      await this.checks.book.update(order.connectorId, order.orderKey, { releasedAt: null, releaseReason: null });
      throw err;
    }
    return true;
  }

  private async writeAddress(client: ShopifyClient, gid: string, a: AddressCorrection): Promise<void> {
    const data = await client.request<{ orderUpdate: { userErrors: { message: string }[] } }>('orderUpdate', `
      mutation ($input: OrderInput!) { orderUpdate(input: $input) { order { id } userErrors { field message } } }`, {
      input: { id: gid, shippingAddress: {
        address1: a.address1, address2: a.address2 ?? null, city: a.city, provinceCode: a.provinceCode ?? null, zip: a.zip, countryCode: a.countryCode,
      } },
    });
    const errors = data.orderUpdate.userErrors;
    if (errors.length) throw new OrderWriteRefused(`address not written: ${errors.map((e) => e.message).join('; ')}`);
  }

  private async mailBuyer(connector: ConnectorRow, gid: string, to: string, name: string, answer: ContactAnswer): Promise<void> {
    const link = await this.checks.confirmationLink(connector.id, gid);
    const suggestion = answer.address?.standardized ? `\nWhat we could read of it: ${answer.address.standardized}\n` : '';
    await this.checks.mail({
      to,
      subject: `Please check the delivery address of your order ${name}`.trim(),
      text: `Hello,\n\nThank you for your order ${name}. We could not confirm its delivery address, and a parcel sent to an address `
        + `that does not exist comes back.\n${suggestion}\nPlease confirm or correct it here (the link works for 30 days):\n${link}\n\n`
        + `If the address is right, one click confirms it.\n`,
    });
    await this.checks.book.update(connector.id, gid, { confirmation: 'asked', mailedAt: this.checks.now() });
  }
}
