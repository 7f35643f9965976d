/** Accounts and their API keys. A key is shown once, at creation; only its SHA-256 hash is kept. */
import type { Database } from '../db/data-source.js';
import { generateApiKey, hashApiKey, isWellFormedApiKey, newId, sameHash } from './api-keys.js';
import type { CreditLedger, Grant } from './ledger.js';
import { DAY_MS, FREE_GRANT_VALIDITY_DAYS, listPacks, PACK_VALIDITY_DAYS } from './pricing.js';

export interface ApiKeyInfo {
  key_id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** A publishable key's origins and whether it may check phones (docs/account.md#publishable-keys); absent for a secret key. */
  publishable?: PublishableScope;
  /** A test key (`cv_test_…`, docs/account.md#test-keys): network checks off, nothing charged. */
  test: boolean;
  /** The key's default policy (docs/api.md#policies), when it has one. */
  policy?: string;
}

/** What a publishable key may do: validate, from these origins only, phones only if allowed. */
export interface PublishableScope {
  origins: string[];
  phone: boolean;
}

export interface Principal {
  accountId: string;
  keyId: string;
  /** The person who made the key in the dashboard (or made the key that made it): their removal revokes it. */
  createdBy?: string;
  /** Set for a publishable key: it may only validate, from its origins. */
  publishable?: PublishableScope;
  /** Set for a test key: it validates with network checks off and charges nothing; other endpoints refuse it. */
  test?: true;
  /** The policy its answers follow unless a request names another (docs/api.md#policies): a preset's or the account's own name. */
  policy?: string;
}

/**
 * An origin as browsers send it (RFC 6454): scheme, host and port, nothing else; https, or http on localhost for a
 * store's development. Returns it in the form the Origin header will carry, or null.
 */
export function normalizeOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return null;
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return null;
  return url.origin;
}

export class NotFoundError extends Error {}
export class InvalidArgumentError extends Error {}
/** A form sent again (a reload of its answer): what it did is done, once. */
export class DuplicateFormError extends Error {}

/**
 * Keys that authenticated lately, by hash: a request with a known key skips the database. An entry holds for at most
 * KEY_CACHE_TTL_MS, and on SQLite only while no other connection has written (a CLI revocation is seen within
 * KEY_CACHE_STAMP_MAX_AGE_MS); a revocation through this process clears the cache. On PostgreSQL another instance's
 * revocation takes effect here within KEY_CACHE_TTL_MS. Only keys that authenticated are kept: a flood of bad keys adds nothing.
 */
