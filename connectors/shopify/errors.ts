/**
 * What a failed Admin API call means for a run: the reason (docs/connectors.md), whether waiting helps and how long, and
 * Shopify's own words for the operator, read off whichever error the library raised.
 */
import { GraphqlQueryError, HttpRequestError, HttpResponseError } from '@shopify/shopify-api';
import { ConnectorError, type RetryAdvice } from '../../src/sync/plugin.js';

/** A ConnectorError that keeps Shopify's code (`THROTTLED`, `ACCESS_DENIED`, `HTTP_401`, …). */
export class ShopifyError extends ConnectorError {
  constructor(
    reason: ConstructorParameters<typeof ConnectorError>[0], message: string, readonly code: string, platformMessage: string,
    advice: RetryAdvice = {},
  ) {
    super(reason, message, platformMessage, advice);
  }
}

/** `extensions.cost` of every answer (shopify.dev, "Shopify API rate limits"). */
export interface QueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

interface GraphqlError { message: string; extensions?: { code?: string } }
/** The failure, carrying whether to try again and after how long (the core's retries read it), and the cost Shopify told. */
export type Failure = { error: ShopifyError; cost?: QueryCost };

/** What went wrong, whether to try again, and after how long (none: the core's back-off). */
export async function failureOf(err: unknown): Promise<Failure> {
  if (err instanceof ShopifyError) return { error: err };
  if (err instanceof GraphqlQueryError) {
    // HTTP 200 with `errors`: the body keeps Shopify's errors and the cost extension.
    const body = err.body as { errors?: { graphQLErrors?: GraphqlError[] }; extensions?: { cost?: QueryCost } } | undefined;
    const errors = body?.errors?.graphQLErrors ?? [];
    const cost = body?.extensions?.cost;
    const code = errors.find((e) => e.extensions?.code)?.extensions?.code ?? 'GRAPHQL_ERROR';
    const platformMessage = errors.map((e) => `${e.extensions?.code ?? 'ERROR'}: ${e.message}`).join('; ') || err.message;
    if (code === 'THROTTLED') {
      return { error: new ShopifyError('rate_limited', 'Shopify throttled the query (cost bucket empty)', code, platformMessage, { retryable: true, retryAfterMs: throttleDelay(cost) }), cost };
    }
    if (code === 'ACCESS_DENIED') {
      return { error: new ShopifyError('auth_failed', 'The access token lacks an access scope', code, platformMessage), cost };
    }
    const retryable = code === 'INTERNAL_SERVER_ERROR';
    return { error: new ShopifyError('api_error', `Shopify refused the query (${code})`, code, platformMessage, { retryable }), cost };
  }
  if (err instanceof HttpResponseError) {
    const status = err.response.code;
    const code = `HTTP_${status}`;
    const platformMessage = `${status} ${await shopifyTextOf(err) ?? err.response.statusText}`;
    if (status === 401 || status === 403) {
      return { error: new ShopifyError('auth_failed', 'Shopify refused the access token', code, platformMessage) };
    }
    if (status === 429) {
      const retryAfter = (err.response as { retryAfter?: number }).retryAfter;
      return { error: new ShopifyError('rate_limited', 'Shopify rate limit reached', code, platformMessage, { retryable: true, retryAfterMs: retryAfter ? retryAfter * 1000 : null }) };
    }
    // 402 (shop frozen), 404 (no such shop), 423 (shop locked) do not pass by waiting.
    return { error: new ShopifyError('api_error', `Shopify API call failed (${status})`, code, platformMessage, { retryable: status >= 500 }) };
  }
  // The OAuth grant calls fetch directly: its network errors come raw (`fetch failed`, a timeout).
  if (err instanceof HttpRequestError || (err instanceof Error && (err.message === 'fetch failed' || err.name === 'TimeoutError'))) {
    // No answer at all: refused, reset, timed out.
    return { error: new ShopifyError('api_error', 'Shopify could not be reached', 'NETWORK', err.message, { retryable: true }) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { error: new ShopifyError('api_error', 'Shopify API call failed', 'CLIENT', message) };
}

/** Seconds until the bucket holds what the query asked: (requested − available) / restoreRate. */
function throttleDelay(cost: QueryCost | undefined): number | null {
  const status = cost?.throttleStatus;
  if (!status || !cost.requestedQueryCost || !status.restoreRate) return null;
  const missing = Math.max(1, cost.requestedQueryCost - status.currentlyAvailable);
  return Math.ceil((missing / status.restoreRate) * 1000);
}

/**
 * Shopify's own words on a failed call (`[API] Invalid API key or access token …`): the library keeps the fetch
 * response unread in the error's body, so read it here.
 */
export async function shopifyTextOf(err: HttpResponseError): Promise<string | null> {
  const body = err.response.body as { errors?: unknown; error?: unknown; error_description?: unknown } | undefined;
  // The OAuth endpoint's answer is read by the library already: `{error, error_description}`.
  if (typeof body?.error === 'string') return typeof body.error_description === 'string' ? `${body.error}: ${body.error_description}` : body.error;
  if (typeof body?.errors === 'string') return body.errors;
  const response = (body?.errors as { response?: Response } | undefined)?.response;
  if (!response || typeof response.text !== 'function' || response.bodyUsed) return null;
  try {
    const text = await response.text();
    try {
      const json = JSON.parse(text) as { errors?: unknown };
      const errors = json.errors ?? json;
      return typeof errors === 'string' ? errors : JSON.stringify(errors);
    } catch {
      return text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300) || null;
    }
  } catch {
    return null;
  }
}
