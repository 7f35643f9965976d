/**
 * Webhooks: the account's endpoints (a new one's secret shown this once), each endpoint's recent deliveries with a
 * "Send again" button, and the low-balance alert's threshold.
 */
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events.js';
import type { LowBalanceSetting } from '../../webhooks/low-balance.js';
import type { deliveryView, endpointView } from '../../webhooks/webhooks.js';
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { balanceText, csrfField, field, numberText, page, timeText } from './layout.js';

type Endpoint = ReturnType<typeof endpointView> & { deliveries: ReturnType<typeof deliveryView>[] };

const EVENT_TEXT: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'batch.completed': 'a CSV batch is done',
  'batch.paused': 'a batch paused (credits ran out)',
  'batch.failed': 'a batch failed',
  'connector.run.failed': "a connector's run failed",
  'connector.paused': 'a connector paused',
  'credits.low': 'the balance fell below the alert threshold',
  'email.verified': 'an e-mail answer arrived later',
};

const answerText = (d: ReturnType<typeof deliveryView>) =>
  d.response_status === null ? (d.response_text ?? '') : `${d.response_status}${d.response_text ? ` ${d.response_text}` : ''}`;

export function webhooksPage(input: {
  web: WebContext; endpoints: Endpoint[]; alert: LowBalanceSetting; balance: number;
  created?: { id: string; url: string; secret: string } | null;
  errors?: Record<string, string>; values?: { url?: string; events?: string[]; threshold?: string };
  flash?: { kind: 'ok' | 'error'; text: string } | null;
}): string {
  const { web, endpoints, created, alert } = input;
  const chosen = new Set(input.values?.events ?? []);
  return page({
    title: 'Webhooks', web, path: '/webhook-endpoints', flash: input.flash,
    body: html`${created ? html`<section class="card new-key" aria-labelledby="new-secret-title">
  <h2 id="new-secret-title">The signing secret of ${created.url}</h2>
  <p>Copy it now: it is shown this once. Your server checks each delivery's <code>Contact-Validator-Signature</code> with it.</p>
  <div class="copy-row"><label class="visually-hidden" for="new-secret">Signing secret</label>
  <input id="new-secret" class="mono" readonly value="${created.secret}" data-testid="new-secret">
  <button type="button" data-copy="new-secret">Copy</button></div>
</section>` : ''}
<p>Events are sent as a signed HTTPS <code>POST</code> and tried again for 72 hours until your server answers 2xx
(<a href="/docs">API reference</a>; each client library checks a delivery's signature in one call).</p>
${endpoints.length ? endpoints.map((e) => html`<section class="card" aria-labelledby="ep-${e.id}">
  <h2 id="ep-${e.id}" class="mono">${e.url}</h2>
  <p>${e.events.join(', ')} · added ${timeText(e.created_at)}</p>
  <div class="scroll"><table class="stack" data-testid="deliveries">
  <caption>${e.deliveries.length ? `The last ${e.deliveries.length} deliveries` : 'No delivery yet'}</caption>
  <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${e.deliveries.map((d) => html`<tr>
    <td data-label="Event">${d.type}<br><small class="mono">${d.event_id}</small></td>
    <td data-label="Status">${d.status}${d.status === 'pending' && d.next_attempt_at ? html`<br><small>next ${timeText(d.next_attempt_at)}</small>` : ''}</td>
    <td data-label="Attempts">${d.attempts}</td>
    <td data-label="Last answer">${answerText(d)}</td>
    <td data-label="When">${timeText(d.last_attempt_at ?? d.created_at)}</td>
    <td class="row-actions"><form method="post" action="/webhook-endpoints/${e.id}/deliveries/${d.id}/redeliver">${csrfField(web)}<button type="submit" aria-label="Send ${d.type} ${d.event_id} again">Send again</button></form></td>
  </tr>`)}</tbody></table></div>
  <form method="post" action="/webhook-endpoints/${e.id}/delete" data-confirm="Delete the endpoint ${e.url}? Nothing more is sent to it.">${csrfField(web)}<button type="submit" class="danger" aria-label="Delete endpoint ${e.url}">Delete</button></form>
</section>`) : html`<p>No endpoint yet.</p>`}
<div class="columns">
<form method="post" action="/webhook-endpoints" class="card">
  <h2>Add an endpoint</h2>
  ${csrfField(web)}
  ${field({ name: 'url', label: 'URL', type: 'url', value: input.values?.url ?? '', hint: 'https://, on a public address', error: input.errors?.url, required: true })}
  <fieldset${input.errors?.events ? html` aria-describedby="f-events-error"` : ''}><legend>Events</legend>
  ${WEBHOOK_EVENT_TYPES.map((t) => html`<div class="field check"><input id="f-ev-${t}" type="checkbox" name="events" value="${t}"${chosen.has(t) ? html` checked` : ''}><label for="f-ev-${t}"><code>${t}</code>: ${EVENT_TEXT[t]}</label></div>`)}
  ${input.errors?.events ? html`<p class="error" id="f-events-error">${input.errors.events}</p>` : ''}
  </fieldset>
  <button type="submit">Add the endpoint</button>
</form>
<form method="post" action="/webhook-endpoints/low-balance" class="card">
  <h2>Low-balance alert</h2>
  <p>When the balance (now ${balanceText(input.balance)} credits) falls below the threshold, the account's owner gets an
  e-mail and the endpoints a <code>credits.low</code> event, once, until it is back above it.
  ${alert.threshold === null ? 'No alert is set.' : html`Set at <strong data-testid="threshold">${numberText(alert.threshold)}</strong> credits${alert.armed ? '' : ' (sent; waiting for the balance to go back up)'}.`}</p>
  ${csrfField(web)}
  ${field({ name: 'threshold', label: 'Threshold (credits)', type: 'number', value: input.values?.threshold ?? (alert.threshold === null ? '' : String(alert.threshold)), hint: 'Empty: no alert', error: input.errors?.threshold, extra: html` min="0" step="1"` })}
  <button type="submit">Save the alert</button>
</form>
</div>`,
  });
}
