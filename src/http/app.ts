/**
 * The Express application: the declared endpoints (./endpoints/) routed behind their guards, the dashboard's pages,
 * and the 404 and 405 answers.
 */
import express, { type Request, type RequestHandler } from 'express';
import type { Store } from 'express-rate-limit';
import type { Accounts } from '../billing/accounts.js';
import type { Purchases } from '../billing/purchases.js';
import type { Batches } from '../batches/batches.js';
import type { ConnectorRuns } from '../sync/connector-runs.js';
import type { Connectors } from '../sync/connectors.js';
import type { ConnectFlows } from '../sync/connect-flows.js';
import type { OrderPort } from '../sync/order-port.js';
import type { PluginWebhooks } from '../sync/plugin-webhooks.js';
import type { CreditLedger } from '../billing/ledger.js';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { ContactValidation } from '../contact-check/validate-contact.js';
import { PolicyStore } from '../contact-check/policy-store.js';
import { EmailFeedback } from '../email-feedback/feedback.js';
import type { AddressAutocomplete } from '../validation/address/autocomplete.js';
import type { LowBalanceAlerts } from '../webhooks/low-balance.js';
import type { Webhooks } from '../webhooks/webhooks.js';
import type { EmailChecks } from '../email-checks/email-checks.js';
import { errorHandler } from './error-handler.js';
import type { ServiceMetrics } from './metrics.js';
import { ENDPOINTS } from './endpoints/index.js';
import type { Security } from './endpoints/endpoint.js';
import { AllowTable, mountEndpoints, routesOfEndpoints, routesOfRouter } from './endpoints/router.js';
import { idempotencyLeaseMs, IdempotencyStore } from './idempotency.js';
import { authenticate } from './middleware/authenticate.js';
import { publishableRateLimit, publishableScope } from './middleware/publishable-keys.js';
import { testKeyDailyLimit } from './middleware/test-keys.js';
import { FailedAuthenticationLimiter, rateLimitPerKey } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { Problem } from './problems.js';
import { dashboardRoutes, type DashboardDeps } from '../web/routes.js';

export interface AppDeps {
  db: Database;
  accounts: Accounts;
  ledger: CreditLedger;
  validation: ContactValidation;
  /** VALIDATION_BUDGET_MS: how long an Idempotency-Key attempt holds its record before a retry may take it over. */
  validationBudgetMs?: number;
  /** Address suggestions as a person types (GET /v1/address/autocomplete), from the loaded reference and postal data. */
  addressSuggestions: Pick<AddressAutocomplete, 'suggest'>;
  /** What test keys are answered with (docs/account.md#test-keys): network checks off, nothing charged. */
  testValidation: ContactValidation;
  batches: Batches;
  connectors: Connectors;
  connectorRuns: ConnectorRuns;
  /** Every plugin's webhook deliveries (POST /webhooks/{type}). */
  pluginWebhooks: PluginWebhooks;
  /** Every plugin's ways to connect: forms, OAuth flows, app installs (the dashboard's and the install endpoints). */
  connect: ConnectFlows;
  /** Orders checked at purchase, the port of the plugin that checks them (null: none, or no mail and links). */
  orders?: OrderPort | null;
  /** Credit packs through Stripe Checkout (disabled, not absent, when Stripe is not configured). */
  purchases: Purchases;
  /** Outgoing webhooks (src/webhooks) and the low-balance alert. */
  webhooks: Webhooks;
  lowBalance: LowBalanceAlerts;
  /** Accounts' own policies (/v1/policies); by default kept in `db`. */
  policies?: PolicyStore;
  /** What accounts tell of their mail (POST /v1/feedback); by default kept in `db`. */
  feedback?: EmailFeedback;
  /** Answers that arrive later (GET /v1/email-checks/{id}). */
  emailChecks: Pick<EmailChecks, 'get' | 'batchState'>;
  /** Connectors' checks and one-click set-up, for the dashboard. */
  connectorChecks: DashboardDeps['connectorChecks'];
  /** BATCH_MAX_BYTES: the largest CSV file a batch takes. */
  batchMaxBytes: number;
  logger: Logger;
  rateLimitPerMinute: number;
  /** Where the per-key counts live (Redis, PostgreSQL or memory: rate-limit.ts perKeyStore); default by the database. */
  rateLimitStore?: Store;
  /** Per client address behind publishable keys (docs/account.md#publishable-keys). */
  publishableRateLimitPerMinute: number;
  /** Requests per account per 24 hours with its test keys (docs/account.md#test-keys); 0 or absent: no daily cap. */
  testKeyRequestsPerDay?: number;
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
  /** Each SMTP egress and whether it reaches port 25 ([] when none is configured): /readyz's `smtp_egress`. */
  egresses?: () => { name: string; state: string }[];
  /** `building` while a new import's reference index is built (this instance answers on the previous one). */
  referenceState?: () => 'loaded' | 'building';
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use(requestContext(deps.logger));
  app.use(deps.metrics.middleware());

  // A keyed endpoint: the key first, then its scope, then its rate limits (one count per key, shared by every route).
  const authenticated = authenticate(deps.accounts, deps.failedAuthentications);
  const limits = [
    ...rateLimitPerKey(deps.db, deps.rateLimitPerMinute, deps.rateLimitStore), ...publishableRateLimit(deps.db, deps.publishableRateLimitPerMinute),
    ...testKeyDailyLimit(deps.db, deps.testKeyRequestsPerDay ?? 0),
  ];
  const guards: Record<Security, RequestHandler[]> = {
    secret: [authenticated, publishableScope(false), ...limits],
    publishable: [authenticated, publishableScope(true), ...limits],
    none: [],
  };
  let description: string | undefined;
  mountEndpoints(app, ENDPOINTS, {
    ...deps,
    idempotency: new IdempotencyStore(deps.db, idempotencyLeaseMs(deps.validationBudgetMs ?? 2_000)),
    policies: deps.policies ?? new PolicyStore(deps.db),
    feedback: deps.feedback ?? new EmailFeedback(deps.db),
    description: () => (description ??= JSON.stringify(buildOpenApiDocument())),
  }, guards);
  const dashboard = dashboardRoutes(app, {
    people: deps.people, accounts: deps.accounts, ledger: deps.ledger, batches: deps.batches, connectors: deps.connectors,
    connectorRuns: deps.connectorRuns, purchases: deps.purchases, settings: deps.dashboard,
    connectorChecks: deps.connectorChecks, connect: deps.connect,
    webhooks: deps.webhooks, lowBalance: deps.lowBalance,
    orders: deps.orders, db: deps.db,
  });

  // 405 with Allow (RFC 9110 §15.5.6) for a known path, from the same declarations and the dashboard's routes.
  const allow = new AllowTable([...routesOfEndpoints(ENDPOINTS), ...routesOfRouter(dashboard)]);
  app.use((req: Request) => {
    const allowed = allow.allowed(req.path);
    if (allowed) {
      throw new Problem('method-not-allowed', `${req.method} is not allowed here.`, {}, { Allow: allowed.join(', ') });
    }
    throw new Problem('not-found', 'No such endpoint.');
  });
  app.use(errorHandler());
  return app;
}
