/**
 * Wraps a PhoneLookupProvider for use inside one request: answers from a per-number cache, fits each call into the
 * request's remaining budget (and a per-call timeout), stops calling while the provider is rate-limiting (429 +
 * Retry-After) or failing (circuit breaker). It never throws: the engine falls back to the offline result.
 */
import { AnswerCache } from './answer-cache.js';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import { PhoneLookupError, type LivePhoneAnswer, type PhoneLookupFailure, type PhoneLookupProvider } from './phone-lookup-provider.js';

export interface LivePhoneLookupOptions {
  /** Upper bound of one provider call, also when the request budget is larger. */
  timeoutMs?: number;
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  breakerFailureThreshold?: number;
  breakerCooldownMs?: number;
  /** Pause after a 429 that has no usable Retry-After. */
  defaultRetryAfterMs?: number;
  /** Longest pause a Retry-After may impose (a misconfigured proxy should not stop live look-ups for a day). */
  maxRetryAfterMs?: number;
  /** Below this much remaining budget no call is started. */
  minimumBudgetMs?: number;
}

export const LIVE_PHONE_LOOKUP_DEFAULTS = {
  timeoutMs: 1500,
  cacheTtlMs: 24 * 60 * 60 * 1000,
  cacheMaxEntries: 10_000,
  breakerFailureThreshold: 5,
  breakerCooldownMs: 30_000,
  defaultRetryAfterMs: 1000,
  maxRetryAfterMs: 10 * 60 * 1000,
  minimumBudgetMs: 25,
} as const satisfies Required<LivePhoneLookupOptions>;

export type LiveLookupOutcome =
  | { kind: 'answered'; answer: LivePhoneAnswer; cached: boolean }
  | { kind: 'skipped'; why: 'circuit_open' | 'no_budget' | 'closed' }
  | { kind: 'failed'; failure: PhoneLookupFailure };

export interface LivePhoneLookup {
  readonly provider: string;
  lookup(e164: string, deadline: number): Promise<LiveLookupOutcome>;
  readonly circuitState: CircuitState;
  /** Aborts calls in flight; later look-ups are skipped. */
  close(): Promise<void>;
}

export function createLivePhoneLookup(
  provider: PhoneLookupProvider,
  options: LivePhoneLookupOptions = {},
  now: () => number = Date.now,
): LivePhoneLookup {
  const settings = { ...LIVE_PHONE_LOOKUP_DEFAULTS, ...definedOnly(options) };
  const cache = new AnswerCache<LivePhoneAnswer>({ maxEntries: settings.cacheMaxEntries, ttlMs: settings.cacheTtlMs, now });
  const breaker = new CircuitBreaker({ failureThreshold: settings.breakerFailureThreshold, cooldownMs: settings.breakerCooldownMs, now });
  const inFlight = new Set<AbortController>();
  let closed = false;

  async function callProvider(e164: string, budgetMs: number): Promise<LiveLookupOutcome> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.min(settings.timeoutMs, budgetMs));
    inFlight.add(controller);
    try {
      const answer = await provider.lookup(e164, controller.signal);
      breaker.recordSuccess();
      cache.set(e164, answer);
      return { kind: 'answered', answer, cached: false };
    } catch (error) {
      const failure: PhoneLookupFailure = error instanceof PhoneLookupError ? error.failure : controller.signal.aborted ? 'timeout' : 'network';
      if (failure === 'rate_limited') {
        const retryAfterMs = (error as PhoneLookupError).details.retryAfterMs ?? settings.defaultRetryAfterMs;
        const pauseMs = Math.min(retryAfterMs, settings.maxRetryAfterMs);
        breaker.pauseUntil(now() + pauseMs);
      } else {
        breaker.recordFailure();
      }
      return { kind: 'failed', failure };
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  return {
    provider: provider.name,
    get circuitState() {
      return breaker.state;
    },
    async lookup(e164, deadline) {
      if (closed) return { kind: 'skipped', why: 'closed' };
      const cached = cache.get(e164);
      if (cached) return { kind: 'answered', answer: cached, cached: true };
      const budgetMs = Number.isFinite(deadline) ? deadline - now() : settings.timeoutMs;
      if (budgetMs < settings.minimumBudgetMs) return { kind: 'skipped', why: 'no_budget' };
      if (!breaker.tryAcquire()) return { kind: 'skipped', why: 'circuit_open' };
      return callProvider(e164, budgetMs);
    },
    async close() {
      closed = true;
      for (const controller of inFlight) controller.abort();
    },
  };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
