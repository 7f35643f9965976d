package contactvalidator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	cv "github.com/contact-validator/contact-validator-go"
)

func TestWhenMoreBatchesThanAPageAreWalkedThenEachComesOnceNewestFirstAPagePerRequest(t *testing.T) {
	// Arrange: five more batches, and the account's whole list read as one page.
	ctx := context.Background()
	c := newClient()
	created := map[string]bool{}
	for i := 0; i < 5; i++ {
		b, err := c.Batches.Create(ctx, strings.NewReader("Email\nsomeone@example.com\n"), cv.BatchParams{Name: fmt.Sprintf("page %d", i), SMTP: cv.Bool(false)})
		if err != nil {
			t.Fatal(err)
		}
		created[b.BatchID] = true
	}
	whole, err := c.Batches.List(ctx, &cv.ListBatchesParams{Limit: 100})
	if err != nil || len(whole) >= 100 {
		t.Fatalf("list: %d batches, %v", len(whole), err)
	}
	before := counts(t).Forwarded

	// Act: pages of two.
	var walked []cv.Batch
	it := c.Batches.ListAll(ctx, &cv.ListBatchesParams{Limit: 2})
	for it.Next() {
		walked = append(walked, it.Current())
	}

	// Assert: every batch once, in the list's order (newest first), one request per page.
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if len(walked) != len(whole) {
		t.Fatalf("walked %d batches, the list has %d", len(walked), len(whole))
	}
	seen := map[string]bool{}
	for i, b := range walked {
		if b.BatchID != whole[i].BatchID || seen[b.BatchID] {
			t.Fatalf("item %d: %s, the list has %s (seen before: %v)", i, b.BatchID, whole[i].BatchID, seen[b.BatchID])
		}
		seen[b.BatchID] = true
		if i > 0 && b.CreatedAt.After(walked[i-1].CreatedAt) {
			t.Fatalf("item %d is newer than the one before", i)
		}
		if i < 5 && !created[b.BatchID] {
			t.Fatalf("item %d, %s, is not one of the five just made", i, b.BatchID)
		}
	}
	if got, want := counts(t).Forwarded-before, (len(whole)+1)/2; got != want {
		t.Fatalf("%d requests for %d batches in pages of 2, want %d", got, len(whole), want)
	}
}

func TestWhenListAllIsLeftAfterItsFirstItemThenOnePageWasFetched(t *testing.T) {
	// Arrange: nothing is fetched before the first Next.
	ctx := context.Background()
	c := newClient()
	before := counts(t).Forwarded
	it := c.Batches.ListAll(ctx, &cv.ListBatchesParams{Limit: 2})
	if counts(t).Forwarded != before {
		t.Fatal("ListAll fetched before Next")
	}

	// Act
	if !it.Next() {
		t.Fatalf("no first batch: %v", it.Err())
	}

	// Assert
	if got := counts(t).Forwarded - before; got != 1 {
		t.Fatalf("%d requests for the first item, want 1", got)
	}
	newest, err := c.Batches.List(ctx, &cv.ListBatchesParams{Limit: 1})
	if err != nil || it.Current().BatchID != newest[0].BatchID {
		t.Fatalf("first %s, newest %v %v", it.Current().BatchID, newest, err)
	}
}

func TestWhenListAllStartsAfterAnIDThatIsNotABatchThenErrNamesStartingAfter(t *testing.T) {
	it := newClient().Batches.ListAll(context.Background(), &cv.ListBatchesParams{StartingAfter: "batch_made_up"})

	if it.Next() {
		t.Fatalf("a batch after a made-up cursor: %+v", it.Current())
	}

	e := asProblem(t, it.Err(), 400, "invalid-request")
	if len(e.Errors) != 1 || e.Errors[0].Field != "starting_after" {
		t.Fatalf("errors %+v", e.Errors)
	}
	if it.Next() {
		t.Fatal("Next after an error")
	}
}
