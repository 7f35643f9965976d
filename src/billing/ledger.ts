/**
 * The credit ledger (docs/api.md#credits-and-prices). Grants carry credits and an expiry; every movement is appended to ledger_entries.
 * Debits draw from the grant that expires first; expired credits are never spendable (decided at read time: an expired
 * grant's rest is written off with an `expire` entry the next time the account's grants are read for a debit).
 *
 * The algorithms are written once, as generators that yield their SQL, and driven two ways: synchronously inside
 * BEGIN IMMEDIATE on the raw better-sqlite3 handle (nothing else can run between the statements; movements of one
 * event-loop turn, or of 2 ms under load, share one commit), and asynchronously inside a PostgreSQL transaction that locks the account's
 * grant rows (SELECT … FOR UPDATE). Either way a caller's promise settles only once its movement is committed, and
 * the movements asked for meanwhile share the next commit (group commit, src/billing/README.md): on PostgreSQL one
 * transaction at a time per process, whose debits are made together in a fixed handful of statements (debitTogether).
 */
import type { Database } from '../db/data-source.js';
import { all, driveSync, run, type Step, type Steps } from '../db/transaction-steps.js';
import { newId } from './api-keys.js';
import { PostgresGroupCommit } from './postgres-group-commit.js';
import { creditsByGrant, perGrant, planDraws, type DebitOutcome, type Draw, type GrantRow, type LiveGrant } from './draws.js';
import { MODULES, type Charge, type Module } from './pricing.js';

export { planDraws, type DebitOutcome, type Draw } from './draws.js';


export interface Grant {
  id: string;
  kind: 'free' | 'pack' | 'admin';
  credits: number;
  remaining: number;
  price_usd: number | null;
  created_at: string;
  expires_at: string;
  expired: boolean;
}

class BatchItemFailed extends Error {
  constructor(readonly cause: unknown) {
    super('a ledger movement failed inside a group commit');
  }
}

/** The multi-row INSERT of ledger entries, by row count: one text (and one prepared statement) per count. */
const insertEntriesSql: string[] = [];
function insertEntriesSqlFor(rows: number): string {
  let sql = insertEntriesSql[rows];
  if (sql === undefined) {
    const values = Array.from({ length: rows }, (_, i) => {
      const n = 6 * i + 4;
      return `($1, $${n}, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $2, $3)`;
    });
    sql = `INSERT INTO ledger_entries (account_id, grant_id, kind, credits, address_credits, email_credits, phone_credits,
      request_id, created_at) VALUES ${values.join(', ')}`;
    insertEntriesSql[rows] = sql;
  }
  return sql;
}

/**
 * One multi-row INSERT for the ledger entries of a movement: one entry per grant, its credits split by module (a
 * debit's counted negative).
 */
function insertEntries(accountId: string, requestId: string, at: number, kind: 'debit' | 'refund', draws: readonly Draw[]): Step {
  const byGrant = creditsByGrant(kind, draws);
  const params: unknown[] = [accountId, requestId, at];
  for (const [grantId, c] of byGrant) params.push(grantId, kind, c.address + c.email + c.phone, c.address, c.email, c.phone);
  return { op: 'run', sql: insertEntriesSqlFor(byGrant.size), params };
}

/** Per module: credits spent (debits less refunds) and requests charged, since a time. */
const USAGE_SQL = `SELECT ${MODULES.map((m) => `SUM(-${m}_credits) AS ${m}_credits,
    COUNT(DISTINCT CASE WHEN kind = 'debit' AND ${m}_credits <> 0 THEN request_id END) AS ${m}_requests`).join(', ')}
  FROM ledger_entries WHERE account_id = $1 AND created_at >= $2 AND kind IN ('debit', 'refund')`;

const GROUP_COMMIT_SPACING_MS = 2;
/** A day in milliseconds, written into SQL (integer division by it gives the UTC day on both databases). */
const DAY = 86_400_000;
const GRANT_CACHE_MAX_ACCOUNTS = 10_000;

const LIVE_GRANTS_SQL = `SELECT id, remaining, expires_at FROM credit_grants WHERE account_id = $1 AND remaining > 0
       ORDER BY expires_at, created_at, id`;

