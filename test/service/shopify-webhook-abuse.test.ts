/**
 * What an outside attack did to POST /webhooks/shopify, and what holds now (docs/security.md): any tenant could connect
 * any number of connectors to one shop, and each forged delivery then cost a secret's opening and an HMAC per
 * connector; and 650 unsigned deliveries naming a shop made its genuine ones 429 too. One shop has one connector (a
 * unique index), a delivery costs one signature check at most, every delivery's signature is checked (a genuine one is
 * always answered), and refusals are counted per source address and per shop (SHOPIFY_WEBHOOKS_PER_MINUTE): past it,
 * a refusal is 429 instead of 401.
 */
import { describe, expect, it } from 'vitest';
import type { SecretBox } from '../../src/sync/secrets.js';
import { testDatabases } from '../support/databases.js';
import { problemOf, useTestService, type TestService } from '../support/service.js';
import { deliver, signedDelivery } from '../shopify/webhooks.js';

const ENV = { CONNECTOR_SECRET_KEY: 'c3'.repeat(32), CONNECTOR_ALLOW_PRIVATE: 'true', SHOPIFY_ADMIN_BASE_URL: 'http://127.0.0.1:9' };

function connect(s: TestService, apiKey: string, shop: string, secret = 'the-shop-secret') {
  return s.post('/v1/connectors', {
    type: 'shopify', name: 'Store', schedule: '0 3 * * *', settings: { shop },
    credentials: { access_token: 'shpat_x', api_secret: secret },
  }, { key: apiKey });
}

const forged = (shop: string, n: number) => signedDelivery('customers/update', { id: n, email: `c${n}@example.com` }, { shop, secret: 'guessed' });

/** A delivery naming the shop with no signature at all: anyone can send it. */
function unsigned(shop: string, n: number) {
  const delivery = forged(shop, n);
  const { 'X-Shopify-Hmac-Sha256': _none, ...headers } = delivery.headers;
  return { ...delivery, headers };
}

/** The delivery as sent from `address` (the service believes one proxy hop: TRUST_PROXY=1). */
const from = (address: string, delivery: ReturnType<typeof forged>) => ({ ...delivery, headers: { ...delivery.headers, 'X-Forwarded-For': address } });

