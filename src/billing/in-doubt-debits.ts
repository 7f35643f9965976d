/**
 * Debits "in doubt": the database connection died while a debit's COMMIT was on its way, so the service cannot know
 * whether the credits were taken, and answers 503 (nothing charged, docs/api.md#problems). To keep that promise, each such
 * request is settled once the database answers again: whatever its id holds in the ledger is refunded (`refund` is
 * idempotent: a debit that never committed refunds nothing). Retried with a growing delay until it succeeds.
 */
import type { Logger } from '../log.js';
import type { CreditLedger } from './ledger.js';

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 30_000;

export class InDoubtDebits {
  private readonly waiting = new Map<string, { accountId: string; requestId: string; delay: number }>();
  private timer?: NodeJS.Timeout;
  private settling?: Promise<void>;

  constructor(
    private readonly ledger: CreditLedger,
    private readonly log?: Logger,
  ) {}

  /** A debit whose outcome is unknown: it will be refunded, if it happened, as soon as the database allows. */
  add(accountId: string, requestId: string): void {
    this.waiting.set(requestId, { accountId, requestId, delay: FIRST_RETRY_MS });
    this.schedule(FIRST_RETRY_MS);
  }

  get size(): number {
    return this.waiting.size;
  }

  private schedule(ms: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.settling = this.settle();
    }, ms);
    this.timer.unref();
  }

  /** One attempt at every waiting debit now. */
  async settle(): Promise<void> {
    let next = LAST_RETRY_MS;
    for (const item of [...this.waiting.values()]) {
      try {
        const refunded = await this.ledger.refund(item.accountId, item.requestId);
        this.waiting.delete(item.requestId);
        if (refunded) this.log?.warn({ request_id: item.requestId, refunded }, 'debit in doubt refunded: the request was answered 503');
      } catch {
        item.delay = Math.min(item.delay * 2, LAST_RETRY_MS);
        next = Math.min(next, item.delay);
      }
    }
    if (this.waiting.size) this.schedule(next);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.settling;
    // One last try at shutdown; what is left is logged (the ledger holds the request ids for an operator).
    if (this.waiting.size) await this.settle().catch(() => undefined);
    if (this.waiting.size) this.log?.error({ request_ids: [...this.waiting.keys()] }, 'debits in doubt left unsettled at shutdown');
  }
}
