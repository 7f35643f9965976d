/**
 * A new account's first steps, on the Overview until it has made its first check: the first call (with a key of its
 * own: a new key is shown once, on the API keys page, with the same command filled in), a sample CSV for a batch,
 * and the docs.
 */
import { html, type Html } from '../html.js';
import { SAMPLE_CSV_NAME } from '../sample-csv.js';
import type { WebContext } from '../web-session.js';
import { copyBlock, firstCall, nonceField } from './keys.js';
import { csrfField } from './layout.js';

export function firstSteps(web: WebContext, input: { baseUrl: string; liveKeys: number }): Html {
  return html`<section class="card first-steps" aria-labelledby="first-steps" data-testid="first-steps">
<h2 id="first-steps">Your first check</h2>
<ol>
<li><p><strong>Call the API.</strong> ${input.liveKeys === 0
    ? html`Create a secret key: it is shown once, with this command filled in.`
    : html`Use one of your keys (a key is shown only when it is made; lost, make a new one).`}</p>
  <form method="post" action="/keys">${csrfField(web)}<input type="hidden" name="kind" value="secret">${nonceField()}
  <button type="submit">Create a secret key</button></form>
  <p>Then, in a terminal, with the key in place of <code>$API_KEY</code>:</p>
  ${copyBlock('first-call', 'the first call', firstCall(input.baseUrl, '$API_KEY'), 'first-call')}</li>
<li><p><strong>Check a file.</strong> Download <a href="/batches/sample.csv" download="${SAMPLE_CSV_NAME}" data-testid="sample-csv">a sample CSV</a>
  (five contacts, about 15 credits) and upload it on <a href="/batches">Batches</a>, or upload your own export.</p></li>
<li><p><strong>Read the docs.</strong> <a href="/docs">The API reference</a>: every endpoint, field and status, with a try-it
  form; client libraries for TypeScript, Python, Go and Java.</p></li>
</ol>
</section>`;
}
