/**
 * The contact properties the connector writes, once: in their own property group (`contact_validator`), enumerations
 * where the value is one of the service's vocabularies (docs/api.md), text where it is free. The check names those
 * missing, the set-up creates them (POST /crm/v3/properties/contacts, HubSpot's Properties API), and the write-back
 * leaves out a value an enumeration would refuse: an unknown option fails HubSpot's whole batch. The optional ones
 * (added since the first set-up: the next actions) are written only where the account has them as we make them, since a
 * property that does not exist fails the whole batch too: an account set up before keeps working, and the check warns.
 */
import { NEXT_ACTIONS, type WriteBackItem } from '../../src/sync/plugin.js';
import { ADDRESS_STATUSES, PHONE_TYPES } from '../../src/validation/types.js';

export const PROPERTY_GROUP = { name: 'contact_validator', label: 'Contact Validator', displayOrder: -1 } as const;

type PropertyKind =
  | { type: 'enumeration'; fieldType: 'select'; values: readonly string[] }
  | { type: 'string'; fieldType: 'text'; length: number }
  | { type: 'datetime'; fieldType: 'date' };

interface PropertyDef {
  label: string;
  description: string;
  kind: PropertyKind;
  /** Written only where the account has it (the check warns where not): added after accounts were set up without it. */
  optional?: true;
}

const choice = (values: readonly string[]) => ({ type: 'enumeration', fieldType: 'select', values }) as const;
/** HubSpot's single-line text takes up to 65,536 characters; ours are cut to what the value can be. */
const text = (length: number) => ({ type: 'string', fieldType: 'text', length }) as const;

export const PROPERTY_DEFS = {
  cv_address_status: { label: 'CV Address Status', kind: choice(ADDRESS_STATUSES), description: 'How far the address was confirmed.' },
  cv_address_dpv: { label: 'CV Address DPV', kind: choice(['Y', 'N', 'S', 'D']), description: 'USPS delivery point validation (empty: no reference data).' },
  cv_address_standardized: { label: 'CV Address Standardized', kind: text(255), description: 'The standardized address, one line.' },
  cv_address_next_action: { label: 'CV Address Next Action', kind: choice(NEXT_ACTIONS), optional: true, description: "What to do with the address under the connector's policy: accept, confirm or fix." },
  cv_email_status: { label: 'CV Email Status', kind: choice(['valid', 'invalid', 'risky', 'unknown']), description: 'The e-mail verdict.' },
  cv_email_risk: { label: 'CV Email Risk', kind: choice(['low', 'medium', 'high']), description: 'The e-mail risk.' },
  cv_email_suggestion: { label: 'CV Email Suggestion', kind: text(254), description: 'A likely intended address, when the one typed looks misspelt.' },
  cv_email_next_action: { label: 'CV Email Next Action', kind: choice(NEXT_ACTIONS), optional: true, description: "What to do with the e-mail under the connector's policy: accept, confirm or fix." },
  cv_phone_status: { label: 'CV Phone Status', kind: choice(['valid', 'invalid', 'unknown']), description: 'The phone verdict.' },
  cv_phone_type: { label: 'CV Phone Type', kind: choice(PHONE_TYPES), description: 'The line type.' },
  cv_phone_e164: { label: 'CV Phone E.164', kind: text(20), description: 'The number in E.164.' },
  cv_phone_carrier: { label: 'CV Phone Carrier', kind: text(100), description: 'The carrier, when known.' },
  cv_phone_next_action: { label: 'CV Phone Next Action', kind: choice(NEXT_ACTIONS), optional: true, description: "What to do with the phone under the connector's policy: accept, confirm or fix." },
  cv_verified_at: { label: 'CV Verified At', kind: { type: 'datetime', fieldType: 'date' }, description: 'When the contact was last verified.' },
} as const satisfies Record<string, PropertyDef>;

export type CvProperty = keyof typeof PROPERTY_DEFS;
/** Every property, in the order the set-up creates them and the discover lists them. */
export const CV_PROPERTIES = Object.keys(PROPERTY_DEFS) as CvProperty[];
const isOptional = (name: CvProperty) => (PROPERTY_DEFS[name] as PropertyDef).optional === true;
/** What every write-back needs: missing, the batch fails. */
export const REQUIRED_PROPERTIES = CV_PROPERTIES.filter((name) => !isOptional(name));
/** Written where the account has them as we make them (`writableOptional`). */
export const OPTIONAL_PROPERTIES = CV_PROPERTIES.filter(isOptional);

