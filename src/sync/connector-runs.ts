/**
 * A connector's runs as jobs of the job engine (src/bulk): a scheduled or asked-for run (its source the platform's
 * changes since the watermark), and a webhook delivery (its source the records the delivery carried); both write the
 * verdicts back (the sink) and keep their place (the watermark; the records still to do). The engine gives them the
 * lease, heartbeat, takeover, pause and resume rule, and transitions of every job: one live run per connector (the
 * job's lock key), a runner that dies leaves the job to another, which fails the dead one's run and goes on from the
 * watermark, and a run paused for credits resumes when the balance covers what its next record needs.
 *
 * One attempt, the story: open the platform session (every URL checked against SSRF before), write back what an
 * earlier run could not save, then page through the records changed since the watermark. Each record is validated only
 * for the modules whose checked input changed since it was last validated (a hash per module, so our own write-back
 * never triggers another validation), through the same request schema and record pipeline as a CSV row, charged once
 * per (connector, record, input); the page's verdicts are written back, and only then does the watermark move.
 *
 * Here: starting jobs, one attempt and its run's end. The flows are connector-flows.ts (a run's changes, a webhook's
 * records) and `ConnectorPages.writeLater` (answers that arrived later), over connector-pages.ts's shared page work.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { JobSettings } from '../bulk/job-settings.js';
import type { JobEvents } from '../bulk/job-events.js';
import type { Job, JobStore } from '../bulk/job-store.js';
import type { BulkRunner, ChunkAttempt, JobKind, JobTransition, WorkOutcome } from '../bulk/runner.js';
import type { Steps } from '../db/transaction-steps.js';
import type { Logger } from '../log.js';
import { refusalIn } from '../net/outbound-guard.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import type { ContactValidation } from '../contact-check/validate-contact.js';
import { connectorRules } from './connector-policy.js';
import { checkConnector, type CheckResult } from './connector-check.js';
import { openPlatformSession } from './platform-access.js';
import type { ConnectorRow, ConnectorStore, RunCounts } from './connector-store.js';
import { ConnectorError, type ConnectorSession, type PlatformRecord } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from '../kit/secrets.js';
import { ConnectorPages, type ConnectorRunOptions } from './connector-pages.js';
import { workChanges, workDelivery } from './connector-flows.js';

export type { ConnectorRunOptions };
export { inputHashes } from './connector-pages.js';

/** The engine's kind of a connector's jobs. */
export const CONNECTOR_JOB_KIND = 'connector';
/** How long an ended connector job is kept (its runs stay in `connector_runs`). */
const JOB_RETENTION_MS = 7 * 24 * 3_600_000;
/** How often `settle` looks whether delivery jobs have ended. */
const SETTLE_POLL_MS = 25;

/** What a connector's job keeps: whose, why, and for a webhook delivery the records it carried. */
interface ConnectorJobSettings {
  connector_id: string;
  triggered_by: string;
  records?: PlatformRecord[];
  /** A delivery that names records without carrying them (a webhook action `read`): the session reads them first. */
  read_keys?: string[];
  /** Only the answers that arrived later (src/sync/later-answers.ts): written back, nothing read or validated. */
  later?: boolean;
}

const recordSchema: z.ZodType<PlatformRecord> = z.looseObject({
  key: z.string(),
  contact: z.looseObject({ address: z.string().optional(), email: z.string().optional(), phone: z.string().optional(), country: z.string().optional() }),
  chargeKey: z.string().optional(),
  reverify: z.string().optional(),
});
const CONNECTOR_SETTINGS = new JobSettings<ConnectorJobSettings>(CONNECTOR_JOB_KIND, z.looseObject({
  connector_id: z.string(),
  triggered_by: z.string(),
  records: z.array(recordSchema).optional(),
  read_keys: z.array(z.string()).optional(),
  later: z.boolean().optional(),
}));

const lockKeyOf = (connectorId: string) => `connector:${connectorId}`;

