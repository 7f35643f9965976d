/**
 * Connectors: each one's state and last runs, with "run now", pause / resume, its check and the policy its answers
 * follow (the presets and the account's own, docs/connectors.md#policy); and the forms that add one
 * without JSON, one per way to connect each plugin declares (its `connect`: a token form, an OAuth flow, an app's
 * install link), rendered from the declared fields. No platform is named here.
 */
import type { ConnectMethod, ConnectorPlugin, FormField } from '../../sync/plugin.js';
import { html, type Html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, field, numberText, page, timeText } from './layout.js';

export interface ConnectorSummary {
  connector_id: string;
  type: string;
  name: string;
  status: string;
  reason: string | null;
  schedule: string;
  settings?: Record<string, unknown>;
  /** The policy its answers' next actions follow; null: the fixed table. */
  policy?: string | null;
  runs: Array<{ run_id: string; status: string; triggered_by: string; started_at: string | null; finished_at: string | null;
    records_read: number; records_validated: number; records_written: number; credits_charged: number; message: string | null }>;
}

/** Which form a refused submission came from (`<type>-<method>`), what it held, and what was wrong. */
export interface FormState {
  form: string;
  values: Record<string, string>;
  error: string;
}

export interface ConnectorsPageInput {
  web: WebContext;
  connectors: ConnectorSummary[];
  flash?: { kind: 'ok' | 'error'; text: string } | null;
  /** Every plugin's ways to connect, in the registry's order. */
  offers: { plugin: ConnectorPlugin; method: ConnectMethod }[];
  refused?: FormState | null;
  /** The policies a connector may follow: the presets, then the account's own. */
  policies?: string[];
}

export const SCHEDULES = [
  ['*/15 * * * *', 'every 15 minutes'], ['0 * * * *', 'every hour'], ['0 3 * * *', 'every night (03:00 UTC)'],
] as const;

const scheduleText = (cron: string) => SCHEDULES.find(([c]) => c === cron)?.[1] ?? cron;

function select(id: string, name: string, label: string, options: readonly (readonly [string, string])[], chosen?: string): Html {
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}">${options.map(([value, text]) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`)}</select></div>`;
}

const checkbox = (id: string, name: string, value: string, label: string | Html, checked: boolean) =>
  html`<div class="field check"><input id="${id}" type="checkbox" name="${name}" value="${value}"${checked ? html` checked` : ''}><label for="${id}">${label}</label></div>`;

const initialText = (f: FormField) => (typeof f.initial === 'string' ? f.initial : Array.isArray(f.initial) ? f.initial.join(',') : f.initial === true ? 'true' : '');

/** One declared field, with the value typed before (a refused form) or its initial one; a secret is never shown again. */
function formField(prefix: string, f: FormField, values: Record<string, string> | null): Html {
  const id = `${prefix}-${f.name}`;
  const value = values ? values[f.name] ?? '' : initialText(f);
  switch (f.kind) {
    case 'checkbox':
      return checkbox(id, f.name, 'true', f.label, value === 'true');
    case 'multi': {
      const chosen = value.split(',');
      return html`<fieldset><legend>${f.label}</legend>
  ${(f.choices ?? []).map((c) => checkbox(`${id}-${c.value.toLowerCase()}`, f.name, c.value, c.label, chosen.includes(c.value)))}
  </fieldset>`;
    }
    case 'radio':
      return html`<fieldset><legend>${f.label}</legend>
  ${(f.choices ?? []).map((c) => html`<div class="field check"><input id="${id}-${c.value}" type="radio" name="${f.name}" value="${c.value}"${(value || initialText(f)) === c.value ? html` checked` : ''}><label for="${id}-${c.value}">${c.label}</label></div>`)}
  </fieldset>`;
    case 'select':
      return select(id, f.name, f.label, (f.choices ?? []).map((c) => [c.value, c.label] as const), value || initialText(f));
    default:
      return field({
        id, name: f.name, label: f.label, ...(f.hint ? { hint: f.hint } : {}), ...(f.required ? { required: true } : {}),
        ...(f.kind === 'secret' ? { type: 'password', autocomplete: 'off' } : { value, ...(f.kind === 'url' ? { type: 'url' } : {}) }),
        ...(f.name.endsWith('_id') ? { autocomplete: 'off' } : {}),
      });
  }
}

/** What a connector's next actions follow: the fixed table (no policy), a preset or one of the account's policies. */
function policyForm(input: ConnectorsPageInput, c: ConnectorSummary): Html {
  const choices: [string, string][] = [['', 'The fixed table (no policy)'], ...(input.policies ?? []).map((name): [string, string] => [name, name])];
  // A policy no longer listed (deleted meanwhile) still shows as the connector's.
  if (c.policy && !choices.some(([name]) => name === c.policy)) choices.push([c.policy, c.policy]);
  return html`<form method="post" action="/connectors/${c.connector_id}/policy" data-testid="policy-${c.connector_id}">${csrfField(input.web)}
    ${select(`policy-${c.connector_id}`, 'policy', 'Policy', choices, c.policy ?? '')}
    <p class="hint">What each answer's next action follows, and so what is written beside the statuses (<a href="/docs">presets and the account's policies</a>).</p>
    <button type="submit" class="secondary">Save the policy</button></form>`;
}

