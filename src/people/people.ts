/**
 * People of an account (docs/dashboard.md): sign-up (a new account with its free credits, the person its owner), sign-in
 * with limits per address and per client, e-mail confirmation, password reset and invitations by signed, expiring
 * links, and the members of an account. The web pages (src/web) are a thin layer over this.
 */
import crypto from 'node:crypto';
import { newId } from '../billing/api-keys.js';
import type { Database } from '../db/data-source.js';
import type { Logger } from '../log.js';
import type { Mailer, MailMessage } from './mailer.js';
import { decoyHash, hashPassword, passwordWeakness, verifyPassword } from './passwords.js';
import type { WebSessions } from './sessions.js';
import { readLink, signLink, type LinkPurpose } from './signed-links.js';

/** The links mailed to people of an account (a buyer's order link is the order checks' own: src/sync/order-checks.ts). */
type PersonLinkPurpose = Exclude<LinkPurpose, 'order-address'>;

/** How long each kind of link works. */
const LINK_LIFETIME_MS: Record<PersonLinkPurpose, number> = { confirm: 3 * 86_400_000, reset: 3_600_000, invite: 7 * 86_400_000 };
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

/**
 * Attempts counted in a window, shared by the fleet (the rate-limit counters table). `increment` is one atomic upsert
 * that answers the count it made: an attempt is counted before it is tried, so that parallel requests cannot all read
 * "below the limit" before any of them writes.
 */
export interface AttemptCounter {
  /** Counts one attempt under the key; the attempts in the window so far (this one included) and when it ends. */
  increment(key: string): Promise<{ totalHits: number; resetTime?: Date }>;
  get(key: string): Promise<{ totalHits: number; resetTime?: Date } | undefined>;
  decrement(key: string): Promise<void>;
  resetKey(key: string): Promise<void>;
}

/** What the people's use cases need of the API keys (src/billing/accounts.ts). */
export interface KeysOfPeople {
  open(name: string): Promise<string>;
  /** Revokes every live key the person made; the number revoked. */
  revokeKeysOf(userId: string): Promise<number>;
}

/**
 * The link a mail carried, when mail is not configured and the service runs for development: the page shows it
 * (src/web/routes.ts decides whether this request may see it). Undefined whenever mail goes out, and in production.
 */
