package contactvalidator

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Account is the calling key's account (GET /v1/account).
type Account struct {
	AccountID string    `json:"account_id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	Balance   int64     `json:"balance"` // usable credits
	Grants    []Grant   `json:"grants"`
	Usage     Usage     `json:"usage"`
	Keys      []APIKey  `json:"keys"`
}

// Grant is one lot of credits: the free grant, a pack bought, an administrator's grant.
type Grant struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Credits   int64     `json:"credits"`
	Remaining int64     `json:"remaining"`
	PriceUSD  *float64  `json:"price_usd"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Expired   bool      `json:"expired"`
}

// Usage is the account's consumption over the last WindowDays days, per module.
type Usage struct {
	WindowDays int         `json:"window_days"`
	Address    ModuleUsage `json:"address"`
	Email      ModuleUsage `json:"email"`
	Phone      ModuleUsage `json:"phone"`
}

// ModuleUsage counts the requests that used one module and the credits they cost.
type ModuleUsage struct {
	Requests int64 `json:"requests"`
	Credits  int64 `json:"credits"`
}

// APIKey describes a key; the key itself is shown only once, by Keys.Create.
type APIKey struct {
	KeyID       string          `json:"key_id"`
	Prefix      string          `json:"prefix"`
	CreatedAt   time.Time       `json:"created_at"`
	RevokedAt   *time.Time      `json:"revoked_at"`
	Publishable *PublishableKey `json:"publishable,omitempty"`
}

// PublishableKey is what a key for web pages may do.
type PublishableKey struct {
	Origins []string `json:"origins"`
	Phone   bool     `json:"phone"`
}

// Account reads the calling key's account: balance, grants, usage and keys.
func (c *Client) Account(ctx context.Context) (*Account, error) {
	var out Account
	if err := c.getJSON(ctx, "/v1/account", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// KeysService manages the account's API keys: client.Keys.
type KeysService struct{ c *Client }

// KeyParams asks for a publishable key (for a store's checkout page); nil asks for a secret key.
type KeyParams struct {
	Publishable bool     `json:"publishable,omitempty"`
	Origins     []string `json:"origins,omitempty"` // required for a publishable key: "https://shop.example.com"
	Phone       bool     `json:"phone,omitempty"`   // a publishable key that may check phones
}

// NewKey is a key just created: APIKey is shown this once.
type NewKey struct {
	KeyID  string `json:"key_id"`
	APIKey string `json:"api_key"`
}

// RevokedKey is the answer of Revoke.
type RevokedKey struct {
	KeyID     string    `json:"key_id"`
	RevokedAt time.Time `json:"revoked_at"`
}

// List gives the account's keys, revoked ones included.
func (s *KeysService) List(ctx context.Context) ([]APIKey, error) {
	var out struct {
		Keys []APIKey `json:"keys"`
	}
	if err := s.c.getJSON(ctx, "/v1/keys", nil, &out); err != nil {
		return nil, err
	}
	return out.Keys, nil
}

// Create makes a new key. It is not retried after a network error (it could make two keys); 429 and 503 are.
func (s *KeysService) Create(ctx context.Context, p *KeyParams) (*NewKey, error) {
	var out NewKey
	var in any
	if p != nil {
		in = p
	}
	if err := s.c.sendJSON(ctx, http.MethodPost, "/v1/keys", in, &out, retryRefused, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Revoke revokes a key of the account at once.
func (s *KeysService) Revoke(ctx context.Context, keyID string) (*RevokedKey, error) {
	var out RevokedKey
	if err := s.c.sendJSON(ctx, http.MethodDelete, "/v1/keys/"+url.PathEscape(keyID), nil, &out, retryAll, nil); err != nil {
		return nil, err
	}
	return &out, nil
}
