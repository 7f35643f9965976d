/**
 * Orders checked at purchase as jobs of the job engine (src/sync/order-jobs.ts): the webhook is answered once the
 * order's check is stored, so an instance killed (SIGKILL) after answering, while it checks the order, leaves it to
 * another instance on PostgreSQL, or to itself restarted on SQLite. The store (the local Admin GraphQL stand-in) applies
 * the risk assessment, or the hold, and holds its answer back a minute: the instance is killed before it hears it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/db/data-source.js';
import { testDatabases } from '../support/databases.js';
import { newAccount, startInstance, until, type Instance } from '../support/fleet.js';
import { startMailCatcher } from '../support/mail-catcher.js';
import { startFakeShop } from '../shopify/fake-admin.js';
import { deliver, orderPayload, signedDelivery } from '../shopify/webhooks.js';

const SECRET = 'shpss_crash_secret';
const NOWHERE = { address1: '1 Zzyzx Nowhere Rd', city: 'Nowhere', provinceCode: 'KY', zip: '99999', countryCodeV2: 'US' };

describe.each(testDatabases)('Shopify order checks surviving a killed instance on $name', (database) => {
  const instances: Instance[] = [];
  afterAll(async () => {
    for (const i of instances) await i.kill();
    await database.dropAll();
  });

  const recovers = database.name === 'postgres' ? 'another instance' : 'the restarted instance';
  it.each(['orderRiskAssessmentCreate', 'fulfillmentOrderHold'])(`When the instance that answered orders/create is killed waiting for %s, then ${recovers} records one assessment, one hold, one mail and one charge`, async (operation) => {
    // Arrange
    const shop = await startFakeShop({ shop: 'crash.myshopify.com', restoreRate: 1000 });
    const shopDomain = 'crash.myshopify.com';
    const mail = await startMailCatcher();
    try {
      const databaseUrl = await database.create();
      const env = {
        DATABASE_URL: databaseUrl, CONNECTOR_SECRET_KEY: 'c7'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true',
        SHOPIFY_ADMIN_BASE_URL: shop.url, SMTP_URL: mail.url, BATCH_LEASE_MS: '1000', BATCH_SWEEP_MS: '200',
      };
      const first = await startInstance(env);
      instances.push(first);
      const { accountId, apiKey } = await newAccount(databaseUrl, 1000);
      const created = await fetch(`${first.url}/v1/connectors`, {
        method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'shopify', name: 'crash', schedule: '0 3 * * *', settings: { shop: 'crash.myshopify.com', resources: ['orders'], hold: true },
          credentials: { access_token: shop.state.accessToken, api_secret: SECRET },
        }),
      });
      expect(created.status).toBe(201);
      const { connector_id: connectorId } = (await created.json()) as { connector_id: string };
      const [order] = shop.state.seedOrders(1, () => ({ email: 'crash-buyer@mailinator.com', phone: '+1 502 713 4410', address: NOWHERE }));
      const second = database.name === 'postgres' ? await startInstance(env) : null;
      if (second) instances.push(second);
      shop.state.stallOn = operation;

      // Act: the delivery is answered, the check reaches the store, and the instance is killed there.
      const answered = await deliver(first.url, signedDelivery('orders/create', orderPayload(order), { shop: shopDomain, secret: SECRET }));
      const atKill = await until(`the order check to reach ${operation}`, 30_000, async () =>
        shop.state.requests.filter((r) => r.query.includes(operation)).length || undefined);
      await first.kill();
      shop.state.stallOn = null;
      const finisher = second ?? await startInstance(env);
      if (!second) instances.push(finisher);
      await until('the hold to be placed', 60_000, async () => (shop.state.resource(order.id).fulfillmentOrders[0]?.status === 'ON_HOLD' ? true : undefined));
      const message = await mail.next('crash-buyer@mailinator.com');
      // Long enough for a second attempt, were there one, to write again.
      await new Promise((r) => setTimeout(r, 2_000));

      // Assert
      expect(answered.status).toBe(200);
      expect(atKill).toBe(1);
      const fake = shop.state.resource(order.id);
      expect(fake.riskAssessments).toHaveLength(1);
      expect(fake.riskAssessments[0].riskLevel).toBe('HIGH');
      expect(fake.fulfillmentOrders[0].holds).toHaveLength(1);
      expect(message.text).toMatch(/\/orders\/address\?token=/);
      expect(mail.messages.filter((m) => m.to.includes('crash-buyer@mailinator.com'))).toHaveLength(1);
      const db = await Database.open(databaseUrl);
      try {
        const [spent] = await db.all<{ spent: number | string | null }>(
          `SELECT SUM(-credits) AS spent FROM ledger_entries WHERE account_id = $1 AND kind IN ('debit', 'refund') AND request_id LIKE $2`,
          [accountId, `${connectorId}:%`],
        );
        // address 1 + e-mail 1 + phone 2, once (the order's records job shares the charge key).
        expect(Number(spent?.spent ?? 0)).toBe(4);
        // One job, ended, keeping no more of the buyer than the order books do.
        const jobs = await db.all<{ status: string; settings: string }>(`SELECT status, settings FROM bulk_jobs WHERE kind = 'order-check'`, []);
        expect(jobs.map((j) => j.status)).toEqual(['completed']);
        expect(JSON.parse(jobs[0].settings)).toEqual({ connector_id: connectorId, order_key: order.id });
      } finally {
        await db.close();
      }
    } finally {
      await shop.close();
      await mail.close();
    }
  }, 120_000);
});
