// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.

package contactvalidator

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// resources are the Client's resources, one field each (client.Batches), embedded in Client.
type resources struct {
	// Keys has the keys operations.
	Keys *KeysService
	// Batches has the batches operations.
	Batches *BatchesService
	// Policies has the policies operations.
	Policies *PoliciesService
	// Connectors has the connectors operations.
	Connectors *ConnectorsService
	// WebhookEndpoints has the webhook endpoints operations.
	WebhookEndpoints *WebhookEndpointsService
	// EmailChecks has the email checks operations.
	EmailChecks *EmailChecksService
	// Feedback has the feedback operations.
	Feedback *FeedbackService
}

func (c *Client) initResources() {
	c.Keys = &KeysService{c}
	c.Batches = &BatchesService{c}
	c.Policies = &PoliciesService{c}
	c.Connectors = &ConnectorsService{c}
	c.WebhookEndpoints = &WebhookEndpointsService{c}
	c.EmailChecks = &EmailChecksService{c}
	c.Feedback = &FeedbackService{c}
}

// ValidateQueryParams are the optional parameters of POST /v1/validate; the zero value leaves each out.
type ValidateQueryParams struct {
	// A preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's policies; default: the key's default policy, else the fixed table (docs/api.md#policies).
	Policy string
}

// ValidateBatchParams are the optional parameters of POST /v1/validate/batch; the zero value leaves each out.
type ValidateBatchParams struct {
	// A preset (`default`, `signup`, `checkout`, `crm_cleanup`) or one of the account's policies; default: the key's default policy, else the fixed table (docs/api.md#policies).
	Policy string
}

// AutocompleteParams are the optional parameters of GET /v1/address/autocomplete; the zero value leaves each out.
type AutocompleteParams struct {
	// ISO 3166-1 alpha-2: only this country (data is held for US and CA; another country has no suggestions).
	Country string
	// How many suggestions at most (1-10, default 5).
	Limit int
}

// GetUsageParams are the optional parameters of GET /v1/usage; the zero value leaves each out.
type GetUsageParams struct {
	// The first day, YYYY-MM-DD.
	From string
	// The last day, YYYY-MM-DD (today by default).
	To string
}

// BatchParams are the optional parameters of POST /v1/batches; the zero value leaves each out.
type BatchParams struct {
	// Comma-separated header names joined with ", " into the one-line address (`Street,City,State,Zip`).
	AddressColumns []string
	// The header of the e-mail column.
	EmailColumn string
	// The header of the phone column.
	PhoneColumn string
	// The header of the country column.
	CountryColumn string
	// The header of a column telling what became of mail sent to the row's address (`bounced`, `delivered`, `complained`, or a mailing tool's words for them), recorded as the account's feedback before the row is checked (docs/batches.md#feedback); by default a column named `feedback`, `email outcome`, `delivery status`… Naming it leaves the detection of the other columns as it is.
	FeedbackColumn string
	// `false` skips the mailbox probe for the whole file.
	SMTP *bool
	// A label kept with the batch; by default the uploaded file's name (the form part's `filename`).
	Name string
	// The policy `cv_next_action` follows (docs/api.md#policies): a preset or one of the account's; by default the key's default policy, else the fixed table. Its rules are kept with the batch as they are at upload.
	Policy string
	// ContentType is the upload's type; text/csv by default.
	ContentType string
}

// ListBatchesParams are the optional parameters of GET /v1/batches; the zero value leaves each out.
type ListBatchesParams struct {
	// How many items at most (1-100, default 100).
	Limit int
	// The id of the last item of the page before: the page that follows it (older items).
	StartingAfter string
}

// GetBatchResultParams are the optional parameters of GET /v1/batches/{batch_id}/result; the zero value leaves each out.
type GetBatchResultParams struct {
	// `true`: the rows done so far, before the batch has completed.
	Partial *bool
	// `false`: cells as they are, without the leading `'` (for a CRM import, where it would corrupt phone numbers). Such a file must not be opened in a spreadsheet: a cell starting with `=` would run there.
	FormulaEscape *bool
}

// ListConnectorRunsParams are the optional parameters of GET /v1/connectors/{connector_id}/runs; the zero value leaves each out.
type ListConnectorRunsParams struct {
	// How many items at most (1-100, default 50).
	Limit int
	// The id of the last item of the page before: the page that follows it (older items).
	StartingAfter string
}

