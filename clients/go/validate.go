package contactvalidator

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

func (r *ValidateResult) setReplayed(replayed bool) { r.Replayed = replayed }
