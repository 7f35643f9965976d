package contactvalidator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Sentinels to tell kinds of failure apart with errors.Is. An *Error matches the sentinel of its HTTP status:
//
//	if errors.Is(err, contactvalidator.ErrInsufficientCredits) { … buy a pack … }
//
// errors.As(err, &apiErr) then gives the whole problem document.
var (
	ErrInvalidRequest      = errors.New("contactvalidator: invalid request")      // 400, 413, 415, 422
	ErrUnauthorized        = errors.New("contactvalidator: unauthorized")         // 401
	ErrInsufficientCredits = errors.New("contactvalidator: insufficient credits") // 402
	ErrForbidden           = errors.New("contactvalidator: forbidden")            // 403
	ErrNotFound            = errors.New("contactvalidator: not found")            // 404
	ErrConflict            = errors.New("contactvalidator: conflict")             // 409
	ErrGone                = errors.New("contactvalidator: gone")                 // 410
	ErrRateLimited         = errors.New("contactvalidator: rate limited")         // 429
	ErrServer              = errors.New("contactvalidator: server error")         // 500, 502, 504 and other 5xx
	ErrUnavailable         = errors.New("contactvalidator: service unavailable")  // 503
	// ErrNetwork matches a *NetworkError: the request never got an HTTP answer (refused, reset, dropped).
	ErrNetwork = errors.New("contactvalidator: network error")
)

// Error is an answer of the service with a status of 400 or above: its RFC 9457 problem document.
type Error struct {
	Type      string       // e.g. "/problems/insufficient-credits"; see Code
	Title     string       // the same for every problem of this Type
	Status    int          // the HTTP status
	Detail    string       // this occurrence, in words
	Instance  string       // optional
	RequestID string       // quote it to support
	Errors    []FieldError // 400: one entry per field problem
	// Extensions holds every other member of the document, e.g. "balance" and "required" (402), "line" (422 invalid-csv),
	// "max_bytes" (413), "batch_status" (409 batch-not-ready).
	Extensions map[string]any
	// RetryAfter is the server's Retry-After, when it sent one (429, 503, 409 idempotency-key-in-use).
	RetryAfter time.Duration
	// Header is the answer's HTTP header.
	Header http.Header
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "contactvalidator: %d", e.Status)
	if code := e.Code(); code != "" {
		fmt.Fprintf(&b, " %s", code)
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	} else if e.Title != "" {
		fmt.Fprintf(&b, ": %s", e.Title)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request %s)", e.RequestID)
	}
	return b.String()
}

// Code is the last segment of Type ("insufficient-credits", "batch-not-ready", "invalid-csv", …): the stable name of
// the problem in the service's catalogue.
func (e *Error) Code() string {
	if i := strings.LastIndexByte(e.Type, '/'); i >= 0 {
		return e.Type[i+1:]
	}
	return e.Type
}

// Is makes errors.Is(err, ErrNotFound) and the other sentinels work.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrInvalidRequest:
		return e.Status == 400 || e.Status == 413 || e.Status == 415 || e.Status == 422
	case ErrUnauthorized:
		return e.Status == 401
	case ErrInsufficientCredits:
		return e.Status == 402
	case ErrForbidden:
		return e.Status == 403
	case ErrNotFound:
		return e.Status == 404
	case ErrConflict:
		return e.Status == 409
	case ErrGone:
		return e.Status == 410
	case ErrRateLimited:
		return e.Status == 429
	case ErrUnavailable:
		return e.Status == 503
	case ErrServer:
		return e.Status >= 500 && e.Status != 503
	}
	return false
}

// NetworkError is a call that got no HTTP answer: connection refused or reset, or dropped before the answer came. Err
// is what net/http reported. errors.Is(err, ErrNetwork) matches it.
type NetworkError struct {
	Method, URL string
	Attempts    int // how many times the request was sent
	Err         error
}

func (e *NetworkError) Error() string {
	return fmt.Sprintf("contactvalidator: %s %s: no answer after %d attempt(s): %v", e.Method, e.URL, e.Attempts, e.Err)
}
func (e *NetworkError) Unwrap() error        { return e.Err }
func (e *NetworkError) Is(target error) bool { return target == ErrNetwork }

// problemFrom reads an error answer. A body that is not a problem document (a proxy's HTML page) still gives an *Error
// with the status, the status text as Title and the start of the body as Detail.
func problemFrom(res *http.Response, body []byte) *Error {
	e := &Error{Status: res.StatusCode, Header: res.Header, RetryAfter: retryAfter(res.Header, time.Now())}
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) == nil && doc != nil {
		for name, raw := range doc {
			switch name {
			case "type":
				_ = json.Unmarshal(raw, &e.Type)
			case "title":
				_ = json.Unmarshal(raw, &e.Title)
			case "status":
				_ = json.Unmarshal(raw, &e.Status)
			case "detail":
				_ = json.Unmarshal(raw, &e.Detail)
			case "instance":
				_ = json.Unmarshal(raw, &e.Instance)
			case "request_id":
				_ = json.Unmarshal(raw, &e.RequestID)
			case "errors":
				_ = json.Unmarshal(raw, &e.Errors)
			default:
				var v any
				if json.Unmarshal(raw, &v) == nil {
					if e.Extensions == nil {
						e.Extensions = map[string]any{}
					}
					e.Extensions[name] = v
				}
			}
		}
		e.Status = res.StatusCode // the status line is the truth
	} else {
		e.Title = http.StatusText(res.StatusCode)
		e.Detail = strings.TrimSpace(string(body[:min(len(body), 200)]))
	}
	if e.RequestID == "" {
		e.RequestID = res.Header.Get("X-Request-Id")
	}
	return e
}
