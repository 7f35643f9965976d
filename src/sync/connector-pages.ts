/**
 * What every flow of a connector's job shares (connector-runs.ts): one page of the platform's records validated (only
 * what changed, charged once under the record's charge key, within the connector's monthly cap) and written back, the
 * new input hashes kept; the write-backs an earlier run owes; the e-mail answers that arrived later.
 */
import crypto from 'node:crypto';
import type { Logger } from '../log.js';
import { type FlowOutcome, processRecords, Slots, type TurnGate } from '../bulk/process-records.js';
import { sourceRecordOf, validateRecord, type SourceRecord } from '../bulk/record-pipeline.js';
import type { OutboundPolicy } from '../net/outbound-guard.js';
import { tenantSafeText } from '../net/tenant-safe-text.js';
import type { PolicyRules } from '../contact-check/policies.js';
import type { ContactAnswer, ContactValidation } from '../contact-check/validate-contact.js';
import type { PolicyLookup } from './connector-policy.js';
import type { LaterAnswers } from './later-answers.js';
import type { ConnectorRow, ConnectorStore, RecordState, RunCounts } from './connector-store.js';
import type { ConnectorSession, PlatformRecord, WriteBackItem, WriteBackOutcome } from './plugin.js';
import type { CreditCaps, CapState } from './credit-caps.js';

const MODULES = ['address', 'email', 'phone'] as const;
type Module = (typeof MODULES)[number];
const PENDING_WRITES_PER_RUN = 1_000;
/** What one attempt works with. */
export interface AttemptWork {
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
export interface ValidatedPage {
  outcome: FlowOutcome;
  byKey: Map<string, { record: SourceRecord; chargeId: string; hashes: Record<Module, string | null>; modules: Module[] }>;
  answers: Map<string, ContactAnswer>;
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

/** A record's write-back outcome with the platform's reason as a tenant may see it. */
const shownOutcome = (o: WriteBackOutcome): WriteBackOutcome => (o.error ? { ...o, error: tenantSafeText(o.error) } : o);

export class ConnectorPages {
  /** Jobs whose attempt stopped at the connector's monthly credit cap: their completion pauses the connector. */
  readonly capped = new Map<string, CapState>();

  constructor(
    readonly store: ConnectorStore,
    private readonly validation: ContactValidation,
    readonly log: Logger,
    readonly options: ConnectorRunOptions,
  ) {}

  /** Whether the connector's monthly cap leaves no room for `next` credits; the job then ends paused by it. */
  async stoppedByCap(jobId: string, connector: ConnectorRow, next = 1): Promise<boolean> {
    const capped = await this.options.caps?.reached(connector, next);
    if (capped) this.capped.set(jobId, capped);
    return Boolean(capped);
  }

  /** The credits the connector may still take this month (Infinity without a cap). */
  async capBudget(connector: ConnectorRow): Promise<number> {
    const state = await this.options.caps?.state(connector);
    return state?.cap == null ? Infinity : Math.max(0, state.cap - state.spent);
  }

  /**
   * One page's records: those whose checked input changed are validated (and paid for). Under a credit cap (`budget`,
   * the credits left this month) they are validated one at a time and the page stops once the budget is spent: a
   * record's price is known only as it is charged, so the record that reaches the cap may pass it by its own price.
   * Every answer's `next_action` follows `policy` (the connector's; absent: the fixed table).
   */
  async validatePage(
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
  async writePage(
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
  async writeLater(work: AttemptWork): Promise<FlowOutcome> {
    if (!this.options.laterAnswers) return { kind: 'done' };
    const { written, failed } = await this.options.laterAnswers.write(work.connector.id, work.session, work.policy ?? null);
    work.counts.records_written += written;
    work.counts.records_failed += failed.length;
    work.errors.push(...failed);
    return { kind: 'done' };
  }

  /** Write-backs an earlier run validated and paid for but could not save: tried again, never charged again. */
  async retryPendingWrites(connector: ConnectorRow, session: ConnectorSession, counts: RunCounts, errors: { key: string; error: string }[]) {
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
