/**
 * HubSpot's app webhooks (developers.hubspot.com, "Webhooks API" and "Validating requests"): a delivery is a JSON array
 * of up to 100 events, from any of the portals that installed the app, signed with `X-HubSpot-Signature-v3`: base64
 * HMAC-SHA256, keyed with the app's client secret, of method + URI + raw body + `X-HubSpot-Request-Timestamp`. The
 * signature is computed with the client library's own `Signature.getSignature` and compared in constant time (its
 * `isValid` compares with `===` and takes a timestamp from the future); a timestamp more than five minutes away is
 * refused either way.
 */
import crypto from 'node:crypto';
import { Signature } from '@hubspot/api-client/lib/src/utils/signature.js';
import { CHECKED_PROPERTIES } from './mapping.js';

/** HubSpot's own bound on a delivery's age. */
export const MAX_DELIVERY_AGE_MS = 5 * 60_000;

export type Verification = 'valid' | 'bad_signature' | 'stale';

export interface SignedDelivery {
  method: string;
  /** The full URI HubSpot called (`https://host/webhooks/hubspot?…`), as the app's target URL names it. */
  uri: string;
  rawBody: Buffer;
  signature: string;
  timestamp: string;
}

/**
 * HubSpot signs the URI with these characters decoded (its "Validate the v3 request signature" steps): a URI that
 * reached us percent-encoded is decoded the same way before signing.
 */
const DECODED: Record<string, string> = {
  '%3A': ':', '%2F': '/', '%3F': '?', '%40': '@', '%21': '!', '%24': '$', '%27': "'", '%28': '(', '%29': ')', '%2A': '*', '%2C': ',', '%3B': ';',
};
const signedUri = (uri: string) => uri.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (m) => DECODED[m.toUpperCase()]);

export function verifyDelivery(delivery: SignedDelivery, clientSecret: string, now = Date.now()): Verification {
  const timestamp = Number(delivery.timestamp);
  if (!/^\d{10,16}$/.test(delivery.timestamp) || Math.abs(now - timestamp) > MAX_DELIVERY_AGE_MS) return 'stale';
  const expected = Buffer.from(Signature.getSignature(delivery.method.toUpperCase(), 'v3', {
    clientSecret, url: signedUri(delivery.uri), requestBody: delivery.rawBody.toString('utf8'), timestamp,
  }));
  const given = Buffer.from(delivery.signature);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? 'valid' : 'bad_signature';
}

/** One event of a delivery, as HubSpot sends it. */
export interface HubspotEvent {
  eventId: number;
  subscriptionType: string;
  portalId: number;
  objectId: number;
  occurredAt: number;
  propertyName?: string;
  propertyValue?: string;
  changeSource?: string;
  attemptNumber?: number;
}

/** The topics that say a contact has something to check. */
export const CONTACT_TOPICS = ['contact.creation', 'contact.propertyChange'] as const;
const checked = new Set<string>(CHECKED_PROPERTIES);

/** The events a parsed body holds (anything else in it is ignored). */
export function eventsOf(body: unknown): HubspotEvent[] {
  if (!Array.isArray(body)) return [];
  return body.filter((e): e is HubspotEvent =>
    typeof e === 'object' && e !== null && typeof e.subscriptionType === 'string' &&
    Number.isSafeInteger(e.portalId) && Number.isSafeInteger(e.objectId));
}

/**
 * Per portal, the contacts whose events ask for a check: a contact created, or one of the checked properties changed
 * (our own write-back changes only `cv_*` properties, which are never subscribed, so it never comes back here).
 */
export function contactsByPortal(events: HubspotEvent[]): Map<number, string[]> {
  const out = new Map<number, Set<string>>();
  for (const e of events) {
    const wanted = e.subscriptionType === 'contact.creation' ||
      (e.subscriptionType === 'contact.propertyChange' && checked.has(e.propertyName ?? ''));
    if (!wanted) continue;
    if (!out.has(e.portalId)) out.set(e.portalId, new Set());
    out.get(e.portalId)!.add(String(e.objectId));
  }
  return new Map([...out].map(([portal, ids]) => [portal, [...ids]]));
}
