/** The client: configured once, resources as namespaces (`client.batches.create`), typed answers and errors. */
import { Batches } from './batches.js';
import { Connectors } from './connectors.js';
import { WebhookEndpoints } from './webhooks.js';
import { type RequestOptions, Transport, type TransportOptions } from './transport.js';
import type {
  Account, AddressSuggestion, AddressSuggestions, ApiKey, CreatedKey, CreateKeyRequest, KeyList, RevokedKey, UpdateAccountRequest,
  ValidateRequest, ValidateResponse,
} from './types.js';

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

export interface AutocompleteOptions extends RequestOptions {
  /** ISO 3166-1 alpha-2: only this country's suggestions (`US`, `CA`). */
  country?: string;
  /** 1-10; 5 by default. */
  limit?: number;
}

export interface ValidateOptions extends RequestOptions {
  /** Sent as `Idempotency-Key`; a fresh UUID by default, kept for every retry of this call. */
  idempotencyKey?: string;
}

/** A v4 UUID: Web Crypto where it is global (Node 19+, browsers), node:crypto on Node 18. */
async function randomUUID(): Promise<string> {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  return (await import('node:crypto')).randomUUID();
}

export class Keys {
  constructor(private readonly transport: Transport) {}

  async list(options?: RequestOptions): Promise<ApiKey[]> {
    return (await this.transport.json<KeyList>({ method: 'GET', path: '/v1/keys' }, options)).keys;
  }

  /** A new key; `api_key` is shown this once. */
  create(request: CreateKeyRequest = {}, options?: RequestOptions): Promise<CreatedKey> {
    return this.transport.json<CreatedKey>({ method: 'POST', path: '/v1/keys', json: request }, options);
  }

  revoke(keyId: string, options?: RequestOptions): Promise<RevokedKey> {
    return this.transport.json<RevokedKey>({ method: 'DELETE', path: `/v1/keys/${encodeURIComponent(keyId)}` }, options);
  }
}

export class ContactValidator {
  readonly keys: Keys;
  readonly batches: Batches;
  readonly connectors: Connectors;
  readonly webhookEndpoints: WebhookEndpoints;
  private readonly transport: Transport;

  constructor(options: ContactValidatorOptions = {}) {
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
    this.transport = new Transport(settings);
    this.keys = new Keys(this.transport);
    this.batches = new Batches(this.transport);
    this.connectors = new Connectors(this.transport);
    this.webhookEndpoints = new WebhookEndpoints(this.transport);
  }

  /**
   * Validates an address, an e-mail and/or a phone in one request. Always sent with an `Idempotency-Key` (the same on
   * every retry), so a retry after a lost answer gets the first answer again and is never charged twice.
   */
  async validate(request: ValidateRequest, options: ValidateOptions = {}): Promise<ValidateResponse> {
    const { idempotencyKey = await randomUUID(), ...rest } = options;
    return this.transport.json<ValidateResponse>({ method: 'POST', path: '/v1/validate', json: request, idempotencyKey }, rest);
  }

  /**
   * Addresses and places that start with what has been typed (`6007 Applegate La`), best first: delivery points of the
   * service's reference data, streets, cities and ZIPs. Free (no credits); a publishable key may call it too.
   */
  async autocompleteAddress(query: string, options: AutocompleteOptions = {}): Promise<AddressSuggestion[]> {
    const { country, limit, ...rest } = options;
    const answer = await this.transport.json<AddressSuggestions>({ method: 'GET', path: '/v1/address/autocomplete', query: { q: query, country, limit } }, rest);
    return answer.suggestions;
  }

  /** The key's account: balance, grants with expiry, usage of the last 30 days, keys. */
  account(options?: RequestOptions): Promise<Account> {
    return this.transport.json<Account>({ method: 'GET', path: '/v1/account' }, options);
  }

  /** Changes the account's settings: `{ low_balance_threshold: 500 }` (null removes the alert). */
  updateAccount(changes: UpdateAccountRequest, options?: RequestOptions): Promise<Account> {
    return this.transport.json<Account>({ method: 'PATCH', path: '/v1/account', json: changes }, options);
  }
}
