package storage

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// committer runs the statements of concurrent calls in one pipeline, one
// implicit transaction, one commit. Each call queues its statements with
// callbacks that keep their answers; a flusher takes the calls waiting
// when it is free (up to max), sends them together and answers each once
// the commit succeeded. Nothing waits for a batch to fill: alone, a call
// is a pipeline of its own; under load, calls that arrive while a flusher
// is busy share its next commit. Two committers use it: the withdrawal
// creates' group commit (GroupCommit) and the shared commits of small
// statements (ShareCommits).
//
// A statement the server refuses rolls the whole transaction back: each
// call then runs again alone, so that only the faulty one fails. A broken
// connection leaves the outcome unknown: every call gets the error, as it
// would alone. Statements that share a commit see each other's writes as
// they would in sequence.
type committer struct {
	// calls: keyed, one per flusher (a call goes to its key's); else one
	// that every flusher takes from.
	calls   []chan *commitCall
	stopped chan struct{}
	max     int
	batches atomic.Int64 // pipelines sent, for tests
	shared  atomic.Int64 // calls that rode in a pipeline with others, for tests
}

// commitCall is one call's statements waiting for a pipeline.
type commitCall struct {
	// key, in a keyed committer, picks the call's flusher and orders the
	// calls of a batch (two batches then take locks in the same order).
	key int64
	// queue adds the call's statements to b, each with a callback that
	// keeps its answer and returns only errors that are not one (a
	// statement's "no rows" is an answer). It may run more than once (a
	// batch's rerun): callbacks overwrite what they keep.
	queue func(b *pgx.Batch)
	err   error
	done  chan struct{}
}

// startCommitter stores in slot a committer of flushers flushers and
// batches of at most size calls, until ctx ends (slot is then emptied and
// calls run alone again). It does nothing when flushers <= 0 or slot holds
// one already (a process running the api and the worker both starts each
// once).
func startCommitter(ctx context.Context, db *DB, slot *atomic.Pointer[committer], flushers, size int, keyed bool) {
	if flushers <= 0 || slot.Load() != nil {
		return
	}
	c := &committer{calls: make([]chan *commitCall, 1), stopped: make(chan struct{}), max: max(size, 1)}
	if keyed {
		c.calls = make([]chan *commitCall, flushers)
	}
	for i := range c.calls {
		c.calls[i] = make(chan *commitCall)
	}
	slot.Store(c)
	done := make(chan struct{}, flushers)
	for i := range flushers {
		go func() {
			defer func() { done <- struct{}{} }()
			c.run(ctx, db, c.calls[i%len(c.calls)])
		}()
	}
	go func() {
		<-ctx.Done()
		slot.CompareAndSwap(c, nil)
		close(c.stopped)
		for range flushers {
			<-done
		}
	}()
}

// do hands call to a flusher and waits for its answer. ok is false when no
// flusher took it (the committer stopped): the caller runs it alone.
func (c *committer) do(ctx context.Context, call *commitCall) (ok bool, err error) {
	call.done = make(chan struct{})
	select {
	case c.calls[uint64(call.key)%uint64(len(c.calls))] <- call:
	case <-c.stopped:
		return false, nil
	case <-ctx.Done():
		return true, ctx.Err()
	}
	select {
	case <-call.done:
		return true, call.err
	case <-ctx.Done():
		return true, ctx.Err()
	}
}

// run is one flusher: it takes the first call to arrive on calls and every
// other one already waiting, up to max, and commits them together.
func (c *committer) run(ctx context.Context, db *DB, calls chan *commitCall) {
	batch := make([]*commitCall, 0, c.max)
	for {
		var ok bool
		if batch, ok = gather(ctx, calls, batch, c.max); !ok {
			return
		}
		// The batch's callers are waiting: it runs to its end even when
		// ctx ends meanwhile.
		c.flush(context.WithoutCancel(ctx), db, batch)
	}
}

// gather is a flusher's next batch: the first call to arrive on calls and
// every other one already waiting, up to max, in batch's storage; false
// when ctx ended first. Nothing waits for a batch to fill.
func gather[T any](ctx context.Context, calls <-chan T, batch []T, max int) ([]T, bool) {
	select {
	case <-ctx.Done():
		return batch, false
	case c := <-calls:
		batch = append(batch[:0], c)
	}
	for len(batch) < max {
		select {
		case c := <-calls:
			batch = append(batch, c)
		default:
			return batch, true
		}
	}
	return batch, true
}

// flush commits batch, in key order, in one pipeline and answers each
// call: alone again each when the server refused a statement (the
// transaction rolled back), with the error each when the outcome is
// unknown.
func (c *committer) flush(ctx context.Context, db *DB, batch []*commitCall) {
	slices.SortStableFunc(batch, func(a, b *commitCall) int { return cmp.Compare(a.key, b.key) })
	err := c.send(ctx, db, batch)
	var pgErr *pgconn.PgError
	for _, call := range batch {
		switch {
		case err == nil:
		case len(batch) > 1 && errors.As(err, &pgErr):
			call.err = c.send(ctx, db, []*commitCall{call})
		default:
			call.err = err
		}
		close(call.done)
	}
}

// send runs calls' statements in one pipeline, committed at its end.
func (c *committer) send(ctx context.Context, db *DB, calls []*commitCall) error {
	c.batches.Add(1)
	if len(calls) > 1 {
		c.shared.Add(int64(len(calls)))
	}
	b := &pgx.Batch{}
	for _, call := range calls {
		call.queue(b)
	}
	return db.pool.SendBatch(ctx, b).Close()
}

// ShareCommits makes the small, independent statements of concurrent work
// that take a pipeline (see pipeline: a send recorded, a notification's
// event picked, a postback's attempt recorded, …) share commits, in up to
// flushers pipelines at once of at most size calls each, until ctx ends.
// flushers <= 0 leaves every call in a commit of its own.
func (db *DB) ShareCommits(ctx context.Context, flushers, size int) {
	startCommitter(ctx, db, &db.shared, flushers, size, false)
}

// pipeline runs the statements queue queues in one pipeline, one implicit
// transaction: shared with other calls' when commits are shared
// (ShareCommits), else alone. Callers queue only statements whose answer
// they do not need before queueing the next.
func (db *DB) pipeline(ctx context.Context, queue func(b *pgx.Batch)) error {
	if s := db.shared.Load(); s != nil {
		if ok, err := s.do(ctx, &commitCall{queue: queue}); ok {
			return err
		}
	}
	b := &pgx.Batch{}
	queue(b)
	return db.pool.SendBatch(ctx, b).Close()
}

// queueOne queues a statement of at most one row into b: its row, read
// with scan, goes to out with found true; no row leaves found false.
func queueOne[T any](b *pgx.Batch, out *T, found *bool, scan pgx.RowToFunc[T], sql string, args ...any) {
	b.Queue(sql, args...).Query(func(rows pgx.Rows) error {
		v, err := pgx.CollectExactlyOneRow(rows, scan)
		*found = err == nil
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err == nil {
			*out = v
		}
		return err
	})
}
