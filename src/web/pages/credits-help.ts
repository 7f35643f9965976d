/** How an account gets more credits: Stripe Checkout on the billing page, or, where card payments are not set up, the operator's command. */
import { html, type Html } from '../html.js';

/** The CLI's grant (src/cli.ts), as the operator types it in the service's folder. */
export const grantCommand = (accountId: string, credits: number) =>
  `npm run -s cli -- credits grant --account ${accountId} --credits ${credits}`;

/** A round figure of at least `needed` credits (and never less than 100), for the command to suggest. */
export const roundCredits = (needed: number) => Math.max(100, Math.ceil(needed / 100) * 100);

export function moreCreditsHelp(input: { accountId: string; paymentsEnabled: boolean; credits: number; onBilling?: boolean }): Html {
  if (input.paymentsEnabled) {
    return input.onBilling ? html`` : html`<p><a class="button" href="/billing">Buy credits</a></p>`;
  }
  return html`<div class="operator-help"><p>Card payments are not set up on this service: its operator adds credits to this account
on the server, in the service's folder:</p>
<pre class="command" data-testid="grant-command"><code>${grantCommand(input.accountId, roundCredits(input.credits))}</code></pre></div>`;
}
