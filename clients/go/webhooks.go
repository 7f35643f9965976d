package contactvalidator

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// AccountUpdate changes the account's settings (PATCH /v1/account).
type AccountUpdate struct {
	// LowBalanceThreshold is the low-balance alert's threshold in credits; nil removes the alert.
	LowBalanceThreshold *int64 `json:"low_balance_threshold"`
}

// UpdateAccount changes the account's settings and returns the account.
func (c *Client) UpdateAccount(ctx context.Context, p AccountUpdate) (*Account, error) {
	var out Account
	if err := c.sendJSON(ctx, http.MethodPatch, "/v1/account", p, &out, retryAll, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// WebhookEndpointsService manages where the account's events are sent, and shows what was sent: client.WebhookEndpoints.
type WebhookEndpointsService struct{ c *Client }

// WebhookEndpointParams registers an endpoint: an https URL on a public address, and the events it receives.
type WebhookEndpointParams struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

func webhookEndpointPath(id string) string { return "/v1/webhook_endpoints/" + url.PathEscape(id) }

// Create registers an endpoint; the answer carries its signing Secret, this once (not retried after a network error).
func (s *WebhookEndpointsService) Create(ctx context.Context, p WebhookEndpointParams) (*CreatedWebhookEndpoint, error) {
	var out CreatedWebhookEndpoint
	if err := s.c.sendJSON(ctx, http.MethodPost, "/v1/webhook_endpoints", p, &out, retryRefused, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// List gives the account's endpoints, newest first, without secrets.
func (s *WebhookEndpointsService) List(ctx context.Context) ([]WebhookEndpoint, error) {
	var out WebhookEndpointList
	if err := s.c.getJSON(ctx, "/v1/webhook_endpoints", nil, &out); err != nil {
		return nil, err
	}
	return out.WebhookEndpoints, nil
}

// Delete removes an endpoint and its delivery log: nothing more is sent to it.
func (s *WebhookEndpointsService) Delete(ctx context.Context, id string) error {
	return s.c.sendJSON(ctx, http.MethodDelete, webhookEndpointPath(id), nil, nil, retryAll, nil)
}

// Deliveries gives an endpoint's last 100 deliveries, newest first.
func (s *WebhookEndpointsService) Deliveries(ctx context.Context, id string) ([]WebhookDelivery, error) {
	var out WebhookDeliveryList
	if err := s.c.getJSON(ctx, webhookEndpointPath(id)+"/deliveries", nil, &out); err != nil {
		return nil, err
	}
	return out.Deliveries, nil
}

// Redeliver sends a delivery again now and returns it as that attempt left it.
func (s *WebhookEndpointsService) Redeliver(ctx context.Context, id, deliveryID string) (*WebhookDelivery, error) {
	var out WebhookDelivery
	path := webhookEndpointPath(id) + "/deliveries/" + url.PathEscape(deliveryID) + "/redeliver"
	if err := s.c.sendJSON(ctx, http.MethodPost, path, nil, &out, retryRefused, nil); err != nil {
		return nil, err
	}
	return &out, nil
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