describe.each(testDatabases)('Shopify webhooks under attack on $name', (database) => {
  const service = useTestService(database, ENV);

  it('When a second tenant connects a shop another connector has, then 409 shop-already-connected, whatever the spelling', async () => {
    // Arrange
    const s = service();
    const owner = await s.newAccount(0);
    const other = await s.newAccount(0);
    const first = await connect(s, owner.apiKey, 'taken.myshopify.com');
    const { connector_id: ownerConnector } = (await first.json()) as { connector_id: string };

    // Act
    const second = await connect(s, other.apiKey, 'https://TAKEN.myshopify.com/', 'attacker-secret');
    const again = await connect(s, owner.apiKey, 'taken.myshopify.com');

    // Assert: the other tenant learns nothing of whose it is; the owner is told which of its connectors has it.
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(await problemOf(second)).toMatchObject({ type: '/problems/shop-already-connected', status: 409 });
    expect(JSON.stringify(await problemOf(await connect(s, other.apiKey, 'taken.myshopify.com')))).not.toContain(ownerConnector);
    expect(again.status).toBe(409);
    expect(await problemOf(again)).toMatchObject({ connector_id: ownerConnector });
  });

  it('When a connector moves to a shop another connector has, or is resumed onto it, then 409 and nothing changes', async () => {
    const s = service();
    const a = await s.newAccount(0);
    const b = await s.newAccount(0);
    await connect(s, a.apiKey, 'moved-to.myshopify.com');
    const mine = (await (await connect(s, b.apiKey, 'mine.myshopify.com')).json()) as { connector_id: string };

    const moved = await fetch(`${s.url}/v1/connectors/${mine.connector_id}`, {
      method: 'PATCH', headers: { authorization: `Bearer ${b.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { shop: 'moved-to.myshopify.com' } }),
    });
    const kept = (await (await s.get(`/v1/connectors/${mine.connector_id}`, b.apiKey)).json()) as { settings: { shop: string } };

    expect(moved.status).toBe(409);
    expect(await problemOf(moved)).toMatchObject({ type: '/problems/shop-already-connected' });
    expect(kept.settings.shop).toBe('mine.myshopify.com');
  });

  it('When 200 forged deliveries arrive for a shop many tenants tried to connect, then each costs one signature check at most', async () => {
    // Arrange: 30 tenants try to connect one shop; one succeeds. Every secret the webhook opens is counted.
    const s = service();
    const shop = 'crowded.myshopify.com';
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await connect(s, (await s.newAccount(0)).apiKey, shop, `secret-${i}`)).status);
    // The core's delivery books open the shop's connector's seal (src/sync/webhook-deliveries.ts).
    const secrets = (s.sync.webhooks as unknown as { deliveries: { secrets: SecretBox } }).deliveries.secrets;
    const open = secrets.open.bind(secrets);
    let opened = 0;
    Object.assign(secrets, { open: (...args: Parameters<SecretBox['open']>) => { opened++; return open(...args); } });

    // Act
    const started = performance.now();
    const answers: number[] = [];
    try {
      for (let n = 0; n < 200; n++) answers.push((await deliver(s.url, forged(shop, n))).status);
    } finally {
      Object.assign(secrets, { open });
    }
    const elapsedMs = performance.now() - started;

    // Assert
    expect(statuses.filter((st) => st === 201)).toHaveLength(1);
    expect(statuses.filter((st) => st === 409)).toHaveLength(29);
    expect(answers.every((st) => st === 401)).toBe(true);
    expect(opened).toBeLessThanOrEqual(200);
    expect(elapsedMs).toBeLessThan(10_000); // 0.6 s on an idle machine; the count above is the measure
  });
});

describe.each(testDatabases)('a genuine Shopify delivery after a flood of unsigned ones on $name', (database) => {
  const service = useTestService(database, ENV);

  it('When 650 unsigned deliveries name a connected shop, then its next genuinely signed delivery is accepted, and the refusals are throttled', async () => {
    // Arrange: the default limit (600 refusals a minute).
    const s = service();
    const { apiKey } = await s.newAccount(0);
    expect((await connect(s, apiKey, 'silenced.myshopify.com', 'silenced-secret')).status).toBe(201);

    // Act: ten at a time, as a flood of about ten a second would come.
    const flood: number[] = [];
    for (let n = 0; n < 650; n += 10) {
      flood.push(...await Promise.all(Array.from({ length: 10 }, async (_, i) => (await deliver(s.url, unsigned('silenced.myshopify.com', n + i))).status)));
    }
    const genuine = await deliver(s.url, signedDelivery('app/uninstalled', { id: 1, domain: 'silenced.myshopify.com' }, { shop: 'silenced.myshopify.com', secret: 'silenced-secret' }));
    const orders = await deliver(s.url, signedDelivery('customers/update', { id: 2, email: 'c2@example.com' }, { shop: 'silenced.myshopify.com', secret: 'silenced-secret' }));
    const after = await deliver(s.url, unsigned('silenced.myshopify.com', 651));

    // Assert
    expect(genuine.status).toBe(200);
    expect(await genuine.json()).toEqual({ status: 'accepted' });
    expect(orders.status).toBe(200);
    expect(flood.filter((st) => st === 401)).toHaveLength(600);
    expect(flood.filter((st) => st === 429)).toHaveLength(50);
    expect(after.status).toBe(429);
    expect(await problemOf(after)).toMatchObject({ type: '/problems/rate-limited' });
  }, 60_000);
});

describe.each(testDatabases)('refused Shopify deliveries throttled per source address on $name', (database) => {
  const service = useTestService(database, { ...ENV, SHOPIFY_WEBHOOKS_PER_MINUTE: '5', TRUST_PROXY: '1' });

  it('When one address sends refused deliveries naming many shops, then it is throttled alone, and its own signed delivery is still accepted', async () => {
    // Arrange
    const s = service();
    const { apiKey } = await s.newAccount(0);
    expect((await connect(s, apiKey, 'spread.myshopify.com', 'spread-secret')).status).toBe(201);

    // Act: seven shops' names, one each, from one address; then that address's signed delivery, and another address.
    const flood: Response[] = [];
    for (let n = 0; n < 7; n++) flood.push(await deliver(s.url, from('203.0.113.7', forged(`shop-${n}.myshopify.com`, n))));
    const signed = await deliver(s.url, from('203.0.113.7', signedDelivery('customers/update', { id: 1 }, { shop: 'spread.myshopify.com', secret: 'spread-secret' })));
    const elsewhere = await deliver(s.url, from('198.51.100.9', forged('shop-9.myshopify.com', 9)));

    // Assert
    expect(flood.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(Number(flood[6].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(signed.status).toBe(200);
    expect(elsewhere.status).toBe(401);
  });

  it('When refused deliveries naming one shop come from many addresses, then the shop\'s refusals are throttled, and its genuine deliveries are accepted from any address', async () => {
    // Arrange
    const s = service();
    const { apiKey } = await s.newAccount(0);
    expect((await connect(s, apiKey, 'targeted.myshopify.com', 'targeted-secret')).status).toBe(201);
    const genuine = (n: number) => signedDelivery('customers/update', { id: n }, { shop: 'targeted.myshopify.com', secret: 'targeted-secret' });

    // Act
    const flood: number[] = [];
    for (let n = 0; n < 7; n++) flood.push((await deliver(s.url, from(`192.0.2.${n + 1}`, unsigned('targeted.myshopify.com', n)))).status);
    const fromFlooder = await deliver(s.url, from('192.0.2.7', genuine(1)));
    const fromShopify = await deliver(s.url, from('198.51.100.20', genuine(2)));

    // Assert
    expect(flood).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(fromFlooder.status).toBe(200);
    expect(fromShopify.status).toBe(200);
  });
});

describe.each(testDatabases)('refused Shopify deliveries counted per shop on $name', (database) => {
  const service = useTestService(database, { ...ENV, SHOPIFY_WEBHOOKS_PER_MINUTE: '5' });

  it('When a shop gets more refused deliveries than its limit, then 429 rate-limited for that shop alone', async () => {
    // Arrange
    const s = service();
    const { apiKey } = await s.newAccount(0);
    expect((await connect(s, apiKey, 'flooded.myshopify.com')).status).toBe(201);
    expect((await connect(s, apiKey, 'quiet.myshopify.com', 'quiet-secret')).status).toBe(201);

    // Act
    const flood: Response[] = [];
    for (let n = 0; n < 7; n++) flood.push(await deliver(s.url, forged('flooded.myshopify.com', n)));
    const genuineElsewhere = await deliver(s.url, signedDelivery('customers/update', { id: 1 }, { shop: 'quiet.myshopify.com', secret: 'quiet-secret' }));
    const noShop = await deliver(s.url, forged('not a shop', 1));

    // Assert
    expect(flood.slice(0, 5).map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    expect(flood[5].status).toBe(429);
    expect(await problemOf(flood[6])).toMatchObject({ type: '/problems/rate-limited', status: 429 });
    expect(Number(flood[6].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(genuineElsewhere.status).toBe(200);
    expect(noShop.status).toBe(401);
  });

  it("When a shop's deliveries are genuine, then they never count toward its limit", async () => {
    const s = service();
    const { apiKey } = await s.newAccount(0);
    await connect(s, apiKey, 'busy.myshopify.com', 'busy-secret');

    const answers: number[] = [];
    for (let n = 0; n < 12; n++) {
      answers.push((await deliver(s.url, signedDelivery('customers/update', { id: n }, { shop: 'busy.myshopify.com', secret: 'busy-secret' }))).status);
    }

    expect(answers.every((st) => st === 200)).toBe(true);
  });
});
