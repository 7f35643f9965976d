/**
 * CSV batches: upload (with what the file will cost, and a progress bar), each batch's progress, the result's
 * download, and a paused batch's reason, what finishing it costs, how to get the credits, and Resume.
 */
import type { batchView } from '../../batches/batches.js';
import type { ResultPreview } from '../../batches/result-csv.js';
import type { CreditEstimate } from '../../billing/pricing.js';
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { moreCreditsHelp } from './credits-help.js';
import { SAMPLE_CSV_NAME } from '../sample-csv.js';
import { balanceText, csrfField, numberText, page, timeText } from './layout.js';

type BatchView = ReturnType<typeof batchView> & { to_finish?: CreditEstimate | null };

/** A stopped batch's reason (bulk_jobs.reason), in words. */
const REASONS: Record<string, string> = {
  credits_exhausted: 'the account ran out of credits',
};
const reasonText = (reason: string | null) => (reason === null ? 'no reason recorded' : REASONS[reason] ?? reason.replace(/_/g, ' '));

/** The state as the table's row says it (the page's script writes the same while a batch runs). */
const stateText = (b: BatchView) =>
  `${b.status === 'paused' && b.reason === 'credits_exhausted' ? 'paused, out of credits' : b.status} · ${numberText(b.rows_done)} / ${numberText(b.rows_total)} rows${b.rows_failed ? ` · ${b.rows_failed} failed` : ''}`;

function resumeForm(web: WebContext, b: BatchView) {
  return html`<form method="post" action="/batches/${b.batch_id}/resume">${csrfField(web)}<button type="submit" aria-label="Resume ${b.name ?? b.batch_id}">Resume</button></form>`;
}

/** Why a batch stopped, what its remaining rows cost, and the ways on. */
function pausedNotice(web: WebContext, b: BatchView, balance: number, paymentsEnabled: boolean) {
  const left = b.rows_total - b.rows_done;
  const cost = b.to_finish;
  const short = cost ? Math.max(0, cost.credits - balance) : 0;
  return html`<section class="card paused" aria-labelledby="paused-${b.batch_id}" data-testid="paused-batch">
  <h2 id="paused-${b.batch_id}">${b.name ?? b.batch_id}</h2>
  <p><strong>Paused: ${reasonText(b.reason)}.</strong> ${numberText(b.rows_done)} of ${numberText(b.rows_total)} rows are checked.
  ${cost ? html`The other ${numberText(left)} cost about <strong data-testid="cost-to-finish">${numberText(cost.credits)}</strong> credits${cost.most > cost.credits ? ` (at most ${numberText(cost.most)})` : ''};` : ''}
  the balance is ${numberText(balance)}.</p>
  ${b.reason === 'credits_exhausted' ? html`<p>The batch goes on by itself shortly after credits are added, or press Resume.</p>
  ${moreCreditsHelp({ accountId: web.session!.accountId, paymentsEnabled, credits: short })}` : ''}
  ${resumeForm(web, b)}
</section>`;
}

