/**
 * Salesforce records ↔ what the core works with (docs/connectors.md): the fields read from Contact and Lead, the contact a
 * record holds, and the custom fields (plus, on request, the address fields) a verdict writes back.
 */
import { countryCodeOf, type RecordContact, type WriteBackItem } from '../../src/sync/plugin.js';
import type { AddressComponents, AddressLocation, AddressLocationPrecision } from '../../src/validation/types.js';
import { VERDICT_FIELDS, fitValue, maxLengthOf, type CustomField } from './fields.js';

export const OBJECTS = ['Contact', 'Lead'] as const;

/**
 * Sent as `Sforce-Call-Options: client=…` with every write-back: Salesforce names it in the change events' `changeOrigin`,
 * which tells our own write-backs from a person's edits (realtime.ts), and admins see it in their logs.
 */
export const CALL_OPTIONS_CLIENT = 'client=contact-validator';
export type SalesforceObject = (typeof OBJECTS)[number];

/** Where each object keeps the contact: address parts in reading order, then country, e-mail and phones. */
export const FIELDS = {
  Contact: {
    street: 'MailingStreet', city: 'MailingCity', state: 'MailingState', postalCode: 'MailingPostalCode',
    country: 'MailingCountry', email: 'Email', phone: 'Phone', mobile: 'MobilePhone',
  },
  Lead: {
    street: 'Street', city: 'City', state: 'State', postalCode: 'PostalCode',
    country: 'Country', email: 'Email', phone: 'Phone', mobile: 'MobilePhone',
  },
} as const satisfies Record<SalesforceObject, Record<string, string>>;

/**
 * The standard geolocation fields of each object's address (Object Reference: Contact's Mailing address and Lead's
 * address are compound fields with a latitude, a longitude and a geocode accuracy), written with the address.
 */
export const GEO_FIELDS = {
  Contact: { latitude: 'MailingLatitude', longitude: 'MailingLongitude', accuracy: 'MailingGeocodeAccuracy' },
  Lead: { latitude: 'Latitude', longitude: 'Longitude', accuracy: 'GeocodeAccuracy' },
} as const satisfies Record<SalesforceObject, Record<string, string>>;

/**
 * The answer's precision as the GeocodeAccuracy picklist names it (Object Reference, "Compound Fields: Geolocation"):
 * `Address` in the same building, `NearAddress` near it, `Block` the block's midpoint, `Zip` the ZIP code's centre.
 */
const GEOCODE_ACCURACY: Record<AddressLocationPrecision, string> = {
  rooftop: 'Address', parcel: 'NearAddress', interpolated: 'Block', postal_code: 'Zip',
};

/** The fields a query selects (besides Id and SystemModstamp). */
export function readFieldsOf(object: SalesforceObject): string[] {
  return Object.values(FIELDS[object]);
}

export type SalesforceRecord = { Id: string; SystemModstamp: string } & Record<string, unknown>;

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export function contactOf(object: SalesforceObject, record: SalesforceRecord): RecordContact {
  const f = FIELDS[object];
  // A multi-line street (MailingStreet is a text area) reads as one line.
  const parts = [f.street, f.city, f.state, f.postalCode].map((name) => textOf(record[name]).replace(/\s*\r?\n\s*/g, ', '));
  const countryText = textOf(record[f.country]);
  const country = countryText ? countryCodeOf(countryText) : null;
  // A country no table knows stays in the address text, where the engine may still read it.
  if (countryText && !country) parts.push(countryText);
  const address = parts.filter(Boolean).join(', ');
  const email = textOf(record[f.email]);
  const phone = textOf(record[f.phone]) || textOf(record[f.mobile]);
  return {
    ...(address ? { address } : {}),
    ...(email ? { email } : {}),
    ...(phone ? { phone } : {}),
    ...(country ? { country } : {}),
  };
}

/** The custom fields of docs/connectors.md with their lengths (null: not a text field), from the fields table. */
export const CUSTOM_FIELDS = Object.fromEntries(VERDICT_FIELDS.map((name) => [name, maxLengthOf(name)])) as Record<string, number | null>;

/** Salesforce's standard address field lengths (Street 255, City 40, State 80, PostalCode 20). */
const ADDRESS_LENGTHS = { street: 255, city: 40, state: 80, postalCode: 20 } as const;

/** How verdicts are written: the standardized address over the typed one, or into the shadow fields beside it. */
export interface WriteBackMode {
  overwriteAddress: boolean;
  shadowFields: boolean;
}

/**
 * The fields one verdict writes: those of the modules present, their next actions where the object has those fields
 * (`optional`: the optional fields the run-as user may edit), the time, and the standardized values if asked (over the
 * object's own address fields, or into the CV_ shadow fields). Picklist values outside our list are left out, text is
 * cut to its field's length.
 */
