/**
 * The client: configured once, resources as namespaces (`client.batches.create`), typed answers and errors. The
 * methods are generated from the OpenAPI description (resources.ts, client-base.ts); here is the configuration.
 */
import { ContactValidatorBase } from './client-base.js';
import { Transport, type TransportOptions } from './transport.js';

export { Keys } from './resources.js';
export type { AutocompleteAddressOptions, ValidateOptions } from './resources.js';
/** The name this had before the methods were generated. */
export type { AutocompleteAddressOptions as AutocompleteOptions } from './resources.js';

export interface ContactValidatorOptions {
  /** A secret key (`cv_live_…`), or a publishable one (`cv_pub_…`, validate only). Default: $CONTACT_VALIDATOR_API_KEY. */
  apiKey?: string;
  /** Default `http://localhost:8080`. */
  baseUrl?: string;
  /** Total budget of one call, retries and waits included. Default 30 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  userAgent?: string;
  /** A fetch implementation to use instead of the global one. */
  fetch?: typeof fetch;
  /** First backoff wait (ms) and the cap of computed waits; 500 and 8000 by default. */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
}

function transportOf(options: ContactValidatorOptions): Transport {
  const apiKey = options.apiKey ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.CONTACT_VALIDATOR_API_KEY;
  if (!apiKey) throw new TypeError('ContactValidator needs an apiKey (or CONTACT_VALIDATOR_API_KEY)');
  const settings: TransportOptions = {
    apiKey,
    baseUrl: options.baseUrl ?? 'http://localhost:8080',
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
    userAgent: options.userAgent,
    fetch: options.fetch,
    initialRetryDelayMs: options.initialRetryDelayMs,
    maxRetryDelayMs: options.maxRetryDelayMs,
  };
  return new Transport(settings);
}

export class ContactValidator extends ContactValidatorBase {
  constructor(options: ContactValidatorOptions = {}) {
    super(transportOf(options));
  }
}
