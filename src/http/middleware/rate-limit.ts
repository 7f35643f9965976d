/**
 * Requests per API key per minute (RATE_LIMIT_PER_MINUTE; 0 turns it off), by express-rate-limit, with the IETF
 * RateLimit / RateLimit-Policy headers (draft-ietf-httpapi-ratelimit-headers-08) and Retry-After on 429.
 * With REDIS_URL the counters live in Redis (rate-limit-redis, express-rate-limit's own store: one atomic script per
 * request); else on PostgreSQL in the database, a busy key's hits leased a block at a time (LeasedRateLimitStore);
 * either way every instance of the service counts the same window. On SQLite (one process) without Redis they live in
 * memory.
 */
import type { RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Database } from '../../db/data-source.js';
import type { Logger } from '../../log.js';
import { Problem } from '../problems.js';

const WINDOW_MS = 60_000;

/**
 * PostgreSQL: a counter is not money, so its upsert commits without waiting for the WAL flush (synchronous_commit off
 * for this one statement's transaction) and a request pays no durable commit for it. A crash of PostgreSQL may lose
 * the last few hits: the limit is then a little lenient for one window.
 */
const RELAXED_HIT = `SELECT $1::text, $4::int, $2::bigint FROM (SELECT set_config('synchronous_commit', 'off', true)) AS relaxed`;

/**
 * A fixed-window counter per key in the rate_limit_counters table, advanced by one atomic upsert. Rows whose window
 * has ended are deleted once a window (an ended row reads as no row): keys an outsider chooses (addresses, shop
 * names) would otherwise add a row each for good.
 */
export class DatabaseRateLimitStore implements Store {
  localKeys = false;
  prefix = 'rl:';
  private windowMs = WINDOW_MS;
  private prunedAt = 0;

  constructor(private readonly db: Database) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    return this.incrementBy(key, 1);
  }

  /** Adds `hits` to the key's window (a new window when the last has ended): the window's count and end after it. */
  async incrementBy(key: string, hits: number): Promise<ClientRateLimitInfo & { resetTime: Date }> {
    const now = Date.now();
    const rows = await this.db.all<{ hits: number | string; reset_at: number | string }>(
      `INSERT INTO rate_limit_counters (bucket, hits, reset_at) ${this.db.dialect === 'postgres' ? RELAXED_HIT : 'VALUES ($1, $4, $2)'}
       ON CONFLICT (bucket) DO UPDATE SET
         hits = CASE WHEN rate_limit_counters.reset_at <= $3 THEN $4 ELSE rate_limit_counters.hits + $4 END,
         reset_at = CASE WHEN rate_limit_counters.reset_at <= $3 THEN $2 ELSE rate_limit_counters.reset_at END
       RETURNING hits, reset_at`,
      [this.prefix + key, now + this.windowMs, now, hits],
    );
    if (now - this.prunedAt >= this.windowMs) await this.prune(now);
    return { totalHits: Number(rows[0].hits), resetTime: new Date(Number(rows[0].reset_at)) };
  }

  /**
   * Deletes the ended windows (every prefix's: an ended row is the same as none to every reader). A row whose window
   * an upsert restarts meanwhile is not deleted: the condition is checked again on the row the upsert left.
   */
  async prune(now = Date.now()): Promise<number> {
    this.prunedAt = now;
    return this.db.run(`DELETE FROM rate_limit_counters WHERE reset_at <= $1`, [now]);
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const rows = await this.db.all<{ hits: number | string; reset_at: number | string }>(
      `SELECT hits, reset_at FROM rate_limit_counters WHERE bucket = $1 AND reset_at > $2`,
      [this.prefix + key, Date.now()],
    );
    return rows[0] ? { totalHits: Number(rows[0].hits), resetTime: new Date(Number(rows[0].reset_at)) } : undefined;
  }

  async decrement(key: string): Promise<void> {
    await this.db.run(`UPDATE rate_limit_counters SET hits = hits - 1 WHERE bucket = $1 AND hits > 0`, [this.prefix + key]);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.run(`DELETE FROM rate_limit_counters WHERE bucket = $1`, [this.prefix + key]);
  }
}

/** The most hits one instance leases at once for a key, and how recent its last lease must be for the next to double. */
const MAX_LEASE = 64;
const HOT_KEY_MS = 250;

interface Lease {
  /** The next hit number this instance may hand out, and the last it holds (the fleet's count as of its lease). */
  next: number;
  last: number;
  resetAt: number;
  size: number;
  leasedAt: number;
  /** The lease being taken, which callers of the same key wait for. */
  taking?: Promise<void>;
}

