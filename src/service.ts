/** Wiring: config -> database (migrations) -> billing -> engines -> app -> listening server, and its orderly close. */
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import path from 'node:path';
import { BATCH_KIND, Batches, batchTransitions } from './batches/batches.js';
import { csvSource } from './batches/csv-source.js';
import { Accounts } from './billing/accounts.js';
import { InDoubtDebits } from './billing/in-doubt-debits.js';
import { openBilling } from './billing/open-billing.js';
import { Purchases } from './billing/purchases.js';
import { type ChunkQueue, InProcessChunkQueue, PgBossChunkQueue } from './bulk/chunk-queue.js';
import { JobEvents } from './bulk/job-events.js';
import { JobStore } from './bulk/job-store.js';
import { Schedules } from './bulk/schedules.js';
import { BulkRunner } from './bulk/runner.js';
import { createConnectorPlugins } from '../connectors/index.js';
import { UsedFlowNonces } from './sync/flow-nonces.js';
import { ConnectFlows } from './sync/connect-flows.js';
import { ConnectorChecks } from './sync/connector-check.js';
import { CreditCaps, type CreditCapDeps } from './sync/credit-caps.js';
import { RealtimeStreams } from './sync/realtime-streams.js';
import { StreamStore } from './sync/stream-store.js';
import { OrderChecks, type OrderMail } from './sync/order-checks.js';
import { PLUGIN_JOB_KIND, PluginJobs } from './sync/plugin-jobs.js';
import { PluginWebhooks } from './sync/plugin-webhooks.js';
import { ConnectorStore } from './sync/connector-store.js';
import { LaterAnswers } from './sync/later-answers.js';
import { EmailFeedback } from './email-feedback/feedback.js';
import { EmailCheckStore } from './email-checks/email-check-store.js';
import { CONNECTOR_JOB_KIND, ConnectorRuns } from './sync/connector-runs.js';
import { Connectors } from './sync/connectors.js';
import { ConnectorRegistry } from './sync/registry.js';
import { ConnectorScheduler } from './sync/scheduler.js';
import { SecretBox } from './kit/secrets.js';
import { WebhookDeliveries } from './sync/webhook-deliveries.js';
import { forwardJobEvents, type JobEventSource } from './webhooks/job-events.js';
import { LowBalanceAlerts } from './webhooks/low-balance.js';
import { Webhooks } from './webhooks/webhooks.js';
import type { Mailer } from './people/mailer.js';
import { CreditLedger } from './billing/ledger.js';
import type { Config } from './config.js';
import { Database } from './db/data-source.js';
import { createApp } from './http/app.js';
import { createHttpServer } from './http/server.js';
import { ServiceMetrics } from './http/metrics.js';
import { connectRedis, DatabaseRateLimitStore, perKeyStore, FailedAuthenticationLimiter } from './http/middleware/rate-limit.js';
import { createMailer } from './people/mailer.js';
import { People } from './people/people.js';
import { WebSessions } from './people/sessions.js';
import { createLogger, type Logger } from './log.js';
import { createEngines } from './contact-check/engines.js';
import { waitingForEmailChecks } from './email-checks/batch-wait.js';
import { EmailChecks } from './email-checks/email-checks.js';
import { FleetHostManners } from './email-checks/fleet-host-manners.js';
import { PolicyStore } from './contact-check/policy-store.js';
import { ContactValidation } from './contact-check/validate-contact.js';
import { testModeValidation } from './contact-check/test-mode.js';
import { seedEmbeddedReference } from './db/reference-store.js';
import { openReference, referenceIndexVersion } from './db/reference-index-build.js';
import { loadShippedAddressData } from './validation/address/index.js';
import { loadShippedPhoneData } from './validation/phone/index.js';

/** SQLite: how often the worker thread checkpoints the WAL (src/db/wal-checkpointer.ts). */
const WAL_CHECKPOINT_INTERVAL_MS = 1_000;

