/**
 * The story of one /v1/validate request: price each module from cheap offline facts (an e-mail answer known offline
 * to be `unknown` costs nothing, rather than being charged and refunded), debit the credits atomically (while the
 * engines run, when the ledger already knows the account can pay), run the address, e-mail and phone engines in
 * parallel within the request's budget, refund what the contract refunds (an e-mail answer of status `unknown`;
 * everything when the service itself failed), and answer once the debit is durable.
 */
import type { InDoubtDebits } from '../billing/in-doubt-debits.js';
import type { CreditLedger, DebitOutcome } from '../billing/ledger.js';
import { isDatabaseUnavailable } from '../db/data-source.js';
import { priceRequest, type Charge } from '../billing/pricing.js';
import type { Logger } from '../log.js';
import { EngineFailed, InsufficientCredits } from './errors.js';
import { type NextAction, withNextActions } from './next-action.js';
import type { PolicyRules } from './policies.js';
import { feedbackOutcomeOf, type FeedbackOutcome } from '../email-feedback/feedback.js';
import { parseEmailAddress } from '../validation/email/syntax.js';
import type {
  AddressEngine, AddressResult, Answer, EmailEngine, EmailResult, PhoneEngine, PhoneReadingForPricing, PhoneResult,
} from '../validation/types.js';

export interface Engines {
  address: AddressEngine;
  email: EmailEngine;
  phone: PhoneEngine;
}

export interface ContactInput {
  address?: string;
  email?: string;
  phone?: string;
  country?: string;
  smtp: boolean;
  /** What each answer means to do (./policies.ts); absent: the fixed table (docs/api.md#next_action). */
  policy?: PolicyRules;
}

/** A module's answer with what to do about it (./next-action.ts). */
export type WithNextAction<T> = T & { next_action: NextAction };

export interface ContactAnswer {
  /** The most demanding of the modules' own `next_action`. */
  next_action: NextAction;
  address: WithNextAction<AddressResult> | null;
  email: WithNextAction<EmailResult> | null;
  phone: WithNextAction<PhoneResult> | null;
  credits: { charged: number; remaining: number };
  /**
   * What this call moved in the ledger: its debit less its refunds. `credits.charged` but for a `chargeOnce` key an
   * earlier attempt debited: then only what this attempt refunded (zero or less). Not part of the HTTP answer.
   */
  chargedNow: number;
}

/**
 * Answers that arrive later (src/email-checks): given a paid-for e-mail answer a retry may change, the answer to give
 * (with its `check_id`, or the definite one another instance has had meanwhile). `origin`: the bulk record asked for.
 */
export interface LaterAnswers {
  later(accountId: string, answer: EmailResult, origin: { job: string; key: string } | null, othersNextAction: NextAction | null): Promise<EmailResult>;
}

/** What the account told of its mail (src/email-feedback): an e-mail answer as its feedback makes it. */
export interface FeedbackLookup {
  amend(accountId: string, answer: EmailResult): Promise<EmailResult>;
  /** Keeps an outcome for a normalized address (`local@domain`, the domain in lower-case A-labels). */
  record(accountId: string, email: string, domain: string, outcome: FeedbackOutcome): Promise<unknown>;
}

/** What the use case asks of the ledger: draw a request's charges, give them back. */
export type ContactLedger = Pick<CreditLedger, 'debit' | 'refund' | 'refundDraws'> & Partial<Pick<CreditLedger, 'mayCover'>>;

/** How long past the budget an engine may take before its answer is given up on (engines keep their own budget). */
const BUDGET_GRACE_MS = 250;

class BudgetExceeded extends Error {}

/** One timer per request: rejects once the budget (and a grace) is spent; `cancel` when the answer is in. */
function budgetTimer(deadline: number): { late: Promise<never>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BudgetExceeded()), Math.max(0, deadline - Date.now()) + BUDGET_GRACE_MS);
  });
  late.catch(() => undefined); // nobody may be racing it any more
  return { late, cancel: () => clearTimeout(timer) };
}

/** An engine's answer: a synchronous throw becomes a rejected promise, a failure like any other. */
function begin<T>(work: () => Answer<T>): Answer<T> {
  try {
    return work();
  } catch (err) {
    return Promise.reject(err);
  }
}

const isPending = (answer: unknown): answer is PromiseLike<unknown> =>
  typeof (answer as PromiseLike<unknown> | null)?.then === 'function';

/** What a module answers when its engine ran out of time: honest "we do not know", refunded where the price list says (docs/api.md#credits-and-prices). */
const OUT_OF_TIME = {
  email: (input: string): EmailResult => ({
    status: 'unknown', risk: 'medium', smtp: 'unknown', reason: 'timeout', normalized: input.trim() || null,
    suggestion: null, disposable: false, role: false, free: false,
  }),
  phone: (): PhoneResult => ({
    status: 'unknown', type: 'unknown', carrier: null, carrier_source: 'none', e164: null, country: null, reason: 'timeout',
  }),
};