/**
 * PostgreSQL counters for a busy key without a statement per request: an instance leases the key's next hits from
 * the shared counter a block at a time (one upsert adds the block: the hit numbers it answers are the block's) and
 * hands them out from memory. A block is 1 hit for a quiet key and doubles (up to MAX_LEASE) while the key is busy,
 * but never passes a sixteenth of what the limit leaves, so that near the limit the leases are single hits again. A
 * hit number is handed out once across the fleet: no instance lets through more than the limit. The price is the
 * other way: hits leased and not used by the window's end are lost, so a key near its limit on several instances may
 * be refused up to that many hits early. Once the fleet's count has reached the limit, the window's further hits are
 * refused here without a statement. At 3,500 requests a second for one key, one statement per 64 instead of one
 * each (src/billing/README.md).
 */
export class LeasedRateLimitStore implements Store {
  localKeys = false;
  private readonly shared: DatabaseRateLimitStore;
  private readonly leases = new Map<string, Lease>();
  private limit = Infinity;

  constructor(db: Database, prefix = 'rl:') {
    this.shared = new DatabaseRateLimitStore(db);
    this.shared.prefix = prefix;
  }

  get prefix(): string {
    return this.shared.prefix;
  }

  init(options: Options): void {
    this.shared.init(options);
    if (typeof options.limit === 'number') this.limit = options.limit;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    for (;;) {
      const lease = this.leases.get(key);
      if (lease && Date.now() < lease.resetAt) {
        if (lease.next <= lease.last) return { totalHits: lease.next++, resetTime: new Date(lease.resetAt) };
        // The fleet has reached the limit in this window: refused without asking (nothing to lease any more).
        if (lease.last >= this.limit) return { totalHits: ++lease.last, resetTime: new Date(lease.resetAt) };
      }
      if (lease?.taking) await lease.taking;
      else await this.take(key, lease);
    }
  }

  private take(key: string, lease: Lease | undefined): Promise<void> {
    const now = Date.now();
    const live = lease && now < lease.resetAt;
    const busy = live && now - lease.leasedAt < HOT_KEY_MS;
    const room = live ? this.limit - lease.last : this.limit;
    const size = Math.max(1, Math.min(busy ? lease.size * 2 : 1, MAX_LEASE, Math.floor(room / 16)));
    const held: Lease = lease ?? { next: 1, last: 0, resetAt: 0, size, leasedAt: now };
    if (!lease) {
      if (this.leases.size >= 10_000) this.forgetEnded(now);
      this.leases.set(key, held);
    }
    held.taking = this.shared.incrementBy(key, size).then(({ totalHits, resetTime }) => {
      Object.assign(held, { next: totalHits - size + 1, last: totalHits, resetAt: resetTime.getTime(), size, leasedAt: now });
    }).finally(() => { held.taking = undefined; });
    return held.taking;
  }

  private forgetEnded(now: number): void {
    for (const [key, lease] of this.leases) if (!lease.taking && lease.resetAt <= now) this.leases.delete(key);
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.shared.get(key);
  }

  async decrement(key: string): Promise<void> {
    await this.shared.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    this.leases.delete(key);
    await this.shared.resetKey(key);
  }
}

/**
 * A connected client of REDIS_URL, or an error within 5 s when Redis cannot be reached at start. Once connected it
 * reconnects by itself; meanwhile its commands fail at once instead of waiting in a queue (no offline queue), so that
 * the rate limit lets requests through while Redis is away (`passOnStoreError` below) rather than holding them.
 */
export async function connectRedis(url: string, logger: Logger) {
  // Loaded only with REDIS_URL: the package is a good part of the service's start otherwise.
  const { createClient } = await import('redis');
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries, cause) => (connected ? Math.min(100 * 2 ** retries, 2_000) : cause),
    },
  });
  client.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));
  client.on('ready', () => { connected = true; });
  await client.connect();
  return client;
}
export type RedisClient = Awaited<ReturnType<typeof connectRedis>>;

/**
 * The per-key counters in Redis, open on failure: while Redis is away a request goes through uncounted, and the
 * outage is logged once a minute through the service's logger (express-rate-limit's own `passOnStoreError` would
 * write a stack trace to stderr for every request).
 */
class FailOpenRedisStore implements Store {
  localKeys = false;
  private readonly inner: RedisStore;
  private warnedAt = 0;

  constructor(client: RedisClient, private readonly log: Logger) {
    this.inner = new RedisStore({
      prefix: 'cv:rl:',
      sendCommand: (...args: string[]) => client.sendCommand(args) as Promise<RedisReply>,
    });
  }

  get prefix(): string {
    return this.inner.prefix;
  }

  init(options: Options): Promise<void> {
    return this.inner.init(options);
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      return await this.inner.increment(key);
    } catch (err) {
      if (Date.now() - this.warnedAt > 60_000) {
        this.warnedAt = Date.now();
        this.log.warn({ err: (err as Error).message }, 'rate limit not counted: Redis is unreachable');
      }
      return { totalHits: 0, resetTime: undefined };
    }
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.inner.get(key).catch(() => undefined);
  }

  async decrement(key: string): Promise<void> {
    await this.inner.decrement(key).catch(() => undefined);
  }

  async resetKey(key: string): Promise<void> {
    await this.inner.resetKey(key);
  }
}

