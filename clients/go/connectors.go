package contactvalidator

import (
	"context"
	"net/http"
	"net/url"
)

// ConnectorType is the platform a connector syncs with.
type ConnectorType string

const (
	ConnectorSalesforce ConnectorType = "salesforce"
	ConnectorShopify    ConnectorType = "shopify"
)

// ConnectorParams creates a connector. Settings, Credentials and WriteBack are the platform's own objects (a map or
// a struct with JSON tags), as the service's docs/connectors.md shows them.
type ConnectorParams struct {
	Type        ConnectorType `json:"type"`
	Name        string        `json:"name"`
	Schedule    string        `json:"schedule,omitempty"`
	Settings    any           `json:"settings,omitempty"`
	Credentials any           `json:"credentials,omitempty"`
	WriteBack   any           `json:"write_back,omitempty"`
}

// ConnectorUpdate changes a connector; zero fields are left as they are.
type ConnectorUpdate struct {
	Status      ConnectorStatus `json:"status,omitempty"` // ConnectorPaused or ConnectorActive
	Name        string          `json:"name,omitempty"`
	Schedule    string          `json:"schedule,omitempty"`
	Settings    any             `json:"settings,omitempty"`
	Credentials any             `json:"credentials,omitempty"` // new credentials clear an auth_failed error
	WriteBack   any             `json:"write_back,omitempty"`
}

// ConnectorsService manages connectors and their runs: client.Connectors.
type ConnectorsService struct{ c *Client }

func connectorPath(id string) string { return "/v1/connectors/" + url.PathEscape(id) }

// List gives the account's connectors.
func (s *ConnectorsService) List(ctx context.Context) ([]Connector, error) {
	var out ConnectorList
	if err := s.c.getJSON(ctx, "/v1/connectors", nil, &out); err != nil {
		return nil, err
	}
	return out.Connectors, nil
}

// Get reads one connector, with its last run and watermark.
func (s *ConnectorsService) Get(ctx context.Context, id string) (*Connector, error) {
	var out Connector
	if err := s.c.getJSON(ctx, connectorPath(id), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create makes a connector (not retried after a network error: it could make two).
func (s *ConnectorsService) Create(ctx context.Context, p ConnectorParams) (*Connector, error) {
	var out Connector
	if err := s.c.sendJSON(ctx, http.MethodPost, "/v1/connectors", p, &out, retryRefused, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update changes a connector (PATCH).
func (s *ConnectorsService) Update(ctx context.Context, id string, p ConnectorUpdate) (*Connector, error) {
	var out Connector
	if err := s.c.sendJSON(ctx, http.MethodPatch, connectorPath(id), p, &out, retryRefused, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Delete removes a connector with its runs.
func (s *ConnectorsService) Delete(ctx context.Context, id string) error {
	return s.c.sendJSON(ctx, http.MethodDelete, connectorPath(id), nil, nil, retryAll, nil)
}

// Run starts a sync now and returns its run id (409 ErrConflict, Code "connector-busy", while one runs).
func (s *ConnectorsService) Run(ctx context.Context, id string) (string, error) {
	var out RunStarted
	if err := s.c.sendJSON(ctx, http.MethodPost, connectorPath(id)+"/runs", nil, &out, retryRefused, nil); err != nil {
		return "", err
	}
	return out.RunID, nil
}

// Runs lists a connector's runs, newest first.
func (s *ConnectorsService) Runs(ctx context.Context, id string) ([]ConnectorRun, error) {
	var out ConnectorRunList
	if err := s.c.getJSON(ctx, connectorPath(id)+"/runs", nil, &out); err != nil {
		return nil, err
	}
	return out.Runs, nil
}