export function writeBackFieldsOf(
  object: SalesforceObject, item: WriteBackItem, mode: WriteBackMode, optional: ReadonlySet<string> = new Set(),
): Record<string, string | number | null> {
  const fields: Record<string, string | number | null> = {};
  // A write-back owed since before next actions leaves the field as it is.
  const nextAction = (name: CustomField, action: string | undefined) => {
    if (optional.has(name) && action) fields[name] = fitValue(name, action);
  };
  const confirmed = item.address && (item.address.status === 'verified' || item.address.status === 'corrected');
  if (item.address) {
    fields.CV_Address_Status__c = fitValue('CV_Address_Status__c', item.address.status);
    fields.CV_Address_DPV__c = fitValue('CV_Address_DPV__c', item.address.dpv);
    fields.CV_Address_Standardized__c = fitValue('CV_Address_Standardized__c', item.address.standardized);
    nextAction('CV_Address_Next_Action__c', item.address.next_action);
    if (confirmed && mode.shadowFields) {
      const parts = addressParts(item.address.components);
      fields.CV_Street__c = fitValue('CV_Street__c', parts.street);
      fields.CV_City__c = fitValue('CV_City__c', parts.city);
      fields.CV_State__c = fitValue('CV_State__c', parts.state);
      fields.CV_Postal_Code__c = fitValue('CV_Postal_Code__c', parts.postalCode);
    } else if (confirmed && mode.overwriteAddress) {
      Object.assign(fields, standardizedAddressFields(object, item.address.components));
      // Where the address is goes with it, so that the record's map pin and its address agree.
      if (item.address.location) Object.assign(fields, geolocationFields(object, item.address.location));
    }
  }
  if (item.email) {
    fields.CV_Email_Status__c = fitValue('CV_Email_Status__c', item.email.status);
    fields.CV_Email_Risk__c = fitValue('CV_Email_Risk__c', item.email.risk);
    nextAction('CV_Email_Next_Action__c', item.email.next_action);
    if (mode.shadowFields) fields.CV_Email__c = fitValue('CV_Email__c', item.email.suggestion ?? item.email.normalized);
  }
  if (item.phone) {
    fields.CV_Phone_Status__c = fitValue('CV_Phone_Status__c', item.phone.status);
    fields.CV_Phone_Type__c = fitValue('CV_Phone_Type__c', item.phone.type);
    fields.CV_Phone_Carrier__c = fitValue('CV_Phone_Carrier__c', item.phone.carrier);
    nextAction('CV_Phone_Next_Action__c', item.phone.next_action);
    if (mode.shadowFields) fields.CV_Phone_E164__c = fitValue('CV_Phone_E164__c', item.phone.e164);
  }
  fields.CV_Validated_At__c = item.validatedAt;
  return fields;
}

/** The standardized address's parts, as an object's street, city, state and postal code fields hold them. */
function addressParts(c: AddressComponents) {
  const secondary = [c.secondary_designator, c.secondary_number].filter(Boolean).join(' ');
  return {
    street: [c.primary_number, c.street_predirection, c.street_name, c.street_suffix, c.street_postdirection, secondary]
      .filter(Boolean).join(' '),
    city: c.city ?? '',
    state: c.state ?? '',
    postalCode: c.postal_code ? (c.plus4 ? `${c.postal_code}-${c.plus4}` : c.postal_code) : '',
  };
}

/** The standardized address in the object's own fields; a part the engine did not give leaves its field alone. */
function standardizedAddressFields(object: SalesforceObject, c: AddressComponents): Record<string, string> {
  const f = FIELDS[object];
  const values = addressParts(c);
  const out: Record<string, string> = {};
  for (const part of Object.keys(values) as (keyof typeof values)[]) {
    if (values[part]) out[f[part]] = values[part].slice(0, ADDRESS_LENGTHS[part]);
  }
  return out;
}

/** The address's latitude, longitude and geocode accuracy in the object's standard fields. */
function geolocationFields(object: SalesforceObject, location: AddressLocation): Record<string, string | number> {
  const f = GEO_FIELDS[object];
  return { [f.latitude]: location.lat, [f.longitude]: location.lon, [f.accuracy]: GEOCODE_ACCURACY[location.precision] };
}

/** `Contact:003…` → the object and the id; null for a key this plugin did not make. */
export function parseKey(key: string): { object: SalesforceObject; id: string } | null {
  const m = /^(Contact|Lead):(\w{15,18})$/.exec(key);
  return m ? { object: m[1] as SalesforceObject, id: m[2] } : null;
}

export const keyOf = (object: SalesforceObject, id: string) => `${object}:${id}`;
