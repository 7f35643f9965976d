// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
/** The resources' methods, one per operation of the OpenAPI description. */
import { type RequestOptions, type Transport, randomUUID } from './transport.js';
import { BatchResult, type UploadSource, uploadBody } from './streams.js';
import type { Account, AddressSuggestion, AddressSuggestions, ApiKey, Batch, BatchList, Connector, ConnectorCheck, ConnectorList, ConnectorRun, ConnectorRunList, CreateConnectorRequest, CreateKeyRequest, CreateWebhookEndpointRequest, CreatedBatch, CreatedKey, CreatedWebhookEndpoint, FeedbackRecorded, FeedbackReport, KeyList, NewPolicyRequest, Policy, PolicyChanges, PolicyList, RevokedKey, RunStarted, ShopifyInstallLink, ShopifyInstallRequest, UpdateAccountRequest, UpdateConnectorRequest, UsageDays, ValidateBatchAnswer, ValidateBatchRequest, ValidateRequest, ValidateResponse, WebhookDelivery, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointList } from './models.js';

/** The options of `POST /v1/validate`. */
export interface ValidateOptions extends RequestOptions {
  /** A preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's policies; default: the key's default policy, else the fixed table (docs/api.md#policies). */
  policy?: string;
  /** Sent as `Idempotency-Key`; a fresh UUID by default, kept for every retry of this call. */
  idempotencyKey?: string;
}

/** The options of `POST /v1/validate/batch`. */
export interface ValidateBatchOptions extends RequestOptions {
  /** A preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's policies; default: the key's default policy, else the fixed table (docs/api.md#policies). */
  policy?: string;
  /** Sent as `Idempotency-Key`; a fresh UUID by default, kept for every retry of this call. */
  idempotencyKey?: string;
}

/** The options of `GET /v1/address/autocomplete`. */
export interface AutocompleteAddressOptions extends RequestOptions {
  /** ISO 3166-1 alpha-2: only this country (data is held for US and CA; another country has no suggestions). */
  country?: string;
  /** How many suggestions at most (1-10, default 5). */
  limit?: number;
}

/** The options of `GET /v1/usage`. */
export interface GetUsageOptions extends RequestOptions {
  /** The first day, YYYY-MM-DD. */
  from?: string;
  /** The last day, YYYY-MM-DD (today by default). */
  to?: string;
}

/** The options of `POST /v1/batches`. */
export interface CreateBatchOptions extends RequestOptions {
  /** Comma-separated header names joined with ", " into the one-line address (`Street,City,State,Zip`). */
  addressColumns?: string[];
  /** The header of the e-mail column. */
  emailColumn?: string;
  /** The header of the phone column. */
  phoneColumn?: string;
  /** The header of the country column. */
  countryColumn?: string;
  /** The header of a column telling what became of mail sent to the row's address (`bounced`, `delivered`, `complained`, or a mailing tool's words for them), recorded as the account's feedback before the row is checked (docs/batches.md#feedback); by default a column named `feedback`, `email outcome`, `delivery status`… Naming it leaves the detection of the other columns as it is. */
  feedbackColumn?: string;
  /** `false` skips the mailbox probe for the whole file. */
  smtp?: boolean;
  /** A label kept with the batch; by default the uploaded file's name (the form part's `filename`). */
  name?: string;
  /** The policy `cv_next_action` follows (docs/api.md#policies): a preset or one of the account's; by default the key's default policy, else the fixed table. Its rules are kept with the batch as they are at upload. */
  policy?: string;
  /** `text/csv` by default. */
  contentType?: string;
}

/** The options of `GET /v1/batches`. */
export interface ListBatchesOptions extends RequestOptions {
  /** How many items at most (1-100, default 100). */
  limit?: number;
  /** The id of the last item of the page before: the page that follows it (older items). */
  startingAfter?: string;
}

/** The options of `GET /v1/batches/{batch_id}/result`. */
export interface GetBatchResultOptions extends RequestOptions {
  /** `true`: the rows done so far, before the batch has completed. */
  partial?: boolean;
  /** `false`: cells as they are, without the leading `'` (for a CRM import, where it would corrupt phone numbers). Such a file must not be opened in a spreadsheet: a cell starting with `=` would run there. */
  formulaEscape?: boolean;
}

/** The options of `GET /v1/connectors/{connector_id}/runs`. */
export interface ListConnectorRunsOptions extends RequestOptions {
  /** How many items at most (1-100, default 50). */
  limit?: number;
  /** The id of the last item of the page before: the page that follows it (older items). */
  startingAfter?: string;
}

