package contactvalidator

import "context"

// Iter walks a paged list (ListAll, RunsAll, DeliveriesAll) one item at a time, newest first:
//
//	it := client.Batches.ListAll(ctx, &contactvalidator.ListBatchesParams{Limit: 50})
//	for it.Next() {
//		batch := it.Current()
//		…
//	}
//	if err := it.Err(); err != nil {
//		…
//	}
//
// It asks for a page only when Next has used up the one before (nothing is fetched before the first Next), after the
// last item's id (`starting_after`), until the service says no page follows (`has_more` false). Each page is one call,
// with the client's timeout and retries; the first error ends the walk and is kept for Err. An Iter is not safe for
// concurrent use.
type Iter[T any] struct {
	ctx     context.Context
	fetch   func(ctx context.Context, after string) (items []T, more bool, next string, err error)
	after   string
	page    []T
	current T
	done    bool // no page left to fetch
	err     error
}

func newIter[T any](ctx context.Context, after string, fetch func(context.Context, string) ([]T, bool, string, error)) *Iter[T] {
	return &Iter[T]{ctx: ctx, fetch: fetch, after: after}
}

// Next moves to the next item, fetching the next page when this one is used up, and reports whether there is one:
// false at the end of the list or on an error (see Err).
func (it *Iter[T]) Next() bool {
	for len(it.page) == 0 {
		if it.done || it.err != nil {
			return false
		}
		items, more, next, err := it.fetch(it.ctx, it.after)
		if err != nil {
			it.err = err
			return false
		}
		it.page, it.after = items, next
		it.done = !more || next == ""
	}
	it.current, it.page = it.page[0], it.page[1:]
	return true
}

// Current is the item Next moved to.
func (it *Iter[T]) Current() T { return it.current }

// Err is the error that ended the walk (an *Error, *NetworkError or the context's), or nil.
func (it *Iter[T]) Err() error { return it.err }
