package contactvalidator

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Done reports whether the batch has ended: completed, failed or canceled.
func (s BatchStatus) Done() bool {
	return s == BatchCompleted || s == BatchFailed || s == BatchCanceled
}

// BatchParams tunes an upload. Naming any column turns the service's column detection off.
type BatchParams struct {
	Name           string   // a label kept with the batch
	SMTP           *bool    // Bool(false) skips the mailbox probe for the whole file
	AddressColumns []string // header names joined with ", " into the one-line address, in this order
	EmailColumn    string
	PhoneColumn    string
	CountryColumn  string
	// ContentType of the body; default "text/csv".
	ContentType string
}

func (p BatchParams) query() url.Values {
	q := url.Values{}
	if p.Name != "" {
		q.Set("name", p.Name)
	}
	if p.SMTP != nil {
		q.Set("smtp", strconv.FormatBool(*p.SMTP))
	}
	if len(p.AddressColumns) > 0 {
		q.Set("address_columns", strings.Join(p.AddressColumns, ","))
	}
	if p.EmailColumn != "" {
		q.Set("email_column", p.EmailColumn)
	}
	if p.PhoneColumn != "" {
		q.Set("phone_column", p.PhoneColumn)
	}
	if p.CountryColumn != "" {
		q.Set("country_column", p.CountryColumn)
	}
	return q
}

// BatchesService uploads CSV files and gets them back enriched: client.Batches.
type BatchesService struct{ c *Client }

// Create uploads a CSV file (the first line is its header) and starts its validation. The file is streamed, never held
// in memory. It is sent again after a 429 or 503 only when it is an io.Seeker (an *os.File, a *bytes.Reader, a
// *strings.Reader), and never after a network error (the service may have made the batch).
func (s *BatchesService) Create(ctx context.Context, file io.Reader, p BatchParams) (*Batch, error) {
	ct := p.ContentType
	if ct == "" {
		ct = "text/csv"
	}
	if file == nil {
		file = strings.NewReader("")
	}
	var out Batch
	cl := call{method: http.MethodPost, path: "/v1/batches", query: p.query(), stream: file, contentType: ct, policy: retryRefused}
	if err := s.c.roundTrip(ctx, cl, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Get reads a batch's progress.
func (s *BatchesService) Get(ctx context.Context, id string) (*Batch, error) {
	var out Batch
	if err := s.c.getJSON(ctx, "/v1/batches/"+url.PathEscape(id), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// List gives the account's batches, newest first.
func (s *BatchesService) List(ctx context.Context) ([]Batch, error) {
	var out BatchList
	if err := s.c.getJSON(ctx, "/v1/batches", nil, &out); err != nil {
		return nil, err
	}
	return out.Batches, nil
}

// WaitParams tunes Wait.
type WaitParams struct {
	// OnProgress is called with each status read, the last one included.
	OnProgress func(*Batch)
	// PollInterval between two reads; default 1 s.
	PollInterval time.Duration
}

// Wait polls the batch until it has ended (completed, failed, canceled) or is paused (out of credits: add credits and
// it goes on, or call Resume), and returns it. Only ctx bounds the whole wait; the client's timeout bounds each read.
func (s *BatchesService) Wait(ctx context.Context, id string, p WaitParams) (*Batch, error) {
	interval := p.PollInterval
	if interval <= 0 {
		interval = time.Second
	}
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-t.C:
		}
		b, err := s.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if p.OnProgress != nil {
			p.OnProgress(b)
		}
		if b.Status.Done() || b.Status == BatchPaused {
			return b, nil
		}
		t.Reset(interval)
	}
}

// Result downloads the enriched CSV (every input column, then the cv_… columns), streamed: read it and Close it. Before
// the batch has completed it is a 409 (ErrConflict, Code "batch-not-ready") unless partial is true, which gives the rows
// done so far. The client's timeout covers the wait for the answer to start, not the download; ctx covers both.
func (s *BatchesService) Result(ctx context.Context, id string, partial bool) (io.ReadCloser, error) {
	var q url.Values
	if partial {
		q = url.Values{"partial": {"true"}}
	}
	res, done, err := s.c.do(ctx, call{method: http.MethodGet, path: "/v1/batches/" + url.PathEscape(id) + "/result", query: q, policy: retryAll, streaming: true})
	if err != nil {
		return nil, err
	}
	return &download{body: res.Body, done: done, ctx: res.Request.Context()}, nil
}

// download is a result's body; Close releases the call.
type download struct {
	body io.ReadCloser
	done context.CancelFunc
	ctx  context.Context
}

func (d *download) Read(p []byte) (int, error) {
	n, err := d.body.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		if cause := context.Cause(d.ctx); cause != nil {
			return n, ctxError(cause, err)
		}
		return n, &NetworkError{Method: http.MethodGet, URL: "result", Attempts: 1, Err: err}
	}
	return n, err
}

func (d *download) Close() error {
	err := d.body.Close()
	d.done()
	return err
}

// Cancel stops a batch that has not ended and deletes its file and results.
func (s *BatchesService) Cancel(ctx context.Context, id string) (*Batch, error) {
	var out Batch
	if err := s.c.sendJSON(ctx, http.MethodDelete, "/v1/batches/"+url.PathEscape(id), nil, &out, retryAll, nil); err != nil {
		return nil, err
	}
	return &out, nil
}

// Resume starts a paused batch again now (409 ErrConflict, Code "batch-not-paused", for a batch that is not paused).
func (s *BatchesService) Resume(ctx context.Context, id string) (*Batch, error) {
	var out Batch
	// Not retried after a lost answer: the second attempt would be a misleading 409.
	if err := s.c.sendJSON(ctx, http.MethodPost, "/v1/batches/"+url.PathEscape(id)+"/resume", nil, &out, retryRefused, nil); err != nil {
		return nil, err
	}
	return &out, nil
}
