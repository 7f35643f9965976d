package contactvalidator

import (
	"context"
	"net/http"
)

// ValidateParams is one request to Validate: at least one of Address, Email, Phone.
type ValidateParams struct {
	Address string           `json:"address,omitempty"` // one line: "1600 Amphitheatre Pkwy, Mountain View, CA 94043"
	Email   string           `json:"email,omitempty"`
	Phone   string           `json:"phone,omitempty"`
	Country string           `json:"country,omitempty"` // ISO 3166-1 alpha-2 hint
	Options *ValidateOptions `json:"options,omitempty"`
}

// ValidateOptions tunes a Validate request.
type ValidateOptions struct {
	// SMTP false skips the mailbox probe (email.smtp is then "skipped"). Use Bool(false).
	SMTP *bool `json:"smtp,omitempty"`
}

// Bool is a helper for optional flags: Options: &ValidateOptions{SMTP: contactvalidator.Bool(false)}.
func Bool(v bool) *bool { return &v }

// ValidateResult is the answer of Validate (the generated ValidateAnswer): a module that was not asked for is nil.
type ValidateResult struct {
	ValidateAnswer
	// Replayed is true when the service answered from its Idempotency-Key store: a retry of a request it had already
	// processed (and charged once).
	Replayed bool `json:"-"`
}

// Validate checks an address, an e-mail and/or a phone (POST /v1/validate). Every call carries a fresh Idempotency-Key,
// the same on each of its retries, so a retry after a lost answer is answered from the first attempt and never charged
// twice.
func (c *Client) Validate(ctx context.Context, p ValidateParams) (*ValidateResult, error) {
	header := http.Header{"Idempotency-Key": {newIdempotencyKey()}}
	var out ValidateResult
	var replayed bool
	cl := call{method: http.MethodPost, path: "/v1/validate", policy: retryAll, header: header}
	if err := c.encode(&cl, p); err != nil {
		return nil, err
	}
	if err := c.roundTripWith(ctx, cl, &out, func(res *http.Response) { replayed = res.Header.Get("Idempotent-Replayed") == "true" }); err != nil {
		return nil, err
	}
	out.Replayed = replayed
	return &out, nil
}
