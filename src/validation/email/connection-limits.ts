/**
 * Manners towards receiving servers: at most N connections per mail host at once, at most M new connections per
 * mail host a minute, and a global cap on connections in flight. A waiter that cannot get a slot before its own
 * time runs out gives up instead of queueing for ever. The per-minute cap is what keeps the service from being
 * turned into a directory-harvest tool against one mail host: past it, addresses there are answered `throttled`.
 */
export class ConnectionLimitTimeoutError extends Error {
  constructor() {
    super('no free connection slot in time');
    this.name = 'ConnectionLimitTimeoutError';
  }
}

export class ConnectionRateExceededError extends Error {
  constructor(host: string) {
    super(`too many connections to ${host} this minute`);
    this.name = 'ConnectionRateExceededError';
  }
}

const MINUTE_MS = 60_000;
/** Hosts whose recent connections are remembered; older ones are forgotten first. */
const MAX_HOSTS_REMEMBERED = 100_000;

interface Waiter { host: string; grant: () => void }

export class ConnectionLimits {
  private inFlight = 0;
  private readonly perHost = new Map<string, number>();
  private readonly queue: Waiter[] = [];
  /** Start times of the connections of the last minute, per host. */
  private readonly recentStarts = new Map<string, number[]>();

  constructor(
    private readonly maxPerHost: number,
    private readonly maxInFlight: number,
    private readonly maxPerHostPerMinute = Infinity,
    private readonly now: () => number = Date.now,
    /** Connections a host may have at once, given the normal cap (host-manners.ts: one while it is slowed down). */
    private readonly perHostLimit: (host: string, normal: number) => number = (_host, normal) => normal,
  ) {}

  /**
   * Resolves with a release function once a slot for `host` is free; rejects after `timeoutMs`, or at once with
   * ConnectionRateExceededError when the host has had its connections for this minute.
   */
  acquire(host: string, timeoutMs: number): Promise<() => void> {
    if (this.startsInLastMinute(host).length >= this.maxPerHostPerMinute) {
      return Promise.reject(new ConnectionRateExceededError(host));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        host,
        grant: () => {
          clearTimeout(timer);
          resolve(this.taken(host));
        },
      };
      const timer = setTimeout(() => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(new ConnectionLimitTimeoutError());
      }, timeoutMs);
      this.queue.push(waiter);
      this.grantWaiting();
    });
  }

  private canTake(host: string): boolean {
    return this.inFlight < this.maxInFlight && (this.perHost.get(host) ?? 0) < this.perHostLimit(host, this.maxPerHost);
  }

  private startsInLastMinute(host: string): number[] {
    const since = this.now() - MINUTE_MS;
    const starts = (this.recentStarts.get(host) ?? []).filter((t) => t > since);
    this.recentStarts.delete(host);
    if (starts.length > 0) this.recentStarts.set(host, starts);
    return starts;
  }

  private taken(host: string): () => void {
    if (this.maxPerHostPerMinute !== Infinity) {
      const starts = this.startsInLastMinute(host);
      starts.push(this.now());
      this.recentStarts.set(host, starts);
      if (this.recentStarts.size > MAX_HOSTS_REMEMBERED) this.recentStarts.delete(this.recentStarts.keys().next().value as string);
    }
    this.inFlight += 1;
    this.perHost.set(host, (this.perHost.get(host) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      const left = (this.perHost.get(host) ?? 1) - 1;
      if (left === 0) this.perHost.delete(host);
      else this.perHost.set(host, left);
      this.grantWaiting();
    };
  }

  private grantWaiting(): void {
    for (let i = 0; i < this.queue.length; ) {
      const waiter = this.queue[i];
      if (this.canTake(waiter.host)) {
        this.queue.splice(i, 1);
        waiter.grant();
      } else {
        i += 1;
      }
    }
  }
}
