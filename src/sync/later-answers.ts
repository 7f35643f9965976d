/**
 * The second write-back (docs/email.md#answers-that-arrive-later): an e-mail answer that arrived later
 * (src/email-checks) for a connector's record is written onto the platform record by the connector's next run, beside
 * the answer the first write-back gave (`unknown`, with its `check_id`). The check is the outbox: it keeps until
 * written (or given up, or superseded by a newer check of the record's e-mail), so a platform that is down, a restart
 * or another instance loses nothing; the run is the one writer of the connector's records. Free: the request was
 * charged for the answer it got.
 */
import { emailNextAction } from '../contact-check/next-action.js';
import type { PolicyRules } from '../contact-check/policies.js';
import type { EmailResult } from '../validation/types.js';
import type { ConnectorSession, WriteBackItem } from './plugin.js';

/** Where the answered checks are kept (src/email-checks/email-check-store.ts), as this needs them. */
export interface LaterAnswerStore {
  owedConnectors(limit: number): Promise<string[]>;
  unwritten(connectorId: string, limit: number): Promise<{ id: string; origin: { key: string } | null; result: EmailResult | null; finishedAt: number | null }[]>;
  markWritten(ids: readonly string[], outcome: string, at: number): Promise<void>;
  supersede(connectorId: string, keys: readonly string[], before: number, keep: readonly string[], at: number): Promise<void>;
}

/** Connectors a look starts later runs for at most (the next look starts the rest). */
const OWED_PER_LOOK = 50;

/** Later answers a run writes at most (the next run writes the rest). */
export const LATER_ANSWERS_PER_RUN = 500;

export interface LaterWriteOutcome {
  written: number;
  failed: { key: string; error: string }[];
}

export class LaterAnswers {
  constructor(private readonly store: LaterAnswerStore, private readonly now: () => number = Date.now) {}

  /**
   * The connector's answered checks written back, the e-mail module alone, its `next_action` under the connector's
   * policy. A record the platform refuses is given up with the platform's reason (it is the record's fault, not the
   * service's: a deleted contact, a validation rule); a session that fails throws, and the checks wait for the next run.
   */
  async write(connectorId: string, session: ConnectorSession, policy: PolicyRules | null): Promise<LaterWriteOutcome> {
    const owed = (await this.store.unwritten(connectorId, LATER_ANSWERS_PER_RUN)).filter((c) => c.origin && c.result);
    if (!owed.length) return { written: 0, failed: [] };
    // One answer a record: the newest (a record's e-mail checked twice before either answered).
    const byKey = new Map<string, (typeof owed)[number]>();
    for (const check of owed) byKey.set(check.origin!.key, check);
    const items: WriteBackItem[] = [...byKey.values()].map((c) => ({
      key: c.origin!.key,
      email: { ...c.result!, next_action: emailNextAction(c.result!, policy?.email) },
      validatedAt: new Date(c.finishedAt ?? this.now()).toISOString(),
    }));
    const outcomes = new Map((await session.writeBack(items)).map((o) => [o.key, o]));
    const at = this.now();
    const failed: LaterWriteOutcome['failed'] = [];
    const written: string[] = [];
    for (const check of owed) {
      const o = outcomes.get(check.origin!.key);
      if (o?.ok) written.push(check.id);
      else {
        const error = o?.error ?? 'not written';
        if (byKey.get(check.origin!.key) === check) failed.push({ key: check.origin!.key, error: `later e-mail answer: ${error}` });
        await this.store.markWritten([check.id], `failed: ${error}`, at);
      }
    }
    await this.store.markWritten(written, 'written', at);
    return { written: items.filter((i) => outcomes.get(i.key)?.ok).length, failed };
  }

  /** Active connectors owed some write-backs (at most `limit`), for the look once a second. */
  owed(limit = OWED_PER_LOOK): Promise<string[]> {
    return this.store.owedConnectors(limit);
  }

  /**
   * A page's records whose e-mail was checked now (validated at `since` or later): their older checks are never
   * written, this answer stands. `keep`: the checks this page's answers carry (a check joined again stays).
   */
  supersede(connectorId: string, keys: readonly string[], since: number, keep: readonly string[]): Promise<void> {
    return keys.length ? this.store.supersede(connectorId, keys, since, keep, this.now()) : Promise.resolve();
  }
}
