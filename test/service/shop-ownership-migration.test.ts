/**
 * The migration that makes one shop one connector (migrations/1764820000000-OneConnectorPerShop.ts): where several
 * connectors shared a shop, the oldest active one keeps it; the others are paused and let it go.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { OneConnectorPerShop1764820000000 } from '../../migrations/1764820000000-OneConnectorPerShop.js';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';

describe.each(testDatabases)('one connector per shop (migration OneConnectorPerShop) on $name', (database) => {
  afterAll(() => database.dropAll());

  it('When several connectors shared a shop, then the oldest active one keeps it and the others are paused without it', async () => {
    const db = await Database.open(await database.create());
    const runner = db.dataSource.createQueryRunner();
    try {
      // Arrange: the connectors as the service kept them before, for two shops and a CRM with no platform key.
      await new OneConnectorPerShop1764820000000().down(runner);
      await db.run(`INSERT INTO accounts (id, name, created_at) VALUES ('acct_a', 'a', 1), ('acct_b', 'b', 1)`);
      const connectors: [string, string, string, string | null, number][] = [
        ['conn_paused_oldest', 'acct_a', 'paused', 'shared.myshopify.com', 1],
        ['conn_active_old', 'acct_b', 'active', 'shared.myshopify.com', 2],
        ['conn_active_new', 'acct_a', 'active', 'SHARED.myshopify.com', 3],
        ['conn_alone', 'acct_b', 'active', 'alone.myshopify.com', 4],
        ['conn_crm_1', 'acct_a', 'active', null, 5],
        ['conn_crm_2', 'acct_b', 'active', null, 6],
      ];
      for (const [id, account, status, platformKey, at] of connectors) {
        await db.run(
          `INSERT INTO connectors (id, account_id, type, name, status, schedule, settings, write_back, secret, secret_key_id,
             watermark, platform_key, created_at, updated_at)
           VALUES ($1, $2, $3, 'x', $4, '* * * * *', '{}', '{}', 's', 'k', '{}', $5, $6, $6)`,
          [id, account, platformKey ? 'shopify' : 'salesforce', status, platformKey, at],
        );
      }

      // Act
      await new OneConnectorPerShop1764820000000().up(runner);

      // Assert
      const rows = await db.all<{ id: string; status: string; reason: string | null; platform_key: string | null }>(
        `SELECT id, status, reason, platform_key FROM connectors ORDER BY created_at`,
      );
      expect(rows).toEqual([
        { id: 'conn_paused_oldest', status: 'paused', reason: 'shop_already_connected', platform_key: null },
        { id: 'conn_active_old', status: 'active', reason: null, platform_key: 'shared.myshopify.com' },
        { id: 'conn_active_new', status: 'paused', reason: 'shop_already_connected', platform_key: null },
        { id: 'conn_alone', status: 'active', reason: null, platform_key: 'alone.myshopify.com' },
        { id: 'conn_crm_1', status: 'active', reason: null, platform_key: null },
        { id: 'conn_crm_2', status: 'active', reason: null, platform_key: null },
      ]);
      await expect(db.run(`UPDATE connectors SET platform_key = 'shared.myshopify.com' WHERE id = 'conn_active_new'`)).rejects.toThrow();
    } finally {
      await runner.release();
      await db.close();
    }
  });
});
