/**
 * Manners towards receiving servers: at most N connections per mail host at once and a global cap on connections
 * in flight. A waiter that cannot get a slot before its own time runs out gives up instead of queueing for ever.
 */
export class ConnectionLimitTimeoutError extends Error {
  constructor() {
    super('no free connection slot in time');
    this.name = 'ConnectionLimitTimeoutError';
  }
}

interface Waiter { host: string; grant: () => void }

export class ConnectionLimits {
  private inFlight = 0;
  private readonly perHost = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly maxPerHost: number,
    private readonly maxInFlight: number,
  ) {}

  /** Resolves with a release function once a slot for `host` is free; rejects after `timeoutMs`. */
  acquire(host: string, timeoutMs: number): Promise<() => void> {
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
    return this.inFlight < this.maxInFlight && (this.perHost.get(host) ?? 0) < this.maxPerHost;
  }

  private taken(host: string): () => void {
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
