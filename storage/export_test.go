package storage

import (
	"context"
	"fmt"
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

// Later queues sql (no rows) to go with the transaction's commit (later).
func (t *Tx) Later(ctx context.Context, sql string, args ...any) error {
	return later(ctx, t.tx, nil, sql, args...)
}

// Exec runs sql in the transaction at once.
func (t *Tx) Exec(ctx context.Context, sql string, args ...any) error {
	_, err := t.tx.Exec(ctx, sql, args...)
	return err
}

// Count is the one integer sql selects, read in the transaction.
func (t *Tx) Count(ctx context.Context, sql string) (n int, err error) {
	err = t.tx.QueryRow(ctx, sql).Scan(&n)
	return n, err
}

// CreatePostback is WritePostback at once, saying whether the postback
// was new (a second one for the same resource and event is not).
func (t *Tx) CreatePostback(ctx context.Context, np NewPostback) (created bool, err error) {
	err = t.tx.QueryRow(ctx, createPostbackSQL, postbackArgs(np)...).Scan(&created)
	if err != nil {
		return false, fmt.Errorf("storage: create postback: %w", err)
	}
	if created {
		markOutbox(t.tx, np.Outbox) // queued after commit (aftercommit.go)
	}
	return created, nil
}
