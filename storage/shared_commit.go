package storage

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// sharedCommit runs the small, independent statements of concurrent calls
// (a send recorded, a notification's event picked, a postback's attempt
// recorded, …) in one pipeline, one implicit transaction, one commit. Each
// call queues its statements with callbacks that keep their answers; a
// flusher takes the calls waiting when it is free (up to max), sends them
// together and answers each once the commit succeeded. As with the
// withdrawal creates' group commit, nothing waits for a batch to fill:
// alone, a call is a pipeline of its own; under load, calls that arrive
// while a flusher is busy share the next commit.
//
// A statement the server refuses rolls the whole transaction back: each
// call then runs again alone, so that only the faulty one fails. A broken
// connection leaves the outcome unknown: every call gets the error, as it
// would alone. Statements that share a commit see each other's writes as
// they would in sequence; callers must only queue statements whose answer
// they do not need before queueing the next.
type sharedCommit struct {
	calls   chan *sharedCall
	stopped chan struct{}
	max     int
	batches atomic.Int64 // pipelines sent, for tests
	shared  atomic.Int64 // calls that rode in a pipeline with others, for tests
}

// sharedCall is one call's statements waiting for a pipeline.
type sharedCall struct {
	// queue adds the call's statements to b, each with a callback that
	// keeps its answer and returns only errors that are not one (a
	// statement's "no rows" is an answer). It may run more than once (a
	// batch's rerun): callbacks overwrite what they keep.
	queue func(b *pgx.Batch)
	err   error
	done  chan struct{}
}

// ShareCommits makes the statements that take a pipeline (see pipeline)
// share commits, in up to flushers pipelines at once of at most size calls
// each, until ctx ends (calls then run alone again). Processes call it
// once (a process running the api and the worker both, once for both);
// flushers <= 0 leaves every call in a commit of its own.
func (db *DB) ShareCommits(ctx context.Context, flushers, size int) {
	if flushers <= 0 || db.shared.Load() != nil {
		return
	}
	s := &sharedCommit{calls: make(chan *sharedCall), stopped: make(chan struct{}), max: max(size, 1)}
	db.shared.Store(s)
	done := make(chan struct{}, flushers)
	for range flushers {
		go func() {
			defer func() { done <- struct{}{} }()
			s.run(ctx, db)
		}()
	}
	go func() {
		<-ctx.Done()
		db.shared.CompareAndSwap(s, nil)
		close(s.stopped)
		for range flushers {
			<-done
		}
	}()
}

// pipeline runs the statements queue queues in one pipeline, one implicit
// transaction: shared with other calls' when commits are shared
// (ShareCommits), else alone.
func (db *DB) pipeline(ctx context.Context, queue func(b *pgx.Batch)) error {
	if s := db.shared.Load(); s != nil {
		c := &sharedCall{queue: queue, done: make(chan struct{})}
		select {
		case s.calls <- c:
			select {
			case <-c.done:
				return c.err
			case <-ctx.Done():
				return ctx.Err()
			}
		case <-s.stopped:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	b := &pgx.Batch{}
	queue(b)
	return db.pool.SendBatch(ctx, b).Close()
}

// run is one flusher: it takes the first call to arrive and every other
// one already waiting, up to max, and commits them together.
func (s *sharedCommit) run(ctx context.Context, db *DB) {
	batch := make([]*sharedCall, 0, s.max)
	for {
		var ok bool
		if batch, ok = gather(ctx, s.calls, batch, s.max); !ok {
			return
		}
		// The batch's callers are waiting: it runs to its end even when
		// ctx ends meanwhile.
		s.flush(context.WithoutCancel(ctx), db, batch)
	}
}

// flush commits batch in one pipeline and answers each call: alone again
// each when the server refused a statement (the transaction rolled back),
// with the error each when the outcome is unknown.
func (s *sharedCommit) flush(ctx context.Context, db *DB, batch []*sharedCall) {
	err := s.send(ctx, db, batch)
	var pgErr *pgconn.PgError
	for _, c := range batch {
		switch {
		case err == nil:
		case len(batch) > 1 && errors.As(err, &pgErr):
			c.err = s.send(ctx, db, []*sharedCall{c})
		default:
			c.err = err
		}
		close(c.done)
	}
}

// send runs calls' statements in one pipeline, committed at its end.
func (s *sharedCommit) send(ctx context.Context, db *DB, calls []*sharedCall) error {
	s.batches.Add(1)
	if len(calls) > 1 {
		s.shared.Add(int64(len(calls)))
	}
	b := &pgx.Batch{}
	for _, c := range calls {
		c.queue(b)
	}
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
