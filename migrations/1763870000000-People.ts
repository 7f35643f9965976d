import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts for people (docs/dashboard.md). `users`: the people of an account (the one who signed up is its owner; others are
 * invited), an e-mail address each (lower-cased, unique across the service), a scrypt password hash (null until an
 * invited person sets one). `web_sessions`: the dashboard's sessions, kept by the SHA-256 of the cookie's value, each
 * with its CSRF token. `purchases`: one row per Stripe Checkout Session, which makes the grant once however often
 * Stripe delivers its event, and is the account's receipt; `stripe_events`: events already processed. `app_secrets`:
 * secrets the fleet must share and nobody configures by hand (the key that signs reset and invitation links).
 * `credit_grants.note`: what happened to a grant after it was made (a refund, a dispute). `api_keys.form_nonce`: the
 * dashboard form that created a key, so that a reload of its answer does not create a second one.
 */
export class People1763870000000 implements MigrationInterface {
  name = 'People1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE users (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      email TEXT NOT NULL UNIQUE,
      password_hash TEXT,
      role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
      email_confirmed_at BIGINT,
      invited_by TEXT,
      created_at BIGINT NOT NULL,
      password_changed_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX users_account ON users(account_id, created_at)`);
    await q.query(`CREATE TABLE web_sessions (
      id_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      csrf_token TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_seen_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX web_sessions_user ON web_sessions(user_id)`);
    await q.query(`CREATE INDEX web_sessions_expiry ON web_sessions(expires_at)`);
    await q.query(`CREATE TABLE purchases (
      checkout_session_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      user_id TEXT,
      pack_size INTEGER NOT NULL,
      amount_cents INTEGER NOT NULL,
      currency TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'expired')),
      payment_intent TEXT,
      grant_id TEXT,
      note TEXT,
      created_at BIGINT NOT NULL,
      paid_at BIGINT,
      refunded_at BIGINT,
      disputed_at BIGINT)`);
    await q.query(`CREATE INDEX purchases_account ON purchases(account_id, created_at)`);
    await q.query(`CREATE INDEX purchases_payment_intent ON purchases(payment_intent)`);
    await q.query(`CREATE TABLE stripe_events (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      received_at BIGINT NOT NULL)`);
    await q.query(`CREATE TABLE app_secrets (
      name TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      created_at BIGINT NOT NULL)`);
    await q.query(`ALTER TABLE credit_grants ADD COLUMN note TEXT`);
    await q.query(`ALTER TABLE api_keys ADD COLUMN form_nonce TEXT`);
    await q.query(`CREATE UNIQUE INDEX api_keys_form_nonce ON api_keys(form_nonce)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX api_keys_form_nonce`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN form_nonce`);
    await q.query(`ALTER TABLE credit_grants DROP COLUMN note`);
    for (const table of ['app_secrets', 'stripe_events', 'purchases', 'web_sessions', 'users']) await q.query(`DROP TABLE ${table}`);
  }
}
