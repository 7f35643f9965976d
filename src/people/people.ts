/**
 * People of an account (docs/dashboard.md): sign-up (a new account with its free credits, the person its owner), sign-in
 * with limits per address and per client, e-mail confirmation, password reset and invitations by signed, expiring
 * links, and the members of an account. The web pages (src/web) are a thin layer over this.
 */
import crypto from 'node:crypto';
import type { Accounts } from '../billing/accounts.js';
import { newId } from '../billing/api-keys.js';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { Mailer } from './mailer.js';
import { decoyHash, hashPassword, passwordWeakness, verifyPassword } from './passwords.js';
import type { WebSessions } from './sessions.js';
import { readLink, signLink, type LinkPurpose } from './signed-links.js';

/** How long each kind of link works. */
const LINK_LIFETIME_MS: Record<LinkPurpose, number> = { confirm: 3 * 86_400_000, reset: 3_600_000, invite: 7 * 86_400_000 };
const SIGN_IN_WINDOW_MS = 15 * 60_000;
const MAX_MEMBERS = 50;
const RESET_MAILS_PER_WINDOW = 3;
const EMAIL = /^[^\s@<>()[\]\\,;:"]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export type PeopleErrorCode =
  | 'invalid-email' | 'weak-password' | 'email-taken' | 'bad-credentials' | 'sign-in-limited' | 'sign-up-limited' | 'link-invalid'
  | 'owner-only' | 'not-found' | 'too-many-members';

/** A refusal the pages show next to the form; `field` names the input at fault. */
export class PeopleError extends Error {
  constructor(readonly code: PeopleErrorCode, message: string, readonly field?: string, readonly retryAfterS?: number) {
    super(message);
  }
}

/** Failures counted in a window, shared by the fleet (the rate-limit counters table). */
export interface AttemptCounter {
  /** Counts one failure under the key; the failures in the window so far and when it ends. */
  increment(key: string): Promise<{ totalHits: number; resetTime?: Date }>;
  get(key: string): Promise<{ totalHits: number; resetTime?: Date } | undefined>;
  resetKey(key: string): Promise<void>;
}

export interface Member {
  user_id: string;
  email: string;
  role: 'owner' | 'member';
  email_confirmed: boolean;
  /** An invited person who has not set a password yet. */
  invited: boolean;
  created_at: string;
}

const USER_COLUMNS = 'id, account_id, email, password_hash, role, email_confirmed_at, created_at, password_changed_at';

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string | null;
  role: 'owner' | 'member';
  email_confirmed_at: number | string | null;
  created_at: number | string;
  password_changed_at: number | string;
}

export function normalizeEmail(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const email = text.trim().toLowerCase();
  return email.length <= 254 && EMAIL.test(email) ? email : null;
}

export class People {
  private secret?: Promise<Buffer>;
  private decoy?: Promise<string>;

