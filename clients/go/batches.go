package contactvalidator

import (
	"context"
	"io"
	"time"
)

// Done reports whether the batch has ended: completed, failed or canceled.
func (s BatchStatus) Done() bool {
	return s == BatchCompleted || s == BatchFailed || s == BatchCanceled
}

// The batches' operations are generated (resources.go); here are the helpers that are not one.

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
// GetResult takes the other parameters too.
func (s *BatchesService) Result(ctx context.Context, id string, partial bool) (io.ReadCloser, error) {
	var p *GetBatchResultParams
	if partial {
		p = &GetBatchResultParams{Partial: Bool(true)}
	}
	return s.GetResult(ctx, id, p)
}
