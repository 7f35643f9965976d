/**
 * The platform-neutral side of webhook deliveries: a plugin's `webhooks` (plugin-webhooks.ts serves them) checks a
 * delivery's signature and reads its topic; this keeps the books. The connector a platform account belongs to, with
 * its credentials; a delivery's content seen once (a row in `webhook_deliveries`, forgotten after a while for the
 * topics that say so); the records a delivery carries worked on in the background, as a run; and what lifecycle and
 * privacy topics ask of our data: a pause with credentials erased, records forgotten, a privacy request recorded.
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { ConnectorRow, ConnectorStore } from './connector-store.js';
import type { ConnectorRuns } from './connector-runs.js';
import type { PlatformRecord } from './plugin.js';
import type { SecretBox } from '../kit/secrets.js';

const PURGE_EVERY_MS = 60 * 60_000;

export interface PrivacyRequest {
  connector: ConnectorRow;
  /** The platform account (a shop's domain) as the delivery named it. */
  platformKey: string;
  topic: string;
  /** Whom it is about (a customer's id on the platform), when it names one. */
  subject: string | null;
  recordsDeleted: number;
}

export class WebhookDeliveries {
  private readonly background = new Set<Promise<unknown>>();
  private lastPurge = 0;

  constructor(
    private readonly db: Database,
    private readonly store: ConnectorStore,
    private readonly secrets: SecretBox,
    private readonly runs: ConnectorRuns,
    private readonly log: Logger,
    readonly now: () => number = Date.now,
  ) {}

  /** The connector holding a platform account, with its credentials; null when none does (or its seal is one this instance cannot open). */
  async connectorOf(type: string, platformKey: string): Promise<{ connector: ConnectorRow; credentials: Record<string, unknown> } | null> {
    const connector = await this.store.byPlatformKey(type, platformKey);
    if (!connector) return null;
    try {
      return { connector, credentials: this.secrets.open<Record<string, unknown>>(connector.sealed) };
    } catch {
      return null; // sealed with a key this instance does not hold
    }
  }

  /**
   * True the first time `id` (the delivery's signed content, as the plugin names it) is seen. Deliveries of
   * `forgetTopics` are forgotten `memoryMs` after they came (checked once an hour at most per instance); the others
   * are remembered for good.
   */
  async firstSeen(id: string, connector: ConnectorRow, topic: string, forget: { topics: readonly string[]; memoryMs: number }): Promise<boolean> {
    const fresh = await this.db.run(
      `INSERT INTO webhook_deliveries (id, connector_id, topic, received_at) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING`,
      [id, connector.id, topic, this.now()],
    );
    await this.purgeNowAndThen(forget);
    return fresh > 0;
  }

  /** A delivery whose work could not be stored: forgotten, so that the platform's retry of it is taken as new. */
  async unsee(id: string): Promise<void> {
    await this.db.run(`DELETE FROM webhook_deliveries WHERE id = $1`, [id]);
  }

  private async purgeNowAndThen({ topics, memoryMs }: { topics: readonly string[]; memoryMs: number }): Promise<void> {
    const at = this.now();
    if (at - this.lastPurge < PURGE_EVERY_MS || !topics.length) return;
    this.lastPurge = at;
    await this.db.run(
      `DELETE FROM webhook_deliveries WHERE received_at < $1 AND topic IN (${topics.map((_, i) => `$${i + 2}`).join(', ')})`,
      [at - memoryMs, ...topics],
    );
  }

  /**
   * The records a delivery carries, validated and written back in the background as a job of the job engine (an active
   * connector's only): the answer does not wait for it.
   */
  process(connector: ConnectorRow, records: PlatformRecord[] | { keys: string[] }): void {
    if (!(Array.isArray(records) ? records : records.keys).length || connector.status !== 'active') return;
    const tracked = this.runs.deliver(connector, records).catch((err: unknown) => this.log.error({ err }, 'webhook work not queued'));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  /** A plugin's work after the answer went out (a webhook action `background`), waited for by `settle`. */
  track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.log.error({ err }, 'webhook work failed'));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  /** Waits for the work of deliveries already answered to be done (a shutdown; tests). */
  async settle(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
    await this.runs.settle();
  }

  /** The platform let the connector go: paused with the reason, its credentials replaced by those kept (erased ones left out). */
  async release(connector: ConnectorRow, detail: string, kept: Record<string, unknown>, options: { resetWatermark?: boolean } = {}): Promise<void> {
    await this.store.update(connector.id, {
      status: 'paused', reason: 'uninstalled', reasonDetail: detail, sealed: this.secrets.seal(kept),
      ...(options.resetWatermark ? { watermark: {} } : {}),
    });
  }

  /** What we keep of these records (their hashes, a write-back owed), or of all the connector's with `'all'`: the count deleted. */
  async forgetRecords(connector: ConnectorRow, keys: readonly string[] | 'all'): Promise<number> {
    if (keys === 'all') return this.db.run(`DELETE FROM connector_records WHERE connector_id = $1`, [connector.id]);
    let deleted = 0;
    for (const key of keys) {
      deleted += await this.db.run(`DELETE FROM connector_records WHERE connector_id = $1 AND record_key = $2`, [connector.id, key]);
    }
    return deleted;
  }

  /** A privacy request carried out, kept as proof. */
  async recordPrivacyRequest(request: PrivacyRequest): Promise<void> {
    await this.db.run(
      `INSERT INTO privacy_requests (id, connector_id, platform_key, topic, subject, records_deleted, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [`priv_${crypto.randomBytes(12).toString('base64url')}`, request.connector.id, request.platformKey, request.topic, request.subject,
        request.recordsDeleted, this.now()],
    );
    this.log.info({ connector_id: request.connector.id, topic: request.topic, records_deleted: request.recordsDeleted }, 'privacy request carried out');
  }
}
