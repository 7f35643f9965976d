package contactvalidator_test

// Cases the real service cannot be made to show on demand, against httptest servers: 402, timeouts, what is sent on
// retries, answers that are not problem documents.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	cv "github.com/contact-validator/contact-validator-go"
)

func problem(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func TestWhenCreditsAreShortThen402CarriesBalanceAndRequired(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		problem(w, 402, `{"type":"/problems/insufficient-credits","title":"The account's usable credits do not cover the request","status":402,"detail":"3 credits needed, 1 left.","balance":1,"required":3,"request_id":"req_1"}`)
	}))
	defer srv.Close()
	_, err := cv.New("cv_live_x", cv.WithBaseURL(srv.URL)).Validate(context.Background(), cv.ValidateParams{Phone: "+14155550123"})
	if !errors.Is(err, cv.ErrInsufficientCredits) || errors.Is(err, cv.ErrInvalidRequest) {
		t.Fatalf("%v", err)
	}
	var e *cv.Error
	errors.As(err, &e)
	if e.Code() != "insufficient-credits" || e.Extensions["balance"] != 1.0 || e.Extensions["required"] != 3.0 || e.RequestID != "req_1" {
		t.Fatalf("%+v", e)
	}
}

func TestEveryRetryOfAValidateCarriesTheSameIdempotencyKey(t *testing.T) {
	var mu sync.Mutex
	var keys, bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		bodies = append(bodies, string(body))
		n := len(keys)
		mu.Unlock()
		switch n {
		case 1:
			problem(w, 503, `{"type":"/problems/database-unavailable","status":503}`)
		case 2:
			// A lost answer: the connection closes without one.
			hj, _ := w.(http.Hijacker)
			conn, _, _ := hj.Hijack()
			conn.Close()
		default:
			w.Header().Set("Idempotent-Replayed", "true")
			io.WriteString(w, `{"address":null,"email":{"status":"valid","risk":"low","smtp":"deliverable"},"phone":null,"credits":{"charged":1,"remaining":9},"request_id":"req_2","response_ms":3}`)
		}
	}))
	defer srv.Close()
	c := cv.New("cv_live_x", cv.WithBaseURL(srv.URL), cv.WithMaxRetries(3))
	res, err := c.Validate(context.Background(), cv.ValidateParams{Email: "a@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Email.Status != cv.EmailValid || res.Email.SMTP != cv.SMTPDeliverable || !res.Replayed {
		t.Fatalf("%+v", res)
	}
	uuid4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	if len(keys) < 3 || !uuid4.MatchString(keys[0]) {
		t.Fatalf("keys %q", keys)
	}
	for i := range keys {
		if keys[i] != keys[0] || bodies[i] != bodies[0] {
			t.Fatalf("attempt %d sent key %q body %q, first %q %q", i, keys[i], bodies[i], keys[0], bodies[0])
		}
	}
	// A new call, a new key.
	res2key := ""
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res2key = r.Header.Get("Idempotency-Key")
		io.WriteString(w, `{}`)
	}))
	defer srv2.Close()
	if _, err := cv.New("k", cv.WithBaseURL(srv2.URL)).Validate(context.Background(), cv.ValidateParams{Email: "a@example.com"}); err != nil {
		t.Fatal(err)
	}
	if res2key == keys[0] || !uuid4.MatchString(res2key) {
		t.Fatalf("second call key %q", res2key)
	}
}

func TestWhenTheServiceIsSlowThenTheTimeoutEndsTheCall(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := cv.New("k", cv.WithBaseURL(srv.URL), cv.WithTimeout(200*time.Millisecond))
	began := time.Now()
	_, err := c.Account(context.Background())
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, cv.ErrNetwork) {
		t.Fatalf("%v", err)
	}
	if d := time.Since(began); d < 200*time.Millisecond || d > time.Second {
		t.Fatalf("ended after %v", d)
	}

	// The caller's own deadline, shorter than the client's timeout, wins too.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = cv.New("k", cv.WithBaseURL(srv.URL)).Account(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
}

func TestRetriesUseBackoffWithoutRetryAfterAndStopAtTheTimeout(t *testing.T) {
	var mu sync.Mutex
	var times []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		problem(w, 500, `{"type":"/problems/internal","status":500}`)
	}))
	defer srv.Close()
	_, err := cv.New("k", cv.WithBaseURL(srv.URL), cv.WithMaxRetries(2)).Account(context.Background())
	if !errors.Is(err, cv.ErrServer) || len(times) != 3 {
		t.Fatalf("%v after %d attempts", err, len(times))
	}
	// Full jitter over 500 ms then 1 s: at least half of each.
	if d := times[1].Sub(times[0]); d < 250*time.Millisecond {
		t.Errorf("first backoff %v", d)
	}
	if d := times[2].Sub(times[1]); d < 500*time.Millisecond {
		t.Errorf("second backoff %v", d)
	}

	// A POST that creates something is not retried after a 500 (the work may have been done).
	times = nil
	_, err = cv.New("k", cv.WithBaseURL(srv.URL)).Keys.Create(context.Background(), nil)
	if !errors.Is(err, cv.ErrServer) || len(times) != 1 {
		t.Fatalf("%v after %d attempts", err, len(times))
	}
}

