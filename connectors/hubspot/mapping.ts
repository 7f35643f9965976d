/**
 * A HubSpot contact as the core takes it: its default properties (`address`, `city`, `state`, `zip`, `country`,
 * `email`, `phone`, else `mobilephone`) as one contact, under the key `contact:{hs_object_id}`.
 */
import { countryCodeOf, type PlatformRecord, type RecordContact } from '../../src/sync/plugin.js';

/** The properties a run reads and a webhook's `contact.propertyChange` is subscribed to: a change of any is checked. */
export const CHECKED_PROPERTIES = ['address', 'city', 'state', 'zip', 'country', 'email', 'phone', 'mobilephone'] as const;
/** What a search asks for besides: the cursor of the watermark. */
export const READ_PROPERTIES = [...CHECKED_PROPERTIES, 'lastmodifieddate', 'hs_object_id'] as const;

/** A contact as the CRM API answers it (`properties` are strings or null). */
export interface HubspotContact {
  id: string;
  properties: Record<string, string | null | undefined>;
  updatedAt?: string | Date;
}

const textOf = (value: string | null | undefined) => (typeof value === 'string' ? value.trim() : '');

export function contactOf(properties: HubspotContact['properties']): RecordContact {
  const countryText = textOf(properties.country);
  const country = countryText ? countryCodeOf(countryText) : null;
  const parts = [textOf(properties.address), textOf(properties.city), [textOf(properties.state), textOf(properties.zip)].filter(Boolean).join(' ')];
  // A country no table knows stays in the address text, where the engine may still read it.
  if (countryText && !country) parts.push(countryText);
  const address = parts.filter(Boolean).join(', ');
  const email = textOf(properties.email);
  const phone = textOf(properties.phone) || textOf(properties.mobilephone);
  return {
    ...(address ? { address } : {}),
    ...(email ? { email } : {}),
    ...(phone ? { phone } : {}),
    ...(country ? { country } : {}),
  };
}

export const keyOf = (id: string | number) => `contact:${id}`;

/** `contact:123` → `123`; null for a key this plugin did not make. */
export function idOf(key: string): string | null {
  return /^contact:(\d{1,20})$/.exec(key)?.[1] ?? null;
}

export const recordOf = (contact: HubspotContact): PlatformRecord => ({ key: keyOf(contact.id), contact: contactOf(contact.properties) });