/** The body of POST /crm/v3/properties/contacts that creates one property in our group. */
export function propertyCreateBody(name: CvProperty) {
  const def: PropertyDef = PROPERTY_DEFS[name];
  const { kind } = def;
  return {
    name, label: def.label, description: def.description, groupName: PROPERTY_GROUP.name, type: kind.type, fieldType: kind.fieldType,
    ...(kind.type === 'enumeration'
      ? { options: kind.values.map((value, displayOrder) => ({ label: value, value, displayOrder, hidden: false })) }
      : {}),
  };
}

/** What HubSpot says of a property (GET /crm/v3/properties/contacts): enough to tell ours from a look-alike. */
export interface HubspotProperty {
  name: string;
  type: string;
  groupName?: string;
  options?: { value: string }[];
  modificationMetadata?: { readOnlyValue?: boolean };
}

/** How a property HubSpot holds differs from ours, in words; null when it will take what we write. */
export function propertyMismatch(name: CvProperty, held: HubspotProperty): string | null {
  const kind: PropertyKind = PROPERTY_DEFS[name].kind;
  if (held.modificationMetadata?.readOnlyValue) return `${name} is read-only`;
  if (held.type !== kind.type) return `${name} is a ${held.type} property, not ${kind.type}`;
  if (kind.type === 'enumeration') {
    const options = new Set((held.options ?? []).map((o) => o.value));
    const lacking = kind.values.filter((v) => !options.has(v));
    if (lacking.length) return `${name} lacks the options ${lacking.join(', ')}`;
  }
  return null;
}

/** The optional properties the account holds as we make them (and so takes what we write), of what HubSpot lists. */
export function writableOptional(held: readonly HubspotProperty[]): CvProperty[] {
  const byName = new Map(held.map((p) => [p.name, p]));
  return OPTIONAL_PROPERTIES.filter((name) => byName.has(name) && propertyMismatch(name, byName.get(name)!) === null);
}

/** The value as the property takes it: text cut to its length, a value outside an enumeration left out (null). */
function fit(name: CvProperty, value: string | null | undefined): string | null {
  if (!value) return null;
  const kind: PropertyKind = PROPERTY_DEFS[name].kind;
  if (kind.type === 'enumeration') return kind.values.includes(value) ? value : null;
  if (kind.type === 'string') return value.slice(0, kind.length);
  return value;
}

/**
 * The properties one verdict writes: those of the modules checked, their next actions where the account has those
 * properties (`optional`, of writableOptional), and the time. An empty string clears a property in HubSpot: a value the
 * new verdict lacks (no carrier now) is cleared, not left from the last one.
 */
export function propertiesOf(item: WriteBackItem, optional: ReadonlySet<string> = new Set()): Record<string, string> {
  const out: Partial<Record<CvProperty, string | null>> = {};
  // A write-back owed since before next actions leaves the property as it is.
  const nextAction = (name: CvProperty, action: string | undefined) => {
    if (optional.has(name) && action) out[name] = fit(name, action);
  };
  if (item.address) {
    out.cv_address_status = fit('cv_address_status', item.address.status);
    out.cv_address_dpv = fit('cv_address_dpv', item.address.dpv);
    out.cv_address_standardized = fit('cv_address_standardized', item.address.standardized);
    nextAction('cv_address_next_action', item.address.next_action);
  }
  if (item.email) {
    out.cv_email_status = fit('cv_email_status', item.email.status);
    out.cv_email_risk = fit('cv_email_risk', item.email.risk);
    out.cv_email_suggestion = fit('cv_email_suggestion', item.email.suggestion);
    nextAction('cv_email_next_action', item.email.next_action);
  }
  if (item.phone) {
    out.cv_phone_status = fit('cv_phone_status', item.phone.status);
    out.cv_phone_type = fit('cv_phone_type', item.phone.type);
    out.cv_phone_e164 = fit('cv_phone_e164', item.phone.e164);
    out.cv_phone_carrier = fit('cv_phone_carrier', item.phone.carrier);
    nextAction('cv_phone_next_action', item.phone.next_action);
  }
  out.cv_verified_at = item.validatedAt;
  return Object.fromEntries(Object.entries(out).map(([name, value]) => [name, value ?? '']));
}