/** The records a delivery names, read whole by the session (a plugin whose events carry ids only must have `read`). */
async function readRecords(session: ConnectorSession, keys: string[]): Promise<PlatformRecord[]> {
  if (!session.read) throw new ConnectorError('api_error', 'the plugin names records in its webhooks but cannot read them (no session read)');
  return keys.length ? session.read(keys) : [];
}
const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;

/**
 * What a tenant is shown of a failure: the guard's refusal (our words), the platform's error code and message, or our
 * own message, as short sanitized text: a remote body never reaches a run as it came.
 */
function failureOf(err: unknown): { reason: ConnectorError['reason']; message: string; known: boolean } {
  const refused = refusalIn(err);
  if (refused) return { reason: 'api_error', message: tenantSafeText(`outbound request refused: ${refused.message}`), known: true };
  if (err instanceof ConnectorError) return { reason: err.reason, message: tenantSafeText(err.platformMessage ?? err.message), known: true };
  return { reason: 'api_error', message: tenantSafeText((err as Error).message), known: false };
}

export class ConnectorRuns implements JobKind {
  /** The attempt's run of each job worked here (the run a transition ends). */
  private readonly attempts = new Map<string, string>();
  /** Who hears a job's counts after each page (the command line's progress). */
  private readonly listeners = new Map<string, (counts: RunCounts) => void>();
  /** The page work every flow shares. */
  private readonly pages: ConnectorPages;
  /** Delivery jobs started here and not yet seen ended (`settle`). */
  private readonly deliveries = new Set<string>();

  constructor(
    private readonly store: ConnectorStore,
    private readonly jobs: JobStore,
    private readonly runner: Pick<BulkRunner, 'enqueue' | 'resume'>,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly validation: ContactValidation,
    private readonly events: JobEvents,
    private readonly log: Logger,
    private readonly options: ConnectorRunOptions,
  ) {
    this.pages = new ConnectorPages(store, validation, log, options);
  }

  /**
   * Starts a run: a job of the connector, with its first run waiting for the runner; returns the run's and the job's
   * ids, or null when the connector's job is under way (one at a time, on every instance: the job's lock key).
   * `resumePaused` (a person asked: the API, the command line): a job paused for credits resumes now instead.
   * `onProgress` hears the run's counts after each page, when this process works it.
   */
  async start(
    connector: ConnectorRow, triggeredBy: string,
    { resumePaused = false, onProgress }: { resumePaused?: boolean; onProgress?: (counts: RunCounts) => void } = {},
  ): Promise<{ runId: string; jobId: string } | null> {
    const runId = newId('run');
    const jobId = newId('cjob');
    const settings: ConnectorJobSettings = { connector_id: connector.id, triggered_by: triggeredBy };
    if (onProgress) this.listeners.set(jobId, onProgress);
    const created = await this.createJob(jobId, connector, settings, lockKeyOf(connector.id), () => this.store.insertRunSteps(runId, connector, triggeredBy, jobId));
    if (created) return { runId, jobId };
    this.listeners.delete(jobId);
    const live = await this.jobs.liveByLock(lockKeyOf(connector.id));
    if (!resumePaused || live?.status !== 'paused') return null;
    if (onProgress) this.listeners.set(live.id, onProgress);
    const resumed = await this.runner.resume(live.id, () => this.store.insertRunSteps(runId, connector, triggeredBy, live.id));
    return resumed ? { runId, jobId: live.id } : null;
  }

  /**
   * The records a webhook delivered, validated and written back as a job of their own (a delivery cannot wait for a
   * run to end): the same change detection and charge keys make a record that a run checks at the same time cost
   * nothing twice. Kept as a run (`triggered_by: webhook`) for the history.
   */
  async deliver(connector: ConnectorRow, records: PlatformRecord[] | { keys: string[] }): Promise<string> {
    const jobId = newId('cjob');
    const runId = newId('run');
    this.deliveries.add(jobId);
    const carried = Array.isArray(records) ? { records } : { read_keys: records.keys };
    await this.createJob(jobId, connector, { connector_id: connector.id, triggered_by: 'webhook', ...carried }, undefined,
      () => this.store.insertRunSteps(runId, connector, 'webhook', jobId));
    return jobId;
  }

