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
import type { WebhookAction, WebhookEvent, WebhookRequest, WebhookSpec } from '../../src/sync/plugin.js';
import type { HubspotApp } from './connect.js';
import type { HubspotCredentials } from './index.js';
import { CHECKED_PROPERTIES, keyOf } from './mapping.js';

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

/** The signature first (a forged delivery is refused whatever its age), then the age, either way in time. */
export function verifyDelivery(delivery: SignedDelivery, clientSecret: string, now = Date.now()): Verification {
  if (!/^\d{10,16}$/.test(delivery.timestamp)) return 'bad_signature';
  const timestamp = Number(delivery.timestamp);
  const expected = Buffer.from(Signature.getSignature(delivery.method.toUpperCase(), 'v3', {
    signature: '', clientSecret, url: signedUri(delivery.uri), requestBody: delivery.rawBody.toString('utf8'), timestamp,
  }));
  const given = Buffer.from(delivery.signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'bad_signature';
  return Math.abs(now - timestamp) > MAX_DELIVERY_AGE_MS ? 'stale' : 'valid';
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

/** Deliveries of record topics are remembered a week (HubSpot retries for up to three days). */
const REMEMBER_MS = 7 * 24 * 3_600_000;

function parsed(request: WebhookRequest): unknown {
  try { return JSON.parse(request.raw.toString('utf8')); } catch { return undefined; }
}

/**
 * `POST /webhooks/hubspot`. A delivery names its portals in its events, read without trust: the first one is claimed,
 * so that the core gives that account's connector's credentials. A private app's delivery (one account) is signed
 * with that connector's `client_secret`: `valid`, for that account alone. The service's HubSpot app's delivery
 * (HUBSPOT_CLIENT_SECRET) may hold events of every account that installed the app: `valid-app`, each event then going
 * to its own portal's connector.
 */
export function webhookSpec(app: HubspotApp | null): WebhookSpec<HubspotCredentials> {
  return {
    topics: CONTACT_TOPICS,
    headers: [
      { name: 'X-HubSpot-Signature-v3', description: 'Base64 HMAC-SHA256 (client secret) of method, URI, raw body and timestamp', required: true },
      { name: 'X-HubSpot-Request-Timestamp', description: 'Milliseconds since the epoch; more than 5 minutes away is refused', required: true },
    ],
    // 100 events of a few hundred bytes each.
    maxBodyBytes: 256 * 1024,
    claimedAccount(request) {
      const first = eventsOf(parsed(request))[0];
      return first ? String(first.portalId) : null;
    },
    verify(request, credentials) {
      const signed = {
        method: request.method, uri: request.url, rawBody: request.raw,
        signature: request.headers['x-hubspot-signature-v3'] ?? '', timestamp: request.headers['x-hubspot-request-timestamp'] ?? '',
      };
      const own = credentials && 'access_token' in credentials ? credentials.client_secret : undefined;
      if (own) {
        const verdict = verifyDelivery(signed, own, request.now);
        if (verdict !== 'bad_signature') return verdict;
      }
      if (!app) return 'invalid';
      const verdict = verifyDelivery(signed, app.clientSecret, request.now);
      return verdict === 'valid' ? 'valid-app' : verdict === 'bad_signature' ? 'invalid' : verdict;
    },
    events(request) {
      const body = parsed(request);
      if (!Array.isArray(body)) return null;
      return eventsOf(body).map((e): WebhookEvent => ({
        account: String(e.portalId), topic: e.subscriptionType, dedupeKey: `${e.portalId}:${e.eventId}`, payload: e,
      }));
    },
    forgetAfter: { topics: CONTACT_TOPICS, memoryMs: REMEMBER_MS },
    handle(event) {
      const ids = contactsByPortal([event.payload as HubspotEvent]).get(Number(event.account)) ?? [];
      // The event names the contact, not its values: the delivery's job reads it whole (session.read).
      return ids.length ? [{ kind: 'read', keys: ids.map(keyOf) } satisfies WebhookAction] : [];
    },
  };
}
