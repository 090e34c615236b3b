package storage

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// The group commit commits concurrent withdrawal creates together. A
// create is one statement that answers a refusal instead of raising it
// (transferCreateSQL), so several can share one transaction (a committer:
// committer.go), each answered only once that commit succeeded, with its
// own statement's answer (created, refused for funds, or a replay to look
// up).
//
// Each integrator's creates go to one flusher (the committer is keyed by
// its id): one integrator's concurrent creates then take its wallet's lock
// once per batch, in one commit, instead of several flushers' batches
// queueing on that lock, each with a commit of its own. A batch runs in
// integrator order, so two batches lock wallets in the same order and
// never deadlock.

// GroupCommit makes CreateWithdrawal commit concurrent creates together,
// in up to flushers transactions at once of at most size creates each, until
// ctx ends (creates then go alone again). API processes call it once;
// flushers <= 0 leaves every create in a transaction of its own.
func (db *DB) GroupCommit(ctx context.Context, flushers, size int) {
	startCommitter(ctx, db, &db.group, flushers, size, true)
}

// createCall is a withdrawal create's statement as a committer's call,
// and its answer (see transferCreated).
type createCall struct {
	commitCall
	wrote                bool
	createErr            error // a refusal, or what the statement answered
	createdAt, updatedAt time.Time
}

func newCreateCall(integratorID int64, args []any) *createCall {
	c := &createCall{commitCall: commitCall{key: integratorID}}
	c.queue = func(b *pgx.Batch) {
		b.Queue(createWithdrawalSQL, args...).QueryRow(func(row pgx.Row) error {
			c.wrote, c.createErr = transferCreated(row, &c.createdAt, &c.updatedAt)
			if c.createErr != nil && !ledger.IsRefusal(c.createErr) {
				return c.createErr
			}
			return nil
		})
	}
	return c
}

// answer is the create's answer once its call ended with err.
func (c *createCall) answer(err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return c.wrote, c.createErr
}

// insertWithdrawalInGroup runs a withdrawal create's statement in a
// batch of the group commit and reads its answer (see transferCreated).
// grouped is false, and nothing ran, when the group commit is off or has
// stopped: the caller runs it alone (insertWithdrawal).
func (db *DB) insertWithdrawalInGroup(ctx context.Context, integratorID int64, args []any, createdAt, updatedAt *time.Time) (grouped, wrote bool, err error) {
	g := db.group.Load()
	if g == nil {
		return false, false, nil
	}
	c := newCreateCall(integratorID, args)
	ok, err := g.do(ctx, &c.commitCall)
	if !ok {
		return false, false, nil
	}
	if err == nil {
		*createdAt, *updatedAt = c.createdAt, c.updatedAt
	}
	wrote, err = c.answer(err)
	return true, wrote, err
}
