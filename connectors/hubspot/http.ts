/**
 * How @hubspot/api-client's generated APIs reach HubSpot here: its `HttpLibrary` (the codegen's transport, node-fetch
 * by default) replaced by one on the core's fetch, so every call goes through the outbound guard, within a time limit,
 * with the current access token. A failed answer becomes a HubspotError at once, read from HubSpot's own body (the
 * generated deserializer drops `policyName`), saying whether waiting helps and how long (the core's retries read it).
 */
import { refusalIn, ConnectorError, type PlatformFetch, type RetryAdvice } from '../../src/sync/plugin.js';

/** A ConnectorError that keeps HubSpot's category (`RATE_LIMIT`, `MISSING_SCOPES`, `HTTP_401`, …) and HTTP status. */
export class HubspotError extends ConnectorError {
  constructor(
    reason: ConstructorParameters<typeof ConnectorError>[0], message: string, readonly code: string, platformMessage: string,
    advice: RetryAdvice = {}, readonly status = 0, readonly body: HubspotErrorBody | null = null,
  ) {
    super(reason, message, platformMessage, advice);
  }
}

/** HubSpot's error document (developers.hubspot.com, "Error handling"); a 429 adds `policyName`. */
export interface HubspotErrorBody {
  status?: string;
  message?: string;
  category?: string;
  subCategory?: string;
  policyName?: string;
  errorType?: string;
  correlationId?: string;
  context?: Record<string, unknown>;
  errors?: { message?: string; code?: string; context?: Record<string, unknown> }[];
}

/** The waits of HubSpot's limits when it names none: the ten-second rolling window, the search API's second. */
const WINDOW_MS: Record<string, number> = { TEN_SECONDLY_ROLLING: 10_000, SECONDLY: 1_000 };

/** Milliseconds to the next midnight UTC: the daily limit resets at midnight in the account's time zone, at most a day. */
const untilMidnightUtc = (now: number) => 86_400_000 - (now % 86_400_000);

/** What a failed answer means for a run. */
export function errorOfAnswer(status: number, headers: Headers, text: string, now = Date.now()): HubspotError {
  let body: HubspotErrorBody | null = null;
  try { body = JSON.parse(text) as HubspotErrorBody; } catch { /* an HTML error page */ }
  const words = body?.message ?? text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
  // The OAuth endpoint names its refusal in `status` (`BAD_REFRESH_TOKEN`); the CRM in `category`, its limits in `policyName`.
  const named = body?.status && body.status !== 'error' ? body.status : undefined;
  const code = body?.policyName ?? body?.category ?? named ?? `HTTP_${status}`;
  const platformMessage = `${status} ${code}: ${words}`.trim();
  const made = (reason: ConnectorError['reason'], message: string, advice: RetryAdvice = {}) =>
    new HubspotError(reason, message, code, platformMessage, advice, status, body);
  if (status === 401) return made('auth_failed', 'HubSpot refused the access token');
  if (status === 403) return made('auth_failed', body?.category === 'MISSING_SCOPES' ? 'The token lacks scopes the connector needs' : 'HubSpot refused the call');
  if (status === 429) {
    // The daily limit passes only at midnight: no wait within a run helps (the core gives up; the next tick resumes).
    if (body?.policyName === 'DAILY') return made('rate_limited', 'HubSpot daily API limit reached', { retryable: true, retryAfterMs: untilMidnightUtc(now) });
    const retryAfter = Number(headers.get('retry-after'));
    const interval = Number(headers.get('x-hubspot-ratelimit-interval-milliseconds'));
    const wait = retryAfter > 0 ? retryAfter * 1000 : interval > 0 ? interval : WINDOW_MS[body?.policyName ?? ''] ?? 10_000;
    return made('rate_limited', `HubSpot rate limit reached (${body?.policyName ?? 'unnamed policy'})`, { retryable: true, retryAfterMs: wait });
  }
  return made('api_error', `HubSpot API call failed (${status})`, { retryable: status >= 500 });
}

/** No answer at all (refused, reset, timed out): worth another try; the guard's refusal is the core's to report. */
export function errorOfNetwork(err: unknown): Error {
  const refused = refusalIn(err);
  if (refused) return refused;
  const message = err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err);
  return new HubspotError('api_error', 'HubSpot could not be reached', 'NETWORK', message, { retryable: true });
}

export interface TransportOptions {
  fetch: PlatformFetch;
  timeoutMs: number;
  /** The bearer token of each call (none for the OAuth token endpoint, which takes the client's secret in its body). */
  token?: () => string;
  /** Heard with each answer's headers (`X-HubSpot-RateLimit-*`). */
  onAnswer?: (headers: Headers) => void;
}

/** The codegen's request, as each generated module declares it (every module has its own copy of the same classes). */
interface RequestContextLike {
  getUrl(): string;
  getHttpMethod(): string;
  getHeaders(): Record<string, string>;
  getBody(): unknown;
}
type ResponseContextClass<R> = new (status: number, headers: Record<string, string>, body: { text(): Promise<string>; binary(): Promise<Buffer> }) => R;

/** One request through the core's fetch; a failed answer thrown as a HubspotError. */
export async function send(options: TransportOptions, url: string, init: { method: string; headers: Record<string, string>; body?: string }) {
  const headers = { ...init.headers, ...(options.token ? { Authorization: `Bearer ${options.token()}` } : {}) };
  let response: Response;
  try {
    response = await options.fetch(url, { method: init.method, headers, body: init.body, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (err) {
    throw errorOfNetwork(err);
  }
  options.onAnswer?.(response.headers);
  const text = await response.text().catch(() => '');
  if (response.status >= 400) throw errorOfAnswer(response.status, response.headers, text);
  return { status: response.status, headers: response.headers, text };
}

/** The codegen's body as text: JSON is a string already; the OAuth form is URLSearchParams. */
function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  throw new HubspotError('api_error', 'unsupported request body', 'CLIENT', `a ${typeof body} body`);
}

/** A generated module's `PromiseHttpLibrary` on the core's fetch: `wrapHttpLibrary` of that module makes it its own. */
export function httpLibrary<R>(options: TransportOptions, ResponseContext: ResponseContextClass<R>) {
  return {
    async send(request: RequestContextLike): Promise<R> {
      const answer = await send(options, request.getUrl(), {
        method: String(request.getHttpMethod()), headers: request.getHeaders(), body: bodyText(request.getBody()),
      });
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => { headers[name] = value; });
      return new ResponseContext(answer.status, headers, {
        text: async () => answer.text,
        binary: async () => Buffer.from(answer.text),
      });
    },
  };
}
