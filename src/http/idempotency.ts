/**
 * Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): the first request with a key is processed and its
 * answer kept for 24 hours; a retry with the same key and the same body gets that answer again and is charged
 * nothing; the same key with another body is 422; a retry while the first is still in flight is 409.
 * Only successful answers are kept: after an error the key is free again, so that a corrected retry can go through.
 * Keys belong to the API key that sent them (its id), not to the whole account: a publishable key in a store's page
 * can neither replay a secret key's answer (with the balance it never sees) nor claim a key a secret key will use.
 */
import type { Database } from '../db/data-source.js';
import { Problem } from './problems.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
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

export type IdempotencyStart = { replay: false } | { replay: true; status: number; body: string };

export class IdempotencyStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async begin({ accountId, keyId }: IdempotencyScope, key: string, requestHash: string): Promise<IdempotencyStart> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const at = this.now();
      const inserted = await this.db.run(
        `INSERT INTO idempotency_records (account_id, key_id, idempotency_key, request_hash, state, created_at, expires_at)
         VALUES ($1, $2, $3, $4, 'in_flight', $5, $6) ON CONFLICT (account_id, key_id, idempotency_key) DO NOTHING`,
        [accountId, keyId, key, requestHash, at, at + IDEMPOTENCY_TTL_MS],
      );
      if (inserted === 1) return { replay: false };
      const [row] = await this.db.all<{ request_hash: string; state: string; response_status: number; response_body: string; expires_at: number | string }>(
        `SELECT request_hash, state, response_status, response_body, expires_at FROM idempotency_records
         WHERE account_id = $1 AND key_id = $2 AND idempotency_key = $3`,
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
        throw new Problem('idempotency-key-in-use', 'The first request with this Idempotency-Key has not finished; retry later.', {}, { 'Retry-After': '1' });
      }
      return { replay: true, status: Number(row.response_status), body: row.response_body };
    }
    throw new Problem('idempotency-key-in-use', 'This Idempotency-Key is contended; retry later.', {}, { 'Retry-After': '1' });
  }

  async complete({ accountId, keyId }: IdempotencyScope, key: string, status: number, body: string): Promise<void> {
    await this.db.run(
      `UPDATE idempotency_records SET state = 'done', response_status = $1, response_body = $2
       WHERE account_id = $3 AND key_id = $4 AND idempotency_key = $5`,
      [status, body, accountId, keyId, key],
    );
  }

  async abandon({ accountId, keyId }: IdempotencyScope, key: string): Promise<void> {
    await this.db.run(
      `DELETE FROM idempotency_records WHERE account_id = $1 AND key_id = $2 AND idempotency_key = $3 AND state = 'in_flight'`,
      [accountId, keyId, key],
    );
  }

  /** Drops answers older than 24 h (called now and then; expired records are ignored anyway). */
  async purgeExpired(): Promise<number> {
    return this.db.run(`DELETE FROM idempotency_records WHERE expires_at <= $1`, [this.now()]);
  }
}
