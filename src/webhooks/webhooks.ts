/**
 * Outgoing webhooks (docs/webhooks.md), the story: an account registers an https endpoint for some events and is
 * shown its signing secret once; an event of the account is logged as one delivery per subscribed endpoint; due
 * deliveries are claimed with a lease (once across a fleet), signed and sent through the outbound guard; a non-2xx
 * answer is tried again with exponential back-off and jitter until the retry window (72 hours by default) has passed;
 * an account reads its endpoints' delivery logs and sends any delivery again.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';
import type { PageQuery } from '../db/pages.js';
import type { Logger } from '../log.js';
import { checkPlatformUrl, UnsafeUrl } from '../net/platform-url.js';
import { backoffMs } from '../sync/retry.js';
import type { SecretBox } from '../kit/secrets.js';
import { DeliveryLog, type DeliveryRow } from './delivery-log.js';
import { EndpointStore, type EndpointRow } from './endpoint-store.js';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventType } from './events.js';
import { DeliverySender, type SendSettings } from './sender.js';

/** A field problem in an endpoint's body (answered 400 with `errors`). */
export class WebhookEndpointInvalid extends Error {
  constructor(readonly errors: { field: string; message: string }[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  }
}

export interface WebhookSettings extends SendSettings {
  /** First back-off after a failed attempt; doubles each time, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long after the event a failing delivery is still tried (at least 24 hours in production). */
  retryWindowMs: number;
  /** How long a claimed delivery is held by its instance (longer than the timeout). */
  leaseMs: number;
  /** Deliveries sent at once by one instance. */
  concurrency: number;
  maxEndpointsPerAccount: number;
}

const DELIVERY_LIST_LIMIT = 100;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function endpointView(e: EndpointRow) {
  return { id: e.id, url: e.url, events: e.events, created_at: iso(e.createdAt)! };
}

export function deliveryView(d: DeliveryRow) {
  return {
    id: d.id, event_id: d.eventId, type: d.eventType, status: d.status, attempts: d.attempts,
    response_status: d.responseStatus, response_text: d.responseText,
    created_at: iso(d.createdAt)!, last_attempt_at: iso(d.lastAttemptAt), next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
  };
}

export class Webhooks {
  private readonly endpoints: EndpointStore;
  private readonly log: DeliveryLog;
  private readonly sender: DeliverySender;
  /** This instance's name on the leases it takes. */
  readonly owner = `webhooks_${crypto.randomBytes(6).toString('hex')}`;
  private draining: Promise<void> | null = null;
  /** A retry due before the next tick, sent from here (the tick stays the durable fallback, on any instance). */
  private retryTimer?: NodeJS.Timeout;
  private retryAt = Infinity;
  private again = false;
  private stopped = false;

  constructor(
    db: Database,
    private readonly secrets: SecretBox,
    private readonly settings: WebhookSettings,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.endpoints = new EndpointStore(db);
    this.log = new DeliveryLog(db);
    this.sender = new DeliverySender(settings);
  }

  /** A new endpoint and its secret, which no later answer carries. */
  async createEndpoint(accountId: string, input: { url: string; events: string[] }) {
    const errors: { field: string; message: string }[] = [];
    const events = [...new Set(input.events)];
    const unknown = events.filter((e) => !isWebhookEventType(e));
    if (unknown.length) errors.push({ field: 'events', message: `unknown event ${unknown.slice(0, 3).join(', ').slice(0, 200)}: one of ${WEBHOOK_EVENT_TYPES.join(', ')}` });
    try {
      await checkPlatformUrl(input.url, this.settings.allowPrivate, this.settings.policy);
    } catch (err) {
      if (!(err instanceof UnsafeUrl)) throw err;
      errors.push({ field: 'url', message: err.message });
    }
    if (errors.length) throw new WebhookEndpointInvalid(errors);
    if ((await this.endpoints.count(accountId)) >= this.settings.maxEndpointsPerAccount) {
      throw new WebhookEndpointInvalid([{ field: 'url', message: `at most ${this.settings.maxEndpointsPerAccount} endpoints per account: delete one first` }]);
    }
    const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
    const row: EndpointRow = {
      id: `we_${crypto.randomBytes(12).toString('base64url')}`, accountId, url: input.url,
      events: events as WebhookEventType[], sealed: this.secrets.seal(secret), createdAt: this.now(),
    };
    await this.endpoints.insert(row);
    return { ...endpointView(row), secret };
  }

  async listEndpoints(accountId: string) {
    return (await this.endpoints.list(accountId)).map(endpointView);
  }

  getEndpoint(accountId: string, id: string) {
    return this.endpoints.getOwn(accountId, id);
  }

  deleteEndpoint(accountId: string, id: string) {
    return this.endpoints.delete(accountId, id);
  }

  /** An endpoint's deliveries, newest first; null when the account has no such endpoint. */
  async deliveries(accountId: string, endpointId: string, page: PageQuery = { limit: DELIVERY_LIST_LIMIT }) {
    if (!(await this.endpoints.getOwn(accountId, endpointId))) return null;
    const found = await this.log.list(accountId, endpointId, { ...page, limit: Math.min(page.limit, DELIVERY_LIST_LIMIT) });
    return { items: found.items.map(deliveryView), hasMore: found.hasMore };
  }

