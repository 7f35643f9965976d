/**
 * Connectors (docs/connectors.md): create, list, read, change, delete, check, start a run, list runs. Credentials are write-only:
 * no answer carries them. Another account's connector answers 404, exactly like a missing one.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import type { ConnectorRow } from '../../sync/connector-store.js';
import type { ConnectorRuns } from '../../sync/connector-runs.js';
import { ConnectorInvalid, PlatformAccountTaken, type Connectors } from '../../sync/connectors.js';
import { SecretKeyMissing } from '../../sync/secrets.js';
import { jsonBody } from '../middleware/json-body.js';
import { Problem } from '../problems.js';

const accountOf = (res: Response) => res.locals.context.principal!.accountId;

/** The use case's refusals as problems: field errors 400, a shop already connected 409, no key to seal credentials with 503. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ConnectorInvalid) {
      throw new Problem('invalid-request', err.message.slice(0, 500), { errors: err.errors });
    }
    if (err instanceof PlatformAccountTaken) {
      throw new Problem('shop-already-connected', err.message, err.connectorId ? { connector_id: err.connectorId } : {});
    }
    if (err instanceof SecretKeyMissing) throw new Problem('connectors-not-configured', err.message);
    throw err;
  }
}

export function connectorRoutes(router: Router, guard: RequestHandler[], connectors: Connectors, runs: ConnectorRuns): void {
  const own = async (req: Request, res: Response): Promise<ConnectorRow> => {
    const connector = await connectors.get(accountOf(res), String(req.params.id));
    if (!connector) throw new Problem('not-found', 'No such connector on this account.');
    return connector;
  };

  router.post('/v1/connectors', ...guard, jsonBody(), async (req, res) => {
    const created = await answering(() => connectors.create(accountOf(res), req.body));
    res.status(201).location(`/v1/connectors/${created.connector_id}`).json(created);
  });

  router.get('/v1/connectors', ...guard, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ connectors: await connectors.list(accountOf(res)) });
  });

  router.get('/v1/connectors/:id', ...guard, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await connectors.view(await own(req, res)));
  });

  router.patch('/v1/connectors/:id', ...guard, jsonBody(), async (req, res) => {
    const connector = await own(req, res);
    res.json(await answering(() => connectors.update(connector, req.body)));
  });

  router.delete('/v1/connectors/:id', ...guard, async (req, res) => {
    if (!(await connectors.delete(accountOf(res), String(req.params.id)))) {
      throw new Problem('not-found', 'No such connector on this account.');
    }
    res.status(204).end();
  });

  router.post('/v1/connectors/:id/runs', ...guard, async (req, res) => {
    const connector = await own(req, res);
    const started = await answering(() => runs.start(connector, 'api'));
    if (!started) throw new Problem('connector-busy', 'A run of this connector is in progress.');
    res.status(202).location(`/v1/connectors/${connector.id}/runs`).json({ run_id: started.runId });
  });

  // Credentials, fields, permissions and webhooks, before a first run: 200 whatever it finds (the problems are the answer).
  router.post('/v1/connectors/:id/check', ...guard, async (req, res) => {
    const connector = await own(req, res);
    res.set('Cache-Control', 'no-store').json(await answering(() => runs.check(connector)));
  });

  router.get('/v1/connectors/:id/runs', ...guard, async (req, res) => {
    const connector = await own(req, res);
    res.set('Cache-Control', 'no-store').json({ runs: await connectors.runs(connector.id) });
  });
}