export interface RunningService {
  url: string;
  server: http.Server;
  db: Database;
  accounts: Accounts;
  people: People;
  ledger: CreditLedger;
  /** Credit packs through Stripe Checkout (src/billing/purchases.ts). */
  purchases: Purchases;
  /** The job engine: its store, runner, fleet-wide schedules (`schedules.every`) and events (`events.on`). */
  bulk: Awaited<ReturnType<typeof openBulk>>;
  inDoubt: InDoubtDebits;
  /** Answers that arrive later (src/email-checks). */
  emailChecks: EmailChecks;
  sync: Awaited<ReturnType<typeof openSync>>;
  /** Outgoing webhooks and the low-balance alert. */
  outgoing: ReturnType<typeof openWebhooks>;
  logger: Logger;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), closes engines and the database. */
  close(): Promise<void>;
}

export { openBilling };

/**
 * The engines and the reference data they are given: the shipped files (postal tables, country forms, phone metadata)
 * and the delivery-point reference the database holds (the embedded RRAD points are loaded into it at first start;
 * `reference import` adds more, which a running service loads within REFERENCE_RELOAD_MS).
 */
export async function openEngines(config: Config, db: Database, logger?: Logger) {
  await seedEmbeddedReference(db);
  const data = {
    address: loadShippedAddressData({ rrad: false }),
    phone: loadShippedPhoneData(),
    reference: {
      version: () => referenceIndexVersion(db),
      // (The postal data the index's autocomplete suggestions are written with, where this instance builds one.)
      open: (version: string, building: (on: boolean) => void) =>
        openReference(db, version, { ...config.referenceIndex, postal: data.address.postal }, building),
    },
  };
  return createEngines(data, config, logger);
}

/** How often an instance looks for due fleet-wide ticks (src/bulk/schedules.ts): the finest schedule resolution. */
const SCHEDULE_POLL_MS = 500;
/** Connector jobs (runs, webhook deliveries) one instance works at once; their records share BATCH_MAX_IN_FLIGHT. */
const CONNECTOR_JOBS_PER_INSTANCE = 8;

/**
 * The job engine and CSV batches: the job store, the queue (in process on SQLite; pg-boss on PostgreSQL, shared by
 * every instance), the runner with the CSV kind, the fleet's schedules, the jobs' events, and the batches use case.
 * Neither the runner nor the schedules are started here.
 */
export async function openBulk(
  config: Config, db: Database, validation: ContactValidation, ledger: CreditLedger, logger: Logger,
  { inProcess = false, emailChecks }: { inProcess?: boolean; emailChecks?: EmailChecks } = {},
) {
  const store = new JobStore(db);
  // `inProcess`: the CLI works its own batch in the foreground, whatever the database.
  const queue: ChunkQueue = db.dialect === 'postgres' && !inProcess
    ? await PgBossChunkQueue.open(config.databaseUrl, logger, {
      expireSeconds: Math.max(60, Math.ceil((config.batch.leaseMs * 10) / 1000)),
      maintenanceSeconds: Math.max(1, Math.ceil(config.batch.sweepMs / 1000)),
    })
    : new InProcessChunkQueue(logger);
  const dir = path.resolve(config.batch.dir);
  const runner = new BulkRunner(store, queue, validation, ledger, logger, {
    perJob: config.batch.perJob,
    overall: config.batch.overall,
    chunkWorkers: config.batch.workers,
    leaseMs: config.batch.leaseMs,
    sweepMs: config.batch.sweepMs,
    resendAfterMs: Math.max(config.batch.leaseMs * 2, 60_000),
  });
  const events = new JobEvents(logger);
  const csvKind = runner.recordsKind(csvSource(dir), batchTransitions(events));
  // A batch waits (up to BATCH_EMAIL_CHECK_WAIT_MS) for its e-mail answers that arrive later, and completes with them.
  runner.register(BATCH_KIND, emailChecks ? waitingForEmailChecks(csvKind, emailChecks) : csvKind);
  const schedules = new Schedules(db, logger, { pollMs: SCHEDULE_POLL_MS });
  const batches = new Batches(store, runner, {
    dir, retentionDays: config.batch.retentionDays, chunkRows: config.batch.chunkRows,
    limits: { maxColumns: config.batch.maxColumns, maxFieldBytes: config.batch.maxFieldBytes, maxRowBytes: config.batch.maxRowBytes },
  });
  // Connector runs and webhook deliveries go down a lane of their own (src/sync registers them on it).
  // Idle workers of other instances look every 2 s (this instance's are woken as a job is sent): 8 of them polling
  // each half second would cost PostgreSQL more than the batches' own.
  const connectorLane = await queue.lane('connector-jobs', { pollSeconds: 2 });
  return { store, runner, batches, events, schedules, connectorLane };
}