/** The form of one way to connect one platform, or what its operator must set up when it is not offered. */
function connectForm(input: ConnectorsPageInput, plugin: ConnectorPlugin, method: ConnectMethod): Html {
  const { web } = input;
  const prefix = `${plugin.type}-${method.id}`;
  const refused = input.refused?.form === prefix ? input.refused : null;
  const title = plugin.presentation?.title ?? plugin.type;
  const unavailable = method.unavailable();
  const values = refused?.values ?? null;
  return html`<form method="post" action="/connectors/${plugin.type}/connect" class="card" data-testid="${prefix}">
  <h3>${method.title}</h3>
  ${unavailable ? html`<p>${unavailable}</p>` : html`${method.description ? html`<p>${method.description}</p>` : ''}
  ${csrfField(web)}<input type="hidden" name="method" value="${method.id}">${refused ? html`<p class="error" role="alert">${refused.error}</p>` : ''}
  ${field({ id: `${prefix}-name`, name: 'name', label: 'Name', value: values?.name ?? title, required: method.kind !== 'install' })}
  ${method.fields.map((f) => formField(prefix, f, values))}
  ${select(`${prefix}-schedule`, 'schedule', 'Read every change', SCHEDULES, values?.schedule)}
  <button type="submit">${method.submit ?? method.title}</button>`}
</form>`;
}

function addForms(input: ConnectorsPageInput): Html {
  return html`<h2>Add a connector</h2>
<div class="columns">
${input.offers.map(({ plugin, method }) => connectForm(input, plugin, method))}
</div>`;
}

/** The platforms' titles and summaries, as one phrase (`Salesforce (Contacts and Leads …), Shopify (…)`). */
function platformsText(offers: ConnectorsPageInput['offers']): string {
  const plugins = [...new Map(offers.map(({ plugin }) => [plugin.type, plugin])).values()];
  return plugins.map((p) => `${p.presentation?.title ?? p.type}${p.presentation?.summary ? ` (${p.presentation.summary})` : ''}`).join(', ') || 'the platforms you connect';
}

/** The pages of a plugin's own a connector of this type links to (a store's checkout and orders). */
const linksOf = (offers: ConnectorsPageInput['offers'], type: string) =>
  offers.find(({ plugin }) => plugin.type === type)?.plugin.presentation?.links ?? [];

export function connectorsPage(input: ConnectorsPageInput): string {
  const { web } = input;
  return page({
    title: 'Connectors', web, path: '/connectors', flash: input.flash,
    body: html`<p>Connectors keep the contacts of ${platformsText(input.offers)} checked, and write the verdicts back.
The API does the same (<a href="/docs">API reference</a>).</p>
${input.connectors.length === 0 ? html`<p>No connector yet.</p>` : input.connectors.map((c) => html`<section class="card" aria-labelledby="c-${c.connector_id}">
  <h2 id="c-${c.connector_id}">${c.name} <small>${c.type}</small></h2>
  <p>State: <strong>${c.status}</strong>${c.reason ? ` (${c.reason})` : ''} · ${scheduleText(c.schedule)}${c.settings?.realtime === true ? ' · real time' : ''}</p>
  <div class="actions">
    <form method="post" action="/connectors/${c.connector_id}/run">${csrfField(web)}<button type="submit"${c.status !== 'active' ? html` disabled` : ''}>Run now</button></form>
    <form method="post" action="/connectors/${c.connector_id}/${c.status === 'paused' ? 'resume' : 'pause'}">${csrfField(web)}<button type="submit" class="secondary">${c.status === 'paused' ? 'Resume' : 'Pause'}</button></form>
    <a href="/connectors/${c.connector_id}/check">Check the set-up</a>${linksOf(input.offers, c.type).map((l) => html` · <a href="/connectors/${c.connector_id}/${l.path}">${l.label}</a>`)}
  </div>
  ${policyForm(input, c)}
  ${c.runs.length === 0 ? html`<p>No run yet.</p>` : html`<div class="scroll"><table class="stack"><caption>Last runs</caption>
  <thead><tr><th scope="col">Started</th><th scope="col">By</th><th scope="col">State</th><th scope="col">Read</th><th scope="col">Checked</th><th scope="col">Written</th><th scope="col">Credits</th></tr></thead>
  <tbody>${c.runs.map((r) => html`<tr><td data-label="Started">${timeText(r.started_at)}</td><td data-label="By">${r.triggered_by}</td><td data-label="State">${r.status}${r.message ? html`<br><small>${r.message}</small>` : ''}</td>
    <td data-label="Read">${numberText(r.records_read)}</td><td data-label="Checked">${numberText(r.records_validated)}</td><td data-label="Written">${numberText(r.records_written)}</td><td data-label="Credits">${numberText(r.credits_charged)}</td></tr>`)}</tbody></table></div>`}
</section>`)}
${addForms(input)}`,
  });
}

/** The step between a form and another site (the platform's own pages): the dashboard's forms may only post to itself. */
export function continuePage(web: WebContext, title: string, location: string, to: string): string {
  return page({
    title, web, path: '/connectors',
    head: html`<meta http-equiv="refresh" content="0;url=${location}">`,
    body: html`<p>Taking you to ${to}… <a href="${location}" data-testid="continue">Continue to ${to}</a></p>`,
  });
}
