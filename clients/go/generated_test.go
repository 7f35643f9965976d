package contactvalidator_test

import (
	"context"
	"errors"
	"testing"
	"time"

	cv "github.com/contact-validator/contact-validator-go"
)

// Methods generated from the OpenAPI description for operations no one wrote by hand, against the real service.

func TestWhenTheUsageIsAskedForThenEveryDayComesAndTodayCountsTheCallsJustMade(t *testing.T) {
	c := newClient()
	ctx := context.Background()
	if _, err := c.Validate(ctx, cv.ValidateParams{Phone: "+14155550123"}); err != nil {
		t.Fatal(err)
	}
	today := time.Now().UTC().Format("2006-01-02")

	days, err := c.GetUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) < 30 {
		t.Fatalf("%d days, want at least 30", len(days))
	}
	var phone float64
	for _, day := range days {
		if day["date"] == today {
			phone, _ = day["phone"].(float64)
		}
	}
	if phone <= 0 {
		t.Fatalf("today's phone usage is %v, want the call just made", phone)
	}
	one, err := c.GetUsage(ctx, &cv.GetUsageParams{From: today, To: today})
	if err != nil || len(one) != 1 {
		t.Fatalf("one day: %v, %v", one, err)
	}
}

func TestWhenAnEmailCheckThatDoesNotExistIsReadThenNotFound(t *testing.T) {
	_, err := newClient().EmailChecks.Get(context.Background(), "chk_does_not_exist")
	var apiErr *cv.Error
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || !errors.Is(err, cv.ErrNotFound) {
		t.Fatalf("err = %v, want a 404 not-found", err)
	}
}
