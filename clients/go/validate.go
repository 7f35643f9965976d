package contactvalidator

import (
	"context"
	"net/http"
)

// AddressStatus is address.status.
type AddressStatus string

const (
	AddressVerified  AddressStatus = "verified"  // delivery point confirmed
	AddressCorrected AddressStatus = "corrected" // confirmed after changing input components
	AddressPartial   AddressStatus = "partial"   // building confirmed, unit missing or unknown
	AddressPlausible AddressStatus = "plausible" // well-formed and consistent, but no reference data covers it
	AddressAmbiguous AddressStatus = "ambiguous" // several candidates
	AddressInvalid   AddressStatus = "invalid"
)

// DPV is the USPS delivery point validation code, or DPVNone when no reference data covers the address.
type DPV string

const (
	DPVConfirmed        DPV = "Y" // the delivery point is confirmed
	DPVNotConfirmed     DPV = "N"
	DPVSecondaryIgnored DPV = "S" // confirmed by dropping the secondary (unit) given
	DPVSecondaryMissing DPV = "D" // the building is confirmed, its unit is missing
	DPVNone             DPV = ""
)

// EmailStatus is email.status.
type EmailStatus string

const (
	EmailValid   EmailStatus = "valid"
	EmailInvalid EmailStatus = "invalid"
	EmailRisky   EmailStatus = "risky"
	EmailUnknown EmailStatus = "unknown" // refunded
)

// EmailRisk is email.risk.
type EmailRisk string

const (
	RiskLow    EmailRisk = "low"
	RiskMedium EmailRisk = "medium"
	RiskHigh   EmailRisk = "high"
)

// SMTPVerdict is email.smtp: what the mailbox probe found.
type SMTPVerdict string

const (
	SMTPDeliverable   SMTPVerdict = "deliverable"
	SMTPUndeliverable SMTPVerdict = "undeliverable"
	SMTPCatchAll      SMTPVerdict = "catch_all"
	SMTPMailboxFull   SMTPVerdict = "mailbox_full"
	SMTPDisabled      SMTPVerdict = "disabled"
	SMTPUnknown       SMTPVerdict = "unknown"
	SMTPPending       SMTPVerdict = "pending"
	SMTPSkipped       SMTPVerdict = "skipped"
)

// PhoneStatus is phone.status.
type PhoneStatus string

const (
	PhoneValid   PhoneStatus = "valid"
	PhoneInvalid PhoneStatus = "invalid"
	PhoneUnknown PhoneStatus = "unknown"
)

// PhoneType is phone.type.
type PhoneType string

const (
	PhoneMobile        PhoneType = "mobile"
	PhoneLandline      PhoneType = "landline"
	PhoneFixedOrMobile PhoneType = "fixed_or_mobile"
	PhoneVoIP          PhoneType = "voip"
	PhoneTollFree      PhoneType = "toll_free"
	PhonePremiumRate   PhoneType = "premium_rate"
	PhoneSharedCost    PhoneType = "shared_cost"
	PhonePersonal      PhoneType = "personal"
	PhonePager         PhoneType = "pager"
	PhoneUAN           PhoneType = "uan"
	PhoneVoicemail     PhoneType = "voicemail"
	PhoneTypeUnknown   PhoneType = "unknown"
)

// CarrierSource says where phone.carrier comes from.
type CarrierSource string

const (
	CarrierLive       CarrierSource = "live"       // the current carrier, from a live look-up
	CarrierAllocation CarrierSource = "allocation" // the original holder of the number block, from offline data
	CarrierNone       CarrierSource = "none"
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

// ValidateResult is the answer of Validate. A module that was not asked for is nil.
type ValidateResult struct {
	Address    *AddressResult `json:"address"`
	Email      *EmailResult   `json:"email"`
	Phone      *PhoneResult   `json:"phone"`
	Credits    *Credits       `json:"credits"` // nil for a publishable key
	RequestID  string         `json:"request_id"`
	ResponseMS int            `json:"response_ms"`
	// Replayed is true when the service answered from its Idempotency-Key store: a retry of a request it had already
	// processed (and charged once).
	Replayed bool `json:"-"`
}

// AddressResult is the address module's verdict.
type AddressResult struct {
	Status       AddressStatus     `json:"status"`
	Standardized string            `json:"standardized"` // upper case, one line: "1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043-1351"
	DPV          DPV               `json:"dpv"`
	ZIP4         *string           `json:"zip4"` // "94043-1351", or nil
	Country      string            `json:"country"`
	Components   AddressComponents `json:"components"`
	Footnotes    []string          `json:"footnotes"`
}

// AddressComponents are the parts of the standardized address; an absent part is nil.
type AddressComponents struct {
	PrimaryNumber       *string `json:"primary_number"`
	StreetPredirection  *string `json:"street_predirection"`
	StreetName          *string `json:"street_name"`
	StreetSuffix        *string `json:"street_suffix"`
	StreetPostdirection *string `json:"street_postdirection"`
	SecondaryDesignator *string `json:"secondary_designator"`
	SecondaryNumber     *string `json:"secondary_number"`
	City                *string `json:"city"`
	State               *string `json:"state"`
	PostalCode          *string `json:"postal_code"`
	Plus4               *string `json:"plus4"`
	Country             *string `json:"country"`
}

// EmailResult is the e-mail module's verdict.
type EmailResult struct {
	Status     EmailStatus `json:"status"`
	Risk       EmailRisk   `json:"risk"`
	SMTP       SMTPVerdict `json:"smtp"`
	Reason     string      `json:"reason"` // why: "syntax", "no_such_domain", "mailbox_not_found", "accepted", …
	Normalized string      `json:"normalized"`
	Suggestion *string     `json:"suggestion"` // a likely intended address ("someone@gmail.com" for "…@gmial.com")
	Disposable bool        `json:"disposable"`
	Role       bool        `json:"role"`
	Free       bool        `json:"free"`
}

// PhoneResult is the phone module's verdict.
type PhoneResult struct {
	Status        PhoneStatus   `json:"status"`
	Type          PhoneType     `json:"type"`
	Carrier       *string       `json:"carrier"`
	CarrierSource CarrierSource `json:"carrier_source"`
	E164          string        `json:"e164"`
	Country       string        `json:"country"`
	National      string        `json:"national,omitempty"`
}

// Credits is what a request cost and what is left.
type Credits struct {
	Charged   int64 `json:"charged"`
	Remaining int64 `json:"remaining"`
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
