/**
 * Jobs of a plugin's own (`ConnectorPlugin.jobs`) as jobs of the job engine (src/bulk): a webhook action `job` (a
 * store's `orders/create`, checked at purchase) is stored as a job (one live job per connector, job and key: its lock
 * key) before the delivery is answered, and any instance works it under the engine's lease, heartbeat and sweeper.
 * An instance that dies before or during the work leaves the job's chunk to lapse; another (or the restarted one)
 * works it again. A plugin's handler is written to be repeated (an order's check: the charge is keyed by the order,
 * and each of its steps is taken in the order books once).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { JobSettings } from '../bulk/job-settings.js';
import type { Logger } from '../log.js';
import type { Job, JobStore } from '../bulk/job-store.js';
import type { BulkRunner, JobKind, WorkOutcome } from '../bulk/runner.js';
import type { ConnectorRow, ConnectorStore } from './connector-store.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from '../kit/secrets.js';

/**
 * The engine's kind of these jobs. The first plugin job was an order's check, and jobs stored before the kind was
 * every plugin's carry this name and no `job` (read as `order-check`): the name stays.
 */
export const PLUGIN_JOB_KIND = 'order-check';
/** A stored job without a `job` name: one of the order checks stored before plugins had jobs of their own. */
const FIRST_JOB = 'order-check';
/** Kept as long as a connector's jobs: the job's settings carry the payload as the platform delivered it. */
const JOB_RETENTION_MS = 7 * 24 * 60 * 60_000;
const SETTLE_POLL_MS = 50;

/** The stored settings (`order_key` and `order`: the names of the jobs stored before, kept). */
interface PluginJobSettings { connector_id: string; job?: string; order_key: string; order: Record<string, unknown> }

const endedSchema = z.looseObject({ connector_id: z.string(), job: z.string().optional(), order_key: z.string() });
/** A plugin job's settings while it lives: the payload as delivered, for the plugin's handler. */
const PLUGIN_SETTINGS = new JobSettings<PluginJobSettings>(PLUGIN_JOB_KIND, endedSchema.extend({ order: z.record(z.string(), z.unknown()) }));
/** Once it has ended, the payload is dropped (`transitioned`): what is left. */
const ENDED_SETTINGS = new JobSettings<Omit<PluginJobSettings, 'order'>>(PLUGIN_JOB_KIND, endedSchema);

export class PluginJobs implements JobKind {
  /** Jobs stored here and not yet seen ended (`settle`). */
  private readonly started = new Set<string>();

  constructor(
    private readonly jobs: JobStore,
    private readonly runner: Pick<BulkRunner, 'enqueue'>,
    private readonly connectors: Pick<ConnectorStore, 'get'>,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly log: Logger,
  ) {}

  /**
   * Stores the plugin's job `job` for `key` and sends it to the runners; a second one of the same key while its job
   * is live stores nothing. Resolves once the job is in the database: then the delivery may be answered.
   */
  async enqueue(connector: ConnectorRow, job: string, key: string, payload: Record<string, unknown>): Promise<void> {
    if (!this.registry.get(connector.type)?.jobs?.[job]) throw new Error(`the ${connector.type} plugin has no job ${job}`);
    const jobId = `ojob_${crypto.randomBytes(12).toString('base64url')}`;
    const settings: PluginJobSettings = { connector_id: connector.id, job, order_key: key, order: payload };
    // The order checks' lock key as it was (`order:`), so that a job stored before is still the live one.
    const lock = job === FIRST_JOB ? `order:${connector.id}:${key}` : `${job}:${connector.id}:${key}`;
    const created = await this.jobs.create({
      id: jobId, accountId: connector.accountId, kind: PLUGIN_JOB_KIND, name: key,
      settings: PLUGIN_SETTINGS.stored(settings), rowsTotal: 0, expiresAt: Date.now() + JOB_RETENTION_MS,
      chunks: [{ firstSeq: 0, rowCount: 0, byteStart: 0, byteEnd: 0 }], lockKey: lock,
    });
    if (!created) return;
    this.started.add(jobId);
    await this.runner.enqueue([{ jobId, idx: 0, kind: PLUGIN_JOB_KIND }]);
  }

  async work(job: Job): Promise<WorkOutcome> {
    const settings = PLUGIN_SETTINGS.of(job);
    const name = settings.job ?? FIRST_JOB;
    const connector = await this.connectors.get(settings.connector_id);
    // A connector deleted since: nothing to do.
    if (!connector) return { kind: 'done' };
    const handler = this.registry.get(connector.type)?.jobs?.[name];
    if (!handler) throw new Error(`no plugin on this instance works ${connector.type} jobs ${name}`);
    let credentials: Record<string, unknown>;
    try {
      credentials = this.secrets.open<Record<string, unknown>>(connector.sealed);
    } catch {
      return { kind: 'done' }; // sealed with a key no instance holds any more: nothing can reach the platform
    }
    await handler({ connector, credentials, log: this.log }, settings.order);
    this.log.info({ job_id: job.id, connector_id: settings.connector_id, job: name }, 'plugin job done');
    return { kind: 'done' };
  }

  /** Once the job has ended, the payload as delivered (a buyer's contact) is not kept: the plugin's books say the rest. */
  async transitioned(job: Job): Promise<void> {
    const { connector_id: connectorId, job: name, order_key: key } = ENDED_SETTINGS.of(job);
    await this.jobs.endedSettings(job.id, ENDED_SETTINGS.stored({ connector_id: connectorId, ...(name && name !== FIRST_JOB ? { job: name } : {}), order_key: key }));
  }

  /** Waits until the jobs stored here have ended (a shutdown; tests). */
  async settle(): Promise<void> {
    while (this.started.size) {
      for (const id of [...this.started]) {
        const job = await this.jobs.get(id);
        if (!job || (job.status !== 'queued' && job.status !== 'running')) this.started.delete(id);
      }
      if (this.started.size) await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }
}
