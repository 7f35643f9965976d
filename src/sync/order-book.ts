/**
 * The books of orders a store's connector checks at purchase (a Shopify plugin's orders/create; docs/shopify.md): one
 * row per (connector, order) holding the risk level recorded on the order, the fulfillment holds placed and their
 * release, and the buyer's confirmation; and the merchant's proof, counted per day. No address, e-mail or phone is
 * kept: whoever needs them reads the order from the store. Every read and write names its connector, so a store never
 * reaches another's orders.
 */
import type { Database } from '../db/data-source.js';

/** A hold this service placed: the fulfillment order it is on, and the hold's own id (released by id, never all). */
export interface PlacedHold { fulfillmentOrderId: string; holdId: string }

export type ReleaseReason = 'buyer_confirmed' | 'buyer_corrected' | 'merchant_corrected';
export type Confirmation = 'asked' | 'confirmed' | 'corrected';

export interface ShopOrder {
  connectorId: string;
  orderKey: string;
  orderName: string | null;
  /**
   * The buyer's customer id on the platform, when the order has one: the only thing that ties a session token (its
   * `sub`) to the order. Without one, only the signed link mailed to the buyer reaches the order.
   */
  customerKey: string | null;
  /** The hash of the shipping address as last checked: an update with the same address checks nothing. */
  addressHash: string | null;
  addressStatus: string | null;
  riskLevel: string | null;
  facts: string[];
  riskRecordedAt: number | null;
  holds: PlacedHold[];
  heldAt: number | null;
  releasedAt: number | null;
  releaseReason: ReleaseReason | null;
  confirmation: Confirmation | null;
  confirmedAt: number | null;
  mailedAt: number | null;
}

/** What the checkout extension and the buyers did, counted per day for the merchant (the dashboard's proof). */
export const CHECKOUT_COUNTS = ['prompt_shown', 'went_on_after_warning', 'suggestion_applied', 'corrected_by_buyer', 'confirmed_by_buyer'] as const;
export type CheckoutCount = (typeof CHECKOUT_COUNTS)[number];

export interface OrderProof {
  counts: Record<CheckoutCount, number>;
  ordersChecked: number;
  ordersHeld: number;
  ordersReleased: number;
  risk: Record<string, number>;
}

interface Row {
  connector_id: string; order_key: string; order_name: string | null; customer_key: string | null; address_hash: string | null;
  address_status: string | null; risk_level: string | null; facts: string; risk_recorded_at: number | string | null;
  holds: string; held_at: number | string | null; released_at: number | string | null; release_reason: string | null;
  confirmation: string | null; confirmed_at: number | string | null; mailed_at: number | string | null;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

function orderOf(r: Row): ShopOrder {
  return {
    connectorId: r.connector_id, orderKey: r.order_key, orderName: r.order_name, customerKey: r.customer_key,
    addressHash: r.address_hash, addressStatus: r.address_status, riskLevel: r.risk_level,
    facts: JSON.parse(r.facts) as string[], riskRecordedAt: num(r.risk_recorded_at), holds: JSON.parse(r.holds) as PlacedHold[],
    heldAt: num(r.held_at), releasedAt: num(r.released_at), releaseReason: r.release_reason as ReleaseReason | null,
    confirmation: r.confirmation as Confirmation | null, confirmedAt: num(r.confirmed_at), mailedAt: num(r.mailed_at),
  };
}

const COLUMNS: Record<keyof Omit<ShopOrder, 'connectorId' | 'orderKey'>, string> = {
  orderName: 'order_name', customerKey: 'customer_key', addressHash: 'address_hash', addressStatus: 'address_status',
  riskLevel: 'risk_level', facts: 'facts', riskRecordedAt: 'risk_recorded_at', holds: 'holds', heldAt: 'held_at',
  releasedAt: 'released_at', releaseReason: 'release_reason', confirmation: 'confirmation', confirmedAt: 'confirmed_at',
  mailedAt: 'mailed_at',
};

const stored = (key: string, value: unknown) => (key === 'facts' || key === 'holds' ? JSON.stringify(value) : value);

export class OrderBook {
  constructor(private readonly db: Database, private readonly now: () => number = Date.now) {}

  async get(connectorId: string, orderKey: string): Promise<ShopOrder | null> {
    const rows = await this.db.all<Row>(`SELECT * FROM shop_orders WHERE connector_id = $1 AND order_key = $2`, [connectorId, orderKey]);
    return rows[0] ? orderOf(rows[0]) : null;
  }

  /**
   * Takes the order for a first check: true for the one caller that added its row (a repeated or concurrent
   * delivery of the same order gets false and does nothing).
   */
  async claim(connectorId: string, orderKey: string, fields: { orderName: string | null; customerKey: string | null }): Promise<boolean> {
    const at = this.now();
    return (await this.db.run(
      `INSERT INTO shop_orders (connector_id, order_key, order_name, customer_key, facts, holds, created_at, updated_at)
       VALUES ($1, $2, $3, $4, '[]', '[]', $5, $5) ON CONFLICT (connector_id, order_key) DO NOTHING`,
      [connectorId, orderKey, fields.orderName, fields.customerKey, at],
    )) > 0;
  }

