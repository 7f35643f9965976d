/** API keys: the list, a new secret, test or publishable key (shown this once, with a copy button), revocation. */
import type { ApiKeyInfo } from '../../billing/accounts.js';
import crypto from 'node:crypto';
import { html, type Html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, field, page, timeText } from './layout.js';

/** A key and who made it: null for the CLI's (or the API's, by a key of no person), no e-mail for a person since removed. */
type KeyWithCreator = ApiKeyInfo & { creator?: { email: string | null } | null };

const creatorText = (k: KeyWithCreator) => (!k.creator ? 'API or CLI' : k.creator.email ?? 'a removed member');

/** Names this copy of the form: sent twice (a reload of the answer), it creates one key. */
export const nonceField = () => html`<input type="hidden" name="form_nonce" value="${crypto.randomBytes(16).toString('base64url')}">`;

/** What a key is; a test key is marked so that it is never taken for a live one. */
function kindCell(k: KeyWithCreator) {
  if (k.publishable) return html`publishable<br><small>${k.publishable.origins.join(', ')}${k.publishable.phone ? ' · phone' : ''}</small>`;
  return k.test ? html`<span class="badge test" data-testid="test-key-badge">test</span> <small>free, offline</small>` : 'secret';
}

/**
 * The first thing to run with a key, complete as shown: the API's address, the key, a contact worth checking. A
 * secret or test key calls the API from a terminal; a publishable key goes into a web page, with the widget.
 */
export const firstCall = (baseUrl: string, key: string) => `curl -s ${baseUrl}/v1/validate \\
  -H "Authorization: Bearer ${key}" \\
  -H "Content-Type: application/json" \\
  -d '{"address": "6007 Applegate Ln, Louisville, KY 40219", "email": "ann@gmial.com", "phone": "(502) 713-4410"}'`;
export const widgetTag = (baseUrl: string, key: string) => `<script src="${baseUrl}/widget.js" data-key="${key}" defer></script>`;

/** A command or snippet in its own box (it wraps there, never widening the page), with a Copy button. */
export function copyBlock(id: string, label: string, text: string, testId: string): Html {
  return html`<div class="copy-block"><pre class="command" id="${id}" data-testid="${testId}" aria-label="${label}"><code>${text}</code></pre>
  <button type="button" class="secondary" data-copy="${id}" aria-label="Copy: ${label}">Copy</button></div>`;
}

function newKeyNext(baseUrl: string, created: { api_key: string; publishable: boolean }): Html {
  if (created.publishable) {
    return html`<p>Put this tag in your checkout or sign-up page (<a href="/widget/demo?key=${created.api_key}">try it on the demo page first</a>):</p>
  ${copyBlock('new-key-snippet', 'the widget tag', widgetTag(baseUrl, created.api_key), 'widget-tag')}`;
  }
  return html`<p>Try it now, from a terminal:</p>
  ${copyBlock('new-key-curl', 'the first call', firstCall(baseUrl, created.api_key), 'first-call')}`;
}

export function keysPage(input: {
  web: WebContext; keys: KeyWithCreator[]; created?: { api_key: string; publishable: boolean; test?: boolean } | null;
  error?: string | null; flash?: { kind: 'ok' | 'error'; text: string } | null; origins?: string;
  /** The API's address as the person reaches it, for the commands shown. */
  baseUrl: string;
}): string {
  const { web, keys, created } = input;
  const live = keys.filter((k) => !k.revoked_at);
  return page({
    title: 'API keys', web, path: '/keys', flash: input.flash,
    body: html`${created ? html`<section class="card new-key" aria-labelledby="new-key-title">
  <h2 id="new-key-title">Your new ${created.publishable ? 'publishable' : created.test ? 'test' : 'secret'} key</h2>
  <p>Copy it now: it is shown this once. ${created.publishable ? 'It may appear in your web pages.' : 'Keep it on your server; never put it in a web page.'}
  ${created.test ? html`<strong>Test mode:</strong> it only validates, with network checks off, and charges nothing.` : ''}</p>
  <div class="copy-row"><label class="visually-hidden" for="new-key">New API key</label>
  <input id="new-key" class="mono" readonly value="${created.api_key}" data-testid="new-key">
  <button type="button" data-copy="new-key">Copy</button></div>
  ${newKeyNext(input.baseUrl, created)}
</section>` : ''}
<div class="scroll"><table class="stack">
<caption>${live.length} active of ${keys.length}</caption>
<thead><tr><th scope="col">Key</th><th scope="col">Kind</th><th scope="col">Created</th><th scope="col">Made by</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${keys.map((k) => html`<tr${k.revoked_at ? html` class="muted"` : ''}>
  <td class="mono" data-label="Key">${k.prefix}…</td>
  <td data-label="Kind">${kindCell(k)}</td>
  <td data-label="Created">${timeText(k.created_at)}</td>
  <td data-label="Made by">${creatorText(k)}</td>
  <td data-label="State">${k.revoked_at ? `revoked ${timeText(k.revoked_at)}` : 'active'}</td>
  <td class="row-actions">${k.revoked_at ? '' : html`<form method="post" action="/keys/${k.key_id}/revoke" data-confirm="Revoke ${k.prefix}…? Requests with it fail at once.">${csrfField(web)}<button type="submit" class="danger" aria-label="Revoke key ${k.prefix}">Revoke</button></form>`}</td>
</tr>`)}</tbody></table></div>
<div class="columns">
<form method="post" action="/keys" class="card">
  <h2>A secret key</h2>
  <p>For your servers: every endpoint of the API.</p>
  ${csrfField(web)}<input type="hidden" name="kind" value="secret">${nonceField()}
  <button type="submit">Create a secret key</button>
</form>
<form method="post" action="/keys" class="card">
  <h2>A test key</h2>
  <p>For your tests and CI: validation only, network checks off, <strong>never charged</strong>; answers say <code>"test": true</code>.</p>
  ${csrfField(web)}<input type="hidden" name="kind" value="test">${nonceField()}
  <button type="submit">Create a test key</button>
</form>
<form method="post" action="/keys" class="card">
  <h2>A publishable key</h2>
  <p>For a checkout or sign-up page with the address-check widget (<a href="/widget/demo">its demo page</a>): validation only, from your sites only.</p>
  ${csrfField(web)}<input type="hidden" name="kind" value="publishable">${nonceField()}
  ${field({ name: 'origins', label: 'Sites (origins), comma-separated', value: input.origins ?? '', hint: 'e.g. https://shop.example.com', error: input.error, required: true })}
  <div class="field check"><input id="f-phone" type="checkbox" name="phone" value="true"><label for="f-phone">May check phone numbers</label></div>
  <button type="submit">Create a publishable key</button>
</form>
</div>`,
  });
}
