/**
 * A connector's check (POST /v1/connectors/{id}/check, as a page): what keeps it from working, each with what to do, and for a
 * platform the service can set up itself (its plugin's `setUp`) a button that does it; the plugin's manual steps stay
 * beside it for admins who deploy their own metadata.
 */
import type { CheckResult } from '../../sync/connector-check.js';
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
}

const FIXABLE = new Set(['field_missing', 'field_not_writable', 'object_not_accessible']);

export function connectorCheckPage(input: ConnectorCheckPageInput): string {
  const { web, connector, result } = input;
  const fixable = input.canSetUp && result.problems.some((p) => FIXABLE.has(p.code));
  return page({
    title: `Check: ${connector.name}`, web, path: '/connectors', flash: input.flash,
    body: html`${input.done?.length ? html`<section class="card" aria-labelledby="done-title"><h2 id="done-title">Set up</h2>
  <ul data-testid="setup-done">${input.done.map((d) => html`<li>${d}</li>`)}</ul></section>` : ''}
${result.ok ? html`<p class="flash ok" role="status" data-testid="check-ok">Everything a run needs is there: the connector is ready.</p>`
    : html`<section class="card" aria-labelledby="problems-title"><h2 id="problems-title">What is missing</h2>
  <ul data-testid="check-problems">${result.problems.map((p) => html`<li><strong>${p.message}</strong>${p.fix ? html`<br>${p.fix}` : ''} <small class="mono">${p.code}</small></li>`)}</ul>
  ${fixable ? html`<form method="post" action="/connectors/${connector.connector_id}/setup">${csrfField(web)}
  <p>The connected user can create the fields and the permission set now (an admin's rights are needed).</p>
  <button type="submit">Set up the fields for me</button></form>` : ''}
</section>`}
${input.manualSteps?.length ? html`<details class="card"><summary>The manual steps</summary>
  <ol>${input.manualSteps.map((step) => html`<li>${step.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}</li>`)}</ol></details>` : ''}
<p><a href="/connectors">Back to the connectors</a> · <a href="/connectors/${connector.connector_id}/check">Check again</a></p>`,
  });
}