/** The options of `GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries`. */
export interface ListWebhookDeliveriesOptions extends RequestOptions {
  /** How many items at most (1-100, default 100). */
  limit?: number;
  /** The id of the last item of the page before: the page that follows it (older items). */
  startingAfter?: string;
}

/** `client.keys`. */
export class Keys {
  constructor(protected readonly transport: Transport) {}

  /**
   * GET /v1/keys: The account's API keys
   */
  async list(options: RequestOptions = {}): Promise<ApiKey[]> {
    return (await this.transport.json<KeyList>({ method: 'GET', path: `/v1/keys` }, options)).keys;
  }

  /**
   * POST /v1/keys: Create an API key
   * The key is in the answer once, never again.
   */
  async create(body: CreateKeyRequest = {}, options: RequestOptions = {}): Promise<CreatedKey> {
    return this.transport.json<CreatedKey>({ method: 'POST', path: `/v1/keys`, json: body }, options);
  }

  /**
   * DELETE /v1/keys/{key_id}: Revoke an API key
   * It stops working at once. Another account's key answers 404, like a missing one.
   */
  async revoke(keyId: string, options: RequestOptions = {}): Promise<RevokedKey> {
    return this.transport.json<RevokedKey>({ method: 'DELETE', path: `/v1/keys/${encodeURIComponent(keyId)}` }, options);
  }
}

/** `client.batches`. */
export class BatchesOperations {
  constructor(protected readonly transport: Transport) {}

  /**
   * POST /v1/batches: Upload a CSV file to validate in the background
   * The file as the body (`text/csv`, streamed to disk), or the part `file` of `multipart/form-data`, at most BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; `,`, `;` or tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES (65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file streams in: 422 `invalid-csv` with its `line`, nothing kept. Each row is priced and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.
   */
  async create(source: UploadSource, options: CreateBatchOptions = {}): Promise<CreatedBatch> {
    const { addressColumns, emailColumn, phoneColumn, countryColumn, feedbackColumn, smtp, name, policy, contentType, ...rest } = options;
    return this.transport.json<CreatedBatch>({ method: 'POST', path: `/v1/batches`, query: { address_columns: addressColumns?.join(','), email_column: emailColumn, phone_column: phoneColumn, country_column: countryColumn, feedback_column: feedbackColumn, smtp: smtp, name: name, policy: policy }, contentType: contentType ?? 'text/csv', ...(await uploadBody(source)) }, rest);
  }

  /**
   * GET /v1/batches: The account's batches, newest first
   */
  async list(options: ListBatchesOptions = {}): Promise<Batch[]> {
    const { limit, startingAfter, ...rest } = options;
    return (await this.transport.json<BatchList>({ method: 'GET', path: `/v1/batches`, query: { limit: limit, starting_after: startingAfter } }, rest)).batches;
  }

  /**
   * GET /v1/batches, every page: one item at a time, for `for await`.
   * The items of `list`: a page (`limit` items) is fetched when the loop reaches it, after the last item's id; each page is one call with these options.
   */
  async *listAll(options: ListBatchesOptions = {}): AsyncGenerator<Batch, void, undefined> {
    const { limit, startingAfter, ...rest } = options;
    let after = startingAfter;
    for (;;) {
      const page = await this.transport.json<BatchList>({ method: 'GET', path: `/v1/batches`, query: { limit: limit, starting_after: after } }, rest);
      yield* page.batches;
      if (!page.has_more || !page.next_starting_after) return;
      after = page.next_starting_after;
    }
  }

  /**
   * GET /v1/batches/{batch_id}: A batch's status and progress
   * Another account's batch answers 404, exactly like a missing one.
   */
  async get(batchId: string, options: RequestOptions = {}): Promise<Batch> {
    return this.transport.json<Batch>({ method: 'GET', path: `/v1/batches/${encodeURIComponent(batchId)}` }, options);
  }

  /**
   * DELETE /v1/batches/{batch_id}: Cancel a batch and delete its files
   * The batch stays listed as `canceled`; its result answers 410.
   */
  async cancel(batchId: string, options: RequestOptions = {}): Promise<Batch> {
    return this.transport.json<Batch>({ method: 'DELETE', path: `/v1/batches/${encodeURIComponent(batchId)}` }, options);
  }

