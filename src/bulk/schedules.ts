/**
 * Recurring ticks that fire once across the fleet, kept in the database (`job_schedules`): each tick has a cron
 * expression and the time it is next due. Every instance looks every `pollMs` at the ticks it knows that are due, and
 * moves `next_run_at` on with one conditional UPDATE (`WHERE next_run_at = <the time it read>`): the one instance whose
 * UPDATE changed the row fires the tick, the others see it moved and do nothing. On SQLite (one machine) the same table
 * and rule make it the in-process equivalent, and a tick missed while the service was down fires once at the next start,
 * not once per missed time.
 *
 * Why not pg-boss's `schedule`: its cron resolution is a minute and it exists on PostgreSQL only; connectors keep
 * schedules with seconds (`*\/2 * * * * *`), and one rule on both databases has one set of tests.
 *
 *     schedules.every('webhooks:deliver-due', '* * * * *', async () => { ... });
 */
import crypto from 'node:crypto';
import cronParser from 'cron-parser';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';

/** A cron expression: five fields, or six with seconds first (cron-parser's grammar). */
export function isCronExpression(text: string): boolean {
  const fields = text.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6) return false;
  try {
    cronParser.parseExpression(text.trim());
    return true;
  } catch {
    return false;
  }
}

/** The first time the expression names strictly after `after` (ms since the epoch), in the server's time zone as node-cron read it. */
export function nextCronTime(cron: string, after: number): number {
  return cronParser.parseExpression(cron.trim(), { currentDate: new Date(after) }).next().getTime();
}

type TickHandler = (firedAt: number) => Promise<void> | void;

export interface SchedulesOptions {
  /** How often this instance looks for due ticks (a tick's resolution is no finer than this). */
  pollMs: number;
}

export class Schedules {
  /** This instance's name in `fired_by`. */
  readonly owner = `sched_${crypto.randomBytes(6).toString('hex')}`;
  private readonly ticks = new Map<string, { cron: string; fn: TickHandler; running?: Promise<void> }>();
  private registering: Promise<unknown>[] = [];
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly log: Logger,
    private readonly options: SchedulesOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Registers a tick by name (every instance registers the same ones at start): `fn` runs on one instance each time the
   * cron expression comes due. A tick whose handler is still running on this instance is not started again here.
   * Changing a name's expression takes effect from the next due time.
   */
  every(name: string, cron: string, fn: TickHandler): void {
    if (!isCronExpression(cron)) throw new Error(`schedule ${name}: not a cron expression: ${cron}`);
    this.ticks.set(name, { cron, fn });
    const at = this.now();
    const store = this.db.run(
      `INSERT INTO job_schedules (name, cron, next_run_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET cron = $2, next_run_at = CASE WHEN job_schedules.cron = $2 THEN job_schedules.next_run_at ELSE $3 END`,
      [name, cron, nextCronTime(cron, at)],
    ).catch((err: unknown) => this.log.error({ err, schedule: name }, 'schedule not registered'));
    this.registering.push(store);
  }

  /** Starts looking for due ticks. */
  async start(): Promise<void> {
    await Promise.all(this.registering);
    this.registering = [];
    this.timer = setInterval(() => void this.poll(), this.options.pollMs).unref();
  }

  /** Fires what is due now (and waits for a look already under way); tests call it to step the clock. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce()
      .catch((err: unknown) => this.log.error({ err }, 'schedules not polled'))
      .finally(() => { this.polling = undefined; });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    if (this.stopped || !this.ticks.size) return;
    await Promise.all(this.registering);
    const at = this.now();
    const names = [...this.ticks.keys()];
    const due = await this.db.all<{ name: string; cron: string; next_run_at: number | string }>(
      `SELECT name, cron, next_run_at FROM job_schedules
       WHERE next_run_at <= $1 AND name IN (${names.map((_, i) => `$${i + 2}`).join(', ')})`,
      [at, ...names],
    );
    for (const row of due) {
      const tick = this.ticks.get(row.name);
      if (!tick || tick.running) continue;
      const won = await this.db.run(
        `UPDATE job_schedules SET next_run_at = $2, last_fired_at = $3, fired_by = $4 WHERE name = $1 AND next_run_at = $5`,
        [row.name, nextCronTime(row.cron, at), at, this.owner, Number(row.next_run_at)],
      );
      if (won !== 1) continue;
      tick.running = Promise.resolve()
        .then(() => tick.fn(at))
        .catch((err: unknown) => this.log.error({ err, schedule: row.name }, 'scheduled tick failed'))
        .finally(() => { tick.running = undefined; });
    }
  }

  /** Stops looking, and waits for the ticks running here. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.polling;
    await Promise.all([...this.ticks.values()].map((t) => t.running));
  }
}
