/** The people of the account: the owner invites others by e-mail and may remove them. */
import type { Member } from '../../people/people.js';
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, dayText, field, page } from './layout.js';

export function membersPage(input: {
  web: WebContext; members: Member[]; error?: string | null; email?: string; flash?: { kind: 'ok' | 'error'; text: string } | null;
}): string {
  const { web } = input;
  const owner = web.session?.role === 'owner';
  return page({
    title: 'Members', web, path: '/members', flash: input.flash,
    body: html`<div class="scroll"><table class="stack">
<thead><tr><th scope="col">Person</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${input.members.map((m) => html`<tr><td data-label="Person">${m.email}${m.invited ? html` <small>(invited)</small>` : ''}</td><td data-label="Role">${m.role}</td><td data-label="Since">${dayText(m.created_at)}</td>
<td class="row-actions"><div class="actions">${owner && m.invited ? html`<form method="post" action="/members/${m.user_id}/resend">${csrfField(web)}<button type="submit" class="secondary" aria-label="Send the invitation to ${m.email} again">Send again</button></form>` : ''}
${owner && m.role !== 'owner' ? html`<form method="post" action="/members/${m.user_id}/remove" data-confirm="Remove ${m.email} from the account?">${csrfField(web)}<button type="submit" class="danger" aria-label="Remove ${m.email}">Remove</button></form>` : ''}</div></td></tr>`)}</tbody>
</table></div>
${owner ? html`<form method="post" action="/members" class="card narrow">
  <h2>Invite someone</h2>
  <p>They choose a password through the link we mail them, and see this account's keys, batches, connectors and billing.</p>
  ${csrfField(web)}
  ${field({ name: 'email', label: 'Their e-mail address', type: 'email', required: true, value: input.email, error: input.error })}
  <button type="submit">Send the invitation</button>
</form>` : html`<p>The owner of the account invites and removes people.</p>`}`,
  });
}
