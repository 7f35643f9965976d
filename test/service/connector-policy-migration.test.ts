/**
 * The migration that gives connectors a policy (migrations/1765340000000-ConnectorPolicy.ts): a nullable `policy`,
 * null for every connector kept before (the fixed table, as they followed), and a down step that takes it away again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConnectorPolicy1765340000000 } from '../../migrations/1765340000000-ConnectorPolicy.js';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';

describe.each(testDatabases)('a connector\'s policy (migration ConnectorPolicy) on $name', (database) => {
  afterAll(() => database.dropAll());

  it('When the migration is undone and done again, then the column goes and comes back, null for the connectors kept meanwhile', async () => {
    const db = await Database.open(await database.create());
    const runner = db.dataSource.createQueryRunner();
    const migration = new ConnectorPolicy1765340000000();
    try {
      // Arrange: the connectors table as it was before, with a connector kept then.
      await migration.down(runner);
      await db.run(`INSERT INTO accounts (id, name, created_at) VALUES ('acct_a', 'a', 1)`);
      await db.run(
        `INSERT INTO connectors (id, account_id, type, name, status, schedule, settings, write_back, secret, secret_key_id, watermark, created_at, updated_at)
         VALUES ('conn_old', 'acct_a', 'hubspot', 'x', 'active', '* * * * *', '{}', '{}', 's', 'k', '{}', 1, 1)`,
      );
      const before = await db.all(`SELECT policy FROM connectors`).then(() => 'read', (err: Error) => err.message);

      // Act
      await migration.up(runner);
      const kept = await db.all<{ id: string; policy: string | null }>(`SELECT id, policy FROM connectors`);
      await db.run(`UPDATE connectors SET policy = 'checkout' WHERE id = 'conn_old'`);
      const given = await db.all<{ policy: string | null }>(`SELECT policy FROM connectors`);

      // Assert
      expect(before).toMatch(/policy/);
      expect(kept).toEqual([{ id: 'conn_old', policy: null }]);
      expect(given).toEqual([{ policy: 'checkout' }]);
    } finally {
      await runner.release();
      await db.close();
    }
  });
});