  /**
   * A run that writes back the e-mail answers that arrived later (a look once a second finds the connectors owed
   * some): under the connector's lock, so that it never races a run writing the same records; false while a run of
   * the connector is under way (that run, or the next look, writes them).
   */
  async startLater(connector: ConnectorRow): Promise<boolean> {
    const runId = newId('run');
    const jobId = newId('cjob');
    return this.createJob(jobId, connector, { connector_id: connector.id, triggered_by: 'email_check', later: true },
      lockKeyOf(connector.id), () => this.store.insertRunSteps(runId, connector, 'email_check', jobId));
  }

  private async createJob(
    jobId: string, connector: ConnectorRow, settings: ConnectorJobSettings, lockKey: string | undefined,
    then: () => Steps<void>,
  ): Promise<boolean> {
    const created = await this.jobs.create({
      id: jobId, accountId: connector.accountId, kind: CONNECTOR_JOB_KIND, name: connector.name,
      settings: CONNECTOR_SETTINGS.stored(settings), rowsTotal: 0, expiresAt: Date.now() + JOB_RETENTION_MS,
      chunks: [{ firstSeq: 0, rowCount: 0, byteStart: 0, byteEnd: 0 }], lockKey,
    }, then);
    if (created) await this.runner.enqueue([{ jobId, idx: 0, kind: CONNECTOR_JOB_KIND }]);
    return created;
  }

  /** Whether a job has ended (completed, paused, failed, canceled) and its run with it, for those waiting on it. */
  async ended(jobId: string): Promise<boolean> {
    const job = await this.jobs.get(jobId);
    if (job && (job.status === 'queued' || job.status === 'running')) return false;
    // The job's transition is stored before its run ends (transitioned): wait for that too.
    return (await this.store.currentRun(jobId)) === null;
  }