  /**
   * An event of the account, logged for each endpoint that subscribes to it, and sent at once. `key` names the event
   * for what it is about (`batch.completed:<batch id>`): emitted again, by this instance or another, it is not
   * delivered twice. Returns the event (null when no endpoint subscribes).
   */
  async emit(accountId: string, type: WebhookEventType, data: Record<string, unknown>, key?: string): Promise<WebhookEvent | null> {
    const targets = (await this.endpoints.list(accountId)).filter((e) => e.events.includes(type));
    if (!targets.length) return null;
    const at = this.now();
    const event: WebhookEvent = { id: `evt_${crypto.randomBytes(12).toString('base64url')}`, type, created: Math.floor(at / 1000), data };
    const body = JSON.stringify(event);
    const added = await this.log.add(targets.map((e) => ({
      id: `wd_${crypto.randomBytes(12).toString('base64url')}`, endpointId: e.id, accountId, eventId: event.id, eventType: type,
      eventKey: key ?? event.id, body,
    })), at);
    if (added) this.kick();
    return event;
  }

  /** Sends the due deliveries now, in the background (the tick, and every emit). */
  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.deliverDue()
      .then(() => undefined, (err: unknown) => this.logger.warn({ err }, 'webhooks: sending the due deliveries failed'))
      .finally(() => {
        this.draining = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Claims and sends due deliveries until none is left (or the instance stops). Returns how many were attempted. */
  async deliverDue(): Promise<number> {
    let attempted = 0;
    while (!this.stopped) {
      const now = this.now();
      const claimed = await this.log.claimDue(this.owner, now, now + this.settings.leaseMs, this.settings.concurrency);
      if (!claimed.length) break;
      await Promise.all(claimed.map((d) => this.attempt(d)));
      attempted += claimed.length;
    }
    return attempted;
  }

  /** One of the account's deliveries, or null. */
  async delivery(accountId: string, endpointId: string, id: string) {
    const row = await this.log.getOwn(accountId, endpointId, id);
    return row ? deliveryView(row) : null;
  }

  /** Sends one of the account's deliveries again now; null when there is no such delivery (or it is being sent right now). */
  async redeliver(accountId: string, endpointId: string, deliveryId: string) {
    const now = this.now();
    const claimed = await this.log.claimOne(accountId, endpointId, deliveryId, this.owner, now, now + this.settings.leaseMs);
    if (!claimed) return null;
    await this.attempt(claimed, { redelivery: true });
    const after = await this.log.getOwn(accountId, endpointId, deliveryId);
    return after ? deliveryView(after) : null;
  }

  /** One attempt of a leased delivery, its outcome logged. A redelivery that fails is retried like a first one. */
  private async attempt(d: DeliveryRow, { redelivery = false } = {}): Promise<void> {
    {
      const endpoint = await this.endpoints.getOwn(d.accountId, d.endpointId);
      if (!endpoint) return; // deleted meanwhile: its log went with it
      const result = await this.signedSend(endpoint, d.body);
      const at = this.now();
      const attempts = d.attempts + 1;
      const windowFrom = redelivery ? at : d.createdAt;
      const delay = backoffMs({ attempts: Infinity, baseDelayMs: this.settings.baseDelayMs, maxDelayMs: this.settings.maxDelayMs }, attempts);
      const nextAttemptAt = result.ok || at + delay > windowFrom + this.settings.retryWindowMs ? null : at + delay;
      await this.log.recordAttempt(d.id, this.owner, at, { ok: result.ok, responseStatus: result.status, responseText: result.text, nextAttemptAt });
      if (nextAttemptAt !== null) this.retryLocally(nextAttemptAt);
      if (!result.ok) {
        this.logger.info({ delivery: d.id, endpoint: d.endpointId, status: result.status, attempts, next: iso(nextAttemptAt) }, 'webhook delivery failed');
      }
    }
  }

  /** One signed attempt; a secret that no configured key opens (the key changed) is a failed attempt that says so. */
  private async signedSend(endpoint: EndpointRow, body: string) {
    let secret: string;
    try {
      secret = this.secrets.open<string>(endpoint.sealed);
    } catch (err) {
      this.logger.error({ err, endpoint: endpoint.id }, 'webhook secret cannot be opened');
      return { ok: false, status: null, text: 'not sent: the service cannot open this endpoint\'s signing secret (CONNECTOR_SECRET_KEY changed)' };
    }
    return this.sender.send(endpoint.url, secret, body, Math.floor(this.now() / 1000));
  }

  /** Kicks this instance when a retry falls due, unless one is already set for earlier. */
  private retryLocally(at: number): void {
    if (this.stopped || at >= this.retryAt) return;
    clearTimeout(this.retryTimer);
    this.retryAt = at;
    this.retryTimer = setTimeout(() => {
      this.retryAt = Infinity;
      this.kick();
    }, Math.max(0, at - this.now())).unref();
  }

  /** Forgets finished deliveries older than the retention (the tick). */
  prune(retentionMs: number): Promise<number> {
    return this.log.prune(this.now() - retentionMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.draining;
    await this.sender.close();
  }
}