  constructor(
    private readonly db: Database,
    private readonly accounts: Accounts,
    readonly sessions: WebSessions,
    private readonly mailer: Mailer,
    private readonly attempts: AttemptCounter,
    private readonly settings: { scryptLogN: number; signInAttempts: number; signUpsPerClient: number; secret?: string },
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A new account (free credits, no key yet) and its owner, signed in; a confirmation link goes by mail. Accounts made
   * from one client address are limited (SIGN_UPS_PER_15_MIN): free credits are not to be farmed by a script.
   */
  async signUp(input: { email: unknown; password: unknown }, baseUrl: string, client: string): Promise<{ token: string; userId: string }> {
    const made = await this.attempts.get(`signup:${client}`);
    if (made && made.totalHits >= this.settings.signUpsPerClient) {
      const wait = this.waitOf(made.resetTime);
      throw new PeopleError('sign-up-limited', `Too many new accounts from your network: try again in ${Math.ceil(wait / 60)} minutes.`, 'email', wait);
    }
    const email = normalizeEmail(input.email);
    if (!email) throw new PeopleError('invalid-email', 'Enter an e-mail address like name@example.com.', 'email');
    const password = typeof input.password === 'string' ? input.password : '';
    const weakness = passwordWeakness(password, email);
    if (weakness) throw new PeopleError('weak-password', `The password: ${weakness}.`, 'password');
    if (await this.userByEmail(email)) {
      throw new PeopleError('email-taken', 'This address already has an account: sign in, or reset the password.', 'email');
    }
    const hash = await hashPassword(password, this.settings.scryptLogN);
    const accountId = await this.accounts.open(email);
    const userId = newId('user');
    const at = this.now();
    try {
      await this.db.run(
        `INSERT INTO users (id, account_id, email, password_hash, role, created_at, password_changed_at) VALUES ($1, $2, $3, $4, 'owner', $5, $5)`,
        [userId, accountId, email, hash, at],
      );
    } catch (err) {
      // The same address signed up twice at once: the unique index lets one through.
      if (await this.userByEmail(email)) throw new PeopleError('email-taken', 'This address already has an account.', 'email');
      throw err;
    }
    await this.attempts.increment(`signup:${client}`);
    await this.sendLink('confirm', { id: userId, email }, baseUrl);
    const session = await this.sessions.create(userId, accountId);
    return { token: session.token, userId };
  }

  /**
   * A new session when the password matches. Failures are counted per address and per client address; past the limit
   * the answer is "wait" whatever the password. An unknown address costs the same time as a wrong password.
   */
  async signIn(input: { email: unknown; password: unknown }, client: string): Promise<{ token: string; userId: string }> {
    const email = normalizeEmail(input.email) ?? String(input.email ?? '').slice(0, 254).toLowerCase();
    const password = typeof input.password === 'string' ? input.password.slice(0, 1_000) : '';
    const keys = [`email:${email}`, `client:${client}`];
    const limits = [this.settings.signInAttempts, this.settings.signInAttempts * 5];
    for (const [i, key] of keys.entries()) {
      const seen = await this.attempts.get(key);
      if (seen && seen.totalHits >= limits[i]) throw this.limited(seen.resetTime);
    }
    const user = await this.userByEmail(email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await (this.decoy ??= decoyHash(this.settings.scryptLogN))));
    if (!user || !user.password_hash || !ok) {
      await Promise.all(keys.map((key) => this.attempts.increment(key)));
      throw new PeopleError('bad-credentials', 'The e-mail address or the password is not right.', 'password');
    }
    await this.attempts.resetKey(keys[0]);
    const session = await this.sessions.create(user.id, user.account_id);
    return { token: session.token, userId: user.id };
  }

  /** Seconds until a counting window ends. */
  private waitOf(resetTime?: Date): number {
    return Math.max(1, Math.ceil(((resetTime?.getTime() ?? this.now() + SIGN_IN_WINDOW_MS) - this.now()) / 1000));
  }

  private limited(resetTime?: Date): PeopleError {
    const wait = this.waitOf(resetTime);
    return new PeopleError('sign-in-limited', `Too many failed sign-ins: try again in ${Math.ceil(wait / 60)} minutes, or reset the password.`, 'email', wait);
  }

  async confirmEmail(token: unknown): Promise<void> {
    const link = await this.read(token, 'confirm');
    const user = await this.userById(link.userId);
    if (!user || user.email !== link.stamp) throw new PeopleError('link-invalid', 'This confirmation link is not valid any more.');
    await this.db.run(`UPDATE users SET email_confirmed_at = $1 WHERE id = $2 AND email_confirmed_at IS NULL`, [this.now(), user.id]);
  }

  async resendConfirmation(userId: string, baseUrl: string): Promise<void> {
    const user = await this.userById(userId);
    if (user && user.email_confirmed_at === null) await this.sendLink('confirm', user, baseUrl);
  }

  /**
   * A reset link by mail when the address has an account; the answer is the same when it has none. At most
   * RESET_MAILS_PER_WINDOW a quarter of an hour to one address: the form must not bomb a mailbox.
   */
  async requestPasswordReset(emailText: unknown, baseUrl: string): Promise<void> {
    const email = normalizeEmail(emailText);
    const user = email ? await this.userByEmail(email) : null;
    if (!user) return void this.logger.info('password reset asked for an unknown address');
    const sent = await this.attempts.get(`reset:${user.email}`);
    if (sent && sent.totalHits >= RESET_MAILS_PER_WINDOW) return void this.logger.warn('password reset mail held back: too many for one address');
    await this.attempts.increment(`reset:${user.email}`);
    await this.sendLink('reset', user, baseUrl);
  }

  /** The person a reset or invitation link is for (to show the form), or a PeopleError. */
  async linkHolder(token: unknown, purpose: 'reset' | 'invite'): Promise<{ email: string }> {
    const user = await this.userOfLink(token, purpose);
    return { email: user.email };
  }

