/** The signed-in person's own settings: the password. */
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, field, page } from './layout.js';

export function settingsPage(input: {
  web: WebContext; errors?: Record<string, string>; flash?: { kind: 'ok' | 'error'; text: string } | null;
}): string {
  const { web } = input;
  return page({
    title: 'Your settings', web, path: '/settings', flash: input.flash,
    body: html`<p>Signed in as <strong>${web.session?.email}</strong> (${web.session?.role}).</p>
<form method="post" action="/settings/password" class="card narrow">
  <h2>Change the password</h2>
  <p>Every other browser signed in as you is signed out.</p>
  ${csrfField(web)}
  <input type="hidden" name="email" value="${web.session?.email}" autocomplete="username">
  ${field({ name: 'current', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true, error: input.errors?.current })}
  ${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, hint: 'At least 10 characters; a phrase is good.', error: input.errors?.password })}
  <button type="submit">Change the password</button>
</form>`,
  });
}
