package contactvalidator

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
)

// The bodies that are not JSON, and what the generated methods (resources.go) share: an upload's reader, a text
// answer handed over streamed, and whether an answer was a replay.

// uploadOf is the body of an upload: nothing is an empty file (the service says why that is not a CSV).
func uploadOf(file io.Reader) io.Reader {
	if file == nil {
		return strings.NewReader("")
	}
	return file
}

// download sends cl and hands over its answer's body, streamed: the caller reads it and closes it.
func (c *Client) download(ctx context.Context, cl call) (io.ReadCloser, error) {
	res, done, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	return &download{body: res.Body, done: done, ctx: res.Request.Context()}, nil
}

// replayed is an answer type that says whether the service replayed a first answer (Idempotent-Replayed: true).
type replayed interface{ setReplayed(bool) }

// replayedInto reads the answer's Idempotent-Replayed header into out, when out says replays.
func replayedInto(out any) func(*http.Response) {
	r, ok := out.(replayed)
	if !ok {
		return nil
	}
	return func(res *http.Response) { r.setReplayed(res.Header.Get("Idempotent-Replayed") == "true") }
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
