/** The phone engine (see README.md in this folder). */
export { createPhoneEngine, type PhoneData, type PhoneEngineDeps, type OfflinePhoneEngine } from './phone-engine.js';
export { loadShippedPhoneData } from './shipped-phone-data.js';
export { readPhoneNumber, PHONE_INVALID_REASONS, type PhoneInvalidReason, type PhoneReading } from './read-phone-number.js';
export {
  createPhoneLookup, PHONE_LOOKUP_PROVIDERS, type PhoneLookupOptions, type PhoneLookupProviderName, type PhoneLookupRuntime,
} from './live/create-phone-lookup.js';
export {
  createLivePhoneLookup, LIVE_PHONE_LOOKUP_DEFAULTS, type LivePhoneLookup, type LivePhoneLookupOptions, type LiveLookupOutcome,
} from './live/live-phone-lookup.js';
export { PhoneLookupError, type PhoneLookupProvider, type LivePhoneAnswer, type PhoneLookupFailure } from './live/phone-lookup-provider.js';
export { createTwilioLookupProvider, TWILIO_LOOKUP_BASE_URL, type TwilioLookupOptions } from './live/twilio-lookup-provider.js';