  /**
   * GET /v1/batches/{batch_id}/result: Download the enriched file
   * Every input column in its order and spelling, then `cv_address_status, cv_address_standardized, cv_address_dpv, cv_address_zip4, cv_email_status, cv_email_risk, cv_email_smtp, cv_email_suggestion, cv_phone_status, cv_phone_type, cv_phone_carrier, cv_phone_e164, cv_error, cv_address_notes, cv_email_reason, cv_email_flags, cv_next_action, cv_address_lat, cv_address_lon, cv_address_precision, cv_address_evidence, cv_address_changes, cv_feedback`; rows in input order, with the input's delimiter and CRLF between rows. A cell holding a line break (CR, LF or CRLF) is quoted, so that every row is one record. A cell a spreadsheet would run as a formula is written with a leading `'` (OWASP), unless it is a plain number.
   */
  async result(batchId: string, options: GetBatchResultOptions = {}): Promise<BatchResult> {
    const { partial, formulaEscape, ...rest } = options;
    const response = await this.transport.stream({ method: 'GET', path: `/v1/batches/${encodeURIComponent(batchId)}/result`, query: { partial: partial, formula_escape: formulaEscape } }, { ...rest, headers: { accept: 'text/csv, application/problem+json', ...rest.headers } });
    return new BatchResult(response);
  }

  /**
   * POST /v1/batches/{batch_id}/resume: Resume a paused batch now
   * A batch paused for want of credits also goes on by itself once the account has enough.
   */
  async resume(batchId: string, options: RequestOptions = {}): Promise<Batch> {
    return this.transport.json<Batch>({ method: 'POST', path: `/v1/batches/${encodeURIComponent(batchId)}/resume` }, options);
  }
}

/** `client.policies`. */
export class Policies {
  constructor(protected readonly transport: Transport) {}

  /**
   * GET /v1/policies: The presets and the account's policies
   */
  async list(options: RequestOptions = {}): Promise<PolicyList> {
    return this.transport.json<PolicyList>({ method: 'GET', path: `/v1/policies` }, options);
  }

  /**
   * POST /v1/policies: Make a policy of the account
   * From a preset (`base`), with the rules given changed. Its rules are kept whole: a later version's presets do not change it.
   */
  async create(body: NewPolicyRequest, options: RequestOptions = {}): Promise<Policy> {
    return this.transport.json<Policy>({ method: 'POST', path: `/v1/policies`, json: body }, options);
  }

  /**
   * GET /v1/policies/{policy_id}: One policy of the account
   */
  async get(policyId: string, options: RequestOptions = {}): Promise<Policy> {
    return this.transport.json<Policy>({ method: 'GET', path: `/v1/policies/${encodeURIComponent(policyId)}` }, options);
  }

  /**
   * PATCH /v1/policies/{policy_id}: Change a policy's rules
   * The rules given change; the others keep their action. Answers made from then on follow it (within a second on every instance).
   */
  async update(policyId: string, body: PolicyChanges, options: RequestOptions = {}): Promise<Policy> {
    return this.transport.json<Policy>({ method: 'PATCH', path: `/v1/policies/${encodeURIComponent(policyId)}`, json: body }, options);
  }

  /**
   * DELETE /v1/policies/{policy_id}: Delete a policy
   * Refused (409 `policy-conflict`, `reason` `in_use`) while a live key has it as its default or a connector follows it.
   */
  async delete(policyId: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.json<void>({ method: 'DELETE', path: `/v1/policies/${encodeURIComponent(policyId)}` }, options);
  }
}

/** `client.connectors`. */
export class Connectors {
  constructor(protected readonly transport: Transport) {}

  /**
   * POST /v1/connectors: Connect a CRM or a store
   * Every URL the connector will call must be https on a public address. Credentials are sealed with CONNECTOR_SECRET_KEY (503 while it is not set) and never returned. One shop has one connector: a shop that a connector (of any account) already connects answers 409 `shop-already-connected`: its account disconnects it first, or, when that connector no longer reaches the shop, the app's OAuth install moves it to your account.
   */
  async create(body: CreateConnectorRequest, options: RequestOptions = {}): Promise<Connector> {
    return this.transport.json<Connector>({ method: 'POST', path: `/v1/connectors`, json: body }, options);
  }

  /**
   * GET /v1/connectors: The account's connectors
   */
  async list(options: RequestOptions = {}): Promise<Connector[]> {
    return (await this.transport.json<ConnectorList>({ method: 'GET', path: `/v1/connectors` }, options)).connectors;
  }

