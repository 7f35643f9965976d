/**
 * How chunks reach the runners. The chunk's state (pending, running under a lease, done) lives in `bulk_chunks`; a
 * queue only delivers "work on chunk N of job J" to one runner, and may deliver it again (the claim in the table
 * turns a second delivery into nothing).
 *
 * - SQLite (one machine): an in-process queue. It forgets everything on a restart; the runner's first sweep sends
 *   every pending chunk again.
 * - PostgreSQL (a fleet): pg-boss 10, the job engine made for PostgreSQL that runs on Node 20 (11+ needs Node 22).
 *   It hands each delivery to one worker among every instance (`FOR UPDATE SKIP LOCKED`), retries a delivery whose
 *   handler failed, and expires one whose worker vanished. We chose it over graphile-worker because it needs no
 *   compiled SQL functions of its own beyond its schema, its queues are created from code, and a job's expiry is
 *   set per queue in seconds (graphile-worker frees a crashed worker's job only after 4 hours).
 */
import type PgBoss from 'pg-boss';
import type { Logger } from '../log.js';
import type { ChunkTask } from './job-store.js';

export interface ChunkQueue {
  /** True when deliveries survive a restart (pg-boss); false for the in-process queue. */
  readonly durable: boolean;
  send(tasks: ChunkTask[]): Promise<void>;
  /** Starts `workers` consumers that each handle one delivery at a time. */
  work(workers: number, handler: (task: ChunkTask) => Promise<void>): Promise<void>;
  stop(): Promise<void>;
  /**
   * Another queue beside this one (its own name, its own workers) on the same engine: a lane for a kind of job whose
   * attempts last long (a connector's run), so that it never waits behind a batch's chunks, nor they behind it.
   */
  lane(name: string, options: { pollSeconds: number }): Promise<ChunkQueue>;
}

const taskKey = (t: ChunkTask) => `${t.jobId}#${t.idx}`;

export class InProcessChunkQueue implements ChunkQueue {
  readonly durable = false;
  private readonly waiting: ChunkTask[] = [];
  private readonly queued = new Set<string>();
  private handler?: (task: ChunkTask) => Promise<void>;
  private workers = 0;
  private busy = 0;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  async lane(): Promise<ChunkQueue> {
    return new InProcessChunkQueue(this.log);
  }

  async send(tasks: ChunkTask[]): Promise<void> {
    for (const t of tasks) {
      if (this.queued.has(taskKey(t))) continue;
      this.queued.add(taskKey(t));
      this.waiting.push(t);
    }
    this.pump();
  }

  async work(workers: number, handler: (task: ChunkTask) => Promise<void>): Promise<void> {
    this.workers = workers;
    this.handler = handler;
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && this.handler && this.busy < this.workers && this.waiting.length) {
      const task = this.waiting.shift()!;
      this.queued.delete(taskKey(task));
      this.busy++;
      const p: Promise<void> = this.handler(task)
        .catch((err: unknown) => this.log.error({ err, job_id: task.jobId, chunk: task.idx }, 'bulk chunk failed'))
        .finally(() => {
          this.busy--;
          this.running.delete(p);
          this.pump();
        });
      this.running.add(p);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running]);
  }
}

const QUEUE = 'bulk-chunks';

export class PgBossChunkQueue implements ChunkQueue {
  readonly durable = true;
  private constructor(
    private readonly boss: PgBoss,
    private readonly queue: string,
    private readonly options: { expireSeconds: number; pollSeconds: number },
    /** A lane shares its parent's engine, which the parent stops. */
    private readonly ownsBoss: boolean,
  ) {}

  async lane(name: string, { pollSeconds }: { pollSeconds: number }): Promise<ChunkQueue> {
    await this.boss.createQueue(name, { name, policy: 'standard', retryLimit: 5, retryDelay: 1, expireInSeconds: this.options.expireSeconds });
    return new PgBossChunkQueue(this.boss, name, { ...this.options, pollSeconds }, false);
  }

  /**
   * `expireSeconds`: how long one delivery may take before pg-boss gives it up and delivers it again (a chunk
   * renews its own lease in our table far more often; this is the engine's backstop).
   */
  static async open(
    connectionString: string, log: Logger, { expireSeconds, maintenanceSeconds }: { expireSeconds: number; maintenanceSeconds: number },
  ): Promise<PgBossChunkQueue> {
    // Loaded on PostgreSQL only: a service on SQLite starts without it.
    const { default: PgBoss } = await import('pg-boss');
    const boss = new PgBoss({
      connectionString, schema: 'pgboss', max: 4, application_name: 'contact-validator-bulk',
      maintenanceIntervalSeconds: maintenanceSeconds,
      archiveCompletedAfterSeconds: 3600, deleteAfterDays: 7,
    });
    // pg-boss's errors carry the whole pg client: log what says what happened.
    boss.on('error', (err: Error & { code?: string }) => log.error({ error: err.message, code: err.code }, 'pg-boss error'));
    await boss.start();
    await boss.createQueue(QUEUE, { name: QUEUE, policy: 'standard', retryLimit: 5, retryDelay: 1, expireInSeconds: expireSeconds });
    return new PgBossChunkQueue(boss, QUEUE, { expireSeconds, pollSeconds: 0.5 }, true);
  }

  private readonly workerIds: string[] = [];

  async send(tasks: ChunkTask[]): Promise<void> {
    for (let i = 0; i < tasks.length; i += 500) {
      await this.boss.insert(tasks.slice(i, i + 500).map((data) => ({ name: this.queue, data })));
    }
    // This instance's idle workers look at once; other instances' within their polling interval.
    for (const id of this.workerIds) this.boss.notifyWorker(id);
  }

  async work(workers: number, handler: (task: ChunkTask) => Promise<void>): Promise<void> {
    for (let i = 0; i < workers; i++) {
      let id = '';
      id = await this.boss.work<ChunkTask>(this.queue, { batchSize: 1, pollingIntervalSeconds: this.options.pollSeconds }, async ([job]) => {
        try {
          await handler(job.data);
        } finally {
          // pg-boss waits out the polling interval after a delivery that ended early; there may be more waiting.
          this.boss.notifyWorker(id);
        }
      });
      this.workerIds.push(id);
    }
  }

  async stop(): Promise<void> {
    if (this.ownsBoss) await this.boss.stop({ graceful: true, timeout: 5_000, wait: true });
    else for (const id of this.workerIds) await this.boss.offWork({ id });
  }
}