/**
 * Connectors: the registry of plugins, the sealed credentials, the configuration use case, runs as jobs of the job
 * engine (its runner, lease, sweeper and events) and the schedule's fleet-wide tick (registered, not started, here).
 */
export function openSync(
  config: Config, db: Database, validation: ContactValidation, logger: Logger,
  bulk: Pick<Awaited<ReturnType<typeof openBulk>>, 'store' | 'runner' | 'events' | 'schedules' | 'connectorLane'>,
  /** Mail and links for the buyers of orders checked at purchase (absent: the CLI, which takes no deliveries). */
  buyers?: { mailer: { send(message: OrderMail): Promise<void> }; linkSecret: () => Promise<Buffer>; baseUrl: () => string },
  /** Whom a connector's credit cap alert goes to (absent: the CLI, whose runs still stop at the cap, unannounced). */
  owners?: Omit<CreditCapDeps, 'log'>,
) {
  const store = new ConnectorStore(db);
  // One store (and its second's cache) for the API's requests and the connectors' runs.
  const policies = new PolicyStore(db);
  const caps = new CreditCaps(db, {
    ownerEmailOf: owners?.ownerEmailOf ?? (async () => null), mailer: owners?.mailer ?? { send: async () => undefined, showsLinks: false, sends: false, close() {} },
    dashboardUrl: owners?.dashboardUrl ?? (() => ''), log: logger,
  });
  // Each plugin reads its own options (an app's client id, a test's stand-in) from the connectors' configuration.
  const registry = new ConnectorRegistry(createConnectorPlugins(config.connectors));
  const secrets = new SecretBox(config.connectors.secretKey, config.connectors.previousKeys);
  // E-mail answers that arrived later for connectors' records: the runs write them back (the second write-back).
  const laterAnswers = new LaterAnswers(new EmailCheckStore(db));
  const runs = new ConnectorRuns(store, bulk.store, bulk.runner, registry, secrets, validation, bulk.events, logger, {
    perJob: config.batch.perJob, slots: bulk.runner.slots, gate: bulk.runner.gate, allowPrivate: config.connectors.allowPrivate,
    outbound: config.outbound,
    publicBaseUrl: config.connectors.publicBaseUrl,
    checkTimeoutMs: config.connectors.checkTimeoutMs,
    caps, policies, laterAnswers,
  });
  bulk.runner.register(CONNECTOR_JOB_KIND, runs, {
    queue: bulk.connectorLane, workers: CONNECTOR_JOBS_PER_INSTANCE, leaseMs: config.connectors.leaseMs,
  });
  const scheduler = new ConnectorScheduler(store, runs, logger, caps, Date.now, laterAnswers);
  scheduler.register(bulk.schedules);
  const connectors = new Connectors(store, registry, secrets, config.connectors.allowPrivate, policies, caps);
  const orderChecks = buyers ? new OrderChecks(db, store, secrets, validation, buyers.mailer, buyers.linkSecret, logger, {
    outbound: config.outbound, allowPrivate: config.connectors.allowPrivate, baseUrl: buyers.baseUrl, caps,
  }) : null;
  // Orders checked at purchase: the port of the one plugin that checks them, built with the core's order services.
  const orders = orderChecks ? registry.ordersPlugin()?.orders?.(orderChecks) ?? null : null;
  // A plugin's own work (an order's check) is a job of the engine, stored before its delivery is answered.
  const pluginJobs = new PluginJobs(bulk.store, bulk.runner, store, registry, secrets, logger);
  bulk.runner.register(PLUGIN_JOB_KIND, pluginJobs);
  const webhooks = new PluginWebhooks(registry, new WebhookDeliveries(db, store, secrets, runs, logger), pluginJobs, logger);
  const connect = new ConnectFlows(registry, connectors, secrets, new UsedFlowNonces(db), config.connectors.allowPrivate);
  const checks = new ConnectorChecks({
    registry, secrets, log: logger,
    options: {
      outbound: config.outbound, allowPrivate: config.connectors.allowPrivate, publicBaseUrl: config.connectors.publicBaseUrl,
      checkTimeoutMs: config.connectors.checkTimeoutMs,
    },
  });
  // Real time: the stream's records go through the webhook deliveries' path (a job each, kept in the database before
  // the replay id moves on); a drop starts a catch-up run.
  const streams = new RealtimeStreams(store, new StreamStore(db), registry, secrets, {
    deliver: async (connector, records) => { await runs.deliver(connector, records); },
    catchUp: async (connector) => { await runs.start(connector, 'stream_dropped'); },
  }, logger, {
    pollMs: config.connectors.streamPollMs, leaseMs: config.connectors.leaseMs, retryBaseMs: config.connectors.streamRetryMs,
    allowPrivate: config.connectors.allowPrivate, outbound: config.outbound,
  });
  return { store, registry, runs, scheduler, connectors, webhooks, connect, orderChecks, orders, checks, streams, policies };
}

