package contactvalidator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// AccountUpdate changes the account's settings (PATCH /v1/account).
type AccountUpdate struct {
	// LowBalanceThreshold is the low-balance alert's threshold in credits; nil removes the alert.
	LowBalanceThreshold *int64 `json:"low_balance_threshold"`
}

// WebhookEndpointParams registers an endpoint: an https URL on a public address, and the events it receives.
type WebhookEndpointParams struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// SignatureHeader is the header a delivery's signature comes in.
const SignatureHeader = "Contact-Validator-Signature"

// DefaultWebhookTolerance is how far a signature's timestamp may be from the receiver's clock.
const DefaultWebhookTolerance = 5 * time.Minute

// ErrWebhookSignature is the error VerifyWebhook returns (wrapped, with the reason) for a delivery that does not verify.
var ErrWebhookSignature = errors.New("contactvalidator: webhook signature")

// WebhookEvent is an event as a delivery carries it.
type WebhookEvent struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Created int64           `json:"created"` // Unix seconds
	Data    json.RawMessage `json:"data"`
}

// VerifyWebhook checks a delivery and returns its event: rawBody exactly as received (before any JSON decoding), the
// Contact-Validator-Signature header, and the endpoint's secret. One of the header's v1 values must be the
// HMAC-SHA256 of "<t>.<raw body>" under the secret (compared in constant time), and t within tolerance of now
// (0: DefaultWebhookTolerance). Otherwise the error wraps ErrWebhookSignature.
func VerifyWebhook(rawBody []byte, header, secret string, tolerance time.Duration) (*WebhookEvent, error) {
	return verifyWebhookAt(rawBody, header, secret, tolerance, time.Now())
}

func verifyWebhookAt(rawBody []byte, header, secret string, tolerance time.Duration, now time.Time) (*WebhookEvent, error) {
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	if header == "" {
		return nil, fmt.Errorf("%w: the delivery has no %s header", ErrWebhookSignature, SignatureHeader)
	}
	var t int64 = -1
	var signatures [][]byte
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		switch k {
		case "t":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && t < 0 {
				t = n
			}
		case "v1":
			if b, err := hex.DecodeString(v); err == nil && len(b) == sha256.Size {
				signatures = append(signatures, b)
			}
		}
	}
	if t < 0 || len(signatures) == 0 {
		return nil, fmt.Errorf("%w: the %s header is malformed", ErrWebhookSignature, SignatureHeader)
	}
	if math.Abs(float64(now.Unix()-t)) > tolerance.Seconds() {
		return nil, fmt.Errorf("%w: the signature's timestamp is more than %s from now", ErrWebhookSignature, tolerance)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(t, 10) + "."))
	mac.Write(rawBody)
	expected := mac.Sum(nil)
	for _, s := range signatures {
		if hmac.Equal(s, expected) {
			var event WebhookEvent
			if err := json.Unmarshal(rawBody, &event); err != nil {
				return nil, fmt.Errorf("%w: the body is not JSON: %v", ErrWebhookSignature, err)
			}
			return &event, nil
		}
	}
	return nil, fmt.Errorf("%w: the signature does not verify with this secret", ErrWebhookSignature)
}
