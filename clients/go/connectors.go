package contactvalidator

import "context"

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
	// CreditCapMonthly is how many credits the connector may take each calendar month (UTC); nil: no cap.
	CreditCapMonthly *int64 `json:"credit_cap_monthly,omitempty"`
	// Policy is the policy every answer's next_action follows (a preset such as "crm_cleanup", or one of the
	// account's, GET /v1/policies); "": the fixed table.
	Policy string `json:"policy,omitempty"`
}

// ConnectorUpdate changes a connector; zero fields are left as they are.
type ConnectorUpdate struct {
	Status      ConnectorStatus `json:"status,omitempty"` // ConnectorPaused or ConnectorActive
	Name        string          `json:"name,omitempty"`
	Schedule    string          `json:"schedule,omitempty"`
	Settings    any             `json:"settings,omitempty"`
	Credentials any             `json:"credentials,omitempty"` // new credentials clear an auth_failed error
	WriteBack   any             `json:"write_back,omitempty"`
	// CreditCapMonthly changes the connector's monthly credit cap; nil leaves it.
	CreditCapMonthly *int64 `json:"credit_cap_monthly,omitempty"`
	// Policy changes the policy the connector's answers follow; "" leaves it.
	Policy string `json:"policy,omitempty"`
}

// Run starts a run now and gives its id (StartRun gives the whole answer); ErrConflict (Code "connector-busy") while
// one runs.
func (s *ConnectorsService) Run(ctx context.Context, id string) (string, error) {
	started, err := s.StartRun(ctx, id)
	if err != nil {
		return "", err
	}
	return started.RunID, nil
}
