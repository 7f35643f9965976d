/**
 * One HTTP call to the service, with its retries and its deadline. The deadline is the call's whole budget: every
 * attempt, every wait between attempts and the reading of the answer fit in `timeoutMs`, and no wait is started that
 * would end past it.
 *
 * What is retried, and why it is safe:
 * - 429 and 503: the service did not do the work (docs/api.md#problems: a 503 is not charged); `Retry-After` is honoured.
 * - 409 `idempotency-key-in-use`: the first attempt with this key is still being processed; its answer is replayed next.
 * - a dropped connection or another 5xx: only when repeating the call cannot do the work twice — GET and DELETE, and
 *   POSTs sent with an `Idempotency-Key` (the service replays the first answer and charges nothing more).
 * Waits grow exponentially with full jitter in [50 %, 100 %], capped (the "exponential backoff and jitter" of AWS's
 * architecture blog, as stripe-node does it).
 */
import {
  ConnectionError, type ContactValidatorError, errorFromResponse, retryAfterSeconds, TimeoutError,
} from './errors.js';

export const VERSION = '0.1.0';

/** A v4 UUID: Web Crypto where it is global (Node 19+, browsers), node:crypto on Node 18. */
export async function randomUUID(): Promise<string> {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  return (await import('node:crypto')).randomUUID();
}

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  userAgent?: string;
  /** The fetch to use (tests, instrumentation); the global one by default. */
  fetch?: typeof fetch;
  /** First wait between attempts, in ms, and the cap of any computed wait (Retry-After is not capped by it). */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
}

/** Per-call settings every method takes as its last argument. */
export interface RequestOptions {
  /** Total budget of this call, retries included; the client's `timeoutMs` by default. */
  timeoutMs?: number;
  maxRetries?: number;
  /** Aborts the call (and any wait between attempts). */
  signal?: AbortSignal;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Call {
  method: Method;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  /** A body made afresh for each attempt (a file is opened again); `replayable: false` when it cannot be. */
  body?: () => Promise<BodyInit | AsyncIterable<Uint8Array>> | BodyInit | AsyncIterable<Uint8Array>;
  replayable?: boolean;
  contentType?: string;
  idempotencyKey?: string;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** The deadline and the caller's signal, as one signal for fetch; `release()` when the call is over. */
class CallScope {
  readonly controller = new AbortController();
  timedOut = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly unlink: () => void = () => undefined;

  constructor(readonly timeoutMs: number, readonly deadline: number, userSignal?: AbortSignal) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new TimeoutError(`No answer within ${timeoutMs} ms`));
    }, timeoutMs);
    if (userSignal) {
      // AbortSignal.any is Node 20.3+; the client supports Node 18.
      const onAbort = () => this.controller.abort(userSignal.reason);
      if (userSignal.aborted) onAbort();
      else {
        userSignal.addEventListener('abort', onAbort, { once: true });
        this.unlink = () => userSignal.removeEventListener('abort', onAbort);
      }
    }
  }

  get signal(): AbortSignal { return this.controller.signal; }
  remainingMs(): number { return this.deadline - Date.now(); }

  /** The error to report for a failure while this scope was aborted, else undefined. */
  abortError(cause: unknown): ContactValidatorError | undefined {
    if (this.timedOut) return new TimeoutError(`No answer within the total timeout of ${this.timeoutMs} ms`, { cause });
    if (this.signal.aborted) return new ConnectionError('The call was aborted', { cause: this.signal.reason ?? cause });
    return undefined;
  }

  /** Stops the deadline; the caller's signal still aborts (a streamed body being read). */
  stopTimer(): void {
    clearTimeout(this.timer);
  }

  release(): void {
    clearTimeout(this.timer);
    this.unlink();
  }
}