export type DevelopmentLink = string | undefined;

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
    private readonly accounts: KeysOfPeople,
    readonly sessions: WebSessions,
    private readonly mailer: Mailer,
    private readonly attempts: AttemptCounter,
    private readonly settings: { scryptLogN: number; signInAttempts: number; signUpsPerClient: number; secret?: string },
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A new account (free credits, no key yet) and its owner, who signs in once the mailed link confirms the address.
   * The answer is the same whether the address is new or already has an account (the page says "check your mail"):
   * an address that has one gets a mail saying so instead, and nobody learns from the form who has an account. Sign-ups
   * from one client address are limited (SIGN_UPS_PER_15_MIN), counted before anything is made, atomically: parallel
   * requests cannot all pass a limit read before any of them counts.
   */
  async signUp(input: { email: unknown; password: unknown }, baseUrl: string, client: string): Promise<{ email: string; link: DevelopmentLink }> {
    const email = normalizeEmail(input.email);
    if (!email) throw new PeopleError('invalid-email', 'Enter an e-mail address like name@example.com.', 'email');
    const password = typeof input.password === 'string' ? input.password : '';
    const weakness = passwordWeakness(password, email);
    if (weakness) throw new PeopleError('weak-password', `The password: ${weakness}.`, 'password');
    const made = await this.attempts.increment(`signup:${client}`);
    if (made.totalHits > this.settings.signUpsPerClient) {
      const wait = this.waitOf(made.resetTime);
      throw new PeopleError('sign-up-limited', `Too many new accounts from your network: try again in ${Math.ceil(wait / 60)} minutes.`, 'email', wait);
    }
    // Hashed either way: a known address answers as slowly as a new one.
    const hash = await hashPassword(password, this.settings.scryptLogN);
    const known = await this.userByEmail(email);
    if (known) return { email, link: await this.sendNotice('account-exists', known.email, baseUrl) };
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
      if (await this.userByEmail(email)) return { email, link: await this.sendNotice('account-exists', email, baseUrl) };
      throw err;
    }
    return { email, link: await this.sendLink('confirm', { id: userId, email }, baseUrl) };
  }

  /**
   * A new session when the password matches and the address is confirmed. Attempts are counted per address and per
   * client address before the password is checked (one atomic upsert each, the fleet's): past the limit the answer is
   * "wait" whatever the password, however many requests come at once. A sign-in that succeeds clears the address's
   * count and gives its attempt back to the client address. An unknown address costs the same time as a wrong
   * password, and an unconfirmed account answers like a wrong password (else signing up an address, then signing in
   * with the password just chosen, would tell whether it was new).
   */
  async signIn(input: { email: unknown; password: unknown }, client: string): Promise<{ token: string; userId: string }> {
    const email = normalizeEmail(input.email) ?? String(input.email ?? '').slice(0, 254).toLowerCase();
    const password = typeof input.password === 'string' ? input.password.slice(0, 1_000) : '';
    const keys = [`email:${email}`, `client:${client}`];
    const limits = [this.settings.signInAttempts, this.settings.signInAttempts * 5];
    const counted = await Promise.all(keys.map((key) => this.attempts.increment(key)));
    const over = counted.find((c, i) => c.totalHits > limits[i]);
    if (over) throw this.limited(over.resetTime);
    const user = await this.userByEmail(email);
    const ok = await verifyPassword(password, user?.password_hash ?? (await (this.decoy ??= decoyHash(this.settings.scryptLogN))));
    if (!user || !user.password_hash || !ok || user.email_confirmed_at === null) {
      throw new PeopleError('bad-credentials', 'The e-mail address or the password is not right (a new account signs in once the link we mailed has confirmed its address).', 'password');
    }
    await Promise.all([this.attempts.resetKey(keys[0]), this.attempts.decrement(keys[1])]);
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

  async resendConfirmation(userId: string, baseUrl: string): Promise<DevelopmentLink> {
    const user = await this.userById(userId);
    if (user && user.email_confirmed_at === null) return this.sendLink('confirm', user, baseUrl);
    return undefined;
  }

  /**
   * A reset link by mail when the address has an account; the answer is the same when it has none. At most
   * RESET_MAILS_PER_WINDOW a quarter of an hour to one address: the form must not bomb a mailbox.
   */
  async requestPasswordReset(emailText: unknown, baseUrl: string): Promise<DevelopmentLink> {
    const email = normalizeEmail(emailText);
    const user = email ? await this.userByEmail(email) : null;
    if (!user) return void this.logger.info('password reset asked for an unknown address');
    const sent = await this.attempts.increment(`reset:${user.email}`);
    if (sent.totalHits > RESET_MAILS_PER_WINDOW) return void this.logger.warn('password reset mail held back: too many for one address');
    return this.sendLink('reset', user, baseUrl);
  }

  /** The person a reset or invitation link is for (to show the form), or a PeopleError. */
  async linkHolder(token: unknown, purpose: 'reset' | 'invite'): Promise<{ email: string; userId: string }> {
    const user = await this.userOfLink(token, purpose);
    return { email: user.email, userId: user.id };
  }

  /**
   * Sets the password from a reset or invitation link. Every session of the person ends (a thief signed in with the
   * old password is out), and a new one starts; the link stops working (its stamp was the old password's time). A
   * reset may also revoke every API key the person made (`revokeKeys`, offered checked on the form): a thief who had
   * the password may have made keys, and they would outlive it.
   */
  async setPassword(
    token: unknown, password: unknown, purpose: 'reset' | 'invite', { revokeKeys = false }: { revokeKeys?: boolean } = {},
  ): Promise<{ token: string; userId: string; keysRevoked: number }> {
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
    const keysRevoked = purpose === 'reset' && revokeKeys ? await this.accounts.revokeKeysOf(user.id) : 0;
    await this.attempts.resetKey(`email:${user.email}`);
    const session = await this.sessions.create(user.id, user.account_id);
    return { token: session.token, userId: user.id, keysRevoked };
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

  /**
   * The owner invites an address to the account: a member without a password until the link is followed. An address
   * that already belongs to another account cannot join (an address is one person of one account): it gets a mail
   * saying so, and the owner sees the same answer and the same pending invitation as for any address, so the form
   * tells nobody who has an account.
   */
  async invite(by: { userId: string; accountId: string; role: string }, emailText: unknown, baseUrl: string): Promise<DevelopmentLink> {
    if (by.role !== 'owner') throw new PeopleError('owner-only', 'Only the owner of the account invites people.');
    const email = normalizeEmail(emailText);
    if (!email) throw new PeopleError('invalid-email', 'Enter an e-mail address like name@example.com.', 'email');
    const members = await this.members(by.accountId);
    if (members.some((m) => m.email === email)) throw new PeopleError('email-taken', 'This address is on the list already.', 'email');
    if (members.length >= MAX_MEMBERS) throw new PeopleError('too-many-members', `An account has at most ${MAX_MEMBERS} people.`, 'email');
    const id = newId('user');
    const at = this.now();
    if (!(await this.userByEmail(email))) {
      try {
        await this.db.run(
          `INSERT INTO users (id, account_id, email, password_hash, role, invited_by, created_at, password_changed_at)
           VALUES ($1, $2, $3, NULL, 'member', $4, $5, $5)`,
          [id, by.accountId, email, by.userId, at],
        );
        return await this.sendLink('invite', { id, email }, baseUrl);
      } catch (err) {
        if (!(await this.userByEmail(email))) throw err; // else it signed up meanwhile: an invitation elsewhere
      }
    }
    await this.db.run(
      `INSERT INTO invitations_elsewhere (id, account_id, email, invited_by, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account_id, email) DO NOTHING`,
      [id, by.accountId, email, by.userId, at],
    );
    return this.sendNotice('invited-elsewhere', email, baseUrl);
  }

  /** The people of the account, and the invitations still open (those to addresses of other accounts among them). */
  async members(accountId: string): Promise<Member[]> {
    const [rows, elsewhere] = await Promise.all([
      this.db.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE account_id = $1`, [accountId]),
      this.db.all<{ id: string; email: string; created_at: number | string }>(
        `SELECT id, email, created_at FROM invitations_elsewhere WHERE account_id = $1`, [accountId],
      ),
    ]);
    const people: Member[] = rows.map((r) => ({
      user_id: r.id, email: r.email, role: r.role, email_confirmed: r.email_confirmed_at !== null,
      invited: r.password_hash === null, created_at: new Date(Number(r.created_at)).toISOString(),
    }));
    const pending: Member[] = elsewhere.map((r) => ({
      user_id: r.id, email: r.email, role: 'member', email_confirmed: false, invited: true, created_at: new Date(Number(r.created_at)).toISOString(),
    }));
    return [...people, ...pending].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.user_id.localeCompare(b.user_id));
  }

  /** The owner sends an invitation again (lost, or expired): a new link; the earlier one still works until used. */
  async resendInvitation(by: { accountId: string; role: string }, userId: string, baseUrl: string): Promise<DevelopmentLink> {
    if (by.role !== 'owner') throw new PeopleError('owner-only', 'Only the owner of the account invites people.');
    const user = await this.userById(userId);
    if (user && user.account_id === by.accountId && user.password_hash === null) return this.sendLink('invite', user, baseUrl);
    const elsewhere = await this.invitationElsewhere(by.accountId, userId);
    if (!elsewhere) throw new PeopleError('not-found', 'No such invitation on this account.');
    return this.sendNotice('invited-elsewhere', elsewhere.email, baseUrl);
  }

  /**
   * The owner removes a member (never the owner), or withdraws an invitation: the person's sessions end at once, and
   * every API key the person made is revoked (a removed member's key must not keep working, nor make new keys).
   */
  async removeMember(by: { accountId: string; role: string }, userId: string): Promise<void> {
    if (by.role !== 'owner') throw new PeopleError('owner-only', 'Only the owner of the account removes people.');
    const user = await this.userById(userId);
    if (!user || user.account_id !== by.accountId || user.role === 'owner') {
      if (!(await this.invitationElsewhere(by.accountId, userId))) throw new PeopleError('not-found', 'No such member of this account.');
      await this.db.run(`DELETE FROM invitations_elsewhere WHERE id = $1 AND account_id = $2`, [userId, by.accountId]);
      return;
    }
    await this.sessions.endAllOf(user.id);
    await this.accounts.revokeKeysOf(user.id);
    await this.db.run(`DELETE FROM users WHERE id = $1 AND account_id = $2 AND role = 'member'`, [user.id, by.accountId]);
  }

  private async invitationElsewhere(accountId: string, id: string): Promise<{ email: string } | null> {
    const rows = await this.db.all<{ email: string }>(`SELECT email FROM invitations_elsewhere WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ?? null;
  }

  private async userOfLink(token: unknown, purpose: 'reset' | 'invite'): Promise<UserRow> {
    const link = await this.read(token, purpose);
    const user = await this.userById(link.userId);
    if (!user || String(user.password_changed_at) !== link.stamp || (purpose === 'invite' && user.password_hash !== null)) {
      throw new PeopleError('link-invalid', 'This link has been used already or is no longer valid.');
    }
    return user;
  }

  private async read(token: unknown, purpose: PersonLinkPurpose) {
    const link = readLink(await this.linkSecret(), token, purpose, this.now());
    if (!link) throw new PeopleError('link-invalid', 'This link is not valid, or it has expired: ask for a new one.');
    return link;
  }

  private async sendLink(
    purpose: PersonLinkPurpose, user: { id: string; email: string; password_changed_at?: number | string }, baseUrl: string,
  ): Promise<DevelopmentLink> {
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
    return this.deliver({ to: user.email, subject, text }, purpose, url);
  }

  /** A mail without a link to act on: an address that already has an account was signed up, or invited elsewhere. */
  private async sendNotice(kind: 'account-exists' | 'invited-elsewhere', email: string, baseUrl: string): Promise<DevelopmentLink> {
    const text = {
      'account-exists': `Someone (you, perhaps) tried to create a contact-validator account with this address. It has one already:\n\n`
        + `sign in at ${baseUrl}/signin\nor, if the password is forgotten, set a new one at ${baseUrl}/forgot\n\nIf it was not you, ignore this message: nothing changes.\n`,
      'invited-elsewhere': `You were invited to another contact-validator account. This address belongs to an account already, and an `
        + `address can belong to one account only: to join, ask for an invitation to another of your addresses.\n\nSign in to yours at ${baseUrl}/signin\n`,
    }[kind];
    const subject = { 'account-exists': 'You already have an account', 'invited-elsewhere': 'An invitation to another account' }[kind];
    return this.deliver({ to: email, subject, text }, kind, `${baseUrl}/signin`);
  }

  /** Whether mail goes out at all: without a relay (SMTP_URL) a message is logged, or dropped in production. */
  get mailGoesOut(): boolean {
    return this.mailer.sends;
  }

  private async deliver(message: MailMessage, purpose: string, link: string): Promise<DevelopmentLink> {
    try {
      await this.mailer.send(message);
    } catch (err) {
      // The page says the mail is on its way either way; the person can ask again. The log has why it failed.
      this.logger.error({ err, purpose }, 'mail not sent');
    }
    return this.mailer.showsLinks ? link : undefined;
  }

  /** SESSION_SECRET, else one generated once and kept in the database, the same for every instance. */
  linkSecret(): Promise<Buffer> {
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
