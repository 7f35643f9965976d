import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders a store connector checks at purchase (src/sync/order-book.ts): per order, the risk level recorded on it, the
 * fulfillment holds placed and when and why they were released, and whether the buyer confirmed or corrected the
 * address; no address, e-mail or phone is kept (the buyer's page reads the order from the store). And the merchant's
 * proof per day: prompts the checkout extension showed, checkouts that went on after a warning, addresses corrected.
 */
export class ShopOrders1764965000000 implements MigrationInterface {
  name = 'ShopOrders1764965000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE shop_orders (
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      order_key TEXT NOT NULL,
      order_name TEXT,
      customer_key TEXT,
      address_hash TEXT,
      address_status TEXT,
      risk_level TEXT,
      facts TEXT NOT NULL,
      risk_recorded_at BIGINT,
      holds TEXT NOT NULL,
      held_at BIGINT,
      released_at BIGINT,
      release_reason TEXT,
      confirmation TEXT,
      confirmed_at BIGINT,
      mailed_at BIGINT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (connector_id, order_key))`);
    await q.query(`CREATE TABLE shop_checkout_counts (
      connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      kind TEXT NOT NULL,
      count BIGINT NOT NULL,
      PRIMARY KEY (connector_id, day, kind))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE shop_checkout_counts`);
    await q.query(`DROP TABLE shop_orders`);
  }
}
