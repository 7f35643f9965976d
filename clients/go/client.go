// Package contactvalidator is the Go client of the contact-validator API: postal address, e-mail and phone validation,
// CSV batches and CRM connectors. It uses the standard library only.
//
//	client := contactvalidator.New(os.Getenv("CV_API_KEY"))
//	res, err := client.Validate(ctx, contactvalidator.ValidateParams{Email: "someone@example.com"})
package contactvalidator

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Version is this library's version, sent in the User-Agent.
const Version = "0.1.0"

const (
	DefaultBaseURL    = "http://localhost:8080"
	DefaultTimeout    = 30 * time.Second
	DefaultMaxRetries = 2

	backoffBase     = 500 * time.Millisecond
	backoffCap      = 8 * time.Second
	maxRetryAfter   = 60 * time.Second
	errorBodyLimit  = 64 << 10
	answerBodyLimit = 32 << 20
)

// Client talks to one service with one API key. It is safe for concurrent use; make one and share it.
type Client struct {
	apiKey     string
	baseURL    *url.URL
	base       string // baseURL as a string, without a trailing slash
	timeout    time.Duration
	maxRetries int
	userAgent  string
	http       *http.Client

	// The resources (client.Batches, …), generated with their methods (resources.go).
	resources
}

// Option configures a Client in New.
type Option func(*Client)

// WithBaseURL sets where the service is (default http://localhost:8080), e.g. "https://api.example.com". It panics on
// a string that is not an absolute URL: a configuration mistake, found at start-up.
func WithBaseURL(base string) Option {
	return func(c *Client) {
		u, err := url.Parse(strings.TrimRight(base, "/"))
		if err != nil || u.Scheme == "" || u.Host == "" {
			panic(fmt.Sprintf("contactvalidator: WithBaseURL(%q): not an absolute URL", base))
		}
		c.baseURL = u
	}
}

// WithTimeout bounds each call as a whole, retries and their waits included (default 30 s). 0 means no bound other
// than the context's.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithMaxRetries sets how many times a failed attempt may be repeated (default 2; 0 turns retries off).
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = max(n, 0) } }

// WithUserAgent puts your application's name in front of the library's own User-Agent.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua + " " + c.userAgent } }

// WithHTTPClient sends the requests through hc (proxies, TLS settings, instrumentation). Its own Timeout, if any, applies
// per attempt; prefer WithTimeout.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// New makes a client for the secret API key apiKey ("cv_live_…").
func New(apiKey string, opts ...Option) *Client {
	base, _ := url.Parse(DefaultBaseURL)
	c := &Client{
		apiKey:     apiKey,
		baseURL:    base,
		timeout:    DefaultTimeout,
		maxRetries: DefaultMaxRetries,
		userAgent:  "contact-validator-go/" + Version,
	}
	for _, opt := range opts {
		opt(c)
	}
	c.base = strings.TrimRight(c.baseURL.String(), "/")
	if c.http == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64 // many calls in flight to one host are the normal case
		c.http = &http.Client{Transport: t}
	}
	c.initResources()
	return c
}

// retryPolicy says which failures of a request may be sent again.
type retryPolicy int

const (
	// retryRefused: only answers that say the request was not processed (429, 503). For POSTs that create something.
	retryRefused retryPolicy = iota
	// retryAll: also network errors and any 5xx. For GET and DELETE, and for POSTs carrying an Idempotency-Key.
	retryAll
)

// call is one API call: what to send and how it may be retried.
type call struct {
	method      string
	path        string
	query       url.Values
	body        []byte    // JSON (or nil)
	stream      io.Reader // instead of body: an upload
	contentType string
	header      http.Header
	policy      retryPolicy
	streaming   bool // the answer's body is handed to the caller: the timeout covers the headers only
}

