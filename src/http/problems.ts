/**
 * The one catalogue of problem types (RFC 9457). Every error the service answers is one of these, with a stable `type`
 * URI, a `title` and a status (docs/api.md#problems). `type` is a relative reference to /problems/<code>, which the service
 * itself documents (GET /problems/<code>).
 */

export const PROBLEM_TYPES = {
  'invalid-json': { status: 400, title: 'The request body is not valid JSON' },
  'invalid-request': { status: 400, title: 'The request does not match the schema' },
  'invalid-header': { status: 400, title: 'A request header is malformed' },
  unauthorized: { status: 401, title: 'The API key is missing, malformed, unknown or revoked' },
  'webhook-unauthorized': { status: 401, title: "The webhook's signature does not verify for any connector" },
  'session-token-invalid': { status: 401, title: "The Shopify session token is missing, expired or not signed by a connected store" },
  'webhook-signature-invalid': { status: 400, title: "The Stripe webhook's signature is missing, stale or does not verify" },
  'insufficient-credits': { status: 402, title: "The account's usable credits do not cover the request" },
  'origin-not-allowed': { status: 403, title: "The request's origin is not one of the publishable key's origins" },
  'module-not-allowed': { status: 403, title: 'This publishable key may not use this module' },
  'csrf-failed': { status: 403, title: 'The form is missing its CSRF token or came from another site' },
  'email-unconfirmed': { status: 403, title: 'The e-mail address must be confirmed first' },
  'owner-only': { status: 403, title: "Only the account's owner may do this" },
  'not-found': { status: 404, title: 'No such resource' },
  'method-not-allowed': { status: 405, title: 'The method is not allowed on this resource' },
  'idempotency-key-in-use': { status: 409, title: 'A request with this Idempotency-Key is still being processed' },
  'payload-too-large': { status: 413, title: 'The request body is larger than 16 KiB' },
  'batch-too-large': { status: 413, title: 'The uploaded file is larger than the batch size limit' },
  'contacts-too-large': { status: 413, title: 'The body of the batch call is larger than 1 MiB' },
  'too-many-contacts': { status: 422, title: 'The batch call names more than 100 contacts' },
  'batch-not-ready': { status: 409, title: 'The batch has not completed yet' },
  'batch-not-paused': { status: 409, title: 'The batch is not paused' },
  'batch-gone': { status: 410, title: "The batch was canceled and its files deleted" },
  'invalid-csv': { status: 422, title: 'The file is not a CSV file the service can read' },
  'connector-busy': { status: 409, title: 'A run of this connector is in progress' },
  'webhook-delivery-busy': { status: 409, title: 'This webhook delivery is being sent at this moment' },
  'shop-already-connected': { status: 409, title: 'Another connector already connects this shop' },
  'policy-conflict': { status: 409, title: 'The policy cannot be made or deleted as asked' },
  'connectors-not-configured': { status: 503, title: 'Connectors need CONNECTOR_SECRET_KEY, which is not set' },
  'webhooks-not-configured': { status: 503, title: 'Webhook endpoints need CONNECTOR_SECRET_KEY, which is not set' },
  'shopify-app-not-configured': { status: 503, title: 'The Shopify app is not configured on this service' },
  'payments-not-configured': { status: 503, title: 'Card payments (Stripe) are not configured on this service' },
  'shopify-install-refused': { status: 400, title: 'The Shopify install could not go on' },
  'unsupported-media-type': { status: 415, title: "The request body's media type is not accepted here" },
  'address-undeliverable': { status: 422, title: 'The address given is not a deliverable address' },
  'idempotency-key-reused': { status: 422, title: 'This Idempotency-Key was used with a different request body' },
  'rate-limited': { status: 429, title: 'Too many requests for this API key' },
  'store-refused': { status: 502, title: "The store's Admin API refused the change" },
  internal: { status: 500, title: 'The service failed to process the request' },
  'database-unavailable': { status: 503, title: 'The database is unreachable; nothing was charged' },
  'not-ready': { status: 503, title: 'The service is not ready to serve' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEM_TYPES;

export interface FieldError {
  field: string;
  message: string;
}

/** An error the service means to answer: a catalogue entry, a detail for this occurrence, and extension members. */
export class Problem extends Error {
  readonly status: number;
  constructor(
    readonly code: ProblemCode,
    readonly detail?: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? PROBLEM_TYPES[code].title);
    this.status = PROBLEM_TYPES[code].status;
  }
}

export function problemBody(problem: Problem, instance?: string): Record<string, unknown> {
  const { title, status } = PROBLEM_TYPES[problem.code];
  return {
    type: `/problems/${problem.code}`,
    title,
    status,
    ...(problem.detail ? { detail: problem.detail } : {}),
    ...(instance ? { instance } : {}),
    ...problem.extensions,
  };
}
