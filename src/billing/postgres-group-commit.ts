/**
 * PostgreSQL: the ledger's movements committed together (src/billing/README.md says why and how it was measured).
 *
 * With durable commits every COMMIT waits for a WAL flush (milliseconds on a real disk), and a debit locks the
 * account's grant rows until its COMMIT: one transaction per request bounds one account at a few hundred requests a
 * second, whatever the fleet. Here a process commits its movements in groups: one group at a time, each made of
 * whatever was asked for while the previous one committed. A caller's promise settles only once its group has
 * committed (an answer is sent only after its debit is durable); if the database goes away meanwhile, every caller of
 * the group gets the error and settles as in doubt (src/billing/in-doubt-debits.ts).
 *
 * A group's plain debits (the request path) are made in ONE statement when this process knows the account's grants:
 * an UPDATE of every grant drawn on and an INSERT of every entry, in one autocommit statement (one round trip, one WAL
 * flush). What it knows may be stale (another instance debits the same grants): the grants' CHECK (remaining >= 0)
 * then fails the whole statement, nothing is written, and the group goes the locked way. A debit the known grants
 * cannot cover, a grant that has expired, a `once` debit (a bulk record: its earlier debit must be looked for under
 * the grants' lock) and every other movement go the locked way: one transaction that locks the grants of every
 * account concerned (SELECT … FOR UPDATE, always in the same order), then makes the debits together in a fixed handful
 * of statements, then runs the other movements' own steps.
 */
import { isDatabaseUnavailable, type Database } from '../db/data-source.js';
import { all, driveOn, run, runSteps, type Step, type Steps } from '../db/transaction-steps.js';
import { creditsByGrant, perGrant, planDraws, type DebitOutcome, type Draw, type GrantRow, type LiveGrant } from './draws.js';
import { MODULES, type Charge, type Module } from './pricing.js';

/** At most this many movements in one group (the rest wait for the next, which follows at once). */
const GROUP_MAX = 1_000;
/** How long this process trusts what it knows of an account's grants (another instance may have added one). */
const KNOWN_GRANTS_MS = 2_000;
const KNOWN_GRANTS_MAX_ACCOUNTS = 10_000;

/** A debit asked for: CreditLedger.debit's arguments, and when it was asked. */
export interface DebitAsked {
  accountId: string;
  charges: Charge[];
  requestId: string;
  once: boolean;
  at: number;
}

interface Queued {
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** The movement as its own transaction's steps (the way it goes when a group fails for another's sake). */
  alone: () => Steps<unknown>;
  debit?: DebitAsked;
}

const keyOf = (accountId: string, requestId: string) => `${accountId} ${requestId}`;

/** Columns of ledger_entries, one array each, for the INSERT … SELECT FROM unnest(…) of many entries at once. */
class EntryColumns {
  readonly columns: unknown[][] = [[], [], [], [], [], [], [], [], []];

  add(d: DebitAsked, draws: readonly Draw[]): void {
    for (const [grantId, c] of creditsByGrant('debit', draws)) {
      [d.accountId, grantId, 'debit', c.address + c.email + c.phone, c.address, c.email, c.phone, d.requestId, d.at]
        .forEach((value, column) => this.columns[column].push(value));
    }
  }
}

/**
 * One statement: every grant drawn on less what is taken from it, and every entry, all or nothing (the grants' CHECK
 * fails it whole rather than let one go below zero). Answers the grants' remaining credits.
 */
function writeDebits(taken: Map<string, number>, entries: EntryColumns): Step {
  return all(
    `WITH drawn AS (
       UPDATE credit_grants AS g SET remaining = g.remaining - d.taken FROM unnest($1::text[], $2::int[]) AS d(id, taken)
       WHERE g.id = d.id RETURNING g.id, g.remaining),
     entries AS (
       INSERT INTO ledger_entries (account_id, grant_id, kind, credits, address_credits, email_credits, phone_credits,
         request_id, created_at)
       SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[], $10::text[], $11::bigint[]))
     SELECT id, remaining FROM drawn`,
    [...taken.keys()], [...taken.values()], ...entries.columns,
  );
}