/** What the webhooks need of the fleet's schedules (src/bulk/schedules.ts). */
interface FleetSchedules {
  every(name: string, cron: string, fn: (firedAt: number) => Promise<void> | void): void;
}

/** A cron expression (with seconds) firing about every `ms`: at least each second, at most each minute. */
function everySeconds(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s >= 60 ? '0 * * * * *' : `*/${s} * * * * *`;
}

/** Finished webhook deliveries are kept this long in the log (docs/webhooks.md), pruned once an hour. */
const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Outgoing webhooks and the low-balance alert (src/webhooks): endpoint secrets sealed with the connectors' key; due
 * deliveries and low balances looked at on every tick (and deliveries at once when an event is emitted).
 */
export function openWebhooks(
  config: Config, db: Database, ledger: CreditLedger, people: People, mailer: Mailer, logger: Logger, baseUrl: () => string,
  jobs?: { events: JobEventSource; schedules: FleetSchedules },
) {
  const w = config.webhooks;
  const webhooks = new Webhooks(db, new SecretBox(config.connectors.secretKey, config.connectors.previousKeys), {
    allowPrivate: w.allowPrivate, timeoutMs: w.timeoutMs, userAgent: 'contact-validator-webhooks/1',
    baseDelayMs: w.retryBaseMs, maxDelayMs: w.retryMaxMs, retryWindowMs: w.retryWindowMs,
    leaseMs: w.timeoutMs * 3, concurrency: 32, maxEndpointsPerAccount: 16,
  }, logger);
  const lowBalance = new LowBalanceAlerts({
    db, balanceOf: (id) => ledger.balance(id), mailer, webhooks, billingUrl: baseUrl, logger,
    grantedSince: async (id, at) => (await ledger.grants(id)).some((g) => Date.parse(g.created_at) > at),
    // Only a confirmed address gets mail from us.
    ownerEmailOf: async (id) => (await people.members(id)).find((m) => m.role === 'owner' && m.email_confirmed)?.email ?? null,
  });
  let timer: NodeJS.Timeout | undefined;
  let prunedAt = 0;
  const tick = async () => {
    await Promise.all([
      webhooks.deliverDue().catch((err) => logger.warn({ err }, 'webhooks: sending the due deliveries failed')),
      lowBalance.checkAll().catch((err) => logger.warn({ err }, 'low-balance checks failed')),
    ]);
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await webhooks.prune(DELIVERY_LOG_RETENTION_MS).catch((err) => logger.warn({ err }, 'webhook delivery log not pruned'));
    }
  };
  if (jobs) {
    // The job engine's transitions become events; its fleet-wide tick (once across the instances) sends what is due
    // and looks at low balances. Each instance still sends its own emitted events and retries at once.
    forwardJobEvents(jobs.events, webhooks);
    jobs.schedules.every('webhooks:due', everySeconds(w.tickMs), tick);
  }
  return {
    webhooks, lowBalance, tick,
    start() {
      if (jobs) return;
      timer ??= setInterval(() => void tick(), w.tickMs).unref();
      void tick();
    },
    async stop() {
      clearInterval(timer);
      await webhooks.stop();
    },
  };
}

