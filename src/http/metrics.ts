/**
 * GET /metrics in Prometheus' text format (prom-client): requests by route, method and status; latency per route;
 * problems by type; modules asked for; bulk jobs and connector runs by state (read from the database at each scrape,
 * so every instance reports the fleet's); whether this instance's DNS resolver can be believed and the e-mail answers
 * made unknown while it could not; whether each SMTP egress reaches port 25; and prom-client's process metrics, event-loop lag among them.
 * METRICS_TOKEN, when set, must be presented as a Bearer token (a scraper's secret, not an API key).
 */
import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/data-source.js';
import type { ResolverStatus } from '../contact-check/engines.js';
import { Problem } from './problems.js';

/**
 * A prom-client counter whose increments are added up here, one tally per label set, and handed to prom-client when
 * the counter is read (a scrape): counting a request costs a Map lookup and an addition, where prom-client's `inc`
 * hashes and checks its labels each time. What a scrape reads is the same.
 */
class TalliedCounter<L extends string> {
  private readonly tallies = new Map<string, { labels: Record<L, string>; n: number }>();

  constructor(config: { name: string; help: string; labelNames: readonly L[]; registry: Registry }) {
    const tallies = this.tallies;
    new Counter({
      name: config.name, help: config.help, labelNames: config.labelNames, registers: [config.registry],
      collect() {
        for (const tally of tallies.values()) {
          if (tally.n === 0) continue;
          this.inc(tally.labels, tally.n);
          tally.n = 0;
        }
      },
    });
  }

  /** Counts one for the label set `key` names, if that key has been counted before: else false, and `first` it. */
  add(key: string): boolean {
    const tally = this.tallies.get(key);
    if (!tally) return false;
    tally.n++;
    return true;
  }

  /** Counts one for a label set not seen before. */
  first(key: string, labels: Record<L, string>): void {
    this.tallies.set(key, { labels, n: 1 });
  }
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new TalliedCounter({
    name: 'http_requests_total', help: 'Requests answered, by route, method and status', labelNames: ['route', 'method', 'status'] as const,
    registry: this.registry,
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to answer, by route', labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry],
  });
  /** The histogram's label object of each route, made once: observe() is then given the same object every time. */
  private readonly routeLabels = new Map<string, { route: string }>();
  private readonly problems = new TalliedCounter({
    name: 'http_problems_total', help: 'Problem answers (RFC 9457), by type', labelNames: ['type'] as const, registry: this.registry,
  });
  private readonly modules = new TalliedCounter({
    name: 'validate_modules_total', help: 'Modules asked for in /v1/validate', labelNames: ['module'] as const, registry: this.registry,
  });

