/**
 * GET /metrics in Prometheus' text format (prom-client): requests by route, method and status; latency per route;
 * problems by type; modules asked for; bulk jobs and connector runs by state (read from the database at each scrape,
 * so every instance reports the fleet's); and prom-client's process metrics, event-loop lag among them.
 * METRICS_TOKEN, when set, must be presented as a Bearer token (a scraper's secret, not an API key).
 */
import crypto from 'node:crypto';
import type { NextFunction, Request, Response, Router } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/data-source.js';
import { Problem } from './problems.js';

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'http_requests_total', help: 'Requests answered, by route, method and status', labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds', help: 'Time to answer, by route', labelNames: ['route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [this.registry],
  });
  private readonly problems = new Counter({
    name: 'http_problems_total', help: 'Problem answers (RFC 9457), by type', labelNames: ['type'] as const, registers: [this.registry],
  });
  private readonly modules = new Counter({
    name: 'validate_modules_total', help: 'Modules asked for in /v1/validate', labelNames: ['module'] as const, registers: [this.registry],
  });

  constructor(db: Database) {
    collectDefaultMetrics({ register: this.registry });
    const registry = this.registry;
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
  }

  /** Counts each request once its answer has gone out. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const started = performance.now();
      res.on('finish', () => {
        // The route's pattern (`/v1/batches/:id`), never the path: ids would make a label per batch.
        const route = (req.route?.path as string | undefined) ?? (res.statusCode === 404 ? 'unmatched' : 'other');
        this.requests.inc({ route, method: req.method, status: String(res.statusCode) });
        this.duration.observe({ route }, (performance.now() - started) / 1000);
        const problem = res.locals.problemCode as string | undefined;
        if (problem) this.problems.inc({ type: problem });
        const modules = res.locals.context?.logFields.modules as string[] | undefined;
        if (modules) for (const m of modules) this.modules.inc({ module: m });
      });
      next();
    };
  }

  routes(router: Router, token: string | undefined): void {
    router.get('/metrics', async (req, res) => {
      if (token) {
        const presented = Buffer.from(req.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '');
        const expected = Buffer.from(token);
        if (presented.length !== expected.length || !crypto.timingSafeEqual(presented, expected)) {
          throw new Problem('unauthorized', 'The metrics need the scraper token (METRICS_TOKEN).', {}, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
        }
      }
      res.set('Content-Type', this.registry.contentType).set('Cache-Control', 'no-store').send(await this.registry.metrics());
    });
  }
}
