/**
 * The job engine's state changes as webhook events: batch.completed, batch.paused, batch.failed, connector.run.failed
 * and connector.paused, each emitted once across the fleet by the engine (src/bulk/job-events.ts) and turned here into
 * one delivery per subscribed endpoint. The key names what the event is about, so that an event heard twice (a handler
 * run again) is delivered once: a batch completes or fails once, a run fails once; a batch may pause several times
 * (each pause its own event).
 */
import type { WebhookEventType } from './events.js';
import type { Webhooks } from './webhooks.js';

export const JOB_WEBHOOK_EVENTS = [
  'batch.completed', 'batch.paused', 'batch.failed', 'connector.run.failed', 'connector.paused',
] as const satisfies readonly WebhookEventType[];

type JobWebhookEvent = (typeof JOB_WEBHOOK_EVENTS)[number];

/** What this needs of the engine's events: `on(name, (accountId, data) => …)`. */
export interface JobEventSource {
  on(name: JobWebhookEvent, handler: (accountId: string, data: Record<string, unknown>) => Promise<unknown>): unknown;
}

/** What the event is about, once: the batch for a completion or failure, the run for a connector's failure or pause. */
function keyOf(type: JobWebhookEvent, data: Record<string, unknown>): string | undefined {
  switch (type) {
    case 'batch.completed': case 'batch.failed': return typeof data.batch_id === 'string' ? `${type}:${data.batch_id}` : undefined;
    case 'connector.run.failed': case 'connector.paused': return typeof data.run_id === 'string' ? `${type}:${data.run_id}` : undefined;
    case 'batch.paused': return undefined;
  }
}

export function forwardJobEvents(events: JobEventSource, webhooks: Pick<Webhooks, 'emit'>): void {
  for (const type of JOB_WEBHOOK_EVENTS) {
    events.on(type, (accountId, data) => webhooks.emit(accountId, type, { ...data }, keyOf(type, data)));
  }
}