  /**
   * Sets the password from a reset or invitation link. Every session of the person ends (a thief signed in with the
   * old password is out), and a new one starts; the link stops working (its stamp was the old password's time).
   */
  async setPassword(token: unknown, password: unknown, purpose: 'reset' | 'invite'): Promise<{ token: string; userId: string }> {
    const user = await this.userOfLink(token, purpose);
    const text = typeof password === 'string' ? password : '';
    const weakness = passwordWeakness(text, user.email);
    if (weakness) throw new PeopleError('weak-password', `The password: ${weakness}.`, 'password');
    const hash = await hashPassword(text, this.settings.scryptLogN);
    const at = Math.max(this.now(), Number(user.password_changed_at) + 1);
    // The link is the proof of the address: an invitation accepted, or a reset done, confirms it.
    const changed = await this.db.run(
      `UPDATE users SET password_hash = $1, password_changed_at = $2, email_confirmed_at = COALESCE(email_confirmed_at, $2)
       WHERE id = $3 AND password_changed_at = $4`,
      [hash, at, user.id, user.password_changed_at],
    );
    if (changed !== 1) throw new PeopleError('link-invalid', 'This link has been used already.');
    await this.sessions.endAllOf(user.id);
    await this.attempts.resetKey(`email:${user.email}`);
    const session = await this.sessions.create(user.id, user.account_id);
    return { token: session.token, userId: user.id };
  }

  /**
   * A signed-in person changes the password, proving the current one. Every session of the person ends (another
   * browser signed in with the old password is out) and a new one starts for this browser.
   */
  async changePassword(userId: string, current: unknown, next: unknown): Promise<{ token: string }> {
    const user = await this.userById(userId);
    if (!user) throw new PeopleError('not-found', 'No such person.');
    if (!(await verifyPassword(typeof current === 'string' ? current.slice(0, 1_000) : '', user.password_hash))) {
      throw new PeopleError('bad-credentials', 'The current password is not right.', 'current');
    }
    const text = typeof next === 'string' ? next : '';
    const weakness = passwordWeakness(text, user.email);
    if (weakness) throw new PeopleError('weak-password', `The new password: ${weakness}.`, 'password');
    const at = Math.max(this.now(), Number(user.password_changed_at) + 1);
    await this.db.run(`UPDATE users SET password_hash = $1, password_changed_at = $2 WHERE id = $3`, [
      await hashPassword(text, this.settings.scryptLogN), at, user.id,
    ]);
    await this.sessions.endAllOf(user.id);
    return { token: (await this.sessions.create(user.id, user.account_id)).token };
  }

  /** The owner invites an address to the account: a member without a password until the link is followed. */
  async invite(by: { userId: string; accountId: string; role: string }, emailText: unknown, baseUrl: string): Promise<Member> {
    if (by.role !== 'owner') throw new PeopleError('owner-only', 'Only the owner of the account invites people.');
    const email = normalizeEmail(emailText);
    if (!email) throw new PeopleError('invalid-email', 'Enter an e-mail address like name@example.com.', 'email');
    if (await this.userByEmail(email)) throw new PeopleError('email-taken', 'This address already belongs to an account.', 'email');
    if ((await this.members(by.accountId)).length >= MAX_MEMBERS) {
      throw new PeopleError('too-many-members', `An account has at most ${MAX_MEMBERS} people.`, 'email');
    }
    const id = newId('user');
    const at = this.now();
    await this.db.run(
      `INSERT INTO users (id, account_id, email, password_hash, role, invited_by, created_at, password_changed_at)
       VALUES ($1, $2, $3, NULL, 'member', $4, $5, $5)`,
      [id, by.accountId, email, by.userId, at],
    );
    await this.sendLink('invite', { id, email }, baseUrl);
    return (await this.members(by.accountId)).find((m) => m.user_id === id)!;
  }

  async members(accountId: string): Promise<Member[]> {
    const rows = await this.db.all<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users
       WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map((r) => ({
      user_id: r.id, email: r.email, role: r.role, email_confirmed: r.email_confirmed_at !== null,
      invited: r.password_hash === null, created_at: new Date(Number(r.created_at)).toISOString(),
    }));
  }

