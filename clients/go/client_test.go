package contactvalidator_test

import (
	"context"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	cv "github.com/contact-validator/contact-validator-go"
)

// newClient is a client of the real service through the fault proxy.
func newClient(opts ...cv.Option) *cv.Client {
	return cv.New(service.APIKey, append([]cv.Option{cv.WithBaseURL(service.URL), cv.WithTimeout(20 * time.Second)}, opts...)...)
}

func balance(t *testing.T, c *cv.Client) int64 {
	t.Helper()
	a, err := c.Account(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return a.Balance
}

func asProblem(t *testing.T, err error, status int, code string) *cv.Error {
	t.Helper()
	var e *cv.Error
	if !errors.As(err, &e) {
		t.Fatalf("want a *cv.Error %d %s, got %T %v", status, code, err, err)
	}
	if e.Status != status || e.Code() != code {
		t.Fatalf("want %d %s, got %d %s (%v)", status, code, e.Status, e.Code(), e)
	}
	if e.Title == "" || e.RequestID == "" {
		t.Fatalf("problem without title or request id: %+v", e)
	}
	return e
}

func TestWhenAllThreeModulesAreAskedThenEachComesBackTyped(t *testing.T) {
	c := newClient()
	res, err := c.Validate(context.Background(), cv.ValidateParams{
		Address: "1600 Amphitheatre Pkwy, Mountain View, CA 94043",
		Email:   "someone@example.com",
		Phone:   "+14155550123",
		Country: "US",
		Options: &cv.ValidateOptions{SMTP: cv.Bool(false)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Address == nil || res.Email == nil || res.Phone == nil || res.Credits == nil {
		t.Fatalf("missing module: %+v", res)
	}
	switch res.Address.Status {
	case cv.AddressVerified, cv.AddressCorrected, cv.AddressPartial, cv.AddressPlausible:
	default:
		t.Errorf("address status %q", res.Address.Status)
	}
	if !strings.HasPrefix(res.Address.Standardized, "1600 AMPHITHEATRE PKWY") || res.Address.Components.State != "CA" {
		t.Errorf("address %+v", res.Address)
	}
	if res.Email.SMTP != cv.SMTPSkipped || res.Email.Normalized != "someone@example.com" {
		t.Errorf("email %+v", res.Email)
	}
	if res.Phone.Status != cv.PhoneValid || res.Phone.E164 != "+14155550123" || res.Phone.CarrierSource != cv.CarrierNone {
		t.Errorf("phone %+v", res.Phone)
	}
	if res.RequestID == "" || res.Credits.Charged <= 0 || res.Replayed {
		t.Errorf("answer %+v credits %+v", res, res.Credits)
	}
}

func TestWhenOnlyEmailIsAskedThenTheOtherModulesAreNil(t *testing.T) {
	res, err := newClient().Validate(context.Background(), cv.ValidateParams{Email: "not-an-email"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Address != nil || res.Phone != nil || res.Email == nil || res.Email.Status != cv.EmailInvalid {
		t.Fatalf("%+v %+v", res, res.Email)
	}
}

// A test key answers the documented fixed inputs with their next_action, says test, and charges nothing.
func TestTestKeyAndNextAction(t *testing.T) {
	ctx := context.Background()
	c := newClient()
	created, err := c.Keys.Create(ctx, &cv.KeyParams{Test: true})
	if err != nil {
		t.Fatal(err)
	}
	tester := cv.New(created.APIKey, cv.WithBaseURL(service.URL))
	before, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}

	good, err := tester.Validate(ctx, cv.ValidateParams{Address: "6007 Applegate Ln, Louisville, KY 40219", Phone: "+1 502-713-4410"})
	if err != nil {
		t.Fatal(err)
	}
	typo, err := tester.Validate(ctx, cv.ValidateParams{Email: "ann@gmial.com"})
	if err != nil {
		t.Fatal(err)
	}
	bad, err := tester.Validate(ctx, cv.ValidateParams{Email: "jane.doe@gmail.con"})
	if err != nil {
		t.Fatal(err)
	}
	after, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}

	if !strings.HasPrefix(created.APIKey, "cv_test_") || !created.Test {
		t.Fatalf("test key %+v", created)
	}
	if good.NextAction != cv.NextActionAccept || !good.Test || good.Credits.Charged != 0 || good.Address.NextAction != cv.NextActionAccept {
		t.Fatalf("good %+v", good)
	}
	if typo.NextAction != cv.NextActionConfirm || typo.Email.Suggestion != "ann@gmail.com" {
		t.Fatalf("typo %+v", typo)
	}
	if bad.NextAction != cv.NextActionFix || bad.Email.Reason != "no_such_domain" {
		t.Fatalf("bad %+v", bad)
	}
	if after.Balance != before.Balance {
		t.Fatalf("balance moved from %d to %d", before.Balance, after.Balance)
	}
	if _, err := tester.Account(ctx); !errors.Is(err, cv.ErrUnauthorized) {
		t.Fatalf("a test key reading the account: want ErrUnauthorized, got %v", err)
	}
}

func TestAccountAndKeys(t *testing.T) {
	ctx := context.Background()
	c := newClient()
	a, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a.AccountID != service.AccountID || a.Balance <= 0 || len(a.Grants) == 0 || a.Usage.WindowDays == 0 || len(a.Keys) == 0 {
		t.Fatalf("account %+v", a)
	}

	created, err := c.Keys.Create(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(created.APIKey, "cv_") || created.KeyID == "" {
		t.Fatalf("new key %+v", created)
	}
	second := cv.New(created.APIKey, cv.WithBaseURL(service.URL))
	if _, err := second.Account(ctx); err != nil {
		t.Fatalf("the new key does not work: %v", err)
	}
	keys, err := c.Keys.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, k := range keys {
		found = found || k.KeyID == created.KeyID
	}
	if !found {
		t.Fatalf("%s not in %+v", created.KeyID, keys)
	}
	revoked, err := c.Keys.Revoke(ctx, created.KeyID)
	if err != nil {
		t.Fatal(err)
	}
	if revoked.KeyID != created.KeyID || revoked.RevokedAt.IsZero() {
		t.Fatalf("revoked %+v", revoked)
	}
	_, err = second.Account(ctx)
	if !errors.Is(err, cv.ErrUnauthorized) {
		t.Fatalf("a revoked key: want ErrUnauthorized, got %v", err)
	}

	pub, err := c.Keys.Create(ctx, &cv.KeyParams{Publishable: true, Origins: []string{"https://shop.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pub.APIKey, "cv_pub_") {
		t.Fatalf("publishable key %+v", pub)
	}
	if _, err := c.Keys.Revoke(ctx, "key_does_not_exist"); !errors.Is(err, cv.ErrNotFound) {
		t.Fatalf("revoking an unknown key: %v", err)
	}
}

const contacts = "Street,City,State,Zip,Email,Phone\n" +
	"1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com,+1 415 555 0123\n" +
	"1 Infinite Loop,Cupertino,CA,95014,not-an-email,+14155550124\n"

func TestBatchLifecycle(t *testing.T) {
	ctx := context.Background()
	c := newClient()
	b, err := c.Batches.Create(ctx, strings.NewReader(contacts), cv.BatchParams{
		Name: "go-client", SMTP: cv.Bool(false), AddressColumns: []string{"Street", "City", "State", "Zip"},
		EmailColumn: "Email", PhoneColumn: "Phone",
	})
	if err != nil {
		t.Fatal(err)
	}
	if b.BatchID == "" || b.RowsTotal != 2 || b.Name != "go-client" || b.Columns == nil || b.Columns.Email != "Email" || len(b.Columns.Address) != 4 {
		t.Fatalf("created %+v columns %+v", b, b.Columns)
	}

	var seen int
	done, err := c.Batches.Wait(ctx, b.BatchID, cv.WaitParams{PollInterval: 50 * time.Millisecond, OnProgress: func(*cv.Batch) { seen++ }})
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != cv.BatchCompleted || done.RowsDone != 2 || seen == 0 || done.FinishedAt == nil || done.CreditsCharged <= 0 {
		t.Fatalf("after wait %+v (progress calls %d)", done, seen)
	}

	got, err := c.Batches.Get(ctx, b.BatchID)
	if err != nil || got.BatchID != b.BatchID {
		t.Fatalf("get %+v %v", got, err)
	}
	list, err := c.Batches.List(ctx)
	if err != nil || len(list) == 0 {
		t.Fatalf("list %v %v", list, err)
	}
	if list[0].BatchID != b.BatchID {
		t.Errorf("newest first: %s, want %s", list[0].BatchID, b.BatchID)
	}

	for _, partial := range []bool{false, true} {
		r, err := c.Batches.Result(ctx, b.BatchID, partial)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(r).ReadAll()
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 3 || rows[0][0] != "Street" || rows[0][len(rows[0])-1] != "cv_feedback" {
			t.Fatalf("result (partial=%v): %q", partial, rows)
		}
		if rows[1][5] != "'+1 415 555 0123" {
			t.Errorf("formula-safe phone cell: %q", rows[1][5])
		}
	}

	// 409: a completed batch is not paused.
	_, err = c.Batches.Resume(ctx, b.BatchID)
	if !errors.Is(err, cv.ErrConflict) {
		t.Fatalf("resume of a completed batch: %v", err)
	}
	asProblem(t, err, 409, "batch-not-paused")

	// Cancel: a fresh batch, canceled at once (whatever it had time to do).
	other, err := c.Batches.Create(ctx, strings.NewReader(contacts), cv.BatchParams{SMTP: cv.Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	canceled, err := c.Batches.Cancel(ctx, other.BatchID)
	if err != nil {
		t.Fatal(err)
	}
	if canceled.BatchID != other.BatchID || !canceled.Status.Done() {
		t.Fatalf("canceled %+v", canceled)
	}
}

func TestWhenABatchIsNotFinishedThenItsResultIsAConflictUnlessPartial(t *testing.T) {
	// A result asked for before completion: the answer depends on timing, so accept both outcomes, but typed.
	ctx := context.Background()
	c := newClient()
	var big strings.Builder
	big.WriteString("Email\n")
	for i := 0; i < 3000; i++ {
		big.WriteString("someone@example.com\n")
	}
	b, err := c.Batches.Create(ctx, strings.NewReader(big.String()), cv.BatchParams{SMTP: cv.Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Batches.Result(ctx, b.BatchID, false)
	if err == nil {
		r.Close() // it was already done
	} else {
		e := asProblem(t, err, 409, "batch-not-ready")
		if e.Extensions["batch_status"] == nil {
			t.Errorf("extensions %+v", e.Extensions)
		}
	}
	if _, err := c.Batches.Wait(ctx, b.BatchID, cv.WaitParams{PollInterval: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
}

func TestConnectorLifecycle(t *testing.T) {
	ctx := context.Background()
	c := newClient()
	created, err := c.Connectors.Create(ctx, cv.ConnectorParams{
		Type: cv.ConnectorSalesforce, Name: "go client test", Schedule: "*/15 * * * *",
		// Port 9 (discard) refuses: a run fails fast without touching any real org.
		Settings:    map[string]any{"login_url": "http://127.0.0.1:9", "api_version": "62.0", "objects": []string{"Contact"}},
		Credentials: map[string]string{"client_id": "id", "client_secret": "secret"},
		WriteBack:   map[string]bool{"overwrite_address": false},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.ConnectorID == "" || created.Status != cv.ConnectorActive || created.Type != cv.ConnectorSalesforce || created.Settings["api_version"] != "62.0" {
		t.Fatalf("created %+v", created)
	}
	list, err := c.Connectors.List(ctx)
	if err != nil || len(list) == 0 {
		t.Fatalf("list %v %v", list, err)
	}
	paused, err := c.Connectors.Update(ctx, created.ConnectorID, cv.ConnectorUpdate{Status: cv.ConnectorPaused, Name: "renamed"})
	if err != nil {
		t.Fatal(err)
	}
	if paused.Status != cv.ConnectorPaused || paused.Name != "renamed" {
		t.Fatalf("updated %+v", paused)
	}
	runID, err := c.Connectors.Run(ctx, created.ConnectorID)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := c.Connectors.Runs(ctx, created.ConnectorID)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) == 0 || runs[0].RunID != runID || runs[0].TriggeredBy != "api" || runs[0].StartedAt.IsZero() {
		t.Fatalf("runs %+v", runs)
	}
	got, err := c.Connectors.Get(ctx, created.ConnectorID)
	if err != nil || got.ConnectorID != created.ConnectorID {
		t.Fatalf("get %+v %v", got, err)
	}
	if err := c.Connectors.Delete(ctx, created.ConnectorID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Connectors.Get(ctx, created.ConnectorID); !errors.Is(err, cv.ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}

	_, err = c.Connectors.Create(ctx, cv.ConnectorParams{Type: "salesforce", Name: "broken", Settings: map[string]any{"login_url": 42}})
	e := asProblem(t, err, 400, "invalid-request")
	if len(e.Errors) == 0 {
		t.Fatalf("no field errors: %+v", e)
	}
}

// Each kind of problem the service answers comes back as a *cv.Error matching its sentinel.
func TestErrorKinds(t *testing.T) {
	ctx := context.Background()
	c := newClient()

	t.Run("401 bad key", func(t *testing.T) {
		_, err := cv.New("cv_live_not_a_real_key", cv.WithBaseURL(service.URL)).Validate(ctx, cv.ValidateParams{Email: "a@example.com"})
		if !errors.Is(err, cv.ErrUnauthorized) {
			t.Fatalf("%v", err)
		}
		e := asProblem(t, err, 401, "unauthorized")
		if e.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("no WWW-Authenticate")
		}
	})
	t.Run("400 bad body", func(t *testing.T) {
		_, err := c.Validate(ctx, cv.ValidateParams{}) // names none of address, email, phone
		if !errors.Is(err, cv.ErrInvalidRequest) {
			t.Fatalf("%v", err)
		}
		e := asProblem(t, err, 400, "invalid-request")
		if len(e.Errors) == 0 || e.Errors[0].Message == "" {
			t.Fatalf("field errors %+v", e.Errors)
		}
	})
	t.Run("404 unknown batch", func(t *testing.T) {
		_, err := c.Batches.Get(ctx, "batch_does_not_exist")
		if !errors.Is(err, cv.ErrNotFound) {
			t.Fatalf("%v", err)
		}
		asProblem(t, err, 404, "not-found")
	})
	t.Run("422 broken CSV", func(t *testing.T) {
		_, err := c.Batches.Create(ctx, strings.NewReader("Street,Email\n\"never closed,x@example.com\n"), cv.BatchParams{})
		if !errors.Is(err, cv.ErrInvalidRequest) {
			t.Fatalf("%v", err)
		}
		e := asProblem(t, err, 422, "invalid-csv")
		if line, _ := e.Extensions["line"].(float64); line != 2 {
			t.Fatalf("line %v in %+v", e.Extensions["line"], e.Extensions)
		}
	})
	t.Run("415 wrong content type", func(t *testing.T) {
		_, err := c.Batches.Create(ctx, strings.NewReader("Email\na@example.com\n"), cv.BatchParams{ContentType: "application/pdf"})
		if !errors.Is(err, cv.ErrInvalidRequest) {
			t.Fatalf("%v", err)
		}
		asProblem(t, err, 415, "unsupported-media-type")
	})
	t.Run("409 resume of a completed batch", func(t *testing.T) {
		b, err := c.Batches.Create(ctx, strings.NewReader("Email\na@example.com\n"), cv.BatchParams{SMTP: cv.Bool(false)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Batches.Wait(ctx, b.BatchID, cv.WaitParams{PollInterval: 20 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		_, err = c.Batches.Resume(ctx, b.BatchID)
		if !errors.Is(err, cv.ErrConflict) {
			t.Fatalf("%v", err)
		}
	})
}

// A 503 is retried after its Retry-After, and charged once: the proxy's 503 never reached the service.
func TestWhenTheServiceAnswers503ThenTheCallIsRetriedAndChargedOnce(t *testing.T) {
	ctx := context.Background()
	c := newClient()
	before := balance(t, c)
	start := counts(t)
	fault(t, "503", 1)
	began := time.Now()
	res, err := c.Validate(ctx, cv.ValidateParams{Address: "1600 Amphitheatre Pkwy, Mountain View, CA 94043"})
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(began); waited < 900*time.Millisecond {
		t.Errorf("Retry-After: 1 not honoured: answered after %v", waited)
	}
	end := counts(t)
	if end.Faulted-start.Faulted != 1 {
		t.Fatalf("proxy counts %+v -> %+v", start, end)
	}
	if after := balance(t, c); before-after != res.Credits.Charged || res.Credits.Charged != 1 {
		t.Fatalf("balance %d -> %d, charged %d", before, after, res.Credits.Charged)
	}
}

func TestWhenRateLimitedThenTheCallIsRetried(t *testing.T) {
	c := newClient()
	fault(t, "429", 1)
	if _, err := c.Account(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// The hard case: the service processed and charged the request, then the connection dropped before the answer.
// The retry carries the same Idempotency-Key: the service replays the first answer and charges nothing more.
func TestWhenTheAnswerIsLostThenTheRetryIsReplayedAndNotChargedTwice(t *testing.T) {
	ctx := context.Background()
	c := newClient()
	before, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start := counts(t)
	fault(t, "drop_after", 1)
	res, err := c.Validate(ctx, cv.ValidateParams{Address: "1600 Amphitheatre Pkwy, Mountain View, CA 94043", Phone: "+14155550123"})
	if err != nil {
		t.Fatal(err)
	}
	end := counts(t)
	if end.Faulted-start.Faulted != 1 || end.Forwarded-start.Forwarded < 2 {
		t.Fatalf("the fault did not happen: %+v -> %+v", start, end)
	}
	if !res.Replayed {
		t.Errorf("the retry was not answered from the idempotency store")
	}
	after, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Credits.Charged != 3 || before.Balance-after.Balance != 3 {
		t.Fatalf("charged %d, balance %d -> %d: want exactly one charge of 3", res.Credits.Charged, before.Balance, after.Balance)
	}
	if n := after.Usage.Address.Requests - before.Usage.Address.Requests; n != 1 {
		t.Fatalf("%d address requests recorded, want 1", n)
	}
}

func TestWhenTheConnectionDropsBeforeAGetThenItIsRetried(t *testing.T) {
	c := newClient()
	fault(t, "drop_before", 1)
	if _, err := c.Batches.List(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A POST that creates something has no idempotency key on this service: after a lost connection it is not sent again
// (it might have made the key), and the caller gets a NetworkError.
func TestWhenTheConnectionDropsOnACreateThenItIsNotRetried(t *testing.T) {
	c := newClient()
	start := counts(t)
	fault(t, "drop_before", 1)
	_, err := c.Keys.Create(context.Background(), nil)
	var ne *cv.NetworkError
	if !errors.Is(err, cv.ErrNetwork) || !errors.As(err, &ne) || ne.Attempts != 1 {
		t.Fatalf("want a NetworkError after 1 attempt, got %v", err)
	}
	if end := counts(t); end.Faulted-start.Faulted != 1 || end.Forwarded != start.Forwarded {
		t.Fatalf("counts %+v -> %+v", start, end)
	}
}

func TestWhenRetriesRunOutThenTheLastProblemIsReturned(t *testing.T) {
	c := newClient(cv.WithMaxRetries(1))
	fault(t, "503", 2)
	_, err := c.Account(context.Background())
	if !errors.Is(err, cv.ErrUnavailable) {
		t.Fatalf("%v", err)
	}
	e := asProblem(t, err, 503, "database-unavailable")
	if e.RetryAfter != time.Second {
		t.Errorf("RetryAfter %v", e.RetryAfter)
	}
}

func TestWhenTheTimeoutIsShorterThanRetryAfterThenTheClientDoesNotWait(t *testing.T) {
	c := newClient(cv.WithTimeout(500 * time.Millisecond))
	fault(t, "503", 1)
	began := time.Now()
	_, err := c.Account(context.Background())
	if !errors.Is(err, cv.ErrUnavailable) || time.Since(began) > 400*time.Millisecond {
		t.Fatalf("%v after %v", err, time.Since(began))
	}
}

func TestWhenTheContextIsCanceledThenTheCallStops(t *testing.T) {
	c := newClient()
	ctx, cancel := context.WithCancel(context.Background())
	fault(t, "503", 1) // the client would wait 1 s before its retry
	time.AfterFunc(100*time.Millisecond, cancel)
	began := time.Now()
	_, err := c.Account(ctx)
	if !errors.Is(err, context.Canceled) || time.Since(began) > 600*time.Millisecond {
		t.Fatalf("%v after %v", err, time.Since(began))
	}
}

func TestWhenABatchIsDoneThenItsResultIsAStream(t *testing.T) {
	ctx := context.Background()
	c := newClient(cv.WithTimeout(2 * time.Second))
	b, err := c.Batches.Create(ctx, strings.NewReader("Email\na@example.com\n"), cv.BatchParams{SMTP: cv.Bool(false)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Batches.Wait(ctx, b.BatchID, cv.WaitParams{PollInterval: 20 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	r, err := c.Batches.Result(ctx, b.BatchID, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil || !strings.HasPrefix(string(data), "Email,cv_address_status") {
		t.Fatalf("%q %v", data, err)
	}
}
