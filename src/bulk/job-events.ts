/**
 * What other parts of the service may hear of jobs without reaching into the engine: a job's state transitions, each
 * emitted once across the fleet, by the instance whose conditional UPDATE made it (the runner for a batch, the
 * connector's run for a connector). Handlers run after the transition is stored; a handler's failure is logged and
 * never reaches the job.
 *
 *     engine.events.on('batch.completed', async (accountId, data) => { ... });
 */
import type { Logger } from '../log.js';

export interface JobEventData {
  'batch.completed': { batch_id: string; name: string | null; rows_total: number; rows_done: number; rows_failed: number; credits_charged: number };
  'batch.paused': { batch_id: string; name: string | null; reason: 'credits_exhausted'; resume_credits: number };
  'batch.failed': { batch_id: string; name: string | null; reason: string };
  'connector.run.failed': { connector_id: string; run_id: string; reason: string; message: string | null };
  'connector.paused': { connector_id: string; run_id: string; reason: 'credits_exhausted'; resume_credits: number };
}

export type JobEventName = keyof JobEventData;
export const JOB_EVENT_NAMES = ['batch.completed', 'batch.paused', 'batch.failed', 'connector.run.failed', 'connector.paused'] as const satisfies readonly JobEventName[];

type Handler<E extends JobEventName> = (accountId: string, data: JobEventData[E]) => unknown;

export class JobEvents {
  private readonly handlers = new Map<JobEventName, Handler<never>[]>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  on<E extends JobEventName>(name: E, handler: Handler<E>): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(name, list);
    return () => {
      const at = list.indexOf(handler as Handler<never>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  emit<E extends JobEventName>(name: E, accountId: string, data: JobEventData[E]): void {
    for (const handler of this.handlers.get(name) ?? []) {
      const p = Promise.resolve()
        .then(async () => { await (handler as Handler<E>)(accountId, data); })
        .catch((err: unknown) => this.log.error({ err, event: name }, 'job event handler failed'))
        .finally(() => this.pending.delete(p));
      this.pending.add(p);
    }
  }

  /** Waits for the handlers already started (a shutdown; tests). */
  async settle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }
}