func TestRetryAfterAsAnHTTPDate(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		if n == 1 {
			w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			problem(w, 429, `{"type":"/problems/rate-limited","status":429}`)
			return
		}
		io.WriteString(w, `{"keys":[]}`)
	}))
	defer srv.Close()
	began := time.Now()
	if _, err := cv.New("k", cv.WithBaseURL(srv.URL)).Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(began); d < 900*time.Millisecond {
		t.Fatalf("retried after %v", d)
	}
}

func TestWhenTheAnswerIsNotAProblemDocumentThenTheErrorStillHasTheStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(403)
		io.WriteString(w, "<html>denied by the proxy</html>")
	}))
	defer srv.Close()
	_, err := cv.New("k", cv.WithBaseURL(srv.URL)).Account(context.Background())
	var e *cv.Error
	if !errors.Is(err, cv.ErrForbidden) || !errors.As(err, &e) || e.Title != "Forbidden" || !strings.Contains(e.Detail, "denied") {
		t.Fatalf("%v %+v", err, e)
	}
}

func TestAnUploadIsSentAgainAfter503OnlyWhenItCanBeRewound(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(body))
		n := len(got)
		mu.Unlock()
		if n%2 == 1 {
			w.Header().Set("Retry-After", "0")
			problem(w, 503, `{"type":"/problems/database-unavailable","status":503}`)
			return
		}
		w.WriteHeader(202)
		io.WriteString(w, `{"batch_id":"batch_1","status":"queued","rows_total":1,"created_at":"2026-01-01T00:00:00Z"}`)
	}))
	defer srv.Close()
	c := cv.New("k", cv.WithBaseURL(srv.URL))
	b, err := c.Batches.Create(context.Background(), bytes.NewReader([]byte("Email\na@example.com\n")), cv.BatchParams{})
	if err != nil || b.BatchID != "batch_1" || len(got) != 2 || got[0] != got[1] {
		t.Fatalf("%+v %v %q", b, err, got)
	}
	got = nil
	// io.MultiReader cannot be rewound: the 503 is the answer.
	_, err = c.Batches.Create(context.Background(), io.MultiReader(strings.NewReader("Email\na@example.com\n")), cv.BatchParams{})
	if !errors.Is(err, cv.ErrUnavailable) || len(got) != 1 {
		t.Fatalf("%v %q", err, got)
	}
}

func TestAResultIsReadableAfterTheCallTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		io.WriteString(w, "Email,cv_error\n")
		w.(http.Flusher).Flush()
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "a@example.com,\n")
	}))
	defer srv.Close()
	r, err := cv.New("k", cv.WithBaseURL(srv.URL), cv.WithTimeout(100*time.Millisecond)).Batches.Result(context.Background(), "batch_1", true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil || string(data) != "Email,cv_error\na@example.com,\n" {
		t.Fatalf("%q %v", data, err)
	}
}

func TestRequestsCarryTheKeyAndTheUserAgent(t *testing.T) {
	var auth, ua, query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, ua, query = r.Header.Get("Authorization"), r.Header.Get("User-Agent"), r.URL.RawQuery
		w.WriteHeader(202)
		io.WriteString(w, `{"batch_id":"b"}`)
	}))
	defer srv.Close()
	c := cv.New("cv_live_abc", cv.WithBaseURL(srv.URL+"/"), cv.WithUserAgent("my-app/1.2"), cv.WithHTTPClient(&http.Client{}))
	_, err := c.Batches.Create(context.Background(), strings.NewReader("x"), cv.BatchParams{
		Name: "n", SMTP: cv.Bool(false), AddressColumns: []string{"Street", "City"}, EmailColumn: "E-mail", PhoneColumn: "Tel", CountryColumn: "Land",
	})
	if err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer cv_live_abc" || !strings.HasPrefix(ua, "my-app/1.2 contact-validator-go/") {
		t.Fatalf("auth %q ua %q", auth, ua)
	}
	if query != "address_columns=Street%2CCity&country_column=Land&email_column=E-mail&name=n&phone_column=Tel&smtp=false" {
		t.Fatalf("query %q", query)
	}
}
