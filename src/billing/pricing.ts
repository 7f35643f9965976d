/** Prices (docs/api.md#credits-and-prices): what each module of a request costs, and the credit packs on sale. */

export const MODULES = ['address', 'email', 'phone'] as const;
export type Module = (typeof MODULES)[number];

export const MODULE_PRICES = {
  email: 1,
  /** US and Canadian addresses: parsed, standardized and confirmed against reference data. */
  addressDomestic: 1,
  /** Every other country: checked against its postal rules. */
  addressInternational: 3,
  phone: 2,
  phoneLandline: 3,
} as const;

/** The prices in one line, as the API's description quotes them: `e-mail 1, US/Canadian address 1, other address 3, …`. */
export function modulePricesText(): string {
  const p = MODULE_PRICES;
  return `e-mail ${p.email}, US/Canadian address ${p.addressDomestic}, other address ${p.addressInternational}, ` +
    `phone ${p.phone}, landline ${p.phoneLandline}`;
}

const DOMESTIC_ADDRESS_COUNTRIES = new Set(['US', 'CA']);

export interface PricedModules {
  /** Country of the address (null when unknown, priced as international). */
  address?: { country: string | null };
  /**
   * The e-mail's answer where it is known before any network check (null: the network decides). An answer known to
   * be `unknown` (network checks off) costs nothing: it would be refunded anyway (docs/api.md#credits-and-prices).
   */
  email?: { offlineStatus: string | null };
  /** Offline line type of the phone number. */
  phone?: { type: string };
}

export interface Charge {
  module: Module;
  credits: number;
}

/** Priced before the slow work starts, from cheap offline facts (the address's country, the phone's offline type). */
export function priceRequest(modules: PricedModules): Charge[] {
  const charges: Charge[] = [];
  if (modules.address) {
    const domestic = modules.address.country !== null && DOMESTIC_ADDRESS_COUNTRIES.has(modules.address.country);
    charges.push({ module: 'address', credits: domestic ? MODULE_PRICES.addressDomestic : MODULE_PRICES.addressInternational });
  }
  if (modules.email && modules.email.offlineStatus !== 'unknown') charges.push({ module: 'email', credits: MODULE_PRICES.email });
  if (modules.phone) {
    charges.push({ module: 'phone', credits: modules.phone.type === 'landline' ? MODULE_PRICES.phoneLandline : MODULE_PRICES.phone });
  }
  return charges;
}

export const PACK_VALIDITY_DAYS = 365;
export const FREE_GRANT_VALIDITY_DAYS = 365;
export const DAY_MS = 86_400_000;

export interface Pack {
  size: number;
  pricePerCredit: number;
  priceUsd: number;
}

/** The packs on sale, from configuration (size -> price per credit), smallest first. */
export function listPacks(packPrices: ReadonlyMap<number, number>): Pack[] {
  return [...packPrices.entries()]
    .sort(([a], [b]) => a - b)
    .map(([size, pricePerCredit]) => ({ size, pricePerCredit, priceUsd: Math.round(size * pricePerCredit * 100) / 100 }));
}

/** Which modules each row of a file asks for: the columns a batch found or was given. */
export interface RowModules {
  address: boolean;
  email: boolean;
  phone: boolean;
}

export interface CreditEstimate {
  rows: number;
  /** The likely cost: the observed average per row when rows were charged already, else the usual prices. */
  credits: number;
  /** Every address outside the US and Canada, every phone a landline. */
  most: number;
}

/**
 * What `rows` rows cost, priced before any is read: each filled module at its usual price (a US or Canadian address, a
 * mobile number), and at most at its dearest. `observed` (rows done and credits charged so far) sets the per-row
 * figure once known, kept between the two bounds. Blank cells cost nothing, so a file with gaps costs less.
 */
export function estimateCredits(rows: number, modules: RowModules, observed?: { rows: number; credits: number }): CreditEstimate {
  const usual = (modules.address ? MODULE_PRICES.addressDomestic : 0) + (modules.email ? MODULE_PRICES.email : 0)
    + (modules.phone ? MODULE_PRICES.phone : 0);
  const dearest = (modules.address ? MODULE_PRICES.addressInternational : 0) + (modules.email ? MODULE_PRICES.email : 0)
    + (modules.phone ? MODULE_PRICES.phoneLandline : 0);
  const perRow = observed && observed.rows > 0 ? Math.min(dearest, Math.max(0, observed.credits / observed.rows)) : usual;
  const count = Math.max(0, rows);
  return { rows: count, credits: Math.ceil(count * perRow), most: count * dearest };
}