/** The debits planned against grants as known, in order; the outcome of each (its `remaining` as of its turn). */
function planTogether(
  asked: readonly DebitAsked[], grantsOf: Map<string, LiveGrant[]>, earlier: Map<string, Draw[]>,
): { outcomes: (DebitOutcome | null)[]; taken: Map<string, number>; entries: EntryColumns } {
  const taken = new Map<string, number>();
  const entries = new EntryColumns();
  const outcomes = asked.map((d): DebitOutcome | null => {
    const grants = grantsOf.get(d.accountId);
    if (!grants) return null;
    const balance = grants.reduce((sum, g) => sum + g.remaining, 0);
    const key = keyOf(d.accountId, d.requestId);
    const before = d.once ? earlier.get(key) : undefined;
    if (before) return { ok: true, charged: before.reduce((sum, x) => sum + x.credits, 0), remaining: balance, draws: before, repeated: true };
    const required = d.charges.reduce((sum, c) => sum + c.credits, 0);
    const draws = planDraws(grants, d.charges);
    if (!draws) return { ok: false, balance, required };
    for (const [grantId, credits] of perGrant(draws)) {
      grants.find((g) => g.id === grantId)!.remaining -= credits;
      taken.set(grantId, (taken.get(grantId) ?? 0) + credits);
    }
    entries.add(d, draws);
    if (d.once) earlier.set(key, draws);
    return { ok: true, charged: required, remaining: balance - required, draws, repeated: false };
  });
  return { outcomes, taken, entries };
}

/**
 * The locked way: the debits of a group made together, each with CreditLedger.debit's meaning, in order: the grants
 * of every account concerned read and locked in one SELECT … FOR UPDATE (in the order of the ledger's own, so that
 * two instances cannot deadlock), expired ones written off, the earlier debits of the `once` keys read in one SELECT,
 * the draws planned here, and one statement for every grant and entry (writeDebits). Answers the outcomes and the
 * grants as they are once it commits.
 */
function* debitTogether(asked: readonly DebitAsked[]): Steps<{ outcomes: DebitOutcome[]; grantsOf: Map<string, LiveGrant[]> }> {
  const accounts = [...new Set(asked.map((d) => d.accountId))];
  const at = Math.max(...asked.map((d) => d.at));
  const rows = (yield all(
    `SELECT id, account_id, remaining, expires_at FROM credit_grants WHERE account_id = ANY($1) AND remaining > 0
     ORDER BY account_id, expires_at, created_at, id FOR UPDATE`, accounts,
  )) as (GrantRow & { account_id: string })[];
  const grantsOf = new Map<string, LiveGrant[]>(accounts.map((a) => [a, []]));
  for (const row of rows) {
    const remaining = Number(row.remaining);
    if (Number(row.expires_at) <= at) {
      yield run(`UPDATE credit_grants SET remaining = 0 WHERE id = $1`, row.id);
      yield run(
        `INSERT INTO ledger_entries (account_id, grant_id, kind, credits, created_at) VALUES ($1, $2, 'expire', $3, $4)`,
        row.account_id, row.id, -remaining, at,
      );
    } else {
      grantsOf.get(row.account_id)!.push({ id: row.id, remaining, expiresAt: Number(row.expires_at) });
    }
  }
  // After the grants' lock: a concurrent attempt of the same key has committed or waits behind us.
  const earlier = new Map<string, Draw[]>();
  const onceIds = [...new Set(asked.filter((d) => d.once).map((d) => d.requestId))];
  if (onceIds.length) {
    const found = (yield all(
      // One index look-up per key, whatever PostgreSQL's statistics say (OFFSET 0 keeps the planner from turning it
      // into a join): with none yet (a ledger that grows fast), `request_id = ANY(…)` of a group's hundred keys was
      // judged to take half the table, and it read the account's every entry instead (10 ms a group and growing).
      `SELECT e.account_id, e.request_id, e.grant_id, SUM(-e.address_credits) AS address, SUM(-e.email_credits) AS email,
         SUM(-e.phone_credits) AS phone, SUM(CASE WHEN e.kind = 'debit' THEN 1 ELSE 0 END) AS debits
       FROM unnest($1::text[]) AS k(request_id)
       CROSS JOIN LATERAL (
         SELECT account_id, request_id, grant_id, address_credits, email_credits, phone_credits, kind FROM ledger_entries
         WHERE request_id = k.request_id AND account_id = ANY($2) AND kind IN ('debit', 'refund') OFFSET 0) AS e
       GROUP BY e.account_id, e.request_id, e.grant_id`, onceIds, accounts,
    )) as ({ account_id: string; request_id: string; grant_id: string; debits: number | string } & Record<Module, number | string>)[];
    // A debit refunded in full is still a debit ([]): the key is not charged again.
    const debited = new Set(found.filter((r) => Number(r.debits) > 0).map((r) => keyOf(r.account_id, r.request_id)));
    for (const key of debited) earlier.set(key, []);
    for (const r of found) {
      const draws = earlier.get(keyOf(r.account_id, r.request_id));
      for (const module of MODULES) if (draws && Number(r[module]) > 0) draws.push({ grantId: r.grant_id, module, credits: Number(r[module]) });
    }
  }
  const { outcomes, taken, entries } = planTogether(asked, grantsOf, earlier);
  if (taken.size) {
    const drawn = (yield writeDebits(taken, entries)) as unknown[];
    // Cannot happen under the lock; if it ever does, the transaction is rolled back rather than half made.
    if (drawn.length !== taken.size) throw new Error('ledger: a grant changed under the lock');
  }
  return { outcomes: outcomes as DebitOutcome[], grantsOf };
}

