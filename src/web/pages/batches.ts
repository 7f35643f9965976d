/** CSV batches: upload (with a progress bar), each batch's progress, and the result's download. */
import type { batchView } from '../../batches/batches.js';
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, numberText, page, timeText } from './layout.js';

type BatchView = ReturnType<typeof batchView>;

export function batchesPage(input: {
  web: WebContext; batches: BatchView[]; maxBytes: number; flash?: { kind: 'ok' | 'error'; text: string } | null;
}): string {
  const { web } = input;
  const mb = Math.floor(input.maxBytes / 1024 / 1024);
  return page({
    title: 'Batches', web, path: '/batches', flash: input.flash,
    body: html`<form method="post" action="/batches?_csrf=${web.csrf}" enctype="multipart/form-data" class="card" id="upload-form">
  <h2>Check a CSV file</h2>
  <p>Columns are found by their headers (address, city, state, zip, email, phone…); each row costs what its checks cost. Up to ${mb} MB.</p>
  ${csrfField(web)}
  <div class="field"><label for="f-file">CSV file</label><input id="f-file" type="file" name="file" accept=".csv,text/csv" required></div>
  <details><summary>Columns and options</summary>
    <div class="field"><label for="f-address_columns">Address columns (comma-separated)</label><input id="f-address_columns" name="address_columns"></div>
    <div class="field"><label for="f-email_column">E-mail column</label><input id="f-email_column" name="email_column"></div>
    <div class="field"><label for="f-phone_column">Phone column</label><input id="f-phone_column" name="phone_column"></div>
    <div class="field check"><input id="f-smtp" type="checkbox" name="smtp" value="true" checked><label for="f-smtp">Ask mail servers about each mailbox</label></div>
  </details>
  <button type="submit">Upload and check</button>
  <progress id="upload-progress" max="100" value="0" hidden aria-label="Upload"></progress>
  <p id="upload-status" role="status" aria-live="polite"></p>
</form>
<h2>Your batches</h2>
${input.batches.length === 0 ? html`<p>No batch yet.</p>` : html`<div class="scroll"><table>
<thead><tr><th scope="col">Batch</th><th scope="col">Uploaded</th><th scope="col">Progress</th><th scope="col">Credits</th><th scope="col">Result</th></tr></thead>
<tbody>${input.batches.map((b) => html`<tr data-batch="${b.batch_id}" data-status="${b.status}">
  <td>${b.name ?? b.batch_id}<br><small class="mono">${b.batch_id}</small></td>
  <td>${timeText(b.created_at)}</td>
  <td><progress max="${Math.max(1, b.rows_total)}" value="${b.rows_done}" aria-label="Rows done of ${b.name ?? b.batch_id}"></progress>
    <span class="batch-state">${b.status} · ${numberText(b.rows_done)} / ${numberText(b.rows_total)} rows${b.rows_failed ? ` · ${b.rows_failed} failed` : ''}</span></td>
  <td class="batch-credits">${numberText(b.credits_charged)}</td>
  <td class="batch-result">${b.status === 'completed' ? html`<a href="/batches/${b.batch_id}/result" download>Download CSV</a>` : b.status === 'paused' ? html`<form method="post" action="/batches/${b.batch_id}/resume">${csrfField(web)}<button type="submit">Resume</button></form>` : ''}</td>
</tr>`)}</tbody></table></div>`}`,
  });
}
