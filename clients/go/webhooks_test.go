package contactvalidator_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cv "github.com/contact-validator/contact-validator-go"
)

type receivedDelivery struct {
	body      []byte
	signature string
}

// When the balance falls below the threshold, then the receiver gets a delivery that VerifyWebhook accepts, and
// nothing altered passes.
func TestWebhookDeliveryVerifies(t *testing.T) {
	// Arrange: a receiver on 127.0.0.1 keeping each raw body and signature.
	var mu sync.Mutex
	var received []receivedDelivery
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		received = append(received, receivedDelivery{body, r.Header.Get(cv.SignatureHeader)})
		mu.Unlock()
		_, _ = w.Write([]byte("ok"))
	}))
	defer receiver.Close()
	ctx := context.Background()
	c := newClient()
	endpoint, err := c.WebhookEndpoints.Create(ctx, cv.WebhookEndpointParams{URL: receiver.URL + "/hooks", Events: []string{"credits.low"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_, _ = c.UpdateAccount(ctx, cv.AccountUpdate{LowBalanceThreshold: nil})
		_ = c.WebhookEndpoints.Delete(ctx, endpoint.ID)
	}()

	// Act: a threshold above the balance is crossed at once.
	threshold := int64(100_000_000)
	account, err := c.UpdateAccount(ctx, cv.AccountUpdate{LowBalanceThreshold: &threshold})
	if err != nil {
		t.Fatal(err)
	}
	var first receivedDelivery
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := len(received)
		if n > 0 {
			first = received[0]
		}
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no delivery within 10 s")
		}
	}
	event, err := cv.VerifyWebhook(first.body, first.signature, endpoint.Secret, 0)

	// Assert
	if err != nil {
		t.Fatal(err)
	}
	if account.LowBalanceAlert.Threshold == nil || *account.LowBalanceAlert.Threshold != threshold {
		t.Fatalf("threshold: %+v", account.LowBalanceAlert)
	}
	if event.Type != "credits.low" || !strings.Contains(string(event.Data), `"threshold":100000000`) {
		t.Fatalf("event: %+v %s", event, event.Data)
	}
	altered := []byte(strings.Replace(string(first.body), "credits.low", "credits.lox", 1))
	for name, check := range map[string]error{
		"altered body": func() error { _, err := cv.VerifyWebhook(altered, first.signature, endpoint.Secret, 0); return err }(),
		"other secret": func() error {
			_, err := cv.VerifyWebhook(first.body, first.signature, "whsec_someone_else", 0)
			return err
		}(),
		"no header": func() error { _, err := cv.VerifyWebhook(first.body, "", endpoint.Secret, 0); return err }(),
		"stale": func() error {
			_, err := cv.VerifyWebhook(first.body, stale(first.signature), endpoint.Secret, 0)
			return err
		}(),
	} {
		if !errors.Is(check, cv.ErrWebhookSignature) {
			t.Errorf("%s: want ErrWebhookSignature, got %v", name, check)
		}
	}
	deliveries, err := c.WebhookEndpoints.Deliveries(ctx, endpoint.ID)
	if err != nil || len(deliveries) != 1 || deliveries[0].EventID != event.ID {
		t.Fatalf("deliveries: %+v %v", deliveries, err)
	}
	again, err := c.WebhookEndpoints.Redeliver(ctx, endpoint.ID, deliveries[0].ID)
	if err != nil || again.Status != "succeeded" || again.Attempts != 2 {
		t.Fatalf("redeliver: %+v %v", again, err)
	}
	if err := c.WebhookEndpoints.Delete(ctx, endpoint.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WebhookEndpoints.Deliveries(ctx, endpoint.ID); !errors.Is(err, cv.ErrNotFound) {
		t.Fatalf("after delete: want ErrNotFound, got %v", err)
	}
}

// stale moves a header's timestamp ten minutes back: the timestamp is refused before the signature is looked at.
func stale(header string) string {
	t, rest, _ := strings.Cut(strings.TrimPrefix(header, "t="), ",")
	n, _ := strconv.ParseInt(t, 10, 64)
	return "t=" + strconv.FormatInt(n-600, 10) + "," + rest
}

// When the URL is not a URL, then ErrInvalidRequest names the field.
func TestWebhookEndpointInvalidURL(t *testing.T) {
	_, err := newClient().WebhookEndpoints.Create(context.Background(), cv.WebhookEndpointParams{URL: "not a url", Events: []string{"batch.completed"}})
	if !errors.Is(err, cv.ErrInvalidRequest) {
		t.Fatalf("want ErrInvalidRequest, got %v", err)
	}
	var e *cv.Error
	if !errors.As(err, &e) || len(e.Errors) == 0 || e.Errors[0].Field != "url" {
		t.Fatalf("want a field error on url, got %+v", err)
	}
}