export class PostgresGroupCommit {
  private queued: Queued[] = [];
  private committing = false;
  /** Each account's live grants as this process last wrote or read them, and when it read them. */
  private readonly known = new Map<string, { grants: LiveGrant[]; readAt: number }>();

  constructor(private readonly db: Database, private readonly clock: () => number = () => performance.now()) {}

  /** A debit, committed with the next group. `alone`: the same debit as steps of its own transaction. */
  debit(asked: DebitAsked, alone: () => Steps<DebitOutcome>): Promise<DebitOutcome> {
    return this.enqueue({ alone, debit: asked });
  }

  /** Any other movement's steps, run in the next group's locked transaction. */
  steps<T>(steps: () => Steps<T>): Promise<T> {
    return this.enqueue({ alone: steps });
  }

  private enqueue<T>(item: { alone: () => Steps<T>; debit?: DebitAsked }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queued.push({ ...item, resolve: resolve as (v: unknown) => void, reject });
      if (this.committing) return;
      this.committing = true;
      // After the current turn of the event loop, so that the movements asked for in it share the first commit.
      setImmediate(() => void this.commitQueued());
    });
  }

  private async commitQueued(): Promise<void> {
    while (this.queued.length) {
      const group = this.queued.splice(0, GROUP_MAX);
      const plain = group.filter((item) => item.debit && !item.debit.once);
      const left = plain.length ? await this.debitAsKnown(plain) : [];
      const locked = group.filter((item) => !plain.includes(item) || left.includes(item));
      if (locked.length) await this.commitLocked(locked);
    }
    this.committing = false;
  }

  /** The account's live grants as this process knows them, if it knows them and not for too long. */
  knownGrants(accountId: string, at: number): LiveGrant[] | undefined {
    const known = this.known.get(accountId);
    if (!known || this.clock() - known.readAt > KNOWN_GRANTS_MS || known.grants.some((g) => g.expiresAt <= at)) return undefined;
    return known.grants;
  }

  private remember(accountId: string, grants: LiveGrant[], readAt = this.clock()): void {
    this.known.delete(accountId);
    if (this.known.size >= KNOWN_GRANTS_MAX_ACCOUNTS) this.known.delete(this.known.keys().next().value!);
    this.known.set(accountId, { grants: grants.filter((g) => g.remaining > 0), readAt });
  }

  /**
   * The plain debits that the grants as known cover, in one statement; answers the items left for the locked way.
   * Accounts not known (or known too long ago) are read first, without a lock: one SELECT for all of them.
   */
  private async debitAsKnown(items: Queued[]): Promise<Queued[]> {
    const at = Math.max(...items.map((item) => item.debit!.at));
    const unknown = [...new Set(items.map((item) => item.debit!.accountId))].filter((a) => !this.knownGrants(a, at));
    if (unknown.length) {
      const readAt = this.clock();
      try {
        const rows = await this.db.all<GrantRow & { account_id: string }>(
          `SELECT id, account_id, remaining, expires_at FROM credit_grants WHERE account_id = ANY($1) AND remaining > 0
           ORDER BY account_id, expires_at, created_at, id`, [unknown],
        );
        for (const a of unknown) {
          this.remember(a, rows.filter((r) => r.account_id === a)
            .map((r) => ({ id: r.id, remaining: Number(r.remaining), expiresAt: Number(r.expires_at) })), readAt);
        }
      } catch {
        return items; // the locked way says what is wrong
      }
    }
    // Planned on copies: what is known changes only once the statement has committed.
    const grantsOf = new Map<string, LiveGrant[]>();
    for (const item of items) {
      const a = item.debit!.accountId;
      const grants = this.knownGrants(a, at);
      if (grants && !grantsOf.has(a)) grantsOf.set(a, grants.map((g) => ({ ...g })));
    }
    const { outcomes, taken, entries } = planTogether(items.map((item) => item.debit!), grantsOf, new Map());
    // A refusal is never made on what is known: the locked way reads the grants again first.
    const made = items.filter((_, i) => outcomes[i]?.ok);
    if (!made.length) return items;
    try {
      const write = writeDebits(taken, entries);
      const drawn = await this.db.all<{ id: string; remaining: number | string }>(write.sql, write.params);
      const remaining = new Map(drawn.map((r) => [r.id, Number(r.remaining)]));
      for (const [a, grants] of grantsOf) {
        // What the statement answered is the truth for the grants it drew on (another instance may have drawn too).
        for (const g of grants) if (remaining.has(g.id)) g.remaining = remaining.get(g.id)!;
        this.remember(a, grants);
      }
    } catch (err) {
      for (const item of made) this.known.delete(item.debit!.accountId);
      if (isDatabaseUnavailable(err)) {
        for (const item of made) item.reject(err); // in doubt: the statement may have committed
        return items.filter((item) => !made.includes(item));
      }
      return items; // stale grants (the CHECK failed the statement: nothing was written), or another failure
    }
    // Each debit's `remaining` as of its turn: the account's balance now, plus what the debits after it took.
    const balance = new Map([...grantsOf].map(([a, grants]) => [a, grants.reduce((sum, g) => sum + g.remaining, 0)]));
    for (let i = items.length - 1; i >= 0; i--) {
      const outcome = outcomes[i];
      if (!outcome?.ok) continue;
      const a = items[i].debit!.accountId;
      outcome.remaining = balance.get(a)!;
      balance.set(a, outcome.remaining + outcome.charged);
      items[i].resolve(outcome);
    }
    return items.filter((item) => !made.includes(item));
  }

  /** The locked way: one transaction for the group; if one movement fails it, each again alone. */
  private async commitLocked(group: Queued[]): Promise<void> {
    const debits = group.filter((item) => item.debit);
    let outcomes: unknown[];
    let grantsOf: Map<string, LiveGrant[]> | undefined;
    try {
      outcomes = await this.db.pgTransaction(async (tx) => {
        const made = new Map<Queued, unknown>();
        if (debits.length) {
          const together = await driveOn(tx, () => debitTogether(debits.map((item) => item.debit!)));
          debits.forEach((item, i) => made.set(item, together.outcomes[i]));
          grantsOf = together.grantsOf;
        }
        for (const item of group) if (!item.debit) made.set(item, await driveOn(tx, item.alone));
        return group.map((item) => made.get(item));
      });
    } catch (err) {
      this.known.clear();
      // The database went away (the COMMIT may or may not have landed: every caller is told, and settles as in
      // doubt), or the group had only this movement: its own failure.
      if (group.length === 1 || isDatabaseUnavailable(err)) {
        for (const item of group) item.reject(err);
        return;
      }
      // One movement failed and took the group with it: each alone this time, so that only it fails.
      for (const item of group) await runSteps(this.db, item.alone).then(item.resolve, item.reject);
      return;
    }
    // Other movements (refunds, grants) change grants this process does not follow: read them again next time.
    if (debits.length === group.length && grantsOf) for (const [a, grants] of grantsOf) this.remember(a, grants);
    else this.known.clear();
    group.forEach((item, i) => item.resolve(outcomes[i]));
  }
}