/** Where the per-key counters live: Redis when REDIS_URL is set, else PostgreSQL, else (SQLite) this process's memory. */
export function perKeyStore(db: Database, redis?: { client: RedisClient; log: Logger }): Store {
  if (redis) return new FailOpenRedisStore(redis.client, redis.log);
  return db.dialect === 'postgres' ? new LeasedRateLimitStore(db) : new MemoryStore();
}

/** The rate-limit layers for the /v1 routes: none when the limit is off (`0`), so that no request passes an idle one. */
export function rateLimitPerKey(db: Database, perMinute: number, store: Store = perKeyStore(db)): RequestHandler[] {
  if (perMinute <= 0) return [];
  const limiter = rateLimit({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: `${perMinute}-per-minute`,
    store,
    // Runs after authentication: the key id, never the key itself.
    keyGenerator: (_req, res) => res.locals.context.principal!.keyId,
    handler: (_req, res, next, options) => {
      const retryAfter = res.getHeader('Retry-After');
      next(
        new Problem(
          'rate-limited',
          `At most ${options.limit} requests per minute for one API key; retry after ${retryAfter ?? 60} s.`,
        ),
      );
    },
  });
  return [limiter];
}

/**
 * Refusals counted per key, in a bucket of their own (`prefix`): past `perMinute` in a minute, the caller answers a
 * refusal 429 instead of its own status until the window ends. Only refusals are counted, after the credential was
 * checked, so what is right (a valid key, a signed delivery) is never held back by what others send.
 */
export class RefusalCounter {
  private readonly store: DatabaseRateLimitStore | BoundedCounts;

  /**
   * With a database on PostgreSQL, the counters are the fleet's (every instance counts the same key together);
   * otherwise this process's, bounded (BoundedCounts).
   */
  constructor(readonly perMinute: number, db: Database | undefined, prefix: string, maxKeys = MAX_REFUSAL_KEYS) {
    if (db?.dialect === 'postgres') {
      const shared = new DatabaseRateLimitStore(db);
      shared.prefix = prefix;
      this.store = shared;
    } else {
      this.store = new BoundedCounts(maxKeys);
    }
  }

  /** Counts one refusal for `key`; returns the seconds to wait when the key is over its limit, else null. */
  async refused(key: string): Promise<number | null> {
    const { totalHits, resetTime } = await this.store.increment(key);
    if (totalHits <= this.perMinute) return null;
    return Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
  }

  /** How many keys this process counts now (0 when the fleet's counters are in the database). */
  get keysHeld(): number {
    return this.store instanceof BoundedCounts ? this.store.size : 0;
  }
}

/** The most keys this process counts refusals for in one window (a few MB at most). */
export const MAX_REFUSAL_KEYS = 20_000;

/**
 * This process's refusal counts in one fixed window for all keys, at most `maxKeys` of them: past that, a new key
 * counts in one shared bucket. A flood from many addresses, or naming many shops, costs bounded memory; it only makes
 * the refusals of keys first seen during it 429 sooner (what is right is never counted).
 */
export class BoundedCounts {
  private counts = new Map<string, number>();
  private resetAt = 0;

  constructor(private readonly maxKeys: number, private readonly now: () => number = Date.now) {}

  /** How many keys are counted in this window (the shared bucket included). */
  get size(): number {
    return this.counts.size;
  }

  increment(key: string): { totalHits: number; resetTime: Date } {
    const now = this.now();
    if (now >= this.resetAt) {
      this.counts = new Map();
      this.resetAt = now + WINDOW_MS;
    }
    // `\0` ends no key a caller makes (addresses, shop domains, prefixed ids).
    const bucket = this.counts.has(key) || this.counts.size < this.maxKeys ? key : '\0overflow';
    const hits = (this.counts.get(bucket) ?? 0) + 1;
    this.counts.set(bucket, hits);
    return { totalHits: hits, resetTime: new Date(this.resetAt) };
  }
}

/**
 * Failed authentications per client address: past `perMinute` failures in a minute, a bad key from that address is
 * answered 429 instead of 401 until the window ends. Keys are 190 random bits, so guessing is hopeless anyway; this
 * keeps a scanner from trying and from loading the database. A valid key is never held back by it (a neighbour
 * behind the same NAT stays served).
 */
export class FailedAuthenticationLimiter extends RefusalCounter {
  constructor(perMinute = 30, db?: Database) {
    super(perMinute, db, 'rlauth:');
  }

  /** Counts one failure; returns the seconds to wait when the address is over its limit, else null. */
  fail(address: string): Promise<number | null> {
    return this.refused(ipKeyGenerator(address));
  }
}
