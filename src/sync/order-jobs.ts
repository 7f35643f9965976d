/**
 * Orders checked at purchase as jobs of the job engine (src/bulk): a store plugin's `orders/create` is stored as a job
 * (one live job per connector and order: its lock key) before the delivery is answered, and any instance works it
 * under the engine's lease, heartbeat and sweeper. An instance that dies before or during the check leaves the job's
 * chunk to lapse; another (or the restarted one) works it again. The plugin's check is written to be repeated: the
 * charge is keyed by the order, and each of its steps (risk assessment, hold, mail) is taken in the order books once.
 */
import crypto from 'node:crypto';
import type { Logger } from '../log.js';
import type { Job, JobStore } from '../bulk/job-store.js';
import type { BulkRunner, JobKind, WorkOutcome } from '../bulk/runner.js';
import type { ConnectorRow } from './connector-store.js';

export const ORDER_JOB_KIND = 'order-check';
/** Kept as long as a connector's jobs: the job's settings carry the order as the platform delivered it. */
const JOB_RETENTION_MS = 7 * 24 * 60 * 60_000;
const SETTLE_POLL_MS = 50;

interface OrderJobSettings { connector_id: string; order_key: string; order: Record<string, unknown> }

/** The plugin's check of one order, from the order as delivered; throwing gives the job back for another attempt. */
export type OrderCheck = (connectorId: string, order: Record<string, unknown>) => Promise<void>;

export class OrderJobs implements JobKind {
  private check?: OrderCheck;
  /** Jobs stored here and not yet seen ended (`settle`). */
  private readonly started = new Set<string>();

  constructor(
    private readonly jobs: JobStore,
    private readonly runner: Pick<BulkRunner, 'enqueue'>,
    private readonly log: Logger,
  ) {}

  /** The plugin's check, set once by the plugin that takes order deliveries. */
  handle(check: OrderCheck): void {
    this.check = check;
  }

  /**
   * Stores the order's check as a job and sends it to the runners; a second delivery of the same order while its job
   * is live stores nothing. Resolves once the job is in the database: then the delivery may be answered.
   */
  async enqueue(connector: ConnectorRow, orderKey: string, order: Record<string, unknown>): Promise<void> {
    const jobId = `ojob_${crypto.randomBytes(12).toString('base64url')}`;
    const settings: OrderJobSettings = { connector_id: connector.id, order_key: orderKey, order };
    const created = await this.jobs.create({
      id: jobId, accountId: connector.accountId, kind: ORDER_JOB_KIND, name: orderKey,
      settings: settings as unknown as Record<string, unknown>, rowsTotal: 0, expiresAt: Date.now() + JOB_RETENTION_MS,
      chunks: [{ firstSeq: 0, rowCount: 0, byteStart: 0, byteEnd: 0 }], lockKey: `order:${connector.id}:${orderKey}`,
    });
    if (!created) return;
    this.started.add(jobId);
    await this.runner.enqueue([{ jobId, idx: 0, kind: ORDER_JOB_KIND }]);
  }

  async work(job: Job): Promise<WorkOutcome> {
    if (!this.check) throw new Error('no plugin checks orders on this instance');
    const settings = job.settings as unknown as OrderJobSettings;
    await this.check(settings.connector_id, settings.order);
    this.log.info({ job_id: job.id, connector_id: settings.connector_id }, 'order checked');
    return { kind: 'done' };
  }

  /** Once the job has ended, the order as delivered (its buyer's contact) is not kept: the order books say the rest. */
  async transitioned(job: Job): Promise<void> {
    const { connector_id: connectorId, order_key: orderKey } = job.settings as unknown as OrderJobSettings;
    await this.jobs.endedSettings(job.id, { connector_id: connectorId, order_key: orderKey });
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
