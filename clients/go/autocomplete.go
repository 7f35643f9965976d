package contactvalidator

import (
	"context"
	"net/url"
	"strconv"
)

// AutocompleteParams narrows an address autocomplete; the zero value asks for 5 suggestions of any country.
type AutocompleteParams struct {
	Country string // ISO 3166-1 alpha-2: "US" or "CA" keeps that country's suggestions
	Limit   int    // 1-10; 0 leaves the service's default, 5
}

// AutocompleteAddress suggests addresses and places that start with what has been typed ("6007 Applegate La"), best
// first: delivery points of the service's reference data, streets, cities and ZIPs. It is free (no credits), and a
// publishable key may call it too. p may be nil.
func (c *Client) AutocompleteAddress(ctx context.Context, query string, p *AutocompleteParams) ([]AddressSuggestion, error) {
	q := url.Values{"q": {query}}
	if p != nil && p.Country != "" {
		q.Set("country", p.Country)
	}
	if p != nil && p.Limit != 0 {
		q.Set("limit", strconv.Itoa(p.Limit))
	}
	var out AddressSuggestions
	if err := c.getJSON(ctx, "/v1/address/autocomplete", q, &out); err != nil {
		return nil, err
	}
	return out.Suggestions, nil
}
