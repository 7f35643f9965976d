/**
 * One run of a connector, the story: take the connector's run lease (never two runs at once, on any instance), open
 * the platform session, write back what an earlier run could not save, then page through the records changed since
 * the watermark. Each record is validated only for the modules whose checked input changed since it was last validated
 * (a hash per module, so our own write-back, which changes the record's stamp, never triggers another validation), with
 * the bulk pipeline's record flow, charged once per (connector, record, input); the page's verdicts are written back,
 * and only then does the watermark move. Credits run out: what is done is written back, the watermark stays, and the
 * connector waits as `paused` / `credits_exhausted`.
 */
import crypto from 'node:crypto';
import type { CreditLedger } from '../billing/ledger.js';
import { type FlowOutcome, processRecords, Slots, type TurnGate } from '../bulk/process-records.js';
import { validateRecord, verdictError, type SourceRecord } from '../bulk/record-pipeline.js';
import type { Logger } from '../log.js';
import { refusalIn, type GuardedHttp, type OutboundPolicy } from '../net/outbound-guard.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import type { ContactAnswer, ContactInput, ContactValidation } from '../contact-check/validate-contact.js';
import { checkConnector, type CheckResult } from './connector-check.js';
import { OPEN_TIMEOUT_MS, platformGuard, within } from './platform-access.js';
import type { ConnectorRow, ConnectorStore, RecordState, RunCounts } from './connector-store.js';
import { checkPlatformUrl } from './platform-url.js';
import { ConnectorError, type ConnectorSession, type PlatformRecord, type WriteBackItem, type WriteBackOutcome } from './plugin.js';
import type { ConnectorRegistry } from './registry.js';
import type { SecretBox } from './secrets.js';
import type { CreditCaps, CapState } from './credit-caps.js';

const MODULES = ['address', 'email', 'phone'] as const;
type Module = (typeof MODULES)[number];
const PENDING_WRITES_PER_RUN = 1_000;
/** How long a shutdown waits for runs in flight. */
const STOP_WAIT_MS = 5_000;
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
  leaseMs: number;
  /** CONNECTOR_ALLOW_PRIVATE (tests): a connector's own configured origins may be on loopback; nothing else may. */
  allowPrivate: boolean;
  /** The outbound guard's policy every platform request goes through (the operator's listed origins). */
  outbound: OutboundPolicy;
  /** PUBLIC_BASE_URL: where platforms reach this service; webhooks are subscribed only when it is set. */
  publicBaseUrl?: string;
  /** Connectors' monthly credit caps (credit-caps.ts): a run stops before the record that would pass one. */
  caps?: CreditCaps;
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

export class ConnectorRuns {
  readonly owner = `sync_${crypto.randomBytes(6).toString('hex')}`;
  private stopping = false;
  private readonly active = new Set<Promise<unknown>>();

  constructor(
    private readonly store: ConnectorStore,
    private readonly registry: ConnectorRegistry,
    private readonly secrets: SecretBox,
    private readonly validation: ContactValidation,
    private readonly ledger: CreditLedger,
    private readonly log: Logger,
    private readonly options: ConnectorRunOptions,
  ) {}

  /**
   * Starts a run in the background if the connector is free; returns its id, or null when a run holds it already.
   * `onProgress` hears the run's counts after each page.
   */
  async start(connector: ConnectorRow, triggeredBy: string, onProgress?: (counts: RunCounts) => void): Promise<{ runId: string; done: Promise<void> } | null> {
    if (this.stopping || !(await this.store.claimRun(connector.id, this.owner, this.options.leaseMs))) return null;
    const runId = `run_${crypto.randomBytes(12).toString('base64url')}`;
    try {
      await this.store.failAbandonedRuns(connector.id);
      await this.store.startRun(runId, connector, triggeredBy);
    } catch (err) {
      await this.store.releaseRun(connector.id, this.owner).catch(() => undefined);
      throw err;
    }
    const done = this.execute(connector, runId, onProgress)
      .catch((err: unknown) => this.log.error({ err, connector_id: connector.id, run_id: runId }, 'connector run failed'))
      .finally(() => this.store.releaseRun(connector.id, this.owner).catch(() => undefined));
    this.active.add(done);
    void done.finally(() => this.active.delete(done));
    return { runId, done };
  }

