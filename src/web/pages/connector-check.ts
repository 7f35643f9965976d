/**
 * A connector's check (POST /v1/connectors/{id}/check, as a page): what keeps it from working, each with what to do, and for a
 * platform the service can set up itself (its plugin's `setUp`) a button that does it; the plugin's manual steps stay
 * beside it for admins who deploy their own metadata; and what it reads and writes there (the plugin's `discover`).
 */
import type { CheckResult } from '../../sync/connector-check.js';
import type { Catalog, CatalogField } from '../../sync/plugin.js';
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, page } from './layout.js';

export interface ConnectorCheckPageInput {
  web: WebContext;
  connector: { connector_id: string; name: string; type: string };
  result: CheckResult;
  /** The plugin can fix field and permission problems itself. */
  canSetUp: boolean;
  /** What the set-up just did. */
  done?: string[];
  flash?: { kind: 'ok' | 'error'; text: string } | null;
  /** The plugin's manual steps (its `presentation.manualSteps`), beside the one-click set-up. */
  manualSteps?: string[];
  /** What it reads and writes on the platform (the plugin's `discover`), when the plugin says. */
  catalog?: Catalog | null;
}

const ROLE_WORDS: Record<NonNullable<CatalogField['role']>, string> = {
  email: 'e-mail read', phone: 'phone read', address: 'address read', verdict: 'verdict written', watermark: 'changes paged by',
};
const yesNo = (v: boolean) => (v ? 'yes' : 'no');

function catalogCard(catalog: Catalog) {
  return html`<section class="card" aria-labelledby="catalog-title" data-testid="catalog"><h2 id="catalog-title">What it reads and writes</h2>
${catalog.objects.map((o) => html`<div class="scroll"><table class="stack" data-object="${o.name}"><caption>${o.label && o.label !== o.name ? `${o.label} (${o.name})` : o.name}: ${o.readable ? 'readable' : 'not readable'}, ${o.writable ? 'writable' : 'not writable'}</caption>
  <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Use</th><th scope="col">There</th><th scope="col">Read</th><th scope="col">Write</th></tr></thead>
  <tbody>${o.fields.map((f) => html`<tr data-field="${f.name}"><td data-label="Field" class="mono">${f.name}</td><td data-label="Type">${f.type}</td><td data-label="Use">${f.role ? ROLE_WORDS[f.role] : ''}</td>
    <td data-label="There">${f.present === false ? html`<strong>missing</strong>` : 'yes'}</td><td data-label="Read">${yesNo(f.readable)}</td><td data-label="Write">${yesNo(f.writable)}</td></tr>`)}</tbody></table></div>`)}
</section>`;
}

const FIXABLE = new Set(['field_missing', 'field_not_writable', 'object_not_accessible']);

export function connectorCheckPage(input: ConnectorCheckPageInput): string {
  const { web, connector, result } = input;
  const fixable = input.canSetUp && result.problems.some((p) => FIXABLE.has(p.code));
  // Warnings (an optional field missing) keep nothing from running: said beside the ready note, or marked optional.
  const problem = (p: CheckResult['problems'][number]) => html`<li><strong>${p.message}</strong>${p.fix ? html`<br>${p.fix}` : ''} <small class="mono">${p.code}${p.severity === 'warning' ? ' · optional' : ''}</small></li>`;
  return page({
    title: `Check: ${connector.name}`, web, path: '/connectors', flash: input.flash,
    body: html`${input.done?.length ? html`<section class="card" aria-labelledby="done-title"><h2 id="done-title">Set up</h2>
  <ul data-testid="setup-done">${input.done.map((d) => html`<li>${d}</li>`)}</ul></section>` : ''}
${result.ok ? html`<p class="flash ok" role="status" data-testid="check-ok">Everything a run needs is there: the connector is ready.</p>` : ''}
${result.problems.length ? html`<section class="card" aria-labelledby="problems-title"><h2 id="problems-title">${result.ok ? 'Worth adding' : 'What is missing'}</h2>
  <ul data-testid="check-problems">${result.problems.map(problem)}</ul>
  ${fixable ? html`<form method="post" action="/connectors/${connector.connector_id}/setup">${csrfField(web)}
  <p>The connected user can create the fields and the permission set now (an admin's rights are needed).</p>
  <button type="submit">Set up the fields for me</button></form>` : ''}
</section>` : ''}
${input.catalog ? catalogCard(input.catalog) : ''}
${input.manualSteps?.length ? html`<details class="card"><summary>The manual steps</summary>
  <ol>${input.manualSteps.map((step) => html`<li>${step.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}</li>`)}</ol></details>` : ''}
<p><a href="/connectors">Back to the connectors</a> · <a href="/connectors/${connector.connector_id}/check">Check again</a></p>`,
  });
}