  /**
   * GET /v1/connectors/{connector_id}: A connector, with its status, last run and watermark
   * Another account's connector answers 404, exactly like a missing one.
   */
  async get(connectorId: string, options: RequestOptions = {}): Promise<Connector> {
    return this.transport.json<Connector>({ method: 'GET', path: `/v1/connectors/${encodeURIComponent(connectorId)}` }, options);
  }

  /**
   * PATCH /v1/connectors/{connector_id}: Pause, resume or change a connector
   */
  async update(connectorId: string, body: UpdateConnectorRequest, options: RequestOptions = {}): Promise<Connector> {
    return this.transport.json<Connector>({ method: 'PATCH', path: `/v1/connectors/${encodeURIComponent(connectorId)}`, json: body }, options);
  }

  /**
   * DELETE /v1/connectors/{connector_id}: Delete a connector, its runs and record hashes
   */
  async delete(connectorId: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.json<void>({ method: 'DELETE', path: `/v1/connectors/${encodeURIComponent(connectorId)}` }, options);
  }

  /**
   * POST /v1/connectors/{connector_id}/runs: Start a run now
   */
  async run(connectorId: string, options: RequestOptions = {}): Promise<RunStarted> {
    return this.transport.json<RunStarted>({ method: 'POST', path: `/v1/connectors/${encodeURIComponent(connectorId)}/runs` }, options);
  }

  /**
   * GET /v1/connectors/{connector_id}/runs: A connector's runs, newest first
   */
  async runs(connectorId: string, options: ListConnectorRunsOptions = {}): Promise<ConnectorRun[]> {
    const { limit, startingAfter, ...rest } = options;
    return (await this.transport.json<ConnectorRunList>({ method: 'GET', path: `/v1/connectors/${encodeURIComponent(connectorId)}/runs`, query: { limit: limit, starting_after: startingAfter } }, rest)).runs;
  }

  /**
   * GET /v1/connectors/{connector_id}/runs, every page: one item at a time, for `for await`.
   * The items of `runs`: a page (`limit` items) is fetched when the loop reaches it, after the last item's id; each page is one call with these options.
   */
  async *runsAll(connectorId: string, options: ListConnectorRunsOptions = {}): AsyncGenerator<ConnectorRun, void, undefined> {
    const { limit, startingAfter, ...rest } = options;
    let after = startingAfter;
    for (;;) {
      const page = await this.transport.json<ConnectorRunList>({ method: 'GET', path: `/v1/connectors/${encodeURIComponent(connectorId)}/runs`, query: { limit: limit, starting_after: after } }, rest);
      yield* page.runs;
      if (!page.has_more || !page.next_starting_after) return;
      after = page.next_starting_after;
    }
  }

  /**
   * POST /v1/connectors/{connector_id}/check: Check a connector before its first run
   * Signs in to the platform and finds what would keep a run from reading or writing: refused credentials, missing or read-only fields (the verdict fields the plugin writes, their field-level security), missing access scopes, and webhooks the platform refuses (subscribed, as each run does, when PUBLIC_BASE_URL is set). Every problem at once, each with what to do; 200 whatever it finds. Free of credits.
   */
  async check(connectorId: string, options: RequestOptions = {}): Promise<ConnectorCheck> {
    return this.transport.json<ConnectorCheck>({ method: 'POST', path: `/v1/connectors/${encodeURIComponent(connectorId)}/check` }, options);
  }

  /**
   * POST /v1/connectors/shopify/install: A signed link that installs the Shopify app on a store
   * Needs the Shopify app configured (503 otherwise: The operator has not set up the Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): use a custom app's token instead.). The store is connected when its owner approves the app and Shopify calls back.
   */
  async createShopifyInstallLink(body: ShopifyInstallRequest, options: RequestOptions = {}): Promise<ShopifyInstallLink> {
    return this.transport.json<ShopifyInstallLink>({ method: 'POST', path: `/v1/connectors/shopify/install`, json: body }, options);
  }
}

/** `client.webhookEndpoints`. */
export class WebhookEndpoints {
  constructor(protected readonly transport: Transport) {}

