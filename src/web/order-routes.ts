/**
 * The buyer's page about a doubtful delivery address (docs/shopify.md): GET shows the order's address from the store,
 * POST confirms it or writes the correction (the order port of the plugin that checks orders, src/sync/order-port.ts). Thin, as the dashboard's routes are: the
 * signed link names the store and the order, the pre-session CSRF token guards the forms, and each client address may
 * answer a few times a minute.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { OrderNotFound, OrderWriteRefused, type OrderPort } from '../sync/order-port.js';
import type { Database } from '../db/data-source.js';
import { perClient } from '../http/endpoints/order-endpoints.js';
import { orderAddressDonePage, orderAddressPage, orderLinkProblemPage } from './pages/order-address.js';
import { webOf } from './web-session.js';

/** Page views and answers per client address per minute: a buyer needs a handful. */
const PER_MINUTE = 20;
const FIELDS = ['address1', 'address2', 'city', 'province_code', 'zip', 'country_code'] as const;

const text = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 200) : '');

export function orderAddressRoutes(
  router: Router, orders: OrderPort | null | undefined, db: Database,
  { session, form, csrf }: { session: RequestHandler; form: RequestHandler; csrf: RequestHandler },
): void {
  const limited = perClient(db, PER_MINUTE, 'rlorderpage:');
  const html = (res: Response, status: number, body: string) =>
    // The link's token is in this page's URL: no Referer carries it to another site (same-origin: the forms' own POST
    // keeps its Origin, which no-referrer would make "null"), and no cache keeps the page.
    res.status(status).set({ 'Referrer-Policy': 'same-origin', 'Cache-Control': 'no-store' }).type('html').send(body);
  const gone = (res: Response) => html(res, 404, orderLinkProblemPage(webOf(res), 'This link is not valid, or has expired.'));

  router.get('/orders/address', ...limited, session, async (req: Request, res: Response) => {
    if (!orders) return gone(res);
    const token = text(req.query.token).slice(0, 1000);
    try {
      const { name, address, order } = await orders.orderOfLink(token);
      html(res, 200, orderAddressPage({ web: webOf(res), token, order: { name, address, confirmation: order.confirmation } }));
    } catch (err) {
      if (err instanceof OrderNotFound) return gone(res);
      throw err;
    }
  });

  router.post('/orders/address', ...limited, session, form, csrf, async (req: Request, res: Response) => {
    if (!orders) return gone(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = text(body.token).slice(0, 1000);
    const values = Object.fromEntries(FIELDS.map((f) => [f, text(body[f])])) as Record<(typeof FIELDS)[number], string>;
    const again = async (status: number, error: string) => {
      const { name, address, order } = await orders.orderOfLink(token);
      html(res, status, orderAddressPage({ web: webOf(res), token, order: { name, address, confirmation: order.confirmation }, values, error }));
    };
    try {
      if (body.action === 'confirm') {
        await orders.answerWithLink(token, { action: 'confirm' });
        return html(res, 200, orderAddressDonePage({ web: webOf(res), status: 'confirmed', standardized: null }));
      }
      if (!values.address1 || !values.city || !values.zip || !/^[A-Za-z]{2}$/.test(values.country_code)) {
        return await again(400, 'Give the street and number, the city, the ZIP or postal code and the two-letter country code.');
      }
      const outcome = await orders.answerWithLink(token, { action: 'correct', address: {
        address1: values.address1, address2: values.address2 || null, city: values.city, provinceCode: values.province_code || null,
        zip: values.zip, countryCode: values.country_code.toUpperCase(),
      } });
      if (outcome.status === 'undeliverable') return await again(422, 'We could not find this address either: please check it and try again.');
      html(res, 200, orderAddressDonePage({ web: webOf(res), status: 'corrected', standardized: outcome.address?.standardized ?? null }));
    } catch (err) {
      if (err instanceof OrderNotFound) return gone(res);
      if (err instanceof OrderWriteRefused) return again(502, 'The store could not take the change just now: please try again in a moment.');
      throw err;
    }
  });
}
