/** Usage per module per UTC day (docs/dashboard.md), for GET /v1/usage and the dashboard's chart. */
import type { CreditLedger } from './ledger.js';
import { DAY_MS } from './pricing.js';

export interface UsageDay {
  date: string;
  address: number;
  email: number;
  phone: number;
  credits: number;
}

/** Every day from `from` to `to` inclusive (epoch milliseconds of UTC midnights), days without use as zeros. */
export async function dailyUsage(ledger: CreditLedger, accountId: string, from: number, to: number): Promise<UsageDay[]> {
  const used = await ledger.usageByDay(accountId, from, to + DAY_MS);
  const days: UsageDay[] = [];
  for (let day = from; day <= to; day += DAY_MS) {
    const u = used.get(day / DAY_MS) ?? { address: 0, email: 0, phone: 0, credits: 0 };
    days.push({ date: new Date(day).toISOString().slice(0, 10), ...u });
  }
  return days;
}

/** The UTC midnight of the day a time falls in. */
export const utcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