  /**
   * Lets runs in flight end (they stop at their next page), for at most STOP_WAIT_MS: a platform that never answers
   * must not hold a shutdown. A run left behind loses its lease when this process exits, and the next run goes on.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.active]),
      new Promise((resolve) => { timer = setTimeout(resolve, STOP_WAIT_MS); }),
    ]);
    clearTimeout(timer);
  }

  private async execute(connector: ConnectorRow, runId: string, onProgress?: (counts: RunCounts) => void): Promise<void> {
    const counts: RunCounts = {
      records_read: 0, records_validated: 0, records_written: 0, records_skipped: 0, records_failed: 0, credits_charged: 0,
    };
    const errors: { key: string; error: string }[] = [];
    let lost = false;
    const heartbeat = setInterval(() => {
      this.store.renewRun(connector.id, this.owner, this.options.leaseMs).then(
        (held) => { if (!held) lost = true; },
        (err: unknown) => this.log.warn({ err, connector_id: connector.id }, 'connector lease renewal failed'),
      );
    }, Math.max(50, Math.floor(this.options.leaseMs / 3)));
    let session: ConnectorSession | undefined;
    let http: GuardedHttp | undefined;
    const progress = async () => {
      await this.store.saveRun(runId, counts, errors);
      onProgress?.(counts);
    };
    try {
      const plugin = this.registry.get(connector.type);
      if (!plugin) throw new ConnectorError('api_error', `no plugin for connector type ${connector.type}`);
      for (const url of plugin.urlsOf(connector.settings)) await checkPlatformUrl(url, this.options.allowPrivate);
      const credentials = this.secrets.open(connector.sealed);
      if (this.secrets.isStale(connector.sealed)) await this.store.update(connector.id, { sealed: this.secrets.seal(credentials) });
      http = this.guardFor(plugin.urlsOf(connector.settings));
      session = await within(plugin.open({
        settings: connector.settings, credentials, writeBack: connector.writeBack, log: this.log, fetch: http.fetch,
      }), OPEN_TIMEOUT_MS, 'opening the platform session');
      // Where the login sent us (Salesforce's instance URL) is checked like the URLs of the settings.
      for (const url of session.urls?.() ?? []) await checkPlatformUrl(url, this.options.allowPrivate);
      if (this.options.publicBaseUrl && session.ensureWebhooks) {
        // A failed subscription does not stop the sync: the schedule still reads every change.
        await session.ensureWebhooks(new URL(`/webhooks/${connector.type}`, this.options.publicBaseUrl).toString())
          .catch((err: unknown) => this.log.warn({ err: (err as Error).message, connector_id: connector.id }, 'webhooks not subscribed'));
      }
      await this.retryPendingWrites(connector, session, counts, errors);

      const seen = new Set<string>();
      let paused: number | null = null;
      let capped: CapState | null = null;
      // A page is validated while the one before it is written back and the next one is read: the run waits on the
      // platform's API, not on both in turn. The watermark moves only once its page is written.
      let writing: Promise<void> | null = null;
      // Once a page owes a record a check, the watermark stays before it: the next run reads the record again.
      let owesChecks = false;
      const open = session;
      for await (const page of readAhead(open.changes(connector.watermark))) {
        if (lost || this.stopping) break;
        capped = (await this.options.caps?.reached(connector)) ?? null;
        if (capped) break;
        for (const r of page.records) seen.add(r.key);
        counts.records_read = seen.size;
        const budget = await this.capBudget(connector);
        const validated = await this.validatePage(connector, page.records, counts, errors, () => lost || this.stopping, budget);
        await writing;
        const done = validated.outcome.kind === 'done';
        writing = this.writePage(connector, open, validated, counts, errors)
          .then((owes) => {
            owesChecks ||= owes;
            return done && !owesChecks ? this.store.update(connector.id, { watermark: page.watermark }) : undefined;
          })
          .then(progress);
        writing.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
        if (validated.outcome.kind === 'paused') {
          paused = validated.outcome.required;
          break;
        }
        if (!done) break;
      }
      await writing;
      await progress();
      capped ??= paused === null && !(lost || this.stopping) ? (await this.options.caps?.reached(connector, 0.5)) ?? null : null;
      if (capped) {
        const detail = `${capped.spent} of the connector's ${capped.cap} credits this month are used`;
        await this.store.update(connector.id, { status: 'paused', reason: 'credit_cap_reached', reasonDetail: detail });
        await this.store.finishRun(runId, 'paused', 'credit_cap_reached', detail);
      } else if (paused !== null) {
        // The connector's state first, then the run's end: whoever sees the run ended sees the connector as it left it.
        await this.store.update(connector.id, { status: 'paused', reason: 'credits_exhausted', reasonDetail: null });
        await this.store.finishRun(runId, 'paused', 'credits_exhausted', `the next record needs ${paused} credits`);
      } else if (lost || this.stopping) {
        await this.store.finishRun(runId, 'failed', 'api_error', 'the run was interrupted (the service is stopping)');
      } else {
        await this.store.update(connector.id, { status: 'active', reason: null, reasonDetail: null });
        await this.store.finishRun(runId, 'completed', null, null);
      }
    } catch (err) {
      await progress().catch(() => undefined);
      const { reason, message, known } = failureOf(err);
      // Refused credentials stop the connector until they are changed; other failures are tried again on schedule.
      // The connector's state first, so that whoever sees the run ended sees the connector as the run left it.
      try {
        await this.store.update(connector.id, reason === 'auth_failed'
          ? { status: 'error', reason, reasonDetail: message }
          : { reason, reasonDetail: message });
      } finally {
        await this.store.finishRun(runId, 'failed', reason, message);
      }
      if (!known) throw err;
    } finally {
      clearInterval(heartbeat);
      await session?.close?.().catch(() => undefined);
      await http?.close().catch(() => undefined);
    }
  }

  /** This run's way out (platformGuard). */
  private guardFor(urls: string[]): GuardedHttp {
    return platformGuard(this.options, urls);
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
   */
  private async validatePage(
    connector: ConnectorRow, records: PlatformRecord[], counts: RunCounts,
    errors: { key: string; error: string }[], shouldStop: () => boolean, budget = Infinity,
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
      const input: ContactInput = { smtp: true, country: r.contact.country };
      for (const m of modules) input[m] = r.contact[m];
      const owed = modules.flatMap((m) => (before?.[m]?.startsWith(RECHECK) ? [before[m]] : []));
      const again = r.reverify !== undefined ? [`reverify:${r.reverify}`] : [];
      const chargeId = r.chargeKey ? `${connector.id}:${r.chargeKey}` : `${connector.id}:${r.key}:${[modules.map((m) => hashes[m]).join('.'), ...owed, ...again].join(':')}`;
      due.push({ record: { key: r.key, input }, chargeId, hashes, modules });
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
          errors.push({ key: record.key, error: verdictError(finished.result) ?? 'failed' });
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

  /**
   * Records a webhook delivered, validated and written back now, outside the schedule and without the run lease (a
   * delivery cannot wait for a run to end): the same change detection and charge keys make a record that a run checks
   * at the same time cost nothing twice. Kept as a run (`triggered_by: webhook`) for the history.
   */
  async processDelivery(connector: ConnectorRow, records: PlatformRecord[]): Promise<void> {
    const runId = `run_${crypto.randomBytes(12).toString('base64url')}`;
    const counts: RunCounts = {
      records_read: records.length, records_validated: 0, records_written: 0, records_skipped: 0, records_failed: 0, credits_charged: 0,
    };
    const errors: { key: string; error: string }[] = [];
    await this.store.startRun(runId, connector, 'webhook');
    let session: ConnectorSession | undefined;
    let http: GuardedHttp | undefined;
    try {
      const plugin = this.registry.get(connector.type);
      if (!plugin) throw new ConnectorError('api_error', `no plugin for connector type ${connector.type}`);
      http = this.guardFor(plugin.urlsOf(connector.settings));
      session = await within(plugin.open({
        settings: connector.settings, credentials: this.secrets.open(connector.sealed), writeBack: connector.writeBack, log: this.log,
        fetch: http.fetch,
      }), OPEN_TIMEOUT_MS, 'opening the platform session');
      for (const url of [...plugin.urlsOf(connector.settings), ...(session.urls?.() ?? [])]) {
        await checkPlatformUrl(url, this.options.allowPrivate);
      }
      const capped = await this.options.caps?.reached(connector);
      const budget = await this.capBudget(connector);
      const validated = capped
        ? { outcome: { kind: 'done' as const }, byKey: new Map(), answers: new Map() }
        : await this.validatePage(connector, records, counts, errors, () => this.stopping, budget);
      await this.writePage(connector, session, validated, counts, errors);
      await this.store.saveRun(runId, counts, errors);
      const cappedNow = capped ?? (validated.outcome.kind === 'paused' ? null : (await this.options.caps?.reached(connector, 0.5)) ?? null);
      if (cappedNow) {
        const detail = `${cappedNow.spent} of the connector's ${cappedNow.cap} credits this month are used`;
        await this.store.finishRun(runId, 'paused', 'credit_cap_reached', detail);
        await this.store.update(connector.id, { status: 'paused', reason: 'credit_cap_reached', reasonDetail: detail });
      } else if (validated.outcome.kind === 'paused') {
        await this.store.finishRun(runId, 'paused', 'credits_exhausted', `the next record needs ${validated.outcome.required} credits`);
        await this.store.update(connector.id, { status: 'paused', reason: 'credits_exhausted', reasonDetail: null });
      } else {
        await this.store.finishRun(runId, 'completed', null, null);
      }
    } catch (err) {
      await this.store.saveRun(runId, counts, errors).catch(() => undefined);
      const { reason, message, known } = failureOf(err);
      await this.store.finishRun(runId, 'failed', reason, message);
      if (!known) this.log.error({ err, connector_id: connector.id }, 'webhook delivery not processed');
    } finally {
      await session?.close?.().catch(() => undefined);
      await http?.close().catch(() => undefined);
    }
  }

  /** Whether a connector paused for credits can go on (its account has credits again). */
  async canResume(connector: ConnectorRow): Promise<boolean> {
    return (await this.ledger.balance(connector.accountId)) > 0;
  }
}
