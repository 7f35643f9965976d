/**
 * Twilio Lookup v2 with Line Type Intelligence:
 *   GET {baseUrl}/v2/PhoneNumbers/{E164}?Fields=line_type_intelligence, HTTP Basic auth (account SID : auth token).
 * Invalid numbers answer 200 with `valid: false`; over the rate limit Twilio answers 429 (code 20429), optionally with
 * Retry-After (RFC 9110 §10.2.3: seconds or an HTTP date).
 */
import type { PhoneType } from '../../types.js';
import { PhoneLookupError, type LivePhoneAnswer, type PhoneLookupProvider } from './phone-lookup-provider.js';

export const TWILIO_LOOKUP_BASE_URL = 'https://lookups.twilio.com';

/** line_type_intelligence.type -> contract type; `unknown` and anything new leave the offline type in place. */
export const PHONE_TYPE_BY_TWILIO_LINE_TYPE: Readonly<Record<string, PhoneType>> = {
  mobile: 'mobile',
  landline: 'landline',
  fixedVoip: 'voip',
  nonFixedVoip: 'voip',
  personal: 'personal',
  tollFree: 'toll_free',
  premium: 'premium_rate',
  sharedCost: 'shared_cost',
  uan: 'uan',
  voicemail: 'voicemail',
  pager: 'pager',
};

export interface TwilioLookupOptions {
  accountSid: string;
  authToken: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
}

interface TwilioLineTypeIntelligence {
  error_code?: number | null;
  carrier_name?: string | null;
  type?: string | null;
}

interface TwilioLookupBody {
  valid?: boolean | null;
  line_type_intelligence?: TwilioLineTypeIntelligence | null;
}

/** Retry-After as milliseconds from now, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function readTwilioLookupBody(body: TwilioLookupBody): LivePhoneAnswer {
  if (typeof body !== 'object' || body === null || !('valid' in body)) {
    throw new PhoneLookupError('bad_response', 'Twilio answer has no `valid` field');
  }
  const lineType = body.line_type_intelligence;
  const usable = lineType && !lineType.error_code;
  return {
    valid: typeof body.valid === 'boolean' ? body.valid : null,
    type: (usable && lineType.type && PHONE_TYPE_BY_TWILIO_LINE_TYPE[lineType.type]) || null,
    carrier: (usable && lineType.carrier_name?.trim()) || null,
  };
}

export function createTwilioLookupProvider(options: TwilioLookupOptions): PhoneLookupProvider {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const baseUrl = (options.baseUrl ?? TWILIO_LOOKUP_BASE_URL).replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;

  return {
    name: 'twilio',
    async lookup(e164, signal) {
      const url = `${baseUrl}/v2/PhoneNumbers/${encodeURIComponent(e164)}?Fields=line_type_intelligence`;
      let response: Response;
      try {
        response = await fetchImplementation(url, { headers: { authorization, accept: 'application/json' }, signal });
      } catch (error) {
        if (signal.aborted) throw new PhoneLookupError('timeout', 'Twilio look-up timed out', { cause: error });
        throw new PhoneLookupError('network', 'Twilio look-up could not connect', { cause: error });
      }
      if (response.status === 429) {
        await response.body?.cancel();
        throw new PhoneLookupError('rate_limited', 'Twilio look-up rate limited', {
          status: 429, retryAfterMs: retryAfterMs(response.headers.get('retry-after'), now()),
        });
      }
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        throw new PhoneLookupError('unauthorized', `Twilio refused the credentials (${response.status})`, { status: response.status });
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new PhoneLookupError('http_error', `Twilio look-up answered ${response.status}`, { status: response.status });
      }
      let body: TwilioLookupBody;
      try {
        body = (await response.json()) as TwilioLookupBody;
      } catch (error) {
        if (signal.aborted) throw new PhoneLookupError('timeout', 'Twilio look-up timed out', { cause: error });
        throw new PhoneLookupError('bad_response', 'Twilio answer is not JSON', { cause: error });
      }
      return readTwilioLookupBody(body);
    },
  };
}
