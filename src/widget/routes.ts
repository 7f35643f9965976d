/**
 * GET /widget.js: the checkout widget (./widget.ts), built with esbuild on the first request and kept in memory; and
 * GET /widget/demo: a shipping form that loads it with the publishable key given as ?key=, for merchants to try (and
 * for the browser test). The script holds no secret, so any page may load it.
 */
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Request, Response } from 'express';
import { buildBrowserScript, type BuiltScript, lazyBrowserScript, notModified } from '../http/browser-script.js';
import { Problem } from '../http/problems.js';

const WIDGET_SOURCE = fileURLToPath(new URL('./widget.ts', import.meta.url));
/** Short enough that a fix reaches every store within minutes, long enough that a checkout does not ask on each page. */
const WIDGET_MAX_AGE_S = 300;
const PUBLISHABLE_KEY = /^cv_pub_[0-9A-Za-z]{38}$/;

/** Builds the widget (./widget.ts) into one script for browsers. */
export const buildWidget = () => buildBrowserScript(WIDGET_SOURCE);

const widget = lazyBrowserScript(WIDGET_SOURCE);

/** GET /widget.js (declared in src/http/endpoints/service.ts). */
export async function sendWidget(req: Request, res: Response): Promise<void> {
  let script: BuiltScript;
  try {
    script = await widget();
  } catch (err) {
    res.locals.context.log.error({ err }, 'widget build failed');
    throw new Problem('internal', 'The widget script could not be built.');
  }
  res.set({
    'Content-Type': 'text/javascript; charset=utf-8',
    'Cache-Control': `public, max-age=${WIDGET_MAX_AGE_S}`,
    ETag: script.etag,
    'Access-Control-Allow-Origin': '*',
    // A store page with Cross-Origin-Embedder-Policy: require-corp may still load it.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  if (notModified(req, script.etag)) {
    res.status(304).end();
    return;
  }
  res.send(script.code);
}

/** GET /widget/demo: the form, with the key given as ?key= when it is a publishable key. */
export function sendDemo(req: Request, res: Response): void {
  const key = typeof req.query.key === 'string' && PUBLISHABLE_KEY.test(req.query.key) ? req.query.key : undefined;
  sendPage(res, demoPage(key, `${req.protocol}://${req.get('host') ?? 'localhost'}`));
}

/** POST /widget/demo: the demo form's target; it reads and keeps nothing of what was sent. */
export function sendSubmitted(res: Response): void {
  sendPage(res, page('Submitted', `<h1>Submitted</h1><p>The form went through. This demo keeps nothing of what was sent.</p>${WAY_ON}`));
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const DEMO_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#202223}
label{display:block;margin:.6rem 0 .2rem}input,select{box-sizing:border-box;width:100%;padding:.4rem;font:inherit}
.row{display:flex;gap:.8rem}.row>div{flex:1}button[type=submit]{margin-top:1rem;padding:.5rem 1rem;font:inherit}
code{background:#f1f1f1;padding:0 .2rem}pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f1f1f1;padding:.5rem}`;
const STYLE_HASH = `'sha256-${crypto.createHash('sha256').update(DEMO_STYLE).digest('base64')}'`;

/**
 * The pages' policy doubles as a check on the widget: it runs with scripts from this origin only, no inline script and
 * no inline style but the page's own (the widget styles its elements through the CSSOM, which CSP does not restrict).
 */
const DEMO_CSP = [
  "default-src 'none'", "script-src 'self'", "connect-src 'self'", `style-src ${STYLE_HASH}`,
  "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
].join('; ');

function sendPage(res: Response, html: string): void {
  res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': DEMO_CSP, 'Referrer-Policy': 'no-referrer' });
  res.send(html);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${DEMO_STYLE}</style></head><body>${body}</body></html>`;
}

/** The ways on from the demo: back to the dashboard's keys, and the guide (a merchant arrives here from the dashboard). */
const WAY_ON = `<nav aria-label="Next steps"><p><a href="/keys">Back to your API keys</a> · <a href="/docs">API reference</a></p></nav>`;

function demoPage(key: string | undefined, origin: string): string {
  const intro = key
    ? `<p>Type an address, then leave the address fields: a suggestion appears under the form when the address can be standardized.</p>`
    : `<p>The widget is not loaded yet: it needs a publishable key. Create one on the dashboard's
<a href="/keys">API keys</a> page (its sites must include this page's origin, ${escapeHtml(origin)}; <code>localhost</code>
works for development), then open the link shown beside it, or add <code>?key=cv_pub_…</code> to this page's address.</p>`;
  const next = key
    ? `<h2>Next: your own page</h2><p>Add this tag to your checkout or sign-up page, with your site among the key's origins:</p>
<pre><code>${escapeHtml(`<script src="${origin}/widget.js" data-key="${key}" defer></script>`)}</code></pre>`
    : '';
  const script = key ? `<script src="/widget.js" data-key="${escapeHtml(key)}" data-form="#shipping" defer></script>` : '';
  return page('Address check demo', `<h1>Shipping address</h1>${intro}
<form id="shipping" method="post" action="/widget/demo">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email">
<label for="address1">Address</label><input id="address1" name="address1" autocomplete="shipping address-line1">
<label for="address2">Apartment, suite, etc. (optional)</label><input id="address2" name="address2" autocomplete="shipping address-line2">
<div class="row"><div><label for="city">City</label><input id="city" name="city" autocomplete="shipping address-level2"></div>
<div><label for="province">State</label><input id="province" name="province" autocomplete="shipping address-level1"></div>
<div><label for="zip">ZIP code</label><input id="zip" name="zip" autocomplete="shipping postal-code"></div></div>
<label for="country">Country</label><select id="country" name="country" autocomplete="shipping country"><option value="US">United States</option></select>
<button type="submit">Continue to shipping</button>
</form>${next}${WAY_ON}${script}`);
}
