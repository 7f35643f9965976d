/**
 * Real time for connectors whose settings ask for it (`settings.realtime`; Salesforce Change Data Capture), the story:
 * every instance looks at the realtime connectors every few seconds; the one that takes a connector's stream lease in
 * the database opens the platform session and subscribes from the position kept (so one subscription per connector
 * across the fleet, and a restart misses nothing the platform still keeps); the records the stream names become a
 * delivery job, validated and written back as webhook deliveries are (same change detection and charge keys), and only
 * once the job is kept is the position kept. The lease is renewed while it listens; an instance that loses it stops. When the stream drops (a
 * broken connection, a refused session, events the platform lost), a catch-up run reads the changes at once, the
 * schedule goes on as the safety net, and the stream is subscribed again after a back-off.
 */
import crypto from 'node:crypto';
import type { Logger } from '../log.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import type { GuardedHttp, OutboundPolicy } from '../net/outbound-guard.js';
import type { ConnectorRow, ConnectorStore } from './connector-store.js';
import { OPEN_TIMEOUT_MS, platformGuard, within } from './platform-access.js';
import { checkPlatformUrl } from '../net/platform-url.js';
import type { ChangeStream, ConnectorSession, PlatformRecord, StreamPosition } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from '../kit/secrets.js';
import type { StreamStore } from './stream-store.js';

/** What the streams need of the runs: records validated and written back, and a run now (the fallback). */
export interface RealtimeRuns {
  /**
   * Resolves once the records are safe with the runs: a delivery job kept in the database (the job engine validates
   * and writes them back, and a restart goes on with it), so the stream's position may move past them.
   */
  deliver(connector: ConnectorRow, records: PlatformRecord[]): Promise<void>;
  catchUp(connector: ConnectorRow): Promise<void>;
}

export interface RealtimeOptions {
  /** How often each instance looks for streams to take, and renews the ones it holds. */
  pollMs: number;
  /** How long a lease lasts unless renewed (an instance that died lets go within it). */
  leaseMs: number;
  /** The first wait before subscribing again after a drop; it doubles up to RETRY_MAX_MS. */
  retryBaseMs: number;
  allowPrivate: boolean;
  outbound: OutboundPolicy;
}

const RETRY_MAX_MS = 5 * 60_000;

interface Held {
  connector: ConnectorRow;
  session?: ConnectorSession;
  stream?: ChangeStream;
  http?: GuardedHttp;
}

export class RealtimeStreams {
  readonly owner = `stream_${crypto.randomBytes(6).toString('hex')}`;
  private readonly held = new Map<string, Held>();
  /** After a drop: the connector waits until then, and how many drops in a row it had. */
  private readonly backoff = new Map<string, { until: number; drops: number }>();
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private stopped = false;

  /** Whether this instance holds the connector's stream now (its lease, and a subscription or one being made). */
  holds(connectorId: string): boolean {
    return this.held.has(connectorId);
  }

