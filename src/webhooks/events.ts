/**
 * The events an account's webhook endpoints may subscribe to (docs/webhooks.md), and the body every delivery carries:
 * `{"id", "type", "created", "data"}`, `created` in Unix seconds, `data` the object the event is about.
 */
export const WEBHOOK_EVENT_TYPES = [
  'batch.completed', 'batch.paused', 'batch.failed', 'connector.run.failed', 'connector.paused', 'credits.low',
  // An e-mail answer that arrived later (src/email-checks); added last, as every list here grows.
  'email.verified',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (t: unknown): t is WebhookEventType =>
  typeof t === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t);

export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** Unix seconds. */
  created: number;
  data: Record<string, unknown>;
}
