/** The pages of a person who is not signed in: sign up, sign in, forgot password, set a password from a link. */
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, field, page } from './layout.js';

export interface FormState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
  /** A refusal not tied to one field. */
  message?: string;
}

export function signUpPage(web: WebContext, freeCredits: number, state: FormState = {}): string {
  return page({
    title: 'Create an account', web, flash: state.message ? { kind: 'error', text: state.message } : null,
    body: html`<p>Check addresses, e-mail addresses and phone numbers. No card needed: you start with ${freeCredits} free credits.</p>
<form method="post" action="/signup" class="card narrow">
  ${csrfField(web)}
  ${field({ name: 'email', label: 'E-mail address', type: 'email', autocomplete: 'email', required: true, value: state.values?.email, error: state.errors?.email })}
  ${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', required: true, hint: 'At least 10 characters; a phrase is good.', error: state.errors?.password })}
  <button type="submit">Create account</button>
</form>
<p>Already have an account? <a href="/signin">Sign in</a>.</p>`,
  });
}

/**
 * How a mail's link reached the person: `sent` through the relay (SMTP_URL), `shown` on this page (no relay, a browser
 * on the service's own machine), `logged` only (no relay, another machine: the operator finds it in the log), or
 * `dropped` (no relay in production: the link is neither logged nor shown, as a reset link must not be).
 */
export type MailDelivery = 'sent' | 'shown' | 'logged' | 'dropped';

/**
 * The answer to a sign-up, the same whether the address was new or had an account already (that one gets a mail
 * saying so): the form tells nobody who has an account. It says only what happened to the mail.
 */
export function checkMailPage(web: WebContext, email: string, delivery: MailDelivery): string {
  const said = {
    sent: html`<p>We sent a message to <strong>${email}</strong>. Follow its link to confirm the address, then sign in.</p>
<p>Nothing came? Look in the spam folder, or <a href="/signup">sign up again</a>. <a href="/signin">Sign in</a></p>`,
    shown: html`<p>Follow the link above to confirm <strong>${email}</strong>, then sign in. <a href="/signin">Sign in</a></p>`,
    logged: html`<p>Mail is not configured on this service (SMTP_URL), so no message went to <strong>${email}</strong>:
the confirmation link is in the service's log, for its operator to pass on. <a href="/signin">Sign in</a></p>`,
    dropped: html`<p>Mail is not configured on this service (SMTP_URL), so no message went to <strong>${email}</strong>.
Ask the service's operator to set up mail, then sign up again. <a href="/signin">Sign in</a></p>`,
  }[delivery];
  return page({ title: delivery === 'sent' ? 'Check your mail' : 'Confirm your address', web, body: said });
}

export function signInPage(web: WebContext, state: FormState = {}, notice?: string): string {
  return page({
    title: 'Sign in', web,
    flash: state.message ? { kind: 'error', text: state.message } : notice ? { kind: 'ok', text: notice } : null,
    body: html`<form method="post" action="/signin" class="card narrow">
  ${csrfField(web)}${state.values?.next ? html`<input type="hidden" name="next" value="${state.values.next}">` : ''}
  ${field({ name: 'email', label: 'E-mail address', type: 'email', autocomplete: 'username', required: true, value: state.values?.email, error: state.errors?.email })}
  ${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, error: state.errors?.password })}
  <button type="submit">Sign in</button>
</form>
<p><a href="/forgot">Forgot the password?</a> · New here? <a href="/signup">Create an account</a>.</p>`,
  });
}

export function forgotPage(web: WebContext, sent = false, state: FormState = {}): string {
  return page({
    title: 'Reset the password', web,
    flash: sent ? { kind: 'ok', text: 'If this address has an account, a link to set a new password is on its way. It works for an hour.' } : null,
    body: html`<form method="post" action="/forgot" class="card narrow">
  ${csrfField(web)}
  ${field({ name: 'email', label: 'E-mail address', type: 'email', autocomplete: 'email', required: true, value: state.values?.email, error: state.errors?.email })}
  <button type="submit">Send the link</button>
</form>
<p><a href="/signin">Back to sign in</a></p>`,
  });
}

/**
 * The form a reset or invitation link opens; the token travels in a hidden field, never in a later URL. A reset offers
 * to revoke the API keys the person made (ticked unless the person unticked it): whoever had the password may have made some.
 */
export function setPasswordPage(
  web: WebContext, purpose: 'reset' | 'invite', token: string, email: string, state: FormState = {},
  keys: { live: number; revoke: boolean } = { live: 0, revoke: true },
): string {
  return page({
    title: purpose === 'invite' ? 'Join the account' : 'Choose a new password', web,
    flash: state.message ? { kind: 'error', text: state.message } : null,
    body: html`<form method="post" action="/${purpose}" class="card narrow">
  ${csrfField(web)}
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="email" value="${email}" autocomplete="username">
  <p>For <strong>${email}</strong>.</p>
  ${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', required: true, hint: 'At least 10 characters; a phrase is good.', error: state.errors?.password })}
  ${purpose === 'reset' ? html`<div class="field check"><input id="f-revoke_keys" type="checkbox" name="revoke_keys" value="true"${keys.revoke ? html` checked` : ''}><label for="f-revoke_keys">Also revoke the API keys I made (${keys.live} active): whoever knew the old password may have made some</label></div>` : ''}
  <button type="submit">Set the password</button>
</form>`,
  });
}

/** A link that does not work (expired, used, altered). */
export function linkProblemPage(web: WebContext, message: string): string {
  return page({
    title: 'This link does not work', web,
    body: html`<p>${message}</p><p><a href="/forgot">Ask for a new password link</a> · <a href="/signin">Sign in</a></p>`,
  });
}

/** The answer to a refused or failed request, for a person in a browser (the API answers RFC 9457 problems). */
export function errorPage(web: WebContext, title: string, message: string): string {
  return page({ title, web, body: html`<p>${message}</p><p><a href="/">Back to the dashboard</a></p>` });
}
