/**
 * The buyer's page from the mail about a doubtful delivery address (docs/shopify.md): the order's address as the store
 * has it, one button to confirm it, and a form to correct it. No session: the signed link is the authority, carried in
 * the forms (never kept in a cookie); the pre-session CSRF token guards them like the sign-in forms.
 */
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, field, page } from './layout.js';

export interface OrderAddressView {
  name: string | null;
  address: { address1?: string | null; address2?: string | null; city?: string | null; provinceCode?: string | null; zip?: string | null; countryCodeV2?: string | null } | null;
  /** What the buyer did already, if anything. */
  confirmation: 'asked' | 'confirmed' | 'corrected' | null;
}

const lines = (a: OrderAddressView['address']) => (a
  ? [a.address1, a.address2, [a.city, a.provinceCode, a.zip].filter(Boolean).join(' '), a.countryCodeV2].filter(Boolean) as string[]
  : []);

export function orderAddressPage(input: {
  web: WebContext; token: string; order: OrderAddressView; values?: Record<string, string>; error?: string | null;
}): string {
  const { web, token, order } = input;
  const a = order.address;
  const v = input.values ?? {
    address1: a?.address1 ?? '', address2: a?.address2 ?? '', city: a?.city ?? '', province_code: a?.provinceCode ?? '',
    zip: a?.zip ?? '', country_code: a?.countryCodeV2 ?? '',
  };
  return page({
    title: `Your delivery address${order.name ? ` for order ${order.name}` : ''}`, web,
    flash: input.error ? { kind: 'error', text: input.error } : null,
    body: html`<p>We could not confirm this address. A parcel sent to an address that does not exist comes back, so please check it.</p>
<address data-testid="current-address">${lines(a).map((l) => html`${l}<br>`)}</address>
${order.confirmation === 'confirmed' || order.confirmation === 'corrected' ? html`<p role="status">You already ${order.confirmation} this address; you may still correct it.</p>` : ''}
<form method="post" action="/orders/address">${csrfField(web)}<input type="hidden" name="token" value="${token}"><input type="hidden" name="action" value="confirm">
  <button type="submit">This address is right</button></form>
<h2>Correct it</h2>
<form method="post" action="/orders/address" novalidate>${csrfField(web)}<input type="hidden" name="token" value="${token}"><input type="hidden" name="action" value="correct">
  ${field({ name: 'address1', label: 'Street and number', value: v.address1, autocomplete: 'address-line1', required: true })}
  ${field({ name: 'address2', label: 'Apartment, suite (optional)', value: v.address2, autocomplete: 'address-line2' })}
  ${field({ name: 'city', label: 'City', value: v.city, autocomplete: 'address-level2', required: true })}
  ${field({ name: 'province_code', label: 'State or province', value: v.province_code, autocomplete: 'address-level1' })}
  ${field({ name: 'zip', label: 'ZIP or postal code', value: v.zip, autocomplete: 'postal-code', required: true })}
  ${field({ name: 'country_code', label: 'Country (two letters)', value: v.country_code, autocomplete: 'country', required: true })}
  <button type="submit">Use this address</button></form>`,
  });
}

export function orderAddressDonePage(input: { web: WebContext; status: 'confirmed' | 'corrected'; standardized: string | null }): string {
  return page({
    title: 'Thank you', web: input.web,
    body: input.status === 'confirmed'
      ? html`<p role="status" data-testid="done">Thank you: the address is confirmed, and your order goes on.</p>`
      : html`<p role="status" data-testid="done">Thank you: your order will be delivered to ${input.standardized ?? 'the corrected address'}.</p>`,
  });
}

export function orderLinkProblemPage(web: WebContext, message: string): string {
  return page({ title: 'This link does not work', web, body: html`<p>${message}</p><p>Reply to the store's e-mail if your address needs changing.</p>` });
}
