/**
 * Orders checked at purchase (docs/shopify.md): the one port a store plugin implements (`ConnectorPlugin.orders`),
 * and all the core's order endpoints and pages know of it. The core keeps the books (order-book.ts), the charge-once
 * check, mail and signed links (order-checks.ts) and the jobs (the plugin's `jobs`); the plugin knows its store: the
 * order's shape, risk, holds, and the writes back. The refusals are the core's, so that the HTTP layer turns them
 * into problems without knowing the plugin.
 */
import type { AddressResult } from '../validation/types.js';
import type { CheckoutCount, OrderProof, ShopOrder } from './order-book.js';

/** Not a session token of a store this service knows: answered 401, whatever the reason. */
export class SessionTokenRefused extends Error {}

/**
 * No such order among the connector's checked orders, or one the caller cannot be tied to: another store's, another
 * buyer's and a missing one read the same, word for word (the message names no order), so no answer tells them apart.
 */
export class OrderNotFound extends Error {
  constructor(message = 'no such order of this store was checked') {
    super(message);
  }
}

/** The store refused a write (the platform's user errors), with its words. */
export class OrderWriteRefused extends Error {}

/** Why the buyer is asked about an address: the fact recorded on the order, in the extension's words. */
export type DoubtReason = 'undeliverable' | 'ambiguous' | 'unit_missing';

/** A correction as the buyer gives it. */
export interface AddressCorrection {
  address1: string; address2?: string | null; city: string; provinceCode?: string | null; zip: string; countryCode: string;
}

export type BuyerAnswer = { action: 'confirm' } | { action: 'correct'; address: AddressCorrection };

export interface ConfirmOutcome {
  status: 'confirmed' | 'corrected' | 'undeliverable';
  /** The address as checked (a correction's), for the buyer to see what was understood. */
  address: AddressResult | null | undefined;
  released: boolean;
}

/** An order's shipping address as the store has it now, in the correction's field names. */
export interface OrderAddress {
  address1?: string | null; address2?: string | null; city?: string | null; provinceCode?: string | null;
  zip?: string | null; countryCodeV2?: string | null; phone?: string | null;
}

export interface OrderPort {
  /** The plugin's type: its connectors are the stores whose orders are checked. */
  readonly type: string;
  /** The buyer's answer, authenticated by the platform's session token (its signed-in customer's orders only). */
  answerWithSessionToken(token: string, orderId: string, answer: BuyerAnswer): Promise<ConfirmOutcome>;
  /** Whether the extension should ask the buyer about the order's address, and why. */
  questionWithSessionToken(token: string, orderId: string): Promise<{ ask: boolean; reason: DoubtReason | null }>;
  /** The buyer's answer from the mailed link's page. */
  answerWithLink(token: unknown, answer: BuyerAnswer): Promise<ConfirmOutcome>;
  /** The order a mailed link names, with its address as the store has it now. */
  orderOfLink(token: unknown): Promise<{ name: string | null; address: OrderAddress | null; order: ShopOrder }>;
  /** One more of `kind` today, for the account's store `shop` (the checkout extension's report). */
  report(accountId: string, shop: string, kind: CheckoutCount): Promise<void>;
  /** What the checkout extension does in the account's store `shop`. */
  checkoutMode(accountId: string, shop: string): Promise<'warn' | 'block'>;
  /** The merchant's proof of the last `days` days. */
  proof(connectorId: string, days: number): Promise<OrderProof>;
  /** Waits for work already answered (a shutdown; tests). */
  settle(): Promise<void>;
}
