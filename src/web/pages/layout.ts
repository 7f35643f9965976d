/** The frame of every dashboard page: head, navigation, the signed-in person, the unconfirmed-address banner. */
import type { WebContext } from '../web-session.js';
import { html, type Html } from '../html.js';

export const NAV = [
  ['/', 'Overview'], ['/keys', 'API keys'], ['/batches', 'Batches'], ['/connectors', 'Connectors'],
  ['/webhook-endpoints', 'Webhooks'], ['/billing', 'Billing'], ['/members', 'Members'],
] as const;

export const numberText = (n: number) => n.toLocaleString('en-US');
export const dayText = (iso: string | null) => (iso ? iso.slice(0, 10) : '');
/**
 * The account's balance, wherever a page shows it: one figure, read once per page from the ledger, and kept current by
 * the page's script while a batch runs (every `data-balance` element gets the same number).
 */
export const balanceText = (n: number) => html`<strong data-balance data-testid="balance">${numberText(n)}</strong>`;
export const timeText = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '');

export interface PageInput {
  title: string;
  web: WebContext;
  /** The navigation entry to mark as current. */
  path?: string;
  body: Html;
  /** A notice above the page (an action's outcome). */
  flash?: { kind: 'ok' | 'error'; text: string; doneText?: string } | null;
  /** More of the head (a page that moves on to another site by itself). */
  head?: Html;
}

export function csrfField(web: WebContext): Html {
  return html`<input type="hidden" name="_csrf" value="${web.csrf}">`;
}

export function page({ title, web, path, body, flash, head }: PageInput): string {
  const session = web.session;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · contact-validator</title>
<link rel="stylesheet" href="/assets/dashboard.css">
<link rel="icon" href="/favicon.ico" sizes="32x32">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<script src="/assets/dashboard.js" defer></script>
${head ?? ''}
</head>
<body data-csrf="${web.csrf}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/">contact-validator</a>
  ${session ? html`<nav aria-label="Dashboard"><ul>${NAV.map(([href, label]) => html`<li><a href="${href}"${path === href ? html` aria-current="page"` : ''}>${label}</a></li>`)}</ul></nav>
  <form class="who" method="post" action="/signout">${csrfField(web)}<a href="/settings"${path === '/settings' ? html` aria-current="page"` : ''}>${session.email}</a> <button type="submit" class="link">Sign out</button></form>` : ''}
</header>
${session && !session.emailConfirmed ? html`<div class="banner" role="status"><form method="post" action="/confirm/resend">${csrfField(web)}
  Confirm your e-mail address (we sent you a link) before buying credits. <button type="submit" class="link">Send the link again</button></form></div>` : ''}
<main id="main" tabindex="-1">
${flash ? html`<p class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}"${flash.doneText ? html` data-done-text="${flash.doneText}"` : ''}>${flash.text}</p>` : ''}
${web.mailLink ? html`<p class="flash ok mail-link" role="status" data-testid="mail-link">Mail is not configured on this service (SMTP_URL), so no message was sent: here is the link it would carry. <a href="${web.mailLink}">${web.mailLink}</a></p>` : ''}
<h1>${title}</h1>
${body}
</main>
</body>
</html>`}`;
}

/** A labelled input with its error, wired for screen readers (aria-describedby, aria-invalid). */
export function field(input: {
  name: string; label: string; type?: string; value?: string; error?: string | null; autocomplete?: string;
  required?: boolean; hint?: string; extra?: Html;
  /** The input's id when one page has several forms with the same field (default `f-<name>`). */
  id?: string;
}): Html {
  const id = input.id ?? `f-${input.name}`;
  const described = [input.hint ? `${id}-hint` : '', input.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
  <label for="${id}">${input.label}</label>
  ${input.hint ? html`<p class="hint" id="${id}-hint">${input.hint}</p>` : ''}
  <input id="${id}" name="${input.name}" type="${input.type ?? 'text'}" value="${input.value ?? ''}"${input.autocomplete ? html` autocomplete="${input.autocomplete}"` : ''}${input.required ? html` required` : ''}${described ? html` aria-describedby="${described}"` : ''}${input.error ? html` aria-invalid="true"` : ''}${input.extra ?? ''}>
  ${input.error ? html`<p class="error" id="${id}-error">${input.error}</p>` : ''}
</div>`;
}
