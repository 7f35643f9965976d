import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts, API keys, the credit ledger (docs/api.md#credits-and-prices), idempotency records and shared rate-limit counters.
 * Times are epoch milliseconds in BIGINT columns, so that both databases compare them the same way.
 */
export class Billing1763790000000 implements MigrationInterface {
  name = 'Billing1763790000000';

  async up(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    // SQLite: a rowid alias; AUTOINCREMENT would write sqlite_sequence on every insert, for no guarantee we need.
    const serial = pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY';
    await q.query(`CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      created_at BIGINT NOT NULL)`);
    await q.query(`CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      key_hash TEXT NOT NULL UNIQUE,
      display_prefix TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      revoked_at BIGINT)`);
    await q.query(`CREATE INDEX api_keys_account ON api_keys(account_id)`);
    // A grant is a block of credits with an expiry; `remaining` is what is left of it.
    await q.query(`CREATE TABLE credit_grants (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('free', 'pack', 'admin')),
      credits INTEGER NOT NULL CHECK (credits > 0),
      remaining INTEGER NOT NULL CHECK (remaining >= 0 AND remaining <= credits),
      price_usd NUMERIC(12, 4),
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX credit_grants_draw ON credit_grants(account_id, expires_at)`);
    // Append-only: every movement of credits, signed (grant/refund +, debit/expire -).
    await q.query(`CREATE TABLE ledger_entries (
      id ${serial},
      account_id TEXT NOT NULL REFERENCES accounts(id),
      grant_id TEXT NOT NULL REFERENCES credit_grants(id),
      kind TEXT NOT NULL CHECK (kind IN ('grant', 'debit', 'refund', 'expire')),
      credits INTEGER NOT NULL,
      module TEXT,
      request_id TEXT,
      created_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX ledger_entries_account ON ledger_entries(account_id, created_at)`);
    await q.query(`CREATE INDEX ledger_entries_request ON ledger_entries(request_id)`);
    await q.query(`CREATE TABLE idempotency_records (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      idempotency_key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
      response_status INTEGER,
      response_body TEXT,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, idempotency_key))`);
    await q.query(`CREATE TABLE rate_limit_counters (
      bucket TEXT PRIMARY KEY,
      hits INTEGER NOT NULL,
      reset_at BIGINT NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['rate_limit_counters', 'idempotency_records', 'ledger_entries', 'credit_grants', 'api_keys', 'accounts']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