  constructor(db: Database, resolver?: ResolverStatus) {
    collectDefaultMetrics({ register: this.registry });
    const registry = this.registry;
    if (resolver) {
      new Gauge({
        name: 'cv_dns_resolver_healthy',
        help: '1 while the resolver can be believed (it finds the well-known mailbox domains), 0 while it denies names that exist; 1 with network checks off',
        registers: [registry],
        async collect() {
          this.set((await resolver.health())?.healthy === false ? 0 : 1);
        },
      });
      new Counter({
        name: 'cv_email_dns_unavailable_total',
        help: 'E-mail answers made unknown (reason dns_unavailable) because the resolver denied names that exist',
        registers: [registry],
        collect() {
          this.reset();
          this.inc(resolver.unavailableAnswers());
        },
      });
      new Gauge({
        name: 'cv_smtp_host_slowed_seconds',
        help: 'Mail hosts slowed down now because they said 421 or a 4.7.x about us (at most 50, longest first): seconds until the next probe may connect',
        labelNames: ['host'] as const,
        registers: [registry],
        collect() {
          this.reset();
          const now = Date.now();
          for (const { host, slowUntil } of resolver.mailHosts?.().slowed.slice(0, 50) ?? []) this.set({ host }, Math.max(0, (slowUntil - now) / 1000));
        },
      });
      new Counter({
        name: 'cv_smtp_host_slowdowns_total',
        help: 'Slow-downs this instance decided (a mail host said 421 or a 4.7.x about us)',
        registers: [registry],
        collect() {
          this.reset();
          this.inc(resolver.mailHosts?.().slowdowns ?? 0);
        },
      });
      new Gauge({
        name: 'cv_smtp_egress_reachable',
        help: "1 while the egress's last check reached port 25 through it (SMTP_EGRESS_PROBE_HOST), else 0; state: ok, blocked, unavailable, auth_failed, unchecked",
        labelNames: ['egress', 'state'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const { name, state } of resolver.egresses?.() ?? []) this.set({ egress: name, state }, state === 'ok' ? 1 : 0);
        },
      });
    }
    new Gauge({
      name: 'bulk_jobs', help: 'Bulk jobs (CSV batches) by status, in the whole database', labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await db.all<{ status: string; n: number | string }>(`SELECT status, COUNT(*) AS n FROM bulk_jobs GROUP BY status`);
        for (const r of rows) this.set({ status: r.status }, Number(r.n));
      },
    });
    new Gauge({
      name: 'connector_runs', help: 'Connector runs by status, in the whole database', labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await db.all<{ status: string; n: number | string }>(`SELECT status, COUNT(*) AS n FROM connector_runs GROUP BY status`);
        for (const r of rows) this.set({ status: r.status }, Number(r.n));
      },
    });
    new Gauge({
      name: 'cv_email_checks',
      help: 'E-mail answers that arrive later (docs/email.md), by status (pending, done, expired), in the whole database',
      labelNames: ['status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await db.all<{ status: string; n: number | string }>(`SELECT status, COUNT(*) AS n FROM email_checks GROUP BY status`);
        for (const r of rows) this.set({ status: r.status }, Number(r.n));
      },
    });
  }

  /**
   * Counts each request once its answer has gone out, timed from its arrival (requestContext, which runs first). One
   * listener function shared by every request: no closure is made per request.
   */
  middleware() {
    const metrics = this;
    function countAnswer(this: Response) {
      metrics.count(this);
    }
    return (_req: Request, res: Response, next: NextFunction) => {
      res.on('finish', countAnswer);
      next();
    };
  }

  private count(res: Response): void {
    const req = res.req;
    const status = res.statusCode;
    // The route's pattern (`/v1/batches/:id`), never the path: ids would make a label per batch.
    const route = (req.route?.path as string | undefined) ?? (status === 404 ? 'unmatched' : 'other');
    const method = req.method;
    const key = `${route} ${method} ${status}`;
    if (!this.requests.add(key)) this.requests.first(key, { route, method, status: String(status) });
    let labels = this.routeLabels.get(route);
    if (!labels) this.routeLabels.set(route, (labels = { route }));
    this.duration.observe(labels, (performance.now() - res.locals.context.arrivedAt) / 1000);
    const problem = res.locals.problemCode as string | undefined;
    if (problem && !this.problems.add(problem)) this.problems.first(problem, { type: problem });
    const modules = res.locals.context.logFields.modules as string[] | undefined;
    if (modules) for (const m of modules) if (!this.modules.add(m)) this.modules.first(m, { module: m });
  }

  /** GET /metrics (declared in ./endpoints/service.ts): the scraper's token first, when METRICS_TOKEN is set. */
  async answer(req: Request, res: Response, token: string | undefined): Promise<void> {
    if (token) {
      const presented = Buffer.from(req.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '');
      const expected = Buffer.from(token);
      if (presented.length !== expected.length || !crypto.timingSafeEqual(presented, expected)) {
        throw new Problem('unauthorized', 'The metrics need the scraper token (METRICS_TOKEN).', {}, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
      }
    }
    res.set('Content-Type', this.registry.contentType).set('Cache-Control', 'no-store').send(await this.registry.metrics());
  }
}
