/** The Express application: thin routes over the billing and validation use cases. */
import express, { type Request, type Response } from 'express';
import type { Store } from 'express-rate-limit';
import type { Accounts } from '../billing/accounts.js';
import type { Purchases } from '../billing/purchases.js';
import type { Batches } from '../batches/batches.js';
import type { ConnectorRuns } from '../sync/connector-runs.js';
import type { Connectors } from '../sync/connectors.js';
import type { ShopifyInstall } from '../../connectors/shopify/install.js';
import type { ShopifyWebhooks } from '../../connectors/shopify/webhooks.js';
import type { CreditLedger } from '../billing/ledger.js';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { ContactValidation } from '../contact-check/validate-contact.js';
import { errorHandler } from './error-handler.js';
import type { ServiceMetrics } from './metrics.js';
import { IdempotencyStore } from './idempotency.js';
import { authenticate } from './middleware/authenticate.js';
import { preflight, publishableRateLimit, publishableScope } from './middleware/publishable-keys.js';
import { FailedAuthenticationLimiter, rateLimitPerKey } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { Problem, PROBLEM_TYPES, problemBody, type ProblemCode } from './problems.js';
import { accountRoutes } from './routes/account.js';
import { batchRoutes } from './routes/batches.js';
import { connectorRoutes } from './routes/connectors.js';
import { openApiRoutes } from './openapi/routes.js';
import { shopifyInstallRoutes } from './routes/shopify-install.js';
import { shopifyWebhookRoutes } from './routes/shopify-webhooks.js';
import { stripeWebhookRoutes } from './routes/stripe-webhooks.js';
import { validateRoutes } from './routes/validate.js';
import { widgetRoutes } from '../widget/routes.js';
import { dashboardRoutes, type DashboardDeps } from '../web/routes.js';

export interface AppDeps {
  db: Database;
  accounts: Accounts;
  ledger: CreditLedger;
  validation: ContactValidation;
  batches: Batches;
  connectors: Connectors;
  connectorRuns: ConnectorRuns;
  shopifyWebhooks: ShopifyWebhooks;
  /** SHOPIFY_WEBHOOKS_PER_MINUTE: refused deliveries per shop per minute (0: off; default 600). */
  shopifyWebhooksPerMinute?: number;
  /** Credit packs through Stripe Checkout (disabled, not absent, when Stripe is not configured). */
  purchases: Purchases;
  /** Null when the Shopify app is not configured. */
  shopifyInstall: ShopifyInstall | null;
  /** BATCH_MAX_BYTES: the largest CSV file a batch takes. */
  batchMaxBytes: number;
  logger: Logger;
  rateLimitPerMinute: number;
  /** Where the per-key counts live (Redis, PostgreSQL or memory: rate-limit.ts perKeyStore); default by the database. */
  rateLimitStore?: Store;
  /** Per client address behind publishable keys (docs/api.md#publishable-keys). */
  publishableRateLimitPerMinute: number;
  failedAuthentications: FailedAuthenticationLimiter;
  /** TRUST_PROXY: whose X-Forwarded-For / -Proto to believe (the client address of every limit, https for cookies). */
  trustProxy?: false | number | string[];
  metrics: ServiceMetrics;
  /** METRICS_TOKEN: the scraper's Bearer token for GET /metrics (open when unset). */
  metricsToken?: string;
  /** The dashboard for people (src/web): sign-up, sessions, pages. */
  people: DashboardDeps['people'];
  dashboard: DashboardDeps['settings'];
  /** True once the data the engines need is loaded. */
  isReady: () => boolean;
  /** True once the service is shutting down: it should get no new traffic. */
  isDraining: () => boolean;
  /** The e-mail resolver's health (null while network checks are off): /readyz says `dns: "degraded"` while it lies. */
  resolverHealth?: () => Promise<{ healthy: boolean } | null>;
}

/** Methods each known path answers, for 405 with Allow (RFC 9110 §15.5.6). */
const ROUTES: Record<string, string[]> = {
  '/healthz': ['GET', 'HEAD'],
  '/readyz': ['GET', 'HEAD'],
  '/metrics': ['GET', 'HEAD'],
  '/v1/validate': ['POST', 'OPTIONS'],
  '/v1/account': ['GET', 'HEAD'],
  '/v1/usage': ['GET', 'HEAD'],
  '/v1/keys': ['GET', 'HEAD', 'POST'],
  '/v1/batches': ['GET', 'HEAD', 'POST'],
  '/v1/connectors': ['GET', 'HEAD', 'POST'],
  '/widget.js': ['GET', 'HEAD'],
  '/widget/demo': ['GET', 'HEAD', 'POST'],
  '/webhooks/shopify': ['POST'],
  '/webhooks/stripe': ['POST'],
  '/v1/openapi.json': ['GET', 'HEAD'],
  '/docs': ['GET', 'HEAD'],
  '/v1/connectors/shopify/install': ['POST'],
  '/shopify/install': ['GET', 'HEAD'],
  '/shopify/callback': ['GET', 'HEAD'],
  // The dashboard (src/web).
  '/': ['GET', 'HEAD'],
  '/signup': ['GET', 'HEAD', 'POST'],
  '/signin': ['GET', 'HEAD', 'POST'],
  '/signout': ['POST'],
  '/forgot': ['GET', 'HEAD', 'POST'],
  '/reset': ['GET', 'HEAD', 'POST'],
  '/invite': ['GET', 'HEAD', 'POST'],
  '/confirm': ['GET', 'HEAD'],
  '/confirm/resend': ['POST'],
  '/keys': ['GET', 'HEAD', 'POST'],
  '/batches': ['GET', 'HEAD', 'POST'],
  '/connectors': ['GET', 'HEAD'],
  '/billing': ['GET', 'HEAD'],
  '/billing/checkout': ['POST'],
  '/members': ['GET', 'HEAD', 'POST'],
  '/settings': ['GET', 'HEAD'],
  '/settings/password': ['POST'],
  '/assets/dashboard.css': ['GET', 'HEAD'],
  '/assets/dashboard.js': ['GET', 'HEAD'],
};