const KEY_CACHE_TTL_MS = 1_000;
const KEY_CACHE_MAX_ENTRIES = 10_000;
const KEY_CACHE_STAMP_MAX_AGE_MS = 5;

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export class Accounts {
  constructor(
    private readonly db: Database,
    private readonly ledger: CreditLedger,
    private readonly settings: { freeCredits: number; packPrices: ReadonlyMap<number, number> },
    private readonly now: () => number = Date.now,
  ) {}

  private readonly keyCache = new Map<string, { principal: Principal; checkedAt: number; stamp: number | null }>();
  private keyGeneration = 0;

  async create(name: string): Promise<{ account_id: string; api_key: string; key_id: string; balance: number }> {
    const id = await this.open(name);
    const key = await this.createKey(id);
    return { account_id: id, api_key: key.api_key, key_id: key.key_id, balance: await this.ledger.balance(id) };
  }

  /** A new account with its free credits and no key yet (a person who signs up makes keys in the dashboard). */
  async open(name: string): Promise<string> {
    const id = newId('acct');
    await this.db.run(`INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)`, [id, name, this.now()]);
    if (this.settings.freeCredits > 0) {
      await this.ledger.grant(id, {
        kind: 'free',
        credits: this.settings.freeCredits,
        expiresAt: this.now() + FREE_GRANT_VALIDITY_DAYS * DAY_MS,
      });
    }
    return id;
  }

  async get(accountId: string): Promise<{ id: string; name: string; created_at: string }> {
    const rows = await this.db.all<{ id: string; name: string; created_at: number }>(
      `SELECT id, name, created_at FROM accounts WHERE id = $1`,
      [accountId],
    );
    if (!rows[0]) throw new NotFoundError(`no account ${accountId}`);
    return { id: rows[0].id, name: rows[0].name, created_at: iso(rows[0].created_at)! };
  }

  /**
   * A secret key, or with `publishable` a key for web pages (docs/account.md#publishable-keys), or with `test` a key of test
   * mode (docs/account.md#test-keys); the key is shown this once. `createdBy`: the person who made it (the dashboard's, or
   * the person behind the key that asks through the API), none for the CLI.
   */
  async createKey(
    accountId: string, publishable?: { origins: string[]; phone?: boolean },
    { formNonce, createdBy, test = false, policy }: { formNonce?: string; createdBy?: string; test?: boolean; policy?: string } = {},
  ): Promise<{ key_id: string; api_key: string; publishable?: PublishableScope; test?: true; policy?: string }> {
    if (publishable && test) throw new InvalidArgumentError('a key is publishable or a test key, not both');
    await this.get(accountId);
    let scope: PublishableScope | undefined;
    if (publishable) {
      const origins = publishable.origins.map((o) => {
        const origin = normalizeOrigin(o);
        if (!origin) throw new InvalidArgumentError(`"${String(o).slice(0, 100)}" is not an origin (https://shop.example.com)`);
        return origin;
      });
      if (!origins.length || origins.length > 20) throw new InvalidArgumentError('a publishable key needs 1 to 20 origins');
      scope = { origins: [...new Set(origins)], phone: publishable.phone === true };
    }
    const key = generateApiKey(scope ? 'publishable' : test ? 'test' : 'secret');
    const id = newId('key');
    try {
      await this.db.run(
        `INSERT INTO api_keys (id, account_id, key_hash, display_prefix, created_at, publishable_origins, publishable_phone, form_nonce, created_by, test, policy)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [id, accountId, key.hash, key.displayPrefix, this.now(), scope ? JSON.stringify(scope.origins) : null, scope?.phone ? 1 : 0, formNonce ?? null, createdBy ?? null, test ? 1 : 0, policy ?? null],
      );
    } catch (err) {
      if (formNonce && (await this.db.all(`SELECT 1 AS hit FROM api_keys WHERE form_nonce = $1`, [formNonce])).length) {
        throw new DuplicateFormError('this form already created its key');
      }
      throw err;
    }
    return {
      key_id: id, api_key: key.plaintext, ...(scope ? { publishable: scope } : {}), ...(test ? { test: true as const } : {}), ...(policy ? { policy } : {}),
    };
  }

  async revokeKey(keyId: string): Promise<{ key_id: string; revoked_at: string }> {
    const at = this.now();
    await this.db.run(`UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, [at, keyId]);
    this.forgetCachedKeys();
    const rows = await this.db.all<{ revoked_at: number }>(`SELECT revoked_at FROM api_keys WHERE id = $1`, [keyId]);
    if (!rows[0]) throw new NotFoundError(`no key ${keyId}`);
    return { key_id: keyId, revoked_at: iso(rows[0].revoked_at)! };
  }

  /** Every live key the person made (a member removed, a password reset): revoked now; how many. */
  async revokeKeysOf(userId: string): Promise<number> {
    const revoked = await this.db.run(`UPDATE api_keys SET revoked_at = $1 WHERE created_by = $2 AND revoked_at IS NULL`, [this.now(), userId]);
    this.forgetCachedKeys();
    return revoked;
  }

  /**
   * Whether the key may change what the account sends out (webhook endpoints, the low-balance alert; docs/account.md#key-roles):
   * an owner key (made by the account's owner, in the dashboard or through the API with an owner key) or an admin key
   * (made by the command line, or through the API with an admin key: no person behind it). A key a member made may not,
   * nor may a publishable or test key.
   */
  async isOwnerOrAdminKey(principal: Principal): Promise<boolean> {
    if (principal.publishable || principal.test) return false;
    if (!principal.createdBy) return true;
    const rows = await this.db.all<{ role: string }>(
      `SELECT role FROM users WHERE id = $1 AND account_id = $2`, [principal.createdBy, principal.accountId],
    );
    return rows[0]?.role === 'owner';
  }

  /** How many live keys the person made. */
  async liveKeysOf(userId: string): Promise<number> {
    const rows = await this.db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM api_keys WHERE created_by = $1 AND revoked_at IS NULL`, [userId]);
    return Number(rows[0].n);
  }

  private forgetCachedKeys(): void {
    // A look-up that read a key before the UPDATE must not cache it afterwards.
    this.keyGeneration++;
    this.keyCache.clear();
  }

  /**
   * The keys with who made each, for the dashboard: `creator` null for a key of the CLI (or of the API by a key without
   * a person), `{ email: null }` for a person no longer on the account.
   */
  async listKeysWithCreators(accountId: string): Promise<(ApiKeyInfo & { creator: { email: string | null } | null })[]> {
    const [keys, creators] = await Promise.all([
      this.listKeys(accountId),
      this.db.all<{ id: string; created_by: string | null; email: string | null }>(
        `SELECT k.id, k.created_by, u.email FROM api_keys k LEFT JOIN users u ON u.id = k.created_by WHERE k.account_id = $1`, [accountId],
      ),
    ]);
    const byKey = new Map(creators.map((c) => [c.id, c]));
    return keys.map((k) => {
      const c = byKey.get(k.key_id);
      return { ...k, creator: c?.created_by ? { email: c.email } : null };
    });
  }

  async listKeys(accountId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.db.all<{
      id: string; display_prefix: string; created_at: number; revoked_at: number | null;
      publishable_origins: string | null; publishable_phone: number | boolean; test: number | boolean; policy: string | null;
    }>(
      `SELECT id, display_prefix, created_at, revoked_at, publishable_origins, publishable_phone, test, policy FROM api_keys
       WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    if (rows.length === 0) await this.get(accountId); // no keys, or no such account?
    return rows.map((r) => ({
      key_id: r.id, prefix: r.display_prefix, created_at: iso(r.created_at)!, revoked_at: iso(r.revoked_at),
      ...(r.publishable_origins ? { publishable: { origins: JSON.parse(r.publishable_origins), phone: Boolean(Number(r.publishable_phone)) } } : {}),
      test: Boolean(Number(r.test)),
      ...(r.policy ? { policy: r.policy } : {}),
    }));
  }

  /**
   * The account behind a presented key, or null for a malformed, unknown or revoked one. The look-up is by hash (an
   * attacker controls nothing of the indexed value), then the stored hash is compared in constant time.
   */
  async authenticate(presented: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(presented)) return null;
    const hash = hashApiKey(presented);
    const stamp = this.db.recentExternalChangeStamp(KEY_CACHE_STAMP_MAX_AGE_MS);
    const checkedAt = performance.now();
    const cached = this.keyCache.get(hash);
    if (cached && cached.stamp === stamp && checkedAt - cached.checkedAt < KEY_CACHE_TTL_MS) return cached.principal;
    const generation = this.keyGeneration;
    const rows = await this.db.all<{
      id: string; account_id: string; key_hash: string; revoked_at: number | null;
      publishable_origins: string | null; publishable_phone: number | boolean; created_by: string | null; test: number | boolean;
      policy: string | null;
    }>(
      `SELECT id, account_id, key_hash, revoked_at, publishable_origins, publishable_phone, created_by, test, policy FROM api_keys WHERE key_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row || !sameHash(row.key_hash, hash) || row.revoked_at !== null) {
      this.keyCache.delete(hash);
      return null;
    }
    const principal: Principal = { accountId: row.account_id, keyId: row.id };
    if (row.created_by) principal.createdBy = row.created_by;
    if (Number(row.test)) principal.test = true;
    if (row.policy) principal.policy = row.policy;
    if (row.publishable_origins) {
      principal.publishable = { origins: JSON.parse(row.publishable_origins), phone: Boolean(Number(row.publishable_phone)) };
    }
    this.keyCache.delete(hash);
    if (generation !== this.keyGeneration) return principal;
    if (this.keyCache.size >= KEY_CACHE_MAX_ENTRIES) this.keyCache.delete(this.keyCache.keys().next().value!);
    this.keyCache.set(hash, { principal, checkedAt, stamp });
    return principal;
  }

  async buyPack(accountId: string, size: number): Promise<Grant> {
    const pack = listPacks(this.settings.packPrices).find((p) => p.size === size);
    if (!pack) {
      const sizes = listPacks(this.settings.packPrices).map((p) => p.size).join(', ');
      throw new InvalidArgumentError(`no pack of ${size} credits; packs: ${sizes}`);
    }
    await this.get(accountId);
    return this.ledger.grant(accountId, {
      kind: 'pack',
      credits: pack.size,
      priceUsd: pack.priceUsd,
      expiresAt: this.now() + PACK_VALIDITY_DAYS * DAY_MS,
    });
  }

  async grantCredits(accountId: string, credits: number, expiresInDays = PACK_VALIDITY_DAYS): Promise<Grant> {
    if (!Number.isInteger(credits) || credits <= 0) throw new InvalidArgumentError('credits must be a positive whole number');
    if (!Number.isFinite(expiresInDays) || expiresInDays <= 0) throw new InvalidArgumentError('expires-in-days must be positive');
    await this.get(accountId);
    return this.ledger.grant(accountId, { kind: 'admin', credits, expiresAt: this.now() + expiresInDays * DAY_MS });
  }

  /** The balance is what the grants have left (an expired grant shows 0 remaining). */
  async credits(accountId: string): Promise<{ balance: number; grants: Grant[] }> {
    const grants = await this.ledger.grants(accountId);
    if (grants.length === 0) await this.get(accountId); // no grants, or no such account?
    return { balance: grants.reduce((sum, g) => sum + g.remaining, 0), grants };
  }
}