  /**
   * POST /v1/webhook_endpoints: Register a webhook endpoint
   * The URL must be https on a public address. The answer carries the signing secret, this once. Each event is POSTed as JSON `{"id", "type", "created", "data"}` with `Contact-Validator-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; an answer other than 2xx is tried again with back-off for 72 hours. At most 16 endpoints per account. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 `owner-only`.
   */
  async create(body: CreateWebhookEndpointRequest, options: RequestOptions = {}): Promise<CreatedWebhookEndpoint> {
    return this.transport.json<CreatedWebhookEndpoint>({ method: 'POST', path: `/v1/webhook_endpoints`, json: body }, options);
  }

  /**
   * GET /v1/webhook_endpoints: The account's webhook endpoints
   */
  async list(options: RequestOptions = {}): Promise<WebhookEndpoint[]> {
    return (await this.transport.json<WebhookEndpointList>({ method: 'GET', path: `/v1/webhook_endpoints` }, options)).webhook_endpoints;
  }

  /**
   * DELETE /v1/webhook_endpoints/{webhook_endpoint_id}: Delete a webhook endpoint and its delivery log
   * Nothing more is sent to it, retries included. An owner or admin key only (docs/account.md#key-roles).
   */
  async delete(webhookEndpointId: string, options: RequestOptions = {}): Promise<void> {
    await this.transport.json<void>({ method: 'DELETE', path: `/v1/webhook_endpoints/${encodeURIComponent(webhookEndpointId)}` }, options);
  }

  /**
   * GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries: An endpoint's deliveries, newest first
   */
  async deliveries(webhookEndpointId: string, options: ListWebhookDeliveriesOptions = {}): Promise<WebhookDelivery[]> {
    const { limit, startingAfter, ...rest } = options;
    return (await this.transport.json<WebhookDeliveryList>({ method: 'GET', path: `/v1/webhook_endpoints/${encodeURIComponent(webhookEndpointId)}/deliveries`, query: { limit: limit, starting_after: startingAfter } }, rest)).deliveries;
  }

  /**
   * GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries, every page: one item at a time, for `for await`.
   * The items of `deliveries`: a page (`limit` items) is fetched when the loop reaches it, after the last item's id; each page is one call with these options.
   */
  async *deliveriesAll(webhookEndpointId: string, options: ListWebhookDeliveriesOptions = {}): AsyncGenerator<WebhookDelivery, void, undefined> {
    const { limit, startingAfter, ...rest } = options;
    let after = startingAfter;
    for (;;) {
      const page = await this.transport.json<WebhookDeliveryList>({ method: 'GET', path: `/v1/webhook_endpoints/${encodeURIComponent(webhookEndpointId)}/deliveries`, query: { limit: limit, starting_after: after } }, rest);
      yield* page.deliveries;
      if (!page.has_more || !page.next_starting_after) return;
      after = page.next_starting_after;
    }
  }

  /**
   * POST /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver: Send a delivery again now
   * Sends the same event (same `id`, a fresh signature) at once, whatever its status, and answers with the delivery as that attempt left it; if it fails, it is tried again with back-off like a first delivery. An owner or admin key only (docs/account.md#key-roles).
   */
  async redeliver(webhookEndpointId: string, deliveryId: string, options: RequestOptions = {}): Promise<WebhookDelivery> {
    return this.transport.json<WebhookDelivery>({ method: 'POST', path: `/v1/webhook_endpoints/${encodeURIComponent(webhookEndpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver` }, options);
  }
}

/** `client.emailChecks`. */
export class EmailChecks {
  constructor(protected readonly transport: Transport) {}

  /**
   * GET /v1/email-checks/{check_id}: An e-mail answer that arrives later
   * A `temp_fail`, `throttled` or `timeout` e-mail answer carries `check_id`: the service asks the mail server again on a schedule (the server's own "try again in …" respected) and keeps the definite answer here, in the cache for the next `/v1/validate`, and in an `email.verified` event. No further charge. Another account's check answers 404, exactly like a missing one.
   */
  async get(checkId: string, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    return this.transport.json<Record<string, unknown>>({ method: 'GET', path: `/v1/email-checks/${encodeURIComponent(checkId)}` }, options);
  }
}

/** `client.feedback`. */
export class Feedback {
  constructor(protected readonly transport: Transport) {}

  /**
   * POST /v1/feedback: Tell what became of a mail
   * A hard bounce makes the address `invalid` (`reason` `bounced`) in this account's answers from now on; the outcomes of a domain's addresses give its catch-all answers a `catch_all_score`. One outcome per address, the latest standing: telling the same thing twice counts once. Free. Kept in this account alone, never shared.
   */
  async send(body: FeedbackReport, options: RequestOptions = {}): Promise<FeedbackRecorded> {
    return this.transport.json<FeedbackRecorded>({ method: 'POST', path: `/v1/feedback`, json: body }, options);
  }
}

