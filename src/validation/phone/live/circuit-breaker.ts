/**
 * Closed -> open after `failureThreshold` consecutive failures; open for `cooldownMs`; then half-open: one trial
 * request, whose success closes the circuit and whose failure opens it again. `pauseUntil` opens it until a given time
 * without counting a failure (a provider's 429 Retry-After).
 */
export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  failureThreshold: number;
  cooldownMs: number;
  now: () => number;
}

export class CircuitBreaker {
  private consecutiveFailures = 0;
  private openUntil = 0;
  private trialInFlight = false;

  constructor(private readonly options: CircuitBreakerOptions) {}

  get state(): CircuitState {
    if (this.options.now() < this.openUntil) return 'open';
    return this.consecutiveFailures >= this.options.failureThreshold ? 'half_open' : 'closed';
  }

  /** Whether a request may go out now; in half-open state only one trial at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'open') return false;
    if (state === 'half_open') {
      if (this.trialInFlight) return false;
      this.trialInFlight = true;
    }
    return true;
  }

  recordSuccess(): void {
    this.consecutiveFailures = 0;
    this.trialInFlight = false;
  }

  recordFailure(): void {
    this.trialInFlight = false;
    this.consecutiveFailures++;
    if (this.consecutiveFailures >= this.options.failureThreshold) this.openUntil = this.options.now() + this.options.cooldownMs;
  }

  pauseUntil(time: number): void {
    this.trialInFlight = false;
    this.openUntil = Math.max(this.openUntil, time);
  }
}