export class CreditLedger {
  private readonly liveGrantsSql: string;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.liveGrantsSql = LIVE_GRANTS_SQL + (db.dialect === 'postgres' ? ' FOR UPDATE' : '');
    if (db.dialect === 'postgres') this.pgCommits = new PostgresGroupCommit(db);
  }

  /** PostgreSQL: the movements of this process committed together (postgres-group-commit.ts). */
  private readonly pgCommits?: PostgresGroupCommit;

  private execute<T>(steps: () => Steps<T>): Promise<T> {
    if (this.db.dialect === 'sqlite') {
      return new Promise<T>((resolve, reject) => {
        this.queued.push({ work: () => driveSync(this.db, steps), resolve: resolve as (v: unknown) => void, reject });
        if (this.queued.length === 1) this.scheduleCommit();
      });
    }
    return this.pgCommits!.steps(steps);
  }

  /**
   * SQLite only: each account's live grants as this process last read or wrote them, so that a debit need not read
   * them again. Valid while no other connection has written (Database.externalChangeStamp, checked at every BEGIN
   * IMMEDIATE); dropped whole when any movement fails (its transaction, or savepoint, is rolled back). On PostgreSQL
   * other instances write too, and the rows must be locked anyway: never used there.
   */
  private readonly grantCache = new Map<string, LiveGrant[]>();
  private grantCacheStamp: number | null = null;

  private cachedGrants(accountId: string, at: number): LiveGrant[] | undefined {
    const grants = this.grantCache.get(accountId);
    // A grant that has expired since must be written off: the full read does that.
    if (grants?.some((g) => g.expiresAt <= at)) this.grantCache.delete(accountId);
    else return grants;
  }

  private rememberGrants(accountId: string, grants: LiveGrant[]): void {
    if (this.db.dialect !== 'sqlite') return;
    // Most recently used last; the least recently used account goes first when the cache is full.
    this.grantCache.delete(accountId);
    if (this.grantCache.size >= GRANT_CACHE_MAX_ACCOUNTS) this.grantCache.delete(this.grantCache.keys().next().value!);
    this.grantCache.set(accountId, grants.every((g) => g.remaining > 0) ? grants : grants.filter((g) => g.remaining > 0));
  }


  /**
   * When idle, commit at once (after the current turn of the event loop); under load, at most one commit every
   * GROUP_COMMIT_SPACING_MS, so that the movements of many requests share it.
   */
  private scheduleCommit(): void {
    const wait = this.lastCommitAt + GROUP_COMMIT_SPACING_MS - performance.now();
    if (wait <= 0) setImmediate(() => this.commitQueued());
    else setTimeout(() => this.commitQueued(), wait);
  }

  private lastCommitAt = -Infinity;

  /** SQLite movements waiting for the next group commit. */
  private queued: { work: () => unknown; resolve: (value: unknown) => void; reject: (err: unknown) => void }[] = [];

  /**
   * Group commit: the movements asked for during one turn of the event loop run in one BEGIN IMMEDIATE transaction,
   * each inside its own SAVEPOINT (so each stays all-or-nothing), and are committed together — one WAL write for
   * many requests instead of one each. Nothing else can run between the statements: better-sqlite3 is synchronous.
   */
  private commitQueued(): void {
    this.lastCommitAt = performance.now();
    const batch = this.queued.splice(0);
    let outcomes: { ok: boolean; value: unknown }[];
    try {
      outcomes = this.commitBatch(batch, false);
    } catch (err) {
      if (!(err instanceof BatchItemFailed)) {
        for (const item of batch) item.reject(err); // BEGIN or COMMIT failed: none of the batch happened
        return;
      }
      // One movement failed and the whole batch was rolled back: again, each in its own SAVEPOINT this time.
      try {
        outcomes = this.commitBatch(batch, true);
      } catch (again) {
        for (const item of batch) item.reject(again);
        return;
      }
    }
    batch.forEach((item, i) => (outcomes[i].ok ? item.resolve(outcomes[i].value) : item.reject(outcomes[i].value)));
  }

  /**
   * One BEGIN IMMEDIATE … COMMIT for the batch. Optimistically without savepoints (a movement checks before it writes,
   * so failures are rare); with `isolate`, each movement in a SAVEPOINT so that a failing one leaves the rest.
   */
  private commitBatch(batch: { work: () => unknown }[], isolate: boolean): { ok: boolean; value: unknown }[] {
    try {
      return this.db.immediate(() => {
        const stamp = this.db.externalChangeStamp();
        if (stamp !== this.grantCacheStamp) {
          this.grantCache.clear();
          this.grantCacheStamp = stamp;
        }
        return batch.map((item) => {
          if (!isolate) {
            try {
              return { ok: true, value: item.work() };
            } catch (err) {
              throw new BatchItemFailed(err);
            }
          }
          try {
            return { ok: true, value: this.db.savepoint(item.work) };
          } catch (err) {
            this.grantCache.clear();
            return { ok: false, value: err };
          }
        });
      });
    } catch (err) {
      this.grantCache.clear();
      throw err;
    }
  }

  /** Locks (PostgreSQL) and reads the account's grants with credits left; writes off the expired ones. */
  private *liveGrants(accountId: string, at: number): Steps<LiveGrant[]> {
    const rows = (yield all(this.liveGrantsSql, accountId)) as GrantRow[];
    const live: LiveGrant[] = [];
    for (const row of rows) {
      const remaining = Number(row.remaining);
      const expiresAt = Number(row.expires_at);
      if (expiresAt <= at) {
        yield run(`UPDATE credit_grants SET remaining = 0 WHERE id = $1`, row.id);
        yield run(
          `INSERT INTO ledger_entries (account_id, grant_id, kind, credits, created_at) VALUES ($1, $2, 'expire', $3, $4)`,
          accountId, row.id, -remaining, at,
        );
      } else {
        live.push({ id: row.id, remaining, expiresAt });
      }
    }
    return live;
  }

  /**
   * A new grant. With `id` (a key the caller derives from what the grant pays for, a Checkout Session), the grant is
   * made at most once: INSERT … ON CONFLICT (id) DO NOTHING, so that a repeat (a redelivered event, a retry after a
   * crash) adds nothing and answers the grant as it stands.
   */
  async grant(
    accountId: string,
    grant: { kind: Grant['kind']; credits: number; expiresAt: number; priceUsd?: number | null; id?: string },
  ): Promise<Grant> {
    const at = this.now();
    const id = grant.id ?? newId('grant');
    const self = this;
    const earlier = await this.execute(function* (): Steps<Record<string, string | number | null> | null> {
      self.grantCache.delete(accountId);
      const inserted = (yield run(
        `INSERT INTO credit_grants (id, account_id, kind, credits, remaining, price_usd, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        id, accountId, grant.kind, grant.credits, grant.priceUsd ?? null, at, grant.expiresAt,
      )) as number;
      if (inserted === 0) {
        const [row] = (yield all(
          `SELECT id, account_id, kind, credits, remaining, price_usd, created_at, expires_at FROM credit_grants WHERE id = $1`, id,
        )) as Record<string, string | number | null>[];
        if (row?.account_id !== accountId) throw new Error(`ledger: grant ${id} belongs to another account`);
        return row;
      }
      yield run(
        `INSERT INTO ledger_entries (account_id, grant_id, kind, credits, created_at) VALUES ($1, $2, 'grant', $3, $4)`,
        accountId, id, grant.credits, at,
      );
      return null;
    });
    if (earlier) {
      const expired = Number(earlier.expires_at) <= this.now();
      return {
        id, kind: earlier.kind as Grant['kind'], credits: Number(earlier.credits), remaining: expired ? 0 : Number(earlier.remaining),
        price_usd: earlier.price_usd === null ? null : Number(earlier.price_usd),
        created_at: new Date(Number(earlier.created_at)).toISOString(), expires_at: new Date(Number(earlier.expires_at)).toISOString(), expired,
      };
    }
    return {
      id, kind: grant.kind, credits: grant.credits, remaining: grant.credits, price_usd: grant.priceUsd ?? null,
      created_at: new Date(at).toISOString(), expires_at: new Date(grant.expiresAt).toISOString(), expired: false,
    };
  }

  /**
   * Takes back what is left of one grant (a refunded pack): the grant's remaining credits go to 0 with an `expire`
   * entry for them. Through the ledger, so that its SQLite grant cache and PostgreSQL row locks see it like any other
   * movement. Idempotent: a grant with nothing left is left alone. Returns the credits withdrawn.
   */
  withdraw(accountId: string, grantId: string): Promise<number> {
    const at = this.now();
    const self = this;
    const lock = this.db.dialect === 'postgres' ? ' FOR UPDATE' : '';
    return this.execute(function* (): Steps<number> {
      self.grantCache.delete(accountId);
      const [row] = (yield all(
        `SELECT remaining FROM credit_grants WHERE id = $1 AND account_id = $2${lock}`, grantId, accountId,
      )) as { remaining: number | string }[];
      const remaining = Number(row?.remaining ?? 0);
      if (remaining <= 0) return 0;
      yield run(`UPDATE credit_grants SET remaining = 0 WHERE id = $1`, grantId);
      yield run(
        `INSERT INTO ledger_entries (account_id, grant_id, kind, credits, created_at) VALUES ($1, $2, 'expire', $3, $4)`,
        accountId, grantId, -remaining, at,
      );
      return remaining;
    });
  }

  /**
   * A hint, never a decision: whether this process's own view of the account's grants (SQLite's grant cache, the
   * grants PostgreSQL's group commit last saw) holds at least `credits`. False when it has no view.
   */
  mayCover(accountId: string, credits: number): boolean {
    const grants = this.pgCommits ? this.pgCommits.knownGrants(accountId, this.now()) : this.cachedGrants(accountId, this.now());
    return grants !== undefined && grants.reduce((sum, g) => sum + g.remaining, 0) >= credits;
  }

  /**
   * All or nothing: either every charge is drawn or nothing is, and the balance never goes below zero.
   *
   * With `once`, the request id is the key of a unit of work that may be attempted again (a bulk job's record, after
   * a crash or a repeated chunk): when the ledger already holds a debit under it, nothing new is drawn and the answer
   * is that debit as it stands now (less what was refunded since), so that a repeated refund gives back nothing twice.
   */
  debit(accountId: string, charges: Charge[], requestId: string, { once = false } = {}): Promise<DebitOutcome> {
    const at = this.now();
    const self = this;
    const required = charges.reduce((sum, c) => sum + c.credits, 0);
    // Nothing to charge (an e-mail alone whose answer is known to be refunded): no movement, just the balance.
    if (required === 0) return this.balance(accountId).then((remaining) => ({ ok: true, charged: 0, remaining, draws: [], repeated: false }));
    const alone = function* (): Steps<DebitOutcome> {
      const grants = self.cachedGrants(accountId, at) ?? (yield* self.liveGrants(accountId, at));
      const balance = grants.reduce((sum, g) => sum + g.remaining, 0);
      if (once) {
        // After the grants' lock (PostgreSQL): a concurrent attempt of the same key has committed or waits behind us.
        const earlier = yield* self.netDraws(accountId, requestId, true);
        if (earlier) {
          const charged = earlier.reduce((sum, d) => sum + d.credits, 0);
          return { ok: true, charged, remaining: balance, draws: earlier, repeated: true };
        }
      }
      const draws = planDraws(grants, charges);
      if (!draws) {
        self.rememberGrants(accountId, grants);
        return { ok: false, balance, required };
      }
      const taken = perGrant(draws);
      for (const [grantId, credits] of taken) {
        const changed = (yield run(
          `UPDATE credit_grants SET remaining = remaining - $1 WHERE id = $2 AND remaining >= $1`,
          credits, grantId,
        )) as number;
        // Cannot happen under the lock; if it ever does, the transaction is rolled back rather than overdrawn.
        if (changed !== 1) throw new Error(`ledger: grant ${grantId} changed under the lock`);
      }
      yield insertEntries(accountId, requestId, at, 'debit', draws);
      // In place: if this transaction is rolled back after all, the whole cache is dropped (commitBatch).
      for (const g of grants) g.remaining -= taken.get(g.id) ?? 0;
      self.rememberGrants(accountId, grants);
      return { ok: true, charged: required, remaining: balance - required, draws, repeated: false };
    };
    if (this.pgCommits) return this.pgCommits.debit({ accountId, charges, requestId, once, at }, alone);
    return this.execute(alone);
  }

  /**
   * Gives back what a request was charged for the given modules (all when none are named), to the grants it came
   * from. Idempotent: what was refunded already is not refunded again. Returns the credits refunded.
   */
  refund(accountId: string, requestId: string, modules?: Module[]): Promise<number> {
    const self = this;
    return this.execute(function* (): Steps<number> {
      const net = (yield* self.netDraws(accountId, requestId, false)) ?? [];
      return yield* self.giveBack(accountId, requestId, net.filter((d) => !modules || modules.includes(d.module)));
    });
  }

  /**
   * What a request's debits drew, less what was refunded since, per grant and module. With `onlyIfDebited`, null when
   * the request has no debit at all (a debit that was refunded in full is still a debit: []).
   */
  private *netDraws(accountId: string, requestId: string, onlyIfDebited: boolean): Steps<Draw[] | null> {
    const rows = (yield all(
      `SELECT grant_id, SUM(-address_credits) AS address, SUM(-email_credits) AS email, SUM(-phone_credits) AS phone,
         SUM(CASE WHEN kind = 'debit' THEN 1 ELSE 0 END) AS debits
       FROM ledger_entries WHERE account_id = $1 AND request_id = $2 AND kind IN ('debit', 'refund') GROUP BY grant_id`,
      accountId, requestId,
    )) as ({ grant_id: string; debits: number | string } & Record<Module, number | string>)[];
    if (onlyIfDebited && !rows.some((r) => Number(r.debits) > 0)) return null;
    return rows.flatMap((r) => MODULES
      .map((module) => ({ grantId: r.grant_id, module, credits: Number(r[module]) }))
      .filter((d) => d.credits > 0));
  }

  /**
   * Gives back draws that the caller knows this request's debit made and nothing has refunded yet (the use case
   * refunding an `unknown` e-mail from its own debit): `refund` without reading the entries first.
   */
  refundDraws(accountId: string, requestId: string, draws: Draw[]): Promise<number> {
    const self = this;
    return this.execute(function* (): Steps<number> {
      return yield* self.giveBack(accountId, requestId, draws);
    });
  }

  private *giveBack(accountId: string, requestId: string, due: Draw[]): Steps<number> {
    if (!due.length) return 0;
    const cached = this.grantCache.get(accountId);
    for (const [grantId, credits] of perGrant(due)) {
      yield run(`UPDATE credit_grants SET remaining = remaining + $1 WHERE id = $2`, credits, grantId);
      const grant = cached?.find((g) => g.id === grantId);
      if (grant) grant.remaining += credits;
      else this.grantCache.delete(accountId); // a grant emptied earlier has credits again: read them next time
    }
    yield insertEntries(accountId, requestId, this.now(), 'refund', due);
    return due.reduce((sum, r) => sum + r.credits, 0);
  }

  /** Spendable credits: grants not yet expired. */
  async balance(accountId: string): Promise<number> {
    const rows = await this.db.all<{ balance: number | string | null }>(
      `SELECT SUM(remaining) AS balance FROM credit_grants WHERE account_id = $1 AND expires_at > $2`,
      [accountId, this.now()],
    );
    return Number(rows[0]?.balance ?? 0);
  }

  async grants(accountId: string): Promise<Grant[]> {
    const at = this.now();
    const rows = await this.db.all<Record<string, string | number | null>>(
      `SELECT id, kind, credits, remaining, price_usd, created_at, expires_at FROM credit_grants
       WHERE account_id = $1 ORDER BY expires_at, created_at, id`,
      [accountId],
    );
    return rows.map((r) => {
      const expired = Number(r.expires_at) <= at;
      return {
        id: String(r.id),
        kind: r.kind as Grant['kind'],
        credits: Number(r.credits),
        remaining: expired ? 0 : Number(r.remaining),
        price_usd: r.price_usd === null ? null : Number(r.price_usd),
        created_at: new Date(Number(r.created_at)).toISOString(),
        expires_at: new Date(Number(r.expires_at)).toISOString(),
        expired,
      };
    });
  }

  /**
   * Per UTC day from `from` (inclusive) to `to` (exclusive), epoch milliseconds: the requests (or bulk records) charged
   * for each module, and the credits spent (debits less refunds). Days with nothing are absent.
   */
  async usageByDay(accountId: string, from: number, to: number): Promise<Map<number, Record<Module, number> & { credits: number }>> {
    const rows = await this.db.all<Record<string, number | string | null>>(
      `SELECT created_at / ${DAY} AS day, ${MODULES.map((m) => `COUNT(DISTINCT CASE WHEN kind = 'debit' AND ${m}_credits <> 0 THEN request_id END) AS ${m}`).join(', ')},
         SUM(-credits) AS credits
       FROM ledger_entries WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 AND kind IN ('debit', 'refund')
       GROUP BY created_at / ${DAY}`,
      [accountId, from, to],
    );
    return new Map(rows.map((r) => [Number(r.day), {
      address: Number(r.address ?? 0), email: Number(r.email ?? 0), phone: Number(r.phone ?? 0), credits: Number(r.credits ?? 0),
    }]));
  }

  /** Credits spent per module since `since` (debits less refunds), and the requests charged for each. */
  async usage(accountId: string, since: number): Promise<Record<Module, { requests: number; credits: number }>> {
    const [row] = await this.db.all<Record<string, number | string | null>>(USAGE_SQL, [accountId, since]);
    const of = (m: Module) => ({ requests: Number(row?.[`${m}_requests`] ?? 0), credits: Number(row?.[`${m}_credits`] ?? 0) });
    return { address: of('address'), email: of('email'), phone: of('phone') };
  }
}
