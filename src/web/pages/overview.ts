/** The dashboard's first page: balance, grants and their expiry, usage per module per day (a chart and its table). */
import type { Grant } from '../../billing/ledger.js';
import type { Pack } from '../../billing/pricing.js';
import type { UsageDay } from '../../billing/usage.js';
import { html, type Html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { firstSteps } from './first-steps.js';
import { dayText, numberText, page } from './layout.js';

const MODULES = ['address', 'email', 'phone'] as const;
/** The plot's drawing units: each day is DAY_W wide, the tallest day PLOT_H high; the SVG is stretched to its box. */
const DAY_W = 10;
const PLOT_H = 100;

/**
 * Stacked bars of checks per module per day, drawn on the server: no chart library, no script, the figures also in
 * the table below. The bars are an SVG stretched to the page's width; the axis labels are HTML text beside it, so
 * they keep the page's font size on any screen (text inside a scaled SVG shrinks with it, to 6 px on a phone).
 */
export function usageChart(days: UsageDay[]): Html {
  const totals = days.map((d) => d.address + d.email + d.phone);
  // The top of the scale is even, so that its middle line is a whole number too.
  const max = 2 * Math.ceil(Math.max(1, ...totals) / 2);
  const width = Math.max(1, days.length) * DAY_W;
  const barW = DAY_W * 0.7;
  const y = (v: number) => PLOT_H - (v / max) * PLOT_H;
  const bars = days.map((d, i) => {
    let base = 0;
    const x = i * DAY_W + (DAY_W - barW) / 2;
    const parts = MODULES.map((m) => {
      if (d[m] === 0) return html``;
      const top = y(base + d[m]);
      const h = y(base) - top;
      base += d[m];
      return html`<rect class="bar-${m}" x="${x.toFixed(1)}" y="${top.toFixed(2)}" width="${barW.toFixed(1)}" height="${h.toFixed(2)}"></rect>`;
    });
    const label = `${d.date}: ${d.address} address, ${d.email} e-mail, ${d.phone} phone; ${d.credits} credits`;
    return html`<g><title>${label}</title>${parts}</g>`;
  });
  return html`<figure class="chart">
<div class="chart-plot">
  <div class="chart-y" aria-hidden="true"><span>${numberText(max)}</span><span>${numberText(max / 2)}</span><span>0</span></div>
  <svg viewBox="0 0 ${width} ${PLOT_H}" preserveAspectRatio="none" role="img" aria-labelledby="usage-caption">
    <line class="axis" x1="0" y1="${PLOT_H}" x2="${width}" y2="${PLOT_H}"></line>
    <line class="grid" x1="0" y1="${PLOT_H / 2}" x2="${width}" y2="${PLOT_H / 2}"></line>
    ${bars}
  </svg>
  <div class="chart-x" aria-hidden="true"><span>${days[0]?.date ?? ''}</span><span>${days.at(-1)?.date ?? ''}</span></div>
</div>
<figcaption id="usage-caption">Checks per day, last ${days.length} days:
  <span class="key key-address">address</span> <span class="key key-email">e-mail</span> <span class="key key-phone">phone</span></figcaption>
</figure>`;
}

export function overviewPage(input: {
  web: WebContext; balance: number; grants: Grant[]; days: UsageDay[]; packs: Pack[]; flash?: { kind: 'ok' | 'error'; text: string } | null;
  /** The API's address as the person reaches it, and how many live secret or test keys the account has. */
  baseUrl: string; liveKeys: number;
}): string {
  const { web, balance, grants, days } = input;
  const used = days.reduce((sum, d) => sum + d.credits, 0);
  const live = grants.filter((g) => !g.expired && g.remaining > 0);
  // No check in the window: an empty chart says nothing, the first steps say what to do.
  const checked = days.some((d) => d.address || d.email || d.phone);
  return page({
    title: 'Overview', web, path: '/', flash: input.flash,
    body: html`<section class="stats" aria-label="Credits">
  <div class="stat"><span class="stat-label">Balance</span><span class="stat-value" data-balance data-testid="balance">${numberText(balance)}</span><span>credits</span></div>
  <div class="stat"><span class="stat-label">Used, last ${days.length} days</span><span class="stat-value">${numberText(used)}</span><span>credits</span></div>
  <div class="stat"><span class="stat-label">Next expiry</span><span class="stat-value small">${live[0] ? dayText(live[0].expires_at) : '—'}</span><span>${live[0] ? `${numberText(live[0].remaining)} credits` : ''}</span></div>
</section>
${checked ? '' : firstSteps(web, { baseUrl: input.baseUrl, liveKeys: input.liveKeys })}
<p><a class="button" href="/billing">Buy credits</a> <a class="button secondary" href="/keys">API keys</a></p>
<h2>Usage</h2>
${checked ? html`${usageChart(days)}
<details><summary>Usage as a table</summary>
<div class="scroll"><table><caption>Checks and credits per day</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Address</th><th scope="col">E-mail</th><th scope="col">Phone</th><th scope="col">Credits</th></tr></thead>
<tbody>${days.filter((d) => d.credits || d.address || d.email || d.phone).map((d) => html`<tr><th scope="row">${d.date}</th><td>${d.address}</td><td>${d.email}</td><td>${d.phone}</td><td>${d.credits}</td></tr>`)}</tbody>
</table></div></details>` : html`<p data-testid="no-usage">No check in the last ${days.length} days yet: the chart of checks per day appears with the first one.</p>`}
<h2>Credit grants</h2>
<div class="scroll"><table class="stack">
<thead><tr><th scope="col">Kind</th><th scope="col">Credits</th><th scope="col">Remaining</th><th scope="col">Granted</th><th scope="col">Expires</th></tr></thead>
<tbody>${grants.map((g) => html`<tr${g.expired ? html` class="muted"` : ''}><td data-label="Kind">${g.kind}</td><td data-label="Credits">${numberText(g.credits)}</td><td data-label="Remaining">${numberText(g.remaining)}</td><td data-label="Granted">${dayText(g.created_at)}</td><td data-label="Expires">${g.expired ? html`expired ${dayText(g.expires_at)}` : dayText(g.expires_at)}</td></tr>`)}</tbody>
</table></div>`,
  });
}
