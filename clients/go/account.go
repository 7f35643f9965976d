package contactvalidator

import (
	"context"
	"net/http"
	"net/url"
)

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

// KeyParams asks for a publishable key (for a store's checkout page) or a test key; nil asks for a secret key.
type KeyParams struct {
	Publishable bool     `json:"publishable,omitempty"`
	Origins     []string `json:"origins,omitempty"` // required for a publishable key: "https://shop.example.com"
	Phone       bool     `json:"phone,omitempty"`   // a publishable key that may check phones
	// Test asks for a test key ("cv_test_…"): it validates with network checks off and is never charged.
	Test bool `json:"test,omitempty"`
}

// List gives the account's keys, revoked ones included.
func (s *KeysService) List(ctx context.Context) ([]APIKey, error) {
	var out KeyList
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
