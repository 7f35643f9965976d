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
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { JobSettings } from '../bulk/job-settings.js';
import type { JobEvents } from '../bulk/job-events.js';
import type { Job, JobStore } from '../bulk/job-store.js';
import { type FlowOutcome, processRecords, Slots, type TurnGate } from '../bulk/process-records.js';
import { sourceRecordOf, validateRecord, type SourceRecord } from '../bulk/record-pipeline.js';
import type { BulkRunner, ChunkAttempt, JobKind, JobTransition, WorkOutcome } from '../bulk/runner.js';
import type { Steps } from '../db/transaction-steps.js';
import type { Logger } from '../log.js';
import { refusalIn, type OutboundPolicy } from '../net/outbound-guard.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import type { PolicyRules } from '../contact-check/policies.js';
import type { ContactAnswer, ContactValidation } from '../contact-check/validate-contact.js';
import { connectorRules, type PolicyLookup } from './connector-policy.js';
import { checkConnector, type CheckResult } from './connector-check.js';
import type { LaterAnswers } from './later-answers.js';
import { openPlatformSession } from './platform-access.js';
import type { ConnectorRow, ConnectorStore, RecordState, RunCounts } from './connector-store.js';
import { ConnectorError, type ConnectorSession, type PlatformRecord, type WriteBackItem, type WriteBackOutcome } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from '../kit/secrets.js';
import type { CreditCaps, CapState } from './credit-caps.js';

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

const MODULES = ['address', 'email', 'phone'] as const;
type Module = (typeof MODULES)[number];
const PENDING_WRITES_PER_RUN = 1_000;
/** What one attempt works with. */
interface AttemptWork {
  jobId: string;
  connector: ConnectorRow;
  session: ConnectorSession;
  counts: RunCounts;
  errors: { key: string; error: string }[];
  shouldStop: () => boolean;
  progress: () => Promise<void>;
  /** The connector's policy's rules, read as the attempt began (undefined: the fixed table). */
  policy?: PolicyRules;
}

/** A page's records validated: what is due of each, and the answers, waiting to be written back. */
interface ValidatedPage {
  outcome: FlowOutcome;
  byKey: Map<string, { record: SourceRecord; chargeId: string; hashes: Record<Module, string | null>; modules: Module[] }>;
  answers: Map<string, ContactAnswer>;
}

/** The next item is asked for as soon as one is given: the platform reads page N+1 while page N is worked on. */
async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const item = await next;
    if (item.done) return;
    next = iterator.next();
    next.catch(() => undefined); // awaited on the next turn of the loop
    yield item.value;
  }
}

export interface ConnectorRunOptions {
  perJob: number;
  slots: Slots;
  gate: TurnGate;
  /** CONNECTOR_ALLOW_PRIVATE (tests): a connector's own configured origins may be on loopback; nothing else may. */
  allowPrivate: boolean;
  /** The outbound guard's policy every platform request goes through (the operator's listed origins). */
  outbound: OutboundPolicy;
  /** PUBLIC_BASE_URL: where platforms reach this service; webhooks are subscribed only when it is set. */
  publicBaseUrl?: string;
  /** CONNECTOR_CHECK_TIMEOUT_MS: how long a check waits for its platform (connector-check.ts). */
  checkTimeoutMs?: number;
  /** Connectors' monthly credit caps (credit-caps.ts): a run stops before the record that would pass one. */
  caps?: CreditCaps;
  /** The account's policies: a connector's `policy` names the rules its answers' `next_action` follow. */
  policies: PolicyLookup;
  /** E-mail answers that arrived later for the connectors' records: every run writes them back (the second write-back). */
  laterAnswers?: LaterAnswers;
}

/**
 * Kept in place of a module's input hash while its check is owed: no hash equals it, so the record is due again, and
 * it carries the time of the check it replaces, so that the check again is charged anew (the owed one was refunded).
 */
const RECHECK = 'recheck:';

/**
 * Modules whose answer says nothing of the record, only of this service: an e-mail `unknown` / `dns_unavailable`
 * (our resolver denies names that exist). Not written back, no hash kept: the record is checked again.
 */
function modulesToCheckAgain(answer: ContactAnswer, modules: readonly Module[]): Module[] {
  return modules.filter((m) => m === 'email' && answer.email?.reason === 'dns_unavailable');
}

const digest = (text: string) => crypto.createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The hash of each module's checked input (the country counts for the address and the phone); null when absent. */
export function inputHashes(contact: PlatformRecord['contact']): Record<Module, string | null> {
  const country = contact.country ?? '';
  return {
    address: contact.address ? digest(`${contact.address}\u0000${country}`) : null,
    email: contact.email ? digest(contact.email) : null,
    phone: contact.phone ? digest(`${contact.phone}\u0000${country}`) : null,
  };
}

