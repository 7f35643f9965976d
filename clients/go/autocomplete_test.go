package contactvalidator_test

import (
	"context"
	"errors"
	"testing"

	cv "github.com/contact-validator/contact-validator-go"
)

func TestWhenTheStartOfADeliveryLineIsTypedThenTheDeliveryPointComesFirstFree(t *testing.T) {
	c := newClient()
	ctx := context.Background()
	before := balance(t, c)

	suggestions, err := c.AutocompleteAddress(ctx, "6007 Applegate La", nil)
	if err != nil {
		t.Fatal(err)
	}
	places, err := c.AutocompleteAddress(ctx, "Louisville, KY 4021", &cv.AutocompleteParams{Country: "US", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}

	want := cv.AddressSuggestion{Text: "6007 APPLEGATE LN, LOUISVILLE, KY 40219", Street: "6007 APPLEGATE LN", City: "LOUISVILLE",
		State: "KY", Zip: "40219", Country: "US", Kind: "address"}
	if len(suggestions) == 0 || suggestions[0] != want {
		t.Fatalf("want %+v first, got %+v", want, suggestions)
	}
	if len(places) != 2 || places[0].Zip != "40210" || places[1].Zip != "40211" {
		t.Fatalf("want Louisville's 40210 and 40211, got %+v", places)
	}
	if after := balance(t, c); after != before {
		t.Fatalf("autocomplete charged: balance %d -> %d", before, after)
	}
}

func TestWhenTheAutocompleteLimitIsOutOfRangeThenTheProblemNamesIt(t *testing.T) {
	_, err := newClient().AutocompleteAddress(context.Background(), "main", &cv.AutocompleteParams{Limit: 50})
	if !errors.Is(err, cv.ErrInvalidRequest) {
		t.Fatalf("want ErrInvalidRequest, got %v", err)
	}
	e := asProblem(t, err, 400, "invalid-request")
	if len(e.Errors) != 1 || e.Errors[0].Field != "limit" {
		t.Fatalf("want one field error on limit, got %+v", e.Errors)
	}
}