export class ContactValidation {
  constructor(
    private readonly engines: Engines,
    private readonly ledger: ContactLedger,
    private readonly budgetMs: number,
    /** Debits whose COMMIT may have landed as the database went away: refunded once it is back. */
    private readonly inDoubt?: InDoubtDebits,
    /** Answers that arrive later; absent (test keys, the CLI): an answer that might change later stays as it is. */
    private readonly laterAnswers?: LaterAnswers,
    /** The account's feedback (a bounce reported, a catch-all domain's outcomes); absent: answers as the probe gave them. */
    private readonly feedback?: FeedbackLookup,
  ) {}

  /**
   * Prices the request from cheap offline facts. The address's country also serves as the phone's default region
   * when the request gives no `country`: `(502) 713-4410` beside a Kentucky address is a US number.
   */
  price(input: ContactInput): {
    charges: Charge[]; phoneRegion?: string; phoneReading?: PhoneReadingForPricing; emailAnswer: EmailResult | null;
  } {
    const addressCountry = input.address !== undefined ? this.engines.address.countryOf(input.address, input.country) : null;
    const phoneRegion = input.country ?? addressCountry ?? undefined;
    const phoneReading = input.phone !== undefined ? this.engines.phone.offlineReading(input.phone, phoneRegion) : undefined;
    const emailAnswer = input.email !== undefined ? this.engines.email.offlineAnswer?.(input.email) ?? null : null;
    const charges = priceRequest({
      address: input.address !== undefined ? { country: addressCountry } : undefined,
      email: input.email !== undefined ? { offlineStatus: emailAnswer?.status ?? null } : undefined,
      phone: phoneReading ? { type: phoneReading.type } : undefined,
    });
    return { charges, phoneRegion, phoneReading, emailAnswer };
  }

  /**
   * `chargeOnce`: `requestId` names a unit of work that may be attempted again (a bulk job's record, an
   * Idempotency-Key record): an attempt after the first is not charged again (CreditLedger.debit's `once`).
   * `settleInDoubt`: a debit cut off with the database is refunded once it answers (default: unless `chargeOnce`;
   * a bulk record is attempted again under its key instead, while a request answered 503 is never charged). `pace`: awaited between the debit and the engines,
   * so that bulk work can let interactive requests through between records. Throws InsufficientCredits (nothing
   * charged), EngineFailed (refunded in full), or the database's own error when it cannot be reached (src/db).
   */
  /**
   * Keeps what a bulk record tells of mail sent to its address (a CSV upload's feedback column), before the record is
   * checked, so that its answer already learns from it: `recorded`, `unknown_outcome` (not a word of the vocabulary),
   * `no_email` (no address to tell it of); null when it tells nothing. Telling it again (a chunk attempted again) keeps
   * the same one row.
   */
  async tell(accountId: string, email: string, told: string | undefined): Promise<'recorded' | 'unknown_outcome' | 'no_email' | null> {
    if (!told) return null;
    const outcome = feedbackOutcomeOf(told);
    if (!outcome) return 'unknown_outcome';
    const parsed = parseEmailAddress(email.trim());
    if (!parsed.ok || !this.feedback) return 'no_email';
    await this.feedback.record(accountId, parsed.normalized, parsed.domain, outcome);
    return 'recorded';
  }