/** Methods of the paths with an id in them. */
const ID_ROUTES: [RegExp, string[]][] = [
  [/^\/v1\/keys\/[^/]+$/, ['DELETE']],
  [/^\/v1\/batches\/[^/]+$/, ['GET', 'HEAD', 'DELETE']],
  [/^\/v1\/batches\/[^/]+\/result$/, ['GET', 'HEAD']],
  [/^\/v1\/batches\/[^/]+\/resume$/, ['POST']],
  [/^\/v1\/connectors\/[^/]+$/, ['GET', 'HEAD', 'PATCH', 'DELETE']],
  [/^\/v1\/connectors\/[^/]+\/runs$/, ['GET', 'HEAD', 'POST']],
  [/^\/v1\/connectors\/[^/]+\/check$/, ['POST']],
  [/^\/keys\/[^/]+\/revoke$/, ['POST']],
  [/^\/batches\/[^/]+\/(status|result)$/, ['GET', 'HEAD']],
  [/^\/batches\/[^/]+\/resume$/, ['POST']],
  [/^\/connectors\/[^/]+\/(run|pause|resume)$/, ['POST']],
  [/^\/members\/[^/]+\/(remove|resend)$/, ['POST']],
];

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use(requestContext(deps.logger));
  app.use(deps.metrics.middleware());

  // Every /v1 route: the key first, then its rate limit. Routes are flat (no nested routers) to keep the hot path short,
  // and POST /v1/validate comes first: Express tries the routes in order, one match attempt each per request.
  const guard = [
    authenticate(deps.accounts, deps.failedAuthentications), publishableScope(),
    ...rateLimitPerKey(deps.db, deps.rateLimitPerMinute, deps.rateLimitStore), ...publishableRateLimit(deps.db, deps.publishableRateLimitPerMinute),
  ];
  validateRoutes(app, guard, deps.validation, new IdempotencyStore(deps.db));
  deps.metrics.routes(app, deps.metricsToken);

  // Readiness (a load balancer's or Kubernetes' probe): not while loading or draining, nor without the database.
  app.get('/readyz', async (_req: Request, res: Response) => {
    if (deps.isDraining()) throw new Problem('not-ready', 'The service is shutting down.');
    if (!deps.isReady()) throw new Problem('not-ready', 'Reference data is still loading.');
    await deps.db.ping();
    // A resolver that denies names that exist degrades the e-mail check (answers `unknown` / `dns_unavailable`) but
    // not the instance: it stays ready (another instance's resolver is likely no better), and says so.
    const resolver = await deps.resolverHealth?.();
    const dns = !resolver ? 'off' : resolver.healthy ? 'ok' : 'degraded';
    res.set('Cache-Control', 'no-store').json({ status: 'ready', dns });
  });

  app.get('/healthz', async (_req: Request, res: Response) => {
    if (!deps.isReady()) throw new Problem('not-ready', 'Reference data is still loading.');
    await deps.db.ping();
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  app.get('/problems/:code', (req, res) => {
    const code = String(req.params.code) as ProblemCode;
    if (!Object.hasOwn(PROBLEM_TYPES, code)) throw new Problem('not-found', 'No such problem type.');
    res.json(problemBody(new Problem(code)));
  });

  shopifyWebhookRoutes(app, deps.shopifyWebhooks, deps.db, deps.shopifyWebhooksPerMinute ?? 600);
  stripeWebhookRoutes(app, deps.purchases);
  app.options('/v1/validate', preflight());
  accountRoutes(app, guard, deps.accounts, deps.ledger);
  batchRoutes(app, guard, deps.batches, deps.batchMaxBytes);
  shopifyInstallRoutes(app, guard, deps.shopifyInstall);
  connectorRoutes(app, guard, deps.connectors, deps.connectorRuns);
  openApiRoutes(app);
  widgetRoutes(app);
  dashboardRoutes(app, {
    people: deps.people, accounts: deps.accounts, ledger: deps.ledger, batches: deps.batches, connectors: deps.connectors,
    connectorRuns: deps.connectorRuns, purchases: deps.purchases, settings: deps.dashboard,
  });

  app.use((req: Request) => {
    const allowed = ROUTES[req.path] ?? ID_ROUTES.find(([pattern]) => pattern.test(req.path))?.[1];
    if (allowed) {
      throw new Problem('method-not-allowed', `${req.method} is not allowed here.`, {}, { Allow: allowed.join(', ') });
    }
    throw new Problem('not-found', 'No such endpoint.');
  });
  app.use(errorHandler());
  return app;
}
