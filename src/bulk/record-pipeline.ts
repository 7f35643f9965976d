/**
 * One record of a bulk job through the same use case as /v1/validate (same prices, engines, budget and vocabularies),
 * charged at most once under the key (job, record) however often it is attempted, and turned into the flat verdict
 * every sink writes: the `cv_*` columns of docs/batches.md.
 */
import type { Logger } from '../log.js';
import { contactInputOf, validateRequestSchema } from '../contact-check/contact-request.js';
import { EngineFailed } from '../contact-check/errors.js';
import type { PolicyRules } from '../contact-check/policies.js';
import type { ContactAnswer, ContactInput, ContactValidation } from '../contact-check/validate-contact.js';
import { verdictOf } from '../batches/verdict.js';
import type { FinishedRecord } from './job-store.js';

// The flat verdict's columns are declared by name in src/batches/verdict.ts; re-exported for the sinks that read them.
export { addressChangesText, emailFlags, VERDICT_COLUMNS, verdictOf } from '../batches/verdict.js';

/** What a source yields: a stable key (it sorts in the source's order), and the contact or why there is none. */
export interface SourceRecord {
  key: string;
  /** null: nothing to check (`cv_error` = `empty`), or the reason the record cannot be checked in `error`. */
  input: ContactInput | null;
  error?: string;
  /** What the record tells of mail sent to its address, as written (a CSV upload's feedback column). */
  feedback?: string;
}

/** What a source makes of one record's fields: the body a /v1/validate request would send. */
export interface RecordFields {
  address: string | null;
  email: string | null;
  phone: string | null;
  /** An ISO 3166-1 alpha-2 code, when the source knows one. */
  country?: string;
  smtp: boolean;
  /** What `next_action` follows (docs/api.md#policies); absent: the fixed table. */
  policy?: PolicyRules;
}

/**
 * One record of any source (a CSV row, a connector's record) made into the use case's input through the same request
 * schema as a /v1/validate body: a field too long, or holding control characters, makes the record `failed` with the
 * schema's words in `cv_error` (`invalid_input: email at most 512 characters`), charged nothing.
 */
export function sourceRecordOf(key: string, fields: RecordFields, feedback?: string): SourceRecord {
  const told = feedback ? { feedback } : {};
  if (!fields.address && !fields.email && !fields.phone) return { key, input: null, ...told };
  const body = {
    address: fields.address || null, email: fields.email || null, phone: fields.phone || null,
    ...(fields.country ? { country: fields.country } : {}),
    options: { smtp: fields.smtp },
  };
  const parsed = validateRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { key, input: null, error: `invalid_input: ${issue.path.join('.') || 'row'} ${issue.message}`.slice(0, 200), ...told };
  }
  return { key, input: { ...contactInputOf(parsed.data), ...(fields.policy ? { policy: fields.policy } : {}) }, ...told };
}

/** The ledger's request id of a bulk record: one per (job, record), whatever the attempt. */
export const recordChargeId = (jobId: string, key: string) => `${jobId}:${key}`;

/**
 * Validates one record, charged under `chargeId` (by default the job and the record) at most once, its engines
 * started only once `pace` lets it (TurnGate). Lets the use case's InsufficientCredits through when the account cannot
 * pay for it (nothing charged: the job pauses) and rethrows what is not the record's fault (the database gone: the
 * chunk is attempted again later); a failing engine (EngineFailed) makes the record `failed` (`cv_error` = `internal`),
 * refunded by the use case.
 */
export async function validateRecord(
  validation: ContactValidation, accountId: string, jobId: string, record: SourceRecord, log: Logger,
  { chargeId = recordChargeId(jobId, record.key), pace }: { chargeId?: string; pace?: () => Promise<void> } = {},
): Promise<FinishedRecord & { answer?: ContactAnswer }> {
  const told = record.input?.email ? await validation.tell(accountId, record.input.email, record.feedback) : record.feedback ? 'no_email' : null;
  const failed = (error: string) => ({ key: record.key, outcome: 'failed' as const, credits: 0, result: verdictOf(null, error, told), error });
  if (record.error) return failed(record.error);
  if (!record.input) return { key: record.key, outcome: 'empty', credits: 0, result: verdictOf(null, 'empty', told), error: 'empty' };
  try {
    // `origin`: an e-mail answer that arrives later mends this record's row (src/email-checks).
    const answer = await validation.validate(accountId, chargeId, record.input, Date.now(), log, {
      chargeOnce: true, pace, origin: { job: jobId, key: record.key },
    });
    return { key: record.key, outcome: 'ok', credits: answer.credits.charged, result: verdictOf(answer, null, told), error: null, answer };
  } catch (err) {
    if (err instanceof EngineFailed) return failed('internal');
    throw err;
  }
}
