/**
 * The dashboard's sessions (OWASP Session Management Cheat Sheet): a random 256-bit token in an HttpOnly cookie, kept
 * in the database only as its SHA-256 (a copy of the table opens no session), a fixed lifetime, a new token at every
 * sign-in (no fixation: a token planted before sign-in is never promoted), and every session of a person ended when
 * the password changes. Each session carries its CSRF token (the synchronizer-token pattern).
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data-source.js';

export interface WebSession {
  idHash: string;
  userId: string;
  accountId: string;
  email: string;
  role: 'owner' | 'member';
  emailConfirmed: boolean;
  csrfToken: string;
  expiresAt: number;
}

/** Last-seen times are written at most this often: a page view should not be a database write. */
const TOUCH_EVERY_MS = 60_000;

const hashOf = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export class WebSessions {
  constructor(
    private readonly db: Database,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new session for the person; the token goes in the cookie and nowhere else. */
  async create(userId: string, accountId: string): Promise<{ token: string; expiresAt: number }> {
    const token = crypto.randomBytes(32).toString('base64url');
    const at = this.now();
    const expiresAt = at + this.maxAgeMs;
    await this.db.run(
      `INSERT INTO web_sessions (id_hash, user_id, account_id, csrf_token, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $5, $6)`,
      [hashOf(token), userId, accountId, crypto.randomBytes(32).toString('base64url'), at, expiresAt],
    );
    // Now and then, the expired sessions of everyone go.
    if (Math.random() < 0.05) await this.db.run(`DELETE FROM web_sessions WHERE expires_at <= $1`, [at]);
    return { token, expiresAt };
  }

  /** The live session a cookie names, with its person, or null. */
  async find(token: string | undefined): Promise<WebSession | null> {
    if (!token || token.length > 100) return null;
    const at = this.now();
    const rows = await this.db.all<{
      id_hash: string; user_id: string; account_id: string; csrf_token: string; expires_at: number | string;
      last_seen_at: number | string; email: string; role: 'owner' | 'member'; email_confirmed_at: number | string | null;
    }>(
      `SELECT s.id_hash, s.user_id, s.account_id, s.csrf_token, s.expires_at, s.last_seen_at, u.email, u.role, u.email_confirmed_at
       FROM web_sessions s JOIN users u ON u.id = s.user_id
       WHERE s.id_hash = $1 AND s.expires_at > $2 AND u.account_id = s.account_id`,
      [hashOf(token), at],
    );
    const row = rows[0];
    if (!row) return null;
    if (at - Number(row.last_seen_at) > TOUCH_EVERY_MS) {
      await this.db.run(`UPDATE web_sessions SET last_seen_at = $1 WHERE id_hash = $2`, [at, row.id_hash]);
    }
    return {
      idHash: row.id_hash, userId: row.user_id, accountId: row.account_id, email: row.email, role: row.role,
      emailConfirmed: row.email_confirmed_at !== null, csrfToken: row.csrf_token, expiresAt: Number(row.expires_at),
    };
  }

  async end(idHash: string): Promise<void> {
    await this.db.run(`DELETE FROM web_sessions WHERE id_hash = $1`, [idHash]);
  }

  /** Every session of a person (a password changed, a member removed). */
  async endAllOf(userId: string): Promise<void> {
    await this.db.run(`DELETE FROM web_sessions WHERE user_id = $1`, [userId]);
  }
}
