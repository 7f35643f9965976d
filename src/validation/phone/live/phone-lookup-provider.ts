/** The adapter interface every live phone look-up provider implements (Twilio Lookup v2 first). */
import type { PhoneType } from '../../types.js';

/** What a provider says about one number, in the answer's vocabulary (docs/api.md#vocabularies). */
export interface LivePhoneAnswer {
  /** The provider's own validity verdict; informative only, a live answer never turns an offline-valid number invalid. */
  valid: boolean | null;
  /** Current line type; null when the provider could not tell. */
  type: PhoneType | null;
  /** Current carrier (after porting); null when the provider could not tell. */
  carrier: string | null;
}

export interface PhoneLookupProvider {
  readonly name: string;
  /** Looks one E.164 number up; rejects with PhoneLookupError (or an abort) on any failure. */
  lookup(e164: string, signal: AbortSignal): Promise<LivePhoneAnswer>;
}

export type PhoneLookupFailure = 'rate_limited' | 'unauthorized' | 'http_error' | 'bad_response' | 'network' | 'timeout';

export class PhoneLookupError extends Error {
  constructor(
    readonly failure: PhoneLookupFailure,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.name = 'PhoneLookupError';
  }
}
