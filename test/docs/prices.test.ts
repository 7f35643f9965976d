/**
 * The prices the docs quote are the table's (src/billing/pricing.ts `MODULE_PRICES`): each sentence that states a
 * module's price is read out of its doc and compared with what the table renders, so a price changed in the table
 * and not in the docs fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_PRICES as P, modulePricesText } from '../../src/billing/pricing.js';

const root = path.resolve(import.meta.dirname, '../..');
const doc = (file: string) => fs.readFileSync(path.join(root, file), 'utf8').replace(/\s*\n\s*/g, ' ');

/** Each doc and the price sentences it must hold, written from the table. */
const QUOTES: { file: string; quotes: string[] }[] = [
  {
    file: 'docs/api.md',
    quotes: [
      `| e-mail | ${P.email} (refunded when the answer is \`unknown\``,
      `| address in the US or Canada (territories and APO/FPO included) | ${P.addressDomestic} |`,
      `| address in another country | ${P.addressInternational} |`,
      `| phone | ${P.phone}; ${P.phoneLandline} when the offline type is already \`landline\` |`,
      `A landline costs ${P.phoneLandline} credits, another number ${P.phone}.`,
    ],
  },
  {
    file: 'docs/dashboard.md',
    quotes: [
      `(a US or Canadian address ${P.addressDomestic}, an e-mail ${P.email}, a mobile number ${P.phone}); "at most" at its dearest ` +
      `(an address elsewhere ${P.addressInternational}, a landline ${P.phoneLandline})`,
    ],
  },
  {
    file: 'docs/connectors.md',
    quotes: [
      `(US/Canadian address ${P.addressDomestic}, other address ${P.addressInternational}, e-mail ${P.email}, ` +
      `phone ${P.phone} or ${P.phoneLandline};`,
    ],
  },
];

describe('the prices the docs quote', () => {
  it.each(QUOTES)('When $file is read, then each price it states is the table\'s', ({ file, quotes }) => {
    const text = doc(file);

    const missing = quotes.filter((q) => !text.includes(q));

    expect(missing).toEqual([]);
  });

  it('When the table is rendered in one line, then it names every module\'s price in the API\'s words', () => {
    expect(modulePricesText()).toBe(
      `e-mail ${P.email}, US/Canadian address ${P.addressDomestic}, other address ${P.addressInternational}, ` +
      `phone ${P.phone}, landline ${P.phoneLandline}`,
    );
    expect(Object.keys(P).sort()).toEqual(['addressDomestic', 'addressInternational', 'email', 'phone', 'phoneLandline']);
  });
});
