/**
 * Each connector's `schedule`, with node-cron, on every instance: a tick tries to start a run, and the run's lease in
 * the database (ConnectorStore.claimRun) lets one instance through, so that a connector never runs twice at once
 * however many instances tick. A connector paused for want of credits is looked at on its ticks and goes on once its
 * account has credits again; a paused or failed one (bad credentials) waits for its owner. Schedules follow this
 * instance's changes at once and other instances' within REFRESH_MS.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../log.js';
import type { ConnectorRow, ConnectorStore } from './connector-store.js';
import type { ConnectorRuns } from './connector-runs.js';
import type { CreditCaps } from './credit-caps.js';

const REFRESH_MS = 30_000;

export class ConnectorScheduler {
  private readonly tasks = new Map<string, { schedule: string; task: ScheduledTask }>();
  private refresher?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly store: ConnectorStore,
    private readonly runs: ConnectorRuns,
    private readonly log: Logger,
    private readonly caps?: CreditCaps,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    this.refresher = setInterval(() => void this.refresh(), REFRESH_MS).unref();
  }

  /** Brings the tasks in line with the connectors as stored now. */
  refresh(): Promise<void> {
    this.refreshing ??= this.sync()
      .catch((err: unknown) => this.log.error({ err }, 'connector schedules not refreshed'))
      .finally(() => { this.refreshing = undefined; });
    return this.refreshing;
  }

  private async sync(): Promise<void> {
    if (this.stopped) return;
    const wanted = new Map<string, ConnectorRow>();
    for (const c of await this.store.all()) {
      if (c.status === 'active' || (c.status === 'paused' && (c.reason === 'credits_exhausted' || c.reason === 'credit_cap_reached'))) wanted.set(c.id, c);
    }
    for (const [id, { schedule, task }] of this.tasks) {
      if (wanted.get(id)?.schedule !== schedule) {
        await task.destroy();
        this.tasks.delete(id);
      }
    }
    for (const [id, c] of wanted) {
      if (this.tasks.has(id)) continue;
      const task = cron.schedule(c.schedule, () => this.tick(id), { name: `connector:${id}`, noOverlap: true });
      task.unref();
      this.tasks.set(id, { schedule: c.schedule, task });
    }
  }

  private async tick(id: string): Promise<void> {
    try {
      const connector = await this.store.get(id);
      if (!connector || this.stopped) return;
      if (connector.status === 'paused' && connector.reason === 'credits_exhausted') {
        if (!(await this.runs.canResume(connector))) return;
      } else if (connector.status === 'paused' && connector.reason === 'credit_cap_reached') {
        // Paused by its monthly cap: it goes on once the month turns (or the cap is raised, which resumes it at once).
        if (await this.caps?.reached(connector)) return;
      } else if (connector.status !== 'active') return;
      const started = await this.runs.start(connector, 'schedule');
      await started?.done;
    } catch (err) {
      this.log.error({ err, connector_id: id }, 'scheduled connector run not started');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.refresher);
    await this.refreshing;
    for (const { task } of this.tasks.values()) await task.destroy();
    this.tasks.clear();
  }
}