/** The client's own methods; ContactValidator (client.ts) adds the configuration. */
export class RootOperations {
  constructor(protected readonly transport: Transport) {}

  /**
   * POST /v1/validate: Validate an address, an e-mail address and a phone number
   * Checks the modules asked for in parallel, within the time budget. Priced per module before the slow work starts (e-mail 1, US/Canadian address 1, other address 3, phone 2, landline 3); an `unknown` e-mail is refunded. A publishable key (`cv_pub_…`) may call this endpoint only, from one of its origins. A test key (`cv_test_…`) is answered by the same engines with network checks off (no DNS, SMTP or live phone look-up), is charged nothing and gets `"test": true`. `next_action` says what to do with the answer: `accept`, `confirm` or `fix`.
   */
  async validate(body: ValidateRequest, options: ValidateOptions = {}): Promise<ValidateResponse> {
    const { policy, idempotencyKey = await randomUUID(), ...rest } = options;
    return this.transport.json<ValidateResponse>({ method: 'POST', path: `/v1/validate`, query: { policy: policy }, json: body, idempotencyKey }, rest);
  }

  /**
   * POST /v1/validate/batch: Validate up to 100 contacts in one call
   * Each contact is a /v1/validate body with an `input_id` of yours, echoed back with its answer; up to 100 contacts, checked together within one time budget, priced and charged each as /v1/validate would be, once each. A contact that cannot be answered (the credits ran out before it, an engine fault) gets its `problem` in its place and is not charged; the others are answered (HTTP 200, `failed` counts them). An `Idempotency-Key` covers the whole call: a retry replays the answer and charges nothing again. Secret keys only.
   */
  async validateBatch(body: ValidateBatchRequest, options: ValidateBatchOptions = {}): Promise<ValidateBatchAnswer> {
    const { policy, idempotencyKey = await randomUUID(), ...rest } = options;
    return this.transport.json<ValidateBatchAnswer>({ method: 'POST', path: `/v1/validate/batch`, query: { policy: policy }, json: body, idempotencyKey }, rest);
  }

  /**
   * GET /v1/address/autocomplete: Suggest addresses as a person types
   * Delivery points of the loaded reference data (the embedded RRAD sample, and the OpenAddresses, NAR and USPS files an operator imported) and places of the postal data (GeoNames ZIP codes and Canadian FSAs) whose written form starts with `q`, best first. Free: no credits are charged; rate-limited per key (and per client address for a publishable key, which may call it from its origins). The reference data is the service's, the same for every account.
   */
  async autocompleteAddress(query: string, options: AutocompleteAddressOptions = {}): Promise<AddressSuggestion[]> {
    const { country, limit, ...rest } = options;
    return (await this.transport.json<AddressSuggestions>({ method: 'GET', path: `/v1/address/autocomplete`, query: { q: query, country: country, limit: limit } }, rest)).suggestions;
  }

  /**
   * GET /v1/account: The key's own account
   * Balance, grants with their expiry, usage per module over 30 days, and API keys (prefixes only).
   */
  async account(options: RequestOptions = {}): Promise<Account> {
    return this.transport.json<Account>({ method: 'GET', path: `/v1/account` }, options);
  }

  /**
   * PATCH /v1/account: Change the account's settings
   * `low_balance_threshold`: when the balance falls below it, the owner gets one e-mail and the endpoints one `credits.low` webhook, and no more until credits added bring the balance back at or above it (changing the threshold does not), at most 3 a UTC day. A new threshold is checked at once. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 `owner-only`.
   */
  async updateAccount(body: UpdateAccountRequest, options: RequestOptions = {}): Promise<Account> {
    return this.transport.json<Account>({ method: 'PATCH', path: `/v1/account`, json: body }, options);
  }

  /**
   * GET /v1/usage: Usage per module per day
   * UTC days from `from` to `to` (inclusive, at most 366; by default the last 30), every day listed, zeros included.
   */
  async getUsage(options: GetUsageOptions = {}): Promise<unknown[]> {
    const { from, to, ...rest } = options;
    return (await this.transport.json<UsageDays>({ method: 'GET', path: `/v1/usage`, query: { from: from, to: to } }, rest)).days;
  }
}