  async update(connectorId: string, orderKey: string, changes: Partial<Omit<ShopOrder, 'connectorId' | 'orderKey'>>): Promise<void> {
    const keys = Object.keys(changes) as (keyof typeof COLUMNS)[];
    if (!keys.length) return;
    const sets = keys.map((k, i) => `${COLUMNS[k]} = $${i + 3}`);
    await this.db.run(
      `UPDATE shop_orders SET ${sets.join(', ')}, updated_at = $${keys.length + 3} WHERE connector_id = $1 AND order_key = $2`,
      [connectorId, orderKey, ...keys.map((k) => stored(k, changes[k])), this.now()],
    );
  }

  /** Takes the recording of the order's risk assessment: true for the one caller that did (none was recorded yet). */
  async markRiskRecorded(connectorId: string, orderKey: string): Promise<boolean> {
    const at = this.now();
    return (await this.db.run(
      `UPDATE shop_orders SET risk_recorded_at = $3, updated_at = $3 WHERE connector_id = $1 AND order_key = $2 AND risk_recorded_at IS NULL`,
      [connectorId, orderKey, at],
    )) > 0;
  }

  /**
   * Marks the order's holds released, once: true for the one caller that did (a buyer's confirmation and the
   * merchant's correction arriving together release it once and count once).
   */
  async markReleased(connectorId: string, orderKey: string, reason: ReleaseReason): Promise<boolean> {
    const at = this.now();
    return (await this.db.run(
      `UPDATE shop_orders SET released_at = $3, release_reason = $4, updated_at = $3
       WHERE connector_id = $1 AND order_key = $2 AND held_at IS NOT NULL AND released_at IS NULL`,
      [connectorId, orderKey, at, reason],
    )) > 0;
  }

  /** One more of `kind` today for the connector's store. */
  async count(connectorId: string, kind: CheckoutCount, by = 1): Promise<void> {
    const day = new Date(this.now()).toISOString().slice(0, 10);
    await this.db.run(
      `INSERT INTO shop_checkout_counts (connector_id, day, kind, count) VALUES ($1, $2, $3, $4)
       ON CONFLICT (connector_id, day, kind) DO UPDATE SET count = shop_checkout_counts.count + excluded.count`,
      [connectorId, day, kind, by],
    );
  }

  /** The merchant's proof since `sinceDay` (YYYY-MM-DD): what buyers and the extension did, and what became of orders. */
  async proof(connectorId: string, sinceDay: string, sinceMs: number): Promise<OrderProof> {
    const counts = Object.fromEntries(CHECKOUT_COUNTS.map((k) => [k, 0])) as Record<CheckoutCount, number>;
    for (const r of await this.db.all<{ kind: CheckoutCount; n: number | string }>(
      `SELECT kind, SUM(count) AS n FROM shop_checkout_counts WHERE connector_id = $1 AND day >= $2 GROUP BY kind`, [connectorId, sinceDay],
    )) if (r.kind in counts) counts[r.kind] = Number(r.n);
    const [orders] = await this.db.all<{ checked: number | string; held: number | string | null; released: number | string | null }>(
      `SELECT COUNT(*) AS checked, SUM(CASE WHEN held_at IS NOT NULL THEN 1 ELSE 0 END) AS held,
         SUM(CASE WHEN released_at IS NOT NULL THEN 1 ELSE 0 END) AS released
       FROM shop_orders WHERE connector_id = $1 AND created_at >= $2`, [connectorId, sinceMs],
    );
    const risk: Record<string, number> = {};
    for (const r of await this.db.all<{ risk_level: string | null; n: number | string }>(
      `SELECT risk_level, COUNT(*) AS n FROM shop_orders WHERE connector_id = $1 AND created_at >= $2 GROUP BY risk_level`, [connectorId, sinceMs],
    )) if (r.risk_level) risk[r.risk_level] = Number(r.n);
    return {
      counts, ordersChecked: Number(orders?.checked ?? 0), ordersHeld: Number(orders?.held ?? 0), ordersReleased: Number(orders?.released ?? 0), risk,
    };
  }

  /** What is kept of these orders, or of all the connector's (a shop's redaction): the count deleted. */
  async forget(connectorId: string, orderKeys: readonly string[] | 'all'): Promise<number> {
    if (orderKeys === 'all') return this.db.run(`DELETE FROM shop_orders WHERE connector_id = $1`, [connectorId]);
    let deleted = 0;
    for (const key of orderKeys) deleted += await this.db.run(`DELETE FROM shop_orders WHERE connector_id = $1 AND order_key = $2`, [connectorId, key]);
    return deleted;
  }
}