export class Transport {
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(readonly options: TransportOptions) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.baseHeaders = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
      'user-agent': options.userAgent ?? `contact-validator-node/${VERSION}`,
    };
    this.initialDelayMs = options.initialRetryDelayMs ?? 500;
    this.maxDelayMs = options.maxRetryDelayMs ?? 8_000;
  }

  /** A JSON answer (or undefined for 204). */
  async json<T>(call: Call, options: RequestOptions = {}): Promise<T> {
    const scope = this.scope(options);
    try {
      const res = await this.send(call, options, scope);
      if (res.status === 204) return undefined as T;
      try {
        const text = await res.text();
        return (text ? JSON.parse(text) : undefined) as T;
      } catch (err) {
        throw scope.abortError(err) ?? new ConnectionError(`The answer could not be read: ${(err as Error).message}`, { cause: err });
      }
    } finally {
      scope.release();
    }
  }

  /**
   * A streamed answer: the deadline covers the call up to the answer's headers; the body is then the caller's to read
   * at its own pace (a large result may take longer than any sensible call timeout). The caller's signal still aborts it.
   */
  async stream(call: Call, options: RequestOptions = {}): Promise<Response> {
    const scope = this.scope(options);
    try {
      const res = await this.send(call, options, scope);
      scope.stopTimer();
      return res;
    } catch (err) {
      scope.release();
      throw err;
    }
  }

  private scope(options: RequestOptions): CallScope {
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    return new CallScope(timeoutMs, Date.now() + timeoutMs, options.signal);
  }

  private url(call: Call): string {
    let url = this.baseUrl + call.path;
    if (call.query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(call.query)) if (v !== undefined) params.set(k, String(v));
      const qs = params.toString();
      if (qs) url += `?${qs}`;
    }
    return url;
  }

  private async send(call: Call, options: RequestOptions, scope: CallScope): Promise<Response> {
    const url = this.url(call);
    const headers: Record<string, string> = { ...this.baseHeaders, ...options.headers };
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    if (call.contentType) headers['content-type'] = call.contentType;
    if (call.idempotencyKey) headers['idempotency-key'] = call.idempotencyKey;
    const json = call.json === undefined ? undefined : JSON.stringify(call.json);
    const maxRetries = call.replayable === false ? 0 : options.maxRetries ?? this.options.maxRetries;
    // Repeating the call cannot do its work twice.
    const idempotent = call.method === 'GET' || call.method === 'DELETE' || call.idempotencyKey !== undefined;

    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        const body = json ?? (call.body ? await call.body() : undefined);
        const init: RequestInit & { duplex?: 'half' } = { method: call.method, headers, body: body as BodyInit | undefined, signal: scope.signal };
        // A streamed request body (a file, a ReadableStream) needs half duplex in fetch.
        if (body !== undefined && typeof body === 'object' && !(body instanceof Blob) && !ArrayBuffer.isView(body)
          && !(body instanceof ArrayBuffer) && !(body instanceof URLSearchParams) && !(body instanceof FormData)) {
          init.duplex = 'half';
        }
        res = await this.fetch(url, init);
      } catch (err) {
        const aborted = scope.abortError(err);
        if (aborted) throw aborted;
        const error = new ConnectionError(`${call.method} ${call.path}: ${describe(err)}`, { cause: err });
        if (!idempotent || attempt >= maxRetries) throw error;
        await this.wait(attempt, undefined, scope, error);
        continue;
      }
      if (res.ok) return res;

      let text = '';
      try {
        text = await res.text();
      } catch (err) {
        const aborted = scope.abortError(err);
        if (aborted) throw aborted;
      }
      const error = errorFromResponse(res.status, res.statusText, res.headers, text);
      const retryable = res.status === 429 || res.status === 503
        || (res.status === 409 && call.idempotencyKey !== undefined && error.code === 'idempotency-key-in-use')
        || (res.status >= 500 && idempotent);
      if (!retryable || attempt >= maxRetries) throw error;
      await this.wait(attempt, retryAfterSeconds(res.headers), scope, error);
    }
  }

  /** Waits before attempt `attempt + 1`, or throws `error` when the wait would end past the deadline. */
  private async wait(attempt: number, retryAfter: number | undefined, scope: CallScope, error: ContactValidatorError): Promise<void> {
    const backoff = Math.min(this.maxDelayMs, this.initialDelayMs * 2 ** attempt) * (0.5 + Math.random() * 0.5);
    const delay = retryAfter !== undefined ? retryAfter * 1000 : backoff;
    // The answer to this attempt is the best thing to report if there is no time left for another.
    if (delay >= scope.remainingMs()) throw error;
    try {
      await sleep(delay, scope.signal);
    } catch (err) {
      throw scope.abortError(err) ?? error;
    }
  }
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return (err as Error)?.message ?? String(err);
}
