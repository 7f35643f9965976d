/**
 * Which columns of a CSV file hold the contact (docs/batches.md): named by the caller (`address_columns`, `email_column`,
 * `phone_column`, `country_column`), or found from the header names that spreadsheets, CRM exports (Salesforce's
 * `Mailing Street`, `Mailing Zip/Postal Code`) and shop exports (Shopify's `Default Address Address1`, `Default Address
 * Province Code`) write. An address split over several columns is joined with ", " in the order street, line 2, city,
 * state, postal code, as a one-line address reads.
 */
export { countryCodeOf } from '../validation/country-codes.js';

export interface ColumnChoice {
  /** Header names joined into the one-line address, in order. */
  address: string[];
  email: string | null;
  phone: string | null;
  country: string | null;
  /**
   * What became of mail sent to the row's address (`bounced`, `delivered`, `complained`: docs/batches.md#feedback),
   * recorded as the account's feedback before the row is checked. Absent in batches made before it.
   */
  feedback?: string | null;
}

/** What the caller named; any given turns detection off for all (the caller knows the file). */
export interface ColumnParameters {
  address_columns?: string;
  email_column?: string;
  phone_column?: string;
  country_column?: string;
  /** Named or not, it leaves the detection of the others as it is: it is no contact column. */
  feedback_column?: string;
}

export class ColumnError extends Error {}

/** Lower case, words only: `Mailing Zip/Postal Code` -> `mailing zip postal code`. */
const normalize = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Words an export puts before the field's own name; removed before the name is looked up. */
const PREFIXES = /^(default address|shipping address|billing address|mailing address|primary address|home address|mailing|billing|shipping|physical|primary|contact|customer|home|work|business)\s+/;

/** Field names after the prefix is gone, by role; the order of ADDRESS_PARTS is the order the parts are joined in. */
const ADDRESS_PARTS = {
  full: ['full address', 'address full', 'one line address', 'formatted address'],
  street: ['address', 'street', 'street address', 'address 1', 'address1', 'address line 1', 'address line1', 'line 1', 'line1', 'street 1', 'street1', 'addr', 'addr1'],
  line2: ['address 2', 'address2', 'address line 2', 'address line2', 'line 2', 'line2', 'street 2', 'street2', 'addr2', 'apt', 'apartment', 'suite', 'unit'],
  city: ['city', 'town', 'locality', 'city town', 'suburb'],
  state: ['state', 'province', 'region', 'state province', 'province code', 'state code', 'province state', 'county state', 'state region'],
  postal: ['zip', 'zip code', 'zipcode', 'postal code', 'postcode', 'post code', 'postal', 'zip postal code', 'postal zip code', 'zip4', 'zip 4'],
} as const;
const COUNTRY_NAMES = ['country', 'country code', 'country region', 'country name', 'countrycode', 'nation'];
const EMAIL_NAMES = ['email', 'e mail', 'email address', 'e mail address', 'mail', 'emailaddress'];
/** The outcome columns of a mailing tool's export, found whatever the caller named (docs/batches.md#feedback). */
const FEEDBACK_NAMES = ['feedback', 'email feedback', 'e mail feedback', 'email outcome', 'e mail outcome', 'mail outcome', 'delivery outcome', 'delivery status', 'bounce status'];
const PHONE_NAMES = ['phone', 'mobile', 'telephone', 'phone number', 'tel', 'cell', 'mobile phone', 'cell phone', 'telephone number', 'mobile number', 'phone 1', 'phone1'];

type Role = keyof typeof ADDRESS_PARTS | 'country' | 'email' | 'phone';

function roleOf(header: string): { role: Role; prefixed: boolean } | null {
  const plain = normalize(header);
  const stripped = plain.replace(PREFIXES, '');
  for (const name of [plain, stripped]) {
    const prefixed = name !== plain;
    if (EMAIL_NAMES.includes(name)) return { role: 'email', prefixed };
    if (PHONE_NAMES.includes(name)) return { role: 'phone', prefixed };
    if (COUNTRY_NAMES.includes(name)) return { role: 'country', prefixed };
    for (const [role, names] of Object.entries(ADDRESS_PARTS)) {
      if ((names as readonly string[]).includes(name)) return { role: role as Role, prefixed };
    }
  }
  return null;
}

/** The columns of the header, detected or as named; throws ColumnError when none is usable. */
export function chooseColumns(header: string[], params: ColumnParameters): ColumnChoice {
  return { ...contactColumns(header, params), feedback: feedbackColumn(header, params.feedback_column) };
}

/** The feedback column: the one named (ColumnError when the header has none of that name), or the first one found. */
function feedbackColumn(header: string[], named: string | undefined): string | null {
  if (named !== undefined) {
    const wanted = named.trim();
    const hit = header.find((h) => h === wanted) ?? header.find((h) => h.trim().toLowerCase() === wanted.toLowerCase());
    if (hit === undefined) throw new ColumnError(`the header has no column "${wanted.slice(0, 100)}"`);
    return hit;
  }
  return header.find((h) => FEEDBACK_NAMES.includes(normalize(h))) ?? null;
}

function contactColumns(header: string[], params: ColumnParameters): Omit<ColumnChoice, 'feedback'> {
  const named = params.address_columns ?? params.email_column ?? params.phone_column ?? params.country_column;
  if (named !== undefined) {
    // The header is read once into two maps, exact and case-folded, first column winning: looking every name up in the
    // header again would read a header near BATCH_MAX_ROW_BYTES once per name (issue 51.3).
    const exact = new Map<string, string>();
    const folded = new Map<string, string>();
    for (const h of header) {
      if (!exact.has(h)) exact.set(h, h);
      const key = h.trim().toLowerCase();
      if (!folded.has(key)) folded.set(key, h);
    }
    const find = (name: string) => {
      const wanted = name.trim();
      const hit = exact.get(wanted) ?? folded.get(wanted.toLowerCase());
      if (hit === undefined) throw new ColumnError(`the header has no column "${wanted.slice(0, 100)}"`);
      return hit;
    };
    const choice = {
      address: params.address_columns ? params.address_columns.split(',').filter((s) => s.trim()).map(find) : [],
      email: params.email_column ? find(params.email_column) : null,
      phone: params.phone_column ? find(params.phone_column) : null,
      country: params.country_column ? find(params.country_column) : null,
    };
    if (!choice.address.length && !choice.email && !choice.phone) {
      throw new ColumnError('name at least one address, e-mail or phone column');
    }
    return choice;
  }

  // The first column of each role wins, an unprefixed name (`Phone`) over a prefixed one (`Default Address Phone`).
  const byRole = new Map<Role, { header: string; prefixed: boolean }>();
  for (const h of header) {
    const found = roleOf(h);
    if (!found) continue;
    const had = byRole.get(found.role);
    if (!had || (had.prefixed && !found.prefixed)) byRole.set(found.role, { header: h, prefixed: found.prefixed });
  }
  const pick = (role: Role) => byRole.get(role)?.header ?? null;
  const parts = (['street', 'line2', 'city', 'state', 'postal'] as const).map(pick).filter((h): h is string => h !== null);
  const full = pick('full');
  const choice = {
    address: full ? [full] : parts.length && pick('street') ? parts : [],
    email: pick('email'),
    phone: pick('phone'),
    country: pick('country'),
  };
  if (!choice.address.length && !choice.email && !choice.phone) {
    throw new ColumnError('no address, e-mail or phone column was found in the header; name them with address_columns, email_column or phone_column');
  }
  return choice;
}