  async validate(
    accountId: string, requestId: string, input: ContactInput, arrivedAtEpochMs: number, log: Logger,
    { chargeOnce = false, settleInDoubt = !chargeOnce, pace, origin = null }: {
      chargeOnce?: boolean; settleInDoubt?: boolean; pace?: () => Promise<void>;
      /** The bulk record asked for (its row is mended when an answer arrives later). */
      origin?: { job: string; key: string } | null;
    } = {},
  ): Promise<ContactAnswer> {
    const { charges, phoneRegion, phoneReading, emailAnswer } = this.price(input);
    const required = charges.reduce((sum, c) => sum + c.credits, 0);
    // The engines run while the debit commits when the ledger's own view of the account says it can pay: the debit
    // is then durable by the time the answer is ready, and an instance killed meanwhile has charged nothing for work
    // it never answered. An account it does not know, or that looks short, is debited first (no network check is
    // made for a request that cannot pay).
    const overlap = this.ledger.mayCover?.(accountId, required) ?? false;
    const debiting = this.ledger.debit(accountId, charges, requestId, { once: chargeOnce }).catch((err: unknown) => {
      // Answered 503, so never charged: a debit that committed after all is refunded once the database answers. (A
      // bulk record is attempted again under the same key instead, and its debit, if any, is used.)
      if (settleInDoubt && isDatabaseUnavailable(err)) this.inDoubt?.add(accountId, requestId);
      throw err;
    });
    if (!overlap) {
      const debit = await debiting;
      if (!debit.ok) throw new InsufficientCredits(debit.balance, debit.required);
    } else {
      debiting.catch(() => undefined); // awaited below, once the engines have answered
    }

    if (pace) await pace();
    const deadline = arrivedAtEpochMs + this.budgetMs;
    const { address, email, phone } = input;
    const started = [
      address === undefined ? null : begin(() => this.engines.address.validate(address, { country: input.country, deadline })),
      email === undefined ? null : emailAnswer ?? begin(() => this.engines.email.validate(email, { smtp: input.smtp, deadline })),
      phone === undefined ? null
        : begin(() => this.engines.phone.validate(phone, { country: phoneRegion, deadline, reading: phoneReading })),
    ] as const;
    // Engines whose work waited on nothing have answered already: only a promise (the network) runs against the
    // budget, and a request that has none sets no timer.
    const [addressResult, emailFirst, phoneResult] = started.some(isPending)
      ? await this.withinBudget(started, deadline, email, accountId, requestId, log, debiting)
      : (started as readonly [AddressResult | null, EmailResult | null, PhoneResult | null]);

    const debit = await debiting;
    if (!debit.ok) throw new InsufficientCredits(debit.balance, debit.required);
    // The account's feedback first: an address it has seen bounce is `invalid` now, and no later answer is waited for.
    const emailTold = emailFirst && this.feedback
      ? await this.feedback.amend(accountId, emailFirst).catch((err: unknown) => {
        log.warn({ err, request_id: requestId }, 'e-mail feedback not read');
        return emailFirst;
      })
      : emailFirst;
    const emailLater = emailTold?.status === 'unknown' && input.smtp && this.laterAnswers
      ? await this.laterAnswers.later(accountId, emailTold, origin, withNextActions({ address: addressResult, email: null, phone: phoneResult }).next_action)
        .catch((err: unknown) => {
          // The answer stands without its later one: a check that cannot be stored is no reason to fail the request.
          log.warn({ err, request_id: requestId }, 'e-mail check not opened');
          return emailTold;
        })
      : emailTold;
    // A definite answer another instance had meanwhile learns from the feedback too (a catch-all domain's score).
    const emailResult = emailLater && emailLater !== emailTold && emailLater.status !== 'unknown' && this.feedback
      ? await this.feedback.amend(accountId, emailLater).catch(() => emailLater)
      : emailLater;

    // docs/api.md#credits-and-prices: an e-mail result of status `unknown` is refunded.
    let refunded = 0;
    const emailDraws = emailResult?.status === 'unknown' ? debit.draws.filter((d) => d.module === 'email') : [];
    if (emailDraws.length) {
      // The answer is ready and paid for; if the refund cannot be written now, `credits` says what was really charged.
      refunded = await this.ledger.refundDraws(accountId, requestId, emailDraws).catch((err) => {
        log.error({ err, request_id: requestId }, 'refund failed');
        return 0;
      });
    }
    const credits = { charged: debit.charged - refunded, remaining: debit.remaining + refunded };
    const chargedNow = (debit.repeated ? 0 : debit.charged) - refunded;
    return { ...withNextActions({ address: addressResult, email: emailResult, phone: phoneResult }, input.policy), credits, chargedNow };
  }

  /**
   * Waits for the engines' promises until the budget (and a grace) is spent: a module still working then answers its
   * honest "we do not know" (the address engine has none: it is local CPU work, so running that late is a failure). A
   * failed engine is the service's own fault: the request is refunded in full (EngineFailed).
   */
  private async withinBudget(
    started: readonly [Answer<AddressResult> | null, Answer<EmailResult> | null, Answer<PhoneResult> | null],
    deadline: number,
    email: string | undefined,
    accountId: string,
    requestId: string,
    log: Logger,
    debiting: Promise<DebitOutcome>,
  ): Promise<[AddressResult | null, EmailResult | null, PhoneResult | null]> {
    const budget = budgetTimer(deadline);
    const race = <T>(work: Answer<T> | null, lateAnswer?: () => T): Promise<T | null> =>
      Promise.race([work, budget.late]).catch((err) => {
        if (err instanceof BudgetExceeded && lateAnswer) return lateAnswer();
        throw err;
      });
    const [a, e, p] = await Promise.allSettled([
      race(started[0]),
      race(started[1], () => OUT_OF_TIME.email(email ?? '')),
      race(started[2], OUT_OF_TIME.phone),
    ]);
    budget.cancel();
    const failed = [a, e, p].filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length) {
      // The service's own fault: nothing is charged.
      for (const f of failed) log.error({ err: f.reason, request_id: requestId }, 'engine failed');
      const debit = await debiting; // the refund comes after the debit (or the database's error goes up instead)
      if (!debit.ok) throw new InsufficientCredits(debit.balance, debit.required);
      await this.ledger.refund(accountId, requestId);
      throw new EngineFailed();
    }
    return [
      (a as PromiseFulfilledResult<AddressResult | null>).value,
      (e as PromiseFulfilledResult<EmailResult | null>).value,
      (p as PromiseFulfilledResult<PhoneResult | null>).value,
    ];
  }
}
