package storage

import (
	"context"
	"fmt"
	"time"
)

// Retention: rows that only recorded how work was done, and whose work is
// finished, are deleted after a while, oldest first, a batch at a time.
// Money is never among them: the ledger, the records and their postbacks
// stay.

// PruneProcessedEvents deletes up to limit provider notifications processed
// more than olderThan ago and returns how many went. A copy of a deleted
// notification that arrives later is processed again, which changes
// nothing: the records it would move are already in their state.
func (db *DB) PruneProcessedEvents(ctx context.Context, olderThan time.Duration, limit int) (int64, error) {
	return db.prune(ctx, "provider_events", "processed_at", olderThan, limit)
}

// PruneSentOutbox deletes up to limit outbox rows handed to the queue more
// than olderThan ago and returns how many went. Their tasks ran long ago;
// task ids are unique per cause, so nothing reuses a deleted row's id.
func (db *DB) PruneSentOutbox(ctx context.Context, olderThan time.Duration, limit int) (int64, error) {
	return db.prune(ctx, "outbox", "enqueued_at", olderThan, limit)
}

// prune deletes the oldest rows of table whose column is before the cutoff;
// rows another pruner holds are skipped, so workers pruning at once do not
// wait on each other. table and column are constants of this file.
func (db *DB) prune(ctx context.Context, table, column string, olderThan time.Duration, limit int) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM `+table+` WHERE id IN (SELECT id FROM `+table+`
		WHERE `+column+` < now() - $1::interval ORDER BY `+column+` LIMIT $2 FOR UPDATE SKIP LOCKED)`, olderThan, limit)
	if err != nil {
		return 0, fmt.Errorf("storage: prune %s: %w", table, err)
	}
	return tag.RowsAffected(), nil
}
