/**
 * A bulk record's flat verdict: the `cv_*` columns of docs/batches.md, each declared once by its name beside the cell
 * it holds. A batch's result file writes them in this order after the file's own columns, and every finished record
 * (a CSV row, a connector's record) keeps its cells in the same order (bulk_records.result), so a column is added by
 * one line at the end of the table and never moved.
 */
import type { ContactAnswer } from '../contact-check/validate-contact.js';

/** What a record's cells are read from: the use case's answer (null when there is none) and the record's error. */
export interface Verdict {
  answer: ContactAnswer | null;
  address: ContactAnswer['address'];
  email: ContactAnswer['email'];
  phone: ContactAnswer['phone'];
  error: string | null;
  /** What became of the record's feedback cell (ContactValidation.tell); null when it had none. */
  feedback: FeedbackNote;
}

/**
 * What became of a record's feedback cell (`cv_feedback`): `recorded`, `unknown_outcome` (no word of the vocabulary),
 * `no_email` (the record has no address to tell it of); null when it had none.
 */
export type FeedbackNote = 'recorded' | 'unknown_outcome' | 'no_email' | null;

type Cell = (v: Verdict) => string | null;

/** A footnote without its code (`A#: ZIP code 40219 added` -> `ZIP code 40219 added`): what a person reads. */
const plainFootnote = (note: string) => note.replace(/^[A-Z0-9]{1,4}#?:\s*/, '');

/** The e-mail's flags that are set, by name, space-separated (`catch_all` from the mailbox probe's verdict). */
export function emailFlags(email: Pick<NonNullable<ContactAnswer['email']>, 'disposable' | 'role' | 'free' | 'smtp'> | null): string | null {
  if (!email) return null;
  const flags = [email.disposable && 'disposable', email.role && 'role', email.free && 'free', email.smtp === 'catch_all' && 'catch_all'];
  return flags.filter(Boolean).join(' ');
}

/**
 * The parts the answer changed, in words a spreadsheet shows (`city spell_corrected (Louisvile → LOUISVILLE); postal_code
 * inferred (40219); unit missing`); empty when nothing changed.
 */
export function addressChangesText(address: Pick<NonNullable<ContactAnswer['address']>, 'changes' | 'missing_unit'>): string {
  const changed = (address.changes ?? []).filter((c) => c.change !== 'none').map((c) =>
    `${c.name} ${c.change} (${c.input !== null && c.input !== c.value ? `${c.input} → ${c.value}` : c.value})`);
  return [...changed, ...(address.missing_unit ? ['unit missing'] : [])].join('; ');
}

/** The columns, in file order: a new one goes last (a column is never moved). */
const VERDICT_CELLS = {
  cv_address_status: ({ address }) => address?.status ?? null,
  cv_address_standardized: ({ address }) => address?.standardized ?? null,
  cv_address_dpv: ({ address }) => address?.dpv ?? null,
  cv_address_zip4: ({ address }) => address?.zip4 ?? null,
  cv_email_status: ({ email }) => email?.status ?? null,
  cv_email_risk: ({ email }) => email?.risk ?? null,
  cv_email_smtp: ({ email }) => email?.smtp ?? null,
  cv_email_suggestion: ({ email }) => email?.suggestion ?? null,
  cv_phone_status: ({ phone }) => phone?.status ?? null,
  cv_phone_type: ({ phone }) => phone?.type ?? null,
  cv_phone_carrier: ({ phone }) => phone?.carrier ?? null,
  cv_phone_e164: ({ phone }) => phone?.e164 ?? null,
  cv_error: ({ error }) => error,
  cv_address_notes: ({ address }) => (address ? address.footnotes.map(plainFootnote).join('; ') : null),
  cv_email_reason: ({ email }) => email?.reason ?? null,
  cv_email_flags: ({ email }) => emailFlags(email),
  cv_next_action: ({ answer }) => answer?.next_action ?? null,
  // Issue #50: where the address is and what confirmed it.
  cv_address_lat: ({ address }) => (address?.location ? String(address.location.lat) : null),
  cv_address_lon: ({ address }) => (address?.location ? String(address.location.lon) : null),
  cv_address_precision: ({ address }) => address?.location?.precision ?? null,
  cv_address_evidence: ({ address }) => address?.evidence ?? null,
  // Issue #55: what the answer changed, part by part, and a missing unit.
  cv_address_changes: ({ address }) => (address ? addressChangesText(address) : null),
  // Issue #54: what became of the row's feedback cell (docs/batches.md#feedback).
  cv_feedback: ({ feedback }) => feedback,
} as const satisfies Record<`cv_${string}`, Cell>;

export type VerdictColumn = keyof typeof VERDICT_CELLS;
export const VERDICT_COLUMNS = Object.keys(VERDICT_CELLS) as VerdictColumn[];
const CELLS: Cell[] = Object.values(VERDICT_CELLS);

/** A record's cells, in VERDICT_COLUMNS order. */
export function verdictOf(answer: ContactAnswer | null, error: string | null, feedback: FeedbackNote = null): (string | null)[] {
  const { address, email, phone } = answer ?? { address: null, email: null, phone: null };
  const verdict: Verdict = { answer, address, email, phone, error, feedback };
  return CELLS.map((cell) => cell(verdict));
}