export function batchesPage(input: {
  web: WebContext; batches: BatchView[]; maxBytes: number; balance: number; paymentsEnabled: boolean;
  flash?: { kind: 'ok' | 'error'; text: string; doneText?: string } | null;
}): string {
  const { web } = input;
  const mb = Math.floor(input.maxBytes / 1024 / 1024);
  return page({
    title: 'Batches', web, path: '/batches', flash: input.flash,
    body: html`<form method="post" action="/batches" enctype="multipart/form-data" class="card" id="upload-form">
  <h2>Check a CSV file</h2>
  <p>Columns are found by their headers (address, city, state, zip, email, phone…); each row costs what its checks cost. Up to ${mb} MB.
  No file at hand? Try <a href="/batches/sample.csv" download="${SAMPLE_CSV_NAME}">the sample CSV</a> (five contacts).</p>
  ${csrfField(web)}
  <div class="field"><label for="f-file">CSV file</label><input id="f-file" type="file" name="file" accept=".csv,text/csv" required aria-describedby="upload-estimate"></div>
  <p id="upload-estimate" class="estimate" aria-live="polite">Balance: ${balanceText(input.balance)} ${input.balance === 1 ? 'credit' : 'credits'}.</p>
  <details><summary>Columns and options</summary>
    <div class="field"><label for="f-address_columns">Address columns (comma-separated)</label><input id="f-address_columns" name="address_columns"></div>
    <div class="field"><label for="f-email_column">E-mail column</label><input id="f-email_column" name="email_column"></div>
    <div class="field"><label for="f-phone_column">Phone column</label><input id="f-phone_column" name="phone_column"></div>
    <div class="field"><label for="f-feedback_column">Feedback column (bounced, delivered, complained)</label><input id="f-feedback_column" name="feedback_column"></div>
    <div class="field check"><input id="f-smtp" type="checkbox" name="smtp" value="true" checked><label for="f-smtp">Ask mail servers about each mailbox</label></div>
  </details>
  <button type="submit">Upload and check</button>
  <progress id="upload-progress" max="100" value="0" hidden aria-label="Upload"></progress>
  <p id="upload-status" role="status" aria-live="polite"></p>
</form>
${input.batches.filter((b) => b.status === 'paused').map((b) => pausedNotice(web, b, input.balance, input.paymentsEnabled))}
<h2>Your batches</h2>
${input.batches.length === 0 ? html`<p>No batch yet.</p>` : html`<div class="scroll"><table class="stack">
<thead><tr><th scope="col">Batch</th><th scope="col">Uploaded</th><th scope="col">Progress</th><th scope="col">Credits</th><th scope="col">Result</th></tr></thead>
<tbody>${input.batches.map((b) => html`<tr data-batch="${b.batch_id}" data-status="${b.status}">
  <td data-label="Batch">${b.name ?? b.batch_id}<br><small class="mono">${b.batch_id}</small></td>
  <td data-label="Uploaded">${timeText(b.created_at)}</td>
  <td data-label="Progress"><progress max="${Math.max(1, b.rows_total)}" value="${b.rows_done}" aria-label="Rows done of ${b.name ?? b.batch_id}"></progress>
    <span class="batch-state">${stateText(b)}</span></td>
  <td class="batch-credits" data-label="Credits">${numberText(b.credits_charged)}</td>
  <td class="batch-result" data-label="Result"><span class="batch-download">${b.status === 'completed' ? html`<a href="/batches/${b.batch_id}/result" download>Download CSV</a> · ` : b.status === 'paused' ? resumeForm(web, b) : ''}</span><a href="/batches/${b.batch_id}" aria-label="Rows to look at in ${b.name ?? b.batch_id}">Rows to look at</a></td>
</tr>`)}</tbody></table></div>
<p class="hint" data-testid="next-action-hint">In the result, <code>cv_next_action</code> says what to do with each row:
<strong>accept</strong> (good as it is), <strong>confirm</strong> (we corrected, suggested or could not check something:
look at it or ask the person), <strong>fix</strong> (something is invalid). Sort or filter on it to start with the rows that need you.</p>
<p class="hint" data-testid="address-changes-hint"><code>cv_address_changes</code> says what the check changed in each address, part by part:
<strong>spell_corrected</strong> (a slip mended: <code>city spell_corrected (LOUISVILE → LOUISVILLE)</code>), <strong>replaced</strong>
(another ZIP code or city put in), <strong>inferred</strong> (added from the rest), <strong>unconfirmed</strong> (kept as written, no data
to confirm it), and <strong>unit missing</strong> when the building has units and the row gives none.</p>`}`,
  });
}

const statusOf = (v: ResultPreview['rows'][number]['verdict'], module: 'address' | 'email' | 'phone') => v[`cv_${module}_status`] || '–';

/**
 * One batch: its state, and the first rows a person should look at (next action confirm or fix, in file order), each
 * with what the check changed in its address (`cv_address_changes`) and the modules' statuses; the CSV has every row.
 */
export function batchPage(input: { web: WebContext; batch: BatchView; preview: ResultPreview | null }): string {
  const { web, batch: b, preview } = input;
  const rows = preview?.rows ?? [];
  return page({
    title: `Batch: ${b.name ?? b.batch_id}`, web, path: '/batches',
    body: html`<section class="card" aria-labelledby="batch-title"><h2 id="batch-title">${b.name ?? b.batch_id}</h2>
  <p><span class="batch-state">${stateText(b)}</span> · ${numberText(b.credits_charged)} credits charged · uploaded ${timeText(b.created_at)}</p>
  ${b.status === 'completed' ? html`<p><a href="/batches/${b.batch_id}/result" download>Download the result (CSV)</a></p>` : ''}
</section>
<h2>Rows to look at</h2>
${preview === null ? html`<p>The batch was canceled; its rows are deleted.</p>`
    : rows.length === 0 ? html`<p data-testid="preview-none">No row ${preview.complete ? '' : `among the first ${numberText(preview.scanned)} checked `}needs you: every one is <strong>accept</strong>.</p>`
    : html`<p>The first ${numberText(rows.length)} rows whose <code>cv_next_action</code> is <strong>confirm</strong> or <strong>fix</strong>${preview.complete ? '' : `, among the first ${numberText(preview.scanned)} rows checked`}; the CSV has them all.</p>
<div class="scroll"><table class="stack" data-testid="preview">
<thead><tr><th scope="col">Row</th><th scope="col">Next</th><th scope="col">Address</th><th scope="col">What changed</th><th scope="col">E-mail</th><th scope="col">Phone</th></tr></thead>
<tbody>${rows.map(({ row, verdict: v }) => html`<tr data-row="${row}"><td data-label="Row">${numberText(row)}</td><td data-label="Next"><strong>${v.cv_next_action}</strong></td>
  <td data-label="Address">${statusOf(v, 'address')}${v.cv_address_standardized ? html`<br><small>${v.cv_address_standardized}</small>` : ''}</td>
  <td data-label="What changed">${v.cv_address_changes ? v.cv_address_changes.split('; ').map((c, i) => html`${i ? html`<br>` : ''}${c}`) : '–'}</td>
  <td data-label="E-mail">${statusOf(v, 'email')}${v.cv_email_suggestion ? html`<br><small>did you mean ${v.cv_email_suggestion}?</small>` : ''}</td>
  <td data-label="Phone">${statusOf(v, 'phone')}</td></tr>`)}</tbody></table></div>`}
<p><a href="/batches">Back to the batches</a></p>`,
  });
}
