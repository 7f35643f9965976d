/**
 * The retries of a platform call, owned by the core for every plugin (Airbyte's split: the platform retries, the
 * connector only says how long to back off). A plugin throws a ConnectorError whose advice says whether trying again
 * can help and how long the platform asked to wait; this loop does the rest: exponential back-off with jitter when the
 * platform said nothing, the platform's wait when it did (Retry-After, a throttle's refill), a cap on tries, on one
 * wait and on the time of all tries, and an abort signal.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { ConnectorError } from './plugin.js';

export interface RetryPolicy {
  /** Tries per call, the first included. */
  attempts: number;
  /** First back-off; doubles each try, with jitter. */
  baseDelayMs: number;
  /** The longest wait: the back-off stops growing there, and a platform asking for longer is given up on at once. */
  maxDelayMs: number;
  /** All the tries of one call together, waits included (absent: only `attempts` limits them). */
  maxElapsedMs?: number;
}

export interface RetryOptions {
  policy: RetryPolicy;
  /** How a wait is spent (tests record it; Shopify counts it as its cost bucket refilling). */
  sleep?: (ms: number) => Promise<void>;
  /** Stops the tries: a wait in progress ends (with the default sleep) and no try follows. */
  signal?: AbortSignal;
  /** Heard before each wait: the try that failed, the wait, and why. */
  onRetry?: (attempt: number, delayMs: number, error: ConnectorError) => void;
  now?: () => number;
  random?: () => number;
}

/**
 * The wait after failed try `attempt` (1, 2, …): exponential, capped at `maxDelayMs`, with equal jitter: half the
 * step fixed and half random (AWS Architecture Blog, "Exponential Backoff And Jitter"). Half a step at least keeps
 * each wait longer than the last one's floor, so a platform that is down is not asked again at once.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** RFC 9110 §10.2.3 Retry-After: delay-seconds or an HTTP-date, as milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * `call` until it succeeds, or fails in a way waiting does not help (anything but a retryable ConnectorError: the
 * outbound guard's refusal, refused credentials), or the policy's tries or time are used up: then its last error.
 */
export async function withRetries<T>(call: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { policy, signal } = options;
  const now = options.now ?? Date.now;
  const started = now();
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await call(attempt);
    } catch (err) {
      if (!(err instanceof ConnectorError) || !err.retryable || attempt >= policy.attempts) throw err;
      const wait = err.retryAfterMs ?? backoffMs(policy, attempt, options.random);
      if (wait > policy.maxDelayMs) throw err;
      if (policy.maxElapsedMs !== undefined && now() - started + wait > policy.maxElapsedMs) throw err;
      options.onRetry?.(attempt, wait, err);
      // An abort ends the wait with the signal's own reason.
      await (options.sleep ? options.sleep(wait) : sleepFor(wait, undefined, { signal }).catch((e: unknown) => {
        signal?.throwIfAborted();
        throw e;
      }));
    }
  }
}
