package storage

import (
	"context"
	"time"
)

// CachedKeys is how many keys the key cache holds.
func (db *DB) CachedKeys() int {
	c := db.keys.Load()
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byID)
}

// GroupBatches is how many transactions the group commit sent.
func (db *DB) GroupBatches() int64 {
	if g := db.group.Load(); g != nil {
		return g.batches.Load()
	}
	return 0
}

// GroupAnswer is one create's answer from CreateWithdrawalsTogether.
type GroupAnswer struct {
	Created   bool
	CreatedAt time.Time
	Err       error
}

// CreateWithdrawalsTogether sends nws as one group-commit batch, as a
// flusher that found them all waiting would.
func (db *DB) CreateWithdrawalsTogether(ctx context.Context, nws []NewWithdrawal) []GroupAnswer {
	g := &committer{max: len(nws)}
	calls := make([]*createCall, len(nws))
	batch := make([]*commitCall, len(nws))
	for i, nw := range nws {
		args, err := createWithdrawalArgs(nw)
		if err != nil {
			panic(err)
		}
		calls[i] = newCreateCall(nw.IntegratorID, args)
		calls[i].done = make(chan struct{})
		batch[i] = &calls[i].commitCall
	}
	g.flush(ctx, db, batch) // flush sorts its batch
	answers := make([]GroupAnswer, len(calls))
	for i, c := range calls {
		created, err := c.answer(c.err)
		answers[i] = GroupAnswer{Created: created, CreatedAt: c.createdAt, Err: err}
	}
	return answers
}

// CheckPool is the pool watch's check at now, with answers standing for
// Postgres's own answer.
func (db *DB) CheckPool(ctx context.Context, now time.Time, window time.Duration, answers func(context.Context) bool) bool {
	return db.checkPool(ctx, now, window, answers)
}

// PostgresAnswers is the pool watch's connection of its own.
func (db *DB) PostgresAnswers(ctx context.Context) bool { return db.postgresAnswers(ctx) }

// SharedCommitCounts is how many pipelines the shared commit sent and how
// many calls rode in one with others.
func (db *DB) SharedCommitCounts() (batches, shared int64) {
	if s := db.shared.Load(); s != nil {
		return s.batches.Load(), s.shared.Load()
	}
	return 0, 0
}
