package contactvalidator

// KeyParams asks for a publishable key (for a store's checkout page) or a test key; nil asks for a secret key.
type KeyParams struct {
	Publishable bool     `json:"publishable,omitempty"`
	Origins     []string `json:"origins,omitempty"` // required for a publishable key: "https://shop.example.com"
	Phone       bool     `json:"phone,omitempty"`   // a publishable key that may check phones
	// Test asks for a test key ("cv_test_…"): it validates with network checks off and is never charged.
	Test bool `json:"test,omitempty"`
	// Policy is the policy the key's answers follow unless a request names another: a preset or one of the account's.
	Policy string `json:"policy,omitempty"`
}
