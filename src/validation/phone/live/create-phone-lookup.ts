/** Builds the live look-up from the plain option values the HTTP layer reads from its configuration. */
import { createLivePhoneLookup, type LivePhoneLookup, type LivePhoneLookupOptions } from './live-phone-lookup.js';
import { createTwilioLookupProvider, TWILIO_LOOKUP_BASE_URL } from './twilio-lookup-provider.js';

export const PHONE_LOOKUP_PROVIDERS = ['none', 'twilio'] as const;
export type PhoneLookupProviderName = (typeof PHONE_LOOKUP_PROVIDERS)[number];

export interface PhoneLookupOptions extends LivePhoneLookupOptions {
  provider: PhoneLookupProviderName;
  accountSid?: string;
  authToken?: string;
  /** Default https://lookups.twilio.com */
  baseUrl?: string;
}

export interface PhoneLookupRuntime {
  fetch?: typeof fetch;
  now?: () => number;
}

/** null for provider `none`; throws at start-up on a provider it does not know or missing credentials. */
export function createPhoneLookup(options: PhoneLookupOptions, runtime: PhoneLookupRuntime = {}): LivePhoneLookup | null {
  const now = runtime.now ?? Date.now;
  const { provider: providerName, accountSid, authToken, baseUrl, ...liveOptions } = options;
  switch (providerName) {
    case 'none':
      return null;
    case 'twilio': {
      if (!accountSid || !authToken) {
        throw new Error('PHONE_LOOKUP_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
      }
      const provider = createTwilioLookupProvider({
        accountSid, authToken, baseUrl: baseUrl || TWILIO_LOOKUP_BASE_URL, fetch: runtime.fetch, now,
      });
      return createLivePhoneLookup(provider, liveOptions, now);
    }
    default:
      throw new Error(`unknown phone look-up provider: ${String(providerName)}`);
  }
}