/** The dashboard's people: sessions, mail, sign-in limits (counted in the database: the fleet's, and kept over restarts). */
export function openPeople(config: Config, db: Database, accounts: Accounts, logger: Logger) {
  const attempts = new DatabaseRateLimitStore(db);
  attempts.prefix = 'people:';
  attempts.init({ windowMs: 15 * 60_000 } as Parameters<DatabaseRateLimitStore['init']>[0]);
  const mailer = createMailer(config.people, logger);
  const people = new People(db, accounts, new WebSessions(db, config.people.sessionMaxAgeMs), mailer, attempts, {
    scryptLogN: config.people.scryptLogN, signInAttempts: config.people.signInAttempts,
    signUpsPerClient: config.people.signUpsPerClient, secret: config.people.sessionSecret,
  }, logger);
  return { people, mailer };
}

/** How long a check's try is held by its instance: longer than the engine's whole probe (30 s). */
const EMAIL_CHECK_LEASE_MS = 90_000;
/** A check's definite answer stands for later questions this long, as the engine's cache keeps definite answers. */
const EMAIL_CHECK_ANSWER_LIFETIME_MS = 3 * 86_400_000;

/** Answers that arrive later (src/email-checks): the store, the schedule of tries and its bounds, the event they end with. */
export function openEmailChecks(
  config: Config, db: Database, engine: ConstructorParameters<typeof EmailChecks>[1], logger: Logger,
  notify: ConstructorParameters<typeof EmailChecks>[4],
): EmailChecks {
  return new EmailChecks(db, engine, {
    scheduleMs: config.emailChecks.scheduleMs, maxPendingPerAccount: config.emailChecks.maxPendingPerAccount,
    perTick: config.emailChecks.perSecond, maxInFlight: Math.max(config.emailChecks.perSecond * 4, 16),
    leaseMs: EMAIL_CHECK_LEASE_MS, answerLifetimeMs: EMAIL_CHECK_ANSWER_LIFETIME_MS, batchWaitMs: config.batch.emailCheckWaitMs,
  }, logger, notify);
}

