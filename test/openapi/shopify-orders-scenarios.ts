/**
 * The order endpoints of the Shopify extensions, called every way the description lists (openapi.test.ts checks each
 * answer): the buyer's answer with a session token, and the checkout extension's reports with a publishable key.
 */
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { OrderWriteRefused } from '../../src/sync/order-port.js';
import type { TestService } from '../support/service.js';
import type { Conformance } from './conformance.js';
import { BIG_JSON, call, json } from './http.js';

const SHOP = 'conformance-orders.myshopify.com';
const SECRET = 'conformance-orders-secret';
const CONFIRM = '/shopify/orders/address-confirmation';
const EVENTS = '/v1/checkout/events';
const SETTINGS = '/v1/checkout/settings';
const ORIGIN = 'https://extensions.shopifycdn.com';

/** A session token of the shop; `sub` the signed-in customer, when there is one (a guest's token has none). */
export const sessionTokenFor = (shop: string, secret: string, sub?: string) => new SignJWT({ dest: `https://${shop}`, ...(sub ? { sub } : {}) })
  .setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1m').sign(new TextEncoder().encode(secret));

const CUSTOMER = 'gid://shopify/Customer/4242';

export async function provokeShopifyOrderEndpoints(s: TestService, conformance: Conformance): Promise<void> {
  const { apiKey } = await s.newAccount(100);
  const created = await call(s, 'POST', '/v1/connectors', { key: apiKey, ...json({ type: 'shopify', name: 'Orders', settings: { shop: SHOP }, credentials: { access_token: 'shpat_x', api_secret: SECRET } }) });
  const connector = (await created.json()) as { connector_id: string };
  const gid = 'gid://shopify/Order/4242';
  await s.sync.orderChecks!.book.claim(connector.connector_id, gid, { orderName: '#4242', customerKey: CUSTOMER });
  const token = await sessionTokenFor(SHOP, SECRET, CUSTOMER);
  const answer = async (body: Parameters<typeof call>[3], bearer: string | null = token) => conformance.check('POST', CONFIRM,
    await call(s, 'POST', CONFIRM, { ...body, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }));

  const question = async (orderId: string, bearer: string | null = token) => conformance.check('GET', CONFIRM,
    await call(s, 'GET', `${CONFIRM}?${new URLSearchParams({ order_id: orderId })}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} }));
  expect(await question(gid)).toEqual({ ask: false, reason: null });
  expect((await question('gid://shopify/Order/1')).type).toBe('/problems/not-found');
  expect((await question('4242')).type).toBe('/problems/invalid-request');
  expect((await question(gid, null)).type).toBe('/problems/session-token-invalid');
  expect(await answer(json({ order_id: gid, action: 'confirm' }))).toMatchObject({ status: 'confirmed', hold_released: false });
  expect((await answer(json({ order_id: gid, action: 'confirm' }), null)).type).toBe('/problems/session-token-invalid');
  expect((await answer(json({ order_id: 'gid://shopify/Order/1', action: 'confirm' }))).type).toBe('/problems/not-found');
  expect((await answer(json({ order_id: gid, action: 'correct' }))).type).toBe('/problems/invalid-request');
  expect((await answer(json('{"order_id":'))).type).toBe('/problems/invalid-json');
  expect((await answer(BIG_JSON)).type).toBe('/problems/payload-too-large');
  expect((await answer({ body: 'confirm', type: 'text/plain' })).type).toBe('/problems/unsupported-media-type');
  const nowhere = { address1: '1 Zzyzx Nowhere Rd', city: 'Nowhere', province_code: 'KY', zip: '99999', country_code: 'US' };
  expect((await answer(json({ order_id: gid, action: 'correct', address: nowhere }))).type).toBe('/problems/address-undeliverable');
  const orders = s.sync.orders!;
  const { answerWithSessionToken, questionWithSessionToken } = orders;
  try {
    Object.assign(orders, { questionWithSessionToken: async () => { throw new Error('injected fault'); } });
    expect((await question(gid)).type).toBe('/problems/internal');
    Object.assign(orders, { answerWithSessionToken: async () => { throw new OrderWriteRefused('address not written: Shipping address is invalid'); } });
    expect((await answer(json({ order_id: gid, action: 'confirm' }))).type).toBe('/problems/store-refused');
    Object.assign(orders, { answerWithSessionToken: async () => { throw new Error('injected fault'); } });
    expect((await answer(json({ order_id: gid, action: 'confirm' }))).type).toBe('/problems/internal');
  } finally {
    Object.assign(orders, { answerWithSessionToken, questionWithSessionToken });
  }
  let limited: Record<string, unknown> = {};
  for (let i = 0; i < 40 && limited.type !== '/problems/rate-limited'; i++) limited = await answer(json({ order_id: gid, action: 'confirm' }));
  expect(limited.type).toBe('/problems/rate-limited');
  limited = {};
  for (let i = 0; i < 150 && limited.type !== '/problems/rate-limited'; i++) limited = await question(gid);
  expect(limited.type).toBe('/problems/rate-limited');

  const created2 = await call(s, 'POST', '/v1/keys', { key: apiKey, ...json({ publishable: true, origins: [ORIGIN] }) });
  const { api_key: publishable } = (await created2.json()) as { api_key: string };
  const report = async (body: Parameters<typeof call>[3]) => conformance.check('POST', EVENTS, await call(s, 'POST', EVENTS, { key: publishable, ...body, headers: { origin: ORIGIN } }));
  expect(await report(json({ shop: SHOP, event: 'prompt_shown' }))).toBeNull();
  expect((await report(json({ shop: SHOP, event: 'clicked' }))).type).toBe('/problems/invalid-request');
  expect((await report(json({ shop: 'not-mine.myshopify.com', event: 'prompt_shown' }))).type).toBe('/problems/not-found');
  expect((await report(BIG_JSON)).type).toBe('/problems/payload-too-large');
  expect((await report({ body: 'x', type: 'text/plain' })).type).toBe('/problems/unsupported-media-type');

  const settings = async (query: string) =>
    conformance.check('GET', SETTINGS, await call(s, 'GET', `${SETTINGS}${query}`, { key: publishable, headers: { origin: ORIGIN } }));
  expect(await settings(`?shop=${SHOP}`)).toEqual({ mode: 'warn' });
  expect((await settings('')).type).toBe('/problems/invalid-request');
  expect((await settings('?shop=not-mine.myshopify.com')).type).toBe('/problems/not-found');
}
