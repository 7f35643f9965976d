/**
 * A store's checkout and orders page on the dashboard (docs/shopify.md): its settings and its proof, for the connectors
 * of the plugin whose orders are checked at purchase (its `orders` port). Thin: the connector is looked up within the
 * session's account (another account's is 404), the settings go through the connectors use case (the plugin's schema
 * checks them), the proof comes from the orders' books.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { Problem } from '../http/problems.js';
import type { Connectors } from '../sync/connectors.js';
import type { OrderPort } from '../sync/order-port.js';
import { storePage } from './pages/store.js';
import { webOf } from './web-session.js';

const PROOF_DAYS = 30;

export function storeRoutes(
  router: Router, guards: { page: RequestHandler[]; action: RequestHandler[] },
  deps: { connectors: Connectors; orders: OrderPort | null | undefined },
): void {
  const ownStore = async (req: Request, res: Response) => {
    const connector = await deps.connectors.get(webOf(res).session!.accountId, String(req.params.id));
    if (!connector || !deps.orders || connector.type !== deps.orders.type) throw new Problem('not-found', 'No such store on this account.');
    return connector;
  };

  router.get('/connectors/:id/store', ...guards.page, async (req, res) => {
    const connector = await ownStore(req, res);
    const settings = connector.settings as { shop?: string; mode?: 'warn' | 'block'; hold?: boolean };
    res.status(200).type('html').send(storePage({
      web: webOf(res), days: PROOF_DAYS, saved: req.query.done === 'saved',
      connector: { connector_id: connector.id, name: connector.name, shop: settings.shop ?? '', mode: settings.mode ?? 'warn', hold: settings.hold === true },
      proof: await deps.orders!.proof(connector.id, PROOF_DAYS),
    }));
  });

  router.post('/connectors/:id/store', ...guards.action, async (req, res) => {
    const connector = await ownStore(req, res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    await deps.connectors.update(connector, {
      settings: { ...connector.settings, mode: body.mode === 'block' ? 'block' : 'warn', hold: body.hold === 'true' },
    });
    res.redirect(303, `/connectors/${connector.id}/store?done=saved`);
  });
}
