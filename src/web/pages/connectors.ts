/** Connectors: each one's state and last runs, with "run now" and pause / resume. */
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, numberText, page, timeText } from './layout.js';

export interface ConnectorSummary {
  connector_id: string;
  type: string;
  name: string;
  status: string;
  reason: string | null;
  schedule: string;
  runs: Array<{ run_id: string; status: string; triggered_by: string; started_at: string | null; finished_at: string | null;
    records_read: number; records_validated: number; records_written: number; credits_charged: number; message: string | null }>;
}

export function connectorsPage(input: { web: WebContext; connectors: ConnectorSummary[]; flash?: { kind: 'ok' | 'error'; text: string } | null }): string {
  const { web } = input;
  return page({
    title: 'Connectors', web, path: '/connectors', flash: input.flash,
    body: html`<p>Connectors keep the contacts of a Salesforce org or a Shopify store checked. Add one with
<code>POST /v1/connectors</code> or the CLI (<a href="/docs">API reference</a>); Shopify stores install the app from their admin.</p>
${input.connectors.length === 0 ? html`<p>No connector yet.</p>` : input.connectors.map((c) => html`<section class="card" aria-labelledby="c-${c.connector_id}">
  <h2 id="c-${c.connector_id}">${c.name} <small>${c.type}</small></h2>
  <p>State: <strong>${c.status}</strong>${c.reason ? ` (${c.reason})` : ''} · schedule <code>${c.schedule}</code></p>
  <div class="actions">
    <form method="post" action="/connectors/${c.connector_id}/run">${csrfField(web)}<button type="submit"${c.status !== 'active' ? html` disabled` : ''}>Run now</button></form>
    <form method="post" action="/connectors/${c.connector_id}/${c.status === 'paused' ? 'resume' : 'pause'}">${csrfField(web)}<button type="submit" class="secondary">${c.status === 'paused' ? 'Resume' : 'Pause'}</button></form>
  </div>
  ${c.runs.length === 0 ? html`<p>No run yet.</p>` : html`<div class="scroll"><table class="stack"><caption>Last runs</caption>
  <thead><tr><th scope="col">Started</th><th scope="col">By</th><th scope="col">State</th><th scope="col">Read</th><th scope="col">Checked</th><th scope="col">Written</th><th scope="col">Credits</th></tr></thead>
  <tbody>${c.runs.map((r) => html`<tr><td data-label="Started">${timeText(r.started_at)}</td><td data-label="By">${r.triggered_by}</td><td data-label="State">${r.status}${r.message ? html`<br><small>${r.message}</small>` : ''}</td>
    <td data-label="Read">${numberText(r.records_read)}</td><td data-label="Checked">${numberText(r.records_validated)}</td><td data-label="Written">${numberText(r.records_written)}</td><td data-label="Credits">${numberText(r.credits_charged)}</td></tr>`)}</tbody></table></div>`}
</section>`)}`,
  });
}