  /** The owner sends an invitation again (lost, or expired): a new link; the earlier one still works until used. */
  async resendInvitation(by: { accountId: string; role: string }, userId: string, baseUrl: string): Promise<void> {
    if (by.role !== 'owner') throw new PeopleError('owner-only', 'Only the owner of the account invites people.');
    const user = await this.userById(userId);
    if (!user || user.account_id !== by.accountId || user.password_hash !== null) throw new PeopleError('not-found', 'No such invitation on this account.');
    await this.sendLink('invite', user, baseUrl);
  }

  /** The owner removes a member (never the owner): the person's sessions end at once. */
  async removeMember(by: { accountId: string; role: string }, userId: string): Promise<void> {
    if (by.role !== 'owner') throw new PeopleError('owner-only', 'Only the owner of the account removes people.');
    const user = await this.userById(userId);
    if (!user || user.account_id !== by.accountId || user.role === 'owner') throw new PeopleError('not-found', 'No such member of this account.');
    await this.sessions.endAllOf(user.id);
    await this.db.run(`DELETE FROM users WHERE id = $1 AND account_id = $2 AND role = 'member'`, [user.id, by.accountId]);
  }

  private async userOfLink(token: unknown, purpose: 'reset' | 'invite'): Promise<UserRow> {
    const link = await this.read(token, purpose);
    const user = await this.userById(link.userId);
    if (!user || String(user.password_changed_at) !== link.stamp || (purpose === 'invite' && user.password_hash !== null)) {
      throw new PeopleError('link-invalid', 'This link has been used already or is no longer valid.');
    }
    return user;
  }

  private async read(token: unknown, purpose: LinkPurpose) {
    const link = readLink(await this.linkSecret(), token, purpose, this.now());
    if (!link) throw new PeopleError('link-invalid', 'This link is not valid, or it has expired: ask for a new one.');
    return link;
  }

  private async sendLink(purpose: LinkPurpose, user: { id: string; email: string; password_changed_at?: number | string }, baseUrl: string) {
    const stamp = purpose === 'confirm' ? user.email : String(user.password_changed_at ?? (await this.userById(user.id))!.password_changed_at);
    const token = signLink(await this.linkSecret(), { purpose, userId: user.id, expiresAt: this.now() + LINK_LIFETIME_MS[purpose], stamp });
    const path = { confirm: '/confirm', reset: '/reset', invite: '/invite' }[purpose];
    const url = `${baseUrl}${path}?token=${token}`;
    const text = {
      confirm: `Welcome to contact-validator.\n\nConfirm your e-mail address (the link works for 3 days):\n${url}\n`,
      reset: `Someone asked to reset the password of your contact-validator account.\n\nSet a new one within the hour:\n${url}\n\nIf it was not you, ignore this message: nothing changes.\n`,
      invite: `You are invited to a contact-validator account.\n\nChoose your password (the link works for 7 days):\n${url}\n`,
    }[purpose];
    const subject = { confirm: 'Confirm your e-mail address', reset: 'Reset your password', invite: 'You are invited to contact-validator' }[purpose];
    try {
      await this.mailer.send({ to: user.email, subject, text });
    } catch (err) {
      // The page says the mail is on its way either way; the person can ask again. The log has why it failed.
      this.logger.error({ err, purpose }, 'mail not sent');
    }
  }

  /** SESSION_SECRET, else one generated once and kept in the database, the same for every instance. */
  private linkSecret(): Promise<Buffer> {
    this.secret ??= (async () => {
      if (this.settings.secret) return crypto.createHash('sha256').update(this.settings.secret).digest();
      await this.db.run(
        `INSERT INTO app_secrets (name, value, created_at) VALUES ('link-signing', $1, $2) ON CONFLICT (name) DO NOTHING`,
        [crypto.randomBytes(32).toString('base64url'), this.now()],
      );
      const rows = await this.db.all<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'link-signing'`);
      return Buffer.from(rows[0].value, 'base64url');
    })().catch((err: unknown) => {
      this.secret = undefined;
      throw err;
    });
    return this.secret;
  }

  private userByEmail(email: string): Promise<UserRow | null> {
    return this.userWhere('email', email);
  }

  private userById(id: string): Promise<UserRow | null> {
    return this.userWhere('id', id);
  }

  private async userWhere(column: 'email' | 'id', value: string): Promise<UserRow | null> {
    const rows = await this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE ${column} = $1`, [value]);
    return rows[0] ?? null;
  }
}
