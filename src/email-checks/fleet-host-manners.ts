/**
 * Per-server manners across a fleet (docs/email.md#per-server-manners): the slow-downs this instance's engine decides
 * (host-manners.ts: a mail host said 421, or a 4.7.x about us) are written to `mail_host_manners`, and every instance
 * reads the others' every `pollMs`, so that a host that told one instance to slow down is left alone by all of them.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { HostMannersState } from '../validation/email/index.js';

/** What this needs of the engine: to be told of its changes, and to learn the fleet's. */
export interface MailHostsOfEngine {
  onChange(listener: (state: HostMannersState) => void): void;
  learn(state: HostMannersState): void;
}

/** Rows read again on each look (a writer's clock may be a little behind ours); learning one twice changes nothing. */
const OVERLAP_MS = 5_000;
/** Slow-downs over for this long are forgotten. */
const FORGET_AFTER_MS = 86_400_000;

export class FleetHostManners {
  readonly owner = `manners_${crypto.randomBytes(6).toString('hex')}`;
  private since = 0;
  private timer?: NodeJS.Timeout;
  private looking?: Promise<void>;
  private lastPrune = 0;

  constructor(
    private readonly db: Database,
    private readonly engine: MailHostsOfEngine,
    private readonly log: Logger,
    private readonly pollMs = 1000,
    private readonly now: () => number = Date.now,
  ) {
    engine.onChange((state) => {
      this.record(state).catch((err: unknown) => this.log.warn({ err, host: state.host }, 'mail host slow-down not shared'));
    });
  }

  async record(state: HostMannersState): Promise<void> {
    await this.db.run(
      `INSERT INTO mail_host_manners (host, slow_until, level, updated_at, updated_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (host) DO UPDATE SET slow_until = excluded.slow_until, level = excluded.level,
         updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
      [state.host, state.slowUntil, state.level, this.now(), this.owner],
    );
  }

  /** Reads the slow-downs other instances wrote since the last look. */
  async look(): Promise<void> {
    const from = this.since;
    const rows = await this.db.all<{ host: string; slow_until: unknown; level: unknown; updated_at: unknown }>(
      `SELECT host, slow_until, level, updated_at FROM mail_host_manners WHERE updated_at >= $1 AND updated_by <> $2`,
      [Math.max(0, from - OVERLAP_MS), this.owner],
    );
    for (const r of rows) {
      this.engine.learn({ host: r.host, slowUntil: Number(r.slow_until), level: Number(r.level) });
      this.since = Math.max(this.since, Number(r.updated_at));
    }
    if (this.now() - this.lastPrune > 3_600_000) {
      this.lastPrune = this.now();
      await this.db.run(`DELETE FROM mail_host_manners WHERE slow_until < $1`, [this.now() - FORGET_AFTER_MS]);
    }
  }

  start(): void {
    this.timer ??= setInterval(() => {
      this.looking ??= this.look()
        .catch((err: unknown) => this.log.warn({ err }, 'mail host slow-downs of the fleet not read'))
        .finally(() => { this.looking = undefined; });
    }, this.pollMs).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.looking;
  }
}
