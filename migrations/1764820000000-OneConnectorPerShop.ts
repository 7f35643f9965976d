import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One connector per platform account (a Shopify shop): a webhook delivery then finds one connector and costs one HMAC,
 * however many tenants name the shop. Where several connectors already share a shop, the one kept is the oldest active
 * one (else the oldest); the others are paused with reason `shop_already_connected` and let go of the shop (their
 * platform key cleared, their settings and credentials untouched), so that their accounts see why and can delete them
 * or claim the shop by the app's OAuth install.
 */
export class OneConnectorPerShop1764820000000 implements MigrationInterface {
  name = 'OneConnectorPerShop1764820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE connectors SET platform_key = LOWER(platform_key) WHERE platform_key IS NOT NULL`);
    const rank = (t: string) => `CASE WHEN ${t}.status = 'active' THEN 0 ELSE 1 END`;
    await q.query(`UPDATE connectors SET status = 'paused', reason = 'shop_already_connected',
        reason_detail = 'another connector was connected to this shop first; install the app from this account to claim it',
        platform_key = NULL
      WHERE platform_key IS NOT NULL AND EXISTS (
        SELECT 1 FROM connectors k WHERE k.type = connectors.type AND k.platform_key = connectors.platform_key AND k.id <> connectors.id
          AND (${rank('k')} < ${rank('connectors')}
            OR (${rank('k')} = ${rank('connectors')} AND (k.created_at < connectors.created_at
              OR (k.created_at = connectors.created_at AND k.id < connectors.id)))))`);
    await q.query(`DROP INDEX connectors_platform`);
    await q.query(`CREATE UNIQUE INDEX connectors_platform ON connectors(type, platform_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX connectors_platform`);
    await q.query(`CREATE INDEX connectors_platform ON connectors(type, platform_key)`);
  }
}
