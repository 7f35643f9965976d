/**
 * Each connector's `schedule`, kept in the database: a fleet-wide tick (src/bulk/schedules.ts, once across every
 * instance) looks for connectors whose `next_run_at` has come, moves it on to the schedule's next time with one
 * conditional UPDATE (so that a connector is claimed once, even by ticks that overlap), and starts their runs as jobs.
 * A connector's job already under way, or paused for credits, keeps the next run from starting (the job's lock key);
 * a job paused for credits goes on by the engine's rule (the balance covers what its next record needs). A paused or
 * failed connector (bad credentials) waits for its owner. A changed schedule takes effect at once (its `next_run_at`
 * is computed as it is saved).
 */
import type { Schedules } from '../bulk/schedules.js';
import { nextCronTime } from '../bulk/schedules.js';
import type { Logger } from '../log.js';
import type { ConnectorStore } from './connector-store.js';
import type { ConnectorRuns } from './connector-runs.js';
import type { CreditCaps } from './credit-caps.js';
import type { LaterAnswers } from './later-answers.js';

/** The tick's name in `job_schedules`, and how often it looks (every second: schedules may name seconds). */
export const CONNECTORS_DUE_TICK = 'connectors:due';
/** The look for connectors owed the e-mail answers that arrived later (later-answers.ts), once a second too. */
export const CONNECTORS_LATER_TICK = 'connectors:later';
const EVERY_SECOND = '* * * * * *';

export class ConnectorScheduler {
  constructor(
    private readonly store: ConnectorStore,
    private readonly runs: ConnectorRuns,
    private readonly log: Logger,
    private readonly caps?: CreditCaps,
    private readonly now: () => number = Date.now,
    private readonly later?: LaterAnswers,
  ) {}

  /** Registers the tick with the fleet's schedules. */
  register(schedules: Schedules): void {
    schedules.every(CONNECTORS_DUE_TICK, EVERY_SECOND, async () => { await this.startDue(); });
    if (this.later) schedules.every(CONNECTORS_LATER_TICK, EVERY_SECOND, async () => { await this.startLater(); });
  }

  /** Starts a run of each active connector owed later e-mail answers, unless one of its runs is under way. */
  async startLater(): Promise<string[]> {
    const started: string[] = [];
    for (const id of (await this.later?.owed()) ?? []) {
      try {
        const connector = await this.store.get(id);
        if (connector?.status === 'active' && (await this.runs.startLater(connector))) started.push(id);
      } catch (err) {
        this.log.error({ err, connector_id: id }, 'later write-back run not started');
      }
    }
    return started;
  }

  /** Starts the runs of the connectors due now; returns the ids of those started. */
  async startDue(): Promise<string[]> {
    const at = this.now();
    const started: string[] = [];
    for (const connector of await this.store.due(at)) {
      try {
        const next = nextCronTime(connector.schedule, at);
        if (!(await this.store.claimDue(connector.id, connector.nextRunAt, next))) continue;
        // Not due yet, only given its first due time (a connector saved before schedules lived in the database).
        if (connector.nextRunAt === null) continue;
        // Paused by its monthly cap: it goes on once the month turns (or the cap is raised, which resumes it at once).
        if (connector.status === 'paused' && connector.reason === 'credit_cap_reached' && (await this.caps?.reached(connector))) continue;
        if (await this.runs.start(connector, 'schedule')) started.push(connector.id);
      } catch (err) {
        this.log.error({ err, connector_id: connector.id }, 'scheduled connector run not started');
      }
    }
    return started;
  }
}
