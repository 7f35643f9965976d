/**
 * A store's checkout and orders (docs/shopify.md): its settings (the checkout extension's warn or block, the
 * fulfillment hold on or off) and the proof of the last 30 days: what the extension showed and what buyers did, and
 * what became of the orders checked at purchase.
 */
import { html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { csrfField, numberText, page } from './layout.js';

export interface StoreProof {
  counts: Record<'prompt_shown' | 'went_on_after_warning' | 'suggestion_applied' | 'corrected_by_buyer' | 'confirmed_by_buyer', number>;
  ordersChecked: number;
  ordersHeld: number;
  ordersReleased: number;
  risk: Record<string, number>;
}

export interface StorePageInput {
  web: WebContext;
  connector: { connector_id: string; name: string; shop: string; mode: 'warn' | 'block'; hold: boolean };
  proof: StoreProof;
  days: number;
  saved?: boolean;
}

const ROWS: [keyof StoreProof['counts'] | 'checked' | 'held' | 'released', string][] = [
  ['prompt_shown', 'Prompts shown at checkout'],
  ['went_on_after_warning', 'Checkouts that went on after a warning'],
  ['suggestion_applied', 'Suggestions applied by buyers'],
  ['corrected_by_buyer', 'Addresses corrected by buyers after the order'],
  ['confirmed_by_buyer', 'Addresses confirmed by buyers after the order'],
  ['checked', 'Orders checked'],
  ['held', 'Orders held (undeliverable address)'],
  ['released', 'Holds released'],
];

export function storePage({ web, connector: c, proof, days, saved }: StorePageInput): string {
  const value = (key: (typeof ROWS)[number][0]) =>
    key === 'checked' ? proof.ordersChecked : key === 'held' ? proof.ordersHeld : key === 'released' ? proof.ordersReleased : proof.counts[key];
  return page({
    title: `${c.name}: checkout and orders`, web, path: '/connectors',
    flash: saved ? { kind: 'ok', text: 'The settings are saved.' } : null,
    body: html`<p>${c.shop} · <a href="/connectors">All connectors</a></p>
<form method="post" action="/connectors/${c.connector_id}/store" class="card" data-testid="store-settings">
  <h2>Settings</h2>${csrfField(web)}
  <fieldset><legend>At checkout, an address that cannot be delivered to</legend>
    <div class="field check"><input id="mode-warn" type="radio" name="mode" value="warn"${c.mode === 'warn' ? html` checked` : ''}><label for="mode-warn">Warn the buyer, and let them go on</label></div>
    <div class="field check"><input id="mode-block" type="radio" name="mode" value="block"${c.mode === 'block' ? html` checked` : ''}><label for="mode-block">Block the checkout until it is fixed</label></div>
  </fieldset>
  <div class="field check"><input id="hold" type="checkbox" name="hold" value="true"${c.hold ? html` checked` : ''}><label for="hold">Hold the fulfillment of orders with an undeliverable address until the buyer or you fix it</label></div>
  <p class="hint">Holding needs the app's access scope <code>write_merchant_managed_fulfillment_orders</code>; the connector's check names it when it is missing.</p>
  <button type="submit">Save</button>
</form>
<section class="card" aria-labelledby="proof">
  <h2 id="proof">The last ${days} days</h2>
  <table data-testid="store-proof"><tbody>
  ${ROWS.map(([key, label]) => html`<tr><th scope="row">${label}</th><td data-testid="proof-${key}">${numberText(value(key))}</td></tr>`)}
  ${Object.entries(proof.risk).map(([level, n]) => html`<tr><th scope="row">Orders of risk ${level.toLowerCase()}</th><td data-testid="risk-${level}">${numberText(n)}</td></tr>`)}
  </tbody></table>
</section>`,
  });
}
