/** The dashboard's first page: balance, grants and their expiry, usage per module per day (a chart and its table). */
import type { Grant } from '../../billing/ledger.js';
import type { Pack } from '../../billing/pricing.js';
import type { UsageDay } from '../../billing/usage.js';
import { html, type Html } from '../html.js';
import type { WebContext } from '../web-session.js';
import { dayText, numberText, page } from './layout.js';

const MODULES = ['address', 'email', 'phone'] as const;
const CHART = { width: 620, height: 180, left: 40, bottom: 22, top: 8 };

/** Stacked bars of checks per module per day, drawn on the server: no chart library, no script, readable without colour. */
export function usageChart(days: UsageDay[]): Html {
  const totals = days.map((d) => d.address + d.email + d.phone);
  const max = Math.max(1, ...totals);
  const plotH = CHART.height - CHART.bottom - CHART.top;
  const step = (CHART.width - CHART.left) / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.7);
  const y = (v: number) => CHART.top + plotH - (v / max) * plotH;
  const bars = days.map((d, i) => {
    let base = 0;
    const x = CHART.left + i * step + (step - barW) / 2;
    const parts = MODULES.map((m) => {
      if (d[m] === 0) return html``;
      const top = y(base + d[m]);
      const h = y(base) - top;
      base += d[m];
      return html`<rect class="bar-${m}" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}"></rect>`;
    });
    const label = `${d.date}: ${d.address} address, ${d.email} e-mail, ${d.phone} phone; ${d.credits} credits`;
    return html`<g><title>${label}</title>${parts}</g>`;
  });
  const ticks = [...new Set([0, Math.round(max / 2), max])].map((v) => html`<text x="${CHART.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${numberText(v)}</text>`);
  const first = days[0]?.date ?? '';
  const last = days.at(-1)?.date ?? '';
  return html`<figure class="chart">
<svg viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-labelledby="usage-caption">
  <line class="axis" x1="${CHART.left}" y1="${y(0)}" x2="${CHART.width}" y2="${y(0)}"></line>
  ${ticks}${bars}
  <text x="${CHART.left}" y="${CHART.height - 4}">${first}</text>
  <text x="${CHART.width}" y="${CHART.height - 4}" text-anchor="end">${last}</text>
</svg>
<figcaption id="usage-caption">Checks per day, last ${days.length} days:
  <span class="key key-address">address</span> <span class="key key-email">e-mail</span> <span class="key key-phone">phone</span></figcaption>
</figure>`;
}

export function overviewPage(input: {
  web: WebContext; balance: number; grants: Grant[]; days: UsageDay[]; packs: Pack[]; flash?: { kind: 'ok' | 'error'; text: string } | null;
}): string {
  const { web, balance, grants, days } = input;
  const used = days.reduce((sum, d) => sum + d.credits, 0);
  const live = grants.filter((g) => !g.expired && g.remaining > 0);
  return page({
    title: 'Overview', web, path: '/', flash: input.flash,
    body: html`<section class="stats" aria-label="Credits">
  <div class="stat"><span class="stat-label">Balance</span><span class="stat-value" data-testid="balance">${numberText(balance)}</span><span>credits</span></div>
  <div class="stat"><span class="stat-label">Used, last ${days.length} days</span><span class="stat-value">${numberText(used)}</span><span>credits</span></div>
  <div class="stat"><span class="stat-label">Next expiry</span><span class="stat-value small">${live[0] ? dayText(live[0].expires_at) : '—'}</span><span>${live[0] ? `${numberText(live[0].remaining)} credits` : ''}</span></div>
</section>
<p><a class="button" href="/billing">Buy credits</a> <a class="button secondary" href="/keys">API keys</a></p>
<h2>Usage</h2>
${usageChart(days)}
<details><summary>Usage as a table</summary>
<div class="scroll"><table><caption>Checks and credits per day</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Address</th><th scope="col">E-mail</th><th scope="col">Phone</th><th scope="col">Credits</th></tr></thead>
<tbody>${days.filter((d) => d.credits || d.address || d.email || d.phone).map((d) => html`<tr><th scope="row">${d.date}</th><td>${d.address}</td><td>${d.email}</td><td>${d.phone}</td><td>${d.credits}</td></tr>`)}</tbody>
</table></div></details>
<h2>Credit grants</h2>
<div class="scroll"><table>
<thead><tr><th scope="col">Kind</th><th scope="col">Credits</th><th scope="col">Remaining</th><th scope="col">Granted</th><th scope="col">Expires</th></tr></thead>
<tbody>${grants.map((g) => html`<tr${g.expired ? html` class="muted"` : ''}><td>${g.kind}</td><td>${numberText(g.credits)}</td><td>${numberText(g.remaining)}</td><td>${dayText(g.created_at)}</td><td>${g.expired ? html`expired ${dayText(g.expires_at)}` : dayText(g.expires_at)}</td></tr>`)}</tbody>
</table></div>`,
  });
}