  constructor(
    private readonly connectors: ConnectorStore,
    private readonly streams: StreamStore,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly runs: RealtimeRuns,
    private readonly log: Logger,
    private readonly options: RealtimeOptions,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.pollMs);
    this.timer.unref();
    void this.tick();
  }

  /** One look: streams taken or renewed, those no longer wanted (paused, deleted, realtime off) closed. */
  tick(): Promise<void> {
    this.ticking ??= this.look()
      .catch((err: unknown) => this.log.error({ err }, 'connector streams not looked at'))
      .finally(() => { this.ticking = undefined; });
    return this.ticking;
  }

  private wants(c: ConnectorRow): boolean {
    return c.status === 'active' && c.settings.realtime === true && this.registry.get(c.type) !== undefined;
  }

  private async look(): Promise<void> {
    if (this.stopped) return;
    const wanted = new Map((await this.connectors.all()).filter((c) => this.wants(c)).map((c) => [c.id, c]));
    for (const [id, held] of this.held) {
      if (!wanted.has(id) || JSON.stringify(wanted.get(id)!.settings) !== JSON.stringify(held.connector.settings)) {
        await this.close(id);
        await this.streams.release(id, this.owner);
      } else if (!(await this.streams.renew(id, this.owner, this.options.leaseMs))) {
        this.log.warn({ connector_id: id }, 'connector stream lease lost: another instance listens');
        await this.close(id);
      }
    }
    for (const [id, connector] of wanted) {
      if (this.held.has(id) || (this.backoff.get(id)?.until ?? 0) > this.now() || this.stopped) continue;
      if (!(await this.streams.claim(id, this.owner, this.options.leaseMs))) continue;
      this.held.set(id, { connector });
      await this.listen(connector);
    }
  }

  private async listen(connector: ConnectorRow): Promise<void> {
    const held = this.held.get(connector.id)!;
    try {
      const plugin = this.registry.get(connector.type)!;
      const urls = plugin.urlsOf(connector.settings);
      for (const url of urls) await checkPlatformUrl(url, this.options.allowPrivate);
      held.http = platformGuard(this.options, urls);
      held.session = await within(plugin.open({
        settings: connector.settings, credentials: this.secrets.open(connector.sealed), writeBack: connector.writeBack,
        log: this.log, fetch: held.http.fetch,
      }), OPEN_TIMEOUT_MS, 'opening the platform session');
      for (const url of held.session.urls?.() ?? []) await checkPlatformUrl(url, this.options.allowPrivate);
      if (!held.session.listen) throw new Error(`${connector.type} connectors have no change stream`);
      const from = await this.streams.position(connector.id);
      held.stream = await held.session.listen(from, {
        onRecords: (records, position) => this.handled(connector, records, position),
        onDrop: (reason) => void this.dropped(connector, reason),
      });
      if (!this.held.has(connector.id)) return;
      this.backoff.delete(connector.id);
      await this.streams.setStatus(connector.id, 'listening', null);
      this.log.info({ connector_id: connector.id, from }, 'connector stream listening');
    } catch (err) {
      await this.dropped(connector, (err as Error).message);
    }
  }

  /** The stream's records handed to the runs (a durable delivery job); then its position is kept. */
  private async handled(connector: ConnectorRow, records: PlatformRecord[], position: StreamPosition): Promise<void> {
    if (records.length) {
      const current = (await this.connectors.get(connector.id)) ?? connector;
      await this.runs.deliver(current, records);
    }
    await this.streams.savePosition(connector.id, this.owner, position);
  }

  /** The stream stopped: closed and let go, a catch-up run now, and a new subscription after the back-off. */
  private async dropped(connector: ConnectorRow, reason: string): Promise<void> {
    if (!this.held.has(connector.id)) return;
    const drops = (this.backoff.get(connector.id)?.drops ?? 0) + 1;
    const wait = Math.min(RETRY_MAX_MS, this.options.retryBaseMs * 2 ** (drops - 1));
    this.backoff.set(connector.id, { until: this.now() + wait, drops });
    this.log.warn({ connector_id: connector.id, reason, retry_in_ms: wait }, 'connector stream dropped: falling back to runs');
    await this.close(connector.id);
    await this.streams.release(connector.id, this.owner).catch(() => undefined);
    await this.streams.setStatus(connector.id, 'dropped', tenantSafeText(reason)).catch(() => undefined);
    if (!this.stopped) {
      await this.runs.catchUp(connector).catch((err: unknown) => this.log.warn({ err, connector_id: connector.id }, 'catch-up run not started'));
    }
  }

  private async close(id: string): Promise<void> {
    const held = this.held.get(id);
    this.held.delete(id);
    await held?.stream?.close().catch(() => undefined);
    await held?.session?.close?.().catch(() => undefined);
    await held?.http?.close().catch(() => undefined);
  }

  /** Stops listening and lets every stream go (another instance takes them at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    for (const id of [...this.held.keys()]) {
      await this.close(id);
      await this.streams.release(id, this.owner).catch(() => undefined);
    }
  }
}