  /** Waits until the delivery jobs started here have ended (a shutdown; tests). */
  async settle(): Promise<void> {
    while (this.deliveries.size) {
      for (const id of [...this.deliveries]) if (await this.ended(id)) this.deliveries.delete(id);
      if (this.deliveries.size) await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  }

  /** One attempt at a connector's job (the engine's JobKind): its run begins, and ends by the transition that follows. */
  async work(job: Job, _chunk: unknown, attempt: ChunkAttempt): Promise<WorkOutcome> {
    const settings = CONNECTOR_SETTINGS.of(job);
    const connector = await this.store.get(settings.connector_id);
    if (!connector) return { kind: 'failed', reason: 'api_error', message: 'the connector was deleted' };
    const runId = await this.store.beginAttempt(job.id, connector, settings.triggered_by, attempt.id);
    this.attempts.set(job.id, runId);
    const counts: RunCounts = {
      records_read: 0, records_validated: 0, records_written: 0, records_skipped: 0, records_failed: 0, credits_charged: 0,
    };
    const errors: { key: string; error: string }[] = [];
    const progress = async () => {
      await this.store.saveRun(runId, counts, errors);
      this.listeners.get(job.id)?.(counts);
    };
    let opened: Awaited<ReturnType<typeof openPlatformSession>> | undefined;
    try {
      const plugin = this.registry.get(connector.type);
      if (!plugin) throw new ConnectorError('api_error', `no plugin for connector type ${connector.type}`);
      const credentials = this.secrets.open(connector.sealed);
      if (!settings.records && !settings.read_keys && this.secrets.isStale(connector.sealed)) await this.store.update(connector.id, { sealed: this.secrets.seal(credentials) });
      opened = await openPlatformSession(plugin, {
        settings: connector.settings, credentials, writeBack: connector.writeBack, log: this.log,
      }, this.options);
      const policy = await connectorRules(this.options.policies, connector);
      const work = { jobId: job.id, connector, session: opened.session, counts, errors, shouldStop: attempt.shouldStop, progress, policy };
      const records = settings.records ?? (settings.read_keys ? await readRecords(opened.session, settings.read_keys) : undefined);
      const outcome = settings.later
        ? await this.pages.writeLater(work)
        : records
          ? await workDelivery(this.pages, work, records)
          : await workChanges(this.pages, work);
      await progress();
      if (outcome.kind === 'stopped') {
        // Another runner takes the job over (a shutdown, a lost lease): this run ends here, the next goes on.
        await this.store.finishRun(runId, 'failed', 'api_error', attempt.stopping()
          ? 'the run was interrupted (the service is stopping); the next run goes on'
          : 'the run was interrupted (its lease was lost); the next run goes on');
        this.attempts.delete(job.id);
      }
      return outcome;
    } catch (err) {
      await progress().catch(() => undefined);
      const { reason, message, known } = failureOf(err);
      if (!known) this.log.error({ err, connector_id: connector.id, run_id: runId }, 'connector run failed');
      return { kind: 'failed', reason, message };
    } finally {
      await opened?.session.close?.().catch(() => undefined);
      await opened?.http.close().catch(() => undefined);
    }
  }

  /**
   * The engine made a transition of a connector's job: the connector's state first, then its run's end, so that whoever
   * sees the run ended sees the connector as the run left it; then the events.
   */
  async transitioned(job: Job, t: JobTransition): Promise<void> {
    const settings = CONNECTOR_SETTINGS.of(job);
    const runId = this.attempts.get(job.id) ?? (await this.store.currentRun(job.id));
    this.attempts.delete(job.id);
    if (t.status !== 'paused') this.listeners.delete(job.id);
    const connectorId = settings.connector_id;
    // A delivery, or the later answers' run: neither is the connector's sync, whose end settles its state.
    const delivery = settings.records !== undefined || settings.read_keys !== undefined || settings.later === true;
    const capped = this.pages.capped.get(job.id);
    this.pages.capped.delete(job.id);
    if (t.status === 'completed' && capped) {
      // Stopped at its monthly cap: paused until the month turns or the cap is raised (the scheduler looks).
      const detail = `${capped.spent} of the connector's ${capped.cap} credits this month are used`;
      await this.store.update(connectorId, { status: 'paused', reason: 'credit_cap_reached', reasonDetail: detail });
      if (runId) await this.store.finishRun(runId, 'paused', 'credit_cap_reached', detail);
    } else if (t.status === 'completed') {
      if (!delivery) await this.store.settleAfterRun(connectorId);
      if (runId) await this.store.finishRun(runId, 'completed', null, null);
    } else if (t.status === 'paused') {
      await this.store.update(connectorId, { status: 'paused', reason: 'credits_exhausted', reasonDetail: null });
      if (runId) await this.store.finishRun(runId, 'paused', 'credits_exhausted', `the next record needs ${t.required} credits`);
      this.events.emit('connector.paused', job.accountId, {
        connector_id: connectorId, run_id: runId ?? '', reason: 'credits_exhausted', resume_credits: t.required,
      });
    } else {
      // Refused credentials stop the connector until they are changed; other failures are tried again on schedule.
      if (!delivery) {
        await this.store.update(connectorId, t.reason === 'auth_failed'
          ? { status: 'error', reason: t.reason, reasonDetail: t.message }
          : { reason: t.reason, reasonDetail: t.message });
      }
      if (runId) await this.store.finishRun(runId, 'failed', t.reason, t.message);
      this.events.emit('connector.run.failed', job.accountId, {
        connector_id: connectorId, run_id: runId ?? '', reason: t.reason, message: t.message,
      });
    }
    // A delivery's records are people's addresses, e-mails and phones: kept no longer than its work (the job itself
    // stays for the run's history until it expires), so that nothing of them outlives a redaction.
    if (delivery && t.status !== 'paused') await this.jobs.endedSettings(job.id, { ...settings, records: [] });
  }

  /** Whether the connector can run (credentials, fields, permissions, webhooks): connector-check.ts. */
  check(connector: ConnectorRow): Promise<CheckResult> {
    return checkConnector({ registry: this.registry, secrets: this.secrets, log: this.log, options: this.options }, connector);
  }
}
