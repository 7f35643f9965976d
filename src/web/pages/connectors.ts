/**
 * Connectors: each one's state and last runs, with "run now", pause / resume and its check; and the forms that add one
 * without JSON: Connect Salesforce (the OAuth web-server flow), a Salesforce connected app's client credentials, the
 * Shopify app's install link, and a Shopify custom app's token.
 */
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
  runs: Array<{ run_id: string; status: string; triggered_by: string; started_at: string | null; finished_at: string | null;
    records_read: number; records_validated: number; records_written: number; credits_charged: number; message: string | null }>;
}

/** Which form a refused submission came from, what it held, and what was wrong. */
export interface FormState {
  form: 'salesforce-connect' | 'salesforce' | 'shopify-install' | 'shopify';
  values: Record<string, string>;
  error: string;
}

export interface ConnectorsPageInput {
  web: WebContext;
  connectors: ConnectorSummary[];
  flash?: { kind: 'ok' | 'error'; text: string } | null;
  /** SALESFORCE_CLIENT_ID and SECRET are set: Connect Salesforce is offered. */
  salesforceConnect: boolean;
  /** The Shopify app is set up (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): its install link is offered. */
  shopifyInstall: boolean;
  refused?: FormState | null;
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

/** The Salesforce options both Salesforce forms share: objects, real time, where the standardized values go, schedule. */
function salesforceOptions(prefix: string, values: Record<string, string>): Html {
  const objects = (values.objects ?? 'Contact,Lead').split(',');
  return html`<fieldset><legend>Records to check</legend>
  ${checkbox(`${prefix}-contact`, 'objects', 'Contact', 'Contacts', objects.includes('Contact'))}
  ${checkbox(`${prefix}-lead`, 'objects', 'Lead', 'Leads', objects.includes('Lead'))}
  </fieldset>
  ${checkbox(`${prefix}-realtime`, 'realtime', 'true', 'Check new and changed records within seconds (Change Data Capture)', values.realtime === 'true')}
  <div class="field"><label for="${prefix}-write">Standardized address, e-mail and phone</label>
  <select id="${prefix}-write" name="write_mode">
    <option value="fields"${values.write_mode === 'fields' || !values.write_mode ? html` selected` : ''}>Only the verdict fields (CV_…_Status__c)</option>
    <option value="shadow"${values.write_mode === 'shadow' ? html` selected` : ''}>Beside the typed ones, in CV_ shadow fields</option>
    <option value="overwrite"${values.write_mode === 'overwrite' ? html` selected` : ''}>Over the typed address when it is confirmed</option>
  </select></div>
  ${select(`${prefix}-schedule`, 'schedule', 'Also read every change', SCHEDULES, values.schedule)}`;
}

function refusedFor(input: ConnectorsPageInput, form: FormState['form']) {
  return input.refused?.form === form ? input.refused : null;
}

function formError(refused: FormState | null): Html | string {
  return refused ? html`<p class="error" role="alert">${refused.error}</p>` : '';
}

function addForms(input: ConnectorsPageInput): Html {
  const { web } = input;
  const sfc = refusedFor(input, 'salesforce-connect');
  const sf = refusedFor(input, 'salesforce');
  const shi = refusedFor(input, 'shopify-install');
  const sh = refusedFor(input, 'shopify');
  const environment = sfc?.values.environment ?? 'production';
  return html`<h2>Add a connector</h2>
<div class="columns">
<form method="post" action="/connectors/salesforce/connect" class="card" data-testid="salesforce-connect">
  <h3>Connect Salesforce</h3>
  ${input.salesforceConnect ? html`<p>Sign in to Salesforce as the user the connector should work as (a dedicated integration user is best) and allow access.</p>
  ${csrfField(web)}${formError(sfc)}
  ${field({ id: 'sfc-name', name: 'name', label: 'Name', value: sfc?.values.name ?? 'Salesforce', required: true })}
  <fieldset><legend>Org</legend>
  ${[['production', 'Production (login.salesforce.com)'], ['sandbox', 'Sandbox (test.salesforce.com)'], ['mydomain', 'My Domain']].map(([value, label]) => html`<div class="field check"><input id="sfc-env-${value}" type="radio" name="environment" value="${value}"${environment === value ? html` checked` : ''}><label for="sfc-env-${value}">${label}</label></div>`)}
  ${field({ id: 'sfc-my_domain', name: 'my_domain', label: 'My Domain host', value: sfc?.values.my_domain ?? '', hint: 'acme.my.salesforce.com, when the org signs in on its My Domain' })}
  </fieldset>
  ${salesforceOptions('sfc', sfc?.values ?? {})}
  <button type="submit">Connect Salesforce</button>` : html`<p>The operator has not set up the Salesforce app (<code>SALESFORCE_CLIENT_ID</code>,
  <code>SALESFORCE_CLIENT_SECRET</code>): use a connected app's client credentials instead.</p>`}
</form>
<form method="post" action="/connectors/new" class="card" data-testid="salesforce-credentials">
  <h3>Salesforce with a connected app</h3>
  <p>The client-credentials flow of your own connected app, with its run-as user.</p>
  ${csrfField(web)}<input type="hidden" name="type" value="salesforce">${formError(sf)}
  ${field({ id: 'sf-name', name: 'name', label: 'Name', value: sf?.values.name ?? 'Salesforce', required: true })}
  ${field({ id: 'sf-login_url', name: 'login_url', label: 'My Domain URL', value: sf?.values.login_url ?? '', hint: 'https://acme.my.salesforce.com', required: true })}
  ${field({ id: 'sf-client_id', name: 'client_id', label: 'Consumer key', value: sf?.values.client_id ?? '', required: true, autocomplete: 'off' })}
  ${field({ id: 'sf-client_secret', name: 'client_secret', label: 'Consumer secret', type: 'password', required: true, autocomplete: 'off' })}
  ${salesforceOptions('sf', sf?.values ?? {})}
  <button type="submit">Add the Salesforce connector</button>
</form>
<form method="post" action="/connectors/shopify/install" class="card" data-testid="shopify-install">
  <h3>Install the Shopify app</h3>
  ${input.shopifyInstall ? html`<p>This browser goes on to Shopify, where you approve the app on the store; its customers and orders are then
  checked. The install link works only for a person signed in to this account, and never moves a store another account
  has connected: that account disconnects it first.</p>
  ${csrfField(web)}${formError(shi)}
  ${field({ id: 'shi-shop', name: 'shop', label: 'Store', value: shi?.values.shop ?? '', hint: 'example.myshopify.com', required: true })}
  ${field({ id: 'shi-name', name: 'name', label: 'Name', value: shi?.values.name ?? '' })}
  <button type="submit">Install on Shopify</button>` : html`<p>The operator has not set up the Shopify app (<code>SHOPIFY_API_KEY</code>,
  <code>SHOPIFY_API_SECRET</code>, <code>PUBLIC_BASE_URL</code>): use a custom app's token instead.</p>`}
</form>
<form method="post" action="/connectors/new" class="card" data-testid="shopify-token">
  <h3>Shopify with a custom app</h3>
  <p>A custom app made in the store's admin, with the customer and order scopes.</p>
  ${csrfField(web)}<input type="hidden" name="type" value="shopify">${formError(sh)}
  ${field({ id: 'sh-name', name: 'name', label: 'Name', value: sh?.values.name ?? 'Shopify', required: true })}
  ${field({ id: 'sh-shop', name: 'shop', label: 'Store', value: sh?.values.shop ?? '', hint: 'example.myshopify.com', required: true })}
  ${field({ id: 'sh-access_token', name: 'access_token', label: 'Admin API access token', type: 'password', hint: 'shpat_…', required: true, autocomplete: 'off' })}
  ${field({ id: 'sh-api_secret', name: 'api_secret', label: 'API secret key', type: 'password', hint: 'signs the webhooks', required: true, autocomplete: 'off' })}
  ${select('sh-schedule', 'schedule', 'Read every change', SCHEDULES, sh?.values.schedule)}
  <button type="submit">Add the Shopify connector</button>
</form>
</div>`;
}

export function connectorsPage(input: ConnectorsPageInput): string {
  const { web } = input;
  return page({
    title: 'Connectors', web, path: '/connectors', flash: input.flash,
    body: html`<p>Connectors keep the contacts of a Salesforce org or a Shopify store checked, and write the verdicts back.
The API does the same (<a href="/docs">API reference</a>).</p>
${input.connectors.length === 0 ? html`<p>No connector yet.</p>` : input.connectors.map((c) => html`<section class="card" aria-labelledby="c-${c.connector_id}">
  <h2 id="c-${c.connector_id}">${c.name} <small>${c.type}</small></h2>
  <p>State: <strong>${c.status}</strong>${c.reason ? ` (${c.reason})` : ''} · ${scheduleText(c.schedule)}${c.settings?.realtime === true ? ' · real time' : ''}</p>
  <div class="actions">
    <form method="post" action="/connectors/${c.connector_id}/run">${csrfField(web)}<button type="submit"${c.status !== 'active' ? html` disabled` : ''}>Run now</button></form>
    <form method="post" action="/connectors/${c.connector_id}/${c.status === 'paused' ? 'resume' : 'pause'}">${csrfField(web)}<button type="submit" class="secondary">${c.status === 'paused' ? 'Resume' : 'Pause'}</button></form>
    <a href="/connectors/${c.connector_id}/check">Check the set-up</a>${c.type === 'shopify' ? html` · <a href="/connectors/${c.connector_id}/store">Checkout and orders</a>` : ''}
  </div>
  ${c.runs.length === 0 ? html`<p>No run yet.</p>` : html`<div class="scroll"><table class="stack"><caption>Last runs</caption>
  <thead><tr><th scope="col">Started</th><th scope="col">By</th><th scope="col">State</th><th scope="col">Read</th><th scope="col">Checked</th><th scope="col">Written</th><th scope="col">Credits</th></tr></thead>
  <tbody>${c.runs.map((r) => html`<tr><td data-label="Started">${timeText(r.started_at)}</td><td data-label="By">${r.triggered_by}</td><td data-label="State">${r.status}${r.message ? html`<br><small>${r.message}</small>` : ''}</td>
    <td data-label="Read">${numberText(r.records_read)}</td><td data-label="Checked">${numberText(r.records_validated)}</td><td data-label="Written">${numberText(r.records_written)}</td><td data-label="Credits">${numberText(r.credits_charged)}</td></tr>`)}</tbody></table></div>`}
</section>`)}
${addForms(input)}`,
  });
}

/** The step between a form and another site (Salesforce's or Shopify's pages): the dashboard's forms may only post to itself. */
export function continuePage(web: WebContext, title: string, location: string, to: string): string {
  return page({
    title, web, path: '/connectors',
    head: html`<meta http-equiv="refresh" content="0;url=${location}">`,
    body: html`<p>Taking you to ${to}… <a href="${location}" data-testid="continue">Continue to ${to}</a></p>`,
  });
}
