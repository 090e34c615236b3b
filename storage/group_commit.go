package storage

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/ledger"
)

// groupCommit commits concurrent withdrawal creates together. A create is
// one statement that answers a refusal instead of raising it
// (transferCreateSQL), so several can share one transaction: a flusher
// takes the creates waiting when it is free (up to max), sends them in one
// pipeline ending in one commit, and answers each only once that commit
// succeeded, each with its own statement's answer (created, refused for
// funds, or a replay to look up). Nothing waits for a batch to fill: a
// create that arrives while its flusher is busy rides with the next batch,
// so batches grow with the load and stay single when it is light.
//
// Each integrator's creates go to one flusher (by its id): one
// integrator's concurrent creates then take its wallet's lock once per
// batch, in one commit, instead of several flushers' batches queueing on
// that lock, each with a commit of its own.
type groupCommit struct {
	calls   []chan *groupCall // one per flusher
	stopped chan struct{}
	max     int
	batches atomic.Int64 // transactions sent, for tests
}

// groupCall is one create waiting for its batch.
type groupCall struct {
	integratorID int64
	args         []any
	// Set by the flusher before done closes.
	createdAt, updatedAt time.Time
	wrote                bool
	err                  error
	done                 chan struct{}
}

// GroupCommit makes CreateWithdrawal commit concurrent creates together,
// in up to flushers transactions at once of at most size creates each, until
// ctx ends (creates then go alone again). API processes call it once;
// flushers <= 0 leaves every create in a transaction of its own.
func (db *DB) GroupCommit(ctx context.Context, flushers, size int) {
	if flushers <= 0 {
		return
	}
	g := &groupCommit{calls: make([]chan *groupCall, flushers), stopped: make(chan struct{}), max: max(size, 1)}
	for i := range g.calls {
		g.calls[i] = make(chan *groupCall)
	}
	db.group.Store(g)
	done := make(chan struct{}, flushers)
	for _, calls := range g.calls {
		go func() {
			defer func() { done <- struct{}{} }()
			g.run(ctx, db, calls)
		}()
	}
	go func() {
		<-ctx.Done()
		db.group.CompareAndSwap(g, nil)
		close(g.stopped)
		for range flushers {
			<-done
		}
	}()
}

// create hands a create's statement to a flusher and waits for its answer.
// ok is false when no flusher took it (the group stopped): the caller runs
// it alone.
func (g *groupCommit) create(ctx context.Context, c *groupCall) (ok bool, err error) {
	c.done = make(chan struct{})
	select {
	case g.calls[uint64(c.integratorID)%uint64(len(g.calls))] <- c:
	case <-g.stopped:
		return false, nil
	case <-ctx.Done():
		return true, ctx.Err()
	}
	select {
	case <-c.done:
		return true, nil
	case <-ctx.Done():
		return true, ctx.Err()
	}
}

// run is one flusher: it takes the first create to arrive on calls and
// every other one already waiting, up to max, and commits them together.
func (g *groupCommit) run(ctx context.Context, db *DB, calls chan *groupCall) {
	batch := make([]*groupCall, 0, g.max)
	for {
		var ok bool
		if batch, ok = gather(ctx, calls, batch, g.max); !ok {
			return
		}
		// The batch's callers are waiting: it runs to its end even when
		// ctx ends meanwhile.
		g.flush(context.WithoutCancel(ctx), db, batch)
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

// flush commits batch in one transaction and answers each call. The
// statements run in integrator order, so two batches lock wallets in the
// same order and never deadlock. When the server refused a statement (the
// whole transaction then rolled back) each create runs again alone, so
// only the faulty one fails; when the connection broke, the outcome is
// unknown and every call gets the error, as a lone create would.
func (g *groupCommit) flush(ctx context.Context, db *DB, batch []*groupCall) {
	slices.SortStableFunc(batch, func(a, b *groupCall) int { return cmp.Compare(a.integratorID, b.integratorID) })
	err := g.send(ctx, db, batch)
	var pgErr *pgconn.PgError
	for _, c := range batch {
		switch {
		case err == nil:
		case len(batch) > 1 && errors.As(err, &pgErr):
			_ = g.send(ctx, db, []*groupCall{c})
		default:
			c.wrote, c.err = false, err
		}
		close(c.done)
	}
}

// send runs calls' statements in one pipeline, one implicit transaction
// committed at its end, and records each statement's answer.
func (g *groupCommit) send(ctx context.Context, db *DB, calls []*groupCall) error {
	g.batches.Add(1)
	b := &pgx.Batch{}
	for _, c := range calls {
		b.Queue(createWithdrawalSQL, c.args...).QueryRow(func(row pgx.Row) error {
			c.wrote, c.err = transferCreated(row, &c.createdAt, &c.updatedAt)
			if c.err != nil && !ledger.IsRefusal(c.err) {
				return c.err
			}
			return nil
		})
	}
	err := db.pool.SendBatch(ctx, b).Close()
	if err != nil {
		for _, c := range calls {
			c.wrote, c.err = false, err
		}
	}
	return err
}

// createWithdrawal runs a withdrawal create's statement, in a group's
// batch when there is a group, and reads its answer (see transferCreated).
func (db *DB) createWithdrawal(ctx context.Context, integratorID int64, args []any, createdAt, updatedAt *time.Time) (bool, error) {
	if g := db.group.Load(); g != nil {
		c := &groupCall{integratorID: integratorID, args: args}
		if ok, err := g.create(ctx, c); ok {
			if err != nil {
				return false, err
			}
			*createdAt, *updatedAt = c.createdAt, c.updatedAt
			return c.wrote, c.err
		}
	}
	return transferCreated(db.pool.QueryRow(ctx, createWithdrawalSQL, args...), createdAt, updatedAt)
}