/** The RECHECK marks of the modules whose check is owed, in place of their hashes. */
function owedChecks(modules: readonly Module[], validatedAt: string): Partial<Record<Module, string>> {
  return Object.fromEntries(modules.map((m) => [m, `${RECHECK}${validatedAt}`]));
}

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

/** A record's write-back outcome with the platform's reason as a tenant may see it. */
const shownOutcome = (o: WriteBackOutcome): WriteBackOutcome => (o.error ? { ...o, error: tenantSafeText(o.error) } : o);

export class ConnectorRuns implements JobKind {
  /** The attempt's run of each job worked here (the run a transition ends). */
  private readonly attempts = new Map<string, string>();
  /** Who hears a job's counts after each page (the command line's progress). */
  private readonly listeners = new Map<string, (counts: RunCounts) => void>();
  /** Jobs whose attempt stopped at the connector's monthly credit cap: their completion pauses the connector. */
  private readonly capped = new Map<string, CapState>();
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
  ) {}

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
        ? await this.writeLater(work)
        : records
          ? await this.workDelivery(work, records)
          : await this.workChanges(work);
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
    const capped = this.capped.get(job.id);
    this.capped.delete(job.id);
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

  /** The platform's changes since the watermark, a page at a time; the watermark moves once a page is written. */
  private async workChanges(work: AttemptWork): Promise<FlowOutcome> {
    const { jobId, connector, session, counts, errors, shouldStop, progress } = work;
    if (this.options.publicBaseUrl && session.ensureWebhooks) {
      // A failed subscription does not stop the sync: the schedule still reads every change.
      await session.ensureWebhooks(new URL(`/webhooks/${connector.type}`, this.options.publicBaseUrl).toString())
        .catch((err: unknown) => this.log.warn({ err: (err as Error).message, connector_id: connector.id }, 'webhooks not subscribed'));
    }
    await this.retryPendingWrites(connector, session, counts, errors);
    await this.writeLater(work);

    const seen = new Set<string>();
    let outcome: FlowOutcome = { kind: 'done' };
    // A page is validated while the one before it is written back and the next one is read: the run waits on the
    // platform's API, not on both in turn. The watermark moves only once its page is written.
    let writing: Promise<void> | null = null;
    // Once a page owes a record a check, the watermark stays before it: the next run reads the record again.
    let owesChecks = false;
    for await (const page of readAhead(session.changes(connector.watermark))) {
      if (shouldStop()) {
        outcome = { kind: 'stopped' };
        break;
      }
      if (await this.stoppedByCap(jobId, connector)) break;
      for (const r of page.records) seen.add(r.key);
      counts.records_read = seen.size;
      const budget = await this.capBudget(connector);
      const validated = await this.validatePage(connector, page.records, counts, errors, shouldStop, budget, work.policy);
      await writing;
      const done = validated.outcome.kind === 'done';
      writing = this.writePage(connector, session, validated, counts, errors)
        .then((owes) => {
          owesChecks ||= owes;
          return done && !owesChecks ? this.store.update(connector.id, { watermark: page.watermark }) : undefined;
        })
        .then(progress);
      writing.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      if (!done) {
        // Stopped by the cap's budget rather than told to stop: the job ends paused by the cap, its watermark kept.
        const byCap = validated.outcome.kind === 'stopped' && !shouldStop() && (await this.stoppedByCap(jobId, connector, 0.5));
        outcome = byCap ? { kind: 'done' } : validated.outcome;
        break;
      }
    }
    await writing;
    if (outcome.kind === 'done' && !this.capped.has(jobId)) await this.stoppedByCap(jobId, connector, 0.5);
    return outcome;
  }

  /** Whether the connector's monthly cap leaves no room for `next` credits; the job then ends paused by it. */
  private async stoppedByCap(jobId: string, connector: ConnectorRow, next = 1): Promise<boolean> {
    const capped = await this.options.caps?.reached(connector, next);
    if (capped) this.capped.set(jobId, capped);
    return Boolean(capped);
  }

  /** The records a webhook delivered: validated and written back. */
  private async workDelivery(work: AttemptWork, records: PlatformRecord[]): Promise<FlowOutcome> {
    const { jobId, connector, session, counts, errors, shouldStop } = work;
    counts.records_read = records.length;
    if (await this.stoppedByCap(jobId, connector)) return { kind: 'done' };
    const validated = await this.validatePage(connector, records, counts, errors, shouldStop, await this.capBudget(connector), work.policy);
    await this.writePage(connector, session, validated, counts, errors);
    if (validated.outcome.kind === 'paused' || shouldStop()) return validated.outcome;
    // Done, or stopped by the cap's budget: a cap reached now pauses the connector as the job ends.
    return (await this.stoppedByCap(jobId, connector, 0.5)) || validated.outcome.kind === 'done' ? { kind: 'done' } : validated.outcome;
  }

  /** Whether the connector can run (credentials, fields, permissions, webhooks): connector-check.ts. */
  check(connector: ConnectorRow): Promise<CheckResult> {
    return checkConnector({ registry: this.registry, secrets: this.secrets, log: this.log, options: this.options }, connector);
  }

  /** The credits the connector may still take this month (Infinity without a cap). */
  private async capBudget(connector: ConnectorRow): Promise<number> {
    const state = await this.options.caps?.state(connector);
    return state?.cap == null ? Infinity : Math.max(0, state.cap - state.spent);
  }

  /**
   * One page's records: those whose checked input changed are validated (and paid for). Under a credit cap (`budget`,
   * the credits left this month) they are validated one at a time and the page stops once the budget is spent: a
   * record's price is known only as it is charged, so the record that reaches the cap may pass it by its own price.
   * Every answer's `next_action` follows `policy` (the connector's; absent: the fixed table).
   */
  private async validatePage(
    connector: ConnectorRow, records: PlatformRecord[], counts: RunCounts,
    errors: { key: string; error: string }[], shouldStop: () => boolean, budget = Infinity, policy?: PolicyRules,
  ): Promise<ValidatedPage> {
    const states = await this.store.recordStates(connector.id, records.map((r) => r.key));
    const due: { record: SourceRecord; chargeId: string; hashes: Record<Module, string | null>; modules: Module[] }[] = [];
    const cleared: { key: string; state: RecordState; error: null }[] = [];
    const inPage = new Set<string>();
    for (const r of records) {
      if (inPage.has(r.key)) continue; // the platform gave it twice in one page
      inPage.add(r.key);
      const hashes = inputHashes(r.contact);
      const before = states.get(r.key);
      // A record due for re-verification is checked in full, changed or not.
      const modules = MODULES.filter((m) => hashes[m] !== null && (r.reverify !== undefined || hashes[m] !== (before?.[m] ?? null)));
      if (!modules.length) {
        counts.records_skipped++;
        // A value removed: remember it, so that the same value typed again is checked again. Nothing to charge.
        if (before && MODULES.some((m) => hashes[m] !== before[m])) {
          cleared.push({ key: r.key, state: { ...hashes, pendingWrite: before.pendingWrite }, error: null });
        }
        continue;
      }
      // Only the modules due, through the same request schema as a CSV row or a /v1/validate body.
      const only = (m: Module) => (modules.includes(m) ? r.contact[m] ?? null : null);
      const record = sourceRecordOf(r.key, {
        address: only('address'), email: only('email'), phone: only('phone'), country: r.contact.country, smtp: true, policy,
      });
      const owed = modules.flatMap((m) => (before?.[m]?.startsWith(RECHECK) ? [before[m]] : []));
      const again = r.reverify !== undefined ? [`reverify:${r.reverify}`] : [];
      const chargeId = r.chargeKey ? `${connector.id}:${r.chargeKey}` : `${connector.id}:${r.key}:${[modules.map((m) => hashes[m]).join('.'), ...owed, ...again].join(':')}`;
      due.push({ record, chargeId, hashes, modules });
    }
    if (cleared.length) await this.store.saveRecordStates(connector.id, cleared);
    if (!due.length) return { outcome: { kind: 'done' }, byKey: new Map(), answers: new Map() };

    const byKey = new Map(due.map((d) => [d.record.key, d]));
    const answers = new Map<string, ContactAnswer>();
    let chargedInPage = 0;
    const outcome = await processRecords(due.map((d) => d.record), {
      jobSlots: new Slots(budget === Infinity ? this.options.perJob : 1),
      slots: this.options.slots,
      validate: async (record) => {
        const finished = await validateRecord(this.validation, connector.accountId, connector.id, record, this.log, {
          chargeId: byKey.get(record.key)!.chargeId, pace: () => this.options.gate.pass(),
        });
        if (finished.answer) {
          answers.set(record.key, finished.answer);
          // What the ledger moved now, counted as it moves (a run that fails before the write-back paid for it all
          // the same): a record an earlier run paid for, validated again, is not paid for twice nor counted twice.
          counts.credits_charged += finished.answer.chargedNow;
          chargedInPage += finished.answer.chargedNow;
        } else {
          counts.records_failed++;
          errors.push({ key: record.key, error: finished.error ?? 'failed' });
        }
        return finished;
      },
      keep: async () => true,
      shouldStop: () => shouldStop() || chargedInPage >= budget,
    });
    return { outcome, byKey, answers };
  }

  /**
   * One page's verdicts written back, and the new hashes kept (a failed save is owed, tried again without charge).
   * True when a module's check is owed (modulesToCheckAgain): the run then keeps the watermark where it is, so that
   * the next run reads the record again.
   */
  private async writePage(
    connector: ConnectorRow, session: ConnectorSession, { byKey, answers }: ValidatedPage, counts: RunCounts,
    errors: { key: string; error: string }[],
  ): Promise<boolean> {
    const validatedAt = new Date().toISOString();
    const items: WriteBackItem[] = [];
    const states2: { key: string; state: RecordState; error: string | null }[] = [];
    const checkAgain = new Map<string, Module[]>();
    for (const [key, answer] of answers) {
      counts.records_validated++;
      const item: WriteBackItem = { key, validatedAt };
      const { modules, hashes } = byKey.get(key)!;
      const again = modulesToCheckAgain(answer, modules);
      for (const m of modules) {
        if (answer[m] && !again.includes(m)) (item as unknown as Record<string, unknown>)[m] = answer[m];
      }
      if (again.length) {
        checkAgain.set(key, again);
        errors.push({ key, error: `${again.join(', ')} not checked (DNS unavailable): checked again on the next run` });
      }
      if (again.length < modules.length) items.push(item);
      else states2.push({ key, state: { ...hashes, ...owedChecks(again, validatedAt), pendingWrite: null }, error: null });
    }
    const saved = new Map((items.length ? await session.writeBack(items) : []).map((o) => [o.key, shownOutcome(o)]));
    // Their e-mail checked now: an older check's answer, arriving later, never overwrites this one.
    const emailed = items.filter((i) => i.email).map((i) => i.key);
    const kept = items.flatMap((i) => (i.email?.check_id ? [i.email.check_id] : []));
    await this.options.laterAnswers?.supersede(connector.id, emailed, Date.now(), kept);
    for (const item of items) {
      const o = saved.get(item.key);
      const ok = o?.ok ?? false;
      if (ok) counts.records_written++;
      else {
        counts.records_failed++;
        errors.push({ key: item.key, error: o?.error ?? 'not written' });
      }
      // Validated and paid for: its hashes are kept either way; a failed save is owed, tried again without charge.
      // A write that changed a checked field (the standardized address) is the record's new baseline.
      const hashes = o?.ok && o.written ? inputHashes(o.written) : byKey.get(item.key)!.hashes;
      const owed = owedChecks(checkAgain.get(item.key) ?? [], validatedAt);
      states2.push({ key: item.key, state: { ...hashes, ...owed, pendingWrite: ok ? null : JSON.stringify(item) }, error: ok ? null : o?.error ?? 'not written' });
    }
    if (states2.length) await this.store.saveRecordStates(connector.id, states2);
    return checkAgain.size > 0;
  }

  /** The e-mail answers that arrived later for the connector's records, written back (later-answers.ts); free. */
  private async writeLater(work: AttemptWork): Promise<FlowOutcome> {
    if (!this.options.laterAnswers) return { kind: 'done' };
    const { written, failed } = await this.options.laterAnswers.write(work.connector.id, work.session, work.policy ?? null);
    work.counts.records_written += written;
    work.counts.records_failed += failed.length;
    work.errors.push(...failed);
    return { kind: 'done' };
  }

  /** Write-backs an earlier run validated and paid for but could not save: tried again, never charged again. */
  private async retryPendingWrites(connector: ConnectorRow, session: ConnectorSession, counts: RunCounts, errors: { key: string; error: string }[]) {
    const owed = await this.store.pendingWrites(connector.id, PENDING_WRITES_PER_RUN);
    if (!owed.length) return;
    const outcomes = (await session.writeBack(owed.map((o) => JSON.parse(o.item) as WriteBackItem))).map(shownOutcome);
    for (const o of outcomes) {
      if (o.ok) counts.records_written++;
      else {
        counts.records_failed++;
        errors.push({ key: o.key, error: o.error ?? 'not written' });
      }
      await this.store.clearPendingWrite(connector.id, o.key, o.error ?? null, !o.ok);
    }
  }
}
