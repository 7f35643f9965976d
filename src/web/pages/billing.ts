/** Billing: the packs on sale with their prices, buying one through Stripe Checkout, and the receipts. */
import { MODULE_PRICES, type Pack } from '../../billing/pricing.js';
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { moreCreditsHelp } from './credits-help.js';
import { balanceText, csrfField, numberText, page, timeText } from './layout.js';

export interface Receipt {
  checkout_session_id: string;
  pack_size: number;
  amount: string;
  currency: string;
  status: string;
  created_at: string;
  paid_at: string | null;
  refunded_at: string | null;
  disputed_at: string | null;
  note: string | null;
}

/** `1 credit`, `3 credits`. */
const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
const money = (amount: number | string, currency = 'usd') =>
  Number(amount).toLocaleString('en-US', { style: 'currency', currency: currency.toUpperCase() });

export function billingPage(input: {
  web: WebContext; packs: Pack[]; balance: number; receipts: Receipt[]; paymentsEnabled: boolean; currency: string;
  flash?: { kind: 'ok' | 'error'; text: string } | null;
}): string {
  const { web } = input;
  const canBuy = input.paymentsEnabled && web.session?.emailConfirmed;
  return page({
    title: 'Billing', web, path: '/billing', flash: input.flash,
    body: html`<p>Balance: ${balanceText(input.balance)} credits. Credits of a pack are usable for 365 days;
an address check costs ${credits(MODULE_PRICES.addressDomestic)} in the US and Canada (${MODULE_PRICES.addressInternational} elsewhere), an e-mail ${MODULE_PRICES.email}, a phone ${MODULE_PRICES.phone} (${MODULE_PRICES.phoneLandline} for a landline).</p>
${!input.paymentsEnabled ? html`<section class="card" aria-label="Getting credits">${moreCreditsHelp({ accountId: web.session!.accountId, paymentsEnabled: false, credits: 1000 })}
<p><small>The operator sets <code>STRIPE_SECRET_KEY</code> and <code>STRIPE_WEBHOOK_SECRET</code> to sell the packs below by card.</small></p></section>`
  : !web.session?.emailConfirmed ? html`<p class="flash error" role="status">Confirm your e-mail address to buy credits (see the link we sent).</p>` : ''}
<div class="packs">${input.packs.map((p) => html`<form method="post" action="/billing/checkout" class="card pack">
  ${csrfField(web)}<input type="hidden" name="pack" value="${p.size}">
  <h2>${numberText(p.size)} credits</h2>
  <p class="price">${money(p.priceUsd, input.currency)}</p>
  <p><small>${money(p.pricePerCredit * 1000, input.currency)} per 1,000</small></p>
  <button type="submit"${canBuy ? '' : html` disabled`} aria-label="Buy ${numberText(p.size)} credits for ${money(p.priceUsd, input.currency)}">Buy</button>
</form>`)}</div>
<h2>Purchases</h2>
${input.receipts.length === 0 ? html`<p>No purchase yet.</p>` : html`<div class="scroll"><table class="stack">
<thead><tr><th scope="col">Date</th><th scope="col">Pack</th><th scope="col">Amount</th><th scope="col">State</th><th scope="col">Reference</th></tr></thead>
<tbody>${input.receipts.map((r) => html`<tr><td data-label="Date">${timeText(r.paid_at ?? r.created_at)}</td><td data-label="Pack">${numberText(r.pack_size)} credits</td>
<td data-label="Amount">${money(r.amount, r.currency)}</td><td data-label="State">${r.refunded_at ? 'refunded' : r.disputed_at ? 'disputed' : r.status}${r.note ? html`<br><small>${r.note}</small>` : ''}</td>
<td class="mono" data-label="Reference"><small>${r.checkout_session_id}</small></td></tr>`)}</tbody></table></div>`}`,
  });
}
