/**
 * Every failure the client reports is a ContactValidatorError. Answers from the service carry its RFC 9457 problem
 * document (`problem`, with `type`, `title`, `status`, `detail`, `request_id`, `errors` and any extension member such
 * as `balance`, `required`, `line`); failures that never got an answer are ConnectionError (TimeoutError for the
 * client's own deadline). Classes follow the status family, so `catch (e) { if (e instanceof RateLimitError) … }`.
 */

import type { FieldError } from './models.js';

/** RFC 9457 problem details as the service sends them; extension members are kept as they came. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

export class ContactValidatorError extends Error {
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;
  /** The service's problem document (synthesised from the status line when the body was not one). */
  readonly problem: Problem | undefined;
  /** The answer's headers, when there was an answer. */
  readonly headers: Headers | undefined;

  constructor(message: string, init: { status?: number; problem?: Problem; headers?: Headers; cause?: unknown } = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.problem = init.problem;
    this.headers = init.headers;
  }

  /** `/problems/<code>` */
  get type(): string | undefined { return this.problem?.type; }
  /** The last segment of `type`: `insufficient-credits`, `batch-not-ready`, … */
  get code(): string | undefined { return this.problem?.type?.split('/').pop(); }
  get title(): string | undefined { return this.problem?.title; }
  get detail(): string | undefined { return this.problem?.detail; }
  get requestId(): string | undefined { return this.problem?.request_id ?? this.headers?.get('x-request-id') ?? undefined; }
  /** One entry per field problem (400). */
  get errors(): FieldError[] { return this.problem?.errors ?? []; }
}

export class AuthenticationError extends ContactValidatorError {}
export class PermissionError extends ContactValidatorError {}
export class InsufficientCreditsError extends ContactValidatorError {
  /** Usable credits at the time of the request. */
  get balance(): number | undefined { return this.problem?.balance as number | undefined; }
  /** What the request would have cost. */
  get required(): number | undefined { return this.problem?.required as number | undefined; }
}
export class NotFoundError extends ContactValidatorError {}
/** 410: a canceled batch's files are deleted. */
export class GoneError extends NotFoundError {}
export class ConflictError extends ContactValidatorError {}
/** 400, 405, 413, 415, 422 and any other 4xx not listed. */
export class InvalidRequestError extends ContactValidatorError {
  /** The 1-based line of a CSV file the service could not read (422 `invalid-csv`). */
  get line(): number | undefined { return this.problem?.line as number | undefined; }
}
export class RateLimitError extends ContactValidatorError {
  /** Seconds the service asked to wait (`Retry-After`). */
  get retryAfter(): number | undefined { return retryAfterSeconds(this.headers); }
}
/** Any 5xx answer. */
export class APIError extends ContactValidatorError {}
export class ServiceUnavailableError extends APIError {
  get retryAfter(): number | undefined { return retryAfterSeconds(this.headers); }
}
/** No answer: the connection failed or was dropped. */
export class ConnectionError extends ContactValidatorError {}
/** No answer within the call's total timeout (retries included). */
export class TimeoutError extends ConnectionError {}

/** `Retry-After` in seconds: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

function classFor(status: number): typeof ContactValidatorError {
  switch (status) {
    case 401: return AuthenticationError;
    case 402: return InsufficientCreditsError;
    case 403: return PermissionError;
    case 404: return NotFoundError;
    case 409: return ConflictError;
    case 410: return GoneError;
    case 429: return RateLimitError;
    case 503: return ServiceUnavailableError;
    default: return status >= 500 ? APIError : status >= 400 ? InvalidRequestError : ContactValidatorError;
  }
}

/** The typed error for an answer that is not 2xx; `body` is its text (a problem document, or anything a proxy sent). */
export function errorFromResponse(status: number, statusText: string, headers: Headers, body: string): ContactValidatorError {
  let problem: Problem | undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed as Problem;
  } catch {
    // Not JSON (an HTML page from a proxy, an empty body): keep the status line.
  }
  problem = {
    ...problem,
    type: typeof problem?.type === 'string' ? problem.type : 'about:blank',
    title: typeof problem?.title === 'string' ? problem.title : statusText || `HTTP ${status}`,
    status: typeof problem?.status === 'number' ? problem.status : status,
  };
  const request = problem.request_id ?? headers.get('x-request-id');
  const message = `${status} ${problem.detail ?? problem.title}${request ? ` (request ${request})` : ''}`;
  const ErrorClass = classFor(status);
  return new ErrorClass(message, { status, problem, headers });
}