// ListWebhookDeliveriesParams are the optional parameters of GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries; the zero value leaves each out.
type ListWebhookDeliveriesParams struct {
	// How many items at most (1-100, default 100).
	Limit int
	// The id of the last item of the page before: the page that follows it (older items).
	StartingAfter string
}

// KeysService is client.Keys.
type KeysService struct{ c *Client }

// BatchesService is client.Batches.
type BatchesService struct{ c *Client }

// PoliciesService is client.Policies.
type PoliciesService struct{ c *Client }

// ConnectorsService is client.Connectors.
type ConnectorsService struct{ c *Client }

// WebhookEndpointsService is client.WebhookEndpoints.
type WebhookEndpointsService struct{ c *Client }

// EmailChecksService is client.EmailChecks.
type EmailChecksService struct{ c *Client }

// FeedbackService is client.Feedback.
type FeedbackService struct{ c *Client }

// Validate: POST /v1/validate: Validate an address, an e-mail address and a phone number.
//
// Checks the modules asked for in parallel, within the time budget. Priced per module before the slow work starts (e-mail 1, US/Canadian address 1, other address 3, phone 2, landline 3); an `unknown` e-mail is refunded. A publishable key (`cv_pub_…`) may call this endpoint only, from one of its origins. A test key (`cv_test_…`) is answered by the same engines with network checks off (no DNS, SMTP or live phone look-up), is charged nothing and gets `"test": true`. `next_action` says what to do with the answer: `accept`, `confirm` or `fix`.
func (c *Client) Validate(ctx context.Context, body ValidateParams, params ...*ValidateQueryParams) (*ValidateResult, error) {
	var p *ValidateQueryParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.Policy != "" {
			values.Set("policy", p.Policy)
		}
	}
	cl := call{method: http.MethodPost, path: "/v1/validate", policy: retryAll, query: values, header: http.Header{"Idempotency-Key": {newIdempotencyKey()}}}
	if err := c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out ValidateResult
	if err := c.roundTripWith(ctx, cl, &out, replayedInto(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// ValidateBatch: POST /v1/validate/batch: Validate up to 100 contacts in one call.
//
// Each contact is a /v1/validate body with an `input_id` of yours, echoed back with its answer; up to 100 contacts, checked together within one time budget, priced and charged each as /v1/validate would be, once each. A contact that cannot be answered (the credits ran out before it, an engine fault) gets its `problem` in its place and is not charged; the others are answered (HTTP 200, `failed` counts them). An `Idempotency-Key` covers the whole call: a retry replays the answer and charges nothing again. Secret keys only.
func (c *Client) ValidateBatch(ctx context.Context, body ValidateBatchRequest, params ...*ValidateBatchParams) (*ValidateBatchAnswer, error) {
	var p *ValidateBatchParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.Policy != "" {
			values.Set("policy", p.Policy)
		}
	}
	cl := call{method: http.MethodPost, path: "/v1/validate/batch", policy: retryAll, query: values, header: http.Header{"Idempotency-Key": {newIdempotencyKey()}}}
	if err := c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out ValidateBatchAnswer
	if err := c.roundTripWith(ctx, cl, &out, replayedInto(&out)); err != nil {
		return nil, err
	}
	return &out, nil
}

// AutocompleteAddress: GET /v1/address/autocomplete: Suggest addresses as a person types.
//
// Delivery points of the loaded reference data (the embedded RRAD sample, and the OpenAddresses, NAR and USPS files an operator imported) and places of the postal data (GeoNames ZIP codes and Canadian FSAs) whose written form starts with `q`, best first. Free: no credits are charged; rate-limited per key (and per client address for a publishable key, which may call it from its origins). The reference data is the service's, the same for every account.
func (c *Client) AutocompleteAddress(ctx context.Context, query string, params ...*AutocompleteParams) ([]AddressSuggestion, error) {
	var p *AutocompleteParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	values.Set("q", query)
	if p != nil {
		if p.Country != "" {
			values.Set("country", p.Country)
		}
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
	}
	cl := call{method: http.MethodGet, path: "/v1/address/autocomplete", policy: retryAll, query: values}
	var out AddressSuggestions
	if err := c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Suggestions, nil
}

// Account: GET /v1/account: The key's own account.
//
// Balance, grants with their expiry, usage per module over 30 days, and API keys (prefixes only).
func (c *Client) Account(ctx context.Context) (*Account, error) {
	cl := call{method: http.MethodGet, path: "/v1/account", policy: retryAll}
	var out Account
	if err := c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateAccount: PATCH /v1/account: Change the account's settings.
//
// `low_balance_threshold`: when the balance falls below it, the owner gets one e-mail and the endpoints one `credits.low` webhook, and no more until credits added bring the balance back at or above it (changing the threshold does not), at most 3 a UTC day. A new threshold is checked at once. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 `owner-only`.
func (c *Client) UpdateAccount(ctx context.Context, body AccountUpdate) (*Account, error) {
	cl := call{method: http.MethodPatch, path: "/v1/account", policy: retryRefused}
	if err := c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out Account
	if err := c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetUsage: GET /v1/usage: Usage per module per day.
//
// UTC days from `from` to `to` (inclusive, at most 366; by default the last 30), every day listed, zeros included.
func (c *Client) GetUsage(ctx context.Context, params ...*GetUsageParams) ([]map[string]any, error) {
	var p *GetUsageParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.From != "" {
			values.Set("from", p.From)
		}
		if p.To != "" {
			values.Set("to", p.To)
		}
	}
	cl := call{method: http.MethodGet, path: "/v1/usage", policy: retryAll, query: values}
	var out UsageDays
	if err := c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Days, nil
}

// List: GET /v1/keys: The account's API keys.
func (s *KeysService) List(ctx context.Context) ([]APIKey, error) {
	cl := call{method: http.MethodGet, path: "/v1/keys", policy: retryAll}
	var out KeyList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Keys, nil
}

// Create: POST /v1/keys: Create an API key.
//
// The key is in the answer once, never again.
func (s *KeysService) Create(ctx context.Context, body *KeyParams) (*NewKey, error) {
	cl := call{method: http.MethodPost, path: "/v1/keys", policy: retryRefused}
	if body != nil {
		if err := s.c.encode(&cl, body); err != nil {
			return nil, err
		}
	}
	var out NewKey
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Revoke: DELETE /v1/keys/{key_id}: Revoke an API key.
//
// It stops working at once. Another account's key answers 404, like a missing one.
func (s *KeysService) Revoke(ctx context.Context, keyID string) (*RevokedKey, error) {
	cl := call{method: http.MethodDelete, path: "/v1/keys/" + url.PathEscape(keyID), policy: retryAll}
	var out RevokedKey
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create: POST /v1/batches: Upload a CSV file to validate in the background.
//
// The file as the body (`text/csv`, streamed to disk), or the part `file` of `multipart/form-data`, at most BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; `,`, `;` or tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES (65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file streams in: 422 `invalid-csv` with its `line`, nothing kept. Each row is priced and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.
func (s *BatchesService) Create(ctx context.Context, file io.Reader, params ...BatchParams) (*Batch, error) {
	var p BatchParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if len(p.AddressColumns) > 0 {
		values.Set("address_columns", strings.Join(p.AddressColumns, ","))
	}
	if p.EmailColumn != "" {
		values.Set("email_column", p.EmailColumn)
	}
	if p.PhoneColumn != "" {
		values.Set("phone_column", p.PhoneColumn)
	}
	if p.CountryColumn != "" {
		values.Set("country_column", p.CountryColumn)
	}
	if p.FeedbackColumn != "" {
		values.Set("feedback_column", p.FeedbackColumn)
	}
	if p.SMTP != nil {
		values.Set("smtp", strconv.FormatBool(*p.SMTP))
	}
	if p.Name != "" {
		values.Set("name", p.Name)
	}
	if p.Policy != "" {
		values.Set("policy", p.Policy)
	}
	contentType := "text/csv"
	if p.ContentType != "" {
		contentType = p.ContentType
	}
	cl := call{method: http.MethodPost, path: "/v1/batches", policy: retryRefused, query: values, stream: uploadOf(file), contentType: contentType}
	var out Batch
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// List: GET /v1/batches: The account's batches, newest first.
func (s *BatchesService) List(ctx context.Context, params ...*ListBatchesParams) ([]Batch, error) {
	var p *ListBatchesParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
		if p.StartingAfter != "" {
			values.Set("starting_after", p.StartingAfter)
		}
	}
	cl := call{method: http.MethodGet, path: "/v1/batches", policy: retryAll, query: values}
	var out BatchList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Batches, nil
}

// ListAll: GET /v1/batches, every page: the items of List one at a time, for a loop on Next.
// A page (Limit items) is fetched when Next reaches it, after the last item's id; each page is one call with these params.
func (s *BatchesService) ListAll(ctx context.Context, params ...*ListBatchesParams) *Iter[Batch] {
	var p ListBatchesParams
	if len(params) > 0 && params[0] != nil {
		p = *params[0]
	}
	return newIter(ctx, p.StartingAfter, func(ctx context.Context, after string) ([]Batch, bool, string, error) {
		p.StartingAfter = after
		values := url.Values{}
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
		if p.StartingAfter != "" {
			values.Set("starting_after", p.StartingAfter)
		}
		cl := call{method: http.MethodGet, path: "/v1/batches", policy: retryAll, query: values}
		var out BatchList
		if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
			return nil, false, "", err
		}
		return out.Batches, out.HasMore, out.NextStartingAfter, nil
	})
}

// Get: GET /v1/batches/{batch_id}: A batch's status and progress.
//
// Another account's batch answers 404, exactly like a missing one.
func (s *BatchesService) Get(ctx context.Context, batchID string) (*Batch, error) {
	cl := call{method: http.MethodGet, path: "/v1/batches/" + url.PathEscape(batchID), policy: retryAll}
	var out Batch
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Cancel: DELETE /v1/batches/{batch_id}: Cancel a batch and delete its files.
//
// The batch stays listed as `canceled`; its result answers 410.
func (s *BatchesService) Cancel(ctx context.Context, batchID string) (*Batch, error) {
	cl := call{method: http.MethodDelete, path: "/v1/batches/" + url.PathEscape(batchID), policy: retryAll}
	var out Batch
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetResult: GET /v1/batches/{batch_id}/result: Download the enriched file.
//
// Every input column in its order and spelling, then `cv_address_status, cv_address_standardized, cv_address_dpv, cv_address_zip4, cv_email_status, cv_email_risk, cv_email_smtp, cv_email_suggestion, cv_phone_status, cv_phone_type, cv_phone_carrier, cv_phone_e164, cv_error, cv_address_notes, cv_email_reason, cv_email_flags, cv_next_action, cv_address_lat, cv_address_lon, cv_address_precision, cv_address_evidence, cv_address_changes, cv_feedback`; rows in input order, with the input's delimiter and CRLF between rows. A cell holding a line break (CR, LF or CRLF) is quoted, so that every row is one record. A cell a spreadsheet would run as a formula is written with a leading `'` (OWASP), unless it is a plain number.
func (s *BatchesService) GetResult(ctx context.Context, batchID string, params ...*GetBatchResultParams) (io.ReadCloser, error) {
	var p *GetBatchResultParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.Partial != nil {
			values.Set("partial", strconv.FormatBool(*p.Partial))
		}
		if p.FormulaEscape != nil {
			values.Set("formula_escape", strconv.FormatBool(*p.FormulaEscape))
		}
	}
	cl := call{method: http.MethodGet, path: "/v1/batches/" + url.PathEscape(batchID) + "/result", policy: retryAll, query: values, streaming: true}
	return s.c.download(ctx, cl)
}

// Resume: POST /v1/batches/{batch_id}/resume: Resume a paused batch now.
//
// A batch paused for want of credits also goes on by itself once the account has enough.
func (s *BatchesService) Resume(ctx context.Context, batchID string) (*Batch, error) {
	cl := call{method: http.MethodPost, path: "/v1/batches/" + url.PathEscape(batchID) + "/resume", policy: retryRefused}
	var out Batch
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// List: GET /v1/policies: The presets and the account's policies.
func (s *PoliciesService) List(ctx context.Context) (*PolicyList, error) {
	cl := call{method: http.MethodGet, path: "/v1/policies", policy: retryAll}
	var out PolicyList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create: POST /v1/policies: Make a policy of the account.
//
// From a preset (`base`), with the rules given changed. Its rules are kept whole: a later version's presets do not change it.
func (s *PoliciesService) Create(ctx context.Context, body NewPolicyRequest) (*Policy, error) {
	cl := call{method: http.MethodPost, path: "/v1/policies", policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out Policy
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get: GET /v1/policies/{policy_id}: One policy of the account.
func (s *PoliciesService) Get(ctx context.Context, policyID string) (*Policy, error) {
	cl := call{method: http.MethodGet, path: "/v1/policies/" + url.PathEscape(policyID), policy: retryAll}
	var out Policy
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update: PATCH /v1/policies/{policy_id}: Change a policy's rules.
//
// The rules given change; the others keep their action. Answers made from then on follow it (within a second on every instance).
func (s *PoliciesService) Update(ctx context.Context, policyID string, body PolicyChanges) (*Policy, error) {
	cl := call{method: http.MethodPatch, path: "/v1/policies/" + url.PathEscape(policyID), policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out Policy
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Delete: DELETE /v1/policies/{policy_id}: Delete a policy.
//
// Refused (409 `policy-conflict`, `reason` `in_use`) while a live key has it as its default or a connector follows it.
func (s *PoliciesService) Delete(ctx context.Context, policyID string) error {
	cl := call{method: http.MethodDelete, path: "/v1/policies/" + url.PathEscape(policyID), policy: retryAll}
	return s.c.roundTrip(ctx, cl, nil)
}

// Create: POST /v1/connectors: Connect a CRM or a store.
//
// Every URL the connector will call must be https on a public address. Credentials are sealed with CONNECTOR_SECRET_KEY (503 while it is not set) and never returned. One shop has one connector: a shop that a connector (of any account) already connects answers 409 `shop-already-connected`: its account disconnects it first, or, when that connector no longer reaches the shop, the app's OAuth install moves it to your account.
func (s *ConnectorsService) Create(ctx context.Context, body ConnectorParams) (*Connector, error) {
	cl := call{method: http.MethodPost, path: "/v1/connectors", policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out Connector
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// List: GET /v1/connectors: The account's connectors.
func (s *ConnectorsService) List(ctx context.Context) ([]Connector, error) {
	cl := call{method: http.MethodGet, path: "/v1/connectors", policy: retryAll}
	var out ConnectorList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Connectors, nil
}

// Get: GET /v1/connectors/{connector_id}: A connector, with its status, last run and watermark.
//
// Another account's connector answers 404, exactly like a missing one.
func (s *ConnectorsService) Get(ctx context.Context, connectorID string) (*Connector, error) {
	cl := call{method: http.MethodGet, path: "/v1/connectors/" + url.PathEscape(connectorID), policy: retryAll}
	var out Connector
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update: PATCH /v1/connectors/{connector_id}: Pause, resume or change a connector.
func (s *ConnectorsService) Update(ctx context.Context, connectorID string, body ConnectorUpdate) (*Connector, error) {
	cl := call{method: http.MethodPatch, path: "/v1/connectors/" + url.PathEscape(connectorID), policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out Connector
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Delete: DELETE /v1/connectors/{connector_id}: Delete a connector, its runs and record hashes.
func (s *ConnectorsService) Delete(ctx context.Context, connectorID string) error {
	cl := call{method: http.MethodDelete, path: "/v1/connectors/" + url.PathEscape(connectorID), policy: retryAll}
	return s.c.roundTrip(ctx, cl, nil)
}

// StartRun: POST /v1/connectors/{connector_id}/runs: Start a run now.
func (s *ConnectorsService) StartRun(ctx context.Context, connectorID string) (*RunStarted, error) {
	cl := call{method: http.MethodPost, path: "/v1/connectors/" + url.PathEscape(connectorID) + "/runs", policy: retryRefused}
	var out RunStarted
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Runs: GET /v1/connectors/{connector_id}/runs: A connector's runs, newest first.
func (s *ConnectorsService) Runs(ctx context.Context, connectorID string, params ...*ListConnectorRunsParams) ([]ConnectorRun, error) {
	var p *ListConnectorRunsParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
		if p.StartingAfter != "" {
			values.Set("starting_after", p.StartingAfter)
		}
	}
	cl := call{method: http.MethodGet, path: "/v1/connectors/" + url.PathEscape(connectorID) + "/runs", policy: retryAll, query: values}
	var out ConnectorRunList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Runs, nil
}

// RunsAll: GET /v1/connectors/{connector_id}/runs, every page: the items of Runs one at a time, for a loop on Next.
// A page (Limit items) is fetched when Next reaches it, after the last item's id; each page is one call with these params.
func (s *ConnectorsService) RunsAll(ctx context.Context, connectorID string, params ...*ListConnectorRunsParams) *Iter[ConnectorRun] {
	var p ListConnectorRunsParams
	if len(params) > 0 && params[0] != nil {
		p = *params[0]
	}
	return newIter(ctx, p.StartingAfter, func(ctx context.Context, after string) ([]ConnectorRun, bool, string, error) {
		p.StartingAfter = after
		values := url.Values{}
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
		if p.StartingAfter != "" {
			values.Set("starting_after", p.StartingAfter)
		}
		cl := call{method: http.MethodGet, path: "/v1/connectors/" + url.PathEscape(connectorID) + "/runs", policy: retryAll, query: values}
		var out ConnectorRunList
		if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
			return nil, false, "", err
		}
		return out.Runs, out.HasMore, out.NextStartingAfter, nil
	})
}

// Check: POST /v1/connectors/{connector_id}/check: Check a connector before its first run.
//
// Signs in to the platform and finds what would keep a run from reading or writing: refused credentials, missing or read-only fields (the verdict fields the plugin writes, their field-level security), missing access scopes, and webhooks the platform refuses (subscribed, as each run does, when PUBLIC_BASE_URL is set). Every problem at once, each with what to do; 200 whatever it finds. Free of credits.
func (s *ConnectorsService) Check(ctx context.Context, connectorID string) (*ConnectorCheck, error) {
	cl := call{method: http.MethodPost, path: "/v1/connectors/" + url.PathEscape(connectorID) + "/check", policy: retryRefused}
	var out ConnectorCheck
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create: POST /v1/webhook_endpoints: Register a webhook endpoint.
//
// The URL must be https on a public address. The answer carries the signing secret, this once. Each event is POSTed as JSON `{"id", "type", "created", "data"}` with `Contact-Validator-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; an answer other than 2xx is tried again with back-off for 72 hours. At most 16 endpoints per account. An owner or admin key only (docs/account.md#key-roles): a key a member made gets 403 `owner-only`.
func (s *WebhookEndpointsService) Create(ctx context.Context, body WebhookEndpointParams) (*CreatedWebhookEndpoint, error) {
	cl := call{method: http.MethodPost, path: "/v1/webhook_endpoints", policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out CreatedWebhookEndpoint
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// List: GET /v1/webhook_endpoints: The account's webhook endpoints.
func (s *WebhookEndpointsService) List(ctx context.Context) ([]WebhookEndpoint, error) {
	cl := call{method: http.MethodGet, path: "/v1/webhook_endpoints", policy: retryAll}
	var out WebhookEndpointList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.WebhookEndpoints, nil
}

// Delete: DELETE /v1/webhook_endpoints/{webhook_endpoint_id}: Delete a webhook endpoint and its delivery log.
//
// Nothing more is sent to it, retries included. An owner or admin key only (docs/account.md#key-roles).
func (s *WebhookEndpointsService) Delete(ctx context.Context, webhookEndpointID string) error {
	cl := call{method: http.MethodDelete, path: "/v1/webhook_endpoints/" + url.PathEscape(webhookEndpointID), policy: retryAll}
	return s.c.roundTrip(ctx, cl, nil)
}

// Deliveries: GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries: An endpoint's deliveries, newest first.
func (s *WebhookEndpointsService) Deliveries(ctx context.Context, webhookEndpointID string, params ...*ListWebhookDeliveriesParams) ([]WebhookDelivery, error) {
	var p *ListWebhookDeliveriesParams
	if len(params) > 0 {
		p = params[0]
	}
	values := url.Values{}
	if p != nil {
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
		if p.StartingAfter != "" {
			values.Set("starting_after", p.StartingAfter)
		}
	}
	cl := call{method: http.MethodGet, path: "/v1/webhook_endpoints/" + url.PathEscape(webhookEndpointID) + "/deliveries", policy: retryAll, query: values}
	var out WebhookDeliveryList
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out.Deliveries, nil
}

// DeliveriesAll: GET /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries, every page: the items of Deliveries one at a time, for a loop on Next.
// A page (Limit items) is fetched when Next reaches it, after the last item's id; each page is one call with these params.
func (s *WebhookEndpointsService) DeliveriesAll(ctx context.Context, webhookEndpointID string, params ...*ListWebhookDeliveriesParams) *Iter[WebhookDelivery] {
	var p ListWebhookDeliveriesParams
	if len(params) > 0 && params[0] != nil {
		p = *params[0]
	}
	return newIter(ctx, p.StartingAfter, func(ctx context.Context, after string) ([]WebhookDelivery, bool, string, error) {
		p.StartingAfter = after
		values := url.Values{}
		if p.Limit != 0 {
			values.Set("limit", strconv.Itoa(p.Limit))
		}
		if p.StartingAfter != "" {
			values.Set("starting_after", p.StartingAfter)
		}
		cl := call{method: http.MethodGet, path: "/v1/webhook_endpoints/" + url.PathEscape(webhookEndpointID) + "/deliveries", policy: retryAll, query: values}
		var out WebhookDeliveryList
		if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
			return nil, false, "", err
		}
		return out.Deliveries, out.HasMore, out.NextStartingAfter, nil
	})
}

// Redeliver: POST /v1/webhook_endpoints/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver: Send a delivery again now.
//
// Sends the same event (same `id`, a fresh signature) at once, whatever its status, and answers with the delivery as that attempt left it; if it fails, it is tried again with back-off like a first delivery. An owner or admin key only (docs/account.md#key-roles).
func (s *WebhookEndpointsService) Redeliver(ctx context.Context, webhookEndpointID string, deliveryID string) (*WebhookDelivery, error) {
	cl := call{method: http.MethodPost, path: "/v1/webhook_endpoints/" + url.PathEscape(webhookEndpointID) + "/deliveries/" + url.PathEscape(deliveryID) + "/redeliver", policy: retryRefused}
	var out WebhookDelivery
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateShopifyInstallLink: POST /v1/connectors/shopify/install: A signed link that installs the Shopify app on a store.
//
// Needs the Shopify app configured (503 otherwise: The operator has not set up the Shopify app (SHOPIFY_API_KEY, SHOPIFY_API_SECRET, PUBLIC_BASE_URL): use a custom app's token instead.). The store is connected when its owner approves the app and Shopify calls back.
func (s *ConnectorsService) CreateShopifyInstallLink(ctx context.Context, body ShopifyInstallRequest) (*ShopifyInstallLink, error) {
	cl := call{method: http.MethodPost, path: "/v1/connectors/shopify/install", policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out ShopifyInstallLink
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get: GET /v1/email-checks/{check_id}: An e-mail answer that arrives later.
//
// A `temp_fail`, `throttled` or `timeout` e-mail answer carries `check_id`: the service asks the mail server again on a schedule (the server's own "try again in …" respected) and keeps the definite answer here, in the cache for the next `/v1/validate`, and in an `email.verified` event. No further charge. Another account's check answers 404, exactly like a missing one.
func (s *EmailChecksService) Get(ctx context.Context, checkID string) (map[string]any, error) {
	cl := call{method: http.MethodGet, path: "/v1/email-checks/" + url.PathEscape(checkID), policy: retryAll}
	var out map[string]any
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// Send: POST /v1/feedback: Tell what became of a mail.
//
// A hard bounce makes the address `invalid` (`reason` `bounced`) in this account's answers from now on; the outcomes of a domain's addresses give its catch-all answers a `catch_all_score`. One outcome per address, the latest standing: telling the same thing twice counts once. Free. Kept in this account alone, never shared.
func (s *FeedbackService) Send(ctx context.Context, body FeedbackReport) (*FeedbackRecorded, error) {
	cl := call{method: http.MethodPost, path: "/v1/feedback", policy: retryRefused}
	if err := s.c.encode(&cl, body); err != nil {
		return nil, err
	}
	var out FeedbackRecorded
	if err := s.c.roundTripWith(ctx, cl, &out, nil); err != nil {
		return nil, err
	}
	return &out, nil
}