// do sends c with retries, and returns the successful answer (body unread) or an *Error, *NetworkError or the
// context's error. The returned cancel must be called once the body is read.
func (c *Client) do(ctx context.Context, cl call) (*http.Response, context.CancelFunc, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	var deadline time.Time
	var timer *time.Timer
	if c.timeout > 0 {
		deadline = time.Now().Add(c.timeout)
		timer = time.AfterFunc(c.timeout, func() { cancel(errTimeout) })
	}
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	stop := func() {
		if timer != nil {
			timer.Stop()
		}
		cancel(nil)
	}

	target := c.base + cl.path // paths are built here, their variable parts escaped with url.PathEscape
	if len(cl.query) > 0 {
		target += "?" + cl.query.Encode()
	}

	// An upload can be sent again only if it can be rewound.
	var seeker io.Seeker
	var start int64
	if cl.stream != nil {
		if s, ok := cl.stream.(io.Seeker); ok {
			if pos, err := s.Seek(0, io.SeekCurrent); err == nil {
				seeker, start = s, pos
			}
		}
	}

	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, cl.method, target, nil)
		if err != nil {
			stop()
			return nil, nil, err
		}
		switch {
		case cl.body != nil:
			body := cl.body
			req.Body = io.NopCloser(bytes.NewReader(body))
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
			req.ContentLength = int64(len(body))
		case cl.stream != nil:
			req.Body = io.NopCloser(cl.stream)
			if l, ok := cl.stream.(interface{ Len() int }); ok {
				req.ContentLength = int64(l.Len())
			}
		}
		for k, v := range cl.header {
			req.Header[k] = v
		}
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
		req.Header.Set("User-Agent", c.userAgent)
		req.Header.Set("Accept", "application/json, application/problem+json")
		if cl.contentType != "" {
			req.Header.Set("Content-Type", cl.contentType)
		}

		res, err := c.http.Do(req)
		var failure error
		var wait time.Duration
		retryable := false
		if err != nil {
			if cause := context.Cause(ctx); cause != nil {
				stop()
				return nil, nil, ctxError(cause, err)
			}
			failure = &NetworkError{Method: cl.method, URL: target, Attempts: attempt + 1, Err: err}
			retryable = cl.policy == retryAll
		} else if res.StatusCode < 400 {
			if cl.streaming && timer != nil {
				timer.Stop()
			}
			return res, stop, nil
		} else {
			body, rerr := io.ReadAll(io.LimitReader(res.Body, errorBodyLimit))
			res.Body.Close()
			if rerr != nil {
				if cause := context.Cause(ctx); cause != nil {
					stop()
					return nil, nil, ctxError(cause, rerr)
				}
			}
			problem := problemFrom(res, body)
			failure = problem
			wait = problem.RetryAfter
			switch {
			case res.StatusCode == 429 || res.StatusCode == 503:
				retryable = true // refused before any work: nothing happened, nothing was charged
			case res.StatusCode == 409 && problem.Code() == "idempotency-key-in-use":
				retryable = true // the first attempt is still in flight; its answer will be replayed
			case res.StatusCode >= 500:
				retryable = cl.policy == retryAll
			}
		}
		if !retryable || attempt >= c.maxRetries {
			stop()
			return nil, nil, failure
		}
		if cl.stream != nil {
			if seeker == nil {
				stop()
				return nil, nil, failure
			}
			if _, err := seeker.Seek(start, io.SeekStart); err != nil {
				stop()
				return nil, nil, failure
			}
		}
		if wait <= 0 {
			wait = backoff(attempt)
		}
		wait = min(wait, maxRetryAfter)
		// Never wait past the total timeout or the context's deadline: the answer in hand is better than a timeout.
		if !deadline.IsZero() && time.Now().Add(wait).After(deadline) {
			stop()
			return nil, nil, failure
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			cause := context.Cause(ctx)
			stop()
			return nil, nil, ctxError(cause, failure)
		case <-t.C:
		}
	}
}

// backoff is exponential with full jitter: a random wait in [base·2^attempt / 2, base·2^attempt], capped.
func backoff(attempt int) time.Duration {
	d := time.Duration(float64(backoffBase) * math.Pow(2, float64(attempt)))
	if d > backoffCap || d <= 0 {
		d = backoffCap
	}
	return d/2 + time.Duration(mrand.Int64N(int64(d/2)+1))
}

// retryAfter reads Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(s, 0)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// errTimeout is the cause given when the client's own total timeout ends a call.
var errTimeout = fmt.Errorf("contactvalidator: call timed out: %w", context.DeadlineExceeded)

// ctxError is the error of a call ended by its context or the client's timeout; it matches context.DeadlineExceeded or
// context.Canceled with errors.Is, and keeps the last failure for the message.
func ctxError(cause, last error) error {
	if last == nil {
		return cause
	}
	return fmt.Errorf("%w (last attempt: %v)", cause, last)
}

// getJSON, sendJSON: the usual calls, answer decoded into out (nil: ignored).
func (c *Client) getJSON(ctx context.Context, path string, query url.Values, out any) error {
	return c.roundTrip(ctx, call{method: http.MethodGet, path: path, query: query, policy: retryAll}, out)
}

func (c *Client) sendJSON(ctx context.Context, method, path string, in, out any, policy retryPolicy, header http.Header) error {
	cl := call{method: method, path: path, policy: policy, header: header}
	if in != nil {
		if err := c.encode(&cl, in); err != nil {
			return err
		}
	}
	return c.roundTrip(ctx, cl, out)
}

func (c *Client) encode(cl *call, in any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("contactvalidator: encoding the request: %w", err)
	}
	cl.body, cl.contentType = body, "application/json"
	return nil
}

func (c *Client) roundTrip(ctx context.Context, cl call, out any) error {
	return c.roundTripWith(ctx, cl, out, nil)
}

// roundTripWith is roundTrip with a look at the successful answer's header.
func (c *Client) roundTripWith(ctx context.Context, cl call, out any, inspect func(*http.Response)) error {
	res, done, err := c.do(ctx, cl)
	if err != nil {
		return err
	}
	defer done()
	defer res.Body.Close()
	if inspect != nil {
		inspect(res)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, answerBodyLimit))
	if err != nil {
		if cause := context.Cause(res.Request.Context()); cause != nil {
			return ctxError(cause, err)
		}
		return &NetworkError{Method: cl.method, URL: res.Request.URL.String(), Attempts: 1, Err: err}
	}
	if out == nil || len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("contactvalidator: decoding the answer of %s %s: %w", cl.method, cl.path, err)
	}
	return nil
}

// newIdempotencyKey is a random UUID (version 4, RFC 9562 §5.4).
func newIdempotencyKey() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
