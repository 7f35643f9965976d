/**
 * Webhook deliveries for every plugin that declares `webhooks` (POST /webhooks/{type}; docs/connectors.md), the
 * story: the plugin reads, without trust, the platform account a delivery claims (a shop's domain), and checks the
 * signature over the raw request with that account's connector's credentials (or its app's own secret) before a byte
 * is parsed; badly signed, or for an account no connector holds: refused. Signed but too old: a replay, acknowledged
 * and not processed. Then each event is seen once per `(type, dedupeKey)` (a repeat is acknowledged, not processed),
 * and what its topic means, as the plugin maps it, is done: records checked as a job of the connector, a job of the
 * plugin's own stored before the answer goes out, work in the background, a release (uninstalled), a privacy
 * request carried out. The books are WebhookDeliveries'; the jobs PluginJobs'.
 */
import type { Logger } from '../log.js';
import type { PluginJobs } from './plugin-jobs.js';
import type { WebhookAction, WebhookRequest, WebhookSpec } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';
import type { ConnectorRow } from './connector-store.js';

export type DeliveryAnswer =
  /** `claimed`: the account the delivery named, for counting refusals (null: it named none). */
  | { status: 'unauthorized'; claimed: string | null }
  | { status: 'malformed' }
  | { status: 'duplicate' }
  | { status: 'stale' }
  | { status: 'accepted' };

const NO_FORGETTING = { topics: [] as string[], memoryMs: 0 };

export class PluginWebhooks {
  constructor(
    private readonly registry: ConnectorRegistry,
    readonly deliveries: WebhookDeliveries,
    private readonly jobs: PluginJobs,
    private readonly log: Logger,
  ) {}

  /** The webhook declaration of a type, if its plugin takes webhooks. */
  spec(type: string): WebhookSpec | undefined {
    return this.registry.get(type)?.webhooks;
  }

  async receive(type: string, request: WebhookRequest): Promise<DeliveryAnswer> {
    const spec = this.spec(type);
    if (!spec) return { status: 'unauthorized', claimed: null };
    const claimed = spec.claimedAccount(request);
    const holder = claimed === null ? null : await this.deliveries.connectorOf(type, claimed);
    const verdict = spec.verify(request, holder?.credentials ?? null);
    if (verdict === 'invalid') return { status: 'unauthorized', claimed };
    if (verdict === 'stale') {
      this.log.warn({ type, connector_id: holder?.connector.id }, 'stale webhook delivery ignored');
      return { status: 'stale' };
    }
    const events = spec.events(request);
    if (!events) return { status: 'malformed' };
    let accepted = events.length === 0;
    for (const event of events) {
      // A signature made with one account's connector's secret speaks for that account only; the app's, for any.
      if (verdict === 'valid' && event.account !== claimed) continue;
      const found = verdict === 'valid' ? holder : await this.deliveries.connectorOf(type, event.account);
      if (!found) continue;
      const seen = `${type}:${event.dedupeKey}`;
      if (!(await this.deliveries.firstSeen(seen, found.connector, event.topic, spec.forgetAfter ?? NO_FORGETTING))) continue;
      accepted = true;
      try {
        await this.apply(found.connector, event.account, event.topic, await spec.handle(event, found));
      } catch (err) {
        // Not done (the database went away): the answer is an error, and the platform's retry is taken as new.
        await this.deliveries.unsee(seen).catch(() => undefined);
        throw err;
      }
    }
    return { status: accepted ? 'accepted' : 'duplicate' };
  }

  private async apply(connector: ConnectorRow, account: string, topic: string, actions: WebhookAction[]): Promise<void> {
    for (const action of actions) {
      switch (action.kind) {
        case 'records':
          this.deliveries.process(connector, action.records);
          break;
        case 'read':
          this.deliveries.process(connector, { keys: action.keys });
          break;
        case 'job':
          await this.jobs.enqueue(connector, action.job, action.key, action.payload);
          break;
        case 'background':
          this.deliveries.track(action.run());
          break;
        case 'release':
          await this.deliveries.release(connector, action.reason, action.keep, { resetWatermark: action.resetWatermark });
          break;
        case 'privacy': {
          let deleted = await this.deliveries.forgetRecords(connector, action.forget);
          deleted += (await action.alsoDeleted?.()) ?? 0;
          // What we keep of a person is the hash of each checked value and a write-back owed, never the values
          // themselves: a data request has nothing more to report than that, and is recorded.
          await this.deliveries.recordPrivacyRequest({ connector, platformKey: account, topic, subject: action.subject, recordsDeleted: deleted });
          break;
        }
      }
    }
  }

  /** Waits for the work of deliveries already answered (a shutdown; tests). */
  async settle(): Promise<void> {
    await this.deliveries.settle();
    await this.jobs.settle();
  }
}
