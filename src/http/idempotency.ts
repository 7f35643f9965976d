/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): the first request with a key is processed and its
 * answer kept for 24 hours; a retry with the same key and the same body gets that answer again and is charged
 * nothing; the same key with another body is 422; a retry while the first is still in flight is 409.
 * Only successful answers are kept: after an error the key is free again, so that a corrected retry can go through.
 * Keys belong to the API key that sent them (its id), not to the whole account: a publishable key in a store's page
 * can neither replay a secret key's answer (with the balance it never sees) nor claim a key a secret key will use.
 *
 * A crash mid-request (an instance killed with SIGKILL) must not hold the key for 24 hours: an in-flight record names
 * its owner (one attempt) and holds a lease of the validation budget plus a margin. A retry that finds the lease
 * lapsed takes the record over with one conditional UPDATE (of concurrent retries, one wins; the others get 409) and
 * runs the request again under the record's ledger id, which keys its debit (charged once: docs/api.md#idempotency).
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';
import { Problem } from './problems.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * An in-flight record's lease: the validation budget, plus a margin for the debit's commit and the answer's write.
 * Longer than any live attempt takes; short enough that a retry after a crash gets its answer within seconds.
 */
export const idempotencyLeaseMs = (validationBudgetMs: number): number => validationBudgetMs + 5_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The header's value: an sf-string (`"…"`, as the draft defines it) or, as most clients send it, a bare token. */
export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = /^"(.*)"$/.test(header) ? header.slice(1, -1) : header;
  if (!KEY_PATTERN.test(value)) {
    throw new Problem('invalid-header', 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  return value;
}

/** Whose keys: the account, and the API key within it. */
export interface IdempotencyScope {
  accountId: string;
  keyId: string;
}

/**
 * An attempt's hold on a record: `owner` names the attempt (only it completes or abandons the record) and `ledgerId`
 * keys the request's debit, the same for every attempt of one record, so that the ledger charges the record once.
 */
export interface IdempotencyClaim {
  owner: string;
  ledgerId: string;
  /** True when this attempt took over a record whose owner's lease had lapsed. */
  takenOver: boolean;
}

export type IdempotencyStart = { replay: false; claim: IdempotencyClaim } | { replay: true; status: number; body: string };

interface RecordRow {
  request_hash: string; state: string; response_status: number; response_body: string; expires_at: number | string;
  owner: string | null; lease_expires_at: number | string | null; ledger_id: string | null;
}

export class IdempotencyStore {
  /**
   * `leaseMs`: how long an attempt holds an in-flight record before a retry may take it over; longer than any live
   * attempt takes (the validation budget plus a margin for the debit's commit). An attempt that overruns it is still
   * charged once: the one that took over debits under the same ledger id.
   */
  constructor(
    private readonly db: Database,
    private readonly leaseMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async begin({ accountId, keyId }: IdempotencyScope, key: string, requestHash: string): Promise<IdempotencyStart> {
    const owner = crypto.randomUUID();
    for (let attempt = 0; attempt < 2; attempt++) {
      const at = this.now();
      const ledgerId = `idem_${crypto.randomUUID()}`;
      const inserted = await this.db.run(
        `INSERT INTO idempotency_records (account_id, key_id, idempotency_key, request_hash, state, created_at, expires_at,
           owner, lease_expires_at, ledger_id)
         VALUES ($1, $2, $3, $4, 'in_flight', $5, $6, $7, $8, $9) ON CONFLICT (account_id, key_id, idempotency_key) DO NOTHING`,
        [accountId, keyId, key, requestHash, at, at + IDEMPOTENCY_TTL_MS, owner, at + this.leaseMs, ledgerId],
      );
      if (inserted === 1) return { replay: false, claim: { owner, ledgerId, takenOver: false } };
      const [row] = await this.db.all<RecordRow>(
        `SELECT request_hash, state, response_status, response_body, expires_at, owner, lease_expires_at, ledger_id
         FROM idempotency_records WHERE account_id = $1 AND key_id = $2 AND idempotency_key = $3`,
        [accountId, keyId, key],
      );
      if (!row) continue; // abandoned meanwhile: try to claim it again
      if (Number(row.expires_at) <= at) {
        await this.db.run(
          `DELETE FROM idempotency_records WHERE account_id = $1 AND key_id = $2 AND idempotency_key = $3 AND expires_at <= $4`,
          [accountId, keyId, key, at],
        );
        continue;
      }
      if (row.request_hash !== requestHash) {
        throw new Problem('idempotency-key-reused', 'This Idempotency-Key was first used with a different body.');
      }
      if (row.state === 'in_flight') {
        const lapsed = row.lease_expires_at !== null && row.ledger_id !== null && Number(row.lease_expires_at) <= at;
        // Conditional on the owner read: of several retries that saw the same lapsed lease, one changes the row.
        if (lapsed && await this.db.run(
          `UPDATE idempotency_records SET owner = $1, lease_expires_at = $2
           WHERE account_id = $3 AND key_id = $4 AND idempotency_key = $5 AND state = 'in_flight' AND owner = $6
             AND lease_expires_at <= $7`,
          [owner, at + this.leaseMs, accountId, keyId, key, row.owner, at],
        ) === 1) {
          return { replay: false, claim: { owner, ledgerId: row.ledger_id!, takenOver: true } };
        }
        throw new Problem('idempotency-key-in-use', 'The first request with this Idempotency-Key has not finished; retry later.', {}, { 'Retry-After': '1' });
      }
      return { replay: true, status: Number(row.response_status), body: row.response_body };
    }
    throw new Problem('idempotency-key-in-use', 'This Idempotency-Key is contended; retry later.', {}, { 'Retry-After': '1' });
  }

  /** Keeps the answer, if `claim` still holds the record (an attempt that overran its lease and lost it keeps nothing). */
  async complete({ accountId, keyId }: IdempotencyScope, key: string, claim: IdempotencyClaim, status: number, body: string): Promise<void> {
    await this.db.run(
      `UPDATE idempotency_records SET state = 'done', response_status = $1, response_body = $2, lease_expires_at = NULL
       WHERE account_id = $3 AND key_id = $4 AND idempotency_key = $5 AND owner = $6 AND state = 'in_flight'`,
      [status, body, accountId, keyId, key, claim.owner],
    );
  }

  async abandon({ accountId, keyId }: IdempotencyScope, key: string, claim: IdempotencyClaim): Promise<void> {
    await this.db.run(
      `DELETE FROM idempotency_records
       WHERE account_id = $1 AND key_id = $2 AND idempotency_key = $3 AND state = 'in_flight' AND owner = $4`,
      [accountId, keyId, key, claim.owner],
    );
  }

  /** Drops answers older than 24 h (called now and then; expired records are ignored anyway). */
  async purgeExpired(): Promise<number> {
    return this.db.run(`DELETE FROM idempotency_records WHERE expires_at <= $1`, [this.now()]);
  }
}