export async function startService(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<RunningService> {
  const db = await Database.open(config.databaseUrl);
  db.checkpointInBackground(WAL_CHECKPOINT_INTERVAL_MS);
  const { ledger, accounts } = await openBilling(config, db);
  let ready = false;
  let closing: Promise<void> | undefined;
  const engines = await openEngines(config, db, logger);
  ready = true;
  const inDoubt = new InDoubtDebits(ledger, logger);
  // Per-server manners: a mail host's slow-down is written for the fleet, and the fleet's read every second.
  const hostManners = new FleetHostManners(db, engines.mailHosts, logger);
  const emailChecks = openEmailChecks(config, db, engines.email, logger, (accountId, data, key) =>
    outgoing.webhooks.emit(accountId, 'email.verified', data, key));
  // What accounts tell of their mail (POST /v1/feedback): their answers learn from it.
  const feedback = new EmailFeedback(db);
  const validation = new ContactValidation(engines, ledger, config.validationBudgetMs, inDoubt, emailChecks, feedback);
  const bulk = await openBulk(config, db, validation, ledger, logger, { emailChecks });
  // Once a second across the fleet: the due checks are tried (at most EMAIL_CHECKS_PER_SECOND of them).
  bulk.schedules.every('email-checks:due', '* * * * * *', () => emailChecks.tick().then(() => undefined));
  const { people, mailer } = openPeople(config, db, accounts, logger);
  let url = '';
  const sync = openSync(config, db, validation, logger, bulk, {
    mailer, linkSecret: () => people.linkSecret(), baseUrl: () => baseUrl(),
  }, {
    mailer, dashboardUrl: () => baseUrl(),
    ownerEmailOf: async (id) => (await people.members(id)).find((m) => m.role === 'owner' && m.email_confirmed)?.email ?? null,
  });
  const failedAuthentications = new FailedAuthenticationLimiter(config.failedAuthPerMinute, db);
  // REDIS_URL: the per-key rate limit counts in Redis (src/http/middleware/rate-limit.ts).
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const baseUrl = () => (config.people.publicBaseUrl ?? url).replace(/\/+$/, '');
  const outgoing = openWebhooks(config, db, ledger, people, mailer, logger, baseUrl, bulk);
  const purchases = new Purchases(db, ledger, { packPrices: config.credits.packPrices, stripe: config.stripe }, logger);
  const stripeApi = config.stripe?.apiBase ? new URL(config.stripe.apiBase).origin : null;
  const app = createApp({
    db, accounts, failedAuthentications, ledger, validation, addressSuggestions: engines.addressSuggestions, logger, rateLimitPerMinute: config.rateLimitPerMinute,
    testValidation: testModeValidation(engines.offline, ledger, config.validationBudgetMs),
    validationBudgetMs: config.validationBudgetMs,
    trustProxy: config.trustProxy,
    rateLimitStore: perKeyStore(db, redis ? { client: redis, log: logger } : undefined),
    publishableRateLimitPerMinute: config.publishableRateLimitPerMinute,
    testKeyRequestsPerDay: config.testKeyRequestsPerDay,
    metrics: new ServiceMetrics(db, engines.resolver), metricsToken: config.metricsToken,
    isReady: () => ready, isDraining: () => closing !== undefined, resolverHealth: () => engines.resolver.health(), egresses: () => engines.resolver.egresses?.() ?? [], referenceState: engines.referenceState, batches: bulk.batches, batchMaxBytes: config.batch.maxBytes,
    connectors: sync.connectors, connectorRuns: sync.runs, pluginWebhooks: sync.webhooks, connect: sync.connect,
    orders: sync.orders, connectorChecks: sync.checks, policies: sync.policies,
    people, purchases, webhooks: outgoing.webhooks, lowBalance: outgoing.lowBalance, emailChecks, feedback,
    dashboard: {
      freeCredits: config.credits.free, packPrices: config.credits.packPrices, batchMaxBytes: config.batch.maxBytes,
      sessionMaxAgeMs: config.people.sessionMaxAgeMs, currency: config.stripe?.currency ?? 'usd',
      publicBaseUrl: config.people.publicBaseUrl, baseUrl,
      // Stripe Checkout's pages (and, in tests, the stand-in's), where buying a pack goes on.
      checkoutOrigins: ['https://checkout.stripe.com', ...(stripeApi ? [stripeApi] : [])],
      connectorsAllowPrivate: config.connectors.allowPrivate,
    },
  });

  const server = createHttpServer(app);
  // Longer than a load balancer's idle timeout (60 s is common): else it may reuse a connection the server is closing,
  // and its client gets a 502 (PLATFORM-NOTES). Headers must be allowed a little longer still.
  server.keepAliveTimeout = config.keepAliveMs;
  server.headersTimeout = config.keepAliveMs + 5_000;
  server.requestTimeout = 30_000;
  // While draining, every answer closes its connection: the load balancer stops reusing it, and the drain ends once the
  // requests in flight are answered, not when the grace period runs out and cuts off the kept-alive connections.
  server.prependListener('request', (_req, res) => { if (closing) res.setHeader('Connection', 'close'); });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, database: db.dialect }, 'listening');
  await bulk.runner.start();
  await bulk.schedules.start();
  hostManners.start();
  sync.streams.start();
  outgoing.start();

  const close = () =>
    (closing ??= (async () => {
      ready = false;
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownGraceMs).unref());
      await Promise.race([drained, grace]);
      server.closeAllConnections();
      await redis?.close().catch(() => undefined);
      mailer.close();
      await bulk.schedules.stop();
      await sync.streams.stop();
      await emailChecks.stop();
      await hostManners.stop();
      await outgoing.stop();
      await sync.webhooks.settle();
      await sync.orders?.settle();
      await bulk.runner.stop();
      await bulk.events.settle();
      await engines.close();
      await inDoubt.stop();
      await db.close();
      logger.info('stopped');
    })());

  return { url, server, db, accounts, people, ledger, purchases, bulk, sync, outgoing, inDoubt, emailChecks, logger, close };
}
