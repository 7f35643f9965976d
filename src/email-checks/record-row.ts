/**
 * A bulk record's flat verdict (the `cv_*` columns, src/bulk/record-pipeline.ts) with its e-mail columns replaced by
 * the answer that arrived later, and `cv_next_action` made again from it and the record's other modules.
 */
import { VERDICT_COLUMNS, emailFlags } from '../bulk/record-pipeline.js';
import type { NextAction } from '../contact-check/next-action.js';
import type { EmailResult } from '../validation/types.js';

const at = (name: (typeof VERDICT_COLUMNS)[number]) => VERDICT_COLUMNS.indexOf(name);

export function mendedRow(cells: readonly (string | null)[], email: EmailResult, whole: NextAction): (string | null)[] {
  const row = [...cells];
  // A row that was not checked (failed, empty) has no e-mail answer to mend.
  if (row[at('cv_email_status')] === null || row[at('cv_email_status')] === undefined) return row;
  row[at('cv_email_status')] = email.status;
  row[at('cv_email_risk')] = email.risk;
  row[at('cv_email_smtp')] = email.smtp;
  row[at('cv_email_suggestion')] = email.suggestion;
  row[at('cv_email_reason')] = email.reason;
  row[at('cv_email_flags')] = emailFlags(email);
  row[at('cv_next_action')] = whole;
  return row;
}
